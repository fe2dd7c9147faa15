"""A table calls a referee: from its sheet (JSON for the tablet's script, a redirect for a plain
form), from its review (a hand the players disagree on), from a player's own page; the panel
of the table's calls answered "not changed" under the desk's version; a call cancelled; a hand
corrected as a ruling says. Every address with every persona; bad input told beside its field
or refused in JSON, never a 500; a key sent twice is one call; a GET writes nothing."""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tests import html
from tests.conftest import login
from tests.web.pages import hand_data, reviewed
from tournament import services
from tournament.hall import device_links
from tournament.models import HandRevision, RefereeCall, Table
from tournament.players import player_links


def url(name, *args, slug="spring-open"):
    return reverse(name, args=[slug, *args])


def table(number: int) -> Table:
    return Table.objects.select_related("session").get(session__number=1, number=number)


def tablet_at(number: int) -> Client:
    """An anonymous tablet signed in at table ``number`` through its card's link."""
    client = Client()
    token = device_links.device_token(table(number))
    assert client.get(reverse("device_link", args=[token])).status_code == 302
    return client


@pytest.fixture
def play(session_in_play, colleague):
    """Session 1 in play, table 1 the referee's, table 2 the colleague's."""
    services.tables_assign(session=session_in_play, referee=colleague, tables=[2])
    return session_in_play


@pytest.fixture
def clients(play, personas, colleague):
    """Every persona at table 1: who may act there, who may not."""
    return {
        **personas,
        "colleague": login(colleague),
        "tablet": tablet_at(1),
        "other_tablet": tablet_at(2),
    }


# The answer each persona gets at table 1's addresses: the table's referee, the organisers and
# the table's own tablet act; a referee of another table, of another tournament, or another
# table's tablet is refused; an anonymous visitor is sent to log in.
ALLOWED = {"organiser", "referee", "tablet"}
PERSONAS = [
    "organiser",
    "referee",
    "colleague",
    "other_referee",
    "anonymous",
    "tablet",
    "other_tablet",
]


def expect(response, persona, ok_status):
    if persona in ALLOWED:
        assert response.status_code == ok_status, persona
    elif persona == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == 403, persona


def call_data(**fields) -> dict:
    data = {"reason": "claim", "hand": "3", "note": "", "key": str(uuid.uuid4())}
    data.update({k: str(v) for k, v in fields.items()})
    return data


# ---------------------------------------------------------------- personas


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_call_panel_by_persona(clients, persona):
    response = clients[persona].get(url("table_calls", 1, 1))
    expect(response, persona, 200)
    assert RefereeCall.objects.count() == 0


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_call_by_persona(clients, persona):
    response = clients[persona].post(url("table_calls", 1, 1), call_data())
    expect(response, persona, 302)
    made = RefereeCall.objects.filter(table=table(1))
    assert made.count() == (1 if persona in ALLOWED else 0)
    if persona == "tablet":
        call = made.get()
        assert call.called_by is None
        assert call.called_by_device.startswith("table 1 · ")


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_cancel_by_persona(clients, persona):
    call = services.call_make(table=table(1), reason="time", key=uuid.uuid4())
    response = clients[persona].post(url("table_call_cancel", 1, 1, call.pk))
    expect(response, persona, 302)
    call.refresh_from_db()
    assert call.state == ("cancelled" if persona in ALLOWED else "called")


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_correction_as_ruled_by_persona(clients, referee, persona):
    services.hand_record(table=table(1), entry=services.HandEntry(number=1, outcome="draw"))
    ruling = services.ruling_give(table=table(1), referee=referee, decision="A win", hand=1)
    response = clients[persona].get(url("hand_edit", 1, 1, 1) + f"?ruling={ruling.pk}")
    expect(response, persona, 200)


@pytest.mark.parametrize("method", ["get", "post"])
def test_the_addresses_answer_only_their_methods(clients, method):
    call = services.call_make(table=table(1), key=uuid.uuid4())
    client = clients["referee"]
    if method == "get":
        assert client.get(url("table_call_cancel", 1, 1, call.pk)).status_code == 405
    else:
        assert client.put(url("table_calls", 1, 1)).status_code == 405


