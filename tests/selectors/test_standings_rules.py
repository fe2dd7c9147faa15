"""Standings rules that depend on what has been played, not only on what is drawn."""

from fractions import Fraction

from tests.conftest import make_players
from tournament import selectors, services


def by_number(rows):
    return {row.player.number: row for row in rows}


def test_a_drawn_session_without_hands_changes_nobodys_standing(tournament):
    make_players(tournament, 8)
    first = services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=3)
    )
    for table in first.tables.all():
        services.hand_record(table=table, number=1, outcome="self_drawn", winner=0, fan=8)
    before = {
        n: (r.table_points, r.score, r.places, r.sessions_played, r.best_session)
        for n, r in by_number(selectors.standings(tournament)).items()
    }
    services.session_draw(tournament=tournament, number=2, seed=4)
    after = {
        n: (r.table_points, r.score, r.places, r.sessions_played, r.best_session)
        for n, r in by_number(selectors.standings(tournament)).items()
    }
    assert after == before
    assert sum(points for points, *_ in after.values()) == Fraction(14)


def test_a_player_who_withdrew_before_playing_is_not_ranked(tournament):
    make_players(tournament, 5)
    services.player_withdraw(player=tournament.players.get(number=5))
    rows = selectors.standings(tournament)
    assert [r.player.number for r in rows if r.rank is not None] == [1, 2, 3, 4]
    assert rows[-1].player.number == 5 and rows[-1].rank is None
