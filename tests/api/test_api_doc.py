"""docs/api.md against the API: its table of endpoints is the OpenAPI document's paths, both
ways, and says which lists come by pages as their answers do; the worked example, the
tournament it describes built through the services, and the standings the API gives for it,
equal to the document's table; then the 304 and the new answer after a correction it
promises."""

import json
from pathlib import Path

from tests.conftest import login, make_players, make_tournament
from tests.markdown_tables import code_text, table_rows
from tournament import services

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
URL = "/api/v1/tournaments/example-open/standings"


def test_the_documents_endpoints_are_the_openapi_documents(db):
    document = login(None).get("/api/v1/openapi.json").json()
    rows = table_rows(DOC, "| path | what | by pages |")
    by_pages = {code_text(path): paged for path, _what, paged in rows}
    assert len(by_pages) == len(rows), "an endpoint written twice in docs/api.md"
    assert set(document["paths"]) - set(by_pages) == set(), "endpoints docs/api.md does not name"
    assert set(by_pages) - set(document["paths"]) == set(), "endpoints the API does not have"
    schemas = document["components"]["schemas"]
    for path, operations in document["paths"].items():
        answer = operations["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        answer = schemas.get(answer.get("$ref", "").rsplit("/", 1)[-1], answer)
        if answer.get("type") == "array":
            shape = "no"  # a list that comes whole
        elif set(answer.get("properties", ())) == {"items", "count"}:
            shape = "yes"
        else:
            shape = ""  # one thing, no list
        assert by_pages[path] == shape, path


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
