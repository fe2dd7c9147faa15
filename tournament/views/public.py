"""Pages anyone may read: the tournament list, an overview, the seating of a session, the
fairness of the committed draw."""

import json

from django.http import HttpResponse, QueryDict
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from tournament import seating
from tournament.forms.tournaments import DrawForm
from tournament.language.formatting import days_text, place_text, zone_label
from tournament.permissions import can_create_tournament, is_organiser, is_referee
from tournament.selectors.fairness import (
    draw_commitments,
    fairness_page,
    fairness_record,
    live_commitment,
)
from tournament.selectors.lookups import (
    STANDINGS_CACHE_SECONDS,
    seating_key,
    sessions_under_review,
    tournament_list,
)
from tournament.selectors.overview import event_days, tournament_overview
from tournament.selectors.seating import (
    player_seating,
    seating_figures,
    session_seats_by_name,
    session_tables,
)
from tournament.selectors.series import series_list
from tournament.selectors.statistics import player_record
from tournament.services.sign_ups import sign_up_closed_reason
from tournament.tables import page_value, paginate
from tournament.tables.seating import (
    PlannedSessionsTable,
    PlanPlayersTable,
    PlayerSessionsTable,
    SeatingByNameTable,
    SeatingTable,
)
from tournament.views.common import (
    found_or_404,
    get_player_of,
    get_session,
    get_session_of,
    get_tournament,
    page,
    roles,
)
from tournament.views.shared_pages import page_key, page_path, page_query, shared_page


@require_safe
def home(request):
    return render(
        request,
        "tournaments/home.html",
        {
            "tournaments": tournament_list(),
            "series_list": series_list(),
            "can_create": can_create_tournament(request.user),
        },
    )


@require_safe
def tournament_detail(request, slug):
    tournament = get_tournament(request, slug)
    # Organisers and referees (``is_referee`` counts both) see a draw under review; everybody
    # else, published draws.
    staff = is_referee(request.user, tournament)
    organiser = is_organiser(request.user, tournament)
    overview = tournament_overview(tournament, published_only=not staff, undo=organiser)
    commitments = draw_commitments(tournament)
    live = live_commitment(commitments)
    pending = live if live is not None and live.revealed_at is None else None
    return page(
        request,
        "tournaments/detail.html",
        tournament,
        sessions=overview.sessions,
        player_count=overview.active_players,
        substitutes=overview.substitutes,
        draw_form=DrawForm(tournament=tournament, commitment=pending) if organiser else None,
        has_commitments=bool(commitments),
        pending_commitment=pending,
        # Before the first draw, with no commitment live: the draw can be committed.
        can_commit=organiser and live is None and not overview.sessions,
        sign_up_taken=not sign_up_closed_reason(tournament),
        when=days_text(event_days(tournament)),
        place=place_text(tournament),
        zone=zone_label(tournament.time_zone, timezone.now()),
    )


def _hidden_sessions(request, tournament) -> frozenset[int]:
    """The drawn sessions kept from the visitor: those under review, but for organisers and
    referees (``is_referee`` counts both), who review them."""
    if is_referee(request.user, tournament):
        return frozenset()
    return frozenset(sessions_under_review(tournament))


def _under_review(request, tournament, session):
    """The page a visitor gets for a draw not published yet, which only organisers and
    referees see; None for them, or once it is published."""
    if session.is_published or is_referee(request.user, tournament):
        return None
    return page(request, "seating/under_review.html", tournament, session=session, http_status=404)


