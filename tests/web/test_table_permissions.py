"""Each referee has their tables: they enter, correct and confirm there and nowhere else;
organisers (head referees) act at every table. The referee's home lists only the session in
play and the referee's own tables."""

import pytest
from django.urls import reverse

from tests import html
from tests.conftest import (
    SESSION_READS,
    give_all_tables,
    login,
    make_players,
    make_tournament,
    make_user,
)
from tests.web.pages import hand_data, reviewed
from tournament import services
from tournament.models import Hand, Table


@pytest.fixture
def play(session_in_play, colleague):
    """Session 1 in play: table 2 is the colleague's, tables 1, 3, 4 the referee's;
    hand 1 of table 1 entered."""
    services.tables_assign(session=session_in_play, referee=colleague, tables=[2])
    table = session_in_play.tables.get(number=1)
    services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    return session_in_play


def url(name, *args, slug="spring-open"):
    return reverse(name, args=[slug, *args])


def stored(table_number: int) -> dict[int, str]:
    """Hand number -> outcome, at table ``table_number`` of session 1."""
    return dict(
        Hand.objects.filter(table__session__number=1, table__number=table_number).values_list(
            "number", "outcome"
        )
    )


def confirmed(table_number: int) -> bool:
    return Table.objects.get(session__number=1, number=table_number).is_confirmed


# ---------------------------------------------------------------- the assigned referee


def test_the_assigned_referee_sees_and_enters_at_their_table(play, referee):
    client = login(referee)
    assert client.get(url("table_sheet", 1, 1)).status_code == 200
    response = client.post(url("table_sheet", 1, 1), hand_data(2))
    assert response.status_code == 302
    assert stored(1) == {1: "draw", 2: "self_drawn"}


def test_the_assigned_referee_corrects_a_hand(play, referee):
    client = login(referee)
    assert client.get(url("hand_edit", 1, 1, 1)).status_code == 200
    response = client.post(url("hand_edit", 1, 1, 1), hand_data(1, version=1))
    assert response.status_code == 302
    assert stored(1) == {1: "self_drawn"}


def test_the_assigned_referee_confirms(play, referee):
    client = login(referee)
    confirm = url("table_confirm", 1, 1)
    response = client.post(confirm, reviewed(client, confirm, record_missing_as_not_played="on"))
    assert response.status_code == 302
    assert confirmed(1)


# ---------------------------------------------------------------- another referee


def test_another_referee_may_not_see_the_sheet(play, colleague):
    assert login(colleague).get(url("table_sheet", 1, 1)).status_code == 403
    assert login(colleague).get(url("table_sheet", 1, 2)).status_code == 200


def test_another_referee_may_not_enter_a_hand(play, colleague):
    response = login(colleague).post(url("table_sheet", 1, 1), hand_data(2))
    assert response.status_code == 403
    assert stored(1) == {1: "draw"}


def test_another_referee_may_not_correct_a_hand(play, colleague):
    client = login(colleague)
    assert client.get(url("hand_edit", 1, 1, 1)).status_code == 403
    response = client.post(url("hand_edit", 1, 1, 1), hand_data(1, version=1))
    assert response.status_code == 403
    assert stored(1) == {1: "draw"}


def test_another_referee_may_not_confirm_and_no_hand_is_filled_in(play, colleague):
    # The measured bug: a referee confirmed someone else's empty table as 16 hands not played.
    response = login(colleague).post(
        url("table_confirm", 1, 3), {"record_missing_as_not_played": "on"}
    )
    assert response.status_code == 403
    assert not confirmed(3)
    assert stored(3) == {}


def test_a_table_with_no_referee_is_for_organisers_only(play, referee, organiser):
    services.tables_assign(session=play, referee=None, tables=[4])
    assert login(referee).get(url("table_sheet", 1, 4)).status_code == 403
    assert login(organiser).get(url("table_sheet", 1, 4)).status_code == 200


def test_a_referee_removed_from_the_tournament_loses_their_tables(play, tournament, colleague):
    services.tournament_update(tournament=tournament, referees=[colleague])
    client = login(colleague)
    assert client.get(url("table_sheet", 1, 2)).status_code == 200
    # The referee still named on tables 1, 3 and 4 no longer referees the tournament.
    referee = Table.objects.get(session=play, number=1).referee
    assert login(referee).get(url("table_sheet", 1, 1)).status_code == 403


def test_the_referee_of_another_tournament_is_refused_even_if_named_at_a_table(play, other_referee):
    # Not possible through the service; a stale row must still not let them in.
    Table.objects.filter(session=play, number=1).update(referee=other_referee)
    assert login(other_referee).get(url("table_sheet", 1, 1)).status_code == 403


def test_table_cards_stay_open_to_every_referee_of_the_tournament(play, colleague):
    assert login(colleague).get(url("table_cards", 1)).status_code == 200


# ---------------------------------------------------------------- organisers


def test_the_organiser_enters_corrects_and_confirms_at_any_table(play, organiser):
    client = login(organiser)
    assert client.get(url("table_sheet", 1, 2)).status_code == 200
    assert client.post(url("table_sheet", 1, 1), hand_data(2)).status_code == 302
    assert client.get(url("hand_edit", 1, 1, 1)).status_code == 200
    assert client.post(url("hand_edit", 1, 1, 1), hand_data(1, version=1)).status_code == 302
    assert stored(1) == {1: "self_drawn", 2: "self_drawn"}
    confirm = url("table_confirm", 1, 2)
    response = client.post(confirm, reviewed(client, confirm, record_missing_as_not_played="on"))
    assert response.status_code == 302
    assert confirmed(2)


