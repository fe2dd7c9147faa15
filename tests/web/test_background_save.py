"""The tablet's script saves a hand in the background: the sheet answers it in JSON.

A plain form post still gets the redirect or the page with its errors; a post that asks for
JSON (``Accept: application/json``) gets ``{"saved": true, ...}`` or a 422 with the reasons.
"""

import json
import os
import threading
import uuid

import pytest
from django.db import connection
from django.urls import reverse

from tests import html
from tests.conftest import login
from tournament import services
from tournament.models import Hand, HandSubmission

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def sheet_url(session_in_play):
    return reverse("table_sheet", args=[session_in_play.tournament.slug, 1, 1])


@pytest.fixture
def table(session_in_play):
    return session_in_play.tables.get(number=1)


def hand_fields(number=1, key=None, **fields):
    data = {
        "number": str(number),
        "submission_key": str(key or uuid.uuid4()),
        "outcome": "self_drawn",
        "winner": "1",
        "discarder": "",
        "fan": "8",
        "flowers": "0",
        "fan_names": "",
        "winning_hand": "",
        "penalty-TOTAL_FORMS": "0",
        "penalty-INITIAL_FORMS": "0",
        "penalty-MIN_NUM_FORMS": "0",
        "penalty-MAX_NUM_FORMS": "8",
    }
    data.update(fields)
    return data


def test_the_tables_referee_gets_json_when_the_hand_is_saved(personas, sheet_url, table):
    response = personas["referee"].post(sheet_url, hand_fields(), **JSON)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert json.loads(response.content) == {"saved": True, "number": 1, "version": 1}
    assert list(table.hands.values_list("number", flat=True)) == [1]


def test_an_organiser_gets_json_too(personas, sheet_url, table):
    response = personas["organiser"].post(sheet_url, hand_fields(), **JSON)
    assert response.status_code == 200
    assert response.json()["saved"] is True


def test_another_referee_is_refused_and_nothing_is_stored(personas, sheet_url, table):
    response = personas["other_referee"].post(sheet_url, hand_fields(), **JSON)
    assert response.status_code == 403
    assert not Hand.objects.exists()


def test_anonymous_goes_to_the_login_and_nothing_is_stored(personas, sheet_url, table):
    response = personas["anonymous"].post(sheet_url, hand_fields(), **JSON)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not Hand.objects.exists()


def test_a_repeated_key_answers_the_same_hand_stored_once(personas, sheet_url, table):
    client = personas["referee"]
    key = uuid.uuid4()
    first = client.post(sheet_url, hand_fields(key=key), **JSON)
    second = client.post(sheet_url, hand_fields(key=key), **JSON)
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json() == {"saved": True, "number": 1, "version": 1}
    assert table.hands.count() == 1
    assert HandSubmission.objects.filter(key=key).count() == 1


def test_a_refusal_is_a_422_with_the_reasons_and_nothing_stored(personas, sheet_url, table):
    response = personas["referee"].post(sheet_url, hand_fields(winner="", fan=""), **JSON)
    assert response.status_code == 422
    answer = response.json()
    assert answer["saved"] is False
    assert answer["retry"] is False
    assert answer["errors"]["winner"] and answer["errors"]["fan"]
    assert not Hand.objects.exists()


def test_a_hand_sent_after_the_table_was_confirmed_is_refused(personas, sheet_url, table):
    services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    response = personas["referee"].post(sheet_url, hand_fields(), **JSON)
    assert response.status_code == 422
    assert response.json()["errors"]
    assert not table.hands.exclude(outcome="not_played").filter(number=1, fan=8).exists()


def test_a_hand_another_tablet_entered_meanwhile_is_refused(personas, sheet_url, table):
    services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    response = personas["referee"].post(sheet_url, hand_fields(), **JSON)
    assert response.status_code == 422
    assert "number" in response.json()["errors"]
    assert table.hands.get(number=1).outcome == "draw"


def test_a_refused_penalty_row_is_named_in_the_reasons(personas, sheet_url, table):
    fields = hand_fields(
        **{
            "penalty-TOTAL_FORMS": "1",
            "penalty-0-offender": "2",
            "penalty-0-kind": "",
            "penalty-0-points": "10",
            "penalty-0-reason": "",
        }
    )
    response = personas["referee"].post(sheet_url, fields, **JSON)
    assert response.status_code == 422
    assert response.json()["errors"]["penalties"]
    assert not Hand.objects.exists()


def test_a_plain_post_still_redirects_and_a_plain_refusal_still_renders(personas, sheet_url):
    client = personas["referee"]
    saved = client.post(sheet_url, hand_fields())
    assert saved.status_code == 302
    assert saved["Location"].endswith("#entry")
    refused = client.post(sheet_url, hand_fields(number=2, winner="", fan=""))
    assert refused.status_code == 200
    assert html.elements(refused.content, "form#hand-entry")


def test_the_sheet_carries_the_schedule_and_the_sync_state(personas, sheet_url):
    page = personas["referee"].get(sheet_url).content.decode()
    assert html.elements(page, "#hand-schedule")
    assert html.elements(page, "[data-sync-state=saved]")
    assert [s for s in html.elements(page, "script[src]") if "js/tablet." in s.attrs["src"]]
    assert html.elements(page, "form[data-background-save]")
    schedule = personas["referee"].get(sheet_url).context["hand_schedule"]
    assert sorted(schedule) == list(range(1, 17))
    assert schedule[2]["title"] == "Enter hand 2"
    assert len(schedule[2]["seats"]) == 4


