"""Pages anyone may read: the tournament list, an overview, the seating of a session."""

from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournament import seating
from tournament.forms.tournaments import DrawForm
from tournament.models import SEAT_LABELS, Tournament
from tournament.permissions import can_create_tournament
from tournament.views.common import get_session, get_tournament, roles


@require_safe
def home(request):
    return render(
        request,
        "tournaments/home.html",
        {
            "tournaments": Tournament.objects.all(),
            "can_create": can_create_tournament(request.user),
        },
    )


@require_safe
def tournament_detail(request, slug):
    tournament = get_tournament(request, slug)
    context = roles(request, tournament)
    sessions = list(tournament.sessions.prefetch_related("tables").order_by("number"))
    for session in sessions:
        tables = list(session.tables.all())
        session.table_count = len(tables)
        session.confirmed_count = sum(1 for t in tables if t.is_confirmed)
    players = tournament.players.all()
    context.update(
        tournament=tournament,
        sessions=sessions,
        player_count=sum(1 for p in players if p.is_active),
        draw_form=DrawForm(tournament=tournament) if context["is_organiser"] else None,
    )
    return render(request, "tournaments/detail.html", context)


@require_safe
def seating_page(request, slug, number):
    tournament = get_tournament(request, slug)
    session = get_session(tournament, number)
    tables = []
    for table in session.tables.prefetch_related("seats__player", "seats__replaces").order_by(
        "number"
    ):
        seats = sorted(table.seats.all(), key=lambda s: s.seat)
        tables.append({"table": table, "seats": [(SEAT_LABELS[s.seat], s) for s in seats]})
    example = tables[0]["seats"][0][1] if tables else None
    context = roles(request, tournament)
    context.update(
        tournament=tournament,
        session=session,
        tables=tables,
        example=example,
        example_key=seating.lot_key(session.seed, example.player.number) if example else "",
    )
    return render(request, "seating/seating.html", context)
