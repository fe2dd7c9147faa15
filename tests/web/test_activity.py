"""The activity log page: organisers only, every change newest first with who made it (an
account or a table's tablet), what and the values before and after, filtered by session, table
and player, a page at a time, in a number of queries that does not grow with the history."""

import pytest
from django.test import Client
from django.urls import reverse

from tests import html
from tests.conftest import login, play_some_sessions
from tests.web.pages import hand_data
from tournament import services, tables
from tournament.hall import device_links
from tournament.models import Table
from tournament.selectors import activity
from tournament.selectors.activity import ActivityFilter

LOGIN_URL = reverse("login")
# The page's queries, at most: the browser session and the user, the tournament and the
# visitor's roles (6); the merged history counted and its page (2); two per kind of row on the
# page (12 kinds: the desk's calls, rulings and appeals among them); the names the rows refer
# to (hands, rulings, tables, sessions, accounts, players, the two account lists of the
# tournament: 8).
MAX_QUERIES = 6 + 2 + 2 * 12 + 8


def log_url(slug="spring-open", **filters) -> str:
    url = reverse("activity_log", args=[slug])
    if filters:
        url += "?" + "&".join(f"{key}={value}" for key, value in filters.items())
    return url


def entries(response) -> list[activity.Activity]:
    assert response.status_code == 200
    return [row.record for row in response.context["table"].paginated_rows]


def lines(response) -> list[str]:
    """Each entry as "who | subject | action"."""
    return [f"{e.who or '-'} | {e.subject} | {e.action}" for e in entries(response)]


@pytest.fixture
def played(tournament, organiser, referee):
    """Session 1 played and closed (a penalty, corrections, a reopening); session 2 drawn
    with a substitute in player 3's seat."""
    play_some_sessions(tournament, organiser=organiser, referee=referee)
    return tournament


# ------------------------------------------------------------------------ personas


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_the_log_by_persona(personas, tournament, persona, expected):
    response = personas[persona].get(log_url())
    assert response.status_code == expected
    if expected == 302:
        assert response["Location"].startswith(LOGIN_URL + "?next=")


def test_another_tournaments_organiser_is_refused(personas, other_tournament, tournament):
    other_organiser = other_tournament.organisers.get()
    assert login(other_organiser).get(log_url()).status_code == 403


def test_an_unknown_tournament_is_404(personas, tournament):
    assert personas["organiser"].get(log_url("no-such-event")).status_code == 404


def test_the_log_only_answers_get(personas, tournament):
    assert personas["organiser"].post(log_url()).status_code == 405


def test_the_tournament_page_links_the_log_for_organisers_only(personas, tournament):
    link = f"a[href='{log_url()}']"
    assert html.elements(personas["organiser"].get(tournament.get_absolute_url()).content, link)
    assert not html.elements(personas["referee"].get(tournament.get_absolute_url()).content, link)


# ------------------------------------------------------------------------ contents


def test_a_change_made_on_a_page_names_who_made_it_with_before_and_after(personas, tournament):
    organiser = personas["organiser"]
    services.player_save(tournament=tournament, number=3, name="Alice")
    response = organiser.post(
        reverse("player_edit", args=[tournament.slug, 3]),
        {"number": "3", "name": "Alice Wong", "name_zh": "", "team": "", "country": ""},
    )
    assert response.status_code == 302
    organiser.post(reverse("player_withdraw", args=[tournament.slug, 3]))
    response = organiser.get(log_url())
    assert lines(response)[:3] == [
        "organiser | Player 3 Alice Wong | withdrawn",
        "organiser | Player 3 Alice Wong | changed",
        "- | Player 3 Alice | created",
    ]
    edit = entries(response)[1]
    # The first and last names split from the name follow it.
    assert [(c.label, c.before, c.after) for c in edit.changes] == [
        ("name", "Alice", "Alice Wong"),
        ("first name", "", "Alice"),
        ("last name", "Alice", "Wong"),
    ]
    html = response.content.decode()
    assert "Alice → Alice Wong" in html