# ---------------------------------------------------------------- one key, other content


def test_the_same_key_with_another_hand_is_a_409_with_the_stored_hand(personas, sheet_url, table):
    # The tablet's *Edit it* resends a changed entry under its key, whose first send was
    # stored though its answer was lost: the change is a conflict, never "saved" and dropped.
    client = personas["referee"]
    key = uuid.uuid4()
    assert client.post(sheet_url, hand_fields(key=key), **JSON).json()["saved"] is True
    response = client.post(sheet_url, hand_fields(key=key, winner="2", fan="88"), **JSON)
    assert response.status_code == 409
    assert response["Content-Type"].startswith("application/json")
    answer = response.json()
    assert answer["saved"] is False
    assert answer["retry"] is False
    assert answer["conflict"] is True
    assert answer["message"].startswith("This entry was already saved with other content")
    assert answer["errors"] == {"number": [answer["message"]]}
    assert answer["stored"] == {
        "number": 1,
        "version": 1,
        "result": "P2 self-drawn 8",
        "points": [-16, 48, -16, -16],
        "text": "Stored hand 1: P2 self-drawn 8 (P1 −16, P2 +48, P3 −16, P4 −16).",
    }
    # The way forward: the stored hand's correction, a page with a key of its own.
    assert answer["correct"] == reverse("hand_edit", args=[table.session.tournament.slug, 1, 1, 1])
    assert client.get(answer["correct"]).status_code == 200
    hand = table.hands.get()
    assert (hand.winner, hand.fan) == (1, 8)
    assert HandSubmission.objects.filter(key=key).count() == 1


def test_the_same_key_with_another_hand_posted_plainly_shows_the_stored_hand(
    personas, sheet_url, table
):
    client = personas["referee"]
    key = uuid.uuid4()
    client.post(sheet_url, hand_fields(key=key))
    response = client.post(sheet_url, hand_fields(key=key, winner="2", fan="88"))
    assert response.status_code == 409
    page = response.content.decode()
    assert "This entry was already saved with other content" in page
    # Beside the form, the hand as stored, and the way to correct it.
    assert html.elements(page, "[data-stored-hand='1']")
    assert "Open hand 1 to correct it" in page
    assert table.hands.get().fan == 8
    # The form shown again carries a new key: saved again as it is, it is judged as the
    # new entry it is (the hand is entered: correct it), not as the old key's again.
    shown_key = html.one(page, "input[name=submission_key]").attrs["value"]
    assert shown_key != str(key)
    again = client.post(sheet_url, hand_fields(key=shown_key, winner="2", fan="88"))
    assert "This entry was already saved with other content" not in again.content.decode()
    assert "Open hand 1 to correct it" in again.content.decode()


def test_a_correction_form_saved_again_with_other_content_shows_the_stored_hand(personas, table):
    client = personas["referee"]
    services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    edit_url = reverse("hand_edit", args=[table.session.tournament.slug, 1, 1, 1])
    key = uuid.uuid4()
    corrected = client.post(edit_url, hand_fields(key=key, version="1"))
    assert corrected.status_code == 302
    # Back to the same form, changed, saved again: refused, not "corrected" and dropped.
    response = client.post(edit_url, hand_fields(key=key, version="1", winner="2", fan="88"))
    assert response.status_code == 409
    page = response.content.decode()
    assert "This entry was already saved with other content" in page
    assert html.elements(page, "[data-stored-hand='1']")
    hand = table.hands.get()
    assert (hand.winner, hand.fan, hand.version) == (1, 8, 2)


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL"),
    reason="threads need a database server: the tests' SQLite is in memory, its tables locked "
    "whole between threads (tests/test_concurrency.py races the same on a SQLite file)",
)
@pytest.mark.django_db(transaction=True)
def test_two_clients_racing_with_one_key_and_two_hands_store_one_the_other_told_conflict(
    session_in_play, referee, organiser
):
    # Two clients send one key at the same moment, each with its own hand: one is stored and
    # told "saved", the other is told of the conflict, never both "saved".
    url = reverse("table_sheet", args=[session_in_play.tournament.slug, 1, 1])
    table = session_in_play.tables.get(number=1)
    key = uuid.uuid4()
    sends = [hand_fields(key=key, winner="1", fan="8"), hand_fields(key=key, winner="2", fan="88")]
    clients = [login(referee), login(organiser)]
    start = threading.Barrier(len(sends))
    answers = [None] * len(sends)

    def send(index):
        start.wait()
        try:
            response = clients[index].post(url, sends[index], **JSON)
            answers[index] = (response.status_code, response.json())
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(sends))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    statuses = sorted(status for status, _answer in answers)
    assert statuses == [200, 409], answers
    saved = next(i for i, (status, _answer) in enumerate(answers) if status == 200)
    hand = table.hands.get()
    assert (str(hand.winner), str(hand.fan)) == (sends[saved]["winner"], sends[saved]["fan"])
    conflict = answers[1 - saved][1]
    assert conflict["saved"] is False
    assert conflict["stored"]["result"] == f"P{hand.winner + 1} self-drawn {hand.fan}"
    assert HandSubmission.objects.filter(key=key).count() == 1
