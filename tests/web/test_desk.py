"""The referees' desk's pages with every persona: the desk, its live list of calls (304 under
its ETag while nothing changes, a bounded number of queries), a call taken and resolved by a
ruling, a ruling without a call, an appeal lodged and decided (organisers only); bad input
beside its field, never a 500; a GET never writes."""

import datetime
import json

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import html
from tournament import services
from tournament.models import Appeal, Penalty, RefereeCall, Ruling, Seat, Session


@pytest.fixture
def table(session_in_play):
    return session_in_play.tables.get(number=1)


def seated(table, seat: int):
    return Seat.objects.get(table=table, seat=seat).player


@pytest.fixture
def desk(table, referee):
    """A call open at table 1 (hand 1 entered as a draw), and a ruling at table 2 to appeal."""
    services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    call = services.call_make(table=table, reason="foul", hand=1, note="P2 declared a win")
    other = table.session.tables.get(number=2)
    ruling = services.ruling_give(table=other, referee=None, decision="Warned for slow play.")
    slug = table.session.tournament.slug
    return {
        "call": call,
        "ruling": ruling,
        "urls": {
            "desk": reverse("desk", args=[slug]),
            "calls": reverse("desk_calls", args=[slug]),
            "take": reverse("desk_call_take", args=[slug, call.pk]),
            "resolve": reverse("desk_call_resolve", args=[slug, call.pk]),
            "new": reverse("desk_ruling_new", args=[slug]) + "?table=1-3",
            "choose": reverse("desk_ruling_new", args=[slug]),
            "appeal": reverse("desk_appeal", args=[slug, ruling.pk]),
        },
    }


def appealed(desk, referee):
    appeal = services.appeal_lodge(ruling=desk["ruling"], user=referee, grounds="No warning.")
    slug = desk["ruling"].table.session.tournament.slug
    return appeal, reverse("desk_appeal_decide", args=[slug, appeal.pk])


def false_win(table, **extra) -> dict:
    return {
        "hand": "1",
        "players": [str(seated(table, 1).pk)],
        "offence": "false_win",
        "decision": "P2 declared a win on a tile that did not complete the hand.",
        "penalty_kind": "to_each_other",
        "penalty_points": "10",
        "offender": str(seated(table, 1).pk),
        **extra,
    }


READABLE = [("organiser", 200), ("referee", 200), ("other_referee", 403), ("anonymous", 302)]


@pytest.mark.parametrize(("persona", "expected"), READABLE)
@pytest.mark.parametrize("address", ["desk", "calls", "resolve", "new", "choose", "appeal"])
def test_desk_pages_by_persona(personas, desk, persona, expected, address):
    response = personas[persona].get(desk["urls"][address])
    assert response.status_code == expected
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_deciding_an_appeal_is_the_organisers(personas, desk, referee, persona, expected):
    appeal, url = appealed(desk, referee)
    assert personas[persona].get(url).status_code == expected
    response = personas[persona].post(url, {"decision": "upheld"})
    assert response.status_code == (302 if persona == "organiser" else expected)
    appeal.refresh_from_db()
    assert (appeal.decision == Appeal.UPHELD) == (persona == "organiser")


def test_another_tournaments_things_are_not_found(personas, desk, other_tournament):
    """The desk of the referee's own tournament, asked for another tournament's call: 404."""
    call = desk["call"].pk
    assert personas["referee"].get(
        reverse("desk_call_resolve", args=[other_tournament.slug, call])
    ).status_code in (403, 404)
    slug = desk["call"].table.session.tournament.slug
    assert (
        personas["referee"].get(reverse("desk_call_resolve", args=[slug, 999999])).status_code
        == 404
    )
    assert personas["referee"].get(reverse("desk_appeal", args=[slug, 999999])).status_code == 404
    assert (
        personas["organiser"].get(reverse("desk_appeal_decide", args=[slug, 999999])).status_code
        == 404
    )
    assert personas["referee"].get(desk["urls"]["choose"] + "?table=1-99").status_code == 404