def test_a_superuser_acts_at_any_table(play):
    admin = make_user("admin")
    admin.is_superuser = True
    admin.save()
    assert login(admin).get(url("table_sheet", 1, 2)).status_code == 200


# ---------------------------------------------------------------- the referee's home


def home_rows(response):
    return [
        (item.session.number, [(row.table.number, row.entered) for row in item.tables])
        for item, _table in response.context["sessions"]
    ]


def test_the_home_lists_the_session_in_play_and_only_the_referees_tables(
    play, tournament, referee, colleague, organiser
):
    # Session 2 drawn (not open yet): it keeps the referees, but is not in play.
    services.session_draw(tournament=tournament, number=2, seed=5)
    home = url("referee_home")
    assert home_rows(login(referee).get(home)) == [(1, [(1, 1), (3, 0), (4, 0)])]
    assert home_rows(login(colleague).get(home)) == [(1, [(2, 0)])]
    assert home_rows(login(organiser).get(home)) == [(1, [(1, 1), (2, 0), (3, 0), (4, 0)])]


def test_the_home_shows_hand_counts_and_confirmed_tables(play, referee):
    services.table_confirm(
        table=play.tables.get(number=3), user=referee, record_missing_as_not_played=True
    )
    page = login(referee).get(url("referee_home")).content
    # Table, players, hands, confirmed: the referee's tables 1, 3 and 4.
    rows = html.table(page, "table")[1:]
    assert [(row[0], row[2], row[3]) for row in rows] == [
        ("1", "1 / 16", ""),
        ("3", "16 / 16", "confirmed"),
        ("4", "0 / 16", ""),
    ]
    sheets = [link.attrs["href"] for link in html.elements(page, "a.button")]
    assert url("table_sheet", 1, 1) in sheets and url("table_sheet", 1, 2) not in sheets


def test_the_home_of_an_organiser_names_each_tables_referee(play, organiser):
    page = login(organiser).get(url("referee_home")).content.decode()
    assert "colleague" in page
    assert url("table_referees", 1) in page


def test_a_closed_session_leaves_the_home(play, tournament, organiser, referee):
    for table in play.tables.all():
        services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    services.session_close(session=play)
    response = login(referee).get(url("referee_home"))
    assert response.context["sessions"] == []
    assert "No session is in play." in response.content.decode()


def test_the_home_names_the_sessions_not_in_play(play, tournament, organiser, referee):
    # Session 1 in play; sessions 2 and 3 drawn, not open yet.
    for number in (2, 3):
        services.session_draw(tournament=tournament, number=number, seed=number)
    page = " ".join(login(referee).get(url("referee_home")).content.decode().split())
    assert "Not open yet: session 2, session 3." in page
    assert "Closed:" not in page and url("table_referees", 2) not in page
    # An organiser reaches each session's Referees page from the line.
    page = login(organiser).get(url("referee_home")).content
    assert html.texts(page, f"a[href='{url('table_referees', 3)}']") == ["session 3"]


def test_a_closed_session_is_named_under_the_session_in_play(play, tournament, organiser):
    for table in play.tables.all():
        services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    services.session_close(session=play)
    services.session_open(session=services.session_draw(tournament=tournament, number=2, seed=2))
    response = login(organiser).get(url("referee_home"))
    assert [item.session.number for item, _table in response.context["sessions"]] == [2]
    closed = [p for p in html.elements(response.content, "p") if p.text().startswith("Closed:")]
    assert [p.text() for p in closed] == ["Closed: session 1."]
    assert closed[0].one(f"a[href='{url('table_referees', 1)}']").text() == "session 1"


def test_a_drawn_session_not_yet_open_is_not_in_play(tournament, referee):
    make_players(tournament, 16)
    services.session_draw(tournament=tournament, number=1, seed=5)
    response = login(referee).get(url("referee_home"))
    assert "No session is in play." in response.content.decode()


def test_a_referee_with_no_table_is_told_to_ask_the_head_referee(play, tournament):
    newcomer = make_user("newcomer")
    tournament.referees.add(newcomer)
    response = login(newcomer).get(url("referee_home"))
    assert home_rows(response) == [(1, [])]
    assert "No table of session 1 is yours." in response.content.decode()


def in_play(players: int):
    """A tournament with ``players`` players in session 1, in play, all tables refereed."""
    organiser = make_user("host")
    referee = make_user("tables")
    tournament = make_tournament(creator=organiser, slug=f"open-{players}")
    tournament.referees.add(referee)
    make_players(tournament, players)
    session = services.session_draw(tournament=tournament, number=1, seed=3)
    give_all_tables(session, referee)
    services.session_open(session=session)
    for table in session.tables.all():
        services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    return tournament, organiser, referee


@pytest.mark.parametrize("players", [16, 48])
@pytest.mark.parametrize("persona", ["organiser", "referee"])
def test_the_home_reads_the_same_queries_whatever_the_number_of_tables(
    db, django_assert_num_queries, players, persona
):
    tournament, organiser, referee = in_play(players)
    client = login(organiser if persona == "organiser" else referee)
    home = url("referee_home", slug=tournament.slug)
    # Session (unless kept in Redis) and user, the tournament (1), the role checks (each role
    # asked once a request: organiser, then referee; an organiser's end at the first), then
    # the sessions, the tables in play with their referees, and their players' names (3).
    expected = SESSION_READS + (7 if persona == "referee" else 6)
    with django_assert_num_queries(expected):
        response = client.get(home)
    assert sum(len(item.tables) for item, _table in response.context["sessions"]) == players // 4
