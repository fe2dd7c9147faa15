"""A table's tablet signs in from the table card: the card's QR code and link (organisers'
cards only), the tablet entering, correcting and confirming at its table and nowhere else,
revocation taking effect at the next request, and the revoke buttons with every persona."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tests import html
from tests.conftest import SESSION_READS, login
from tests.web.pages import hand_data, reviewed
from tournament import services
from tournament.hall import device_links
from tournament.models import Hand, HandRevision, Table

REFUSED = "This table link was revoked or is not valid: ask the organiser for the table card."


def url(name, *args, slug="spring-open"):
    return reverse(name, args=[slug, *args])


def table(number: int) -> Table:
    return Table.objects.select_related("session").get(session__number=1, number=number)


def link(number: int) -> str:
    """The path of table ``number``'s device link, as its card carries it now."""
    return reverse("device_link", args=[device_links.device_token(table(number))])


@pytest.fixture
def tablet(session_in_play):
    """An anonymous tablet signed in at table 1 through its card's link."""
    client = Client()
    response = client.get(link(1))
    assert response.status_code == 302
    assert response["Location"] == url("table_sheet", 1, 1)
    return client


def assert_refused(response):
    assert response.status_code == 403
    assert REFUSED in response.content.decode()


def assert_sent_to_login(response):
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# ---------------------------------------------------------------- the table cards


def test_an_organisers_cards_carry_each_tables_qr_code_and_link(session_in_play, organiser):
    response = login(organiser).get(url("table_cards", 1))
    assert response.status_code == 200
    page = html.parse(response.content)
    hrefs = [a.attrs["href"] for a in page.find("a[data-device-link]")]
    assert hrefs == [f"http://testserver{link(n)}" for n in (1, 2, 3, 4)]
    assert len(page.find("svg")) == 4
    assert len(page.find(f"form[action='{url('device_link_revoke', 1, 1)}']")) == 1
    assert page.find(f"form[action='{url('device_links_revoke', 1)}']")


def test_the_card_link_signs_a_tablet_in_at_its_table(session_in_play, organiser):
    page = login(organiser).get(url("table_cards", 1)).content
    href = html.elements(page, "a[data-device-link]")[2].attrs["href"]
    response = Client().get(href, follow=True)
    assert response.redirect_chain == [(url("table_sheet", 1, 3), 302)]
    assert response.status_code == 200
    assert response.context["table"] == table(3)


def test_a_referees_cards_carry_no_device_links(session_in_play, referee):
    # A referee could otherwise hand a tablet any table's link.
    response = login(referee).get(url("table_cards", 1))
    assert response.status_code == 200
    page = response.content
    assert not html.elements(page, "svg")
    assert not html.elements(page, "[data-device-link]")
    assert "revoke" not in page.decode()


# ---------------------------------------------------------------- the tablet at its table


def test_the_tablet_sees_its_tables_sheet(tablet):
    response = tablet.get(url("table_sheet", 1, 1))
    assert response.status_code == 200
    assert response.context["table"] == table(1)
    assert response.context["can_enter"]
    # The header says which table's tablet this is, and offers no account to log in to.
    page = response.content
    assert html.texts(page, "span.who") == ["Tablet of table 1"]
    assert "Log in" not in html.text(page)


def test_a_hand_entered_on_the_tablet_records_the_device_and_no_user(tablet):
    response = tablet.post(url("table_sheet", 1, 1), hand_data(1))
    assert response.status_code == 302
    hand = Hand.objects.get(table=table(1), number=1)
    assert hand.entered_by is None
    token = device_links.device_token(table(1))
    assert hand.entered_by_device == device_links.link_id(table(1), token)
    assert hand.entered_by_device.startswith("table 1 · ")
    assert "via the table" in tablet.get(url("table_sheet", 1, 1)).content.decode()


# What the hall's load depends on: a tablet's save and its sheet's reload, in queries (the
# session, the link's table with its session and tournament, then the work itself, the
# table's stored results and the tournament's version included; the sheet reads no
# revision while no hand was corrected; a save reads the rulings' penalties of its hand and,
# once its table is locked, the tournament's rules; the sheet its table's calls for a
# referee). The same with 8 hands entered as with none: nothing grows with the sheet.
SAVE_QUERIES = SESSION_READS + 18
SHEET_QUERIES = SESSION_READS + 6


