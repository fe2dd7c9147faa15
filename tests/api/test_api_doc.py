"""The worked example of docs/api.md: the tournament it describes, built through the
services, and the standings the API gives for it, equal to the document's table; then the
304 and the new answer after a correction it promises."""

import json
from pathlib import Path

from tests.conftest import login, make_players, make_tournament
from tests.markdown_tables import table_rows
from tournament import services

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
URL = "/api/v1/tournaments/example-open/standings"


def test_the_documents_standings_are_the_apis(organiser, referee):
    tournament = make_tournament(creator=organiser, slug="example-open", sessions=1)
    make_players(tournament, 4)
    session = services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=1)
    )
    table = session.tables.get()
    seat_of = {seat.player.number: seat.seat for seat in table.seats.select_related("player")}
    services.hand_record(
        table=table,
        entry=services.HandEntry(number=1, outcome="self_drawn", winner=seat_of[2], fan=8),
    )
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=2, outcome="discard", winner=seat_of[2], discarder=seat_of[4], fan=8
        ),
    )
    services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)
    client = login(None)
    response = client.get(URL)
    items = json.loads(response.content)["items"]
    fields = ("rank", "player", "table_points", "table_points_twelfths", "score")
    assert [[str(item[field]) for field in fields] for item in items] == table_rows(
        DOC, "| rank | player | table_points | table_points_twelfths | score |"
    )
    assert client.get(URL, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    services.table_reopen(table=table, user=organiser, reason="Hand 3 was a win")
    hand = table.hands.get(number=3)
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=3, outcome="self_drawn", winner=seat_of[4], fan=8, version=hand.version
        ),
    )
    corrected = client.get(URL, HTTP_IF_NONE_MATCH=response["ETag"])
    assert corrected.status_code == 200 and corrected["ETag"] != response["ETag"]
