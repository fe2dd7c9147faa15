"""A change of the rules that settles stored hands again, asked for on the organiser's page and
made by the task queue: kept waiting, made once, refused whole (the tournament untouched, the
reason for the refusal kept), one at a time; what settles no hand is made at once."""

import pytest
from django.core.exceptions import ValidationError

from tests.services.errors import codes
from tournament import services
from tournament.models import RuleChange, RuleChangeJob, Tournament
from tournament.server.task_worker import tasks_run_ready
from tournament.services import HandEntry


@pytest.fixture
def played(session_in_play):
    """Hand 1 at table 1: a 9-fan self-drawn win with 2 flowers."""
    table = session_in_play.tables.get(number=1)
    services.hand_record(
        table=table, entry=HandEntry(number=1, outcome="self_drawn", winner=2, fan=9, flowers=2)
    )
    return session_in_play.tournament


def test_a_change_that_scores_no_hand_differently_is_made_at_once(organiser, played):
    change = services.rules_change_ask(
        tournament=played, user=organiser, reason="Score first.", tiebreak_order="score"
    )
    assert isinstance(change, RuleChange) and change.hands_settled == 0
    assert not RuleChangeJob.objects.exists()


def test_a_change_that_settles_hands_waits_for_the_task_queue_then_is_made_once(played, organiser):
    job = services.rules_change_ask(
        tournament=played, user=organiser, reason="Seven.", minimum_fan=7
    )
    assert (job.status, job.options, job.reason) == ("queued", {"minimum_fan": 7}, "Seven.")
    assert Tournament.objects.get(pk=played.pk).minimum_fan == 8
    with pytest.raises(ValidationError) as refused:
        services.rules_change_ask(tournament=played, user=organiser, reason="Six.", minimum_fan=6)
    assert codes(refused.value) == {"rules_change_under_way"}

    tasks_run_ready()
    job.refresh_from_db()
    assert job.status == "done" and job.change.after["minimum_fan"] == 7
    assert (job.change.hands_settled, job.change.changed_by) == (1, organiser)
    assert Tournament.objects.get(pk=played.pk).minimum_fan == 7
    # Run again (a worker killed after it), the task leaves the job as it is.
    assert services.rules_change_run.call(job_id=job.pk) == "ended before"
    assert RuleChange.objects.count() == 1


def test_what_can_be_refused_at_once_is_and_a_hand_that_cannot_be_settled_refuses_the_job(
    played, organiser
):
    with pytest.raises(ValidationError) as refused:
        services.rules_change_ask(tournament=played, user=organiser, flowers=False)
    assert codes(refused.value) == {"reason_required"}
    with pytest.raises(ValidationError) as refused:
        services.rules_change_ask(tournament=played, user=organiser, reason="x", minimum_fan=0)
    assert codes(refused.value) == {"min_value"}

    job = services.rules_change_ask(
        tournament=played, user=organiser, reason="No flowers.", flowers=False
    )
    tasks_run_ready()
    job.refresh_from_db()
    assert job.status == "failed" and "Session 1, table 1, hand 1" in job.error
    assert Tournament.objects.get(pk=played.pk).flowers is True
    assert not RuleChange.objects.exists()
    # Ended, it no longer holds the next change back.
    assert (
        services.rules_change_ask(
            tournament=played, user=organiser, reason="Seven.", minimum_fan=7
        ).status
        == "queued"
    )
