"""tournament_create, tournament_update and tournament_delete: refused with a coded error
beside the field, nothing half-saved; a deletion takes everything under the tournament."""

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import RestrictedError

from tests.conftest import make_players, make_tournament, play_some_sessions
from tests.services.errors import codes
from tournament import services
from tournament.models import (
    Hand,
    HandRevision,
    Penalty,
    Player,
    Seat,
    SeatingPlan,
    Session,
    Table,
    TableReopening,
    Tournament,
)
from tournament.selectors.overview import DeletionSummary, tournament_deletion_summary


def rows_under(tournament_pk: int) -> dict[str, int]:
    """How many rows of each kind belong to the tournament (it may be deleted already)."""
    in_sessions = {"session__tournament_id": tournament_pk}
    in_tables = {"table__session__tournament_id": tournament_pk}
    in_hands = {"hand__table__session__tournament_id": tournament_pk}
    return {
        "players": Player.objects.filter(tournament_id=tournament_pk).count(),
        "sessions": Session.objects.filter(tournament_id=tournament_pk).count(),
        "seating plans": SeatingPlan.objects.filter(tournament_id=tournament_pk).count(),
        "tables": Table.objects.filter(**in_sessions).count(),
        "seats": Seat.objects.filter(**in_sessions).count(),
        "replaced seats": Seat.objects.filter(**in_sessions, replaces__isnull=False).count(),
        "hands": Hand.objects.filter(**in_tables).count(),
        "reopenings": TableReopening.objects.filter(**in_tables).count(),
        "penalties": Penalty.objects.filter(**in_hands).count(),
        "revisions": HandRevision.objects.filter(**in_hands).count(),
    }


@pytest.fixture
def played(tournament, organiser, referee):
    play_some_sessions(tournament, organiser=organiser, referee=referee, committed=True)
    return tournament


# ---------------------------------------------------------------- creating


def test_creating_makes_the_creator_its_organiser_and_sets_its_referees(organiser, referee):
    created = services.tournament_create(
        name="Winter Cup",
        slug="winter-cup",
        session_count=5,
        session_minutes=120,
        creator=organiser,
        referees=[referee],
    )
    created.refresh_from_db()
    assert (created.name, created.session_count, created.session_minutes) == (
        "Winter Cup",
        5,
        120,
    )
    assert list(created.organisers.all()) == [organiser]
    assert list(created.referees.all()) == [referee]


def test_a_new_tournament_is_ranked_by_the_rules_default_order_and_planned(organiser):
    created = services.tournament_create(
        name="Winter Cup", slug="winter-cup", session_count=4, session_minutes=150
    )
    assert created.tiebreaks == ["table_points", "score", "first_places", "best_session"]
    assert created.seating_method == "planned"
    # Federations count at most three substitutes.
    assert created.substitute_limit == 3


def test_the_substitute_limit_is_a_setting_of_zero_or_more(tournament):
    services.tournament_update(tournament=tournament, substitute_limit=0)
    assert Tournament.objects.get(pk=tournament.pk).substitute_limit == 0
    with pytest.raises(ValidationError) as raised:
        services.tournament_update(tournament=tournament, substitute_limit=-2)
    assert set(raised.value.error_dict) == {"substitute_limit"}
    assert codes(raised.value) == {"min_value"}
    assert Tournament.objects.get(pk=tournament.pk).substitute_limit == 0


def test_the_form_the_model_and_the_service_share_their_defaults(organiser):
    from tournament.forms.tournaments import TournamentForm

    form = TournamentForm()
    created = services.tournament_create(
        name="Winter Cup", slug="winter-cup", session_count=4, session_minutes=150
    )
    assert form.fields["seating_method"].initial == created.seating_method
    assert form.fields["substitute_limit"].initial == created.substitute_limit
    assert form.fields["appeal_minutes"].initial == created.appeal_minutes == 30
    assert Tournament().seating_method == created.seating_method
    # The ranking order is the default profile's, which the form offers first.
    assert form.fields["rule_profile"].initial == created.rule_profile == "seed"


def test_a_taken_short_name_is_refused_beside_it_and_nothing_is_created(tournament, organiser):
    with pytest.raises(ValidationError) as raised:
        make_tournament(creator=organiser, slug=tournament.slug)
    assert set(raised.value.error_dict) == {"slug"}
    assert "unique" in codes(raised.value)
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "field", "code"),
    [
        ({"session_count": 0}, "session_count", "min_value"),
        ({"session_minutes": 5}, "session_minutes", "min_value"),
        ({"slug": "spring open"}, "slug", "invalid"),
        ({"tiebreak_order": "score,score"}, "tiebreak_order", "invalid_tiebreak_order"),
        ({"substitute_limit": -1}, "substitute_limit", "min_value"),
    ],
)
def test_invalid_settings_are_refused_at_creation_beside_their_field(
    organiser, fields, field, code
):
    settings = {"name": "Winter Cup", "slug": "winter-cup", "session_count": 4}
    settings.update(session_minutes=150)
    settings.update(fields)
    with pytest.raises(ValidationError) as raised:
        services.tournament_create(creator=organiser, **settings)
    assert field in raised.value.error_dict
    assert code in codes(raised.value)
    assert not Tournament.objects.exists()


