"""Every seating method drawn from the web pages, the figures shown, and the seating pages.

The organiser posts to the draw view as the form does; each method is checked for what it
promises (a planned schedule seats no pair twice and is what the published command prints,
"random" avoids the last session's pairs, "standings", "serpentine" and "top_tables" seat
by the standings as they say).
"""

import json
import os
import shlex
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest
from django.urls import reverse

from tests import html
from tests.conftest import login, make_players
from tournament import services
from tournament.models import SeatingPlan, Session
from tournament.seating.schedule import plan_schedule
from tournament.selectors.seating import drawn_tables, player_planned_sessions
from tournament.selectors.standings import tournament_standings

PERSONAS = ["organiser", "referee", "other_referee", "anonymous"]
ROOT = Path(__file__).resolve().parents[2]


def draw(client, tournament, number, **fields):
    data = {"number": str(number), **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse("session_draw", args=[tournament.slug]), data)


def tables_of(tournament, number):
    return drawn_tables(tournament)[number]


def pairs(tables):
    return {frozenset(pair) for table in tables for pair in combinations(table, 2)}


@pytest.fixture
def sixteen(tournament):
    """16 players numbered 101..116 (so command-line player i is registration 100 + i)."""
    make_players(tournament, 16, start=101)
    return tournament


@pytest.fixture
def with_hands(session_in_play, tournament, referee):
    """Session 1 drawn by lot with one hand per table: a standings to seat from."""
    for table in session_in_play.tables.order_by("number"):
        services.hand_record(
            table=table,
            entry=services.HandEntry(
                number=1, outcome="self_drawn", winner=(table.number - 1) % 4, fan=8 + table.number
            ),
            user=referee,
        )
    return tournament


def ranking(tournament):
    return [row.player.number for row in tournament_standings(tournament)]


# ---------------------------------------------------------------- choosing the method


def test_a_new_tournament_is_planned_as_a_whole_by_default(organiser):
    page = login(organiser).get(reverse("tournament_create")).content
    assert (
        html.one(page, "select[name=seating_method] option[selected]").attrs["value"] == "planned"
    )
    assert html.elements(page, "[name=separate_by]")


def test_the_method_and_the_groups_are_saved_with_the_tournament(organiser):
    response = login(organiser).post(
        reverse("tournament_create"),
        {
            "name": "Club Cup",
            "slug": "club-cup",
            "session_count": "5",
            "session_minutes": "150",
            "criterion_1": "table_points",
            "seating_method": "serpentine",
            "separate_by": "team",
        },
    )
    assert response.status_code == 302
    cup = organiser.organised_tournaments.get(slug="club-cup")
    assert (cup.seating_method, cup.separate_by) == ("serpentine", "team")


def test_the_draw_form_starts_with_the_tournament_method(tournament, organiser):
    services.tournament_update(tournament=tournament, seating_method="standings")
    page = login(organiser).get(reverse("session_draw", args=[tournament.slug])).content
    assert html.one(page, "select[name=method] option[selected]").attrs["value"] == "standings"
    assert html.elements(page, "[name=top]")


def test_a_draw_without_a_method_uses_the_tournament_method(sixteen, organiser):
    services.tournament_update(tournament=sixteen, seating_method="planned")
    assert draw(login(organiser), sixteen, 1, seed=5).status_code == 302
    assert Session.objects.get(tournament=sixteen, number=1).method == "planned"


# ---------------------------------------------------------------- planned


def test_planned_sessions_never_seat_a_pair_twice(sixteen, organiser):
    client = login(organiser)
    for number in (1, 2):
        assert draw(client, sixteen, number, method="planned", seed=777).status_code == 302
    first, second = tables_of(sixteen, 1), tables_of(sixteen, 2)
    assert pairs(first).isdisjoint(pairs(second))
    assert {s.seed for s in sixteen.sessions.all()} == {777}
    assert SeatingPlan.objects.get(tournament=sixteen).stats["extra_meetings"] == 0


def test_the_plan_is_what_the_published_command_prints(sixteen, organiser):
    draw(login(organiser), sixteen, 1, method="planned", seed=777)
    schedule = plan_schedule(16, 4, seed=777)
    expected = [tuple(100 + p for p in table) for table in schedule.sessions[0]]
    assert tables_of(sixteen, 1) == expected
    plan = SeatingPlan.objects.get(tournament=sixteen)
    assert plan.players == list(range(101, 117))
    assert plan.reproducible


