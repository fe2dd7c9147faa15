"""The hall's screens: the projector page and the panels its polls fetch, for every persona.
One turn of the cycle shows every table and every player once, as the seating pages and the
standings page list them; a poll costs one query once its panel is cached; the screen moves
on with the session and its clock."""

import re
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

import tournament
from tests import html
from tests.conftest import give_all_tables, login, make_players, make_tournament, make_user
from tests.web.test_public import table_rows
from tournament import services
from tournament.hall.clock import iso_utc
from tournament.models import Session
from tournament.server import rehearsal

PERSONAS = ["organiser", "referee", "other_referee", "anonymous"]
SLUG = "spring-open"


@dataclass(frozen=True)
class Shown:
    """One panel as a screen received it."""

    kind: str
    step: int
    steps: int
    every: int  # seconds to the next poll
    next_url: str
    html: str  # the whole answer
    panel: html.Element  # the panel's section
    head: html.Element  # the screen's header


def shown(response) -> Shown:
    assert response.status_code == 200
    page = html.parse(response.content)
    panel = page.one("section#screen-panel")
    (kind,) = [name.removeprefix("screen-") for name in panel.classes - {"screen-panel"}]
    assert "screen-panel" in panel.classes and panel.attrs["hx-swap"] == "outerHTML"
    every = re.fullmatch(r"every (\d+)s", panel.attrs["hx-trigger"])
    assert every, panel.attrs["hx-trigger"]
    step, steps = int(panel.attrs["data-step"]), int(panel.attrs["data-steps"])
    next_url = panel.attrs["hx-get"]
    head = page.one("header#screen-head")
    return Shown(kind, step, steps, int(every[1]), next_url, response.content.decode(), panel, head)


def screen_url(slug: str = SLUG) -> str:
    return reverse("screen", args=[slug])


def panel_url(step: int, phase: str, slug: str = SLUG) -> str:
    return f"{reverse('screen_panel', args=[slug])}?step={step}&phase={phase}"


def one_turn(client, slug: str = SLUG) -> list[Shown]:
    """The screen's page, then its polls, each at the address the last answer gave, until
    the cycle comes round to its first panel again (which is returned last)."""
    panels = [shown(client.get(screen_url(slug)))]
    while True:
        panels.append(shown(client.get(panels[-1].next_url)))
        if panels[-1].step == 0:
            return panels
        assert len(panels) < 100


def tables_on(panel: Shown) -> dict[int, list[int]]:
    """Table number -> its players' numbers, East to North, as a seating panel shows them."""
    return {
        int(row.one("th.num").text()): [int(n.text()) for n in row.find("td span.number")]
        for row in panel.panel.find("table.screen-table tbody tr")
    }


def names_on(panel: Shown) -> list[tuple[int, int, str]]:
    """(player number, table, seat) of each row of a by-name panel, in the order shown."""
    return [
        (int(row.one("td.name span.number").text()), int(row.one("th.num").text()), seat.text())
        for row in panel.panel.find("table.screen-table tbody tr")
        for seat in [row.find("td")[-1]]
    ]


def standings_on(panel: Shown) -> list[tuple[str, str]]:
    """(rank, player name) of each row of a standings panel, in the order shown."""
    return [
        (row.one("th.num").text(), name_of(row.one("td.name")))
        for row in panel.panel.find("table.screen-table tbody tr")
    ]


def name_of(cell: html.Element) -> str:
    """A player's name as a cell writes it first, before their Chinese name or a badge."""
    return " ".join(cell.children[0].split())


@pytest.fixture
def session_played(tournament, referee):
    """103 players (three substitutes; player 7 withdrew, a substitute sits in for them)
    drawn into session 1 and open for play, hands entered at two tables."""
    make_players(tournament, 100)
    make_players(tournament, 3, start=101, is_substitute=True)
    services.player_withdraw(player=tournament.players.get(number=7))
    session = services.session_draw(tournament=tournament, number=1, seed=20261130)
    give_all_tables(session, referee)
    services.session_open(session=session)
    for table in session.tables.filter(number__in=[3, 24]):
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=2, fan=12)
        )
    return session


