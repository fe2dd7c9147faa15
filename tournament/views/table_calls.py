"""A table's calls for a referee, from its sheet and from its review (a hand the players
disagree on): made once per one-time key (the tablet keeps a call made while the network is
down and sends it once back: static/js/calls.js), shown on the tablet as the desk has them
(a panel the sheet asks for again while a call is open, answered "not changed" under the
desk's version), and cancelled. Same access as the sheet (``table_access``)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, quote_etag
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournament import services
from tournament.forms.calls import CallForm
from tournament.forms.service_errors import add_service_errors
from tournament.selectors.desk import call_panel, table_call, table_calls_tag
from tournament.views.common import (
    entering_user,
    found_or_404,
    reader_tag,
    roles,
    table_access,
    table_entry_required,
)


def _wants_json(request) -> bool:
    """The tablet's script sends a call in the background and asks for JSON."""
    return "application/json" in request.headers.get("Accept", "")


def panel_context(table, *, for_player: bool = False) -> dict:
    """What the panel of a table's calls shows (``referee/_calls.html``)."""
    session = table.session
    return {
        "table": table,
        "session": session,
        "panel": call_panel(table),
        "for_player": for_player,
        # Correcting a hand as ruled is for the table's tablet and referee, while they enter.
        "can_correct": not for_player and session.is_in_play and not table.is_confirmed,
    }


def _back(slug, number, table, back: str) -> str:
    if back == "review":
        return reverse("table_confirm", args=[slug, number, table]) + "#hands"
    return reverse("table_sheet", args=[slug, number, table]) + "#calls"


@table_entry_required
@require_http_methods(["GET", "HEAD", "POST"])
def table_calls(request, slug, number, table):
    """GET: the table's call panel (an HTML part, "not changed" while nothing changed at the
    desk). POST: a call for a referee; JSON for the tablet's script, a redirect otherwise."""
    tournament, table = table_access(request, slug, number, table)
    if request.method == "POST":
        return _call_make(request, tournament, table)
    tag = quote_etag(f"{table_calls_tag(table, get_language())}-{reader_tag(request)}")
    unchanged = get_conditional_response(request, etag=tag)
    if unchanged is not None:
        return unchanged
    response = render(
        request,
        "referee/_calls.html",
        {**panel_context(table), "tournament": tournament},
    )
    response["ETag"] = tag
    # Asked again by the poll, never answered from a cache without the server's word.
    patch_cache_control(response, no_cache=True, private=True)
    return response


def _call_make(request, tournament, table):
    form = CallForm(request.POST)
    call = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            call = services.call_make(
                table=table,
                reason=data["reason"],
                hand=data["hand"],
                note=data["note"],
                key=data["key"],
                user=entering_user(request),
                device=request.device_link,
            )
        except ValidationError as error:
            add_service_errors(form, error)
    if _wants_json(request):
        if call is None:
            errors = {field: [str(m) for m in found] for field, found in form.errors.items()}
            return JsonResponse({"called": False, "errors": errors}, status=422)
        return JsonResponse({"called": True, "id": call.pk, "state": call.state})
    if call is None:
        context = {
            **roles(request, tournament),
            "tournament": tournament,
            "session": table.session,
            "table": table,
            "form": form,
        }
        return render(request, "referee/call.html", context)
    if not call.is_open:
        # The form's key was sent before (a page shown again): that call, ended since.
        messages.warning(
            request,
            _("This call was made before and is %(state)s: nothing new was called.")
            % {"state": call.get_state_display().lower()},
        )
    elif call.reason == "dispute":
        messages.success(
            request,
            _("A referee is called about hand %(n)s: the table is confirmed once it is resolved.")
            % {"n": call.hand},
        )
    else:
        messages.success(request, _("A referee is called to table %(t)s.") % {"t": table.number})
    return redirect(
        _back(tournament.slug, table.session.number, table.number, form["back"].value())
    )


@table_entry_required
@require_POST
def table_call_cancel(request, slug, number, table, call):
    """The table no longer needs the referee it called."""
    tournament, table = table_access(request, slug, number, table)
    found = found_or_404(table_call(table, call))
    try:
        services.call_cancel(call=found, user=entering_user(request), device=request.device_link)
    except ValidationError as error:
        if _wants_json(request):
            return JsonResponse({"cancelled": False, "errors": {"": error.messages}}, status=422)
        for message in error.messages:
            messages.error(request, message)
    else:
        if _wants_json(request):
            return JsonResponse({"cancelled": True})
        messages.success(request, _("The call is cancelled."))
    return redirect(_back(tournament.slug, table.session.number, table.number, "sheet"))