def test_the_seating_page_shows_method_seed_command_and_figures(sixteen, organiser, personas):
    draw(login(organiser), sixteen, 1, method="planned", seed=777)
    page = html.parse(personas["anonymous"].get(reverse("seating", args=[sixteen.slug, 1])).content)
    text = page.text()
    assert "Planned for the whole tournament" in text
    assert "777" in text
    command = "python -m tournament.seating --players 16 --sessions 4 --seed 777"
    assert command in [code.text() for code in page.find("code")]
    assert page.find("#plan-figures") and page.find("#drawn-figures")
    for label in ("Extra meetings", "Lower bound", "Same-group pairs", "Seat spread"):
        assert label in text
    # The command's player 1 is the first active player by registration number.
    assert html.rows_of(page.one("table.plan-players"))[1][:2] == ["1", "101 Player 101"]
    assert "sha256sum" not in text


def test_the_groups_file_is_shown_with_the_command(sixteen, organiser):
    for player in sixteen.players.all():
        services.player_save(tournament=sixteen, player=player, team=f"Club {player.number % 4}")
    services.tournament_update(tournament=sixteen, separate_by="team")
    draw(login(organiser), sixteen, 1, method="planned", seed=9)
    html = login(organiser).get(reverse("seating", args=[sixteen.slug, 1])).content.decode()
    assert "--seed 9 --groups groups.json" in html
    assert SeatingPlan.objects.get(tournament=sixteen).stats["group_conflicts"] == 0


def test_a_plan_keeps_its_seed(sixteen, organiser):
    client = login(organiser)
    draw(client, sixteen, 1, method="planned", seed=777)
    response = draw(client, sixteen, 2, method="planned", seed=778)
    assert response.status_code == 200
    assert "published with seed 777" in response.content.decode()
    assert not sixteen.sessions.filter(number=2).exists()


def test_re_planning_after_a_withdrawal_and_a_substitute_keeps_drawn_sessions(sixteen, organiser):
    client = login(organiser)
    draw(client, sixteen, 1, method="planned", seed=31)
    draw(client, sixteen, 2, method="planned", seed=31)
    before = {n: tables_of(sixteen, n) for n in (1, 2)}
    published = SeatingPlan.objects.get(tournament=sixteen).sessions
    services.player_withdraw(player=sixteen.players.get(number=105))
    services.player_save(tournament=sixteen, number=117, name="Sub", is_substitute=True)

    assert draw(client, sixteen, 3, method="planned").status_code == 302

    assert {n: tables_of(sixteen, n) for n in (1, 2)} == before
    third = tables_of(sixteen, 3)
    seated = {p for table in third for p in table}
    assert 105 not in seated and 117 in seated
    assert pairs(third).isdisjoint(pairs(before[1]) | pairs(before[2]))
    plan = SeatingPlan.objects.get(tournament=sixteen)
    assert plan.replans == 1
    assert plan.sessions[:2] == published[:2]
    html = client.get(reverse("seating", args=[sixteen.slug, 3])).content.decode()
    assert "re-planned once" in html


def page_tables(client, tournament, number) -> list[list[int]]:
    """The seating page's tables, each its players' numbers East..North, as shown."""
    page = client.get(reverse("seating", args=[tournament.slug, number])).content
    rows = [row for row in html.elements(page, "tr[id]") if row.attrs["id"].startswith("table-")]
    return [[int(n.text()) for n in row.find("strong")] for row in rows]


def replan_step(section: html.Element) -> tuple[str, str, str, str, str]:
    """A re-plan as the seating page shows it: its number, its title, who left and joined
    (what follows the title), its command and its input file's text."""
    heading = section.find("p")[0]
    title = heading.one("strong").text()
    (command,) = [pre.one("code").text() for pre in section.find("pre") if not pre.classes]
    input_text = "".join(section.one("pre.replan-input code").children)
    who = " " + heading.text().removeprefix(title).lstrip() if heading.text() != title else ""
    return section.attrs["id"].removeprefix("replan-"), title, who, command, input_text


