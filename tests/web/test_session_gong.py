"""How a session ends on the score sheet, the review and the hall's screen: the EMA's gong
(120-minute sessions, the gong at 115: the hand in play is the last, the rest not played) and
the bell (time up: the hand in play abandoned), before and after, with every persona."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests import html
from tests.conftest import login
from tests.web.pages import hand_data, reviewed
from tests.web.test_screen import screen_url
from tests.web.test_screen import shown as screen_shown
from tournament import services
from tournament.hall import device_links
from tournament.hall.clock import iso_utc
from tournament.models import Hand, Session, Table, Tournament

COPENHAGEN = ZoneInfo("Europe/Copenhagen")
GONG = "The gong has sounded: hand {n} is the last; no new hand starts."
BELL = "Time is up: the hand in play is abandoned; record it and the rest as not played."
REST = "Record the rest as not played: review and confirm"


def url(name, *args):
    return reverse(name, args=["spring-open", 1, *args])


def sheet_url(table: int = 1) -> str:
    return url("table_sheet", table)


def review_url(table: int = 1) -> str:
    return url("table_confirm", table)


def table(number: int = 1) -> Table:
    return Table.objects.get(session__number=1, number=number)


@pytest.fixture
def gong(tournament):
    """The tournament plays the EMA's ending, in Copenhagen."""
    Tournament.objects.filter(pk=tournament.pk).update(
        session_minutes=120, session_end="gong", gong_minute=115, time_zone="Europe/Copenhagen"
    )


def started(session: Session, minutes_ago: float) -> datetime:
    opened_at = timezone.now() - timedelta(minutes=minutes_ago)
    Session.objects.filter(pk=session.pk).update(opened_at=opened_at)
    return opened_at


def entered(hands, *, at: datetime, number: int = 1) -> None:
    """Hands ``hands`` of table ``number`` entered (draws), stored by the server at ``at``."""
    for n in hands:
        services.hand_record(
            table=table(number), entry=services.HandEntry(number=n, outcome="draw")
        )
    Hand.history.model.objects.filter(table_id=table(number).pk, number__in=hands).update(
        history_date=at
    )


def hidden(response, css: str) -> list[str]:
    return [e.text() for e in html.elements(response.content, css) if "hidden" in e.attrs]


def words(response, moment: str, *, shown: bool = True) -> list[str]:
    """The bold words of the page's parts for ``moment`` ("gong", "end") that the page shows
    (or, with ``shown`` False, keeps hidden for the countdown to show)."""
    return [
        strong.text()
        for part in html.elements(response.content, f"[data-clock-from={moment}]")
        if ("hidden" not in part.attrs) is shown
        for strong in part.find("strong")
    ]


def entry_heading(response) -> list[str]:
    return html.texts(response.content, "#entry h2")


# ---------------------------------------------------------------- before the gong


def test_before_the_gong_the_sheet_says_when_it_sounds(gong, session_in_play, personas):
    opened_at = started(session_in_play, 60)
    entered(range(1, 6), at=opened_at + timedelta(minutes=50))

    response = personas["referee"].get(sheet_url())

    gong_at = opened_at + timedelta(minutes=115)
    clock = html.one(response.content, "#session-clock")
    assert clock.attrs["data-clock-gong"] == iso_utc(gong_at)
    assert clock.attrs["data-clock-ends"] == iso_utc(opened_at + timedelta(minutes=120))
    # In the event's time zone.
    assert f"Gong at {gong_at.astimezone(COPENHAGEN):%H:%M}" in clock.text()
    assert not hidden(response, "#session-clock [data-clock-until=gong]")
    # The gong's words are on the page for the countdown to show at the gong, not yet shown.
    assert words(response, "gong", shown=False) == [GONG.format(n=6)]
    assert words(response, "gong") == []
    assert BELL not in response.content.decode()
    assert entry_heading(response) == ["Enter hand 6"]


def test_a_tables_extra_minutes_move_its_gong(gong, session_in_play, personas):
    opened_at = started(session_in_play, 116)
    services.table_extra_time(table=table(2), minutes=10)

    late = personas["referee"].get(sheet_url(2))
    on_time = personas["referee"].get(sheet_url(1))

    gong_at = opened_at + timedelta(minutes=125)
    assert html.one(late.content, "#session-clock").attrs["data-clock-gong"] == iso_utc(gong_at)
    assert f"Gong at {gong_at.astimezone(COPENHAGEN):%H:%M}" in html.text(late.content)
    assert words(late, "gong") == []
    assert words(on_time, "gong") == [GONG.format(n=1)]


# ---------------------------------------------------------------- after the gong


def test_after_the_gong_the_hand_in_play_is_the_last(gong, session_in_play, personas):
    opened_at = started(session_in_play, 116)
    entered(range(1, 6), at=opened_at + timedelta(minutes=100))

    response = personas["referee"].get(sheet_url())

    assert words(response, "gong") == [GONG.format(n=6)]
    assert hidden(response, "#session-clock [data-clock-until=gong]")
    # The time limit still shows; hand 6 is still to be entered.
    assert html.one(response.content, "#session-clock [data-clock-left]").text().startswith("0:0")
    assert entry_heading(response) == ["Enter hand 6"]
    assert "checked" in html.one(review(personas), "input[name=record_missing_as_not_played]").attrs


