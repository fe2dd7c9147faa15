"""The models and the migrations agree: no migration is missing; and each data migration
converts the rows that were there before it."""

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


class Walk:
    """The test database's schema moved to a migration of the app, backwards or forwards;
    ``to`` answers the models as they were at that migration."""

    def __init__(self):
        from django.db import connection
        from django.db.migrations.executor import MigrationExecutor

        self.connection = connection
        self.executor_class = MigrationExecutor

    def to(self, name: str):
        target = [("tournament", name)]
        executor = self.executor_class(self.connection)
        executor.migrate(target)
        return executor.loader.project_state(target).apps

    def to_the_end(self) -> None:
        executor = self.executor_class(self.connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_each_data_migration_converts_the_rows_there_before_it():
    """One walk back to 0005, then forward through each data migration: rows made as the
    models were before it, read as they are after it. (Moving the schema back and forth is
    what these checks cost: one walk serves them all.) Each step has a tournament of its own;
    the rows of the earlier steps ride along, as an event's database would carry them."""
    walk = Walk()
    hands_kept_flag(walk)
    results_stored(walk)
    countries_and_plans(walk)
    sessions_published(walk)
    hands_won_counted(walk)
    walk.to_the_end()


def hands_kept_flag(walk: Walk) -> None:
    """Hands kept against the calculator before the flag existed are marked kept."""
    old = walk.to("0005_session_draw_input")
    tournament = old.get_model("tournament", "Tournament").objects.create(name="Flag", slug="flag")
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

    new = walk.to("0006_hand_override_seat_restrict_default_method")
    kept = new.get_model("tournament", "Hand").objects.filter(
        table__session__tournament__slug="flag"
    )
    assert [(h.number, h.referee_figure_kept) for h in kept.order_by("number")] == [
        (1, True),
        (2, False),
        (3, False),
    ]


def results_stored(walk: Walk) -> None:
    """The results of hands entered before they were stored are stored by the migration."""
    old = walk.to("0010_history")
    tournament = old.get_model("tournament", "Tournament").objects.create(
        name="Results", slug="results"
    )
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

    new = walk.to("0011_stored_results")
    seats = new.get_model("tournament", "Seat").objects.filter(session__tournament__slug="results")
    assert [
        (s.score, s.place, s.table_points_twelfths) for s in seats.order_by("table__number", "seat")
    ] == [(32, 1, 48), (16, 2, 24), (-24, 3, 6), (-24, 3, 6)] + [(0, None, 0)] * 4
    tables = new.get_model("tournament", "Table").objects.filter(
        session__tournament__slug="results"
    )
    assert [t.hands_entered for t in tables.order_by("number")] == [2, 0]
    versions = new.get_model("tournament", "TournamentVersion").objects
    assert versions.get(tournament__slug="results").number == 1


def countries_and_plans(walk: Walk) -> None:
    """Countries become codes and names are split without losing anything; a plan
    re-planned before the migration keeps its first players from its history."""
    from datetime import timedelta

    from django.utils import timezone

    old = walk.to("0012_seating_version")
    tournament = old.get_model("tournament", "Tournament").objects.create(
        name="Countries", slug="countries"
    )
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

    tournament_model = old.get_model("tournament", "Tournament")
    plan_model = old.get_model("tournament", "SeatingPlan")
    history = old.get_model("tournament", "HistoricalSeatingPlan")
    plans = {}
    for slug, first, now in (("old", [1, 2, 3, 4], [1, 2, 3, 5]), ("new", [6, 7, 8, 9], None)):
        planned = tournament_model.objects.create(name=slug, slug=slug)
        fields = {"seed": 1, "sessions": [[first]], "stats": {}, "players": now or first}
        plans[slug] = plan_model.objects.create(tournament=planned, **fields)
        if now is not None:
            # The plan as first saved, then re-planned: its history holds both.
            for when, players, kind in ((1, first, "+"), (2, now, "~")):
                history.objects.create(
                    id=plans[slug].pk,
                    tournament_id=planned.pk,
                    history_date=timezone.now() + timedelta(minutes=when),
                    history_type=kind,
                    created_at=timezone.now(),
                    updated_at=timezone.now(),
                    **{**fields, "players": players},
                )

    new = walk.to("0014_player_federation_fields")
    converted = new.get_model("tournament", "Player").objects.filter(tournament__slug="countries")
    converted = converted.order_by("number")
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
    history = new.get_model("tournament", "HistoricalPlayer").objects
    history = history.filter(tournament_id=tournament.pk).order_by("id")
    assert [(h.id, h.country, h.history_change_reason) for h in history] == [
        (p.id, p.country, "country_codes") for p in converted
    ]
    # What was cached under the old version is never read again.
    versions = new.get_model("tournament", "TournamentVersion").objects
    assert versions.get(tournament__slug="countries").number == 2

    new = walk.to("0015_substitute_limit")
    stored = new.get_model("tournament", "SeatingPlan").objects
    assert stored.get(pk=plans["old"].pk).first_players == [1, 2, 3, 4]
    assert stored.get(pk=plans["new"].pk).first_players == [6, 7, 8, 9]
    assert stored.get(pk=plans["old"].pk).replan_inputs == []
    assert new.get_model("tournament", "Tournament").objects.get(slug="old").substitute_limit == 3


def sessions_published(walk: Walk) -> None:
    """Sessions drawn before draws could be reviewed are published when drawn."""
    old = walk.to("0017_player_links_and_check_in")
    tournament = old.get_model("tournament", "Tournament").objects.create(
        name="Published", slug="published"
    )
    opened = old.get_model("tournament", "Session").objects.create(
        tournament=tournament, number=1, seed=1
    )
    drawn = old.get_model("tournament", "Session").objects.create(
        tournament=tournament, number=2, seed=2
    )

    new = walk.to("0018_draws_published")
    sessions = new.get_model("tournament", "Session").objects
    for session in (opened, drawn):
        stored = sessions.get(pk=session.pk)
        assert stored.published_at == stored.drawn_at is not None
    published = new.get_model("tournament", "Tournament").objects.get(slug="published")
    assert not published.review_draws


def hands_won_counted(walk: Walk) -> None:
    """Each seat's hands won are counted from the hands entered before they were stored."""
    old = walk.to("0037_rule_profiles")
    tournament = old.get_model("tournament", "Tournament").objects.create(name="Won", slug="won")
    old.get_model("tournament", "TournamentVersion").objects.create(tournament=tournament)
    session = old.get_model("tournament", "Session").objects.create(
        tournament=tournament, number=1, seed=1
    )
    played, drawn = (
        old.get_model("tournament", "Table").objects.create(session=session, number=n)
        for n in (1, 2)
    )
    player = old.get_model("tournament", "Player")
    for n in range(8):
        old.get_model("tournament", "Seat").objects.create(
            session=session,
            table=played if n < 4 else drawn,
            player=player.objects.create(tournament=tournament, number=n + 1, name=f"P{n}"),
            seat=n % 4,
            lot=n + 1,
        )
    hand = old.get_model("tournament", "Hand")
    self_drawn = {"outcome": "self_drawn", "fan": 8, "flowers": 0}
    for number, winner in ((1, 2), (2, 0), (3, 2)):
        hand.objects.create(table=played, number=number, winner=winner, **self_drawn)
    hand.objects.create(table=played, number=4, outcome="draw")
    hand.objects.create(table=drawn, number=1, outcome="draw")

    new = walk.to("0038_seat_hands_won")
    seats = new.get_model("tournament", "Seat").objects.filter(session__tournament__slug="won")
    assert [s.hands_won for s in seats.order_by("table__number", "seat")] == [1, 0, 2, 0] + [0] * 4
    versions = new.get_model("tournament", "TournamentVersion").objects
    assert versions.get(tournament__slug="won").number == 2