def test_another_tables_call_is_not_found_here(clients):
    call = services.call_make(table=table(2), key=uuid.uuid4())
    response = clients["referee"].post(url("table_call_cancel", 1, 1, call.pk))
    assert response.status_code == 404
    call.refresh_from_db()
    assert call.state == "called"


# ---------------------------------------------------------------- a call made


def test_the_tablets_call_answers_in_json_and_a_second_send_is_the_same_call(clients):
    data = call_data(note="East claims a win")
    tablet = clients["tablet"]
    first = tablet.post(url("table_calls", 1, 1), data, HTTP_ACCEPT="application/json")
    again = tablet.post(url("table_calls", 1, 1), data, HTTP_ACCEPT="application/json")
    assert first.status_code == again.status_code == 200
    assert first.json()["called"] is True
    assert first.json()["id"] == again.json()["id"]
    call = RefereeCall.objects.get()
    assert (call.reason, call.hand, call.note, str(call.key)) == (
        "claim",
        3,
        "East claims a win",
        data["key"],
    )


def test_a_plain_call_goes_back_to_the_sheet_which_says_called(clients):
    client = clients["referee"]
    response = client.post(url("table_calls", 1, 1), call_data(), follow=True)
    assert response.redirect_chain[-1][0] == url("table_sheet", 1, 1) + "#calls"
    page = html.parse(response.content)
    panel = page.one("[data-calls-panel]")
    assert "Called at" in panel.text()
    assert panel.attrs.get("data-call-open") is not None
    assert "A referee is called to table 1." in page.text()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("reason", "bribe", "Choose why a referee is called."),
        ("hand", "17", "A hand number is 1 to 16."),
        ("hand", "three", "A hand number is a whole number."),
        ("note", "ring\x07bell", ""),
        ("note", "x" * 201, "at most 200 characters"),
    ],
)
def test_bad_input_is_told_beside_its_field_and_stores_nothing(clients, field, value, message):
    data = call_data(**{field: value})
    plain = clients["referee"].post(url("table_calls", 1, 1), data)
    assert plain.status_code == 200
    errors = plain.context["form"].errors[field]
    assert errors and message in " ".join(errors)
    block = html.parse(plain.content).one(f"#field-{field} .field-errors")
    assert block.text().strip()
    background = clients["tablet"].post(
        url("table_calls", 1, 1), data, HTTP_ACCEPT="application/json"
    )
    assert background.status_code == 422
    assert background.json()["called"] is False
    assert background.json()["errors"][field]
    assert RefereeCall.objects.count() == 0


