"""The tile picker's answers (/calculator/fans/) and the picker on the calculator and the sheet.

The fans the picker shows are the scoring core's: each answer is compared with the core's own
result for the same hand, on the calculator (conditions written in the hand) and on a sheet
(the winds from the hand number and the winner, self-drawn from the result, the flowers from
the flowers field).
"""

import re

import pytest
from django.urls import reverse

from tests import html
from tests.fan_lists import core_fans, listed_fans
from tournament import seating, services
from tournament.scoring import notation

URL = reverse("hand_fans")
CHOW_PUNG = "123m456p789s1z [555p] +1z"


def answer(response) -> dict:
    """The fragment read back: the totals it carries, the fans it lists, its messages."""
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    fans = html.one(page, "[data-fans]").attrs
    scored = "data-total" in fans
    return {
        "total": int(fans["data-total"]) if scored else None,
        "with_flowers": int(fans["data-total-with-flowers"]) if scored else None,
        "valid": fans["data-valid"] == "1" if scored else None,
        "fans": listed_fans(page),
        "page": html.text(page),
    }


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
def test_everyone_gets_the_fans_of_a_hand(personas, persona):
    got = answer(personas[persona].get(URL, {"hand": CHOW_PUNG}))
    scored = notation.score_hand(notation.parse_hand(CHOW_PUNG))
    assert got["total"] == scored.total_without_flowers
    assert got["fans"] == core_fans(scored)


def test_the_fans_are_only_read(personas):
    assert personas["anonymous"].post(URL, {"hand": CHOW_PUNG}).status_code == 405


def test_an_answer_reads_nothing_from_the_database(client, db, django_assert_num_queries):
    with django_assert_num_queries(0):
        answer(client.get(URL, {"hand": CHOW_PUNG}))


@pytest.mark.parametrize(
    "hand",
    [
        CHOW_PUNG,
        "1199m2277p3388sE +E | self",  # seven pairs, self-drawn
        "123m789p456s1s {CCCC} +1s | self kong seat=S wind=W flowers=3",  # a concealed kong
        "19m19p19sESWNCFP +E | last",  # thirteen orphans
        "123m456p23s55s [789m] +4s",  # below the minimum
    ],
)
def test_the_calculator_answer_is_the_scoring_core(client, db, hand):
    scored = notation.score_hand(notation.parse_hand(hand))
    got = answer(client.get(URL, {"hand": hand}))
    assert (got["total"], got["with_flowers"], got["valid"]) == (
        scored.total_without_flowers,
        scored.total,
        scored.valid,
    )
    assert got["fans"] == core_fans(scored)


def test_below_the_minimum_is_said(client, db):
    got = answer(client.get(URL, {"hand": "123m456p23s55s [789m] +4s"}))
    assert got["valid"] is False
    assert "Below the 8-fan minimum" in got["page"]


def test_the_fans_are_named_in_the_page_language(client, db):
    scored = notation.score_hand(notation.parse_hand(CHOW_PUNG))
    got = answer(client.get(URL, {"hand": CHOW_PUNG}, HTTP_ACCEPT_LANGUAGE="zh-hans"))
    assert got["fans"] == core_fans(scored, "zh-hans")
    assert "番" in got["page"]


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("123m +1z", "a winning hand has 14"),
        ("123m456p789s1z [555p] +8z", "8z is not a tile"),
        ("", "Enter a winning hand"),
    ],
)
def test_a_hand_that_cannot_be_scored_says_why(client, db, hand, message):
    got = answer(client.get(URL, {"hand": hand}))
    assert got["total"] is None
    assert message in got["page"]


@pytest.mark.parametrize(("number", "winner"), [(1, 0), (6, 2), (11, 1), (16, 3)])
def test_on_a_sheet_the_winds_come_from_the_hand_and_the_winner(client, db, number, winner):
    slot = seating.session_schedule()[number - 1]
    written = (
        f"{CHOW_PUNG} | self seat={slot.seat_winds[winner]} wind={slot.prevalent_wind} flowers=2"
    )
    scored = notation.score_hand(notation.parse_hand(written))
    got = answer(
        client.get(
            URL,
            {
                "hand": CHOW_PUNG,
                "number": number,
                "winner": winner,
                "outcome": "self_drawn",
                "flowers": 2,
            },
        )
    )
    assert (got["total"], got["with_flowers"]) == (scored.total_without_flowers, scored.total)
    assert got["fans"] == core_fans(scored)


