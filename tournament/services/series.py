"""A series: tournaments ranked together, created and changed by its organisers."""

from django.db import transaction

from tournament.history import audit
from tournament.models import Series

SERIES_FIELDS = ("name", "slug", "rule", "counted_results", "place_points")


@transaction.atomic
def series_save(
    *, series: Series | None = None, tournaments, user=None, organisers=None, **fields
) -> Series:
    """Create a series (``user`` becomes its organiser) or change ``series``: its name,
    address, rule and tournaments, and its organisers when ``organisers`` is given. The
    ranking under its old rule is never read again (the version is raised)."""
    unknown = set(fields) - set(SERIES_FIELDS)
    if unknown:
        raise TypeError(f"unknown series fields {sorted(unknown)}")
    series = series or Series()
    for key, value in fields.items():
        setattr(series, key, value)
    if series.rule != "places":
        series.place_points = series.place_points.strip()
    series.full_clean()
    with audit.acting(user=user):
        if series.pk is None:
            series.save()
            if user is not None:
                series.organisers.add(user)
        else:
            # The row locked: two changes at once each raise the version.
            stored = Series.objects.select_for_update().values_list("version", flat=True)
            series.version = stored.get(pk=series.pk) + 1
            series.save()
        series.tournaments.set(tournaments)
        if organisers is not None:
            series.organisers.set(organisers)
    return series


@transaction.atomic
def series_delete(*, series: Series, user=None) -> None:
    """Delete the series; its tournaments and people stay."""
    with audit.acting(user=user):
        series.delete()