def run_command(command: str, cwd) -> dict:
    """Run a command as the seating page shows it ("python -m tournament.seating ..."), in
    ``cwd`` where its input files are, with this source tree's ``tournament`` package."""
    words = shlex.split(command)
    assert words[:3] == ["python", "-m", "tournament.seating"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, *words[1:]], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_published_commands_reproduce_a_re_planned_schedule(sixteen, organiser, tmp_path):
    """Withdrawals after sessions 2 and 3, a reinstatement: anyone who runs the commands the
    seating page shows, with its input files, in the folder they are saved in, gets the
    seating every page shows, player by player."""
    services.tournament_update(tournament=sixteen, session_count=5)
    client = login(organiser)
    for number in (1, 2):
        draw(client, sixteen, number, method="planned", seed=31)
    services.player_withdraw(player=sixteen.players.get(number=105))
    services.player_save(tournament=sixteen, number=117, name="Sub", is_substitute=True)
    draw(client, sixteen, 3, method="planned")
    services.player_withdraw(player=sixteen.players.get(number=110))
    services.player_reinstate(player=sixteen.players.get(number=105))
    draw(client, sixteen, 4, method="planned")
    draw(client, sixteen, 5, method="planned")
    anyone = login(None)
    page = html.parse(anyone.get(reverse("seating", args=[sixteen.slug, 5])).content)

    # The first command, and the players its numbers stand for.
    (command,) = [
        p.one("code").text() for p in page.find("#reproduce p") if p.text().startswith("First")
    ]
    assert command == "python -m tournament.seating --players 16 --sessions 5 --seed 31"
    mapping = [
        (int(i), int(player.split()[0]), text)
        for i, player, text in html.rows_of(page.one("table.plan-players"))[1:]
    ]
    by_index = {i: number for i, number, _changes in mapping}
    assert by_index == {i: 100 + i for i in range(1, 17)}
    changes = {number: text for _i, number, text in mapping if text}
    assert changes == {
        105: "out from session 3 (re-plan 1); in from session 4 (re-plan 2)",
        110: "out from session 4 (re-plan 2)",
    }
    printed = run_command(command, tmp_path)
    schedule = [
        [[by_index[i] for i in table] for table in tables] for tables in printed["sessions"]
    ]
    assert page_tables(anyone, sixteen, 1) == schedule[0]
    assert page_tables(anyone, sixteen, 2) == schedule[1]

    # Each re-plan: its command, its input saved under its name, run in order.
    steps = [replan_step(section) for section in page.find("section.replan-step")]
    assert [(n, title, who) for n, title, who, _c, _i in steps] == [
        ("1", "Re-plan 1, from session 3", " · out: 105 Player 105 · in: 117 Sub"),
        ("2", "Re-plan 2, from session 4", " · out: 110 Player 110 · in: 105 Player 105"),
    ]
    for number, _title, _who, step_command, text in steps:
        data = json.loads(text)
        played = data["played"]
        # Its schedule: the sessions drawn, as every page shows them, then the later sessions
        # as the previous command printed them.
        assert data["schedule"][:played] == [
            page_tables(anyone, sixteen, n) for n in range(1, played + 1)
        ]
        assert data["schedule"][played:] == schedule[played:]
        assert step_command == f"python -m tournament.seating replan --input replan-{number}.json"
        (tmp_path / f"replan-{number}.json").write_text(json.dumps(data), encoding="utf-8")
        schedule = run_command(step_command, tmp_path)["sessions"]

    for number in (1, 2, 3, 4, 5):
        assert page_tables(anyone, sixteen, number) == schedule[number - 1], number
    assert SeatingPlan.objects.get(tournament=sixteen).sessions == schedule


def test_a_plan_made_after_a_draw_by_lot_keeps_that_session(session_in_play, organiser):
    tournament = session_in_play.tournament
    first = tables_of(tournament, 1)
    assert draw(login(organiser), tournament, 2, method="planned", seed=3).status_code == 302
    assert tables_of(tournament, 1) == first
    assert pairs(tables_of(tournament, 2)).isdisjoint(pairs(first))
    assert SeatingPlan.objects.get(tournament=tournament).fixed_sessions == 1


# ---------------------------------------------------------------- session by session


def test_random_avoids_the_pairs_of_the_last_session(session_in_play, organiser):
    tournament = session_in_play.tournament
    assert draw(login(organiser), tournament, 2, method="random", seed=11).status_code == 302
    assert pairs(tables_of(tournament, 2)).isdisjoint(pairs(tables_of(tournament, 1)))
    assert Session.objects.get(tournament=tournament, number=2).method == "random"


def test_standings_seats_ranks_one_to_four_at_table_one(with_hands, organiser):
    order = ranking(with_hands)
    assert draw(login(organiser), with_hands, 2, method="standings", seed=1).status_code == 302
    tables = tables_of(with_hands, 2)
    assert [set(t) for t in tables] == [set(order[i : i + 4]) for i in range(0, 16, 4)]


