"""Series: tournaments ranked together. Public pages (the ranking, its workbook) and the
organisers' form (create, change, delete)."""

import copy

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tournament import services
from tournament.forms.series import SeriesForm
from tournament.forms.service_errors import form_saved
from tournament.permissions import can_create_tournament, is_series_organiser
from tournament.selectors.exports import export_version, exports_behind
from tournament.selectors.series import series_by_slug, series_standing
from tournament.tables import paginate
from tournament.tables.series import SeriesRankingTable
from tournament.views.downloads import export_download


def _series(request, slug, *, organiser: bool = False):
    series = series_by_slug(slug)
    if series is None:
        raise Http404(_("No such series."))
    if organiser and not is_series_organiser(request.user, series):
        raise PermissionDenied
    return series


@require_safe
def series_page(request, slug):
    """The ranking, each person's result in every tournament, counted or not."""
    series = _series(request, slug)
    standing = series_standing(series)
    table = SeriesRankingTable(standing.rows, series=series, tournaments=standing.tournaments)
    return render(
        request,
        "series/page.html",
        {
            "series": series,
            "standing": standing,
            "ranking": paginate(request, table),
            "is_series_organiser": is_series_organiser(request.user, series),
            "downloads_behind": exports_behind(
                series, export_version(series), {"series.xlsx": get_language()}
            ),
        },
    )


@require_safe
def series_xlsx(request, slug):
    """The workbook, built by the task queue once per version of the series' data and
    served from its stored copy (``downloads``)."""
    series = _series(request, slug)
    return export_download(
        request,
        series,
        kind="series.xlsx",
        filename=f"{series.slug}-series.xlsx",
        context=lambda: {
            "back_url": series.get_absolute_url(),
            "back_label": _("Back to the series"),
        },
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def series_create(request):
    if not can_create_tournament(request.user):
        raise PermissionDenied
    form = SeriesForm(request.POST or None)

    def create():
        return services.series_save(user=request.user, **form.settings())

    if saved := form_saved(request, form, create):
        messages.success(request, _("Series created."))
        return redirect(saved.result)
    return render(request, "series/form.html", {"form": form, "creating": True})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def series_edit(request, slug):
    series = _series(request, slug, organiser=True)
    # As for a tournament: a refused change must not show in the page's title and links.
    form = SeriesForm(request.POST or None, instance=copy.copy(series))

    def update():
        return services.series_save(series=copy.copy(series), user=request.user, **form.settings())

    if saved := form_saved(request, form, update):
        messages.success(request, _("Series saved."))
        return redirect(saved.result)
    return render(request, "series/form.html", {"form": form, "series": series})


@login_required
@require_POST
def series_delete(request, slug):
    series = _series(request, slug, organiser=True)
    services.series_delete(series=series, user=request.user)
    messages.success(request, _("Series deleted; its tournaments stay."))
    return redirect("home")
