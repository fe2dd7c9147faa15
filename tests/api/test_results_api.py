"""The open results API (``/api/v1/``): what each endpoint gives, the same to every persona
(the public's view: no e-mail, no draw under review, hands only of confirmed tables), exact
table points, pages, ETags and 304, the rate limit, the OpenAPI document, and query counts
that do not grow with the tournament."""

import json
import re
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api.conftest import SECRET_EMAIL
from tests.conftest import login, make_players, make_tournament, make_user, play_every_table
from tournament import services
from tournament.selectors.standings import tournament_standings
from tournament.server import rate_limits

BASE = "/api/v1"
PERSONAS = ["organiser", "referee", "other_referee", "anonymous"]


def endpoints(slug="spring-open"):
    return [
        f"{BASE}/tournaments",
        f"{BASE}/tournaments/{slug}",
        f"{BASE}/tournaments/{slug}/players",
        f"{BASE}/tournaments/{slug}/sessions",
        f"{BASE}/tournaments/{slug}/sessions/1/tables",
        f"{BASE}/tournaments/{slug}/sessions/1/tables/1/hands",
        f"{BASE}/tournaments/{slug}/standings",
        f"{BASE}/series",
        f"{BASE}/series/season",
        f"{BASE}/series/season/ranking",
    ]


def get(client, url, **headers):
    response = client.get(url, **headers)
    return response, (json.loads(response.content) if response.content else None)


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_endpoint_answers_every_persona_the_same_public_document(results, personas, persona):
    public = login(None)
    for url in endpoints():
        response, document = get(personas[persona], url)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("application/json")
        assert document == get(public, url)[1], url
        assert SECRET_EMAIL not in response.content.decode()
        assert "email" not in response.content.decode()


def test_every_endpoint_answers_the_same_with_a_final_slash(results):
    """As the site's pages are written; answered directly, no redirect (docs/api.md)."""
    client = login(None)
    for url in endpoints():
        plain, slashed = client.get(url), client.get(f"{url}/")
        assert (plain.status_code, slashed.status_code) == (200, 200), url
        assert (slashed.content, slashed["ETag"]) == (plain.content, plain["ETag"]), url
        again = client.get(f"{url}/", HTTP_IF_NONE_MATCH=plain["ETag"])
        assert again.status_code == 304, url
    page = f"{BASE}/tournaments/spring-open/players?page=2&page_size=3"
    slashed_page = page.replace("?", "/?")
    assert client.get(slashed_page).content == client.get(page).content
    assert (
        client.get(slashed_page)["ETag"]
        != client.get(f"{BASE}/tournaments/spring-open/players/")["ETag"]
    )
    # What is not found is as the document says, in both forms; HEAD and OPTIONS too.
    missing = client.get(f"{BASE}/tournaments/no-such-cup/")
    assert (missing.status_code, missing.json()) == (404, {"detail": "No such tournament."})
    assert client.head(f"{BASE}/series/").status_code == 200
    assert client.options(f"{BASE}/series/")["Allow"] == "GET, HEAD, OPTIONS"


def test_the_documents_hold_the_tournaments_figures(results):
    client = login(None)
    _response, tournament = get(client, f"{BASE}/tournaments/spring-open")
    assert (tournament["name"], tournament["players"], tournament["sessions_published"]) == (
        "Spring Open",
        17,
        2,
    )
    _response, players = get(client, f"{BASE}/tournaments/spring-open/players")
    assert players["count"] == 17
    three = next(p for p in players["items"] if p["number"] == 3)
    assert three["withdrawn"] is True
    assert next(p for p in players["items"] if p["number"] == 1)["person"] is not None
    _response, standings = get(client, f"{BASE}/tournaments/spring-open/standings")
    rows = tournament_standings(results.tournament)
    assert [(r["player"], r["rank"]) for r in standings["items"]] == [
        (row.player.number, row.rank) for row in rows
    ]
    for item, row in zip(standings["items"], rows, strict=True):
        assert Fraction(item["table_points"]) == row.table_points
        assert Fraction(item["table_points_twelfths"], 12) == row.table_points
        assert re.fullmatch(r"-?\d+(/\d+)?", item["table_points"])
    _response, ranking = get(client, f"{BASE}/series/season/ranking")
    assert {row["total"] for row in ranking["items"]} <= {"10", "7", "5", "3", "0"}
    assert all(r["tournament"] == "spring-open" for row in ranking["items"] for r in row["results"])