def test_a_tablets_save_and_sheet_load_take_a_fixed_number_of_queries(
    tablet, django_assert_num_queries
):
    for number in (1, 8):
        if number == 8:
            for earlier in range(2, 8):
                tablet.post(url("table_sheet", 1, 1), hand_data(earlier))
        with django_assert_num_queries(SAVE_QUERIES):
            response = tablet.post(
                url("table_sheet", 1, 1),
                hand_data(number, submission_key=uuid.uuid4()),
                HTTP_ACCEPT="application/json",
            )
        assert response.json()["saved"] is True
        with django_assert_num_queries(SHEET_QUERIES):
            assert tablet.get(url("table_sheet", 1, 1)).status_code == 200
    assert Hand.objects.filter(table=table(1)).count() == 8


def test_a_hand_entered_by_the_referee_records_no_device(session_in_play, referee):
    login(referee).post(url("table_sheet", 1, 1), hand_data(1))
    hand = Hand.objects.get(table=table(1), number=1)
    assert (hand.entered_by, hand.entered_by_device) == (referee, "")


def test_the_tablet_corrects_a_hand_and_the_revision_keeps_who_entered_it(tablet, referee):
    services.hand_record(
        table=table(1), entry=services.HandEntry(number=1, outcome="draw"), user=referee
    )
    assert tablet.get(url("hand_edit", 1, 1, 1)).status_code == 200
    response = tablet.post(url("hand_edit", 1, 1, 1), hand_data(1, version=1))
    assert response.status_code == 302
    hand = Hand.objects.get(table=table(1), number=1)
    assert (hand.outcome, hand.entered_by) == ("self_drawn", None)
    assert hand.entered_by_device.startswith("table 1 · ")
    revision = HandRevision.objects.get(hand=hand)
    assert revision.revised_by is None
    assert revision.previous["entered_by"] == "referee"
    assert revision.previous["entered_by_device"] == ""


def test_the_tablet_confirms_its_table(tablet):
    services.hand_record(table=table(1), entry=services.HandEntry(number=1, outcome="draw"))
    assert tablet.get(url("table_confirm", 1, 1)).status_code == 200
    response = tablet.post(
        url("table_confirm", 1, 1),
        reviewed(tablet, url("table_confirm", 1, 1), record_missing_as_not_played="on"),
    )
    assert response.status_code == 302
    confirmed = table(1)
    assert confirmed.is_confirmed
    assert confirmed.confirmed_by is None
    assert confirmed.hands.count() == 16


# ---------------------------------------------------------------- and nowhere else


@pytest.mark.parametrize(
    ("name", "args"),
    [("table_sheet", (1, 2)), ("hand_edit", (1, 2, 1)), ("table_confirm", (1, 2))],
)
def test_the_tablet_is_refused_at_another_table(tablet, name, args):
    services.hand_record(table=table(2), entry=services.HandEntry(number=1, outcome="draw"))
    assert tablet.get(url(name, *args)).status_code == 403


def test_the_tablet_cannot_enter_or_confirm_at_another_table(tablet):
    assert tablet.post(url("table_sheet", 1, 2), hand_data(1)).status_code == 403
    response = tablet.post(url("table_confirm", 1, 2), {"record_missing_as_not_played": "on"})
    assert response.status_code == 403
    assert not table(2).hands.exists()
    assert not table(2).is_confirmed


def test_the_tablet_is_refused_at_the_same_table_number_of_another_session(tablet, tournament):
    services.session_draw(tournament=tournament, number=2, seed=2)
    assert tablet.get(url("table_sheet", 2, 1)).status_code == 403


@pytest.mark.parametrize(
    ("method", "name", "args"),
    [
        ("get", "referee_home", ()),
        ("get", "table_cards", (1,)),
        ("get", "player_list", ()),
        ("get", "tournament_edit", ()),
        ("post", "session_close", (1,)),
        ("post", "table_extra_time", (1, 1)),
        ("post", "device_link_revoke", (1, 1)),
        ("post", "device_links_revoke", (1,)),
    ],
)
def test_the_tablet_is_sent_to_log_in_at_every_other_page(tablet, method, name, args):
    assert_sent_to_login(getattr(tablet, method)(url(name, *args)))
    assert table(1).device_link_version == 1


