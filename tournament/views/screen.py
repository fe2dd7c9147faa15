"""The hall's screens: a projector page cycling through the current session's seating and the
standings, and the panels its polls fetch (``tournament.hall.screen``; docs/screen.md). Anyone
may read them.

A poll is one small GET: the tournament and its versions in one query, the rest from the
cache. The screen's state is cached under the data version; each panel's HTML under the
version it depends on and the language: the seating's pages under the seating version, so
they outlive the hands entered during play, the standings' under the data version.
"""

from django.conf import settings
from django.core.cache import cache
from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from tournament.hall import screen
from tournament.selectors.lookups import STANDINGS_CACHE_SECONDS, tournament_with_versions
from tournament.selectors.screen import screen_state
from tournament.selectors.seating import session_seats_by_name, session_tables
from tournament.selectors.standings import tournament_standings
from tournament.views.common import in_event_time

# Old versions are never asked for again; they only need to leave the cache eventually.
PANEL_CACHE_SECONDS = STANDINGS_CACHE_SECONDS


def panel_cache_key(tournament, state, panel, *, version: int, seating: int) -> str:
    """The key of a panel's HTML: the seating's pages change only with the seating (and
    the session shown), the standings' and the welcome's with any write."""
    if panel.kind in (screen.TABLES, screen.NAMES):
        held = f"seating-{seating}-session-{state.session.number}"
    else:
        held = f"data-{version}"
    return f"mcr:screen-panel:{tournament.pk}:{held}:{get_language()}:{panel.kind}:{panel.page}"


def _columns(items, panel):
    """The panel's items (``panel.start`` on) cut into its columns."""
    return [items[start - panel.start : stop - panel.start] for start, stop in panel.columns]


def panel_html(tournament, state, panel, *, version: int, seating: int) -> str:
    """One panel's HTML, from the cache or rendered and cached."""
    key = panel_cache_key(tournament, state, panel, version=version, seating=seating)
    html = cache.get(key)
    if html is not None:
        return html
    context = {"state": state, "panel": panel, "session": state.session}
    if panel.kind == screen.TABLES:
        context["tables"] = session_tables(state.session)[panel.start : panel.stop]
    elif panel.kind == screen.NAMES:
        seats = session_seats_by_name(state.session)[panel.start : panel.stop]
        context["columns"] = _columns(seats, panel)
    elif panel.kind == screen.STANDINGS:
        rows = tournament_standings(tournament)[panel.start : panel.stop]
        context["columns"] = _columns(rows, panel)
    html = render_to_string(f"screen/_{panel.kind}.html", context)
    cache.set(key, html, PANEL_CACHE_SECONDS)
    return html


def _screen(slug, *, step: int = 0, phase: str | None = None) -> dict:
    """The context of the screen's page and of its polls: the panel of ``step``, and the
    address the screen asks next. A poll of a screen whose session or its state changed
    since (``phase``) starts again from the first panel: a new draw shows table 1 first."""
    found = tournament_with_versions(slug)
    if found is None:
        raise Http404
    tournament, version, seating = found
    in_event_time(tournament)
    state = screen_state(tournament, version)
    if phase is not None and phase != state.phase:
        step = 0
    panels = state.panels
    index, panel = screen.panel_at(panels, step)
    following = {"step": (index + 1) % len(panels), "phase": state.phase}
    return {
        "tournament": tournament,
        "state": state,
        "clock": state.session_clock(),
        "panel": panel,
        "step": index,
        "steps": len(panels),
        "panel_html": panel_html(tournament, state, panel, version=version, seating=seating),
        "next_url": reverse("screen_panel", args=[slug]) + "?" + urlencode(following),
        "poll_seconds": settings.SCREEN_POLL_SECONDS,
    }


@require_safe
@never_cache
def screen_page(request, slug):
    """The whole screen, once: its header with the session clock and the first panel."""
    return render(request, "screen/screen.html", _screen(slug))


@require_safe
@never_cache
def screen_panel(request, slug):
    """The panel a screen's poll asks for, with the header out of band (the session and its
    clock may have moved on)."""
    step = screen.requested_step(request.GET.get("step"))
    context = _screen(slug, step=step, phase=request.GET.get("phase", ""))
    return render(request, "screen/poll.html", context)