def test_settings_and_referee_list_changes_are_listed(personas, tournament, referee):
    organiser = personas["organiser"]
    response = organiser.post(
        reverse("tournament_edit", args=[tournament.slug]),
        {
            "name": "Spring Open 2027",
            "slug": tournament.slug,
            "session_count": "4",
            "session_minutes": "150",
            "seating_method": "lot",
            "separate_by": "",
            "criterion_1": "table_points",
            "criterion_2": "score",
            "criterion_3": "first_places",
            "criterion_4": "best_session",
            "organisers": [str(tournament.organisers.get().pk)],
            "referees": [],
        },
    )
    assert response.status_code == 302
    (change,) = entries(organiser.get(log_url()))[:1]
    assert (change.who, change.subject) == ("organiser", "Tournament settings")
    shown = {c.label: (c.before, c.after) for c in change.changes}
    assert shown["name"] == ("Spring Open", "Spring Open 2027")
    assert shown["referees"] == ("referee", "")


def test_a_hand_entered_on_a_tablet_names_the_tablet(session_in_play, personas):
    table = Table.objects.select_related("session").get(session=session_in_play, number=1)
    token = device_links.device_token(table)
    tablet = Client()
    tablet.get(reverse("device_link", args=[token]))
    response = tablet.post(reverse("table_sheet", args=["spring-open", 1, 1]), hand_data(1))
    assert response.status_code == 302
    (entry,) = [e for e in entries(personas["organiser"].get(log_url())) if e.kind == "+"][:1]
    assert entry.subject == "Hand 1, session 1 table 1"
    assert entry.who == f"tablet at {device_links.link_id(table, token)}"
    assert entry.user is None


def test_a_cancelled_draw_stays_in_the_log(personas, tournament):
    from tests.conftest import make_players

    make_players(tournament, 8)
    services.session_draw(tournament=tournament, number=1, seed=3)
    organiser = personas["organiser"]
    response = organiser.post(reverse("session_cancel_draw", args=[tournament.slug, 1]))
    assert response.status_code == 302
    log = lines(organiser.get(log_url()))
    assert "organiser | Session 1 | draw cancelled" in log
    assert "organiser | Session 1 table 2 | draw cancelled" in log
    assert sum("| Seat " in line and "draw cancelled" in line for line in log) == 8
    # The draw as it was: its seats are still listed as created.
    assert sum("| Seat " in line and "created" in line for line in log) == 8


# ------------------------------------------------------------------------- filters


def test_the_session_filter_keeps_that_sessions_rows(personas, played):
    subjects = [e.subject for e in entries(personas["organiser"].get(log_url(session=2)))]
    assert subjects
    assert all("session 2" in s.lower() for s in subjects)
    assert "Session 2" in subjects


def test_session_and_table_keep_that_table(personas, played):
    response = personas["organiser"].get(log_url(session=1, table=1))
    log = lines(response)
    assert all("session 1 table 1" in line.lower() for line in log)
    assert "organiser | Reopening of session 1 table 1 | created" in log
    assert "referee | Session 1 table 1 | confirmed" in log
    assert "organiser | Session 1 table 1 | reopened" in log
    assert any("Penalty in hand 1, session 1 table 1" in line for line in log)


def test_the_player_filter_keeps_the_player_their_seats_and_their_tables(personas, played):
    log = lines(personas["organiser"].get(log_url(player=3)))
    assert "- | Player 3 Player 3 | withdrawn" in log
    assert "- | Player 3 Player 3 | created" in log
    assert not any("Player 4 " in line for line in log)
    seats = [line for line in log if "| Seat " in line]
    assert "- | Seat P4, session 2 table 3 | player changed" in seats
    # Their seat in each session, and no one else's.
    assert len([line for line in seats if "created" in line]) == 2
    # What happened at their session 1 table.
    table = played.sessions.get(number=1).seats.get(player__number=3).table.number
    assert f"referee | Session 1 table {table} | confirmed" in log


