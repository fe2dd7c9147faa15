"""The session clock on the score sheet: the time left, rendered by the server and counted down
on the tablet; "time is up" ticks "time called" on the review; an organiser's extra time for
one table, with every persona."""

import math
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from tests import html
from tests.conftest import make_players
from tournament import services
from tournament.hall.clock import format_left, iso_utc
from tournament.models import Session, Table

LOGIN_URL = reverse("login")

ROOT = Path(__file__).resolve().parents[2]


def started(session: Session, minutes_ago: int) -> datetime:
    """Make ``session`` opened ``minutes_ago`` minutes ago; the new opening time."""
    opened_at = timezone.now() - timedelta(minutes=minutes_ago)
    Session.objects.filter(pk=session.pk).update(opened_at=opened_at)
    return opened_at


def sheet_url(number: int = 1, session: int = 1) -> str:
    return reverse("table_sheet", args=["spring-open", session, number])


def review_url(number: int = 1) -> str:
    return reverse("table_confirm", args=["spring-open", 1, number])


def extra_time_url(number: int = 1, session: int = 1) -> str:
    return reverse("table_extra_time", args=["spring-open", session, number])


def text(response) -> str:
    """The page's text, as a reader reads it."""
    return html.text(response.content)


def shown(response) -> list[str]:
    """The text of each element of the page."""
    return [element.text() for element in html.parse(response.content).find("*")]


def clock_attribute(response, name: str) -> str | None:
    found = html.elements(response.content, f"[data-clock-{name}]")
    return found[0].attrs[f"data-clock-{name}"] if found else None


def shown_left(response) -> str | None:
    for clock in html.elements(response.content, "strong[data-clock-text]"):
        for left in clock.find("span[data-clock-left]"):
            if clock.text() == f"Time left: {left.text()}" and re.fullmatch(
                r"[0-9:]+", left.text()
            ):
                return left.text()
    return None


def time_called_box(response) -> html.Element:
    """The rendered <input> of the "time called" checkbox."""
    found = html.elements(response.content, "input[name=record_missing_as_not_played]")
    assert found, "no time-called checkbox on the page"
    (box,) = found
    return box


def extra_minutes(number: int = 1) -> int:
    return Table.objects.get(session__number=1, number=number).extra_minutes


# ---------------------------------------------------------------- the clock on the sheet


def test_the_sheet_shows_the_time_left_and_when_it_ends(session_in_play, personas):
    opened_at = started(session_in_play, 30)
    before = timezone.now()

    response = personas["referee"].get(sheet_url())

    assert response.status_code == 200
    ends_at = opened_at + timedelta(minutes=150)
    assert clock_attribute(response, "ends") == iso_utc(ends_at)
    server_now = datetime.fromisoformat(clock_attribute(response, "now"))
    assert before - timedelta(seconds=1) <= server_now <= timezone.now()
    assert clock_attribute(response, "total") == str(150 * 60)
    # The time shown is the time left at the server's "now" the tablet counts down from.
    left = math.ceil((ends_at - server_now).total_seconds())
    assert shown_left(response) == format_left(left)
    assert shown_left(response) in {"2:00:00", "1:59:59", "1:59:58"}
    assert f"ends {timezone.localtime(ends_at):%H:%M}" in text(response)
    assert response.context["time_up"] is False
    assert "Time is up" not in shown(response)


def test_the_tablet_counts_down_with_a_script_and_needs_no_request(session_in_play, personas):
    started(session_in_play, 30)
    html = personas["referee"].get(sheet_url()).content.decode()
    assert "/js/sheet.js" in html
    # The sheet's clock is the shared countdown (helpers.js, loaded before sheet.js).
    assert html.index("/js/helpers.js") < html.index("/js/sheet.js")
    scripts = ROOT / "tournament" / "static" / "js"
    sheet = (scripts / "sheet.js").read_text(encoding="utf-8")
    assert 'window.mcr.countdown("#session-clock")' in sheet
    code = (scripts / "helpers.js").read_text(encoding="utf-8")
    script = code[code.index("mcr.countdown = ") :]
    assert "dataset.clockEnds" in script
    assert "dataset.clockNow" in script
    assert "fetch(" not in script
    assert "XMLHttpRequest" not in script


def test_when_time_is_up_the_sheet_says_so(session_in_play, personas):
    started(session_in_play, 151)

    response = personas["referee"].get(sheet_url())

    assert response.context["time_up"] is True
    assert html.texts(response.content, "strong[data-clock-text]") == ["Time is up"]
    assert "time-up" in html.one(response.content, "p.session-clock").classes
    assert shown_left(response) is None


def test_the_time_is_up_exactly_at_the_end(session_in_play, personas):
    started(session_in_play, 150)
    assert personas["referee"].get(sheet_url()).context["time_up"] is True


def test_when_time_is_up_the_review_ticks_time_called(session_in_play, personas):
    started(session_in_play, 151)

    response = personas["referee"].get(review_url())

    assert response.status_code == 200
    assert "checked" in time_called_box(response).attrs


def test_before_time_is_up_time_called_is_not_ticked(session_in_play, personas):
    started(session_in_play, 149)

    response = personas["referee"].get(review_url())

    assert "checked" not in time_called_box(response).attrs