def test_a_logged_in_referee_who_opens_a_link_stays_logged_in_and_enters_as_themselves(
    session_in_play, referee
):
    client = login(referee)
    assert client.get(link(1)).status_code == 302
    assert client.get(url("referee_home")).status_code == 200
    client.post(url("table_sheet", 1, 1), hand_data(1))
    hand = Hand.objects.get(table=table(1), number=1)
    assert (hand.entered_by, hand.entered_by_device) == (referee, "")


# ---------------------------------------------------------------- revocation


def test_a_link_that_is_not_one_shows_the_refusal(db):
    assert_refused(Client().get(reverse("device_link", args=["forged:token"])))


def test_the_link_page_accepts_only_get(session_in_play):
    assert Client().post(link(1)).status_code == 405


def test_revoking_the_sessions_links_refuses_the_tablet_at_its_next_request(
    tablet, session_in_play
):
    old_link = link(1)
    services.device_links_revoke(session=session_in_play)
    assert_refused(tablet.get(url("table_sheet", 1, 1)))
    assert_refused(tablet.post(url("table_sheet", 1, 1), hand_data(1)))
    assert_refused(
        tablet.post(
            url("table_confirm", 1, 1),
            reviewed(tablet, url("table_confirm", 1, 1), record_missing_as_not_played="on"),
        )
    )
    assert_refused(Client().get(old_link))
    assert not table(1).hands.exists()
    assert not table(1).is_confirmed


def test_revoking_one_tables_link_refuses_that_tablet_only(tablet, organiser):
    other = Client()
    other.get(link(2))
    response = login(organiser).post(url("device_link_revoke", 1, 1))
    assert response.status_code == 302
    assert_refused(tablet.get(url("table_sheet", 1, 1)))
    assert other.get(url("table_sheet", 1, 2)).status_code == 200


def test_the_tablet_signs_in_again_with_the_new_card(tablet, session_in_play):
    services.device_links_revoke(session=session_in_play)
    assert tablet.get(link(1)).status_code == 302
    assert tablet.get(url("table_sheet", 1, 1)).status_code == 200


def test_a_revoked_link_leaves_a_logged_in_referee_as_they_were(session_in_play, referee):
    client = login(referee)
    client.get(link(1))
    services.device_links_revoke(session=session_in_play)
    assert client.get(url("table_sheet", 1, 1)).status_code == 200


# ---------------------------------------------------------------- the revoke buttons


REVOKES = [("device_links_revoke", (1,)), ("device_link_revoke", (1, 3))]


def versions() -> tuple[int, dict[int, int]]:
    session = table(1).session
    return (
        session.device_links_version,
        dict(session.tables.values_list("number", "device_link_version")),
    )


@pytest.mark.parametrize(("name", "args"), REVOKES)
@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 302), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_revoke_by_persona(personas, session_in_play, name, args, persona, expected):
    response = personas[persona].post(url(name, *args))
    assert response.status_code == expected
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    revoked = persona == "organiser"
    if name == "device_links_revoke":
        assert versions() == (2 if revoked else 1, {1: 1, 2: 1, 3: 1, 4: 1})
    else:
        assert versions() == (1, {1: 1, 2: 1, 3: 2 if revoked else 1, 4: 1})


def test_revoking_the_sessions_links_returns_to_the_cards_with_new_links(personas, session_in_play):
    before = link(2)
    response = personas["organiser"].post(url("device_links_revoke", 1), follow=True)
    assert response.redirect_chain == [(url("table_cards", 1), 302)]
    html = response.content.decode()
    assert "Every table link of session 1 is revoked." in html
    assert before not in html
    assert link(2) in html


def test_revoking_a_tables_link_returns_to_its_card(personas, session_in_play):
    response = personas["organiser"].post(url("device_link_revoke", 1, 3), follow=True)
    assert response.redirect_chain == [(url("table_cards", 1) + "#table-3", 302)]
    assert "The link of table 3 is revoked." in response.content.decode()


@pytest.mark.parametrize(("name", "args"), REVOKES)
def test_revoke_refuses_get(personas, session_in_play, name, args):
    assert personas["organiser"].get(url(name, *args)).status_code == 405
    assert versions() == (1, {1: 1, 2: 1, 3: 1, 4: 1})


def test_revoking_an_unknown_session_or_table_is_404(personas, session_in_play):
    assert personas["organiser"].post(url("device_links_revoke", 9)).status_code == 404
    assert personas["organiser"].post(url("device_link_revoke", 1, 9)).status_code == 404