# ---------------------------------------------------------------- changing the settings


def test_update_saves_the_settings_and_replaces_the_referees(tournament, other_referee):
    services.tournament_update(
        tournament=tournament,
        name="Spring Open 2027",
        session_count=6,
        tiebreak_order="score,table_points",
        referees=[other_referee],
    )
    tournament.refresh_from_db()
    assert (tournament.name, tournament.session_count) == ("Spring Open 2027", 6)
    assert tournament.tiebreaks == ["score", "table_points"]
    assert list(tournament.referees.all()) == [other_referee]


def test_update_without_referees_keeps_them(tournament, referee):
    services.tournament_update(tournament=tournament, session_minutes=120)
    assert list(tournament.referees.all()) == [referee]


def test_fewer_sessions_than_one_already_drawn_are_refused_and_nothing_changes(tournament):
    make_players(tournament, 8)
    services.session_draw(tournament=tournament, number=3, seed=3)
    with pytest.raises(ValidationError) as raised:
        services.tournament_update(
            tournament=Tournament.objects.get(pk=tournament.pk), name="Renamed", session_count=2
        )
    assert set(raised.value.error_dict) == {"session_count"}
    assert codes(raised.value) == {"sessions_already_drawn"}
    assert "Session 3 is already drawn" in raised.value.error_dict["session_count"][0].message
    tournament.refresh_from_db()
    assert (tournament.name, tournament.session_count) == ("Spring Open", 4)


def test_sessions_may_be_cut_down_to_the_last_drawn_one(tournament):
    make_players(tournament, 8)
    services.session_draw(tournament=tournament, number=3, seed=3)
    services.tournament_update(tournament=tournament, session_count=3)
    tournament.refresh_from_db()
    assert tournament.session_count == 3


def test_a_short_name_taken_by_another_tournament_is_refused_on_update(
    tournament, other_tournament
):
    with pytest.raises(ValidationError) as raised:
        services.tournament_update(
            tournament=Tournament.objects.get(pk=tournament.pk), slug=other_tournament.slug
        )
    assert "unique" in codes(raised.value)
    tournament.refresh_from_db()
    assert tournament.slug == "spring-open"


# ---------------------------------------------------------------- deleting


def test_deleting_a_played_tournament_removes_everything_under_it(played):
    before = rows_under(played.pk)
    # The scenario reaches every kind of row, including a substitute in a replaced seat.
    assert all(before.values()), before

    services.tournament_delete(tournament=played, confirm_slug="spring-open")

    assert not Tournament.objects.filter(pk=played.pk).exists()
    assert not any(rows_under(played.pk).values())


def test_deleting_a_drawn_session_with_a_substitute_in_a_replaced_seat(tournament):
    make_players(tournament, 16)
    services.player_save(tournament=tournament, number=17, name="Substitute", is_substitute=True)
    session = services.session_draw(tournament=tournament, number=1, seed=5)
    seat = session.seats.get(player__number=3)
    services.player_withdraw(player=seat.player)
    services.seat_replace(seat=seat, player=tournament.players.get(number=17))
    # Player 3 is held only by the seat they were drawn into and no longer sit in.
    assert not Seat.objects.filter(player__number=3).exists()
    assert Seat.objects.filter(replaces__number=3).exists()

    services.tournament_delete(tournament=tournament, confirm_slug="spring-open")

    assert not any(rows_under(tournament.pk).values())


def test_deleting_a_tournament_without_players_or_sessions(tournament):
    services.tournament_delete(tournament=tournament, confirm_slug="spring-open")
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    "typed",
    ["", "Spring Open", "SPRING-OPEN", "spring-open ", "spring", "autumn-cup"],
)
def test_a_wrong_confirmation_is_refused_beside_the_field_and_deletes_nothing(
    played, other_tournament, typed
):
    before = rows_under(played.pk)
    with pytest.raises(ValidationError) as raised:
        services.tournament_delete(tournament=played, confirm_slug=typed)
    assert set(raised.value.error_dict) == {"confirm_slug"}
    assert codes(raised.value) == {"confirmation_mismatch"}
    assert Tournament.objects.filter(pk=played.pk).exists()
    assert Tournament.objects.filter(pk=other_tournament.pk).exists()
    assert rows_under(played.pk) == before


def test_the_confirmation_is_checked_against_the_short_name_as_saved(tournament):
    stale = Tournament.objects.get(pk=tournament.pk)
    services.tournament_update(tournament=tournament, slug="spring-open-2027")
    with pytest.raises(ValidationError) as raised:
        services.tournament_delete(tournament=stale, confirm_slug="spring-open")
    assert codes(raised.value) == {"confirmation_mismatch"}
    assert Tournament.objects.filter(pk=tournament.pk).exists()

    services.tournament_delete(tournament=stale, confirm_slug="spring-open-2027")
    assert not Tournament.objects.filter(pk=tournament.pk).exists()


