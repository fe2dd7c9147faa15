"""Player imports: the rows applied in bulk by the rules of a player saved alone, and the
import as a job of the task queue (one at a time, all or nothing, safe to run twice)."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import QuerySet
from django.utils import translation
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tests.conftest import make_players, make_tournament, make_user
from tests.services.errors import codes
from tournament import services
from tournament.models import PLAYER_FIELDS, Person, Player, PlayerImport
from tournament.players.player_import import import_preview, state_fingerprint, stored_players
from tournament.selectors.player_imports import player_import_latest
from tournament.server.task_worker import tasks_run_ready
from tournament.services import player_imports
from tournament.services.player_imports import player_import_run

STALE = "The players changed since this preview; upload the file again."


def fingerprint(tournament, rows):
    return state_fingerprint(stored_players(tournament), rows)


def registered(tournament):
    return list(tournament.players.values_list(*PLAYER_FIELDS, "country_unrecognised"))


def start(tournament, rows, *, user=None, fingerprint_of=None):
    return services.player_import_start(
        tournament=tournament,
        user=user,
        rows=rows,
        fingerprint=fingerprint_of or fingerprint(tournament, rows),
    )


def job_of(job) -> PlayerImport:
    return PlayerImport.objects.get(pk=job.pk)


@pytest.fixture
def ann_and_bo(tournament):
    services.player_save(tournament=tournament, number=1, name="Ann", team="Lyon")
    services.player_save(tournament=tournament, number=2, name="Bo")
    return tournament


ROWS = [
    {"number": 1, "name": "Ann", "team": "Lyon"},  # as stored
    {"number": 2, "name": "Bob"},  # renamed
    {"number": 3, "name": "Cleo", "country": "CHN", "ema_number": "04010005"},  # new
]


# ---------------------------------------------------------------- players_import


def test_import_creates_updates_and_counts_the_unchanged(ann_and_bo):
    outcome = services.players_import(
        tournament=ann_and_bo, rows=ROWS, fingerprint=fingerprint(ann_and_bo, ROWS)
    )
    assert outcome == services.ImportOutcome(created=1, updated=1, unchanged=1)
    assert list(ann_and_bo.players.values_list("number", "name", "team", "country")) == [
        (1, "Ann", "Lyon", ""),
        (2, "Bob", "", ""),
        (3, "Cleo", "", "CHN"),
    ]


def test_import_applies_the_preview_of_a_file(ann_and_bo):
    content = b"number,name,team\n1,Ann,Lyon\n2,Bob,\n3,Cleo,Paris\n"
    preview = import_preview(ann_and_bo, filename="players.csv", content=content)
    outcome = services.players_import(
        tournament=ann_and_bo, rows=preview.rows_to_import, fingerprint=preview.fingerprint
    )
    assert (outcome.created, outcome.updated, outcome.unchanged) == (1, 1, 1)
    assert ann_and_bo.players.get(number=3).team == "Paris"


def test_importing_the_same_rows_again_changes_nothing(ann_and_bo):
    services.players_import(
        tournament=ann_and_bo, rows=ROWS, fingerprint=fingerprint(ann_and_bo, ROWS)
    )
    before = registered(ann_and_bo)
    outcome = services.players_import(
        tournament=ann_and_bo, rows=ROWS, fingerprint=fingerprint(ann_and_bo, ROWS)
    )
    assert outcome == services.ImportOutcome(created=0, updated=0, unchanged=3)
    assert registered(ann_and_bo) == before


def test_import_keeps_the_fields_a_row_does_not_set(ann_and_bo):
    rows = [{"number": 1, "name": "Annie"}]
    services.players_import(
        tournament=ann_and_bo, rows=rows, fingerprint=fingerprint(ann_and_bo, rows)
    )
    assert ann_and_bo.players.get(number=1).team == "Lyon"


def test_an_edit_after_the_preview_makes_the_import_stale_and_nothing_is_written(ann_and_bo):
    previewed = fingerprint(ann_and_bo, ROWS)
    services.player_save(tournament=ann_and_bo, player=ann_and_bo.players.get(number=2), name="Bo!")
    before = registered(ann_and_bo)
    with pytest.raises(ValidationError) as raised:
        services.players_import(tournament=ann_and_bo, rows=ROWS, fingerprint=previewed)
    assert codes(raised.value) == {"preview_stale"}
    assert registered(ann_and_bo) == before


def test_an_invalid_row_rolls_back_the_whole_import(ann_and_bo):
    rows = [*ROWS, {"number": 4, "name": ""}]
    before = registered(ann_and_bo)
    with pytest.raises(ValidationError) as raised:
        services.players_import(
            tournament=ann_and_bo, rows=rows, fingerprint=fingerprint(ann_and_bo, rows)
        )
    assert "name" in raised.value.error_dict
    # Player 3 was created and player 2 renamed before row 4 failed: both undone.
    assert registered(ann_and_bo) == before


def test_an_import_stores_codes_and_splits_names(ann_and_bo):
    content = (
        b"number,name,first_name,last_name,country,ema_number\n"
        b"2,,Bo,LI,china,05000012\n"
        b"3,Cleo Durand,,,fr,\n"
    )
    preview = import_preview(ann_and_bo, filename="players.csv", content=content)
    assert not preview.has_errors
    services.players_import(
        tournament=ann_and_bo, rows=preview.rows_to_import, fingerprint=preview.fingerprint
    )
    assert list(
        ann_and_bo.players.filter(number__gte=2).values_list(
            "number", "name", "first_name", "last_name", "country", "ema_number"
        )
    ) == [
        (2, "Bo", "Bo", "LI", "CHN", "05000012"),
        (3, "Cleo Durand", "Cleo", "Durand", "FRA", ""),
    ]


# ---------------------------------------------------------------- the same rules, in bulk


def one_by_one(tournament, rows):
    """The import as it was before it was made in bulk: each row saved by ``player_save``."""
    existing = {player.number: player for player in tournament.players.all()}
    for row in rows:
        player = existing.get(row["number"])
        if player is None:
            services.player_save(tournament=tournament, **row)
        elif any(getattr(player, key) != value for key, value in row.items()):
            services.player_save(tournament=tournament, player=player, **row)


def everyone(tournament):
    """The tournament's players, each with their person's values, and every person."""
    people = sorted(Person.objects.values_list("name", "name_zh", "country", "ema_number"))
    players = [
        (
            *(getattr(player, name) for name in (*PLAYER_FIELDS, "country_unrecognised")),
            player.person and (player.person.name, player.person.ema_number),
        )
        for player in tournament.players.select_related("person").order_by("number")
    ]
    return players, people


def outcome_of(tournament, write):
    """What ``write`` stores, or the codes of its refusal; undone afterwards."""
    with transaction.atomic():
        try:
            write()
        except ValidationError as error:
            result = ("refused", codes(error))
        else:
            result = everyone(tournament)
        transaction.set_rollback(True)
    return result


def elsewhere(tournament, *, ema_number, name="Elsewhere"):
    """A person of that EMA number, made by a player of another tournament."""
    other = make_tournament(creator=make_user(f"owner-{ema_number}"), slug=f"other-{ema_number}")
    return services.player_save(tournament=other, number=1, name=name, ema_number=ema_number).person


def by_hand(tournament, number, person=None):
    """Player ``number`` linked to ``person`` by the organiser (a new person without one)."""
    if person is None:
        services.person_create_for(tournament=tournament, numbers=[number])
    else:
        services.people_link(tournament=tournament, links=[(number, person.pk)])


def setup_new_numbers(t):
    elsewhere(t, ema_number="22000031", name="Dee Elsewhere")
    return [
        {"number": 3, "name": "Cleo", "ema_number": "04010005", "country": "FRA"},
        {"number": 4, "name": "Dee", "ema_number": "22000031"},  # a person already
        {"number": 5, "name": "Eve"},
    ]


def setup_numbers_given_later(t):
    by_hand(t, 1)  # a person without a number: takes the number
    services.player_save(tournament=t, number=3, name="Cy", ema_number="11111111")
    return [
        {"number": 1, "name": "Ann", "ema_number": "33333333"},
        {"number": 3, "name": "Cy Corrected", "ema_number": "11111112"},  # the number corrected
    ]


def setup_renamed(t):
    services.player_save(tournament=t, number=3, name="Cy", ema_number="11111111")
    elsewhere_person = elsewhere(t, ema_number="44444444", name="Di")
    services.player_save(tournament=t, number=4, name="Di", ema_number="44444444")
    assert elsewhere_person.players.count() == 2
    return [
        {"number": 3, "name": "Cyrus", "country": "GER"},  # their person alone: follows
        {"number": 4, "name": "Diana"},  # a person who plays elsewhere too: stays
    ]


def setup_number_passed_on(t):
    services.player_save(
        tournament=t, number=1, player=t.players.get(number=1), ema_number="55555555"
    )
    return [
        {"number": 1, "name": "Ann", "ema_number": "66666666"},
        {"number": 2, "name": "Bo", "ema_number": "55555555"},  # Ann's until the row above
    ]


def setup_number_passed_back(t):
    services.player_save(
        tournament=t, number=1, player=t.players.get(number=1), ema_number="55555555"
    )
    return [
        {"number": 2, "name": "Bo", "ema_number": "55555555"},  # still Ann's: refused
        {"number": 1, "name": "Ann", "ema_number": "66666666"},
    ]


def setup_person_playing_as_another(t):
    person = elsewhere(t, ema_number="77777777", name="Ray")
    services.player_save(tournament=t, number=5, name="Ray")
    by_hand(t, 5, person)
    return [{"number": 6, "name": "Ray Again", "ema_number": "77777777"}]


def setup_two_rows_one_number(t):
    return [
        {"number": 3, "name": "Cy", "ema_number": "88888888"},
        {"number": 4, "name": "Di", "ema_number": "88888888"},
    ]


def setup_bad_row(t):
    return [{"number": 3, "name": "Cy"}, {"number": 4, "name": "", "first_name": ""}]


def setup_country_given(t):
    Player.objects.filter(tournament=t, number=2).update(country_unrecognised="Atlantis")
    return [{"number": 2, "name": "Bo", "country": "ATL"}, {"number": 1, "name": "Ann B"}]


@pytest.mark.parametrize(
    "setup",
    [
        setup_new_numbers,
        setup_numbers_given_later,
        setup_renamed,
        setup_number_passed_on,
        setup_number_passed_back,
        setup_person_playing_as_another,
        setup_two_rows_one_number,
        setup_bad_row,
        setup_country_given,
    ],
)
def test_the_bulk_import_stores_what_saving_each_row_alone_stores(ann_and_bo, setup):
    rows = setup(ann_and_bo)

    expected = outcome_of(ann_and_bo, lambda: one_by_one(ann_and_bo, rows))
    stored = outcome_of(
        ann_and_bo,
        lambda: services.players_import(
            tournament=ann_and_bo, rows=rows, fingerprint=fingerprint(ann_and_bo, rows)
        ),
    )

    assert stored == expected


def test_each_player_and_person_written_keeps_its_history_naming_who(ann_and_bo, organiser):
    from tournament.history.audit import acting

    elsewhere(ann_and_bo, ema_number="22000031")
    rows = [{"number": 2, "name": "Bob", "ema_number": "22000031"}, *ROWS[2:]]
    with acting(user=organiser):
        services.players_import(
            tournament=ann_and_bo, rows=rows, fingerprint=fingerprint(ann_and_bo, rows)
        )
    bob = Player.history.filter(number=2, history_type="~").latest("history_id")
    cleo = Player.history.get(number=3)
    made = Person.history.get(ema_number="04010005")
    assert (bob.name, bob.ema_number, bob.history_user) == ("Bob", "22000031", organiser)
    assert bob.person_id == Person.objects.get(ema_number="22000031").pk
    assert (cleo.history_type, cleo.person_id, cleo.history_user) == (
        "+",
        made.id,
        organiser,
    )
    assert (made.history_type, made.name, made.history_user) == ("+", "Cleo", organiser)


def test_the_import_writes_many_rows_a_statement(ann_and_bo):
    from django.test.utils import CaptureQueriesContext

    def queries(count, start):
        rows = [
            {"number": n, "name": f"P{n}", "ema_number": f"{n:08d}"}
            for n in range(start, start + count)
        ]
        with CaptureQueriesContext(connection) as captured:
            services.players_import(
                tournament=ann_and_bo, rows=rows, fingerprint=fingerprint(ann_and_bo, rows)
            )
        return len(captured)

    # Players and people inserted many to a statement, with their history (up to 500; on
    # SQLite, 999 values a statement), updated in one statement sent with each row's values.
    assert queries(400, 100) < 40


# ---------------------------------------------------------------- the job


def test_starting_an_import_stores_the_job_and_its_task_and_touches_no_player(
    ann_and_bo, organiser
):
    before = registered(ann_and_bo)

    job = start(ann_and_bo, ROWS, user=organiser)

    job = job_of(job)
    assert (job.status, job.rows_total, job.rows_done, job.started_by) == (
        "queued",
        3,
        0,
        organiser,
    )
    assert job.rows == ROWS
    task = DBTaskResult.objects.get(pk=job.task_id)
    assert task.status == TaskResultStatus.READY
    assert task.args_kwargs["kwargs"] == {"job_id": job.pk}
    assert registered(ann_and_bo) == before


def test_the_task_imports_the_rows_and_the_job_says_what_it_did(ann_and_bo, organiser, run_tasks):
    with run_tasks():
        job = start(ann_and_bo, ROWS, user=organiser)

    job = job_of(job)
    assert (job.status, job.rows_done, job.error) == ("done", 3, "")
    assert (job.players_created, job.players_updated, job.players_unchanged) == (1, 1, 1)
    assert job.rows == []  # not kept once imported
    assert job.started_at <= job.finished_at
    assert list(ann_and_bo.players.values_list("number", "name", "country", "ema_number")) == [
        (1, "Ann", "", ""),
        (2, "Bob", "", ""),
        (3, "Cleo", "CHN", "04010005"),
    ]
    # Each change names the organiser who confirmed it, as their own saves do.
    assert Player.history.get(number=3).history_user == organiser
    assert DBTaskResult.objects.get(pk=job.task_id).status == TaskResultStatus.SUCCESSFUL


def test_progress_is_committed_as_the_rows_are_checked_before_anything_is_written(
    transactional_db, monkeypatch
):
    tournament = make_tournament(creator=make_user("organiser"))
    rows = [{"number": n, "name": f"Player {n}"} for n in range(1, 11)]
    monkeypatch.setattr(player_imports, "PROGRESS_EVERY", 4)
    seen = []
    real_update = QuerySet.update

    def update(queryset, **values):
        if queryset.model is PlayerImport and set(values) == {"rows_done"}:
            # Outside any transaction: committed at once, seen by the page's requests.
            seen.append((values["rows_done"], connection.in_atomic_block, Player.objects.count()))
        return real_update(queryset, **values)

    monkeypatch.setattr(QuerySet, "update", update)
    start(tournament, rows)
    tasks_run_ready()

    # Twice over the rows? No: the check pass reports, the write's pass does not.
    assert seen == [(4, False, 0), (8, False, 0), (10, False, 0)]
    assert PlayerImport.objects.get().status == "done"
    assert tournament.players.count() == 10


def test_one_import_at_a_time_in_a_tournament(ann_and_bo, other_tournament, run_tasks):
    first = start(ann_and_bo, ROWS)

    with pytest.raises(ValidationError) as raised:
        start(ann_and_bo, ROWS[:1])
    assert codes(raised.value) == {"import_under_way"}
    assert "Another import of players is under way" in raised.value.messages[0]
    # Another tournament imports meanwhile.
    start(other_tournament, [{"number": 1, "name": "Zoe"}])

    tasks_run_ready()
    assert job_of(first).status == "done"
    with run_tasks():
        again = start(ann_and_bo, [{"number": 4, "name": "Dee"}])
    assert job_of(again).status == "done"
    assert PlayerImport.objects.filter(tournament=ann_and_bo).count() == 2


def test_the_database_holds_one_import_at_a_time(ann_and_bo):
    PlayerImport.objects.create(tournament=ann_and_bo, fingerprint="x", status="running")
    PlayerImport.objects.create(tournament=ann_and_bo, fingerprint="x", status="done")
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerImport.objects.create(tournament=ann_and_bo, fingerprint="x", status="queued")


def test_players_changed_since_the_preview_fail_the_job_and_nothing_is_written(
    ann_and_bo, run_tasks
):
    previewed = fingerprint(ann_and_bo, ROWS)
    with run_tasks():
        job = start(ann_and_bo, ROWS, fingerprint_of=previewed)
        services.player_save(
            tournament=ann_and_bo, player=ann_and_bo.players.get(number=2), name="Bo!"
        )
    before = registered(ann_and_bo), Person.objects.count(), Player.history.count()

    job = job_of(job)
    assert (job.status, job.error, job.rows) == ("failed", STALE, [])
    assert (registered(ann_and_bo), Person.objects.count(), Player.history.count()) == before


def test_a_row_the_rules_refuse_fails_the_job_naming_its_player_and_nothing_is_written(
    ann_and_bo, run_tasks
):
    rows = [{"number": 4, "name": "Dee"}, {"number": 3, "name": "Cy", "ema_number": "04010005"}]
    with run_tasks():
        job = start(ann_and_bo, rows)
        # Player 1 is not in the file: the preview's fingerprint does not see them.
        services.player_save(
            tournament=ann_and_bo, player=ann_and_bo.players.get(number=1), ema_number="04010005"
        )
    assert job_of(job).status == "failed"
    assert job_of(job).error == ("Player 3: EMA number 04010005 is already given to player 1 Ann.")
    assert list(ann_and_bo.players.values_list("number", flat=True)) == [1, 2]


def test_a_refusal_is_written_in_the_language_of_the_organiser_who_confirmed(ann_and_bo, run_tasks):
    previewed = fingerprint(ann_and_bo, ROWS)
    services.player_save(tournament=ann_and_bo, player=ann_and_bo.players.get(number=2), name="B")
    with run_tasks(), translation.override("zh-hans"):
        job = start(ann_and_bo, ROWS, fingerprint_of=previewed)
    with translation.override("zh-hans"):
        assert job_of(job).error == translation.gettext(STALE) != STALE


def test_running_the_task_again_after_the_import_changes_nothing(ann_and_bo, run_tasks):
    with run_tasks():
        job = start(ann_and_bo, ROWS)
    after = registered(ann_and_bo), Person.objects.count(), Player.history.count()

    # A worker killed after the import committed, before the queue marked its task done:
    # the task runs again.
    assert player_import_run.call(job_id=job.pk) == "ended before"

    assert (registered(ann_and_bo), Person.objects.count(), Player.history.count()) == after
    assert job_of(job).players_created == 1


def test_a_worker_killed_while_checking_leaves_the_job_to_be_run_again_from_its_start(
    ann_and_bo,
):
    job = start(ann_and_bo, ROWS)
    # As a worker killed in the check pass leaves it; the queue then runs the task again.
    PlayerImport.objects.filter(pk=job.pk).update(status="running", rows_done=2)

    assert player_import_run.call(job_id=job.pk) == "done"
    assert (job_of(job).status, job_of(job).players_created) == ("done", 1)
    assert ann_and_bo.players.count() == 3


def test_a_worker_killed_while_writing_writes_nothing_and_the_next_run_imports_once(
    ann_and_bo, monkeypatch
):
    job = start(ann_and_bo, ROWS)
    before = registered(ann_and_bo), Person.objects.count()
    real_written = player_imports._written

    def killed(*args):
        real_written(*args)
        raise KeyboardInterrupt  # the worker's process stopped under the write

    monkeypatch.setattr(player_imports, "_written", killed)
    with pytest.raises(KeyboardInterrupt):
        player_import_run.call(job_id=job.pk)
    assert (registered(ann_and_bo), Person.objects.count()) == before
    assert job_of(job).status == "running"

    monkeypatch.setattr(player_imports, "_written", real_written)
    assert player_import_run.call(job_id=job.pk) == "done"
    assert ann_and_bo.players.count() == 3
    assert Player.history.filter(number=3).count() == 1


def test_an_unexpected_error_fails_the_job_and_the_task_with_it(ann_and_bo, monkeypatch):
    def broken(*args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(player_imports, "_written", broken)
    job = start(ann_and_bo, ROWS)
    tasks_run_ready()

    job = job_of(job)
    assert job.status == "failed"
    assert "An unexpected error stopped the import: nothing was imported." in job.error
    assert DBTaskResult.objects.get(pk=job.task_id).status == TaskResultStatus.FAILED
    assert ann_and_bo.players.count() == 2


def test_a_task_the_queue_gave_up_on_ends_its_import_and_frees_the_tournament(ann_and_bo):
    job = start(ann_and_bo, ROWS)
    PlayerImport.objects.filter(pk=job.pk).update(status="running")
    # Its worker died too often (server.task_worker.MAX_RUNS): the queue failed the task.
    DBTaskResult.objects.filter(pk=job.task_id).update(status=TaskResultStatus.FAILED)

    shown = player_import_latest(ann_and_bo)
    assert (shown.status, shown.active) == ("failed", False)
    assert "stopped during the import" in shown.error
    assert job_of(job).status == "running"  # a read writes nothing

    start(ann_and_bo, ROWS[:1])
    assert job_of(job).status == "failed"
    assert "stopped during the import" in job_of(job).error


def test_a_job_ended_before_its_task_runs_is_left_as_it_is(ann_and_bo):
    job = start(ann_and_bo, ROWS)
    PlayerImport.objects.filter(pk=job.pk).update(status="failed", error="given up")
    tasks_run_ready()
    assert (job_of(job).status, job_of(job).error) == ("failed", "given up")
    assert ann_and_bo.players.count() == 2


def test_an_import_of_many_players_is_one_job_done_in_seconds(tournament, run_tasks):
    make_players(tournament, 3)
    rows = [
        {"number": n, "name": f"Player {n}", "ema_number": f"{n:08d}" if n % 2 else ""}
        for n in range(1, 1001)
    ]
    with run_tasks():
        job = start(tournament, rows)
    job = job_of(job)
    assert (job.players_created, job.players_updated, job.players_unchanged) == (997, 2, 1)
    assert Person.objects.count() == 500
    assert tournament.players.filter(person__isnull=False).count() == 500
