"""Each seat's result stored with the hands, the standings added up from them, the version
every write raises, and ``manage.py verify_results``."""

import io
import random
from fractions import Fraction

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from tests.conftest import make_players
from tournament import scoring, services
from tournament.models import Seat, Session, Table, Tournament, TournamentVersion
from tournament.players import player_import
from tournament.selectors.sheets import table_sheet
from tournament.selectors.standings import (
    compute_rank_history,
    compute_standings,
    rank_history,
    team_standings,
    tournament_results,
    tournament_standings,
)


def stored(table: Table) -> list[tuple[int, int | None, Fraction]]:
    return [
        (seat.score, seat.place, scoring.from_twelfths(seat.table_points_twelfths))
        for seat in Seat.objects.filter(table=table).order_by("seat")
    ]


def from_the_sheet(table: Table) -> list[tuple[int, int | None, Fraction]]:
    sheet = table_sheet(table)
    if sheet.entered == 0:
        return [(0, None, Fraction(0))] * 4
    return [(score, place, points) for _player, score, place, points in sheet.summary]


def random_hand(rng: random.Random, table: Table, number: int, **extra) -> None:
    outcome = rng.choice(["discard", "discard", "self_drawn", "draw"])
    fields = {"outcome": outcome}
    if outcome != "draw":
        winner = rng.randrange(4)
        fields.update(winner=winner, fan=rng.choice([8, 8, 9, 12, 16, 24, 88]))
        fields["flowers"] = rng.choice([0, 0, 1, 2])
        if outcome == "discard":
            fields["discarder"] = rng.choice([seat for seat in range(4) if seat != winner])
    services.hand_record(table=table, entry=services.HandEntry(number=number, **fields, **extra))


def version(tournament) -> int:
    return TournamentVersion.objects.get(tournament=tournament).number


def test_a_drawn_table_has_no_result(session_in_play):
    table = session_in_play.tables.get(number=1)
    assert table.hands_entered == 0
    assert stored(table) == [(0, None, Fraction(0))] * 4


def test_every_hand_saved_stores_its_tables_results_as_the_sheet_gives_them(session_in_play):
    rng = random.Random(7)
    table = session_in_play.tables.get(number=2)
    for number in range(1, 17):
        random_hand(rng, table, number)
        assert stored(table) == from_the_sheet(table)
        table.refresh_from_db()
        assert table.hands_entered == number
    # The other tables are untouched.
    assert stored(session_in_play.tables.get(number=1)) == [(0, None, Fraction(0))] * 4


def test_a_correction_stores_the_corrected_result(session_in_play):
    table = session_in_play.tables.get(number=1)
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
    )
    assert [score for score, *_ in stored(table)] == [48, -16, -16, -16]
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1, outcome="discard", winner=1, discarder=0, fan=8, version=1
        ),
    )
    assert stored(table) == [
        (-16, 4, Fraction(0)),
        (32, 1, Fraction(4)),
        (-8, 2, Fraction(3, 2)),
        (-8, 2, Fraction(3, 2)),
    ]
    assert stored(table) == from_the_sheet(table)


def hands_won(table: Table) -> list[int]:
    return list(
        Seat.objects.filter(table=table).order_by("seat").values_list("hands_won", flat=True)
    )


def test_every_hand_saved_or_corrected_stores_the_hands_each_seat_won(session_in_play):
    rng = random.Random(5)
    table = session_in_play.tables.get(number=4)
    for number in range(1, 11):
        random_hand(rng, table, number)
        winners = list(table.hands.exclude(winner=None).values_list("winner", flat=True))
        assert hands_won(table) == [winners.count(seat) for seat in range(4)]

    # A win corrected to another seat moves the count; a win corrected to a draw drops it.
    def correct(**fields):
        version = table.hands.get(number=1).version
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, version=version, **fields)
        )

    correct(outcome="self_drawn", winner=2, fan=8)
    before = hands_won(table)
    assert before[2] >= 1
    correct(outcome="draw")
    assert hands_won(table) == [n - (seat == 2) for seat, n in enumerate(before)]


def test_a_wrong_count_of_hands_won_is_found_and_repaired(session_in_play):
    table = session_in_play.tables.get(number=2)
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
    )
    Seat.objects.filter(table=table, seat=3).update(hands_won=2)
    with pytest.raises(CommandError):
        verify("spring-open")
    verify("spring-open", "--repair")
    assert hands_won(table) == [1, 0, 0, 0]


