"""The issue's test of the kong readings, end to end: the same hand (one melded and one
concealed kong, enough other fans to reach 8) scores 3, 5 and 6 for those fans under the three
readings on the referee's sheet (its tile picker's fans, Compute, the hand saved and settled)
and on the calculator; a change of reading after play settles the stored hand again."""

import pytest
from django.urls import reverse

from tests import html
from tests.web.test_referee import post_hand
from tournament import services
from tournament.models import Hand, RuleChange, Seat

# docs/scoring.md, "Worked examples of the options": 11 fan besides the two kongs.
KONGS = "456m789m5m [1111m:2] {CCCC} +5m"
OTHER_FANS = 11
READINGS = {3: "Melded Kong", 5: "Melded and Concealed Kong", 6: "Two Melded Kongs"}


@pytest.fixture
def sheet(session_in_play):
    return reverse("table_sheet", args=[session_in_play.tournament.slug, 1, 1])


@pytest.mark.parametrize("reading", [3, 5, 6])
def test_the_kongs_score_the_reading_on_the_sheet_the_picker_and_the_calculator(
    personas, session_in_play, sheet, reading
):
    tournament = session_in_play.tournament
    services.rules_change(tournament=tournament, melded_and_concealed_kong=reading)
    fan = OTHER_FANS + reading
    client = personas["referee"]
    # The picker on the sheet asks under the tournament's rules, which its page carries.
    picker = html.one(client.get(sheet).content.decode(), "[data-tile-picker]").attrs
    asked = {"hand": KONGS, "number": 1, "winner": 0, "outcome": "discard", "flowers": 0}
    rules = dict(pair.split("=") for pair in picker["data-rules"].split("&") if pair)
    fans = client.get(reverse("hand_fans"), {**asked, **rules}).content.decode()
    assert html.one(fans, "[data-fans]").attrs["data-total"] == str(fan)
    assert READINGS[reading] in html.text(fans)
    # Compute fills the fan; the hand saved with it is settled on it.
    computed = post_hand(
        client,
        sheet,
        number="1",
        outcome="discard",
        winner="0",
        discarder="1",
        winning_hand=KONGS,
        compute="1",
    )
    assert computed.context["form"].initial["fan"] == fan
    saved = post_hand(
        client,
        sheet,
        number="1",
        outcome="discard",
        winner="0",
        discarder="1",
        winning_hand=KONGS,
        fan=str(fan),
    )
    assert saved.status_code == 302
    hand = Hand.objects.get(table__session=session_in_play, table__number=1, number=1)
    assert (hand.fan, hand.computed_fan) == (fan, fan)
    assert hand.points == (24 + fan, -(8 + fan), -8, -8)
    # The calculator, asked for the same reading.
    page = client.get(reverse("calculator"), {"hand": KONGS, "kong": reading}).content.decode()
    assert f"Total without flowers {fan}" in html.text(page)
    assert READINGS[reading] in html.text(page)


def test_a_change_of_reading_after_play_settles_the_typed_hands_again(session_in_play, organiser):
    tournament = session_in_play.tournament
    table = session_in_play.tables.get(number=1)
    typed = KONGS + " | self"  # self-drawn: 11 + Self-Drawn 1 + the kongs
    entries = [
        services.HandEntry(number=1, outcome="self_drawn", winner=2, fan=15, winning_hand=typed),
        # The referee kept a figure of their own: it stays theirs.
        services.HandEntry(
            number=2,
            outcome="self_drawn",
            winner=2,
            fan=20,
            winning_hand=typed,
            keep_referee_figure=True,
        ),
        services.HandEntry(number=3, outcome="draw"),
    ]
    for entry in entries:
        services.hand_record(table=table, entry=entry)
    scores = list(Seat.objects.filter(table=table).order_by("seat").values_list("score", flat=True))
    assert scores == [-23 - 28, -23 - 28, 69 + 84, -23 - 28]

    change = services.rules_change(
        tournament=tournament,
        user=organiser,
        reason="The League's reading, as announced.",
        melded_and_concealed_kong=5,
    )
    assert (change.hands_settled, change.hands_changed) == (3, 2)
    first, kept = (Hand.objects.get(table=table, number=n) for n in (1, 2))
    assert (first.fan, first.computed_fan, first.points) == (17, 17, (-25, -25, 75, -25))
    assert (kept.fan, kept.computed_fan, kept.referee_figure_kept) == (20, 17, True)
    scores = list(Seat.objects.filter(table=table).order_by("seat").values_list("score", flat=True))
    assert scores == [-25 - 28, -25 - 28, 75 + 84, -25 - 28]
    assert RuleChange.objects.get() == change
