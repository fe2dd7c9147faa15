"""The record of fouls (/t/<slug>/fouls/): for the tournament's organisers and referees, every
penalty on the sheets (entered there, or given by a ruling) and every warning, with the
decision, the referee and the appeal; filtered by session and player, sorted and paged by
its table."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests import html
from tests.conftest import login
from tournament import services, tables
from tournament.models import Hand, Ruling, Seat
from tournament.selectors.fouls import FoulFilter, record_of_fouls

SLUG = "spring-open"
URL = reverse("record_of_fouls", args=[SLUG])
SHEET_REASON = "Exposed a tile while drawing"
FALSE_WIN = "P2 declared a win on a tile that did not complete the hand."
WARNING = "Slow play: warned, no penalty this time."


def seated(table, seat: int):
    return Seat.objects.get(table=table, seat=seat).player


def fouls_on_record(session, *, referee, organiser) -> dict:
    """Session ``session`` in play gets, in this order: a penalty entered on table 1's
    sheet (hand 1, P3 pays P1 5 points); a false win ruled at table 2 on a call (hand 1, P2
    pays 10 to each other player), appealed and changed to 5; a warning ruled at table 3
    (P4), appealed and waiting; a claim settled at table 4 without an offence (no foul).
    Returns the players concerned by name."""
    one, two, three, four = (session.tables.get(number=n) for n in (1, 2, 3, 4))
    services.hand_record(
        table=one,
        user=referee,
        entry=services.HandEntry(
            number=1,
            outcome="draw",
            penalties=[
                services.PenaltyEntry(
                    offender=2, kind="to_one", points=5, reason=SHEET_REASON, beneficiary=0
                )
            ],
        ),
    )
    services.hand_record(table=two, entry=services.HandEntry(number=1, outcome="draw"))
    call = services.call_make(table=two, reason="claim", hand=1, device="t2")
    services.call_take(call=call, user=referee)
    false_win = services.ruling_give(
        table=two,
        referee=referee,
        call=call,
        decision=FALSE_WIN,
        offence="false_win",
        penalty_kind="to_each_other",
        penalty_points=10,
        offender=seated(two, 1),
    )
    appeal = services.appeal_lodge(ruling=false_win, user=referee, grounds="It was a wait.")
    services.appeal_decide(
        appeal=appeal,
        user=organiser,
        decision="changed",
        reasons="A slip of the hand: 5 points to each.",
        penalty_kind="to_each_other",
        penalty_points=5,
        offender=seated(two, 1),
    )
    warning = services.ruling_give(
        table=three,
        referee=organiser,
        decision=WARNING,
        offence="procedural",
        players=[seated(three, 3)],
    )
    services.appeal_lodge(ruling=warning, user=organiser, grounds="I was not slow.")
    services.ruling_give(table=four, referee=referee, decision="The claim stands.")
    return {
        "sheet": seated(one, 2),
        "paid": seated(one, 0),
        "false_win": seated(two, 1),
        "warned": seated(three, 3),
    }


@pytest.fixture
def record(session_in_play, referee, organiser):
    return fouls_on_record(session_in_play, referee=referee, organiser=organiser)


def rows(response) -> list[list[str]]:
    assert response.status_code == 200
    return html.table(response.content, "table.fouls")[1:]


def by_number(response) -> dict[str, list[str]]:
    return {row[0]: row for row in rows(response)}


# ------------------------------------------------------------------------ personas


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 200), ("other_referee", 403), ("anonymous", 302)],
)
def test_the_record_by_persona(personas, record, persona, expected):
    response = personas[persona].get(URL)
    assert response.status_code == expected
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login") + "?next=")


def test_another_tournaments_organiser_is_refused_and_an_unknown_one_is_404(
    personas, record, other_tournament
):
    assert login(other_tournament.organisers.get()).get(URL).status_code == 403
    assert personas["organiser"].get(URL.replace(SLUG, "no-such")).status_code == 404


def test_a_tables_tablet_is_sent_to_log_in(record, session_in_play):
    from django.test import Client

    from tournament.hall import device_links

    table = session_in_play.tables.select_related("session").get(number=1)
    tablet = Client()
    tablet.get(reverse("device_link", args=[device_links.device_token(table)]))
    assert tablet.get(reverse("table_sheet", args=[SLUG, 1, 1])).status_code == 200
    response = tablet.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_record_only_reads(personas, record):
    assert personas["organiser"].post(URL).status_code == 405


def test_the_record_is_linked_from_the_referee_home_the_menu_and_the_penalty_sheet(
    personas, record
):
    link = f"a[href='{URL}']"
    home = personas["referee"].get(reverse("referee_home", args=[SLUG]))
    assert html.elements(home.content, link)
    organiser_page = personas["organiser"].get(reverse("tournament", args=[SLUG]))
    assert html.elements(organiser_page.content, f"nav.tournament-nav {link}")
    # A referee's menu has the referee's home, which links it.
    referee_page = personas["referee"].get(reverse("tournament", args=[SLUG]))
    assert not html.elements(referee_page.content, f"nav.tournament-nav {link}")
    sheet = personas["referee"].get(reverse("penalty_sheet", args=[SLUG, 1]))
    assert html.elements(sheet.content, f"a[href='{URL}?session=1']")
    # And the record links back to each session's paper record.
    page = personas["referee"].get(URL)
    assert html.elements(page.content, f"a[href='{reverse('penalty_sheet', args=[SLUG, 1])}']")


# ------------------------------------------------------------------------ contents


def test_every_foul_on_record_in_the_order_it_happened(personas, record):
    response = personas["referee"].get(URL)
    assert html.problems(response.content) == []
    found = rows(response)
    assert [row[0] for row in found] == ["1", "2", "3"]
    assert [(row[1], row[2], row[3]) for row in found] == [
        ("1", "1", "1"),
        ("1", "2", "1"),
        ("1", "3", "—"),
    ]
    # The claim settled at table 4 named no offence: no foul.
    assert not any(row[2] == "4" for row in found)


def test_a_sheet_penalty_shows_its_reason_and_who_entered_the_hand(personas, record):
    sheet = by_number(personas["organiser"].get(URL))["1"]
    player = record["sheet"]
    assert sheet[5] == f"{player.number} {player.name}"
    assert sheet[7] == f"5 to {record['paid'].number} {record['paid'].name}"
    assert sheet[8] == f"{SHEET_REASON} (on the score sheet)"
    assert sheet[9] == "referee"
    assert sheet[10] == "none"


def test_a_rulings_penalty_shows_its_offence_decision_referee_and_appeal(personas, record):
    ruled = by_number(personas["organiser"].get(URL))["2"]
    player = record["false_win"]
    assert ruled[5] == f"{player.number} {player.name}"
    assert ruled[6] == "False win (错和)"
    # The penalty as the appeal changed it, and what it was.
    assert ruled[7] == "5 to each other player"
    assert ruled[8] == FALSE_WIN
    assert ruled[9] == "referee"
    assert ruled[10] == (
        "changed A slip of the hand: 5 points to each. (was: 10 to each other player)"
    )


def test_a_warning_names_its_offence_and_its_waiting_appeal(personas, record):
    warning = by_number(personas["organiser"].get(URL))["3"]
    assert warning[5] == f"{record['warned'].number} {record['warned'].name}"
    assert warning[6] == "Procedural foul after a warning"
    assert warning[7] == "warning"
    assert (warning[8], warning[9], warning[10]) == (WARNING, "organiser", "waiting")


def test_times_are_the_events(personas, record, session_in_play):
    tournament = session_in_play.tournament
    services.tournament_update(tournament=tournament, time_zone="Asia/Shanghai")
    ruling = Ruling.objects.get(decision=WARNING)
    moment = timezone.now().replace(hour=12, minute=5) - datetime.timedelta(days=1)
    Ruling.objects.filter(pk=ruling.pk).update(ruled_at=moment)
    # Given earlier than the others (this morning, by the tests' clock), it comes first.
    warning = rows(personas["organiser"].get(URL))[0]
    assert (warning[0], warning[8]) == ("1", WARNING)
    assert warning[4] == f"{moment.date().isoformat()} 20:05"


def test_a_rulings_penalty_waits_for_its_hand(personas, session_in_play, referee):
    table = session_in_play.tables.get(number=1)
    services.ruling_give(
        table=table,
        referee=referee,
        hand=5,
        decision="Late back from the break.",
        offence="lateness",
        penalty_kind="deducted",
        penalty_points=10,
        offender=seated(table, 0),
    )
    (row,) = rows(personas["organiser"].get(URL))
    assert row[7] == "10 deducted (hand 5 not entered yet)"
    for number in range(1, 6):
        services.hand_record(table=table, entry=services.HandEntry(number=number, outcome="draw"))
    (row,) = rows(personas["organiser"].get(URL))
    assert row[7] == "10 deducted"


# ------------------------------------------------------------------------- filters


def test_the_player_filter_keeps_their_fouls_numbered_as_in_the_whole_record(personas, record):
    found = rows(personas["organiser"].get(URL + f"?player={record['warned'].number}"))
    assert [row[0] for row in found] == ["3"]
    # The player who was paid has no foul of their own.
    assert rows(personas["organiser"].get(URL + f"?player={record['paid'].number}")) == [
        ["No foul on record."]
    ]


def test_the_session_filter(personas, record, session_in_play, organiser):
    assert [row[0] for row in rows(personas["organiser"].get(URL + "?session=1"))] == [
        "1",
        "2",
        "3",
    ]
    for table in session_in_play.tables.all():
        services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)
    tournament = session_in_play.tournament
    second = services.session_draw(tournament=tournament, number=2, seed=5)
    services.session_open(session=second)
    table = second.tables.get(number=4)
    services.ruling_give(
        table=table,
        referee=organiser,
        decision="Warned.",
        offence="procedural",
        players=[seated(table, 0)],
    )
    assert [row[0] for row in rows(personas["organiser"].get(URL + "?session=2"))] == ["4"]
    assert len(rows(personas["organiser"].get(URL))) == 4


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?session=9", "session"),
        ("?session=x", "session"),
        ("?player=99", "player"),
        ("?player=-1", "player"),
        ("?player=1e9", "player"),
        ("?player=" + "9" * 30, "player"),
    ],
)
def test_a_bad_filter_is_said_beside_its_field_with_no_rows(personas, record, query, field):
    response = personas["organiser"].get(URL + query)
    assert response.status_code == 200
    assert response.context["table"] is None
    assert field in response.context["form"].errors
    assert html.elements(response.content, f"#id_{field}[aria-invalid='true']")


def test_the_table_sorts_and_pages(personas, record, monkeypatch):
    monkeypatch.setattr(tables, "PAGE_SIZE", 2)
    organiser = personas["organiser"]
    first = rows(organiser.get(URL))
    assert [row[0] for row in first] == ["1", "2"]
    assert [row[0] for row in rows(organiser.get(URL + "?page=2"))] == ["3"]
    everything = organiser.get(URL + "?page=all")
    assert [row[0] for row in rows(everything)] == ["1", "2", "3"]
    assert html.elements(everything.content, "button[data-print]")
    # Paged, the page offers every row to print instead.
    paged = organiser.get(URL)
    assert not html.elements(paged.content, "button[data-print]")
    assert html.elements(paged.content, "a.button[href='?page=all']")
    # By the penalty's points (5 each, then the later first the other way), the warning
    # (no points) last either way.
    by_penalty = rows(organiser.get(URL + "?sort=penalty&page=all"))
    assert [row[0] for row in by_penalty] == ["1", "2", "3"]
    by_penalty = rows(organiser.get(URL + "?sort=-penalty&page=all"))
    assert [row[0] for row in by_penalty] == ["2", "1", "3"]
    by_player = rows(organiser.get(URL + "?sort=player&page=all"))
    numbers = [int(row[5].split()[0]) for row in by_player]
    assert numbers == sorted(numbers)


def test_the_selector_reads_the_record_in_four_queries(
    record, session_in_play, django_assert_num_queries
):
    tournament = session_in_play.tournament
    with django_assert_num_queries(4):
        fouls = record_of_fouls(tournament)
    assert [foul.number for foul in fouls] == [1, 2, 3]
    assert [f.number for f in record_of_fouls(tournament, FoulFilter(session=2))] == []


def test_a_sheet_penalty_is_timed_by_its_hands_first_entry(record, session_in_play):
    hand = Hand.objects.get(table__session=session_in_play, table__number=1, number=1)
    first = hand.history.earliest("history_date").history_date
    (sheet,) = [f for f in record_of_fouls(session_in_play.tournament) if f.ruling_id is None]
    assert sheet.time == first
    assert abs(timezone.now() - first) < datetime.timedelta(minutes=5)


# ------------------------------------------------------------------ the workbook's sheet


def test_the_workbook_has_the_record_read_back_as_the_page_shows_it(personas, record):
    from tests.test_exports import load, records

    sheet = load(record["sheet"].tournament)["Record of fouls"]
    # Printed on A4, turned landscape for its many columns, the headings on every page.
    assert (int(sheet.page_setup.paperSize), sheet.page_setup.orientation) == (9, "landscape")
    assert sheet.print_title_rows == "$1:$1"
    found = records(sheet)
    page = rows(personas["organiser"].get(URL))
    assert [row["No."] for row in found] == [int(row[0]) for row in page] == [1, 2, 3]
    sheet_penalty, ruled, warning = found
    player = record["sheet"]
    assert sheet_penalty == {
        "No.": 1,
        "Session": 1,
        "Table": 1,
        "Hand": 1,
        "Time": page[0][4],
        "Player number": str(player.number),
        "Player": player.name,
        "Chinese name": None,
        "Offence": None,
        "Penalty": "Paid to one player",
        "Points": 5,
        "Paid to": f"{record['paid'].number} {record['paid'].name}",
        "Decision": SHEET_REASON,
        "Referee": "referee",
        "Appeal": "none",
        "Appeal decision": None,
    }
    assert (ruled["Offence"], ruled["Penalty"], ruled["Points"]) == (
        "False win (错和)",
        "Paid to each other player",
        5,
    )
    assert (ruled["Decision"], ruled["Appeal"]) == (FALSE_WIN, "changed")
    assert ruled["Appeal decision"] == (
        "A slip of the hand: 5 points to each. (was: 10 to each other player)"
    )
    assert (warning["Penalty"], warning["Points"], warning["Appeal"]) == (
        "warning",
        None,
        "waiting",
    )
    assert warning["Referee"] == "organiser"


def test_a_decision_written_as_a_formula_stays_text_in_the_workbook(record, session_in_play):
    from tests.test_exports import data_rows, header_row, load

    table = session_in_play.tables.get(number=4)
    services.ruling_give(
        table=table,
        referee=None,
        decision='=HYPERLINK("http://example.com","appeal here")',
        offence="other",
        offence_text="@SUM(1+1)",
        players=[seated(table, 2)],
    )
    sheet = load(session_in_play.tournament)["Record of fouls"]
    last = data_rows(sheet)[-1]
    assert last[12] == '=HYPERLINK("http://example.com","appeal here")'
    assert last[8] == "@SUM(1+1)"
    row = header_row(sheet) + len(data_rows(sheet))
    assert sheet.cell(row=row, column=13).data_type == "s"


def test_the_record_in_chinese(record):
    from tournament.models import Tournament

    organiser = login(Tournament.objects.get(slug=SLUG).organisers.get())
    organiser.cookies["django_language"] = "zh-hans"
    response = organiser.get(URL)
    assert html.one(response.content, "h1").text().startswith("犯规记录")
    headings = html.table(response.content, "table.fouls")[0]
    assert headings[:2] == ["编号", "局次"]
    found = by_number(response)
    assert found["1"][7].startswith("付给 ")
    assert found["3"][7] == "警告"
    assert found["3"][10] == "待决定"
    assert found["2"][10].startswith("改判")
