"""The pages an event reads most run the same queries however big the tournament is.

Each page is read in the same tournament shape at two sizes (8 players with 1 session
drawn, 24 players with 3): the count must not move. The seating pages are also read at
1,000 players, the size the product is built for (five times the largest in-person event),
seated by plan and by lot.
"""

import pytest
from django.urls import reverse

from tests import html
from tests.conftest import (
    SESSION_READS,
    download,
    login,
    make_players,
    make_tournament,
    make_user,
)
from tournament import services
from tournament.models import Tournament
from tournament.players import player_links
from tournament.services import exports

# 8 players and 1 session drawn; 24 players and 3 sessions drawn.
SIZES = [(8, 1), (24, 3)]


def build(players: int, drawn: int, *, method: str = "lot"):
    """A tournament of 4 sessions, ``drawn`` of them drawn: the earlier ones played and
    closed, the last one in play with a few hands entered at two tables (a win, a draw)."""
    organiser = make_user("host")
    tournament = make_tournament(creator=organiser, slug="size", seating_method=method)
    make_players(tournament, players)
    for number in range(1, drawn + 1):
        # A planned tournament keeps its plan's seed: only the first draw gives one.
        seed = number if method == "lot" or number == 1 else None
        session = services.session_draw(tournament=tournament, number=number, seed=seed)
        services.session_open(session=session)
        tables = list(session.tables.order_by("number"))
        for table in tables[:2]:
            services.hand_record(
                table=table,
                entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8),
            )
            services.hand_record(table=table, entry=services.HandEntry(number=2, outcome="draw"))
        if number < drawn:
            for table in tables:
                services.table_confirm(
                    table=table, user=organiser, record_missing_as_not_played=True
                )
            services.session_close(session=session)
    return tournament, organiser


def read(client, url, django_assert_num_queries, queries):
    with django_assert_num_queries(queries):
        response = client.get(url)
    assert response.status_code == 200
    return response


def table_rows(page) -> list[str]:
    """The numbers of the tables a seating page lists, in its order."""
    rows = html.elements(page, "table.seating tbody tr")
    return [row.attrs["id"].removeprefix("table-") for row in rows]


def plan_rows(page) -> list[str]:
    """The command's numbers of the players the plan's list shows, in its order."""
    return [row.find("td")[0].text() for row in html.elements(page, "table.plan-players tbody tr")]


@pytest.mark.parametrize(("players", "drawn"), SIZES)
def test_the_seating_page(db, django_assert_num_queries, players, drawn):
    tournament, _organiser = build(players, drawn)
    url = reverse("seating", args=[tournament.slug, drawn])
    # The session with its tournament and versions, then (not cached yet) its seats with
    # tables and players, and the figures: the plan, the players, every drawn seat, the
    # sessions the draw's commitment covers.
    response = read(login(None), url, django_assert_num_queries, 6)
    assert len(table_rows(response.content)) == players // 4
    # Read again: the page kept whole for the spectators (the session with its tournament
    # and versions); for a signed-in reader (their session, account and roles), the
    # session's seats (one query: not worth a cache) and the figures from the cache under
    # the same version.
    read(login(None), url, django_assert_num_queries, 1)
    read(login(make_user("reader")), url, django_assert_num_queries, 1 + SESSION_READS + 4)


def test_the_seating_figures_outlive_the_hands_but_not_a_seating_change(
    db, django_assert_num_queries
):
    tournament, _organiser = build(8, 1)
    url = reverse("seating", args=[tournament.slug, 1])
    read(login(None), url, django_assert_num_queries, 6)
    # A hand changes the standings, not the seating: the figures stay cached.
    table = tournament.sessions.get(number=1).tables.get(number=1)
    services.hand_record(table=table, entry=services.HandEntry(number=3, outcome="draw"))
    read(login(None), url, django_assert_num_queries, 1)
    # A player's new name is in the figures (the plan's players): they are recounted.
    player = tournament.players.get(number=1)
    services.player_save(tournament=tournament, player=player, name="Renamed")
    response = read(login(None), url, django_assert_num_queries, 6)
    # The seating's rows too: the new name is in them.
    cells = html.elements(response.content, "table.seating td")
    (renamed,) = [cell.text() for cell in cells if cell.one("strong").text() == "1"]
    assert renamed.startswith("1 Renamed")