def review(personas):
    return personas["referee"].get(review_url()).content


def test_once_the_last_hand_is_entered_the_sheet_offers_the_rest_as_not_played(
    gong, session_in_play, personas
):
    opened_at = started(session_in_play, 118)
    entered(range(1, 6), at=opened_at + timedelta(minutes=100))
    saved = personas["referee"].post(sheet_url(), hand_data(6), follow=True)
    assert saved.status_code == 200

    response = personas["referee"].get(sheet_url())

    note = html.one(response.content, "#gong-over")
    assert "Hand 6, the last after the gong, is entered." in note.text()
    assert (
        "Hands 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 are recorded as not played when the table "
        "is confirmed." in note.text()
    )
    (button,) = note.find("a.button")
    assert (button.text(), button.attrs["href"]) == (REST, review_url())
    # No new hand is offered: no entry form, but a way to enter one anyway.
    assert not html.elements(response.content, "#hand-entry")
    assert entry_heading(response) == []
    assert note.find("a[href='?another=1#entry']")[0].text().startswith("Enter hand 7 anyway")

    # The one tap: the review, "time called" ticked; confirming records the rest.
    page = personas["referee"].get(review_url())
    assert "checked" in html.one(page.content, "input[name=record_missing_as_not_played]").attrs
    data = reviewed(personas["referee"], review_url(), record_missing_as_not_played="on")
    assert personas["referee"].post(review_url(), data).status_code == 302
    outcomes = dict(table().hands.values_list("number", "outcome"))
    assert [outcomes[n] for n in range(6, 17)] == ["self_drawn"] + ["not_played"] * 10
    assert table().is_confirmed


def test_a_hand_past_the_last_may_still_be_entered(gong, session_in_play, personas):
    """The sheet does not invite it; the referee who knows better is not refused."""
    opened_at = started(session_in_play, 118)
    entered(range(1, 7), at=opened_at + timedelta(minutes=116))

    response = personas["referee"].get(sheet_url() + "?another=1")
    assert entry_heading(response) == ["Enter hand 7"]
    response = personas["referee"].post(sheet_url(), hand_data(7))
    assert response.status_code == 302
    assert table().hands.filter(number=7).exists()


def test_the_tablet_of_the_table_sees_the_gong(gong, session_in_play):
    opened_at = started(session_in_play, 117)
    entered(range(1, 4), at=opened_at + timedelta(minutes=30))
    tablet = Client()
    tablet.get(reverse("device_link", args=[device_links.device_token(table(1))]))

    response = tablet.get(sheet_url())

    assert response.status_code == 200
    assert words(response, "gong") == [GONG.format(n=4)]


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
def test_who_sees_the_gong_on_the_sheet(gong, session_in_play, personas, persona):
    started(session_in_play, 116)
    response = personas[persona].get(sheet_url())
    if persona == "other_referee":
        assert response.status_code == 403
    elif persona == "anonymous":
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))
    else:
        assert words(response, "gong") == [GONG.format(n=1)]


# ---------------------------------------------------------------- the bell


def test_with_the_bell_the_time_up_words_wait_for_the_end(session_in_play, personas):
    started(session_in_play, 149)
    response = personas["referee"].get(sheet_url())
    assert words(response, "end", shown=False) == [BELL]
    assert "data-clock-gong" not in response.content.decode()
    assert "Gong at" not in html.text(response.content)


def test_with_the_bell_time_up_abandons_the_hand_in_play(session_in_play, personas):
    started(session_in_play, 151)

    response = personas["referee"].get(sheet_url())

    assert words(response, "end") == [BELL]
    buttons = html.elements(response.content, "#session-end a.button")
    assert [(b.text(), b.attrs["href"]) for b in buttons] == [(REST, review_url())]
    # Hands over before the bell may still be entered.
    assert entry_heading(response) == ["Enter hand 1"]


# ---------------------------------------------------------------- the hall's screen


def test_the_screen_says_when_the_gong_sounds_then_to_finish_the_hand(gong, session_in_play):
    opened_at = started(session_in_play, 60)
    head = screen_shown(login(None).get(screen_url())).head
    gong_at = opened_at + timedelta(minutes=115)
    clock = head.one("[data-screen-clock]")
    assert clock.attrs["data-clock-gong"] == iso_utc(gong_at)
    (before,) = clock.find("[data-clock-until=gong]")
    (after,) = clock.find("[data-clock-from=gong]")
    assert before.text() == f"Gong at {gong_at.astimezone(COPENHAGEN):%H:%M}"
    assert "hidden" not in before.attrs and "hidden" in after.attrs

    started(session_in_play, 116)
    services.session_open(session=session_in_play)  # a write: the screen's state is new
    clock = screen_shown(login(None).get(screen_url())).head.one("[data-screen-clock]")
    (before,) = clock.find("[data-clock-until=gong]")
    (after,) = clock.find("[data-clock-from=gong]")
    assert after.text() == "Gong: finish the hand in play"
    assert "hidden" in before.attrs and "hidden" not in after.attrs


def test_with_the_bell_the_screen_has_no_gong(session_in_play):
    started(session_in_play, 60)
    head = screen_shown(login(None).get(screen_url())).head
    assert not head.find("[data-clock-until=gong]")
    assert "data-clock-gong" not in head.one("[data-screen-clock]").attrs
