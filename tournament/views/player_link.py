"""A player's own link, opened on their phone: their next table and their results, and their
check-in (see ``tournament.players.player_links``). No account: the signed token in the
address is the player's key, and it opens that one player's page only."""

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from tournament import services
from tournament.forms.calls import CallForm
from tournament.forms.check_in import OwnCheckInForm
from tournament.forms.service_errors import add_service_errors
from tournament.players.player_links import player_for_token
from tournament.seating import HANDS_PER_SESSION
from tournament.selectors.desk import call_panel, player_table_in_play
from tournament.selectors.player_link import player_own_page, player_session_hands
from tournament.views.common import action_told, page, token_page
from tournament.views.offline import kept_offline


@kept_offline
@never_cache
@require_safe
@token_page(player_for_token, "player_link/refused.html")
def player_link(request, player, token):
    """The player's page (never cached: it changes with every hand of their table)."""
    if "session" in request.GET:
        # The hands of a session played, asked for when the player opens it.
        form = OwnCheckInForm(request.GET)
        own = (
            player_session_hands(player, form.cleaned_data["session"]) if form.is_valid() else None
        )
        if own is None:
            raise Http404
        return render(request, "player_link/_hands.html", {"own": own})
    return _own_page(request, player, token)


def _own_page(request, player, token, *, call_form=None):
    own = player_own_page(player)
    current = own.current
    calls = {}
    if current is not None and current.status == "in_play":
        # The calls of the player's table, and while it is not confirmed, the form to call.
        calls = {"panel": call_panel(current.table_id), "for_player": True}
        if not current.confirmed:
            entered = len(current.hands)
            playing = entered + 1 if entered < HANDS_PER_SESSION else None
            calls["call_form"] = call_form or CallForm(hand=playing)
    return page(
        request,
        "player_link/page.html",
        player.tournament,
        token=token,
        page=own,
        calls=calls,
        poll_seconds=settings.PLAYER_PAGE_SECONDS,
        # What the page says when shown from the phone, the network down (views/offline.py).
        offline_text=_("No network: your table and seat as last loaded, at %(time)s."),
    )


@require_POST
@token_page(player_for_token, "player_link/refused.html")
def player_link_check_in(request, player, token):
    """The player checks in for the session whose check-in is open, then sees their page."""
    form = OwnCheckInForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the session to check in for."))
        return redirect("player_link", token)
    number = form.cleaned_data["session"]
    action_told(
        request,
        lambda: services.player_check_in(player=player, number=number),
        _("Checked in for session %(n)s.") % {"n": number},
    )
    return redirect("player_link", token)


@require_POST
@token_page(player_for_token, "player_link/refused.html")
def player_link_call(request, player, token):
    """The player calls a referee to their table, during play; the page then shows the
    call as the desk has it. Refused, the form is shown again, each reason beside its field."""
    table = player_table_in_play(player)
    if table is None:
        messages.error(request, _("You can call a referee while your session is in play."))
        return redirect("player_link", token)
    form = CallForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.call_make(
                table=table,
                reason=data["reason"],
                hand=data["hand"],
                note=data["note"],
                key=data["key"],
                player=player,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request, _("A referee is called to table %(t)s.") % {"t": table.number}
            )
            return redirect(reverse("player_link", args=[token]) + "#own-calls")
    return _own_page(request, player, token, call_form=form)