@pytest.mark.parametrize(("players", "drawn"), SIZES)
def test_the_seating_page_of_a_planned_tournament(db, django_assert_num_queries, players, drawn):
    tournament, _organiser = build(players, drawn, method="planned")
    url = reverse("seating", args=[tournament.slug, drawn])
    response = read(login(None), url, django_assert_num_queries, 6)
    # The plan's player list: one row for each player in the command.
    assert len(plan_rows(response.content)) == players


@pytest.mark.parametrize(("players", "drawn"), SIZES)
def test_the_seating_by_name(db, django_assert_num_queries, players, drawn):
    tournament, _organiser = build(players, drawn)
    url = reverse("seating_by_name", args=[tournament.slug, drawn])
    # The tournament, the session, its seats with tables and players.
    response = read(login(None), url, django_assert_num_queries, 3)
    page = response.content.decode()
    assert page.count(reverse("player_schedule", args=[tournament.slug, 1])) == 1
    assert len(html.elements(page, "table.by-name tbody tr")) == players


@pytest.mark.parametrize(("players", "drawn"), SIZES)
def test_the_overview(db, django_assert_num_queries, players, drawn):
    tournament, organiser = build(players, drawn)
    url = reverse("tournament", args=[tournament.slug])
    # The tournament, its sessions with their tables counted, the active players, the
    # draw's commitments, and its days as its timetable and openings give them (it was given
    # none of its own).
    response = read(login(None), url, django_assert_num_queries, 5)
    assert len(html.elements(response.content, "td.seed")) == drawn
    # An organiser's: the session (unless kept in Redis) and account, the role checks (each asked
    # once) and the draw form, besides the five.
    read(login(organiser), url, django_assert_num_queries, SESSION_READS + 9)


@pytest.mark.parametrize(("players", "drawn"), SIZES)
@pytest.mark.parametrize("method", ["lot", "planned"])
def test_the_player_page(db, django_assert_num_queries, players, drawn, method):
    tournament, _organiser = build(players, drawn, method=method)
    url = reverse("player_schedule", args=[tournament.slug, 1])
    # The player with their tournament and its versions; (not cached yet) every player's
    # seating in one reading: the sessions published and every seat in them with its player
    # (and a planned tournament's plan and the planned players), and the players' ids; the
    # ranks (not cached yet): the players and the seat results; the statistics: the hands of
    # the player's tables with the penalties. The same whatever the number of players.
    seating = 2 + (2 if method == "planned" else 0) + 1
    response = read(login(None), url, django_assert_num_queries, 1 + seating + 2 + 1)
    assert len(response.context["schedule"]) == drawn
    assert len(response.context["planned"]) == (4 - drawn if method == "planned" else 0)
    assert len(response.context["record"].ranks) == drawn
    # Read again: the seating and the ranks from the cache under the same versions; the
    # statistics read afresh (every hand at the player's tables changes them).
    read(login(None), url, django_assert_num_queries, 1 + 1)
    # Another player's page: their seating was kept with the first one's, the ranks too.
    other = reverse("player_schedule", args=[tournament.slug, 2])
    response = read(login(None), other, django_assert_num_queries, 1 + 1)
    assert len(response.context["schedule"]) == drawn
    assert len(response.context["planned"]) == (4 - drawn if method == "planned" else 0)
    assert len(response.context["schedule"]) == drawn


def test_the_player_page_keeps_its_sessions_until_the_seating_changes(
    db, django_assert_num_queries
):
    """The sessions' tables are kept drawn under the seating version: a hand leaves them
    (the statistics beside them count it at once), a new name for an opponent does not."""
    tournament, _organiser = build(8, 1)
    url = reverse("player_schedule", args=[tournament.slug, 1])
    # Every player's seating (3: ``test_the_player_page``), the ranks, the statistics.
    page = read(login(None), url, django_assert_num_queries, 1 + 3 + 2 + 1).content.decode()
    opponent = html.elements(page, "#session-1 a")[1].text()
    hands = int(html.elements(page, "#stat-hands-played")[0].text())
    table = tournament.sessions.get(number=1).tables.get(seats__player__number=1)
    services.hand_record(table=table, entry=services.HandEntry(number=3, outcome="draw"))
    # The hand: the seating as kept, the ranks recounted (the players, the seat results),
    # the statistics read afresh.
    page = read(login(None), url, django_assert_num_queries, 1 + 2 + 1).content.decode()
    assert int(html.elements(page, "#stat-hands-played")[0].text()) == hands + 1
    assert html.elements(page, "#session-1 a")[1].text() == opponent
    # A new name for the opponent raises the seating version: the sessions are read again.
    number = int(opponent.split()[0])
    renamed = tournament.players.get(number=number)
    services.player_save(tournament=tournament, player=renamed, name="Renamed Opponent")
    page = read(login(None), url, django_assert_num_queries, 1 + 3 + 2 + 1).content.decode()
    assert html.elements(page, "#session-1 a")[1].text() == f"{number} Renamed Opponent"
    # In the other language, the sessions are drawn in it, not taken from the English copy.
    chinese = login(None)
    chinese.cookies["django_language"] = "zh-hans"
    page = chinese.get(url).content.decode()
    headings = [th.text() for th in html.elements(page, "table th")]
    assert headings and not any(heading == "Session" for heading in headings)