def test_a_draw_under_review_and_unconfirmed_hands_are_not_public(results, personas):
    for persona in PERSONAS:
        client = personas[persona]
        _response, sessions = get(client, f"{BASE}/tournaments/spring-open/sessions")
        assert [s["number"] for s in sessions] == [1, 2]
        response, document = get(client, f"{BASE}/tournaments/spring-open/sessions/3/tables")
        assert response.status_code == 404
        assert document == {"detail": "No such published session."}
        response, document = get(
            client, f"{BASE}/tournaments/spring-open/sessions/2/tables/1/hands"
        )
        assert response.status_code == 404
        assert document == {"detail": "No such confirmed table."}
    _response, hands = get(login(None), f"{BASE}/tournaments/spring-open/sessions/1/tables/1/hands")
    assert [h["number"] for h in hands] == list(range(1, 17))
    first = hands[0]
    assert (first["outcome"], first["winner"], first["fan"]) == ("self_drawn", "P2", 8)
    assert first["penalties"] == [
        {"offender": "P3", "kind": "to_each_other", "points": 10, "beneficiary": None}
    ]
    assert sum(first["points"]) == 0


def test_pages_of_a_list(results):
    client = login(None)
    _response, page = get(client, f"{BASE}/tournaments/spring-open/players?page=2&page_size=5")
    assert page["count"] == 17
    assert [p["number"] for p in page["items"]] == [6, 7, 8, 9, 10]
    _response, beyond = get(client, f"{BASE}/tournaments/spring-open/players?page=9&page_size=5")
    assert beyond["items"] == []
    response, _document = get(client, f"{BASE}/tournaments/spring-open/players?page=0")
    assert response.status_code == 422


