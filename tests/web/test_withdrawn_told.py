"""A player the organisers withdraw is told: their sign-up page and their own page say they
are withdrawn and since when, in the page's language, and they get one e-mail (in English
and Chinese, as every message: the site does not know which one a player reads) through the
outbox, only with an address; a double tap sends one, a withdrawal after a reinstatement a new
one, and a reinstatement before the message went drops it."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation

from tests import html
from tests.conftest import login
from tournament import services
from tournament.models import OutgoingEmail, Player
from tournament.players.player_links import player_for_token, player_token, sign_up_token

CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9"}


def withdraw_url(number: int) -> str:
    return reverse("player_withdraw", args=["spring-open", number])


def reinstate_url(number: int) -> str:
    return reverse("player_reinstate", args=["spring-open", number])


def told(player) -> list[OutgoingEmail]:
    return list(OutgoingEmail.objects.filter(player=player, reason="withdrawn").order_by("id"))


def state_of(page) -> str:
    return html.texts(page.content, ".sign-up-state")[0]


@pytest.fixture
def signed_up(tournament):
    """Ann, accepted at once through the public form, and so player 1."""
    services.tournament_update(tournament=tournament, sign_up_open=True, sign_up_review=False)
    return services.sign_up(tournament=tournament, name="Ann Lee", email="ann@example.org")


def test_a_withdrawn_player_is_told_on_their_pages_and_by_one_e_mail(
    signed_up, organiser, personas
):
    player = signed_up.player
    status = reverse("sign_up_status", args=[sign_up_token(signed_up)])
    own = reverse("player_link", args=[player_token(player)])
    page = Client().get(status)
    assert "You are registered as player 1." in state_of(page)
    assert "Withdraw: I cannot come" in html.text(page.content)
    # Only an organiser withdraws: the others change nothing and nobody is told.
    for persona in ("referee", "other_referee", "anonymous"):
        personas[persona].post(withdraw_url(1))
    assert told(player) == [] and Player.objects.get(pk=player.pk).withdrawn_at is None

    # A double tap: one withdrawal, one e-mail.
    organiser_client = login(organiser)
    organiser_client.post(withdraw_url(1))
    organiser_client.post(withdraw_url(1))
    player.refresh_from_db()
    (email,) = told(player)
    assert email.to == "ann@example.org"
    with translation.override("en"):
        date = formats.date_format(timezone.localtime(player.withdrawn_at), "DATE_FORMAT")
    with translation.override("zh-hans"):
        date_zh = formats.date_format(timezone.localtime(player.withdrawn_at), "DATE_FORMAT")
    assert email.subject == (
        "Spring Open: you are withdrawn from the tournament / Spring Open：你已被退赛"
    )
    assert email.body.startswith(
        "Hello Ann Lee,\n\nThe organisers of Spring Open withdrew you from the tournament on "
        f"{date}: you are not drawn for the sessions still to come. The sessions you played "
        "stand.\n\nIf this is a mistake, tell the organisers: they can reinstate you."
    )
    token = email.body.split("/me/", 1)[1].split("/")[0]
    assert player_for_token(token) == player  # their own page's link
    assert f"已于 {date_zh} 将你退赛" in email.body  # and in Chinese, its date in Chinese

    # The pages say so, in their reader's language, and no longer offer the withdrawal.
    page = Client().get(status)
    assert html.texts(page.content, ".withdrawn-note") == [
        f"withdrawn Withdrawn from the tournament on {date}: you are not drawn for the "
        "sessions still to come. The sessions you played stand."
    ]
    assert "Withdraw: I cannot come" not in html.text(page.content)
    assert f"Withdrawn from the tournament on {date}" in html.text(Client().get(own).content)
    assert f"已于 {date_zh} 退赛" in state_of(Client().get(status, **CHINESE))
    assert f"已于 {date_zh} 退赛" in html.text(Client().get(own, **CHINESE).content)

    # Reinstated: registered again, and the message not sent yet is not sent.
    organiser_client.post(reinstate_url(1))
    assert "You are registered as player 1." in state_of(Client().get(status))
    assert told(player) == []


def test_a_new_withdrawal_after_a_reinstatement_tells_again(signed_up):
    player = signed_up.player
    services.player_withdraw(player=player)
    (second,) = told(player)
    second.sent_at, second.attempts = timezone.now(), 1
    second.save()
    services.player_reinstate(player=player)
    services.player_withdraw(player=player)
    # The message sent stays in the outbox; the new withdrawal has its own.
    assert [email.sent_at is not None for email in told(player)] == [True, False]


def test_a_player_without_an_e_mail_is_withdrawn_without_one(tournament):
    player = services.player_save(tournament=tournament, number=2, name="Bo")
    services.player_withdraw(player=player)
    assert player.withdrawn_at is not None
    assert not OutgoingEmail.objects.exists()
