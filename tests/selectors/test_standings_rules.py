"""Standings rules that depend on what has been played, not only on what is drawn."""

from fractions import Fraction

from django.core.cache import cache

from tests.conftest import make_players
from tournament import services
from tournament.selectors.standings import compute_standings, tournament_standings


def by_number(rows):
    return {row.player.number: row for row in rows}


def test_a_drawn_session_without_hands_changes_nobodys_standing(tournament):
    make_players(tournament, 8)
    first = services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=3)
    )
    for table in first.tables.all():
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
        )
    before = {
        n: (r.table_points, r.score, r.places, r.sessions_played, r.best_session)
        for n, r in by_number(tournament_standings(tournament)).items()
    }
    services.session_draw(tournament=tournament, number=2, seed=4)
    after = {
        n: (r.table_points, r.score, r.places, r.sessions_played, r.best_session)
        for n, r in by_number(tournament_standings(tournament)).items()
    }
    assert after == before
    assert sum(points for points, *_ in after.values()) == Fraction(14)


def test_a_player_who_withdrew_before_playing_is_not_ranked(tournament):
    make_players(tournament, 5)
    services.player_withdraw(player=tournament.players.get(number=5))
    rows = tournament_standings(tournament)
    assert [r.player.number for r in rows if r.rank is not None] == [1, 2, 3, 4]
    assert rows[-1].player.number == 5 and rows[-1].rank is None


def test_the_cached_standings_carry_every_player_field_as_computed(tournament):
    # The standings cached whole keep each row's player as it was read.
    make_players(tournament, 9)
    services.player_save(
        tournament=tournament, player=tournament.players.get(number=9), name_zh="张伟", team="Red"
    )
    services.player_withdraw(player=tournament.players.get(number=9))
    session = services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=3)
    )
    for table in session.tables.all():
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=1, fan=8)
        )

    def described(rows):
        return [
            (
                row.player.pk,
                [getattr(row.player, f.attname) for f in row.player._meta.concrete_fields],
                row.table_points,
                row.score,
                row.places,
                row.sessions_played,
                row.best_session,
                row.rank,
            )
            for row in rows
        ]

    computed = compute_standings(tournament)
    first = tournament_standings(tournament)
    cache.clear()  # computed again, then read back from the cache
    tournament_standings(tournament)
    cached = tournament_standings(tournament)
    assert described(cached) == described(first) == described(computed)
    # The winners 4, the three tied losers (2 + 1 + 0) / 3 each, the withdrawn player 0.
    assert {row.table_points for row in cached} == {Fraction(4), Fraction(1), Fraction(0)}
    assert all(not row.player._state.adding and row.player._state.db for row in cached)
