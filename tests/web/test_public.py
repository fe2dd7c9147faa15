"""Pages anyone may read: the tournament list, a tournament's overview, a session's seating."""

import hashlib
import re

import pytest
from django.urls import reverse

from tests import html
from tests.conftest import login, make_players
from tournament import services
from tournament.language.formatting import SEAT_LABELS

PERSONAS = ["organiser", "referee", "other_referee", "anonymous"]
SEED = 987654321


@pytest.fixture
def drawn(tournament):
    """Session 1 drawn for 15 regular players and a substitute, not yet open."""
    make_players(tournament, 15)
    services.player_save(
        tournament=tournament, number=16, name="Sub Stitute", name_zh="替补", is_substitute=True
    )
    return services.session_draw(tournament=tournament, number=1, seed=SEED)


def table_rows(page) -> dict[int, list[int]]:
    """table number -> the player numbers shown in its P1..P4 cells, left to right."""
    return {
        int(row.attrs["id"].removeprefix("table-")): [
            int(cell.find("strong")[0].text()) for cell in row.find("td") if cell.find("strong")
        ]
        for row in html.elements(page, "tr[id]")
        if row.attrs["id"].startswith("table-")
    }


# ---------------------------------------------------------------- who may read


@pytest.mark.parametrize("persona", PERSONAS)
def test_home_lists_tournaments_for_everyone(personas, tournament, persona):
    response = personas[persona].get(reverse("home"))
    assert response.status_code == 200
    page = response.content
    assert html.elements(page, f"a[href='{reverse('tournament', args=['spring-open'])}']")
    assert html.elements(page, f"a[href='{reverse('tournament', args=['autumn-cup'])}']")


@pytest.mark.parametrize("persona", PERSONAS)
def test_tournament_overview_is_public(personas, tournament, drawn, persona):
    response = personas[persona].get(reverse("tournament", args=[tournament.slug]))
    assert response.status_code == 200
    page = response.content
    assert html.texts(page, "h1") == ["Spring Open"]
    assert "16 active players" in html.text(page)
    assert html.texts(page, "td.seed") == [str(SEED)]


@pytest.mark.parametrize("persona", PERSONAS)
def test_seating_page_is_public(personas, tournament, drawn, persona):
    response = personas[persona].get(reverse("seating", args=[tournament.slug, 1]))
    assert response.status_code == 200
    assert len(table_rows(response.content.decode())) == 4


@pytest.mark.parametrize(
    "url",
    [
        reverse("tournament", args=["no-such-cup"]),
        reverse("seating", args=["no-such-cup", 1]),
        reverse("seating", args=["spring-open", 2]),
        reverse("seating", args=["spring-open", 0]),
    ],
)
@pytest.mark.parametrize("persona", ["organiser", "anonymous"])
def test_unknown_tournament_or_session_is_404(personas, drawn, url, persona):
    assert personas[persona].get(url).status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        reverse("home"),
        reverse("tournament", args=["spring-open"]),
        reverse("seating", args=["spring-open", 1]),
    ],
)
@pytest.mark.parametrize("persona", ["organiser", "anonymous"])
def test_post_to_a_public_page_is_405(personas, drawn, url, persona):
    assert personas[persona].post(url).status_code == 405


@pytest.mark.parametrize("persona", ["organiser", "anonymous"])
def test_head_on_a_public_page_is_allowed(personas, drawn, persona):
    assert personas[persona].head(reverse("seating", args=["spring-open", 1])).status_code == 200


# ---------------------------------------------------------------- the overview's figures


def test_overview_shows_confirmed_tables_and_active_players(client, organiser, session_in_play):
    tournament = session_in_play.tournament
    services.session_draw(tournament=tournament, number=2, seed=2)
    table = session_in_play.tables.get(number=3)
    services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    services.player_withdraw(player=tournament.players.get(number=5))

    page = client.get(reverse("tournament", args=[tournament.slug])).content

    confirmed = [text for text in html.texts(page, "td.num") if re.fullmatch(r"\d+ / \d+", text)]
    assert confirmed == ["1 / 4", "0 / 4"]
    assert "15 active players" in html.text(page)