def test_a_table_with_extra_minutes_still_has_time_when_the_others_are_up(
    session_in_play, personas
):
    opened_at = started(session_in_play, 151)
    services.table_extra_time(table=session_in_play.tables.get(number=2), minutes=10)

    response = personas["referee"].get(sheet_url(2))

    assert response.context["time_up"] is False
    assert clock_attribute(response, "ends") == iso_utc(opened_at + timedelta(minutes=160))
    assert shown_left(response) in {"0:09:00", "0:08:59", "0:08:58"}
    assert "10 extra minutes for this table" in text(response)
    assert "checked" not in time_called_box(personas["referee"].get(review_url(2))).attrs
    assert personas["referee"].get(sheet_url(1)).context["time_up"] is True


def test_a_confirmed_table_shows_no_clock(session_in_play, personas, referee):
    started(session_in_play, 151)
    table = session_in_play.tables.get(number=1)
    services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)

    response = personas["referee"].get(sheet_url())

    assert clock_attribute(response, "ends") is None
    assert "Time is up" not in shown(response)


def test_a_session_not_opened_yet_has_no_clock(tournament, personas):
    make_players(tournament, 16)
    services.session_draw(tournament=tournament, number=1, seed=1)

    response = personas["organiser"].get(sheet_url())

    assert response.status_code == 200
    assert response.context["clock"] is None
    assert response.context["time_up"] is False
    assert clock_attribute(response, "ends") is None


def test_a_closed_session_has_no_clock(session_in_play, personas, organiser):
    started(session_in_play, 151)
    for table in session_in_play.tables.all():
        services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)

    response = personas["organiser"].get(sheet_url())

    assert response.context["clock"] is None
    assert clock_attribute(response, "ends") is None


# ---------------------------------------------------------------- extra time for one table


def test_only_organisers_see_the_extra_time_form(session_in_play, personas):
    form = f"form[action='{extra_time_url()}']"
    assert html.elements(personas["organiser"].get(sheet_url()).content, form)
    assert not html.elements(personas["referee"].get(sheet_url()).content, form)


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 302), ("referee", 403), ("other_referee", 403), ("anonymous", "login")],
)
def test_who_may_give_extra_time(session_in_play, personas, persona, expected):
    response = personas[persona].post(extra_time_url(), {"minutes": "10"})
    if expected == "login":
        assert response.status_code == 302
        assert response.url.startswith(LOGIN_URL)
    else:
        assert response.status_code == expected
    assert extra_minutes() == (10 if persona == "organiser" else 0)


def test_giving_extra_time_goes_back_to_the_sheet(session_in_play, personas):
    response = personas["organiser"].post(extra_time_url(), {"minutes": "10"})
    assert response.status_code == 302
    assert response.url == sheet_url()


def test_extra_time_is_not_a_page(session_in_play, personas):
    assert personas["organiser"].get(extra_time_url()).status_code == 405
    assert extra_minutes() == 0


def test_extra_time_for_a_table_that_does_not_exist_is_404(session_in_play, personas):
    assert personas["organiser"].post(extra_time_url(9), {"minutes": "10"}).status_code == 404
    assert personas["organiser"].post(extra_time_url(1, 2), {"minutes": "10"}).status_code == 404


def test_extra_minutes_move_the_end_of_the_tables_time(session_in_play, personas):
    opened_at = started(session_in_play, 30)
    ends_at = opened_at + timedelta(minutes=160)

    response = personas["organiser"].post(extra_time_url(), {"minutes": "10"}, follow=True)

    assert response.redirect_chain == [(sheet_url(), 302)]
    assert f"Table 1: 10 extra minutes (ends {timezone.localtime(ends_at):%H:%M})." in text(
        response
    )
    assert clock_attribute(response, "ends") == iso_utc(ends_at)
    assert clock_attribute(response, "total") == str(160 * 60)
    assert extra_minutes() == 10
    assert extra_minutes(2) == 0


def test_zero_takes_the_extra_time_back(session_in_play, personas):
    services.table_extra_time(table=session_in_play.tables.get(number=1), minutes=10)
    response = personas["organiser"].post(extra_time_url(), {"minutes": "0"}, follow=True)
    assert "Table 1: 0 extra minutes (ends" in text(response)
    assert extra_minutes() == 0


@pytest.mark.parametrize("minutes", ["241", "-5", "ten", "2.5", ""])
def test_bad_extra_minutes_are_refused_with_the_reason(session_in_play, personas, minutes):
    response = personas["organiser"].post(extra_time_url(), {"minutes": minutes}, follow=True)

    assert response.redirect_chain == [(sheet_url(), 302)]
    assert "Extra minutes are a whole number from 0 to 240." in text(response)
    assert "extra minutes (ends" not in text(response)
    assert extra_minutes() == 0


def test_extra_time_is_refused_once_the_session_is_closed(session_in_play, personas, organiser):
    for table in session_in_play.tables.all():
        services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)

    response = personas["organiser"].post(extra_time_url(), {"minutes": "10"}, follow=True)

    assert "The session is closed." in text(response)
    assert extra_minutes() == 0


def test_extra_time_before_the_session_opens_says_no_end_yet(tournament, personas):
    make_players(tournament, 16)
    services.session_draw(tournament=tournament, number=1, seed=1)

    response = personas["organiser"].post(extra_time_url(), {"minutes": "1"}, follow=True)

    assert "Table 1: 1 extra minute." in text(response)
    assert extra_minutes() == 1
