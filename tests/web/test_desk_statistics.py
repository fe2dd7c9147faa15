"""The referees' desk on the statistics page: each session's calls for a referee, how long
they waited and took to resolve (medians), the rulings and their penalties; figures worked
out by hand (docs/statistics.md)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests import html
from tests.web.test_record_of_fouls import seated
from tournament import services
from tournament.models import RefereeCall

URL = reverse("statistics", args=["spring-open"])
HEADINGS = [
    "Session",
    "Calls for a referee",
    "Calls resolved",
    "Median wait for a referee",
    "Median time to resolve",
    "Rulings",
    "Penalties from rulings",
]


def timed(call, called: int, taken: int | None = None, ended: int | None = None) -> None:
    """Set the call's times, in seconds after an hour ago (the services stamp them now)."""
    start = timezone.now() - datetime.timedelta(hours=1)

    def moment(seconds):
        return None if seconds is None else start + datetime.timedelta(seconds=seconds)

    RefereeCall.objects.filter(pk=call.pk).update(
        called_at=moment(called), taken_at=moment(taken), ended_at=moment(ended)
    )


@pytest.fixture
def desk(session_in_play, referee, organiser):
    """Session 1: four calls and four rulings.

    - table 1, taken at 1:30 and resolved at 9:00 by a ruling with a penalty;
    - table 2, resolved at 4:10 without being taken first (the ruling's referee takes it as
      they resolve it), a warning;
    - table 3, taken at 0:40, still open;
    - table 4, cancelled before anyone took it;
    - and a ruling with a penalty at table 4 without a call.

    Calls 4, resolved 2; waits 90, 250 and 40 s: median 90 s (1:30); resolved in 540 and
    250 s: median 395 s (6:35); rulings 3, 2 of them with a penalty.
    """
    one, two, three, four = (session_in_play.tables.get(number=n) for n in (1, 2, 3, 4))
    for table in (one, four):
        services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    first = services.call_make(table=one, reason="foul", hand=1)
    services.call_take(call=first, user=referee)
    services.ruling_give(
        table=one,
        referee=referee,
        call=first,
        decision="False win.",
        offence="false_win",
        penalty_kind="to_each_other",
        penalty_points=10,
        offender=seated(one, 0),
    )
    timed(first, 0, 90, 540)
    second = services.call_make(table=two, reason="count")
    services.ruling_give(
        table=two,
        referee=organiser,
        call=second,
        decision="Warned.",
        offence="procedural",
        players=[seated(two, 1)],
    )
    timed(second, 0, 250, 250)
    third = services.call_make(table=three, reason="claim")
    services.call_take(call=third, user=referee)
    timed(third, 100, 140)
    fourth = services.call_make(table=four, reason="time")
    services.call_cancel(call=fourth, device="t4")
    timed(fourth, 200, None, 260)
    services.ruling_give(
        table=four,
        referee=organiser,
        hand=1,
        decision="Late.",
        offence="lateness",
        penalty_kind="deducted",
        penalty_points=10,
        offender=seated(four, 3),
    )
    return session_in_play


@pytest.mark.parametrize("persona", ["organiser", "anonymous"])
def test_the_statistics_page_gives_each_sessions_desk_figures(personas, desk, persona):
    response = personas[persona].get(URL)
    assert response.status_code == 200
    found = html.table(response.content, "table.desk-figures")
    assert found == [HEADINGS, ["1", "4", "2", "1:30", "6:35", "3", "2"]]


def test_an_appeal_that_withdraws_a_penalty_counts_the_ruling_without_it(personas, desk, organiser):
    personas["anonymous"].get(URL)  # cached under the desk's version
    ruling = desk.tables.get(number=4).rulings.get()
    appeal = services.appeal_lodge(ruling=ruling, user=organiser, grounds="Not late.")
    services.appeal_decide(appeal=appeal, user=organiser, decision="changed", reasons="On time.")
    found = html.table(personas["anonymous"].get(URL).content, "table.desk-figures")
    assert found[1] == ["1", "4", "2", "1:30", "6:35", "3", "1"]


def test_no_desk_figures_before_the_first_call_or_ruling(personas, session_in_play):
    response = personas["anonymous"].get(URL)
    assert not html.elements(response.content, "table.desk-figures")
    services.call_make(table=session_in_play.tables.get(number=2), reason="time")
    found = html.table(personas["anonymous"].get(URL).content, "table.desk-figures")
    assert found[1] == ["1", "1", "0", "–", "–", "0", "0"]
