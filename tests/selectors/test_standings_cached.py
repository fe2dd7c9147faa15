"""The standings the pages read: cached whole under the tournament's version, and always what
the standings computed from every seat give (``compute_standings``,
``compute_rank_history``)."""

import random

import pytest

from tests.services.test_results import assert_read_standings_exact, random_hand, standing_values
from tournament import services
from tournament.models import Hand, Player, Table, TournamentVersion
from tournament.selectors.standings import (
    compute_rank_history,
    compute_standings,
    rank_history,
    team_standings,
    tournament_standings,
)
from tournament.server.rehearsal import build_tournament

TIEBREAK_ORDERS = [
    "table_points,score,first_places,best_session",
    "score,table_points,best_session,first_places",
    "first_places,table_points,score,best_session",
    "table_points,hands_won,fourth_places,second_places,player_number",
]
# The ranking order changes once hands are entered: a change of the rules, with its reason.
REASON = "The tie-breaks the players agreed"


@pytest.fixture
def in_session_3(db, organiser):
    """24 players (some in teams), two sessions played and the third open."""
    return build_tournament(players=24, sessions=4, seed=5, played=2, organiser=organiser)


def test_a_page_of_the_standings_is_the_same_rows_as_the_whole_list(in_session_3):
    rows = tournament_standings(in_session_3)
    every = list(rows)
    assert len(rows) == len(every) == 24
    for part in (slice(0, 10), slice(5, 17), slice(20, 40), slice(3, 3), slice(0, 24, 5)):
        assert standing_values(rows[part]) == standing_values(every[part])
    assert standing_values([rows[7], rows[-1]]) == standing_values([every[7], every[-1]])
    for row in every:
        assert standing_values([rows.row_of(row.player.pk)]) == standing_values([row])
    assert rows.ranked_count == sum(1 for row in every if row.rank is not None)
    with pytest.raises(IndexError):
        rows[24]


def test_the_teams_from_the_totals_are_those_of_the_rows(in_session_3):
    rows = tournament_standings(in_session_3)
    assert rows.has_teams
    assert team_standings(list(rows)) == list(rows.teams())


def test_every_player_tied_shares_the_first_rank(session_in_play):
    for table in session_in_play.tables.all():
        services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    rows = tournament_standings(session_in_play.tournament)
    assert {row.rank for row in rows} == {1}
    assert [row.rank for row in rows[3:5]] == [1, 1]
    assert_read_standings_exact(session_in_play.tournament)


def correct_a_hand(rng, organiser, tournament) -> None:
    """A hand of a confirmed table corrected: the table reopened, the hand entered again
    over its version, the table confirmed again."""
    hand = rng.choice(list(Hand.objects.filter(table__session__tournament=tournament)))
    table = hand.table
    if table.confirmed_at is not None:
        services.table_reopen(table=table, user=organiser, reason="a wrong winner")
    random_hand(rng, table, hand.number, version=hand.version)
    table.refresh_from_db()
    if table.session.number < 3:
        services.table_confirm(table=table, user=organiser)


def play_a_hand(rng, organiser, tournament) -> None:
    table = rng.choice(
        list(Table.objects.filter(session__tournament=tournament, session__number=3))
    )
    if table.hands_entered < 16:
        random_hand(rng, table, table.hands_entered + 1)


def withdraw_a_player(rng, organiser, tournament) -> None:
    player = rng.choice(list(tournament.players.filter(withdrawn_at=None)))
    services.player_withdraw(player=player)


def change_the_tiebreaks(rng, organiser, tournament) -> None:
    services.tournament_update(
        tournament=tournament, tiebreak_order=rng.choice(TIEBREAK_ORDERS), rules_reason=REASON
    )