@pytest.mark.parametrize("sessions", [1, 3])
def test_overview_reads_the_same_number_of_queries_whatever_the_sessions(
    client, tournament, django_assert_num_queries, sessions
):
    make_players(tournament, 16)
    for number in range(1, sessions + 1):
        services.session_draw(tournament=tournament, number=number, seed=number)
    # The tournament, its sessions with their tables counted, the active players, the
    # draw's commitments, and its days as the timetable and the openings give them (it was
    # given none of its own).
    with django_assert_num_queries(5):
        response = client.get(reverse("tournament", args=[tournament.slug]))
    assert len(html.elements(response.content, "td.seed")) == sessions


@pytest.mark.parametrize("players", [8, 32])
def test_seating_page_reads_the_same_number_of_queries_whatever_the_tables(
    client, tournament, django_assert_num_queries, players
):
    make_players(tournament, players)
    services.session_draw(tournament=tournament, number=1, seed=SEED)
    # The session with its tournament and versions, its seats with tables and players;
    # then (not cached yet) the seating figures: the plan, the players, the seats, the
    # sessions the draw's commitment covers.
    with django_assert_num_queries(6):
        response = client.get(reverse("seating", args=[tournament.slug, 1]))
    assert len(table_rows(response.content.decode())) == players // 4


# ---------------------------------------------------------------- the seating page


def test_seating_page_shows_the_seed_and_every_stored_seat(client, tournament, drawn):
    page = client.get(reverse("seating", args=[tournament.slug, 1])).content
    assert html.texts(page, "span.seed") == [str(SEED)]
    stored = {}
    for seat in drawn.seats.select_related("player", "table"):
        stored.setdefault(seat.table.number, [None] * 4)[seat.seat] = seat.player.number
    assert table_rows(page) == stored
    assert sorted(n for row in stored.values() for n in row) == list(range(1, 17))


def test_seating_page_shows_names_lots_and_the_substitute(client, tournament, drawn):
    page = client.get(reverse("seating", args=[tournament.slug, 1])).content.decode()
    substitute = drawn.seats.get(player__number=16)
    (row,) = html.elements(page, f"tr#table-{substitute.table.number}")
    cell = row.find("td")[substitute.seat]
    assert cell.text() == f"16 Sub Stitute 替补 substitute lot {substitute.lot}"
    assert [e.text() for e in cell.find("strong")] == ["16"]
    assert [e.attrs["lang"] for e in cell.find("span")[:1]] == ["zh"]
    assert [e.text() for e in cell.find("span.badge")] == ["substitute"]
    assert [e.text() for e in cell.find("small.muted")] == [f"lot {substitute.lot}"]
    headings = html.texts(page, "table.seating thead th[scope=col]")
    assert headings == ["Table", *(f"{label} ({wind})" for label, wind in zip(
        SEAT_LABELS, ("East", "South", "West", "North"), strict=True))]  # fmt: skip


def test_verification_example_is_the_sha256_of_seed_and_number(client, tournament, drawn):
    page = client.get(reverse("seating", args=[tournament.slug, 1])).content
    codes = html.texts(page, "code")
    match = re.search(r"printf '%s' '(\d+):(\d+)' \| sha256sum → ([0-9a-f]{64})", html.text(page))
    assert match is not None
    seed, number, key = match.groups()
    # The command and its answer, each as code to copy.
    assert [f"printf '%s' '{seed}:{number}' | sha256sum", key] in [
        codes[i : i + 2] for i in range(len(codes))
    ]
    assert int(seed) == SEED
    assert 1 <= int(number) <= 16
    assert key == hashlib.sha256(f"{seed}:{number}".encode()).hexdigest()
    # The example is the player in table 1, seat P1.
    assert drawn.seats.get(table__number=1, seat=0).player.number == int(number)


def test_the_lots_follow_the_published_rule(client, tournament, drawn):
    """Sorting players by sha256("seed:number") gives the lots, tables and seats shown."""
    page = client.get(reverse("seating", args=[tournament.slug, 1])).content
    by_key = sorted(
        range(1, 17), key=lambda n: (hashlib.sha256(f"{SEED}:{n}".encode()).hexdigest(), n)
    )
    expected = {table: by_key[(table - 1) * 4 : table * 4] for table in range(1, 5)}
    assert table_rows(page) == expected