def test_a_call_without_a_key_is_refused(clients):
    data = call_data()
    del data["key"]
    response = clients["tablet"].post(
        url("table_calls", 1, 1), data, HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 422
    assert "key" in response.json()["errors"]
    assert RefereeCall.objects.count() == 0


def test_a_confirmed_table_calls_no_more_and_shows_no_button(clients, referee):
    services.table_confirm(table=table(1), user=referee, record_missing_as_not_played=True)
    sheet = html.parse(clients["referee"].get(url("table_sheet", 1, 1)).content)
    assert not sheet.find("[data-call-details]")
    response = clients["tablet"].post(
        url("table_calls", 1, 1), call_data(), HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 422
    assert "confirmed" in " ".join(response.json()["errors"]["__all__"])
    assert RefereeCall.objects.count() == 0


def test_the_sheet_offers_the_call_with_the_hand_being_played(clients):
    services.hand_record(table=table(1), entry=services.HandEntry(number=1, outcome="draw"))
    page = html.parse(clients["tablet"].get(url("table_sheet", 1, 1)).content)
    form = page.one("[data-call-details] form[data-call-form]")
    assert form.attrs["action"] == url("table_calls", 1, 1)
    assert form.one("input[name=hand]").attrs["value"] == "2"
    assert form.one("input[name=reason][value=other]").attrs.get("checked") is not None
    assert not form.find("input[name=reason][value=dispute]")
    uuid.UUID(form.one("input[name=key]").attrs["value"])


# ---------------------------------------------------------------- the panel


def test_the_panel_is_not_changed_until_the_desk_moves(clients, referee):
    client = clients["tablet"]
    first = client.get(url("table_calls", 1, 1))
    tag = first["ETag"]
    assert client.get(url("table_calls", 1, 1), HTTP_IF_NONE_MATCH=tag).status_code == 304
    call = services.call_make(table=table(1), reason="count", hand=4, key=uuid.uuid4())
    called = client.get(url("table_calls", 1, 1), HTTP_IF_NONE_MATCH=tag)
    assert called.status_code == 200
    assert called["ETag"] != tag
    assert "Called at" in html.parse(called.content).one(f"[data-call='{call.pk}']").text()
    services.call_take(call=call, user=referee)
    referee.first_name, referee.last_name = "Ada", "Wong"
    referee.save()
    taken = client.get(url("table_calls", 1, 1), HTTP_IF_NONE_MATCH=called["ETag"])
    assert "Referee on the way: Ada Wong" in html.parse(taken.content).text()


def test_a_resolved_call_links_to_the_correction_as_ruled(clients, referee):
    services.hand_record(table=table(1), entry=services.HandEntry(number=2, outcome="draw"))
    call = services.call_make(table=table(1), reason="count", hand=2, key=uuid.uuid4())
    ruling = services.ruling_give(
        table=table(1), referee=referee, decision="East won, 8 fan", call=call
    )
    page = html.parse(clients["tablet"].get(url("table_calls", 1, 1)).content)
    item = page.one(f"[data-call='{call.pk}']")
    assert "Resolved" in item.text()
    assert "East won, 8 fan" in item.text()
    link = item.one("a[data-correct-as-ruled]")
    assert link.attrs["href"] == url("hand_edit", 1, 1, 2) + f"?ruling={ruling.pk}#entry"
    assert "Correct hand 2 as ruled" in link.text()
    assert page.one("[data-calls-panel]").attrs.get("data-call-open") is None


def test_a_hand_corrected_as_ruled_names_the_ruling(clients, referee):
    hand = services.hand_record(table=table(1), entry=services.HandEntry(number=2, outcome="draw"))
    ruling = services.ruling_give(table=table(1), referee=referee, decision="A win", hand=2)
    client = clients["tablet"]
    page = client.get(url("hand_edit", 1, 1, 2) + f"?ruling={ruling.pk}")
    assert html.parse(page.content).one("#hand-entry input[name=ruling]").attrs["value"] == str(
        ruling.pk
    )
    data = hand_data(2, version=hand.version, ruling=ruling.pk, submission_key=uuid.uuid4())
    response = client.post(url("hand_edit", 1, 1, 2), data, follow=True)
    assert response.status_code == 200
    revision = HandRevision.objects.get(hand__table=table(1), hand__number=2)
    assert revision.ruling == ruling
    assert "corrected as ruled" in html.parse(response.content).one(".revisions").text()


def test_another_tables_ruling_is_not_a_reason_here(clients, colleague):
    services.hand_record(table=table(1), entry=services.HandEntry(number=1, outcome="draw"))
    other = services.ruling_give(table=table(2), referee=colleague, decision="A win", hand=1)
    assert (
        clients["referee"].get(url("hand_edit", 1, 1, 1) + f"?ruling={other.pk}").status_code == 404
    )
    response = clients["referee"].post(
        url("hand_edit", 1, 1, 1), hand_data(1, version=1, ruling=other.pk)
    )
    assert response.status_code == 404
    assert not HandRevision.objects.exists()


# ---------------------------------------------------------------- the review


def test_we_disagree_calls_about_the_hand_and_blocks_the_confirmation(clients, referee):
    for number in (1, 2):
        services.hand_record(
            table=table(1), entry=services.HandEntry(number=number, outcome="draw")
        )
    client = clients["tablet"]
    review = html.parse(client.get(url("table_confirm", 1, 1)).content)
    form = review.one("#hand-2 form[data-dispute-form]")
    data = {i.attrs["name"]: i.attrs.get("value", "") for i in form.find("input")}
    response = client.post(form.attrs["action"], data, follow=True)
    assert response.redirect_chain[-1][0] == url("table_confirm", 1, 1) + "#hands"
    call = RefereeCall.objects.get()
    assert (call.reason, call.hand) == ("dispute", 2)
    # The same row's form sent again (a double tap) is the same call.
    client.post(form.attrs["action"], data)
    assert RefereeCall.objects.count() == 1
    page = html.parse(response.content)
    assert page.one("#hand-2").attrs["data-disputed-hand"] == "2"
    assert "cannot be confirmed until the referee resolves" in page.one("[data-disputed]").text()
    confirm = url("table_confirm", 1, 1)
    refused = client.post(confirm, reviewed(client, confirm, record_missing_as_not_played="on"))
    assert refused.status_code == 200
    told = html.parse(refused.content).one("[data-confirm-refused]").text()
    assert "A referee's call at this table is open (hands: 2)" in told
    assert not table(1).is_confirmed
    services.ruling_give(table=table(1), referee=referee, decision="The draw stands", call=call)
    # The review shown again with that key (Back): nothing new is called, and it says so.
    again = client.post(form.attrs["action"], data, follow=True)
    assert "made before and is resolved: nothing new was called" in again.content.decode()
    assert RefereeCall.objects.count() == 1
    done = client.post(confirm, reviewed(client, confirm, record_missing_as_not_played="on"))
    assert done.status_code == 302
    assert table(1).is_confirmed


# ---------------------------------------------------------------- a player's own page


def seated_token(table_number: int = 1) -> tuple[str, object]:
    player = table(table_number).seats.select_related("player").get(seat=0).player
    return player_links.player_token(player), player


def test_a_player_calls_from_their_page_once_and_sees_the_state(play, referee):
    token, player = seated_token()
    client = Client()
    page = html.parse(client.get(reverse("player_link", args=[token])).content)
    form = page.one("#own-call form[data-call-form]")
    assert form.attrs["action"] == reverse("player_link_call", args=[token])
    data = call_data(reason="foul", note="Tiles shown")
    response = client.post(form.attrs["action"], data, follow=True)
    assert response.redirect_chain[-1][0] == reverse("player_link", args=[token]) + "#own-calls"
    client.post(form.attrs["action"], data)
    call = RefereeCall.objects.get()
    assert (call.player, call.table, call.reason) == (player, table(1), "foul")
    assert "Called at" in html.parse(response.content).one("#own-calls").text()
    services.call_take(call=call, user=referee)
    again = html.parse(client.get(reverse("player_link", args=[token])).content)
    assert "Referee on the way: referee" in again.one("#own-calls").text()
    assert not again.find("#own-calls [data-call-cancel]")


def test_a_players_bad_call_is_told_beside_its_field(play):
    token, _player = seated_token()
    response = Client().post(reverse("player_link_call", args=[token]), call_data(hand="17"))
    assert response.status_code == 200
    page = html.parse(response.content)
    assert "A hand number is 1 to 16." in page.one("#field-hand").text()
    assert RefereeCall.objects.count() == 0
    # Shown at the call's address, the page still asks its own address for news.
    assert page.one("#own-live").attrs["hx-get"] == reverse("player_link", args=[token])


def test_a_player_without_a_table_in_play_sees_no_button_and_calls_nothing(tournament):
    from tests.conftest import make_players

    player = make_players(tournament, 1)[0]
    token = player_links.player_token(player)
    page = html.parse(Client().get(reverse("player_link", args=[token])).content)
    assert not page.find("#own-call")
    response = Client().post(reverse("player_link_call", args=[token]), call_data())
    assert response.status_code == 302
    assert RefereeCall.objects.count() == 0


def test_a_forged_player_link_calls_nothing(play):
    response = Client().post(reverse("player_link_call", args=["forged:token"]), call_data())
    assert response.status_code == 403
    assert "Player link not valid" in response.content.decode()
    assert RefereeCall.objects.count() == 0


def test_the_player_link_call_answers_only_post(play):
    token, _player = seated_token()
    assert Client().get(reverse("player_link_call", args=[token])).status_code == 405


def test_the_time_of_a_call_is_the_events(clients, tournament):
    import datetime

    tournament.time_zone = "Asia/Shanghai"
    tournament.save()
    call = services.call_make(table=table(1), key=uuid.uuid4())
    RefereeCall.objects.filter(pk=call.pk).update(
        called_at=datetime.datetime(2026, 12, 7, 6, 5, tzinfo=datetime.UTC)
    )
    page = html.parse(clients["tablet"].get(url("table_calls", 1, 1)).content)
    assert "Called at 14:05" in page.one(f"[data-call='{call.pk}']").text()


def test_the_panel_in_chinese(clients):
    services.call_make(table=table(1), key=uuid.uuid4(), reason="time")
    response = clients["tablet"].get(url("table_calls", 1, 1), HTTP_ACCEPT_LANGUAGE="zh-hans")
    text = html.parse(response.content).text()
    assert "呼叫裁判" in text
    assert "已呼叫" in text
    english = clients["tablet"].get(url("table_calls", 1, 1), HTTP_ACCEPT_LANGUAGE="en")
    assert english["ETag"] != response["ETag"]


def test_a_correction_as_ruled_keeps_its_ruling_through_add_a_penalty_row(clients, referee):
    hand = services.hand_record(table=table(1), entry=services.HandEntry(number=2, outcome="draw"))
    ruling = services.ruling_give(table=table(1), referee=referee, decision="A win", hand=2)
    data = hand_data(2, version=hand.version, ruling=ruling.pk, add_penalty="1")
    page = html.parse(clients["referee"].post(url("hand_edit", 1, 1, 2), data).content)
    assert page.one("#hand-entry input[name=ruling]").attrs["value"] == str(ruling.pk)
    assert "A win" in page.one("[data-as-ruled]").text()


def test_the_tablets_cancel_answers_in_json_and_an_ended_call_stays_as_it_is(clients, referee):
    tablet = clients["tablet"]
    call = services.call_make(table=table(1), reason="time", key=uuid.uuid4())
    address = url("table_call_cancel", 1, 1, call.pk)
    for _twice in range(2):
        response = tablet.post(address, HTTP_ACCEPT="application/json")
        assert response.json() == {"cancelled": True}
    call.refresh_from_db()
    assert call.state == "cancelled"
    resolved = services.call_make(table=table(1), reason="claim", key=uuid.uuid4())
    services.ruling_give(table=table(1), referee=referee, decision="No win", call=resolved)
    response = tablet.post(
        url("table_call_cancel", 1, 1, resolved.pk), HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 422
    assert response.json()["cancelled"] is False
    resolved.refresh_from_db()
    assert resolved.state == "resolved"
    page = clients["referee"].post(url("table_call_cancel", 1, 1, resolved.pk), follow=True)
    assert "This call is resolved already." in page.content.decode()


def test_a_get_of_the_panel_writes_nothing(clients):
    from tournament.selectors.desk import desk_version

    services.call_make(table=table(1), key=uuid.uuid4())
    before = (desk_version(table(1).session.tournament_id), RefereeCall.objects.count())
    for persona in PERSONAS:
        clients[persona].get(url("table_calls", 1, 1))
        clients[persona].head(url("table_calls", 1, 1))
    assert (desk_version(table(1).session.tournament_id), RefereeCall.objects.count()) == before


def test_a_call_about_no_hand_is_said_on_the_review_too(clients):
    services.call_make(table=table(1), reason="time", key=uuid.uuid4())
    page = html.parse(clients["referee"].get(url("table_confirm", 1, 1)).content)
    note = page.one("[data-disputed]").text()
    assert "A referee is called to this table." in note
    assert "cannot be confirmed until the referee resolves" in note
    assert not page.find("[data-disputed-hand]")
