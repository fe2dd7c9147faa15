import dataclasses
import hashlib
import random
from collections import Counter

import pytest

from tests.seating.test_rotation import SEATING_DOC, markdown_table, starting_seat
from tournament.seating import (
    DrawError,
    SeatAssignment,
    draw_by_lot,
    lot_key,
    new_seed,
    players_to_draw,
)
from tournament.seating import draw as draw_module

EIGHT_PLAYERS = list(range(1, 9))
SIXTEEN_PLAYERS = list(range(101, 117))

# Output of: printf '%s' '123456789:7' | sha256sum
SHA256_OF_123456789_7 = "b63d21028952deab8581e329dd4b79da6707cf2ad4bf9fcc938bb270b86306d2"


def player_order(assignments):
    return [assignment.player for assignment in assignments]


def test_lot_key_is_the_sha256sum_of_seed_colon_player():
    assert lot_key(123456789, 7) == SHA256_OF_123456789_7


@pytest.mark.parametrize(("seed", "player"), [(0, 1), (20261130, 8), (999999999, 12345)])
def test_lot_key_is_lowercase_hex_sha256_of_utf8_text(seed, player):
    expected = hashlib.sha256(f"{seed}:{player}".encode()).hexdigest()
    assert lot_key(seed, player) == expected
    assert len(expected) == 64
    assert expected == expected.lower()


def test_doc_shows_the_same_sha256sum_output():
    assert f"{SHA256_OF_123456789_7}  -" in SEATING_DOC.read_text(encoding="utf-8")


def test_worked_example_in_the_doc_matches_the_draw():
    rows = markdown_table("| lot | player | table | seat |")
    assert len(rows) == 8
    documented = [
        SeatAssignment(player=int(player), table=int(table), seat=starting_seat(seat), lot=int(lot))
        for lot, player, table, seat in rows
    ]
    assert draw_by_lot(EIGHT_PLAYERS, 20261130) == documented


@pytest.mark.parametrize("seed", [0, 1, 20261130, 123456789, 999999999, 10**30])
def test_draw_sorts_players_by_lot_key_then_number(seed):
    # Recomputed here with hashlib only, as an outside verifier would.
    def key(player):
        return hashlib.sha256(f"{seed}:{player}".encode()).hexdigest()

    expected = sorted(SIXTEEN_PLAYERS, key=lambda player: (key(player), player))
    assert player_order(draw_by_lot(SIXTEEN_PLAYERS, seed)) == expected


@pytest.mark.parametrize(
    ("seed", "expected_order"),
    [
        (1, [7, 4, 8, 6, 5, 2, 3, 1]),
        (2, [2, 5, 6, 1, 7, 3, 8, 4]),
        (3, [5, 4, 8, 1, 2, 3, 7, 6]),
        (20261130, [1, 2, 4, 3, 5, 6, 8, 7]),
    ],
)
def test_draw_gives_the_known_seating_for_a_seed(seed, expected_order):
    assert player_order(draw_by_lot(EIGHT_PLAYERS, seed)) == expected_order


def test_different_seeds_give_different_seatings():
    seeds = range(100_000_000, 100_000_100)
    seatings = {tuple(player_order(draw_by_lot(SIXTEEN_PLAYERS, seed))) for seed in seeds}
    assert len(seatings) == len(seeds)


@pytest.mark.parametrize(
    "reorder",
    [
        list,
        lambda players: list(reversed(players)),
        lambda players: random.Random(7).sample(players, len(players)),
        lambda players: random.Random(8).sample(players, len(players)),
        tuple,
    ],
    ids=["as_given", "reversed", "shuffled_7", "shuffled_8", "tuple"],
)
def test_input_order_does_not_change_the_seating(reorder):
    expected = draw_by_lot(SIXTEEN_PLAYERS, 424242424)
    assert draw_by_lot(reorder(SIXTEEN_PLAYERS), 424242424) == expected