def test_hands_not_played_at_confirmation_give_the_table_its_result(session_in_play, referee):
    table = session_in_play.tables.get(number=3)
    services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)
    table.refresh_from_db()
    assert table.hands_entered == 16
    assert stored(table) == [(0, 1, Fraction(7, 4))] * 4 == from_the_sheet(table)


def test_penalties_count_in_the_stored_result(session_in_play):
    table = session_in_play.tables.get(number=1)
    penalty = services.PenaltyEntry(offender=2, kind="deducted", points=10, reason="Lateness")
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="draw", penalties=[penalty])
    )
    assert stored(table) == [
        (0, 1, Fraction(7, 3)),
        (0, 1, Fraction(7, 3)),
        (-10, 4, Fraction(0)),
        (0, 1, Fraction(7, 3)),
    ]


def reference_standings(tournament) -> dict[int, tuple]:
    """Player number -> (table points, score, places, sessions, best session), added up here
    from every table's sheet, the hands settled again."""
    totals = {p.number: [Fraction(0), 0, [0, 0, 0, 0], 0, None] for p in tournament.players.all()}
    for result in tournament_results(tournament):
        row = totals[result.player.number]
        row[0] += result.table_points
        row[1] += result.score
        row[2][result.place - 1] += 1
        row[3] += 1
        row[4] = result.score if row[4] is None else max(row[4], result.score)
    return {number: (a, b, tuple(c), d, e) for number, (a, b, c, d, e) in totals.items()}


def test_standings_from_the_stored_results_are_those_of_the_hands(tournament, referee):
    rng = random.Random(11)
    make_players(tournament, 16)
    make_players(tournament, 2, start=17, is_substitute=True)
    for number in (1, 2):
        session = services.session_open(
            session=services.session_draw(tournament=tournament, number=number, seed=number)
        )
        for table in session.tables.all():
            # Session 2 is still being played: some tables have only a few hands.
            for hand in range(1, (16 if number == 1 else rng.randrange(0, 6)) + 1):
                random_hand(rng, table, hand)
        if number == 1:
            services.player_withdraw(player=tournament.players.get(number=3))
    rows = tournament_standings(tournament)
    got = {
        row.player.number: (
            row.table_points,
            row.score,
            tuple(row.places),
            row.sessions_played,
            row.best_session,
        )
        for row in rows
    }
    assert got == reference_standings(tournament)
    assert sum(row.table_points for row in rows) == 7 * sum(
        1 for t in Table.objects.filter(session__tournament=tournament) if t.hands_entered
    )
    ranks = [row.rank for row in rows if row.rank is not None]
    assert ranks == sorted(ranks) and ranks[0] == 1


def test_standings_are_read_from_the_cache_until_the_next_write(
    session_in_play, django_assert_num_queries
):
    tournament = session_in_play.tournament
    table = session_in_play.tables.get(number=1)
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
    )
    # The version, then the players and the played seats.
    with django_assert_num_queries(3):
        first = list(tournament_standings(tournament))
    # The version only: the rest from the cache.
    with django_assert_num_queries(1):
        assert standing_values(tournament_standings(tournament)) == standing_values(first)
    services.hand_record(
        table=table, entry=services.HandEntry(number=2, outcome="self_drawn", winner=1, fan=8)
    )
    # A new version: computed again, at once.
    with django_assert_num_queries(3):
        after = list(tournament_standings(tournament))
    assert {row.player.number: row.score for row in after} != {
        row.player.number: row.score for row in first
    }
    assert standing_values(after) == standing_values(compute_standings(tournament))


def standing_values(rows) -> list[tuple]:
    """What a standings page shows of each row, in order: the player's fields too (a
    ``StandingRow`` compares its player by id only)."""
    return [
        (
            row.player.pk,
            row.player.number,
            row.player.name,
            row.player.team,
            row.player.is_substitute,
            row.player.withdrawn_at,
            row.rank,
            row.table_points,
            row.score,
            row.places,
            row.sessions_played,
            row.best_session,
            row.hands_won,
        )
        for row in rows
    ]


def assert_read_standings_exact(tournament) -> None:
    """The standings the pages read (cached), their teams and the rank history are those
    computed from every seat now."""
    live_rows, computed_rows = tournament_standings(tournament), compute_standings(tournament)
    assert standing_values(live_rows) == standing_values(computed_rows)
    teams = team_standings(computed_rows)
    assert list(live_rows.teams()) == teams
    assert live_rows.teams()[1:3] == teams[1:3]
    computed = compute_rank_history(tournament)
    live = rank_history(tournament)
    assert (live.sessions, live.ranked) == (computed.sessions, computed.ranked)
    for player in tournament.players.all():
        assert live.of(player.pk) == computed.of(player.pk)