def test_ids_guessed_from_another_tournaments_desk_find_nothing(personas, desk, other_tournament):
    """Another tournament's referee, on their own tournament's desk, with this one's ids: 404
    for each, and nothing changes."""
    own = other_tournament.slug
    stranger = personas["other_referee"]
    call, ruling = desk["call"], desk["ruling"]
    appeal = services.appeal_lodge(ruling=ruling, user=None, grounds="No warning.")
    for name, pk in (
        ("desk_call_take", call.pk),
        ("desk_call_resolve", call.pk),
        ("desk_appeal", ruling.pk),
        ("desk_appeal_decide", appeal.pk),
    ):
        address = reverse(name, args=[own, pk])
        assert stranger.get(address).status_code in (403, 404, 405), name
        assert stranger.post(address, {"decision": "upheld", "grounds": "x"}).status_code in (
            403,
            404,
        ), name
    call.refresh_from_db()
    appeal.refresh_from_db()
    assert (call.state, appeal.decision) == ("called", "")
    assert not Ruling.objects.filter(call=call).exists()


@pytest.mark.parametrize(("persona", "expected"), READABLE)
def test_taking_a_call_by_persona(personas, desk, organiser, referee, persona, expected):
    response = personas[persona].post(desk["urls"]["take"])
    assert response.status_code == (302 if expected == 200 else expected)
    call = RefereeCall.objects.get(pk=desk["call"].pk)
    users = {"organiser": organiser, "referee": referee}
    assert call.taken_by == users.get(persona)
    assert call.state == ("taken" if persona in users else "called")


def test_the_desk_lists_the_call_with_its_table_players_and_wait(personas, desk):
    response = personas["referee"].get(desk["urls"]["desk"])
    page = response.content.decode()
    (row,) = html.elements(page, "[data-call]")
    assert row.attrs["data-call"] == str(desk["call"].pk)
    text = row.text()
    assert "Session 1 · Table 1" in text and "A foul" in text and "Hand 1" in text
    assert "P2 declared a win" in text and "Nobody has taken it yet." in text
    assert len(row.find(".desk-call-players span")) == 4
    assert (
        row.one("[data-called-at]")
        .attrs["data-called-at"]
        .startswith(
            desk["call"]
            .called_at.astimezone(desk["call"].table.session.tournament.zone)
            .strftime("%Y-%m-%dT%H:%M")
        )
    )
    assert html.one(page, "title").text().startswith("(1) Referees' desk")
    # The ruling at table 2 with its Appeal button; the script, and no inline script.
    (ruling,) = html.elements(page, "[data-ruling]")
    assert "Warned for slow play." in ruling.text()
    assert ruling.find("a.button")[0].attrs["href"] == desk["urls"]["appeal"]
    assert "js/desk.js" in page and "<script>" not in page