def test_a_filter_that_is_not_a_number_is_refused_beside_its_field(personas, played):
    response = personas["organiser"].get(log_url(session="two"))
    assert response.status_code == 200
    assert response.context["table"] is None
    assert "session" in response.context["form"].errors


# ------------------------------------------------------------- pages and queries


def test_the_log_is_paged_newest_first_keeping_the_filters(personas, played, monkeypatch):
    monkeypatch.setattr(tables, "PAGE_SIZE", 20)
    organiser = personas["organiser"]
    first = organiser.get(log_url(session=1))
    assert len(entries(first)) == 20
    # The table's rows are the entries, a cell each for when, who, what and the change.
    rows = html.table(first.content, "table.activity")[1:]
    assert [row[0] for row in rows] == [
        entry.when.strftime("%Y-%m-%d %H:%M:%S") for entry in entries(first)
    ]
    pages = [
        link.attrs["href"]
        for link in html.elements(first.content, "a")
        if "page=2" in link.attrs.get("href", "")
    ]
    assert pages and all("session=1" in href for href in pages)
    second = organiser.get(log_url() + pages[0])
    older = entries(second)
    assert len(older) == 20
    assert older[0].when <= entries(first)[-1].when
    everything = entries(organiser.get(log_url(session=1, page="all")))
    assert everything[:40] == entries(first) + older
    assert len(everything) == len(activity.ActivityLog(played, ActivityFilter(session=1)))


def test_the_number_of_queries_does_not_grow_with_the_history(
    personas, played, django_assert_max_num_queries
):
    organiser = personas["organiser"]
    organiser.get(log_url())  # the session is loaded once
    with django_assert_max_num_queries(MAX_QUERIES):
        assert len(entries(organiser.get(log_url()))) == tables.PAGE_SIZE
    # Twice the sessions, many more rows: the same bound.
    third = services.session_draw(tournament=played, number=3, seed=33, method="lot")
    services.session_open(session=third)
    for table in third.tables.all():
        services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    with django_assert_max_num_queries(MAX_QUERIES):
        assert len(entries(organiser.get(log_url()))) == tables.PAGE_SIZE
    with django_assert_max_num_queries(MAX_QUERIES):
        assert entries(organiser.get(log_url(player=5)))


# ------------------------------------------------------------------ the referees' desk


@pytest.fixture
def desk(session_in_play, organiser, referee):
    """At session 1's table 2: a call from the tablet about hand 1, taken by the referee and
    resolved by their ruling (a false win, 10 to each), appealed and changed by the
    organiser; at table 3, a call cancelled by its tablet."""
    from tests.web.test_record_of_fouls import seated

    table = session_in_play.tables.get(number=2)
    services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    call = services.call_make(table=table, reason="claim", hand=1, device="tablet-2")
    services.call_take(call=call, user=referee)
    ruling = services.ruling_give(
        table=table,
        referee=referee,
        call=call,
        decision="A false win.",
        offence="false_win",
        penalty_kind="to_each_other",
        penalty_points=10,
        offender=seated(table, 1),
    )
    appeal = services.appeal_lodge(ruling=ruling, user=organiser, grounds="Not a false win.")
    services.appeal_decide(appeal=appeal, user=organiser, decision="upheld", reasons="It was.")
    other = session_in_play.tables.get(number=3)
    services.call_cancel(
        call=services.call_make(table=other, reason="time", device="tablet-3"), device="tablet-3"
    )
    return session_in_play