def seating_version(tournament) -> int:
    return TournamentVersion.objects.get(tournament=tournament).seating


# The writes that cannot change the seating: they leave the seating version (and the seating
# figures cached under it) as they are.
SEATING_KEPT = {
    # A player linked to the person they are changes the series, not the seating.
    "people_link",
    "people_link_by_ema_numbers",
    "person_create_for",
    "person_unlink",
    # The timetable and the check-in change no seat; absent players' seats given do.
    "check_in_close",
    "check_in_open",
    "player_check_in",
    "player_check_in_undo",
    "player_link_revoke",
    "session_times_set",
    "device_link_revoke",
    "device_links_revoke",
    # A commitment changes no seat; the draw that reveals it does.
    "draw_commit",
    "draw_commitment_public_value",
    "draw_commitment_withdraw",
    "hand_record",
    # A ruling and its appeal: the record of fouls changes, and the hands their penalties
    # are in.
    "appeal_decide",
    "appeal_lodge",
    "ruling_give",
    "referees_copy_from_previous",
    "session_close",
    "session_close_undo",
    "session_open",
    "session_open_undo",
    "session_reopen",
    "table_confirm",
    "table_extra_time",
    "table_reopen",
    "table_sheet_record",
    "tables_assign",
}


# The writes that cannot change the standings but by the results of the tables they store:
# they keep the standings' stamp, and the live standings re-read only the tables stamped.
# Those that change the seating do not; nor do a player's person and own link, fields of the
# player that the standings' rows carry.
STANDINGS_KEPT = SEATING_KEPT - {
    "people_link",
    "people_link_by_ema_numbers",
    "person_create_for",
    "person_unlink",
    "player_link_revoke",
}


