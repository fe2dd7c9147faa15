"""The tap plans of the tile picker (reference.tile_taps), which the browser tests and the
picker's benchmark tap: every plan covers its hand's tiles exactly, and the worked examples of
docs/scoring.md are the plans."""

from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

from reference.hand_generators import sample
from reference.tile_taps import as_picked, groups_of, plan
from tests.markdown_tables import code_text, table_rows
from tournament.language.tiles import FLOWER_FACES, HONOR_FACES, SUIT_FACES
from tournament.scoring import notation

DOC = Path(__file__).resolve().parents[1] / "docs" / "scoring.md"
CORPUS = sample(60)


def tiles_of(hand) -> Counter:
    return Counter([*hand.concealed, hand.win_tile, *(t for m in hand.melds for t in m.tiles)])


@pytest.mark.parametrize("generated", CORPUS, ids=lambda g: f"{g.index}-{g.generator}")
def test_the_groups_hold_the_hands_tiles_and_its_winning_tile(generated):
    hand = generated.hand
    groups, (group, index) = groups_of(hand)
    assert Counter(t for g in groups for t in g.tiles) == tiles_of(hand)
    assert groups[group].tiles[index] == hand.win_tile
    assert not groups[group].claimed and groups[group].kind != "kong"
    claimed = sorted((g.kind, g.tiles) for g in groups if g.claimed)
    assert claimed == sorted((m.kind, m.tiles) for m in hand.melds if not m.concealed)


def test_a_plan_taps_every_group_once_and_sets_the_mode_only_when_it_changes():
    for generated in CORPUS:
        taps = plan(generated.hand)
        groups, _win = groups_of(generated.hand)
        assert sum(tap.kind == "tile" for tap in taps) == len(groups)
        modes = [tap.value for tap in taps if tap.kind == "mode"]
        assert all(a != b for a, b in pairwise(modes))


def test_on_a_sheet_the_winds_and_the_self_draw_are_not_tapped():
    for generated in CORPUS:
        on_sheet = plan(generated.hand, on_sheet=True)
        assert not any(t.kind in ("seat", "wind") for t in on_sheet)
        assert ("flag", "self") not in [(t.kind, t.value) for t in on_sheet]


def test_as_picked_forgets_whom_a_set_was_claimed_from_and_the_order_of_the_sets():
    one = notation.parse_hand("E [123m:1] [456m:2] {5555p} +E")
    other = notation.parse_hand("E {5555p} [456m] [123m:3] +E")
    assert one != other and as_picked(one) == as_picked(other)


def words(tap, hand) -> str:
    """A tap as docs/scoring.md writes it: the buttons' English words and the tiles' faces."""
    if tap.kind in ("tile", "win"):
        code = tap.value if tap.kind == "tile" else hand.win_tile
        face = HONOR_FACES[code] if code in HONOR_FACES else code[0] + SUIT_FACES[code[1]]
        return face if tap.kind == "tile" else f"winning tile {face}"
    if tap.kind == "mode":
        return tap.value.capitalize()
    if tap.kind == "flag":
        if tap.value == "kong":
            return "On a kong's replacement tile" if hand.self_drawn else "Robbing the kong"
        return {"self": "Self-drawn", "fourth": "Last of its kind", "last": "Last tile"}[tap.value]
    if tap.kind == "flower":
        assert 1 <= int(tap.value) <= len(FLOWER_FACES)
        return f"flower {tap.value}"
    return {"claimed": "Claimed", "seat": f"Seat {tap.value}", "wind": f"Round {tap.value}"}[
        tap.kind
    ]


def test_the_worked_examples_of_the_doc_are_the_plans():
    rows = table_rows(DOC, "| hand | taps | count |")
    assert len(rows) == 4
    for text, taps, count in rows:
        hand = notation.parse_hand(code_text(text))
        planned = plan(hand)
        assert taps.split(", ") == [words(tap, hand) for tap in planned]
        assert int(count) == len(planned)
