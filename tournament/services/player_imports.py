"""A player list imported: the rows of a confirmed preview applied, all or nothing.

The organiser's confirmation does not import: it stores the job (``PlayerImport``) and its
task in one transaction (``player_import_start``) and the page follows the job while a task
worker runs it (``player_import_run``). One import at a time in a tournament, which the
database holds to. ``players_import`` applies rows at once, in the caller's process (the
``import_players`` command, the tests).

Every row goes through the rules of a player saved alone (``players.player_fields_set``,
``people.person_follow_player``), in memory and in the order of the file: a row sees the
rows before it as stored. The players and people are then written in bulk, with their
history, in one transaction: five thousand rows take seconds, not minutes.

How the page sees the progress while the import runs: it cannot be written inside the
import's transaction, which nobody else sees before it commits, nor beside it: on SQLite
(the default) a second writer waits for the first, and the cache may be each process's
own. So the worker goes through the rows twice. First a check pass outside any
transaction, which reads the players, runs every rule on every row and commits
``rows_done`` every ``PROGRESS_EVERY`` rows; a row refused ends the job there, having
written nothing. Then the write: one transaction, which reads the players again under its
lock, checks the preview's fingerprint, runs the same rules again (fast, in memory: the
players may have changed since the check pass) and stores everything; the job is marked
done in that same transaction. On SQLite that transaction holds the one write lock the
referees' tablets also wait for: it lasts the in-memory pass and the bulk writes only
(5,000 new players: 0.8 s and 2 s; the check pass before it 0.8 s). Keeping the check
pass's result instead of running the rules again would need proof that nothing it read
has changed since, the people of other tournaments included.

Run twice (a worker killed mid-import, the task run again), a job is imported once: killed
before the write committed, nothing was written and the job is done again from its start;
after, the job is marked done and the second run does nothing.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks import task

from tournament.history import audit
from tournament.models import PLAYER_FIELDS, PLAYER_IMPORT_ACTIVE, Player, PlayerImport, Tournament
from tournament.players.player_import import state_fingerprint
from tournament.selectors.player_imports import import_abandoned_message, import_task_ended
from tournament.services.bulk import created_with_history, updated_with_history
from tournament.services.people import PeopleInBulk, person_follow_player
from tournament.services.players import NumbersTaken, player_fields_set
from tournament.services.results import tournament_touch

logger = logging.getLogger(__name__)

# The check pass commits its progress after this many rows.
PROGRESS_EVERY = 250
# What an import writes of a player it changes: every field a file may set but the number
# (which finds the player), and what the rules set with them.
STORED_FIELDS = [name for name in PLAYER_FIELDS if name != "number"] + [
    "country_unrecognised",
    "person",
]


@dataclass(frozen=True)
class ImportOutcome:
    created: int
    updated: int
    unchanged: int


class ImportRowRefused(ValidationError):
    """A row the rules refuse, with the number of its player."""

    def __init__(self, error: ValidationError, *, number: int):
        super().__init__(error)
        self.number = number


@dataclass
class _Plan:
    """The rows applied in memory: the players to create and to change, the people with them."""

    people: PeopleInBulk
    created: dict[int, Player] = field(default_factory=dict)
    updated: dict[int, Player] = field(default_factory=dict)
    unchanged: int = 0
    # Players whose EMA number or person the import changes: cleared first (``_written``).
    releasing: set[int] = field(default_factory=set)

    @property
    def outcome(self) -> ImportOutcome:
        return ImportOutcome(
            created=len(self.created), updated=len(self.updated), unchanged=self.unchanged
        )


def _stale() -> ValidationError:
    return ValidationError(
        _("The players changed since this preview; upload the file again."),
        code="preview_stale",
    )


def _planned(
    tournament: Tournament,
    rows: list[dict],
    fingerprint: str,
    *,
    players: list[Player],
    progress: Callable[[int], None] | None = None,
) -> _Plan:
    """Apply ``rows`` in memory to ``players`` (the tournament's, as stored), by the rules of
    a player saved alone; raises ``ValidationError`` for a stale preview, ``ImportRowRefused``
    for a row the rules refuse. Reads the people in a few queries, writes nothing."""
    stored = {
        player.number: {name: getattr(player, name) for name in PLAYER_FIELDS} for player in players
    }
    if state_fingerprint(stored, rows) != fingerprint:
        raise _stale()
    by_number = {player.number: player for player in players}
    by_ema = {player.ema_number: player for player in players if player.ema_number}
    before = {player.pk: (player.ema_number, player.person_id) for player in players}
    taken = NumbersTaken(
        number=lambda number, player: _other(by_number.get(number), player),
        ema_number=lambda ema_number, player: _other(by_ema.get(ema_number), player),
    )
    people = PeopleInBulk(tournament_id=tournament.pk)
    touched = [by_number[row["number"]] for row in rows if row["number"] in by_number]
    people.preload(
        person_ids={player.person_id for player in touched},
        ema_numbers={str(row.get("ema_number") or "") for row in rows}
        | {player.ema_number for player in touched},
    )
    plan = _Plan(people=people)
    for index, row in enumerate(rows, start=1):
        number = row["number"]
        player = by_number.get(number)
        if player is not None and all(getattr(player, key) == value for key, value in row.items()):
            plan.unchanged += 1
        else:
            player = player or Player(tournament=tournament)
            ema_before = player.ema_number
            try:
                player_fields_set(player=player, fields=row, taken=taken, database_checks=False)
            except ValidationError as error:
                raise ImportRowRefused(error, number=number) from error
            if by_ema.get(ema_before) is player:
                del by_ema[ema_before]
            if player.ema_number:
                by_ema[player.ema_number] = player
            by_number[number] = player
            person_follow_player(player, people)
            if player.pk is None:
                plan.created[number] = player
            else:
                plan.updated[number] = player
                person = people.person_of(player)
                # A person made by the import has no key yet: a change all the same.
                person_key = person.pk if person is not None else None
                if (player.ema_number, person_key) != before[player.pk] or (
                    person is not None and person_key is None
                ):
                    plan.releasing.add(player.pk)
        if progress is not None and (index % PROGRESS_EVERY == 0 or index == len(rows)):
            progress(index)
    return plan


def _other(holder: Player | None, player: Player) -> Player | None:
    return None if holder is None or holder is player else holder


def _written(tournament: Tournament, plan: _Plan) -> None:
    """Store what ``plan`` applied, with its history: the people, then the players."""
    plan.people.write()
    if plan.releasing:
        # An EMA number or a person may pass from one player to another within the import:
        # they are cleared first, so that no statement ever gives one to two players.
        Player.objects.filter(pk__in=plan.releasing).update(ema_number="", person=None)
    updated_with_history(Player, list(plan.updated.values()), STORED_FIELDS)
    created_with_history(Player, list(plan.created.values()))
    tournament_touch(tournament.pk)


def _locked_players(tournament: Tournament) -> list[Player]:
    # The players' rows only: their model's order joins the tournament's row.
    return list(tournament.players.select_for_update(of=("self",)))


@transaction.atomic
def players_import(*, tournament: Tournament, rows: list[dict], fingerprint: str) -> ImportOutcome:
    """Create or update players by number, as the preview of an import file showed, at once.

    ``fingerprint`` is the preview's digest of the stored players the rows touch
    (``player_import.state_fingerprint``): if any of them changed since the preview, the
    import is refused and writes nothing, so an edit made in between is never overwritten.
    A row equal to the stored player changes nothing; a row the rules refuse
    (``ImportRowRefused``) refuses the whole import.
    """
    plan = _planned(tournament, rows, fingerprint, players=_locked_players(tournament))
    _written(tournament, plan)
    return plan.outcome


# ------------------------------------------------------------------------ the job


def _import_under_way() -> ValidationError:
    return ValidationError(
        _(
            "Another import of players is under way in this tournament: wait until it ends "
            "(below), then upload your file again to see what it would change."
        ),
        code="import_under_way",
    )


@transaction.atomic
def player_import_start(
    *, tournament: Tournament, user, rows: list[dict], fingerprint: str
) -> PlayerImport:
    """Store the import of ``rows`` (a confirmed preview and its fingerprint) and queue its
    task, in one transaction; refused while another import of the tournament is queued or
    running. Reads no player: the task checks the fingerprint. The job keeps the language
    active now (the organiser's), in which the task writes why an import failed."""
    # The tournament first, as the other services of its players lock it.
    list(Tournament.objects.select_for_update().filter(pk=tournament.pk).values("pk"))
    for job in PlayerImport.objects.filter(tournament=tournament, status__in=PLAYER_IMPORT_ACTIVE):
        if import_task_ended(job):
            _failed(job.pk, import_abandoned_message())
        else:
            raise _import_under_way()
    try:
        # A savepoint: an import started at the same instant by another request (PostgreSQL)
        # is refused by the constraint, cleanly.
        with transaction.atomic():
            job = PlayerImport.objects.create(
                tournament=tournament,
                started_by=user,
                rows=rows,
                fingerprint=fingerprint,
                rows_total=len(rows),
                language=translation.get_language() or "",
            )
    except IntegrityError as error:
        raise _import_under_way() from error
    # A row of this database, committed with the job: a worker sees both or neither.
    job.task_id = str(player_import_run.enqueue(job_id=job.pk).id)
    job.save(update_fields=["task_id"])
    return job


def _failed(job_id: int, message: str) -> None:
    PlayerImport.objects.filter(pk=job_id, status__in=PLAYER_IMPORT_ACTIVE).update(
        status="failed", error=message, rows=[], finished_at=timezone.now()
    )


def refusal_message(error: ValidationError) -> str:
    """What a refused import says, in one line: a row's refusal names its player."""
    message = " ".join(error.messages)
    if isinstance(error, ImportRowRefused):
        return _("Player %(number)s: %(message)s") % {"number": error.number, "message": message}
    return message


@task()
def player_import_run(job_id: int) -> str:
    """The queue's task: run the import ``job_id`` (see the module's docstring); returns the
    status it ended with. Safe to run again: a job that ended is left as it is."""
    job = (
        PlayerImport.objects.filter(pk=job_id, status__in=PLAYER_IMPORT_ACTIVE)
        .select_related("tournament", "started_by")
        .first()
    )
    if job is None:
        return "ended before"  # done, failed, or gone with its tournament
    PlayerImport.objects.filter(pk=job.pk).update(
        status="running", started_at=timezone.now(), rows_done=0
    )
    tournament = job.tournament

    def progress(done: int) -> None:
        PlayerImport.objects.filter(pk=job.pk, status="running").update(rows_done=done)

    try:
        # The history names the organiser who confirmed, as their own saves do; a refusal
        # is written in the language they confirmed in.
        with audit.acting(user=job.started_by), translation.override(job.language or None):
            _planned(
                tournament,
                job.rows,
                job.fingerprint,
                players=list(tournament.players.all()),
                progress=progress,
            )
            with transaction.atomic():
                still = PlayerImport.objects.filter(pk=job.pk, status="running")
                if not still.select_for_update().values_list("pk", flat=True):
                    return "ended before"  # another run of the task finished it meanwhile
                plan = _planned(
                    tournament, job.rows, job.fingerprint, players=_locked_players(tournament)
                )
                _written(tournament, plan)
                outcome = plan.outcome
                still.update(
                    status="done",
                    rows_done=job.rows_total,
                    players_created=outcome.created,
                    players_updated=outcome.updated,
                    players_unchanged=outcome.unchanged,
                    rows=[],
                    finished_at=timezone.now(),
                )
    except ValidationError as error:
        with translation.override(job.language or None):
            _failed(job.pk, refusal_message(error))
        return "failed"
    except Exception:
        logger.exception("The import %s of tournament %s failed", job.pk, tournament.slug)
        with translation.override(job.language or None):
            _failed(
                job.pk,
                _(
                    "An unexpected error stopped the import: nothing was imported. The task "
                    "worker's log has the details."
                ),
            )
        raise
    return "done"
