"""Sign-ups: within the cap a place held (or accepted at once), beyond it the waiting list in
order; duplicates refused with the reason; a place freed goes to the first in line; the
organiser accepts, refuses and moves; the player withdraws before the first draw."""

import threading
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from tests.conftest import make_players, make_tournament, make_user
from tests.services.errors import codes
from tournament import services
from tournament.models import OutgoingEmail, SignUp


def open_sign_up(tournament, *, cap=8, review=True, **more):
    return services.tournament_update(
        tournament=tournament, sign_up_open=True, player_cap=cap, sign_up_review=review, **more
    )


def sign(tournament, n: int, **fields) -> SignUp:
    return services.sign_up(
        tournament=tournament,
        **{"name": f"Signer {n}", "email": f"s{n}@example.org", **fields},
    )


def statuses(tournament) -> list[tuple[str, str]]:
    return list(tournament.sign_ups.order_by("position").values_list("name", "status"))


def test_within_the_cap_a_place_is_held_beyond_it_the_waiting_list(tournament):
    open_sign_up(tournament, cap=8)
    make_players(tournament, 5)
    for n in range(1, 6):
        sign(tournament, n)
    assert statuses(tournament) == [
        ("Signer 1", "pending"),
        ("Signer 2", "pending"),
        ("Signer 3", "pending"),
        ("Signer 4", "waiting"),
        ("Signer 5", "waiting"),
    ]


def test_without_review_a_sign_up_within_the_cap_is_a_player_at_once(tournament):
    open_sign_up(tournament, cap=4, review=False)
    make_players(tournament, 2)
    first = sign(
        tournament, 1, name="Wang Fang", name_zh="王芳", country="fr", ema_number="04010005"
    )
    assert first.status == "accepted"
    player = first.player
    assert (player.number, player.country, player.ema_number) == (3, "FRA", "04010005")
    assert player.email == "s1@example.org"
    # A romanised name beside a Chinese name: family name first, on the sign-up and player.
    assert (first.first_name, first.last_name) == ("Fang", "Wang")
    assert (player.name, player.first_name, player.last_name) == ("Wang Fang", "Fang", "Wang")
    sign(tournament, 2)
    assert sign(tournament, 3).status == "waiting"


@pytest.mark.parametrize(
    ("first", "second", "field"),
    [
        ({"ema_number": "04010005"}, {"ema_number": "4010005", "name": "Other"}, "ema_number"),
        ({}, {"name": "signer 1", "email": "S1@EXAMPLE.ORG"}, "email"),
    ],
)
def test_duplicates_are_refused_with_the_reason(tournament, first, second, field):
    open_sign_up(tournament)
    sign(tournament, 1, **first)
    with pytest.raises(ValidationError) as refused:
        sign(tournament, 2, **second)
    assert field in refused.value.message_dict
    assert tournament.sign_ups.count() == 1


def test_a_registered_players_ema_number_cannot_sign_up_again(tournament):
    open_sign_up(tournament)
    services.player_save(tournament=tournament, number=1, name="Ann", ema_number="04010005")
    with pytest.raises(ValidationError) as refused:
        sign(tournament, 2, ema_number="04010005")
    assert "has already signed up" in refused.value.message_dict["ema_number"][0]