def test_on_a_sheet_before_a_result_the_win_is_on_a_discard(client, db):
    query = {"hand": CHOW_PUNG, "number": 1, "winner": 0, "outcome": "", "flowers": 0}
    on_discard = answer(client.get(URL, query))
    self_drawn = answer(client.get(URL, {**query, "outcome": "self_drawn"}))
    assert self_drawn["total"] == on_discard["total"] + 1  # Self-Drawn, 1 point


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"winner": ""}, "Choose the hand number and the winner first"),
        ({"outcome": "draw"}, "A winning hand only goes with a win"),
        ({"hand": f"{CHOW_PUNG} | self", "outcome": "discard"}, "says self-drawn"),
        ({"number": 17}, "Ensure this value is less than or equal to 16"),
    ],
)
def test_on_a_sheet_what_contradicts_the_sheet_is_said(client, db, query, message):
    base = {"hand": CHOW_PUNG, "number": 1, "winner": 0, "outcome": "discard", "flowers": 0}
    got = answer(client.get(URL, {**base, **query}))
    assert got["total"] is None
    assert message in got["page"]


# --- The picker on the pages ----------------------------------------------------------------


def picker_of(page) -> html.Element:
    return html.one(page, "[data-tile-picker]")


def labels(picker: html.Element) -> set[str]:
    return {e.attrs["aria-label"] for e in picker.find("[aria-label]")}


def test_the_calculator_has_the_picker_with_every_face(client, db):
    picker = picker_of(client.get(reverse("calculator")).content)
    assert len(picker.find("[data-tile]")) == 34
    flowers = [e.attrs["data-flower"] for e in picker.find("[data-flower]")]
    assert len(flowers) == 8 and all(re.fullmatch(r"\d", flower) for flower in flowers)
    assert picker.attrs["data-target"] == "hand"
    assert picker.find("[data-seat=E]") and picker.find("[data-flag=self]")
    assert {"5 of dots", "Red dragon"} <= labels(picker)


def test_the_faces_are_named_in_the_page_language(client, db):
    page = client.get(reverse("calculator"), HTTP_ACCEPT_LANGUAGE="zh-hans").content
    assert {"5饼", "红中", "菊"} <= labels(picker_of(page))


def test_the_sheet_has_the_picker_for_the_winning_hand(personas, session_in_play):
    url = reverse("table_sheet", args=[session_in_play.tournament.slug, 1, 1])
    page = personas["referee"].get(url).content
    picker = picker_of(page)
    assert picker.attrs["data-target"] == "winning_hand" and "data-on-sheet" in picker.attrs
    # What the sheet knows is not asked again: no seat, prevalent wind or self-draw toggles.
    assert not picker.find("[data-seat]") and not picker.find("[data-flag=self]")
    assert html.elements(page, "[data-picker-open]")


# 2 + 2 + 2 + 1: seven fan, a win only where the minimum is lower than 8.
SEVEN = "234m456p678s22s23p +4p"


def test_the_fans_follow_the_rules_asked_for(client):
    seed = answer(client.get(URL, {"hand": SEVEN}))
    lower = answer(client.get(URL, {"hand": SEVEN, "minimum": "6"}))
    assert (seed["total"], seed["valid"]) == (7, False)
    assert "Below the 8-fan minimum" in seed["page"]
    assert (lower["total"], lower["valid"]) == (7, True)
    assert "Reaches the 6-fan minimum" in lower["page"]


def test_a_sheets_picker_asks_under_its_tournaments_rules(personas, session_in_play):
    tournament = session_in_play.tournament
    services.rules_change(tournament=tournament, minimum_fan=6, flowers=False)
    sheet = reverse("table_sheet", args=[tournament.slug, 1, 1])
    page = personas["referee"].get(sheet).content.decode()
    picker = html.one(page, "[data-tile-picker]").attrs
    assert picker["data-rules"] == "no_flowers=on&minimum=6"
    assert "Flowers are not played in this tournament." in html.text(page)


def test_a_blessing_counts_only_where_the_rules_play_it(client, db):
    heavenly = "1112345678999p +5p | self heavenly"
    played = answer(client.get(URL, {"hand": heavenly, "blessings": "on"}))
    assert ("Heavenly Hand", "8", "") in played["fans"]
    refused = answer(client.get(URL, {"hand": heavenly}))
    assert refused["total"] is None and refused["fans"] == []
    # The picker offers the blessings only where they count.
    calculator = reverse("calculator")
    with_blessings = client.get(calculator, {"blessings": "on"}).content.decode()
    assert len(html.elements(with_blessings, "[data-blessing]")) == 3
    assert html.elements(client.get(calculator).content.decode(), "[data-blessing]") == []


def test_the_picker_offers_flowers_only_where_they_are_played(client, db):
    calculator = reverse("calculator")
    assert len(html.elements(client.get(calculator).content.decode(), "[data-flower]")) == 8
    without = client.get(calculator, {"no_flowers": "on"}).content.decode()
    assert html.elements(without, "[data-flower]") == []