# ---------------------------------------------------------------- organiser-only controls


@pytest.mark.parametrize("persona", PERSONAS)
def test_draw_form_only_for_the_organiser(personas, tournament, persona):
    make_players(tournament, 4)
    page = personas[persona].get(reverse("tournament", args=[tournament.slug])).content
    draw_form = f"form[action='{reverse('session_draw', args=[tournament.slug])}']"
    assert bool(html.elements(page, draw_form)) == (persona == "organiser")
    assert ("Seat a session" in html.text(page)) == (persona == "organiser")


@pytest.mark.parametrize("persona", PERSONAS)
def test_open_button_only_for_the_organiser(personas, tournament, drawn, persona):
    page = personas[persona].get(reverse("tournament", args=[tournament.slug])).content
    open_form = f"form[action='{reverse('session_open', args=[tournament.slug, 1])}']"
    assert bool(html.elements(page, open_form)) == (persona == "organiser")
    assert reverse("session_close", args=[tournament.slug, 1]) not in page.decode()


@pytest.mark.parametrize("persona", PERSONAS)
def test_close_button_only_for_the_organiser(personas, tournament, session_in_play, persona):
    page = personas[persona].get(reverse("tournament", args=[tournament.slug])).content
    close_form = f"form[action='{reverse('session_close', args=[tournament.slug, 1])}']"
    assert bool(html.elements(page, close_form)) == (persona == "organiser")
    open_form = f"form[action='{reverse('session_open', args=[tournament.slug, 1])}']"
    assert not html.elements(page, open_form)


@pytest.mark.parametrize("persona", PERSONAS)
def test_settings_and_players_links_only_for_the_organiser(personas, tournament, persona):
    html = personas[persona].get(reverse("tournament", args=[tournament.slug])).content.decode()
    assert (reverse("tournament_edit", args=[tournament.slug]) in html) == (persona == "organiser")
    assert (reverse("player_list", args=[tournament.slug]) in html) == (persona == "organiser")


@pytest.mark.parametrize("persona", PERSONAS)
def test_seating_page_has_no_organiser_controls_for_others(personas, tournament, drawn, persona):
    html = personas[persona].get(reverse("seating", args=[tournament.slug, 1])).content.decode()
    assert reverse("session_draw", args=[tournament.slug]) not in html
    assert reverse("session_open", args=[tournament.slug, 1]) not in html
    assert (reverse("player_list", args=[tournament.slug]) in html) == (persona == "organiser")


@pytest.mark.parametrize(
    ("persona", "can_create"),
    [("organiser", True), ("referee", False), ("other_referee", False), ("anonymous", False)],
)
def test_new_tournament_link_only_for_those_who_may_create(personas, persona, can_create):
    html = personas[persona].get(reverse("home")).content.decode()
    assert (reverse("tournament_create") in html) == can_create


def test_every_session_drawn_shows_no_draw_form(organiser, tournament):
    make_players(tournament, 4)
    for number in range(1, tournament.session_count + 1):
        services.session_draw(tournament=tournament, number=number, seed=number)
    page = login(organiser).get(reverse("tournament", args=[tournament.slug])).content
    assert "Every session is drawn." in html.text(page)
    assert not html.elements(
        page, f"form[action='{reverse('session_draw', args=[tournament.slug])}']"
    )


def test_a_players_page_shows_an_opponents_new_name_and_a_session_drawn_since(
    client, tournament, drawn
):
    """The seating a player's page reads is kept in each process under the seating key and
    the sessions shown: a rename, or a session drawn and published, shows on the next read."""
    seat = drawn.seats.get(player__number=1)
    opponent = drawn.seats.filter(table=seat.table).exclude(pk=seat.pk).first().player
    url = reverse("player_schedule", args=[tournament.slug, 1])
    assert opponent.name in client.get(url).content.decode()
    services.player_save(tournament=tournament, player=opponent, name="Renamed Opponent")
    page = client.get(url).content
    assert "Renamed Opponent" in html.text(page) and not html.elements(page, "#session-2")
    services.session_draw(tournament=tournament, number=2, seed=5)
    assert html.elements(client.get(url).content, "#session-2")