def test_every_write_raises_the_tournaments_version(tournament, organiser, referee):
    steps = []
    seating_raised = set()
    standings_changed = set()

    def step(name, write):
        before, seating_before = version(tournament), seating_version(tournament)
        stamp_before = TournamentVersion.objects.get(tournament=tournament).standings
        # Read before, so that a stale cached copy would show after the write.
        tournament_standings(tournament)
        rank_history(tournament)
        write()
        steps.append((name, version(tournament) > before))
        if seating_version(tournament) > seating_before:
            seating_raised.add(name)
        if TournamentVersion.objects.get(tournament=tournament).standings != stamp_before:
            standings_changed.add(name)
        tournament.refresh_from_db()
        assert_read_standings_exact(tournament)

    make_players(tournament, 8)
    step("player_save", lambda: services.player_save(tournament=tournament, number=9, name="Nine"))
    nine = tournament.players.get(number=9)
    step("player_withdraw", lambda: services.player_withdraw(player=nine))
    step("player_reinstate", lambda: services.player_reinstate(player=nine))
    rows = [{"number": 10, "name": "Ten"}]
    fingerprint = player_import.state_fingerprint(player_import.stored_players(tournament), rows)
    step(
        "players_import",
        lambda: services.players_import(tournament=tournament, rows=rows, fingerprint=fingerprint),
    )
    step("player_link_revoke", lambda: services.player_link_revoke(player=nine))
    step(
        "person_create_for", lambda: services.person_create_for(tournament=tournament, numbers=[9])
    )
    nine.refresh_from_db()
    step("person_unlink", lambda: services.person_unlink(player=nine))
    # Player 1's person, freed for player 9.
    services.person_create_for(tournament=tournament, numbers=[1])
    one = tournament.players.get(number=1)
    person = one.person
    services.person_unlink(player=one)
    step("people_link", lambda: services.people_link(tournament=tournament, links=[(9, person.pk)]))
    step(
        "people_link_by_ema_numbers",
        lambda: services.people_link_by_ema_numbers(tournament=tournament),
    )
    step(
        "session_times_set",
        lambda: services.session_times_set(tournament=tournament, starts={1: timezone.now()}),
    )
    step("check_in_open", lambda: services.check_in_open(tournament=tournament, number=1))
    one = tournament.players.get(number=1)
    step("player_check_in", lambda: services.player_check_in(player=one, number=1))
    step("player_check_in_undo", lambda: services.player_check_in_undo(player=one, number=1))
    step("check_in_close", lambda: services.check_in_close(tournament=tournament, number=1))
    step(
        "tournament_update",
        lambda: services.tournament_update(tournament=tournament, sign_up_open=True, player_cap=11),
    )
    step("sign_up", lambda: services.sign_up(tournament=tournament, name="A", email="a@ex.org"))
    for name in "BCD":
        services.sign_up(tournament=tournament, name=name, email=f"{name}@ex.org")
    first, second_sign_up, third, fourth = tournament.sign_ups.order_by("position")
    step("sign_up_move", lambda: services.sign_up_move(sign_up=third, up=True))
    step("sign_up_accept", lambda: services.sign_up_accept(sign_up=first))
    step("sign_up_refuse", lambda: services.sign_up_refuse(sign_up=second_sign_up))
    step("sign_up_withdraw", lambda: services.sign_up_withdraw(sign_up=third))
    # A place more, given without the services (the admin's way): the promotion gives it.
    Tournament.objects.filter(pk=tournament.pk).update(player_cap=12)
    tournament.refresh_from_db()
    step("waiting_list_promote", lambda: services.waiting_list_promote(tournament=tournament))
    services.player_withdraw(player=tournament.sign_ups.get(pk=first.pk).player)
    services.sign_up_withdraw(sign_up=fourth)
    services.player_withdraw(player=nine)
    services.player_withdraw(player=tournament.players.get(number=10))
    step(
        "draw_commit",
        lambda: services.draw_commit(tournament=tournament, public_value_source="drand round 1"),
    )
    commitment = tournament.draw_commitments.get()
    step(
        "draw_commitment_public_value",
        lambda: services.draw_commitment_public_value(commitment=commitment, value="ab12"),
    )
    step(
        "draw_commitment_withdraw",
        lambda: services.draw_commitment_withdraw(commitment=commitment),
    )
    step("session_draw", lambda: services.session_draw(tournament=tournament, number=1, seed=1))
    session = tournament.sessions.get(number=1)
    table = session.tables.get(number=1)
    step(
        "tables_assign",
        lambda: services.tables_assign(session=session, referee=referee, tables=[1]),
    )
    services.player_reinstate(player=nine)
    seat = table.seats.get(seat=0)
    replaced = seat.player
    step("seat_replace", lambda: services.seat_replace(seat=seat, player=nine))
    absent = session.seats.get(table__number=2, seat=0).player
    step(
        "absent_seats_give",
        lambda: services.absent_seats_give(
            session=session,
            choices=[services.AbsentSeatChoice(absent=absent, substitute=replaced)],
        ),
    )
    step("session_open", lambda: services.session_open(session=session))
    step("table_extra_time", lambda: services.table_extra_time(table=table, minutes=5))
    step("device_link_revoke", lambda: services.device_link_revoke(table=table))
    step("device_links_revoke", lambda: services.device_links_revoke(session=session))
    step(
        "hand_record",
        lambda: services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
        ),
    )
    first = table.seats.get(seat=0).player
    step(
        "ruling_give",
        lambda: services.ruling_give(
            table=table,
            referee=referee,
            hand=1,
            decision="Late.",
            penalty_kind="deducted",
            penalty_points=10,
            offender=first,
        ),
    )
    ruling = table.rulings.get()
    step(
        "appeal_lodge",
        lambda: services.appeal_lodge(ruling=ruling, user=referee, grounds="On time."),
    )
    step(
        "appeal_decide",
        lambda: services.appeal_decide(
            appeal=ruling.appeal, user=organiser, decision="changed", reasons="Withdrawn."
        ),
    )
    step(
        "table_seats_swap",
        lambda: services.table_seats_swap(table=table, first=0, second=1, user=referee),
    )
    step(
        "table_confirm",
        lambda: services.table_confirm(
            table=table, user=referee, record_missing_as_not_played=True
        ),
    )
    step("table_reopen", lambda: services.table_reopen(table=table, user=organiser, reason="x"))
    step(
        "table_sheet_record",
        lambda: services.table_sheet_record(
            table=session.tables.get(number=2),
            entries=[services.HandEntry(number=1, outcome="draw")],
            user=referee,
            record_missing_as_not_played=True,
        ),
    )
    for other in session.tables.exclude(pk=table.pk).filter(confirmed_at=None):
        services.table_confirm(table=other, user=referee, record_missing_as_not_played=True)
    services.table_confirm(table=table, user=referee)
    step("session_close", lambda: services.session_close(session=session))
    step("session_reopen", lambda: services.session_reopen(session=session))
    services.session_close(session=session)
    step("session_close_undo", lambda: services.session_close_undo(session=session))
    services.player_withdraw(player=nine)
    Tournament.objects.filter(pk=tournament.pk).update(review_draws=True)
    tournament.refresh_from_db()
    second = services.session_draw(tournament=tournament, number=2, seed=2)
    step("session_publish", lambda: services.session_publish(session=second))
    step("session_publish_undo", lambda: services.session_publish_undo(session=second))
    services.session_publish(session=second)
    second = services.session_open(
        session=Session.objects.get(pk=second.pk), playing_after_all=True
    )
    step("session_open_undo", lambda: services.session_open_undo(session=second))
    services.tables_assign(session=second, referee=None, tables=[1])
    step(
        "referees_copy_from_previous",
        lambda: services.referees_copy_from_previous(session=second),
    )
    step("session_cancel_draw", lambda: services.session_cancel_draw(session=second))
    step(
        "tournament_update",
        lambda: services.tournament_update(tournament=tournament, name="Spring Open II"),
    )
    step(
        "rules_change",
        lambda: services.rules_change(tournament=tournament, reason="Six.", minimum_fan=6),
    )
    assert [name for name, raised in steps if not raised] == []
    # Every write service is in the walk above: a new one has to be added to it.
    assert {name for name, _raised in steps} == set(services.__all__) - NOT_WRITES
    # Every other write raises the seating version too.
    assert seating_raised == {name for name, _raised in steps} - SEATING_KEPT
    # And every other write gives the standings a new stamp.
    assert standings_changed == {name for name, _raised in steps} - STANDINGS_KEPT