# ---------------------------------------------------------------- who may read


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_screen_is_public(personas, session_in_play, persona):
    client = personas[persona]
    page = client.get(screen_url())
    first = shown(page)
    assert first.kind == "tables"
    text = page.content.decode()
    # A page of its own: no site header, no navigation, no login link.
    assert not html.elements(text, ".site-header") and not html.elements(text, "nav")
    assert not html.elements(text, f"a[href='{reverse('login')}']")
    assert reverse("login") not in text
    assert [
        s for s in html.elements(text, "script[src]") if "js/vendor/htmx.min.js" in s.attrs["src"]
    ]
    poll = shown(client.get(first.next_url))
    assert (poll.kind, poll.step) == ("names", 1)


@pytest.mark.parametrize("persona", PERSONAS)
def test_an_unknown_tournament_has_no_screen(personas, persona):
    client = personas[persona]
    assert client.get(screen_url("no-such-cup")).status_code == 404
    assert client.get(panel_url(1, "none", slug="no-such-cup")).status_code == 404


@pytest.mark.parametrize("url", [screen_url(), panel_url(1, "1-in_play")])
def test_the_screen_is_read_only(personas, session_in_play, url):
    assert personas["organiser"].post(url).status_code == 405


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_overview_links_the_screen(personas, tournament, persona):
    page = personas[persona].get(reverse("tournament", args=[SLUG])).content
    assert html.texts(page, f"a[href='{screen_url()}']") == ["Hall screen"]


def test_only_the_screen_loads_htmx(personas, session_in_play):
    client = personas["anonymous"]
    for url in (
        reverse("home"),
        reverse("tournament", args=[SLUG]),
        reverse("standings", args=[SLUG]),
        reverse("seating", args=[SLUG, 1]),
    ):
        assert "htmx" not in client.get(url).content.decode(), url


# ---------------------------------------------------------------- the cycle


def test_one_turn_shows_every_table_and_player_once(session_played):
    client = login(None)
    turn = one_turn(client)
    first, panels = turn[0], turn[:-1]
    # 25 tables by 16, 100 seats by 48, 103 players in the standings by 32.
    assert [(p.kind, p.step) for p in panels] == [
        *[("tables", s) for s in (0, 1)],
        *[("names", s) for s in (2, 3, 4)],
        *[("standings", s) for s in (5, 6, 7, 8)],
    ]
    assert {p.steps for p in turn} == {9}
    # Round again: the first panel as the page showed it.
    assert turn[-1].panel == first.panel

    # By table: every table once, with the players the seating page shows.
    seating = client.get(reverse("seating", args=[SLUG, 1])).content
    by_table: dict[int, list[int]] = {}
    for panel in panels:
        if panel.kind == "tables":
            shown_tables = tables_on(panel)
            assert not set(shown_tables) & set(by_table)
            by_table.update(shown_tables)
    assert by_table == table_rows(seating)
    assert list(by_table) == list(range(1, 26))

    # By name: every seated player once, in the by-name page's order, at their table.
    by_name_page = client.get(reverse("seating_by_name", args=[SLUG, 1])).content
    listed = [
        (int(number.text()), int(table.one("strong").text()))
        for row in html.elements(by_name_page, "table.by-name tbody tr")
        for number, table in [row.find("td.num")]
    ]
    names = [row for panel in panels if panel.kind == "names" for row in names_on(panel)]
    assert [(number, table) for number, table, _seat in names] == listed
    assert len(listed) == 100
    winds = ["East", "South", "West", "North"]
    assert all(by_table[table][winds.index(seat)] == number for number, table, seat in names)

    # The standings: every player once (the substitutes and the withdrawn player last,
    # without a rank), in the standings page's order.
    standings_page = client.get(reverse("standings", args=[SLUG]), {"page": "all"}).content
    page_order = [
        name_of(row.find("td")[2])
        for row in html.elements(standings_page, "table.standings tbody tr")
    ]
    rows = [row for panel in panels if panel.kind == "standings" for row in standings_on(panel)]
    assert [name for _rank, name in rows] == page_order
    assert len(rows) == 103
    assert [rank for rank, _name in rows[-3:]] == ["–", "–", "–"]
    assert rows[0][0] == "1"


def test_a_poll_asks_again_after_the_settings_seconds(session_in_play, settings):
    settings.SCREEN_POLL_SECONDS = 3
    client = login(None)
    first = shown(client.get(screen_url()))
    assert first.every == 3
    assert shown(client.get(first.next_url)).every == 3