def test_the_poll_answers_304_until_the_desk_changes(personas, desk, referee, table):
    client = personas["referee"]
    first = client.get(desk["urls"]["calls"])
    assert first.status_code == 200
    etag = first["ETag"]
    assert [e.attrs["data-call"] for e in html.elements(first.content.decode(), "[data-call]")] == [
        str(desk["call"].pk)
    ]
    made = services.call_make(table=table.session.tables.get(number=3), reason="time")
    after_call = client.get(desk["urls"]["calls"], HTTP_IF_NONE_MATCH=etag)
    assert after_call.status_code == 200
    assert str(made.pk) in [
        e.attrs["data-call"] for e in html.elements(after_call.content.decode(), "[data-call]")
    ]
    etag = after_call["ETag"]
    again = client.get(desk["urls"]["calls"], HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    services.call_take(call=made, user=referee)
    taken = client.get(desk["urls"]["calls"], HTTP_IF_NONE_MATCH=etag)
    assert taken.status_code == 200 and taken["ETag"] != etag
    assert "Taken by referee" in html.text(taken.content.decode())


def test_the_etag_names_the_language_and_the_role(personas, desk):
    referee_tag = personas["referee"].get(desk["urls"]["calls"])["ETag"]
    organiser_tag = personas["organiser"].get(desk["urls"]["calls"])["ETag"]
    chinese = personas["referee"].get(desk["urls"]["calls"], HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert len({referee_tag, organiser_tag, chinese["ETag"]}) == 3
    # The organiser's tag is no good to a referee: the part is sent again.
    assert (
        personas["referee"].get(desk["urls"]["calls"], HTTP_IF_NONE_MATCH=organiser_tag).status_code
        == 200
    )


def test_a_poll_reads_little(personas, desk, django_assert_max_num_queries):
    client = personas["referee"]
    etag = client.get(desk["urls"]["calls"])["ETag"]
    # The session, the account, the tournament (with its versions), the two roles, the
    # desk's version: nothing of the calls.
    with django_assert_max_num_queries(6):
        assert client.get(desk["urls"]["calls"], HTTP_IF_NONE_MATCH=etag).status_code == 304
    # With the calls, a fixed number whatever their count.
    for number in (2, 3, 4):
        services.call_make(table=desk["call"].table.session.tables.get(number=number))
    with CaptureQueriesContext(connection) as read:
        assert client.get(desk["urls"]["calls"], HTTP_IF_NONE_MATCH=etag).status_code == 200
    assert len(read.captured_queries) <= 9


@pytest.mark.parametrize("address", ["desk", "calls", "resolve", "new", "choose", "appeal"])
def test_a_get_never_writes(personas, desk, address):
    with CaptureQueriesContext(connection) as read:
        personas["organiser"].get(desk["urls"][address])
    writes = [
        q["sql"]
        for q in read.captured_queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    assert writes == []


def test_resolve_with_a_penalty_changes_the_hand_and_ends_the_call(personas, desk, table, referee):
    response = personas["referee"].post(desk["urls"]["resolve"], false_win(table))
    assert response.status_code == 302 and response["Location"] == desk["urls"]["desk"]
    ruling = Ruling.objects.get(call=desk["call"])
    assert (ruling.referee, ruling.offence, ruling.penalty_points) == (referee, "false_win", 10)
    assert table.hands.get(number=1).points == (10, -30, 10, 10)
    assert Penalty.objects.get(hand__table=table, hand__number=1).ruling == ruling
    call = RefereeCall.objects.get(pk=desk["call"].pk)
    assert (call.state, call.taken_by) == ("resolved", referee)
    page = personas["referee"].get(desk["urls"]["desk"]).content.decode()
    assert "Ruling recorded for table 1 of session 1." in html.text(page)
    assert html.elements(page, "[data-call]") == []


def test_the_ruling_form_starts_at_the_calls_hand_and_lists_the_rules(personas, desk):
    page = personas["referee"].get(desk["urls"]["resolve"]).content.decode()
    assert html.one(page, "input[name=hand]").attrs["value"] == "1"
    assert len(html.elements(page, "input[name=players]")) == 4
    offences = [o.attrs["value"] for o in html.elements(page, "select[name=offence] option")]
    assert offences[0] == "" and "false_win" in offences and offences[-1] == "other"
    assert "False win (错和): Paid to each other player, 10 points" in html.text(page)
    assert html.one(page, "script#offence-penalties").attrs["type"] == "application/json"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"decision": ""}, "decision", "Write the decision."),
        ({"penalty_points": "0"}, "penalty_points", "greater than or equal to 1"),
        ({"offender": ""}, "offender", "Choose the offender among the table's players."),
        ({"hand": "17"}, "hand", "less than or equal to 16"),
        ({"offence": "other"}, "offence_text", "Say what the offence was."),
        ({"penalty_kind": "to_one"}, "beneficiary", "Choose the player who is paid."),
        ({"offence": "made-up"}, "offence", "Select a valid choice"),
        ({"players": ["999999"]}, "players", "Select a valid choice"),
    ],
)
def test_bad_input_is_shown_beside_its_field(personas, desk, table, changes, field, message):
    response = personas["referee"].post(desk["urls"]["resolve"], false_win(table, **changes))
    assert response.status_code == 200
    page = response.content.decode()
    errors = html.elements(page, ".field.has-error")
    assert any(
        e.find(f"[name={field}]") and message in e.one(".field-errors").text() for e in errors
    ), [e.text() for e in errors]
    assert not Ruling.objects.filter(call=desk["call"]).exists()
    assert RefereeCall.objects.get(pk=desk["call"].pk).state == "called"


