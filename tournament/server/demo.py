"""The demo tournament: a plain-data plan in ``fixtures/demo.json`` played through the services.

Loading through the services (rather than a database dump with fixed primary keys)
means the demo never overwrites rows an organiser created, and every demo hand is
settled by the same scoring core as a referee's entry.
"""

import json
from pathlib import Path

from django.db import transaction

from tournament import services
from tournament.models import Tournament


def read_plan(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


@transaction.atomic
def load_demo(plan: dict) -> Tournament:
    """Create the planned tournament, its players, draws and hands, the calls for a referee
    waiting, its players' people and a series ranking it; return it."""
    tournament = services.tournament_create(**plan["tournament"])
    for player in plan["players"]:
        services.player_save(tournament=tournament, **player)
    for planned in plan["sessions"]:
        session = services.session_draw(
            tournament=tournament, number=planned["number"], seed=planned["seed"]
        )
        services.session_open(session=session)
        for table in session.tables.order_by("number"):
            planned_table = planned["tables"][str(table.number)]
            for hand in planned_table["hands"]:
                fields = {k: v for k, v in hand.items() if k != "penalties"}
                penalties = [services.PenaltyEntry(**p) for p in hand.get("penalties", [])]
                services.hand_record(
                    table=table, entry=services.HandEntry(penalties=penalties, **fields)
                )
            # A table waiting for a referee: the desk has a call to show.
            for call in planned_table.get("calls", []):
                services.call_make(table=table, **call)
            if planned_table.get("confirmed"):
                services.table_confirm(table=table, user=None)
        if planned.get("closed"):
            services.session_close(session=session)
    # Its players are people, ranked by a series of one tournament: the pages across
    # tournaments have something to show.
    numbers = list(tournament.players.values_list("number", flat=True))
    services.person_create_for(tournament=tournament, numbers=numbers)
    services.series_save(
        tournaments=[tournament], name="Demo season", slug="demo-season", rule="best"
    )
    return tournament


def give_free_tables(tournament: Tournament, referee) -> None:
    """Give ``referee`` every table with no referee, in every drawn session.

    Tables an organiser gave to someone else keep their referee, so loading the demo
    accounts again undoes nobody's choice.
    """
    for session in tournament.sessions.order_by("number"):
        free = session.tables.filter(referee__isnull=True).values_list("number", flat=True)
        if free:
            services.tables_assign(session=session, referee=referee, tables=list(free))