@pytest.mark.parametrize("step", ["", "-3", "x", "1.5", "99999999999"])
def test_a_step_that_is_not_one_shows_the_first_panel(session_in_play, step):
    response = login(None).get(
        f"{reverse('screen_panel', args=[SLUG])}?step={step}&phase=1-in_play"
    )
    assert shown(response).step == 0


def test_a_step_past_the_end_goes_round(session_played):
    assert shown(login(None).get(panel_url(9 + 4, "1-in_play"))).step == 4


# ---------------------------------------------------------------- the session moves on


def test_a_poll_after_a_new_draw_starts_at_its_first_table(session_played, organiser, referee):
    client = login(None)
    before = shown(client.get(panel_url(3, "1-in_play")))
    assert (before.kind, before.step) == ("names", 3)
    for table in session_played.tables.all():
        services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)
    services.session_close(session=session_played)
    # Closed: the standings only, the header says so.
    closed = shown(client.get(before.next_url))
    assert closed.kind == "standings"
    assert (closed.step, closed.steps) == (0, 4)
    assert "Session closed" in closed.head.text()
    assert "provisional" not in closed.panel.text()
    services.session_draw(tournament=session_played.tournament, number=2, seed=5)
    drawn = shown(client.get(panel_url(2, closed.next_url.split("phase=")[1])))
    assert (drawn.kind, drawn.step) == ("tables", 0)
    assert "Session 2" in drawn.head.text()
    assert "Seating of session 2 by table" in drawn.panel.text()
    assert "Not started yet" in drawn.head.text()


def test_the_header_comes_with_every_poll_out_of_band(session_in_play):
    poll = shown(login(None).get(panel_url(1, "1-in_play")))
    assert poll.head.attrs["hx-swap-oob"] == "true" and "screen-head" in poll.head.classes
    assert poll.head.one("h1").text() == "Spring Open"
    assert "Session 1" in poll.head.text()


def test_before_any_draw_the_screen_welcomes(tournament):
    make_players(tournament, 8)
    first = shown(login(None).get(screen_url()))
    assert (first.kind, first.steps) == ("welcome", 1)
    assert "Welcome to Spring Open" in first.panel.text()
    assert "No session drawn yet" in first.head.text()
    assert shown(login(None).get(first.next_url)).kind == "welcome"


# ---------------------------------------------------------------- the clock


def test_the_clock_counts_from_the_opening(session_in_play):
    opened_at = timezone.now() - timedelta(minutes=30, seconds=20)
    Session.objects.filter(pk=session_in_play.pk).update(opened_at=opened_at)
    services.table_extra_time(table=session_in_play.tables.get(number=2), minutes=5)
    head = shown(login(None).get(screen_url())).head
    clock = head.one("[data-screen-clock]")
    assert clock.attrs["data-clock-ends"] == iso_utc(opened_at + timedelta(minutes=150))
    assert clock.attrs["data-clock-total"] == "9000"
    assert clock.attrs["data-text-up"] == "Time is up"
    # 119 minutes and 40 seconds left, less the time the request took.
    hours, minutes, seconds = re.fullmatch(
        r"(\d):(\d\d):(\d\d)", clock.one("strong[data-clock-left]").text()
    ).groups()
    assert 119 * 60 + 30 <= int(hours) * 3600 + int(minutes) * 60 + int(seconds) <= 119 * 60 + 40
    assert "1 table has extra time" in clock.text()


def test_when_time_is_up_the_clock_says_so(session_in_play):
    Session.objects.filter(pk=session_in_play.pk).update(
        opened_at=timezone.now() - timedelta(minutes=151)
    )
    services.session_open(session=session_in_play)  # a write: the screen's state is new
    head = shown(login(None).get(screen_url())).head
    assert "time-up" in head.one("[data-screen-clock]").classes
    assert head.one("strong[data-clock-left]").text() == "Time is up"


# ---------------------------------------------------------------- live and cached


def test_the_standings_follow_the_hands(session_played):
    client = login(None)
    before = standings_on(shown(client.get(panel_url(5, "1-in_play"))))
    # Player 1 was not among the winners: a win at their table puts them first.
    table = session_played.tables.get(seats__player__number=1)
    seat = table.seats.get(player__number=1).seat
    services.hand_record(
        table=table, entry=services.HandEntry(number=2, outcome="self_drawn", winner=seat, fan=88)
    )
    after = standings_on(shown(client.get(panel_url(5, "1-in_play"))))
    assert before != after
    assert after[0] == ("1", "Player 1")
    assert ("1", "Player 1") not in before