def test_a_penalty_the_hand_cannot_take_is_told_not_saved(personas, desk, table):
    services.hand_record(
        table=table,
        entry=services.HandEntry(number=2, outcome="self_drawn", winner=1, fan=8),
    )
    response = personas["referee"].post(desk["urls"]["resolve"], false_win(table, hand="2"))
    assert response.status_code == 200
    assert "cannot take this penalty" in html.text(response.content.decode())
    assert not Ruling.objects.filter(call=desk["call"]).exists()


def test_a_ruling_without_a_call_chooses_its_table_first(personas, desk, table):
    client = personas["organiser"]
    page = client.get(desk["urls"]["choose"]).content.decode()
    values = [o.attrs["value"] for o in html.elements(page, "select[name=table] option")]
    assert values == ["1-1", "1-2", "1-3", "1-4"]
    third = table.session.tables.get(number=3)
    response = client.post(
        desk["urls"]["new"], {"decision": "Told to keep the wall straight.", "hand": "2"}
    )
    assert response.status_code == 302
    ruling = Ruling.objects.get(table=third)
    assert (ruling.call, ruling.hand, ruling.penalty_kind) == (None, 2, "")


def test_an_appeal_lodged_then_refused_again(personas, desk):
    client = personas["referee"]
    ruling = desk["ruling"]
    player = seated(ruling.table, 0)
    empty = client.post(desk["urls"]["appeal"], {"grounds": "", "player": str(player.pk)})
    assert empty.status_code == 200 and "Write the grounds." in html.text(empty.content.decode())
    response = client.post(
        desk["urls"]["appeal"], {"grounds": "No warning first.", "player": str(player.pk)}
    )
    assert response.status_code == 302
    appeal = Appeal.objects.get(ruling=ruling)
    assert (appeal.player, appeal.grounds) == (player, "No warning first.")
    again = client.post(desk["urls"]["appeal"], {"grounds": "Again."})
    assert "This ruling is appealed already." in html.text(again.content.decode())
    page = client.get(desk["urls"]["desk"]).content.decode()
    (row,) = html.elements(page, "[data-ruling]")
    assert "Appealed: waiting for a decision" in row.text() and not row.find("a.button")
    (waiting,) = html.elements(page, "[data-appeal]")
    assert "The head referee (an organiser) decides it." in waiting.text()


def test_an_appeal_after_the_time_is_refused_with_the_services_words(
    personas, desk, session_in_play
):
    services.call_cancel(call=desk["call"])
    for each in session_in_play.tables.all():
        services.table_confirm(table=each, user=None, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)
    Session.objects.filter(pk=session_in_play.pk).update(
        closed_at=F("closed_at") - datetime.timedelta(minutes=31)
    )
    response = personas["referee"].post(desk["urls"]["appeal"], {"grounds": "Late."})
    assert response.status_code == 200
    assert "The time for appeals of session 1 ended 30 minutes after it closed." in html.text(
        response.content.decode()
    )
    assert not Appeal.objects.exists()


def test_a_closed_sessions_rulings_stay_while_they_may_be_appealed(personas, desk, session_in_play):
    services.call_cancel(call=desk["call"])
    for each in session_in_play.tables.all():
        services.table_confirm(table=each, user=None, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)
    page = personas["referee"].get(desk["urls"]["desk"]).content.decode()
    (row,) = html.elements(page, "[data-ruling]")
    assert row.one("a.button").attrs["href"] == desk["urls"]["appeal"]
    Session.objects.filter(pk=session_in_play.pk).update(
        closed_at=F("closed_at") - datetime.timedelta(minutes=31)
    )
    page = personas["referee"].get(desk["urls"]["desk"]).content.decode()
    assert html.elements(page, "[data-ruling]") == []