def test_sign_up_closed_refused_and_nothing_stored(tournament):
    with pytest.raises(ValidationError) as refused:
        sign(tournament, 1)
    assert refused.value.code == "sign_up_closed"
    open_sign_up(tournament, sign_up_closes_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(ValidationError) as refused:
        sign(tournament, 1)
    assert "closed on" in refused.value.messages[0]
    open_sign_up(tournament, sign_up_closes_at=None)
    make_players(tournament, 4)
    services.session_draw(tournament=tournament, number=1, seed=1)
    with pytest.raises(ValidationError) as refused:
        sign(tournament, 1)
    assert "first session is drawn" in refused.value.messages[0]
    assert not SignUp.objects.exists()


def test_a_withdrawal_gives_the_place_to_the_first_in_line_who_is_told(tournament, run_tasks):
    open_sign_up(tournament, cap=4, review=False)
    signed = [sign(tournament, n) for n in range(1, 7)]
    assert [s.status for s in signed] == ["accepted"] * 4 + ["waiting"] * 2
    services.sign_up_withdraw(sign_up=signed[1])
    assert statuses(tournament)[1] == ("Signer 2", "withdrawn")
    assert statuses(tournament)[4] == ("Signer 5", "accepted")
    assert not tournament.players.get(number=2).is_active
    # The organiser withdrawing a player frees the place too.
    services.player_withdraw(player=tournament.players.get(number=3))
    assert statuses(tournament)[5] == ("Signer 6", "accepted")
    told = OutgoingEmail.objects.filter(reason="waiting_list").order_by("id")
    assert [email.to for email in told] == ["s5@example.org", "s6@example.org"]
    assert "a place is yours" in told[0].subject


def test_refusing_a_held_place_promotes_and_accepting_makes_a_player(tournament):
    open_sign_up(tournament, cap=4)
    signed = [sign(tournament, n) for n in range(1, 6)]
    services.sign_up_refuse(sign_up=signed[0])
    assert statuses(tournament)[4] == ("Signer 5", "pending")
    accepted = services.sign_up_accept(sign_up=signed[1])
    assert accepted.player.number == 1 and accepted.player.name == "Signer 2"
    with pytest.raises(ValidationError) as refused:
        services.sign_up_accept(sign_up=signed[1])
    assert refused.value.code == "sign_up_decided"


def test_the_waiting_list_moves_and_a_higher_cap_takes_the_first_in_line(tournament):
    open_sign_up(tournament, cap=4)
    signed = [sign(tournament, n) for n in range(1, 8)]
    with pytest.raises(ValidationError) as refused:
        services.sign_up_accept(sign_up=signed[4])
    assert refused.value.code == "no_place_free"
    services.sign_up_move(sign_up=signed[6], up=True)
    services.sign_up_move(sign_up=signed[6], up=True)
    waiting = [name for name, status in statuses(tournament) if status == "waiting"]
    assert waiting == ["Signer 7", "Signer 5", "Signer 6"]
    services.sign_up_move(sign_up=signed[6], up=True)  # first already: stays
    open_sign_up(tournament, cap=5)
    assert dict(statuses(tournament))["Signer 7"] == "pending"


def test_a_player_cannot_withdraw_themselves_after_the_first_draw(tournament):
    open_sign_up(tournament, cap=4, review=False)
    signed = [sign(tournament, n) for n in range(1, 5)]
    services.session_draw(tournament=tournament, number=1, seed=1)
    with pytest.raises(ValidationError) as refused:
        services.sign_up_withdraw(sign_up=signed[0])
    assert refused.value.code == "sign_up_after_draw"


def test_the_form_writes_only_its_fields(tournament):
    open_sign_up(tournament)
    with pytest.raises(TypeError):
        services.sign_up(tournament=tournament, name="X", email="x@e.org", status="accepted")


def test_a_tournament_with_accepted_sign_ups_can_be_deleted(tournament):
    open_sign_up(tournament, review=False)
    sign(tournament, 1)
    services.tournament_delete(tournament=tournament, confirm_slug=tournament.slug)
    assert not SignUp.objects.exists()


def test_a_sign_up_that_cannot_become_a_player_never_holds_up_a_withdrawal(tournament):
    open_sign_up(tournament, cap=4, review=False)
    signed = [sign(tournament, n) for n in range(1, 5)]
    waiting = sign(tournament, 5, ema_number="04010005")
    # Meanwhile the organiser gives a player that EMA number.
    services.player_save(tournament=tournament, player=signed[0].player, ema_number="04010005")
    services.player_withdraw(player=tournament.players.get(number=2))
    waiting.refresh_from_db()
    assert waiting.status == "pending"  # its place, for the organiser to sort out
    with pytest.raises(ValidationError) as refused:
        services.sign_up_accept(sign_up=waiting)
    assert "ema_number" in refused.value.message_dict


def test_a_new_sign_up_never_jumps_the_waiting_list(tournament):
    open_sign_up(tournament, cap=4)
    for n in range(1, 6):
        sign(tournament, n)
    # A place comes free without a promotion: a player is made a substitute.
    player = services.sign_up_accept(sign_up=tournament.sign_ups.get(name="Signer 1")).player
    services.player_save(tournament=tournament, player=player, is_substitute=True)
    assert sign(tournament, 6).status == "waiting"
    assert dict(statuses(tournament))["Signer 5"] == "pending"


# ---------------------------------------------------------------- floods


def test_a_tournament_takes_at_most_so_many_sign_ups_an_hour(tournament, settings):
    settings.SIGN_UPS_PER_HOUR = 5
    open_sign_up(tournament, cap=4)
    for n in range(5):
        sign(tournament, n)
    with pytest.raises(ValidationError) as refused:
        sign(tournament, 5)
    assert codes(refused.value) == {"sign_ups_per_hour"}
    assert "taken 5 sign-ups in the last hour" in refused.value.messages[0]
    assert tournament.sign_ups.count() == 5
    assert OutgoingEmail.objects.count() == 5
    # Withdrawn sign-ups still count; an hour later, the tournament takes sign-ups again.
    services.sign_up_withdraw(sign_up=tournament.sign_ups.first())
    with pytest.raises(ValidationError):
        sign(tournament, 6)
    tournament.sign_ups.update(signed_up_at=timezone.now() - timedelta(minutes=61))
    assert sign(tournament, 7).status == "waiting"


def test_a_tournament_whose_cap_is_larger_takes_its_cap_in_an_hour(tournament, settings):
    settings.SIGN_UPS_PER_HOUR = 3
    open_sign_up(tournament, cap=6, review=False)
    for n in range(6):
        sign(tournament, n)
    with pytest.raises(ValidationError):
        sign(tournament, 6)
    assert tournament.players.count() == 6


def test_the_default_takes_a_rush_of_two_hundred_players_in_an_hour(tournament):
    open_sign_up(tournament, cap=None)
    for n in range(200):
        sign(tournament, n)
    assert tournament.sign_ups.count() == 200


def test_an_email_address_signs_up_at_most_so_many_times_a_day(
    tournament, other_tournament, settings
):
    settings.SIGN_UPS_PER_EMAIL = 3
    open_sign_up(tournament)
    open_sign_up(other_tournament)
    victim = "victim@example.org"
    sign(tournament, 1, email=victim)
    sign(tournament, 2, email=victim)
    sign(other_tournament, 3, email=victim)
    with pytest.raises(ValidationError) as refused:
        sign(tournament, 4, email="VICTIM@example.org")
    assert refused.value.message_dict == {
        "email": [
            "This e-mail address has signed up 3 times today, as many as one address may: "
            "please use another, or try again tomorrow."
        ]
    }
    assert OutgoingEmail.objects.filter(to__iexact=victim).count() == 3
    sign(tournament, 5, email="someone.else@example.org")
    SignUp.objects.update(signed_up_at=timezone.now() - timedelta(hours=25))
    sign(tournament, 6, email=victim)


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="threads share no in-memory SQLite database"
)
def test_parallel_sign_ups_cannot_all_pass_the_hour(transactional_db, settings):
    """Counted under the tournament's lock: sixteen sign-ups at once, a limit of five."""
    organiser = make_user("organiser", can_create=True)
    tournament = open_sign_up(make_tournament(creator=organiser), cap=4)
    settings.SIGN_UPS_PER_HOUR = 5
    start = threading.Barrier(16)
    refused = []

    def signer(n):
        start.wait()
        try:
            sign(tournament, n)
        except ValidationError as error:
            refused.append(codes(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=signer, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert tournament.sign_ups.count() == 5
    assert refused == [{"sign_ups_per_hour"}] * 11