def test_a_poll_runs_one_query_once_its_panel_is_cached(session_played, django_assert_num_queries):
    client = login(None)
    steps = {"tables": 0, "names": 2, "standings": 5}
    # Cold: the tournament with its versions; the screen's state (the sessions with their
    # tables counted, the players counted); the session's seats for its seating.
    with django_assert_num_queries(4):
        assert shown(client.get(panel_url(0, "1-in_play"))).kind == "tables"
    # The state is cached now, the by-name page is not: the seats again.
    with django_assert_num_queries(2):
        assert shown(client.get(panel_url(2, "1-in_play"))).kind == "names"
    # The standings: their version, the players, the seats' totals.
    with django_assert_num_queries(4):
        assert shown(client.get(panel_url(5, "1-in_play"))).kind == "standings"
    # Cached: the tournament with its versions, nothing else.
    for step in steps.values():
        with django_assert_num_queries(1):
            client.get(panel_url(step, "1-in_play"))
    with django_assert_num_queries(1):
        shown(client.get(screen_url()))


def test_the_seating_panels_outlive_the_hands(session_played, django_assert_num_queries):
    client = login(None)
    tables = shown(client.get(panel_url(0, "1-in_play")))
    services.hand_record(
        table=session_played.tables.get(number=1),
        entry=services.HandEntry(number=1, outcome="draw"),
    )
    # A hand: the screen's state is counted again, the seating's page is still cached.
    with django_assert_num_queries(3):
        again = shown(client.get(panel_url(0, "1-in_play")))
    assert again.panel == tables.panel
    # A player's new name is in the seating: that page is rendered again.
    player = session_played.tournament.players.get(number=tables_on(tables)[1][0])
    services.player_save(tournament=session_played.tournament, player=player, name="Renamed")
    with django_assert_num_queries(4):
        renamed = shown(client.get(panel_url(0, "1-in_play")))
    assert "Renamed" in renamed.panel.text()


def test_each_language_has_its_own_cached_panels(session_in_play, django_assert_num_queries):
    client = login(None)
    client.get(panel_url(0, "1-in_play"))
    with django_assert_num_queries(1):
        client.get(panel_url(0, "1-in_play"), HTTP_ACCEPT_LANGUAGE="en")
    # The state is shared; the panel, in another language, is rendered from the seats.
    with django_assert_num_queries(2):
        client.get(panel_url(0, "1-in_play"), HTTP_ACCEPT_LANGUAGE="zh-hans")


# ---------------------------------------------------------------- a big event


# The largest panel measured 8.2 kB (48 names with their tables); far above, something grew.
PANEL_BYTES_AT_MOST = 12_000


def test_every_panel_of_a_thousand_player_event_is_small(db):
    organiser = make_user("host")
    tournament = make_tournament(creator=organiser, slug="world-open")
    for fields in rehearsal.planned_players(players=1000, seed=1):
        services.player_save(tournament=tournament, **fields)
    session = services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=7)
    )
    for table in session.tables.all()[:100]:
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=1, fan=8)
        )
    turn = one_turn(login(None), slug="world-open")[:-1]
    assert [p.kind for p in turn].count("tables") == 16
    assert len(turn) == 16 + 21 + 32
    sizes = [len(p.html.encode()) for p in turn]
    assert max(sizes) <= PANEL_BYTES_AT_MOST, max(sizes)
    # The whole seating by name (a page of 1,000 rows) weighs many panels.
    by_name = login(None).get(reverse("seating_by_name", args=["world-open", 1]))
    assert len(by_name.content) > 10 * max(sizes)


def test_the_vendored_htmx_is_the_version_its_readme_names():
    vendor = Path(tournament.__file__).parent / "static" / "js" / "vendor"
    version = re.search(r"htmx (\d+\.\d+\.\d+)", (vendor / "README.md").read_text())[1]
    assert f'version:"{version}"' in (vendor / "htmx.min.js").read_text()
    assert "Zero-Clause BSD" in (vendor / "htmx.LICENSE").read_text()