def test_an_appeal_changed_gives_the_new_penalty(personas, desk, table, referee):
    personas["referee"].post(desk["urls"]["resolve"], false_win(table))
    ruling = Ruling.objects.get(call=desk["call"])
    appeal = services.appeal_lodge(ruling=ruling, user=referee, grounds="The tile was right.")
    url = reverse("desk_appeal_decide", args=[table.session.tournament.slug, appeal.pk])
    form = personas["organiser"].get(url).content.decode()
    # The form starts from the ruling's penalty.
    assert html.one(form, "input[name=penalty_points]").attrs["value"] == "10"
    missing = personas["organiser"].post(url, {"decision": "changed"})
    assert "Say what changes and why." in html.text(missing.content.decode())
    response = personas["organiser"].post(
        url,
        {"decision": "changed", "reasons": "The win was valid: no penalty.", "penalty_kind": ""},
    )
    assert response.status_code == 302
    assert table.hands.get(number=1).points == (0, 0, 0, 0)
    page = personas["organiser"].get(reverse("desk", args=[table.session.tournament.slug]))
    text = html.text(page.content.decode())
    assert "Appeal decided: changed" in text and "The win was valid: no penalty." in text


def test_the_desk_is_linked_from_the_referee_home_and_the_menu(personas, desk):
    slug = desk["call"].table.session.tournament.slug
    page = personas["referee"].get(reverse("referee_home", args=[slug])).content.decode()
    links = [a.attrs.get("href") for a in html.elements(page, "a")]
    assert links.count(desk["urls"]["desk"]) == 2  # the page's button and the menu's link
    public = personas["anonymous"].get(reverse("tournament", args=[slug])).content.decode()
    assert desk["urls"]["desk"] not in public


def test_every_desk_page_in_chinese(personas, desk, referee):
    _appeal, decide = appealed(desk, referee)
    client = personas["organiser"]
    for url in [*(u for k, u in desk["urls"].items() if k != "take"), decide]:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans")
        assert response.status_code == 200
        problems = html.problems(response.content.decode())
        # The calls' part is a piece of the desk's page, not a page.
        assert [p for p in problems if url != desk["urls"]["calls"] or "doctype" not in p] == []
    page = client.get(desk["urls"]["desk"], HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "裁判席" in html.text(page) and "呼叫" in html.text(page)


def ema_presets(tournament, organiser) -> None:
    services.rules_change(
        tournament=tournament,
        user=organiser,
        reason="The EMA's presets",
        penalty_presets=services.profile_options("ema")["penalty_presets"],
    )


def offered(page) -> tuple[list[str], dict]:
    """The ruling form's offences, and the penalties its script fills from them."""
    options = [o.attrs["value"] for o in html.elements(page, "select[name=offence] option")]
    return options, json.loads(html.one(page, "script#offence-penalties").text())


def test_the_ruling_form_offers_the_tournaments_presets(personas, desk, table, organiser):
    page = personas["referee"].get(desk["urls"]["resolve"]).content.decode()
    options, penalties = offered(page)
    assert "tile_not_taken" not in options and "tile_not_taken" not in penalties
    assert penalties["not_ready"]["points"] == 20
    ema_presets(table.session.tournament, organiser)
    page = personas["referee"].get(desk["urls"]["resolve"]).content.decode()
    options, penalties = offered(page)
    assert options == [
        "",
        "false_win",
        "not_ready",
        "false_claim",
        "tile_not_taken",
        "exposed_tiles",
        "procedural",
        "lateness",
        "other",
    ]
    assert (penalties["tile_not_taken"]["kind"], penalties["tile_not_taken"]["points"]) == (
        "deducted",
        10,
    )
    assert penalties["not_ready"]["points"] == 10
    assert "Counted the hand before taking the winning tile: Deducted" in html.text(page)


def test_an_offence_the_tournament_does_not_preset_is_refused_beside_its_field(
    personas, desk, table
):
    ruling = false_win(table, offence="tile_not_taken", penalty_kind="deducted")
    response = personas["referee"].post(desk["urls"]["resolve"], ruling)
    assert response.status_code == 200
    (error,) = [
        e
        for e in html.elements(response.content.decode(), ".field.has-error")
        if e.find("[name=offence]")
    ]
    assert "Select a valid choice" in error.one(".field-errors").text()
    assert not Ruling.objects.filter(call=desk["call"]).exists()