@pytest.mark.parametrize("count", [4, 8, 12, 16, 40])
def test_draw_fills_tables_in_order_of_lot(count):
    players = list(range(1, count + 1))
    assignments = draw_by_lot(players, 555555555)
    assert sorted(player_order(assignments)) == players
    assert [a.lot for a in assignments] == list(range(1, count + 1))
    assert [(a.table, a.seat) for a in assignments] == [
        (table, seat) for table in range(1, count // 4 + 1) for seat in range(4)
    ]


def test_seat_assignments_are_immutable():
    assignment = draw_by_lot(EIGHT_PLAYERS, 1)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        assignment.seat = 2


def test_every_player_gets_every_seat_and_table_about_equally_often():
    # Fixed seeds keep this deterministic; 2000 draws put a fair 25% within 20-30% by a
    # margin of more than five standard deviations.
    seeds = range(100_000_000, 100_002_000)
    seats = Counter()
    tables = Counter()
    for seed in seeds:
        for assignment in draw_by_lot(EIGHT_PLAYERS, seed):
            seats[assignment.player, assignment.seat] += 1
            tables[assignment.player, assignment.table] += 1
    for player in EIGHT_PLAYERS:
        for seat in range(4):
            assert 0.20 * len(seeds) <= seats[player, seat] <= 0.30 * len(seeds)
        for table in (1, 2):
            assert 0.45 * len(seeds) <= tables[player, table] <= 0.55 * len(seeds)


@pytest.mark.parametrize(
    ("count", "missing", "needed", "tables"),
    [(1, 3, 4, 1), (2, 2, 4, 1), (3, 1, 4, 1), (5, 3, 8, 2), (13, 3, 16, 4), (14, 2, 16, 4)],
)
def test_draw_refuses_a_number_of_players_that_is_not_a_multiple_of_four(
    count, missing, needed, tables
):
    with pytest.raises(DrawError) as raised:
        draw_by_lot(list(range(1, count + 1)), 1)
    assert raised.value.code == "not_multiple_of_four"
    assert raised.value.missing == missing
    message = str(raised.value)
    assert f"{count} player" in message
    assert f"{needed} players are needed for {tables} table" in message
    assert f"{missing} substitute" in message


def test_missing_substitutes_message_says_the_counts():
    with pytest.raises(DrawError) as raised:
        draw_by_lot(list(range(1, 15)), 1)
    assert str(raised.value) == (
        "14 players are registered; 16 players are needed for 4 tables: 2 substitutes are missing."
    )


def test_one_missing_substitute_is_singular():
    with pytest.raises(DrawError, match="1 substitute is missing"):
        draw_by_lot(list(range(1, 8)), 1)


def test_draw_refuses_an_empty_list_of_players():
    with pytest.raises(DrawError) as raised:
        draw_by_lot([], 1)
    assert raised.value.code == "no_players"
    assert raised.value.missing is None


def test_draw_refuses_a_player_drawn_twice():
    with pytest.raises(DrawError) as raised:
        draw_by_lot([1, 2, 3, 3, 4, 5, 6, 6], 1)
    assert raised.value.code == "duplicate_player"
    assert "3, 6" in str(raised.value)


@pytest.mark.parametrize("player", [0, -1, True, "3", 1.0, None])
def test_draw_refuses_a_player_that_is_not_a_positive_int(player):
    with pytest.raises(DrawError) as raised:
        draw_by_lot([1, 2, 3, player], 1)
    assert raised.value.code == "bad_player"


@pytest.mark.parametrize("seed", [-1, True, False, 1.5, "123456789", None])
def test_draw_refuses_a_seed_that_is_not_a_non_negative_int(seed):
    with pytest.raises(DrawError) as raised:
        draw_by_lot(EIGHT_PLAYERS, seed)
    assert raised.value.code == "bad_seed"


@pytest.mark.parametrize("seed", [-5, True, 2.0])
def test_lot_key_refuses_a_bad_seed(seed):
    with pytest.raises(DrawError) as raised:
        lot_key(seed, 1)
    assert raised.value.code == "bad_seed"


def test_draw_error_is_a_value_error():
    assert issubclass(DrawError, ValueError)


def test_seed_zero_is_accepted():
    assert len(draw_by_lot(EIGHT_PLAYERS, 0)) == 8


def test_new_seed_has_nine_digits():
    seeds = [new_seed() for _ in range(200)]
    assert all(type(seed) is int and len(str(seed)) == 9 for seed in seeds)
    assert len(set(seeds)) > 1


@pytest.mark.parametrize(
    ("randbelow", "expected"),
    [(lambda n: 0, 100_000_000), (lambda n: n - 1, 999_999_999)],
    ids=["lowest", "highest"],
)
def test_new_seed_spans_all_nine_digit_numbers(monkeypatch, randbelow, expected):
    monkeypatch.setattr(draw_module.secrets, "randbelow", randbelow)
    assert new_seed() == expected


# Who is drawn: the regular players topped up with substitutes (``players_to_draw``).


def test_the_regular_players_are_topped_up_with_the_first_substitutes():
    assert players_to_draw([1, 2, 3, 4, 5], [21, 22, 23, 24]) == [1, 2, 3, 4, 5, 21, 22, 23]


def test_whole_tables_of_regular_players_take_no_substitute():
    assert players_to_draw([1, 2, 3, 4, 5, 6, 7, 8], [21]) == [1, 2, 3, 4, 5, 6, 7, 8]


def test_the_substitutes_are_taken_in_the_order_given():
    assert players_to_draw([1, 2], [30, 21, 25]) == [1, 2, 30, 21]


# The refusals' words are in tests/core_error_cases.py, with every other core message.
@pytest.mark.parametrize(
    ("regular", "substitutes", "missing"), [(15, 0, 1), (13, 1, 2), (1, 0, 3), (6, 1, 1)]
)
def test_a_shortfall_counts_the_substitutes_still_missing(regular, substitutes, missing):
    with pytest.raises(DrawError) as refused:
        players_to_draw(range(1, regular + 1), range(100, 100 + substitutes))
    assert refused.value.code == "not_multiple_of_four"
    assert refused.value.missing == missing


def test_nobody_to_draw_is_refused_even_with_substitutes_registered():
    with pytest.raises(DrawError) as refused:
        players_to_draw([], [21, 22])
    assert refused.value.code == "no_players"
