"""The public downloads (the standings workbook, the EMA's results, a series' workbook) as
files built once per version of the data they come from, by the task queue, and kept here:
every app server and every worker reads and writes the same database, so a file built by a
worker on one machine is served by all (``services.exports``).

One row per owner (a tournament or a series), kind, language and version: the unique
constraint is what keeps two readers from starting two builds of one version, and the
second one (a single build under way per owner, kind and language) what keeps a busy session
from building every version a reader happened to ask for.

No history of their own: a row is derived data, built again on demand, and left out of the
backups (``server.backups``)."""

from django.db import models
from django.db.models import Q

from tournament.models.people import Series
from tournament.models.tournaments import Tournament

# The files, by the name their address ends with.
EXPORT_KIND_CHOICES = [
    ("standings.xlsx", "standings.xlsx"),
    ("ema.xlsx", "ema.xlsx"),
    ("ema.csv", "ema.csv"),
    ("series.xlsx", "series.xlsx"),
]

EXPORT_STATUS_CHOICES = [
    ("building", "building"),
    ("ready", "ready"),
    ("failed", "failed"),
]


class ExportFile(models.Model):
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="export_files"
    )
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.CASCADE, related_name="export_files"
    )
    kind = models.CharField(max_length=16, choices=EXPORT_KIND_CHOICES)
    # The language of the file's words ("" for the EMA's files, in English for everyone).
    language = models.CharField(max_length=10, blank=True, default="")
    # The version of the data it is built from (``selectors.exports.export_version``).
    version = models.CharField(max_length=64)
    status = models.CharField(max_length=8, choices=EXPORT_STATUS_CHOICES, default="building")
    # The build's task (``DBTaskResult.id``): a build whose task ended without ending it (its
    # worker died too often) is known to be lost.
    task_id = models.CharField(max_length=64, blank=True, default="")
    requested_at = models.DateTimeField()
    # When the build ended: ready, or failed.
    finished_at = models.DateTimeField(null=True, blank=True)
    content = models.BinaryField(default=b"")
    size = models.PositiveIntegerField(default=0)
    # Why the build failed, for the log and the organisers.
    error = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(tournament__isnull=False, series__isnull=True)
                | Q(tournament__isnull=True, series__isnull=False),
                name="export_file_one_owner",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["building", "ready", "failed"]),
                name="export_file_status_known",
            ),
            models.UniqueConstraint(
                fields=["tournament", "kind", "language", "version"],
                condition=Q(tournament__isnull=False),
                name="export_file_once_per_tournament_version",
            ),
            models.UniqueConstraint(
                fields=["series", "kind", "language", "version"],
                condition=Q(series__isnull=False),
                name="export_file_once_per_series_version",
            ),
            models.UniqueConstraint(
                fields=["tournament", "kind", "language"],
                condition=Q(tournament__isnull=False, status="building"),
                name="export_file_one_build_per_tournament",
            ),
            models.UniqueConstraint(
                fields=["series", "kind", "language"],
                condition=Q(series__isnull=False, status="building"),
                name="export_file_one_build_per_series",
            ),
        ]

    def __str__(self):
        owner = (
            f"tournament {self.tournament_id}" if self.tournament_id else f"series {self.series_id}"
        )
        return f"{owner} {self.kind} {self.language or '-'} v{self.version} ({self.status})"
