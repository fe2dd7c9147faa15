"""hand_record and the entry form's one-time key: the same key with the same content returns
the first save, never a second hand; with other content it is a conflict, never "saved"."""

import dataclasses
import uuid

import pytest
from django.core.exceptions import ValidationError

from tests.services.errors import codes
from tournament import services
from tournament.models import Hand, HandRevision, HandSubmission
from tournament.services import PenaltyEntry
from tournament.services.hands import entry_digest


@pytest.fixture
def table(session_in_play):
    return session_in_play.tables.get(number=1)


EIGHT_FAN_WIN = {"outcome": "self_drawn", "winner": 0, "fan": 8}


# A form's one-time key: sending it again returns the first save, never a second hand.


def test_the_same_form_sent_twice_stores_one_hand(table):
    key = uuid.uuid4()
    first = services.hand_record(
        table=table, entry=services.HandEntry(number=1, submission_key=key, **EIGHT_FAN_WIN)
    )
    again = services.hand_record(
        table=table, entry=services.HandEntry(number=1, submission_key=key, **EIGHT_FAN_WIN)
    )
    assert again.pk == first.pk
    assert Hand.objects.count() == 1
    assert not HandRevision.objects.exists()
    assert HandSubmission.objects.get(key=key).version == 1


def test_a_repeated_form_succeeds_even_after_the_table_was_confirmed(table):
    key = uuid.uuid4()
    first = services.hand_record(
        table=table, entry=services.HandEntry(number=1, submission_key=key, **EIGHT_FAN_WIN)
    )
    services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    assert (
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, submission_key=key, **EIGHT_FAN_WIN)
        )
        == first
    )


def test_a_different_form_for_a_stored_hand_is_refused_as_already_entered(table):
    services.hand_record(
        table=table,
        entry=services.HandEntry(number=1, submission_key=uuid.uuid4(), **EIGHT_FAN_WIN),
    )
    with pytest.raises(ValidationError) as raised:
        services.hand_record(
            table=table,
            entry=services.HandEntry(number=1, submission_key=uuid.uuid4(), outcome="draw"),
        )
    assert codes(raised.value) == {"hand_already_entered"}
    assert Hand.objects.get().outcome == "self_drawn"


def test_a_form_key_is_never_used_for_another_hand(table):
    key = uuid.uuid4()
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, submission_key=key, **EIGHT_FAN_WIN)
    )
    with pytest.raises(ValidationError) as raised:
        services.hand_record(
            table=table, entry=services.HandEntry(number=2, submission_key=key, **EIGHT_FAN_WIN)
        )
    assert codes(raised.value) == {"submission_key_reused"}
    assert not Hand.objects.filter(number=2).exists()


def test_a_correction_sent_twice_is_one_correction(table):
    hand = services.hand_record(table=table, entry=services.HandEntry(number=1, **EIGHT_FAN_WIN))
    key = uuid.uuid4()
    draw = {"outcome": "draw", "version": hand.version, "submission_key": key}
    corrected = services.hand_record(table=table, entry=services.HandEntry(number=1, **draw))
    again = services.hand_record(table=table, entry=services.HandEntry(number=1, **draw))
    assert (again.pk, again.version, again.outcome) == (corrected.pk, 2, "draw")
    assert HandRevision.objects.count() == 1


def test_a_refused_form_can_be_sent_again_once_corrected(table):
    key = uuid.uuid4()
    with pytest.raises(ValidationError):
        services.hand_record(
            table=table,
            entry=services.HandEntry(
                number=1, submission_key=key, outcome="self_drawn", winner=0, fan=5
            ),
        )
    hand = services.hand_record(
        table=table, entry=services.HandEntry(number=1, submission_key=key, **EIGHT_FAN_WIN)
    )
    assert hand.fan == 8


# The same key with other content: a conflict, never "saved" (the entry would be dropped).

BIG_WIN = {"outcome": "self_drawn", "winner": 2, "fan": 88}


def test_the_same_key_with_another_hand_is_a_conflict_and_the_first_hand_stays(table):
    key = uuid.uuid4()
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, submission_key=key, **EIGHT_FAN_WIN)
    )
    with pytest.raises(ValidationError) as raised:
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, submission_key=key, **BIG_WIN)
        )
    assert set(raised.value.error_dict) == {"number"}
    assert codes(raised.value) == {"submission_key_conflict"}
    assert "already saved with other content" in raised.value.messages[0]
    hand = Hand.objects.get()
    assert (hand.winner, hand.fan, hand.version) == (0, 8, 1)
    assert HandSubmission.objects.get(key=key).hand == hand


def test_a_correction_sent_again_with_other_content_is_a_conflict(table):
    # Back to the correction's form, another change, saved again: not "corrected" unseen.
    hand = services.hand_record(table=table, entry=services.HandEntry(number=1, **EIGHT_FAN_WIN))
    key = uuid.uuid4()
    draw = {"outcome": "draw", "version": hand.version, "submission_key": key}
    services.hand_record(table=table, entry=services.HandEntry(number=1, **draw))
    with pytest.raises(ValidationError) as raised:
        services.hand_record(table=table, entry=services.HandEntry(number=1, **{**draw, **BIG_WIN}))
    assert codes(raised.value) == {"submission_key_conflict"}
    assert Hand.objects.get().outcome == "draw"
    assert HandRevision.objects.count() == 1


def test_a_conflict_is_told_even_after_the_table_was_confirmed(table):
    key = uuid.uuid4()
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, submission_key=key, **EIGHT_FAN_WIN)
    )
    services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    with pytest.raises(ValidationError) as raised:
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, submission_key=key, **BIG_WIN)
        )
    assert codes(raised.value) == {"submission_key_conflict"}


CHANGED = {
    "winner": {"winner": 1},
    "fan": {"fan": 9},
    "flowers": {"flowers": 1},
    "fans claimed": {"fan_names": "Pure Straight"},
    "winning hand": {"winning_hand": "123456789m1s111z +1s"},
    "a penalty": {
        "penalties": [PenaltyEntry(offender=1, kind="deducted", points=10, reason="Lateness")]
    },
    "the figure kept": {"keep_referee_figure": True},
    "the version corrected": {"version": 1},
    "the seating": {"seating": "1-2-3-4"},
}


@pytest.mark.parametrize("change", CHANGED.values(), ids=CHANGED.keys())
def test_every_part_of_an_entry_that_is_stored_is_in_its_digest(change):
    entry = services.HandEntry(number=1, **EIGHT_FAN_WIN)
    assert entry_digest(dataclasses.replace(entry, **change)) != entry_digest(entry)


def test_the_digest_reads_an_entry_as_it_is_stored_and_leaves_its_key_out():
    entry = services.HandEntry(number=1, fan_names="Pure Straight", **EIGHT_FAN_WIN)
    same = dataclasses.replace(entry, fan_names=" Pure Straight ", submission_key=uuid.uuid4())
    assert entry_digest(same) == entry_digest(entry)


def test_a_key_stored_before_digests_were_kept_matches_any_content(table):
    # Keys stored before the migration have no digest: they answer as they did.
    key = uuid.uuid4()
    first = services.hand_record(
        table=table, entry=services.HandEntry(number=1, submission_key=key, **EIGHT_FAN_WIN)
    )
    assert HandSubmission.objects.get(key=key).digest
    HandSubmission.objects.filter(key=key).update(digest="")
    again = services.hand_record(
        table=table, entry=services.HandEntry(number=1, submission_key=key, **BIG_WIN)
    )
    assert again == first
    assert Hand.objects.get().fan == 8