@pytest.mark.parametrize(("players", "drawn"), SIZES)
def test_the_statistics_page(db, django_assert_num_queries, players, drawn):
    tournament, _organiser = build(players, drawn)
    url = reverse("statistics", args=[tournament.slug])
    # The tournament, its version, then (not cached yet) every seat, every hand and the
    # biggest hands' winners; then the desk's calls and rulings, read each time.
    response = read(login(None), url, django_assert_num_queries, 7)
    assert len(response.context["figures"].biggest) == min(10, 2 * drawn)
    # Read again: the hands' figures come from the cache under the same version.
    read(login(None), url, django_assert_num_queries, 4)


@pytest.mark.parametrize(("players", "drawn"), SIZES)
def test_the_referee_home(db, django_assert_num_queries, players, drawn):
    tournament, organiser = build(players, drawn)
    url = reverse("referee_home", args=[tournament.slug])
    # The session (unless kept in Redis) and account, the tournament, the role check (an organiser:
    # 1), then the sessions, the tables in play with their referees, and their players' names.
    response = read(login(organiser), url, django_assert_num_queries, SESSION_READS + 6)
    ((in_play, _table),) = response.context["sessions"]
    assert [row.entered for row in in_play.tables][:3] == [2, 2, 0][: players // 4]
    assert len(response.context["closed_sessions"]) == drawn - 1
    assert len(response.context["not_open_sessions"]) == 0


@pytest.mark.parametrize(("players", "drawn"), SIZES)
def test_the_score_sheet(db, django_assert_num_queries, players, drawn):
    tournament, organiser = build(players, drawn)
    url = reverse("table_sheet", args=[tournament.slug, drawn, 1])
    # The session (unless kept in Redis) and account, the tournament, the role check (1), the table,
    # the sheet (its hands, their penalties, the players, whether the table was ever reopened); no
    # hand corrected, so no revision to read; the table's calls for a referee.
    response = read(login(organiser), url, django_assert_num_queries, SESSION_READS + 9)
    assert response.context["sheet"].entered == 2


@pytest.mark.parametrize("method", ["planned", "lot"])
def test_the_seating_pages_answer_at_a_thousand_players(db, method):
    organiser = make_user("host")
    tournament = make_tournament(creator=organiser, slug="world-open", seating_method=method)
    make_players(tournament, 1000)
    services.session_draw(tournament=tournament, number=1, seed=7)
    client = login(None)
    url = reverse("seating", args=[tournament.slug, 1])
    # The 250 tables by pages of 100, as a phone reads them; all of them to print.
    first = client.get(url).content
    assert table_rows(first) == [str(n) for n in range(1, 101)]
    assert "Page 1 of 3" in html.text(first)
    assert "?page=2" in [a.attrs["href"] for a in html.elements(first, "a[rel=next]")]
    last = client.get(url, {"page": "3"}).content
    assert table_rows(last) == [str(n) for n in range(201, 251)]
    assert len(table_rows(client.get(url, {"page": "all"}).content)) == 250
    # The plan's 1,000 players, likewise, on a parameter of their own.
    if method == "planned":
        assert plan_rows(first) == [str(n) for n in range(1, 101)]
        second = client.get(url, {"plan-page": "2"}).content
        assert plan_rows(second) == [str(n) for n in range(101, 201)]
        assert "open" in html.one(second, "details#reproduce.no-print").attrs
        assert table_rows(second)[:2] == ["1", "2"]
    else:
        assert plan_rows(first) == []
    by_name = client.get(reverse("seating_by_name", args=[tournament.slug, 1]))
    assert by_name.status_code == 200


@pytest.mark.parametrize(("players", "drawn"), SIZES)
def test_the_standings_page(db, django_assert_num_queries, players, drawn):
    tournament, _organiser = build(players, drawn)
    url = reverse("standings", args=[tournament.slug])
    # The tournament with its versions and count of stored downloads (the page's key); the
    # standings: the players, the seats' totals; the tables not confirmed yet; the
    # downloads' files behind the data (a note beside their links); the last change of the
    # rules after play started (the line above the table).
    response = read(login(None), url, django_assert_num_queries, 6)
    assert len(html.elements(response.content, "tr")) == players + 1
    # Read again: the page kept whole for the spectators, found by the tournament's query
    # alone; for a signed-in reader (their session, account and roles), the standings kept
    # by the selectors, the count of tables not confirmed and the downloads behind (the
    # tables are drawn afresh for them), the rules' last change.
    read(login(None), url, django_assert_num_queries, 1)
    read(login(make_user("reader")), url, django_assert_num_queries, 1 + SESSION_READS + 6)


@pytest.mark.parametrize(("players", "drawn"), SIZES)
def test_the_workbook(db, django_assert_num_queries, players, drawn):
    tournament, _organiser = build(players, drawn)
    url = reverse("standings_xlsx", args=[tournament.slug])
    # Built by the task queue: the tournament's versions twice (the file's key and the
    # standings': outside a request, no versions are held), the standings' players and
    # totals, its days (timetable and sessions opened, for the Standings' heading), the last
    # session of the withdrawn players, the substitutes seated, every played
    # seat once for the session sheets, the seats' names and the hands for the Hands sheet,
    # the seats and the penalties for their sheet, the record of fouls (the sheets' penalties
    # and the rulings; the seats of their tables too, when there are any: none here), the
    # seating, the rules' changes after play (the Rules sheet): one query each, whatever the
    # number of sessions.
    as_the_task_reads_it = Tournament.objects.get(pk=tournament.pk)
    with django_assert_num_queries(WORKBOOK_QUERIES):
        exports.BUILDERS["standings.xlsx"](as_the_task_reads_it)
    download(login(None), url)
    # Downloaded once built: the tournament, its version, its stored files, the bytes.
    read(login(None), url, django_assert_num_queries, 4)


WORKBOOK_QUERIES = 15


@pytest.mark.parametrize(("players", "drawn"), SIZES)
def test_the_paper_score_sheets(db, django_assert_num_queries, players, drawn):
    tournament, organiser = build(players, drawn)
    url = reverse("score_sheets", args=[tournament.slug, drawn])
    # The session (unless kept in Redis) and account, the tournament, the role check (1), the
    # session, and every table's seats with their players in one.
    response = read(login(organiser), url, django_assert_num_queries, SESSION_READS + 5)
    assert len(response.context["sheets"]) == players // 4


@pytest.mark.parametrize(("players", "drawn"), SIZES)
def test_the_paper_penalty_record(db, django_assert_num_queries, players, drawn):
    tournament, organiser = build(players, drawn)
    session = tournament.sessions.get(number=drawn)
    late = services.PenaltyEntry(offender=1, kind="deducted", points=10, reason="Lateness")
    for table in session.tables.all():
        services.hand_record(
            table=table, entry=services.HandEntry(number=3, outcome="draw", penalties=[late])
        )
    url = reverse("penalty_sheet", args=[tournament.slug, drawn])
    # The session (unless kept in Redis) and account, the tournament, the role check (1), the
    # session, the session's penalties, the seats that name their offenders.
    response = read(login(organiser), url, django_assert_num_queries, SESSION_READS + 6)
    assert len(response.context["record"].lines) == players // 4


@pytest.mark.parametrize(("players", "drawn"), SIZES)
@pytest.mark.parametrize("method", ["lot", "planned"])
def test_the_players_own_page(db, django_assert_num_queries, players, drawn, method):
    tournament, _organiser = build(players, drawn, method=method)
    services.check_in_open(tournament=tournament, number=drawn)
    player = tournament.players.get(number=1)
    url = reverse("player_link", args=[player_links.player_token(player)])
    # The player with the tournament, the timetable with the player's check-ins, the seats
    # of the player's tables, their hands; the version, then (not read yet in this process)
    # the standings: the players, their seat results; the calls of the table in play.
    response = read(login(None), url, django_assert_num_queries, 8)
    page = response.context["page"]
    assert page.current.number == drawn
    assert len(page.played) == drawn - 1
    assert [line.number for line in page.current.hands] == (
        [1, 2] if page.current.table <= 2 else []
    )
    # Read again (the page asks every 30 seconds): each player's standing comes from the
    # cache.
    read(login(None), url, django_assert_num_queries, 6)
