"""The public downloads built once per version of their data, by the task queue, off the
request: ``standings.xlsx``, ``ema.xlsx`` and ``ema.csv`` of a tournament, ``series.xlsx``
of a series.

A reader who asks for a version that has no file yet asks for its build
(``export_build_ask``): a row *building*, written with its task in one transaction, so the
task exists exactly when the row does. The database's unique constraints make it a single
flight: of the readers who ask at once, one inserts the row; the others meet the constraint
and wait for that build. A single build runs per file (owner, kind, language) whatever the
version: while it runs, readers of a newer version are served the previous file, and the
next reader after it asks for theirs. A session's hands thus cost at most one build at a
time per file, however many people download, and none while nobody does.

The task (``export_build``) builds the file with the exporters (``exports``: the tournament
in, the bytes out, from the data as it is when it runs, never older than the version asked
for), stores it, and deletes the older files of the same kind. Run twice (a worker killed
mid-build: its task is run again), it builds again only if the first run stored nothing.

A build that fails leaves its error on the row; the next reader after ``RETRY_AFTER`` asks
again. A build whose task ended without ending it (a worker killed ``MAX_RUNS`` times) is
taken for failed by the next reader.

Why a GET asks for a build, when GET never writes: the download's address must work as a
link (a browser, a script, a spreadsheet's web query), and what a build writes is not the
tournament's data but a copy of it in a store of copies, like the page caches that GETs fill
under the same versions. Building on every write instead (each hand saved) would build for
nobody thousands of times a session; a button on a wait page would break every link. So the
exception is this one write: a row of derived data and its task, at most one per version,
never a change anyone sees but the file itself.
"""

import logging
from dataclasses import replace
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone, translation
from django_tasks import task

from tournament.exports import ema, series_workbook, workbook
from tournament.models import ExportFile, Series, Tournament, TournamentVersion
from tournament.selectors.exports import (
    ExportState,
    build_lost,
    export_state,
)

logger = logging.getLogger(__name__)

# A failed build is asked for again by the first reader after this long.
RETRY_AFTER = timedelta(minutes=1)


# What builds each kind of file: the owner in, the file's bytes out.
BUILDERS = {
    "standings.xlsx": workbook.standings_xlsx_bytes,
    "ema.xlsx": ema.ema_xlsx_bytes,
    "ema.csv": lambda tournament: ema.ema_csv_text(tournament).encode("utf-8"),
    "series.xlsx": series_workbook.series_xlsx_bytes,
}


def _owner_fields(owner: Tournament | Series) -> dict:
    if isinstance(owner, Series):
        return {"series": owner}
    return {"tournament": owner}


def export_build_ask(*, state: ExportState) -> ExportState:
    """Ask for the build of the file ``state`` describes (read by ``export_state``) at its
    version, unless one is under way or this version's build failed less than
    ``RETRY_AFTER`` ago. Returns the state as it is after: the build under way (this one,
    or another reader's), or the failed one."""
    if state.building is not None and build_lost(state.building):
        _failed(state.building, "Its task ended without building the file (its worker died).")
        state = _read_again(state)
    if state.building is not None:
        return state
    failed = state.failed
    if failed is not None:
        if failed.finished_at is not None and timezone.now() - failed.finished_at < RETRY_AFTER:
            return state
        started = _retried(failed)
    else:
        started = _started(state)
    if started is None:
        # Another reader asked first (or a build of an older version is under way).
        return _read_again(state)
    return replace(state, building=started, failed=None)


def _read_again(state: ExportState) -> ExportState:
    return export_state(state.owner, state.kind, state.language, state.version)


def _started(state: ExportState) -> ExportFile | None:
    """The row and its task, in one transaction; None if the constraints refuse the row."""
    try:
        with transaction.atomic():
            row = ExportFile.objects.create(
                **_owner_fields(state.owner),
                kind=state.kind,
                language=state.language,
                version=state.version,
                status="building",
                requested_at=timezone.now(),
            )
            row.task_id = str(export_build.enqueue(file_id=row.pk).id)
            row.save(update_fields=["task_id"])
    except IntegrityError:
        return None
    return row


def _retried(failed: ExportFile) -> ExportFile | None:
    """The failed row building again with a new task; None if another reader did it first
    or a build is under way."""
    now = timezone.now()
    try:
        with transaction.atomic():
            taken = ExportFile.objects.filter(
                pk=failed.pk, status="failed", finished_at=failed.finished_at
            ).update(status="building", requested_at=now, finished_at=None, error="")
            if not taken:
                return None
            task_id = str(export_build.enqueue(file_id=failed.pk).id)
            ExportFile.objects.filter(pk=failed.pk).update(task_id=task_id)
    except IntegrityError:
        return None
    failed.status, failed.requested_at, failed.finished_at, failed.error = "building", now, None, ""
    failed.task_id = task_id
    return failed


def _failed(row: ExportFile, error: str) -> None:
    """Mark the build of ``row`` failed, if ``row`` is still that build; the older failures
    of the same file go (a builder that fails at every version leaves one row, not one per
    version)."""
    with transaction.atomic():
        failed = ExportFile.objects.filter(
            pk=row.pk, status="building", task_id=row.task_id
        ).update(status="failed", finished_at=timezone.now(), error=error[:500])
        if failed:
            _same_file(row).filter(status="failed", pk__lt=row.pk).delete()


def _same_file(row: ExportFile):
    """The rows of ``row``'s file: its owner's, kind and language, every version."""
    return ExportFile.objects.filter(
        tournament_id=row.tournament_id,
        series_id=row.series_id,
        kind=row.kind,
        language=row.language,
    )


@task(takes_context=True)
def export_build(context, file_id: int) -> str:
    """The queue's task: build the file of row ``file_id`` and store it, then delete the
    older files of its kind. Returns what became of it."""
    task_id = str(context.task_result.id)
    row = (
        ExportFile.objects.filter(pk=file_id, status="building", task_id=task_id)
        .defer("content")
        .select_related("tournament", "series")
        .first()
    )
    if row is None:
        return "not building"  # built by a first run, or its tournament deleted
    owner = row.tournament or row.series
    try:
        # In the asker's language; a tournament's file on its own clock (a series' on the
        # site's: its tournaments may have several).
        zone = row.tournament.zone if row.tournament_id else None
        with translation.override(row.language or settings.LANGUAGE_CODE), timezone.override(zone):
            content = BUILDERS[row.kind](owner)
    except Exception as error:
        logger.exception("The %s of %s could not be built", row.kind, owner)
        _failed(row, f"{type(error).__name__}: {error}")
        return "failed"
    with transaction.atomic():
        built = ExportFile.objects.filter(pk=row.pk, status="building", task_id=task_id).update(
            status="ready", content=content, size=len(content), finished_at=timezone.now()
        )
        if built:
            # The files it replaces: older ones of the same kind, ready or failed.
            _same_file(row).filter(pk__lt=row.pk).exclude(status="building").delete()
            if row.tournament_id:
                # The pages kept under the tournament's versions say which downloads are
                # behind: kept under this count too.
                TournamentVersion.objects.filter(tournament_id=row.tournament_id).update(
                    exports=F("exports") + 1
                )
    return "ready" if built else "not building"