def test_deleting_leaves_other_tournaments_and_the_accounts_untouched(
    played, other_tournament, organiser, referee, other_referee
):
    make_players(other_tournament, 8)
    services.session_draw(tournament=other_tournament, number=1, seed=9)
    others = rows_under(other_tournament.pk)
    accounts = User.objects.count()

    services.tournament_delete(tournament=played, confirm_slug="spring-open")

    assert rows_under(other_tournament.pk) == others
    assert list(other_tournament.referees.all()) == [other_referee]
    assert User.objects.count() == accounts
    assert User.objects.filter(pk__in=[organiser.pk, referee.pk]).count() == 2


def test_a_seated_player_still_cannot_be_deleted_on_their_own(played):
    # The tournament goes as a whole; one seated player alone would leave a hole in a draw.
    with pytest.raises(RestrictedError):
        played.players.get(number=1).delete()


def test_the_summary_counts_what_the_deletion_removes_in_one_query(
    played, django_assert_num_queries
):
    with django_assert_num_queries(1):
        summary = tournament_deletion_summary(played)
    assert summary == DeletionSummary(
        players=17,
        sessions=2,
        tables=8,
        hands=64,
        penalties=1,
        corrections=2,
        reopenings=1,
        has_seating_plan=True,
    )

    deleted = services.tournament_delete(tournament=played, confirm_slug="spring-open")

    assert deleted["tournament.Player"] == summary.players
    assert deleted["tournament.Session"] == summary.sessions
    assert deleted["tournament.Table"] == summary.tables
    assert deleted["tournament.Hand"] == summary.hands
    assert deleted["tournament.Penalty"] == summary.penalties
    assert deleted["tournament.HandRevision"] == summary.corrections
    assert deleted["tournament.TableReopening"] == summary.reopenings
    assert deleted["tournament.SeatingPlan"] == 1
    # The draw's commitments, the withdrawn one too.
    assert deleted["tournament.DrawCommitment"] == 2


def test_the_summary_of_an_empty_tournament_is_all_zero(tournament):
    assert tournament_deletion_summary(tournament) == DeletionSummary(
        players=0,
        sessions=0,
        tables=0,
        hands=0,
        penalties=0,
        corrections=0,
        reopenings=0,
        has_seating_plan=False,
    )


def test_organisers_are_replaced_but_never_all_removed(tournament, organiser, referee):
    services.tournament_update(tournament=tournament, organisers=[organiser, referee])
    assert set(tournament.organisers.all()) == {organiser, referee}
    with pytest.raises(ValidationError) as raised:
        services.tournament_update(tournament=tournament, organisers=[], name="Renamed")
    assert codes(raised.value) == {"organiser_required"}
    tournament.refresh_from_db()
    assert tournament.name == "Spring Open"
    assert set(tournament.organisers.all()) == {organiser, referee}


def test_the_appeal_time_is_a_setting_from_zero_to_a_day(organiser, tournament):
    assert tournament.appeal_minutes == 30  # the rules' time, by default
    created = services.tournament_create(
        name="Winter Cup",
        slug="winter-cup",
        session_count=4,
        session_minutes=150,
        appeal_minutes=45,
    )
    assert Tournament.objects.get(pk=created.pk).appeal_minutes == 45
    services.tournament_update(tournament=tournament, appeal_minutes=0)
    assert Tournament.objects.get(pk=tournament.pk).appeal_minutes == 0
    for refused_minutes, code in ((24 * 60 + 1, "max_value"), (-5, "min_value")):
        with pytest.raises(ValidationError) as raised:
            services.tournament_update(tournament=tournament, appeal_minutes=refused_minutes)
        assert set(raised.value.error_dict) == {"appeal_minutes"}
        assert codes(raised.value) == {code}
    assert Tournament.objects.get(pk=tournament.pk).appeal_minutes == 0
    with pytest.raises(ValidationError) as raised:
        services.tournament_create(
            name="Late Cup",
            slug="late-cup",
            session_count=4,
            session_minutes=150,
            appeal_minutes=10_000,
        )
    assert set(raised.value.error_dict) == {"appeal_minutes"}
    assert not Tournament.objects.filter(slug="late-cup").exists()


def test_the_appeal_time_set_is_the_one_appeals_are_held_to(session_in_play, referee):
    import datetime

    from tournament.selectors.desk import appeal_deadline

    tournament = session_in_play.tournament
    services.tournament_update(tournament=tournament, appeal_minutes=5)
    ruling = services.ruling_give(
        table=session_in_play.tables.get(number=1), referee=referee, decision="Warned."
    )
    for table in session_in_play.tables.all():
        services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)
    session_in_play.refresh_from_db()
    deadline = appeal_deadline(session_in_play, 5)
    assert deadline == session_in_play.closed_at + datetime.timedelta(minutes=5)
    late = deadline + datetime.timedelta(seconds=1)
    with pytest.raises(ValidationError) as refused:
        services.appeal_lodge(ruling=ruling, user=referee, grounds="Too late?", now=late)
    assert codes(refused.value) == {"appeal_too_late"}