# What the services module offers besides the writes the walk above checks: data classes and
# reads; tournament_create (which makes the version) and tournament_delete (which removes
# it).
NOT_WRITES = {
    # A series is no tournament's data: it has a version of its own (tests/test_series.py).
    "series_delete",
    "series_save",
    # Send the e-mails waiting, or queue their sending: no tournament data changes, only
    # their outbox rows.
    "emails_send_due",
    "emails_send_now",
    # Stores an import and queues its task: no player changes until the task runs it, with
    # ``players_import``'s rules and writes (the walk's "players_import").
    "player_import_start",
    # Asks for a download's file to be built: a derived copy and its task, no tournament data.
    "export_build_ask",
    # A call for a referee is on the desk alone, which has a version of its own
    # (tests/services/test_rulings.py).
    "call_cancel",
    "call_make",
    "call_take",
    "desk_touch",
    "AbsentSeatChoice",
    "absent_field",
    # A change of the rules asked for: made at once by ``rules_change`` (the walk's), or kept
    # for the task queue, whose task makes it by ``rules_change`` (tests/services/
    # test_rule_change_jobs.py).
    "rules_change_ask",
    "rules_change_run",
    # The rules' fields, a profile's options, a tournament's options, whether play started.
    "RULE_FIELDS",
    "play_started",
    "profile_options",
    "rule_options",
    "HandEntry",
    "HandRefused",
    "ImportOutcome",
    "ImportRowRefused",
    "PenaltyEntry",
    "entered_fields",
    "fan_list",
    "parse_table_numbers",
    "penalty_entries",
    "score_winning_hand",
    "stored_hand_result",
    "tournament_create",
    "tournament_delete",
}


def verify(*args) -> str:
    out = io.StringIO()
    call_command("verify_results", *args, stdout=out)
    return out.getvalue()


def test_verify_results_finds_no_difference_in_results_kept_by_the_services(session_in_play):
    rng = random.Random(3)
    for table in session_in_play.tables.all():
        for number in range(1, 9):
            random_hand(rng, table, number)
    assert verify("spring-open") == "spring-open: 4 tables checked, 0 seats differ.\n"


def test_verify_results_reports_a_corrupted_seat_and_repairs_it(session_in_play):
    table = session_in_play.tables.get(number=2)
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
    )
    seat = table.seats.get(seat=1)
    Seat.objects.filter(pk=seat.pk).update(score=99, place=1, table_points_twelfths=48)

    with pytest.raises(CommandError, match="run again with --repair"):
        verify("spring-open")
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_results", "spring-open", stdout=out)
    assert out.getvalue().splitlines() == [
        f"session 1 table 2 P2 {seat.player.name}: stored score +99, place 1, 4 table points,"
        " 0 hands won; from the hands score -16, place 2, 1 table points, 0 hands won",
        "spring-open: 4 tables checked, 1 seats differ.",
    ]

    repaired = verify("spring-open", "--repair")
    assert repaired.endswith("Stored the hands' results at 1 tables.\n")
    assert verify("spring-open") == "spring-open: 4 tables checked, 0 seats differ.\n"


def test_verify_results_of_an_unknown_tournament_says_so(db):
    with pytest.raises(CommandError, match="No tournament with the short name nowhere"):
        verify("nowhere")