def test_a_poller_with_the_latest_etag_gets_304_until_something_changes(results, referee):
    client = login(None)
    url = f"{BASE}/tournaments/spring-open/standings"
    first, _document = get(client, url)
    etag = first["ETag"]
    assert first["Cache-Control"] == "no-cache"
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", etag)
    # Another page of the same list has an ETag of its own.
    assert client.get(url + "?page=2")["ETag"] != etag
    second = results.tournament.sessions.get(number=2)
    services.session_open(session=second)
    services.hand_record(
        table=second.tables.get(number=1),
        entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8),
        user=referee,
    )
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_series_etag_follows_its_tournaments(results, referee):
    client = login(None)
    url = f"{BASE}/series/season/ranking"
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.person_create_for(tournament=results.tournament, numbers=[5])
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_beyond_the_rate_an_address_gets_429_with_when_to_come_back(results, settings, monkeypatch):
    settings.API_RATE = "3/m"
    # 20 seconds into a minute: the window does not end during the test.
    monkeypatch.setattr(rate_limits, "_now", lambda: 1_800_000_020.0)
    client = login(None)
    codes = [client.get(f"{BASE}/tournaments").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = client.get(f"{BASE}/tournaments")
    assert refused["Retry-After"] == "40"
    # Another address is counted apart.
    assert client.get(f"{BASE}/tournaments", REMOTE_ADDR="10.0.0.9").status_code == 200


def test_the_openapi_document_names_every_endpoint_in_english(db):
    response, document = get(login(None), f"{BASE}/openapi.json")
    assert response.status_code == 200
    paths = set(document["paths"])
    assert {
        "/api/v1/tournaments",
        "/api/v1/tournaments/{slug}",
        "/api/v1/tournaments/{slug}/players",
        "/api/v1/tournaments/{slug}/sessions",
        "/api/v1/tournaments/{slug}/sessions/{number}/tables",
        "/api/v1/tournaments/{slug}/sessions/{number}/tables/{table}/hands",
        "/api/v1/tournaments/{slug}/standings",
        "/api/v1/series",
        "/api/v1/series/{slug}",
        "/api/v1/series/{slug}/ranking",
    } == paths
    assert all(set(operations) == {"get"} for operations in document["paths"].values())
    for schema in document["components"]["schemas"].values():
        for name in schema.get("properties", {}):
            assert re.fullmatch(r"[a-z_]+", name), name
    # The same in Chinese: the API speaks English.
    chinese = login(None).get(f"{BASE}/openapi.json", HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert json.loads(chinese.content) == document


def test_nothing_but_reading(results):
    client = login(make_user("writer", can_create=True))
    for url in endpoints():
        assert client.post(url, {}).status_code == 405, url
        assert client.delete(url).status_code == 405, url


def _queries(url) -> int:
    client = login(None)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize(
    "path",
    ["players", "sessions", "sessions/1/tables", "sessions/1/tables/1/hands", "standings"],
)
def test_query_counts_do_not_grow_with_the_tournament(organiser, referee, path):
    counts = []
    for size, slug in ((8, "small-cup"), (24, "large-cup")):
        tournament = make_tournament(creator=organiser, slug=slug)
        make_players(tournament, size)
        session = services.session_open(
            session=services.session_draw(tournament=tournament, number=1, seed=5)
        )
        play_every_table(session, referee=referee)
        services.person_create_for(tournament=tournament, numbers=list(range(1, size + 1)))
        counts.append(_queries(f"{BASE}/tournaments/{slug}/{path}"))
    assert counts[0] == counts[1], counts
    assert counts[0] <= 6, counts


def test_a_short_name_the_site_never_makes_is_refused_before_any_query(results):
    client = login(None)
    for url in (
        f"{BASE}/tournaments/%00",
        f"{BASE}/series/%00/ranking",
        f"{BASE}/tournaments/a%20b/standings",
    ):
        response, document = get(client, url)
        assert response.status_code == 422, url
        assert document["detail"][0]["loc"] == ["path", "slug"]


def test_the_list_of_series_follows_its_tournaments_in_two_queries(results, organiser):
    client = login(None)
    url = f"{BASE}/series"
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=f"W/{etag}").status_code == 304
    services.tournament_delete(tournament=results.tournament, confirm_slug="spring-open")
    response, document = get(client, url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert document["items"][0]["tournaments"] == []
    one_series = _queries(url)
    for n in range(4):
        services.series_save(
            user=organiser, tournaments=[], name=f"S{n}", slug=f"s-{n}", rule="best"
        )
    assert _queries(url) == one_series


def test_a_tournament_s_detail_carries_its_rules_and_their_changes(organiser, referee):
    tournament = make_tournament(creator=organiser, slug="rules-cup")
    services.rules_change(tournament=tournament, **services.profile_options("ema"))
    make_players(tournament, 4)
    session = services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=5)
    )
    services.hand_record(
        table=session.tables.get(number=1), entry=services.HandEntry(number=1, outcome="draw")
    )
    services.rules_change(tournament=tournament, user=organiser, reason="Seven.", minimum_fan=7)
    _response, detail = get(login(None), f"{BASE}/tournaments/rules-cup")
    rules = detail["rules"]
    assert (rules["profile"], rules["melded_and_concealed_kong"], rules["minimum_fan"]) == (
        "ema",
        6,
        7,
    )
    assert (rules["session_end"], rules["gong_minute"], rules["flowers"]) == ("gong", 115, True)
    assert rules["tiebreaks"] == ["table_points", "score"]
    # In the offences' order, the one every tournament's presets keep.
    assert rules["penalty_presets"][2] == {
        "offence": "false_claim",
        "kind": "deducted",
        "points": [10],
    }
    # The EMA's kong figure and its other readings are the site's, still as the profile has
    # them.
    assert "melded_and_concealed_kong" in rules["readings"]
    [change] = rules["changes"]
    assert (change["before"]["minimum_fan"], change["after"]["minimum_fan"]) == (8, 7)
    assert (change["reason"], change["hands_settled"], change["hands_changed"]) == ("Seven.", 1, 0)
