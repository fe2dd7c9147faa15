"""The models and the migrations agree: no migration is missing."""

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_missing_migrations():
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit_:
        pytest.fail(f"makemigrations --check exited with {exit_.code}:\n{out.getvalue()}")


@pytest.mark.django_db(transaction=True)
def test_hands_kept_against_the_calculator_before_the_flag_are_marked_kept():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("tournament", "0005_session_draw_input")]
    after = [("tournament", "0006_hand_override_seat_restrict_default_method")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    tournament = old.get_model("tournament", "Tournament").objects.create(name="Old", slug="old")
    session = old.get_model("tournament", "Session").objects.create(
        tournament=tournament, number=1, seed=1
    )
    table = old.get_model("tournament", "Table").objects.create(session=session, number=1)
    hand = old.get_model("tournament", "Hand")
    win = {"table": table, "outcome": "self_drawn", "winner": 0, "flowers": 0}
    points = {"points_p1": 30, "points_p2": -10, "points_p3": -10, "points_p4": -10}
    hand.objects.create(number=1, fan=10, computed_fan=8, **win, **points)
    hand.objects.create(number=2, fan=10, computed_fan=10, **win, **points)
    hand.objects.create(number=3, fan=10, computed_fan=None, **win, **points)

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    kept = new.get_model("tournament", "Hand").objects.order_by("number")
    assert [(h.number, h.referee_figure_kept) for h in kept] == [(1, True), (2, False), (3, False)]
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_results_of_hands_entered_before_they_were_stored_are_stored_by_the_migration():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("tournament", "0010_history")]
    after = [("tournament", "0011_stored_results")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    tournament = old.get_model("tournament", "Tournament").objects.create(name="Old", slug="old")
    session = old.get_model("tournament", "Session").objects.create(
        tournament=tournament, number=1, seed=1
    )
    played, drawn = (
        old.get_model("tournament", "Table").objects.create(session=session, number=n)
        for n in (1, 2)
    )
    player = old.get_model("tournament", "Player")
    seat = old.get_model("tournament", "Seat")
    for n in range(8):
        seat.objects.create(
            session=session,
            table=played if n < 4 else drawn,
            player=player.objects.create(tournament=tournament, number=n + 1, name=f"P{n}"),
            seat=n % 4,
            lot=n + 1,
        )
    hand = old.get_model("tournament", "Hand")
    hand.objects.create(
        table=played, number=1, outcome="self_drawn", winner=0, fan=8, flowers=0,
        points_p1=48, points_p2=-16, points_p3=-16, points_p4=-16,
    )  # fmt: skip
    hand.objects.create(
        table=played, number=2, outcome="discard", winner=1, discarder=0, fan=8, flowers=0,
        points_p1=-16, points_p2=32, points_p3=-8, points_p4=-8,
    )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    seats = new.get_model("tournament", "Seat").objects.order_by("table__number", "seat")
    assert [(s.score, s.place, s.table_points_twelfths) for s in seats] == [
        (32, 1, 48),
        (16, 2, 24),
        (-24, 3, 6),
        (-24, 3, 6),
    ] + [(0, None, 0)] * 4
    tables = new.get_model("tournament", "Table").objects.order_by("number")
    assert [t.hands_entered for t in tables] == [2, 0]
    assert new.get_model("tournament", "TournamentVersion").objects.get().number == 1
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_countries_become_codes_and_names_are_split_without_losing_anything():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("tournament", "0012_seating_version")]
    after = [("tournament", "0014_player_federation_fields")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    tournament = old.get_model("tournament", "Tournament").objects.create(name="Old", slug="old")
    old.get_model("tournament", "TournamentVersion").objects.create(tournament=tournament)
    player = old.get_model("tournament", "Player")
    countries = [
        (1, "Alice Martin", "France"),  # a name the table knows
        (2, "欧阳娜娜", "中国"),
        (3, "Bo Li", "cn"),  # a two-letter code
        (4, "Cy Dupont", "fra"),  # three letters, lower case
        (5, "Di Berg", "ARG"),  # three letters the table does not list
        (6, "Ed Novak", "Bohemia"),  # not a country the table knows: kept apart, visible
        (7, "Fu", ""),
        (8, "Gao Ming", "Deutschland"),
    ]
    for number, name, country in countries:
        player.objects.create(tournament=tournament, number=number, name=name, country=country)

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    converted = new.get_model("tournament", "Player").objects.order_by("number")
    assert [
        (p.number, p.name, p.first_name, p.last_name, p.country, p.country_unrecognised)
        for p in converted
    ] == [
        (1, "Alice Martin", "Alice", "Martin", "FRA", ""),
        (2, "欧阳娜娜", "娜娜", "欧阳", "CHN", ""),
        (3, "Bo Li", "Bo", "Li", "CHN", ""),
        (4, "Cy Dupont", "Cy", "Dupont", "FRA", ""),
        (5, "Di Berg", "Di", "Berg", "ARG", ""),
        (6, "Ed Novak", "Ed", "Novak", "", "Bohemia"),
        (7, "Fu", "", "Fu", "", ""),
        (8, "Gao Ming", "Gao", "Ming", "GER", ""),
    ]
    assert {p.ema_number for p in converted} == {""}
    # Each player changed has a history row saying why, with the values after the change.
    history = new.get_model("tournament", "HistoricalPlayer").objects.order_by("id")
    assert [(h.id, h.country, h.history_change_reason) for h in history] == [
        (p.id, p.country, "country_codes") for p in converted
    ]
    # What was cached under the old version is never read again.
    assert new.get_model("tournament", "TournamentVersion").objects.get().number == 2
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_a_plan_re_planned_before_the_migration_keeps_its_first_players_from_history():
    from datetime import timedelta

    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from django.utils import timezone

    before = [("tournament", "0012_seating_version")]
    after = [("tournament", "0015_substitute_limit")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    tournament_model = old.get_model("tournament", "Tournament")
    plan_model = old.get_model("tournament", "SeatingPlan")
    history = old.get_model("tournament", "HistoricalSeatingPlan")
    plans = {}
    for slug, first, now in (("old", [1, 2, 3, 4], [1, 2, 3, 5]), ("new", [6, 7, 8, 9], None)):
        tournament = tournament_model.objects.create(name=slug, slug=slug)
        fields = {"seed": 1, "sessions": [[first]], "stats": {}, "players": now or first}
        plans[slug] = plan_model.objects.create(tournament=tournament, **fields)
        if now is not None:
            # The plan as first saved, then re-planned: its history holds both.
            for when, players, kind in ((1, first, "+"), (2, now, "~")):
                history.objects.create(
                    id=plans[slug].pk,
                    tournament_id=tournament.pk,
                    history_date=timezone.now() + timedelta(minutes=when),
                    history_type=kind,
                    created_at=timezone.now(),
                    updated_at=timezone.now(),
                    **{**fields, "players": players},
                )

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    stored = new.get_model("tournament", "SeatingPlan").objects
    assert stored.get(pk=plans["old"].pk).first_players == [1, 2, 3, 4]
    assert stored.get(pk=plans["new"].pk).first_players == [6, 7, 8, 9]
    assert stored.get(pk=plans["old"].pk).replan_inputs == []
    assert new.get_model("tournament", "Tournament").objects.get(slug="old").substitute_limit == 3
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_sessions_drawn_before_draws_could_be_reviewed_are_published_when_drawn():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("tournament", "0017_player_links_and_check_in")]
    after = [("tournament", "0018_draws_published")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    tournament = old.get_model("tournament", "Tournament").objects.create(name="Old", slug="old")
    opened = old.get_model("tournament", "Session").objects.create(
        tournament=tournament, number=1, seed=1
    )
    drawn = old.get_model("tournament", "Session").objects.create(
        tournament=tournament, number=2, seed=2
    )

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    sessions = new.get_model("tournament", "Session").objects
    for session in (opened, drawn):
        stored = sessions.get(pk=session.pk)
        assert stored.published_at == stored.drawn_at is not None
    assert not new.get_model("tournament", "Tournament").objects.get(slug="old").review_draws
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
