"""The public downloads as they are stored (``ExportFile``, built by ``services.exports``):
the version a reader asks for, the file they are served, how a build under way is getting
on, and what the pages that link the downloads say of them."""

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.utils.translation import get_language
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tournament.models import ExportFile, Series, Tournament
from tournament.selectors.lookups import data_version
from tournament.selectors.series import series_versions
from tournament.selectors.tasks import queue_state

# The files whose words are in the reader's language: one file per language. The EMA's are
# in English for everyone (``exports.ema``).
TRANSLATED_KINDS = frozenset({"standings.xlsx", "series.xlsx"})
# At most this many rows of one file are read: the latest ready one, the build under way and
# a failed one are all there normally are (older ones go when a newer one is ready).
_ROWS_READ = 10


def export_language(kind: str) -> str:
    """The language of the file of ``kind`` for this reader ("" when it has one for all)."""
    return get_language() if kind in TRANSLATED_KINDS else ""


def export_version(owner: Tournament | Series, *, as_read: bool = False) -> str:
    """The version of the data a file of ``owner`` is built from: the tournament's data
    version (``lookups.data_version``: as stored now, or as read with it), or the
    series' version with each of its tournaments' (``series_versions``), digested: it
    grows with the tournaments."""
    if isinstance(owner, Series):
        versions, _tournaments = series_versions(owner)
        return hashlib.sha256(versions.encode()).hexdigest()[:32]
    return str(data_version(owner, as_read=as_read))


def owned_by(owner: Tournament | Series) -> Q:
    if isinstance(owner, Series):
        return Q(series_id=owner.pk)
    return Q(tournament_id=owner.pk)


@dataclass(frozen=True)
class ExportState:
    """A file as stored when a reader asks for it at ``version``. The rows hold no content
    (``export_content`` reads it)."""

    owner: Tournament | Series
    kind: str
    language: str
    version: str
    current: ExportFile | None  # ready, built at this version
    previous: ExportFile | None  # the latest ready one of another (older) version
    building: ExportFile | None  # the build under way, of this version or an older one
    failed: ExportFile | None  # this version's build, failed

    @property
    def served(self) -> ExportFile | None:
        """The file this reader gets: this version's, else the previous one."""
        return self.current or self.previous


def export_state(owner: Tournament | Series, kind: str, language: str, version: str) -> ExportState:
    """One query: the rows of ``owner``'s file of ``kind`` in ``language``, newest first,
    without their content."""
    rows = list(
        ExportFile.objects.filter(owned_by(owner), kind=kind, language=language)
        .defer("content")
        .order_by("-pk")[:_ROWS_READ]
    )
    ready = [row for row in rows if row.status == "ready"]
    current = next((row for row in ready if row.version == version), None)
    return ExportState(
        owner=owner,
        kind=kind,
        language=language,
        version=version,
        current=current,
        previous=None if current is not None else next(iter(ready), None),
        building=next((row for row in rows if row.status == "building"), None),
        failed=next(
            (row for row in rows if row.status == "failed" and row.version == version), None
        ),
    )


def export_content(file: ExportFile) -> bytes | None:
    """The file's bytes; None when it has gone since its row was read (a newer one became
    ready and replaced it)."""
    content = (
        ExportFile.objects.filter(pk=file.pk, status="ready")
        .values_list("content", flat=True)
        .first()
    )
    return None if content is None else bytes(content)


def build_lost(file: ExportFile) -> bool:
    """Whether the build of ``file`` (still *building*) will never end: its task is gone, or
    ended without ending the build (failed when its worker died too often, see
    ``server.task_worker``). A task waiting or running is on its way."""
    status = DBTaskResult.objects.filter(id=file.task_id).values_list("status", flat=True).first()
    return status not in (TaskResultStatus.READY, TaskResultStatus.RUNNING)


@dataclass(frozen=True)
class BuildProgress:
    """How far the build of a file is, for the page that waits for it."""

    running_since: datetime | None  # a worker is building it
    waiting_ahead: int  # tasks queued before it, while it waits for a worker
    queue_problem: str  # no worker running, the queue behind (``QueueState.problem``)


def build_progress(file: ExportFile) -> BuildProgress:
    task = (
        DBTaskResult.objects.filter(id=file.task_id)
        .values("status", "started_at", "enqueued_at")
        .first()
    )
    running_since = None
    ahead = 0
    if task is not None and task["status"] == TaskResultStatus.RUNNING:
        running_since = task["started_at"]
    elif task is not None:
        ahead = DBTaskResult.objects.ready().filter(enqueued_at__lt=task["enqueued_at"]).count()
    return BuildProgress(
        running_since=running_since, waiting_ahead=ahead, queue_problem=queue_state().problem()
    )


def exports_behind(owner: Tournament | Series, version: str, kinds: dict[str, str]) -> set[str]:
    """Of ``kinds`` (each with its language), those whose latest ready file is of an older
    version than ``version``: a download gives that one while a newer one is prepared. A
    kind never built is not among them (its download waits for the first). One query."""
    latest: dict[str, str] = {}
    found = (
        ExportFile.objects.filter(owned_by(owner), status="ready", kind__in=list(kinds))
        .order_by("kind", "language", "-pk")
        .values_list("kind", "language", "version")
    )
    for kind, language, built_version in found:
        if kinds.get(kind) == language:
            latest.setdefault(kind, built_version)
    return {kind for kind, built_version in latest.items() if built_version != version}