def rename_a_player(rng, organiser, tournament) -> None:
    player = rng.choice(list(tournament.players.all()))
    services.player_save(tournament=tournament, player=player, name=f"Renamed {rng.random()}")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_standings_read_follow_every_write_exactly(in_session_3, organiser, seed):
    """Hands played and corrected, in the open session and in the sessions played, players
    withdrawn and renamed, the tie-breaks changed: after each, the standings the pages read
    (cached at the version before) are those computed from every seat, and so is the rank
    history; so are those read from the cache again."""
    tournament = in_session_3
    rng = random.Random(seed)
    actions = (
        [play_a_hand] * 6
        + [correct_a_hand] * 3
        + [
            withdraw_a_player,
            change_the_tiebreaks,
            rename_a_player,
        ]
    )
    assert_read_standings_exact(tournament)
    for _step in range(30):
        rng.choice(actions)(rng, organiser, tournament)
        tournament.refresh_from_db()
        assert_read_standings_exact(tournament)
    assert_read_standings_exact(tournament)


def test_a_hand_saved_shows_in_the_standings_at_once(in_session_3, django_assert_num_queries):
    tournament = in_session_3
    before = standing_values(tournament_standings(tournament))
    with django_assert_num_queries(1):  # the version; the rest from the cache
        assert standing_values(tournament_standings(tournament)) == before
    table = tournament.sessions.get(number=3).tables.get(number=2)
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
    )
    after = standing_values(tournament_standings(tournament))
    assert after != before
    assert after == standing_values(compute_standings(tournament))


def test_new_tiebreaks_are_read_with_the_version_not_from_the_callers_tournament(in_session_3):
    """A page holding the tournament as read before the tie-breaks changed still ranks by
    the new ones: they come with the stamp that changed with them."""
    held = in_session_3
    assert_read_standings_exact(held)
    fresh = type(held).objects.get(pk=held.pk)
    services.tournament_update(
        tournament=fresh, tiebreak_order=TIEBREAK_ORDERS[1], rules_reason=REASON
    )
    rows = tournament_standings(held)  # the tournament as it was read before
    fresh.refresh_from_db()
    assert standing_values(rows) == standing_values(compute_standings(fresh))
    # Which the old tie-breaks would not have given.
    assert standing_values(rows) != standing_values(compute_standings(held))


def test_a_tournament_without_a_version_has_its_standings_computed_each_time(in_session_3):
    """Made outside the services (the admin, an old backup), it has no version to key them:
    nothing is cached, so nothing can be stale."""
    tournament = in_session_3
    TournamentVersion.objects.filter(tournament=tournament).delete()
    first = tournament_standings(tournament)[0]
    Player.objects.filter(pk=first.player.pk).update(name="Renamed behind the services")
    assert tournament_standings(tournament)[0].player.name == "Renamed behind the services"
    assert rank_history(tournament).of(first.player.pk) == compute_rank_history(tournament).of(
        first.player.pk
    )


def test_after_a_hand_the_standings_and_rank_history_are_computed_once(in_session_3, monkeypatch):
    """The standings page and a player's page after a hand, in either order: one reading of
    the players and seats gives both, kept under the new version."""
    from tournament.selectors import standings

    readings = []
    by_session = standings._by_session
    monkeypatch.setattr(
        standings, "_by_session", lambda *args: readings.append(1) or by_session(*args)
    )
    table = Table.objects.filter(session__tournament=in_session_3, session__number=3).first()
    for number, first, second in (
        (1, rank_history, tournament_standings),
        (2, tournament_standings, rank_history),
    ):
        services.hand_record(table=table, entry=services.HandEntry(number=number, outcome="draw"))
        readings.clear()
        first(in_session_3)
        second(in_session_3)
        first(in_session_3)
        assert readings == [1]
    assert standing_values(tournament_standings(in_session_3)) == standing_values(
        compute_standings(in_session_3)
    )
    assert rank_history(in_session_3) == compute_rank_history(in_session_3)


def test_standings_kept_by_a_release_of_another_layout_are_not_read(in_session_3):
    """A value an older release kept under the same versions (still in Redis after an
    upgrade, its table points as fractions) is not read as this release's."""
    from django.core.cache import cache

    found = TournamentVersion.objects.get(tournament=in_session_3)
    version = f"{found.number}-{found.standings}"
    cache.set(f"mcr:standings:{in_session_3.pk}:{version}", "an older release's standings")
    cache.set(f"mcr:rank-history:{in_session_3.pk}:{version}", "an older release's ranks")
    assert standing_values(tournament_standings(in_session_3)) == standing_values(
        compute_standings(in_session_3)
    )
    assert rank_history(in_session_3) == compute_rank_history(in_session_3)
