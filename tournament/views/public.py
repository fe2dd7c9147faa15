"""Pages anyone may read: the tournament list, an overview, the seating of a session."""

import json

from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournament import seating, selectors
from tournament.forms.tournaments import DrawForm
from tournament.permissions import can_create_tournament
from tournament.views.common import get_player, get_session, get_tournament, roles


@require_safe
def home(request):
    return render(
        request,
        "tournaments/home.html",
        {
            "tournaments": selectors.tournament_list(),
            "can_create": can_create_tournament(request.user),
        },
    )


@require_safe
def tournament_detail(request, slug):
    tournament = get_tournament(request, slug)
    context = roles(request, tournament)
    overview = selectors.tournament_overview(tournament)
    context.update(
        tournament=tournament,
        sessions=overview.sessions,
        player_count=overview.active_players,
        substitutes=overview.substitutes,
        draw_form=DrawForm(tournament=tournament) if context["is_organiser"] else None,
    )
    return render(request, "tournaments/detail.html", context)


@require_safe
def seating_page(request, slug, number):
    tournament = get_tournament(request, slug)
    session = get_session(tournament, number)
    tables = selectors.session_tables(session)
    # The worked example of the lot rule: the player at table 1, seat P1.
    example = tables[0].seats[0] if tables else None
    context = roles(request, tournament)
    context.update(
        tournament=tournament,
        session=session,
        tables=tables,
        example=example,
        example_key=seating.lot_key(session.seed, example.player.number) if example else "",
        figures=selectors.seating_figures(tournament),
        draw_input_json=json.dumps(session.draw_input, ensure_ascii=False)
        if session.draw_input
        else "",
    )
    return render(request, "seating/seating.html", context)


@require_safe
def seating_by_name(request, slug, number):
    """The session's seating in alphabetical order of players, for finding one's table."""
    tournament = get_tournament(request, slug)
    session = get_session(tournament, number)
    query = request.GET.get("q", "").strip()[:60]
    context = roles(request, tournament)
    context.update(
        tournament=tournament,
        session=session,
        query=query,
        seats=selectors.session_seats_by_name(session, query),
    )
    return render(request, "seating/by_name.html", context)


@require_safe
def player_schedule(request, slug, number):
    """One player's drawn sessions: table, starting seat and opponents."""
    tournament = get_tournament(request, slug)
    player = get_player(tournament, number)
    context = roles(request, tournament)
    context.update(
        tournament=tournament,
        player=player,
        schedule=selectors.player_schedule(player),
        planned=selectors.player_planned_sessions(player),
    )
    return render(request, "seating/player.html", context)