def test_every_call_ruling_and_appeal_is_in_the_log(personas, desk):
    response = personas["organiser"].get(log_url())
    log = lines(response)
    where = "session 1 table 2"
    assert [line for line in log if "Call for a referee" in line or "uling" in line] == [
        "tablet at tablet-3 | Call for a referee, session 1 table 3 | cancelled",
        "tablet at tablet-3 | Call for a referee, session 1 table 3 | called",
        f"organiser | Appeal of the ruling in hand 1, {where} | decided",
        f"organiser | Appeal of the ruling in hand 1, {where} | lodged",
        f"referee | Call for a referee about hand 1, {where} | resolved",
        f"referee | Ruling in hand 1, {where} | given",
        f"referee | Call for a referee about hand 1, {where} | taken by a referee",
        f"tablet at tablet-2 | Call for a referee about hand 1, {where} | called",
    ]
    found = {(e.subject, e.action): e for e in entries(response)}
    ruling = found[(f"Ruling in hand 1, {where}", "given")]
    shown = {c.label: c.after for c in ruling.changes}
    assert shown["offence"] == "False win (错和)"
    assert shown["decision"] == "A false win."
    assert (shown["penalty"], shown["points"]) == ("Paid to each other player", "10")
    assert shown["referee"] == "referee"
    assert shown["offender"].startswith(str(seated_number(desk, 2, 1)))
    taken = found[(f"Call for a referee about hand 1, {where}", "taken by a referee")]
    assert [(c.label, c.before, c.after) for c in taken.changes] == [
        ("state", "Called", "Referee on the way"),
        ("referee", "", "referee"),
    ]
    called = found[(f"Call for a referee about hand 1, {where}", "called")]
    assert [(c.label, c.after) for c in called.changes] == [
        ("reason", "A claim"),
        ("state", "Called"),
    ]
    decided = found[(f"Appeal of the ruling in hand 1, {where}", "decided")]
    assert [(c.label, c.after) for c in decided.changes] == [
        ("decision", "Upheld"),
        ("reasons", "It was."),
    ]
    # The penalty the ruling gave its hand: entered, the ruling not spelled out as an id.
    penalty = [e for e in entries(response) if e.subject.startswith("Penalty in hand 1")]
    assert penalty and all("ruling" not in [c.label for c in e.changes] for e in penalty)


def seated_number(session, table: int, seat: int) -> int:
    return session.seats.get(table__number=table, seat=seat).player.number


def test_the_filters_keep_the_desks_rows_of_their_tables(personas, desk):
    organiser = personas["organiser"]
    at_two = lines(organiser.get(log_url(session=1, table=2)))
    assert sum("Call for a referee" in line for line in at_two) == 3
    assert sum("uling" in line for line in at_two) == 3
    at_three = lines(organiser.get(log_url(table=3)))
    assert sum("Call for a referee" in line for line in at_three) == 2
    assert not any("uling" in line for line in at_three)
    player = seated_number(desk, 2, 0)
    theirs = lines(organiser.get(log_url(player=player)))
    assert sum("Appeal of the ruling" in line for line in theirs) == 2
    assert not any("table 3" in line for line in theirs)
    assert not any("Call for" in line for line in lines(organiser.get(log_url(session=2))))


def test_a_change_of_the_rules_after_play_is_in_the_log_with_its_reason(
    personas, played, organiser
):
    services.rules_change(
        tournament=played,
        user=organiser,
        reason="The hall plays the League's reading of two kongs.",
        melded_and_concealed_kong=5,
    )
    response = personas["organiser"].get(log_url())
    newest = entries(response)[:3]
    change = next(e for e in newest if e.subject == "Rules")
    assert change.action == "rules changed after play started"
    shown = {c.label: c.after for c in change.changes}
    assert shown["reason"] == "The hall plays the League's reading of two kongs."
    settings = next(e for e in newest if e.subject == "Tournament settings")
    assert settings.action == "rules changed after play started"
    assert [(c.before, c.after) for c in settings.changes] == [
        ("3: Melded Kong (1) + Concealed Kong (2)", "5: the fan 明暗杠 (Melded and Concealed Kong)")
    ]
