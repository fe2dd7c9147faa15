"""The EMA's checks and a tournament's ranking weight, on plain data: a clean tournament
passes every check, and each fault is named by its check with what fails it."""

from dataclasses import replace
from fractions import Fraction

import pytest

from tournament.rankings.ema_checks import (
    CHECKS,
    PlayerFacts,
    TableFacts,
    TournamentFacts,
    ema_checks,
    ema_weight,
)

COUNTRIES = ("FRA", "GER", "NED", "CHN", "DEN", "AUT")
KNOWN = frozenset(COUNTRIES) | {"ITA", "GBR"}
POINTS = (Fraction(4), Fraction(2), Fraction(1), Fraction(0))


def clean(players: int = 44, days: int = 2) -> TournamentFacts:
    """``players`` members from 6 countries over two sessions, every table played whole."""
    people = [
        PlayerFacts(
            number=n,
            name=f"Player {n}",
            ema_number=f"{n:08d}",
            country=COUNTRIES[n % len(COUNTRIES)],
            is_guest=False,
            is_substitute=False,
            played=True,
        )
        for n in range(1, players + 1)
    ]
    tables = [
        TableFacts(
            session=s,
            table=t,
            seats=4,
            hands=16,
            confirmed=True,
            scores=(30, 10, -10, -30),
            table_points=POINTS,
        )
        for s in (1, 2)
        for t in range(1, players // 4 + 1)
    ]
    return TournamentFacts(
        tables=tables, players=people, sessions=2, closed_sessions=[1, 2], days=days
    )


def failures(facts) -> dict[str, list[str]]:
    return {r.code: r.failures for r in ema_checks(facts, KNOWN) if not r.passed}


def test_a_clean_tournament_passes_every_check():
    results = ema_checks(clean(), KNOWN)
    assert [r.code for r in results] == list(CHECKS)
    assert all(r.passed for r in results)


def test_the_weight_of_44_players_from_6_countries_over_2_days():
    weight = ema_weight(clean())
    # Two days +2, more than 40 players +0.5, more than 5 countries +0.5, not qualifying.
    assert (weight.days, weight.players, weight.countries) == (2, 44, 6)
    assert weight.factors == {
        "days": 2,
        "players": Fraction(1, 2),
        "countries": Fraction(1, 2),
        "qualifying": 0,
    }
    assert weight.total == 3


@pytest.mark.parametrize(
    ("players", "days", "qualifying", "total"),
    [
        (40, 1, False, Fraction(3, 2)),
        (81, 3, True, Fraction(11, 2)),
        (84, 5, False, Fraction(9, 2)),
    ],
)
def test_the_weights_thresholds(players, days, qualifying, total):
    facts = replace(clean(players, days), qualifying=qualifying)
    assert ema_weight(facts).total == total


def test_up_to_three_substitutes_count_and_a_guests_country_does_not():
    facts = clean(40)
    subs = [
        PlayerFacts(100 + n, f"Sub {n}", f"{100 + n:08d}", "ITA", False, True, True)
        for n in range(5)
    ]
    guest = PlayerFacts(200, "Guest", "", "GBR", True, False, True)
    weight = ema_weight(replace(facts, players=facts.players + subs + [guest]))
    assert weight.players == 44  # 40 + the guest + 3 of the 5 substitutes
    assert weight.countries == 7  # the 6, and the substitutes' ITA; not the guest's GBR


def test_each_fault_is_named_with_what_fails_it():
    facts = clean()
    first, second, third, *tables = facts.tables
    member, guestless, *people = facts.players
    faulty = replace(
        facts,
        tables=[
            replace(first, hands=15, confirmed=False),
            replace(second, scores=(30.5, 9.5, -10, -30)),
            replace(third, table_points=(Fraction(4), Fraction(2), Fraction(1), Fraction(1))),
            *tables,
        ],
        players=[
            replace(member, country="XYZ"),
            replace(guestless, ema_number=""),
            *people,
            *[PlayerFacts(300 + n, f"Sub {n}", "", "", True, True, True) for n in range(4)],
        ],
        closed_sessions=[1],
    )
    assert failures(faulty) == {
        "tables_complete": ["1/1"],
        "whole_scores": ["1/2"],
        "table_points_seven": ["1/3"],
        "guests_marked": ["2 Player 2"],
        "countries_known": ["1 Player 1"],
        "substitutes_counted": ["300 Sub 0", "301 Sub 1", "302 Sub 2", "303 Sub 3"],
        "sessions_closed": ["2"],
    }