@require_safe
def seating_page(request, slug, number):
    session = get_session_of(slug, number)
    tournament = session.tournament
    if refused := _under_review(request, tournament, session):
        return refused
    version = seating_key(tournament, as_read=True)
    # What the page reads of its query: the page of the tables and the page of the plan.
    query = page_query(request.GET, {"page": page_value, "plan-page": page_value})

    def context() -> dict:
        figures = seating_figures(tournament, version=version)
        tables = session_tables(session)
        example = tables[0].seats[0].player.number if tables else None
        # A big event's 250 tables and its plan's 1,000 players by pages, as a phone reads
        # them (``page=all`` to print); the plan's list on a parameter of its own.
        plan = None
        if session.method == "planned" and figures.plan:
            plan = PlanPlayersTable(figures.plan_players, with_changes=bool(figures.plan.replans))
            plan = paginate(request, plan, query)
        return {
            **roles(request, tournament),
            "page_path": page_path(request, query),
            "tournament": tournament,
            "session": session,
            "seating_table": paginate(request, SeatingTable(tables, session.method), query),
            "plan_table": plan,
            "plan_paged": "plan-page" in query,
            "example_number": example,
            "example_key": seating.lot_key(session.seed, example) if example is not None else "",
            "figures": figures,
            "draw_input_json": json.dumps(session.draw_input, ensure_ascii=False)
            if session.draw_input
            else "",
        }

    # Besides the seating under its key (a draw raises it, so the session's method, seed
    # and input too), the page shows whether the session is published, which changes
    # without it, and the tournament's name and link (which the services' changes raise it
    # for, not the admin's).
    shown = (session.pk, version, session.published_at, tournament.name, tournament.slug)
    key = page_key("seating-page", shown, query)
    return shared_page(request, key, "seating/seating.html", context)


@require_safe
def seating_by_name(request, slug, number):
    """The session's seating in alphabetical order of players, for finding one's table."""
    tournament = get_tournament(request, slug)
    session = get_session(tournament, number)
    query = request.GET.get("q", "").strip()[:60]
    if refused := _under_review(request, tournament, session):
        return refused
    seats = session_seats_by_name(session, query)
    return page(
        request,
        "seating/by_name.html",
        tournament,
        session=session,
        query=query,
        seats=seats,
        by_name=SeatingByNameTable(seats, slug=tournament.slug),
    )


@require_safe
def player_page(request, slug, number):
    """One player's drawn sessions (table, starting seat and opponents), the statistics of
    their hands and their rank after each session."""
    player = get_player_of(slug, number)
    tournament = player.tournament
    version = seating_key(tournament, as_read=True)
    schedule, planned, tables = player_seating(player, version=version)
    return page(
        request,
        "seating/player.html",
        tournament,
        player=player,
        schedule=schedule,
        planned=planned,
        # Built only when drawn (a template calls what it is given): while the sessions'
        # tables are kept, not at all.
        schedule_table=lambda: PlayerSessionsTable(schedule, slug=tournament.slug),
        planned_table=lambda: PlannedSessionsTable(planned, slug=tournament.slug),
        # The sessions' tables are drawn once per seating version (a hand changes them not)
        # and kept, in the page's language, for every reader: the statistics and ranks
        # below them change with every hand.
        sessions_kept_under=page_key("player-sessions", (player.pk, version), QueryDict()),
        kept_seconds=STANDINGS_CACHE_SECONDS,
        record=player_record(player, tables, as_read=True),
    )


@require_safe
def fairness(request, slug):
    """The committed draw: the hash and what it covers before the draw; the seed, the public
    value, the record to download and the command that checks it after."""
    tournament = get_tournament(request, slug)
    shown = fairness_page(tournament, under_review=_hidden_sessions(request, tournament))
    return page(request, "seating/fairness.html", tournament, page=shown)


@require_safe
def fairness_record_file(request, slug):
    """The live commitment's fairness record, as a file to give to
    ``python -m tournament.seating verify``."""
    tournament = get_tournament(request, slug)
    live = found_or_404(live_commitment(draw_commitments(tournament)))
    record = fairness_record(live, under_review=_hidden_sessions(request, tournament))
    response = HttpResponse(
        json.dumps(record, ensure_ascii=False, indent=2) + "\n",
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = 'attachment; filename="fairness.json"'
    return response