def test_serpentine_puts_one_player_of_each_quarter_at_each_table(with_hands, organiser):
    order = ranking(with_hands)
    assert draw(login(organiser), with_hands, 2, method="serpentine", seed=1).status_code == 302
    quarter = {player: index // 4 for index, player in enumerate(order)}
    for table in tables_of(with_hands, 2):
        assert sorted(quarter[p] for p in table) == [0, 1, 2, 3]


def test_top_tables_seats_the_leaders_by_standings(with_hands, organiser):
    order = ranking(with_hands)
    response = draw(login(organiser), with_hands, 2, method="top_tables", top=2, seed=1)
    assert response.status_code == 302
    tables = tables_of(with_hands, 2)
    assert set(tables[0]) == set(order[0:4])
    assert set(tables[1]) == set(order[4:8])


def test_too_many_top_tables_are_refused_beside_the_field(with_hands, organiser):
    response = draw(login(organiser), with_hands, 2, method="top_tables", top=5)
    assert response.status_code == 200
    assert "Choose from 1 to 4 top tables." in response.content.decode()
    assert not with_hands.sessions.filter(number=2).exists()


@pytest.mark.parametrize("method", ["random", "standings", "serpentine", "top_tables"])
def test_session_modes_number_seats_in_order(with_hands, organiser, method):
    draw(login(organiser), with_hands, 2, method=method, seed=1)
    session = with_hands.sessions.get(number=2)
    assert sorted(session.seats.values_list("lot", flat=True)) == list(range(1, 17))
    for seat in session.seats.select_related("table"):
        assert seat.lot == (seat.table.number - 1) * 4 + seat.seat + 1


@pytest.mark.parametrize("persona", ["referee", "other_referee", "anonymous"])
def test_only_the_organiser_draws_with_a_method(sixteen, personas, persona):
    draw(personas[persona], sixteen, 1, method="planned", seed=1)
    assert not sixteen.sessions.exists()
    assert not SeatingPlan.objects.exists()


# ---------------------------------------------------------------- seating pages


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_alphabetical_page_is_public(session_in_play, personas, persona):
    url = reverse("seating_by_name", args=[session_in_play.tournament.slug, 1])
    assert personas[persona].get(url).status_code == 200


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_player_page_is_public(session_in_play, personas, persona):
    url = reverse("player_schedule", args=[session_in_play.tournament.slug, 1])
    assert personas[persona].get(url).status_code == 200


@pytest.mark.parametrize(
    "name, args",
    [
        ("seating_by_name", ["spring-open", 2]),
        ("seating_by_name", ["no-such-cup", 1]),
        ("player_schedule", ["spring-open", 99]),
        ("player_schedule", ["no-such-cup", 1]),
    ],
)
def test_unknown_session_player_or_tournament_is_404(session_in_play, organiser, name, args):
    assert login(organiser).get(reverse(name, args=args)).status_code == 404


@pytest.mark.parametrize("name", ["seating_by_name", "player_schedule"])
def test_the_seating_pages_refuse_posts(session_in_play, organiser, name):
    response = login(organiser).post(reverse(name, args=["spring-open", 1]))
    assert response.status_code == 405


def test_the_alphabetical_page_lists_players_by_name_with_table_and_seat(tournament, organiser):
    for number, name in enumerate(["Zhou", "adams", "Li", "Brown"], start=1):
        services.player_save(tournament=tournament, number=number, name=name)
    services.session_draw(tournament=tournament, number=1, seed=1)
    response = login(None).get(reverse("seating_by_name", args=[tournament.slug, 1]))
    seats = response.context["seats"]
    assert [s.player.name for s in seats] == ["adams", "Brown", "Li", "Zhou"]
    html = response.content.decode()
    for seat in seats:
        assert f"P{seat.seat + 1} (" in html


def test_the_player_page_lists_each_session_table_seat_and_opponents(sixteen, organiser):
    client = login(organiser)
    draw(client, sixteen, 1, method="planned", seed=777)
    draw(client, sixteen, 2, method="planned", seed=777)
    response = login(None).get(reverse("player_schedule", args=[sixteen.slug, 101]))
    rows = response.context["schedule"]
    assert [row.session.number for row in rows] == [1, 2]
    for row in rows:
        table = tables_of(sixteen, row.session.number)[row.table.number - 1]
        assert table[row.seat] == 101
        assert {o.number for _label, o in row.opponents} == set(table) - {101}
    page = response.content
    assert html.elements(page, "#session-1") and html.elements(page, "#session-2")


def test_a_player_not_yet_seated_has_an_empty_schedule(tournament):
    make_players(tournament, 4)
    response = login(None).get(reverse("player_schedule", args=[tournament.slug, 1]))
    assert "No session has been drawn for this player yet." in response.content.decode()


def test_reading_the_pages_writes_nothing(sixteen, organiser):
    draw(login(organiser), sixteen, 1, method="planned", seed=777)
    plan = SeatingPlan.objects.get(tournament=sixteen)
    client = login(None)
    for url in (
        reverse("seating", args=[sixteen.slug, 1]),
        reverse("seating_by_name", args=[sixteen.slug, 1]),
        reverse("player_schedule", args=[sixteen.slug, 101]),
    ):
        assert client.get(url).status_code == 200
    assert SeatingPlan.objects.get(tournament=sixteen).updated_at == plan.updated_at


def test_the_player_page_shows_the_planned_sessions_still_to_come(sixteen, organiser):
    sixteen.seating_method = "planned"
    sixteen.save()
    client = login(organiser)
    assert draw(client, sixteen, 1, method="planned", seed=777).status_code == 302
    plan = SeatingPlan.objects.get(tournament=sixteen)
    page = login(None).get(reverse("player_schedule", args=[sixteen.slug, 101])).content
    assert "Planned sessions" in html.text(page)
    for session in (2, 3, 4):
        (table,) = [t for t, numbers in enumerate(plan.sessions[session - 1], 1) if 101 in numbers]
        assert html.texts(page, f"tr#planned-{session} strong") == [str(table)]
    assert not html.elements(page, "#planned-1")  # drawn already: listed with the drawn sessions


def test_a_tournament_seated_session_by_session_shows_no_plan(session_in_play):
    player = session_in_play.tournament.players.get(number=1)
    assert player_planned_sessions(player) == []


@pytest.mark.parametrize("method", ["random", "standings", "serpentine", "top_tables"])
def test_a_session_mode_draw_is_reproduced_by_the_published_command(
    with_hands, organiser, method, tmp_path
):
    import json
    import subprocess
    import sys
    from pathlib import Path

    tournament = with_hands
    assert draw(login(organiser), tournament, 2, method=method, seed=4242).status_code == 302
    session = tournament.sessions.get(number=2)
    page = login(None).get(reverse("seating", args=[tournament.slug, 2])).content.decode()
    assert "python -m tournament.seating session --input session.json" in page
    path = tmp_path / "session.json"
    path.write_text(json.dumps(session.draw_input), encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-m", "tournament.seating", "session", "--input", str(path)],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    printed = json.loads(out.stdout)["tables"]
    assert [tuple(t) for t in printed] == [tuple(t) for t in tables_of(tournament, 2)]


def test_the_session_command_refuses_a_bad_input(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "bad.json"
    path.write_text('{"mode": "sideways", "seed": 1, "players": [1, 2, 3, 4]}', encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-m", "tournament.seating", "session", "--input", str(path)],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert "cannot seat this input" in out.stderr


def test_the_alphabetical_page_puts_chinese_names_among_latin_ones_by_pinyin(tournament):
    for number, name in enumerate(["Zhou Li", "张伟", "adams", "陈静"], start=1):
        services.player_save(tournament=tournament, number=number, name=name)
    services.session_draw(tournament=tournament, number=1, seed=1)
    response = login(None).get(reverse("seating_by_name", args=[tournament.slug, 1]))
    assert [s.player.name for s in response.context["seats"]] == [
        "adams",
        "陈静",
        "张伟",
        "Zhou Li",
    ]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize(
    ("query", "found"),
    [("zw", ["张伟"]), ("zhang", ["张伟"]), ("li", ["Zhou Li"]), ("3", ["adams"]), ("", None)],
)
def test_the_alphabetical_page_finds_players_by_name_pinyin_or_number(
    tournament, personas, persona, query, found
):
    for number, name in enumerate(["Zhou Li", "张伟", "adams", "陈静"], start=1):
        services.player_save(tournament=tournament, number=number, name=name)
    services.session_draw(tournament=tournament, number=1, seed=1)
    url = reverse("seating_by_name", args=[tournament.slug, 1])
    response = personas[persona].get(url, {"q": query})
    listed = [s.player.name for s in response.context["seats"]]
    assert listed == (found or ["adams", "陈静", "张伟", "Zhou Li"])
    page = response.content
    assert html.one(page, "input[name=q]").attrs.get("value", "") == query
    assert ("Show everyone" in html.text(page)) is bool(query)


def test_a_search_that_finds_no_one_says_so(tournament):
    make_players(tournament, 4)
    services.session_draw(tournament=tournament, number=1, seed=1)
    url = reverse("seating_by_name", args=[tournament.slug, 1])
    response = login(None).get(url, {"q": "<nobody>"})
    assert response.context["seats"] == []
    assert "No player matches “&lt;nobody&gt;”." in response.content.decode()
