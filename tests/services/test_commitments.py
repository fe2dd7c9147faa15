"""draw_commit, draw_commitment_public_value, draw_commitment_withdraw, and the committed first
draw made by session_draw."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tests.conftest import make_players
from tests.services.errors import codes
from tournament import services
from tournament.models import DrawCommitment, SeatingPlan, Session
from tournament.seating import commitment as rules
from tournament.seating.draw import SEED_MAX, SEED_MIN
from tournament.selectors.fairness import fairness_page, fairness_record
from tournament.selectors.seating import drawn_tables

METHODS = ["lot", "planned", "random", "standings", "serpentine", "top_tables"]


@pytest.fixture
def sixteen(tournament):
    make_players(tournament, 16)
    return tournament


def refused(code, write):
    with pytest.raises(ValidationError) as caught:
        write()
    assert code in codes(caught.value), codes(caught.value)
    return caught.value


def drawn_lists(tournament, number):
    return [list(table) for table in drawn_tables(tournament)[number]]


# ---------------------------------------------------------------- commit


def test_a_commitment_seals_the_document_with_a_secret_seed_and_salt(sixteen):
    commitment = services.draw_commit(tournament=sixteen, method="lot")
    document = json.loads(commitment.document)
    assert [p["number"] for p in document["players"]] == list(range(1, 17))
    assert document["method"] == "lot"
    assert document["committed_at"] == rules.utc_text(commitment.committed_at)
    assert document["public_value_source"] is None
    # The stored text is the canonical text, exactly as hashed.
    assert commitment.document.encode("utf-8") == rules.canonical_bytes(document)
    assert commitment.hash == rules.commitment_hash(
        document, seed=commitment.secret_seed, salt=commitment.salt
    )
    assert SEED_MIN <= commitment.secret_seed <= SEED_MAX
    assert len(commitment.salt) == 32
    assert commitment.revealed_at is None and commitment.withdrawn_at is None


def test_the_organiser_may_type_the_secret_seed(sixteen):
    commitment = services.draw_commit(tournament=sixteen, seed=20261130)
    assert commitment.secret_seed == 20261130


def test_two_commitments_never_share_a_secret(sixteen):
    first = services.draw_commit(tournament=sixteen)
    services.draw_commitment_withdraw(commitment=first)
    second = services.draw_commit(tournament=sixteen)
    assert (first.secret_seed, first.salt) != (second.secret_seed, second.salt)
    assert first.hash != second.hash


def test_the_committed_method_defaults_to_the_tournaments(sixteen):
    commitment = services.draw_commit(tournament=sixteen)
    assert json.loads(commitment.document)["method"] == sixteen.seating_method == "lot"


def test_only_the_first_draw_can_be_committed(sixteen):
    services.session_draw(tournament=sixteen, number=1, seed=5)
    refused("draw_already_made", lambda: services.draw_commit(tournament=sixteen))
    assert not DrawCommitment.objects.exists()


def test_one_live_commitment_at_a_time(sixteen):
    services.draw_commit(tournament=sixteen)
    refused("already_committed", lambda: services.draw_commit(tournament=sixteen))
    assert DrawCommitment.objects.count() == 1


def test_the_database_keeps_one_live_commitment_per_tournament(sixteen):
    live = services.draw_commit(tournament=sixteen)
    with pytest.raises(IntegrityError), transaction.atomic():
        DrawCommitment.objects.create(
            tournament=sixteen,
            hash=live.hash,
            document=live.document,
            secret_seed=1,
            salt="00",
            committed_at=live.committed_at,
        )


def test_the_database_refuses_a_public_value_never_promised(sixteen):
    live = services.draw_commit(tournament=sixteen)
    live.public_value = "abc"
    live.public_value_at = live.committed_at
    with pytest.raises(IntegrityError), transaction.atomic():
        live.save()


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"method": "sideways"}, "unknown_method"),
        ({"seed": -1}, "bad_seed"),
        ({"seed": 10**15 + 1}, "bad_seed"),
        ({"method": "top_tables", "top": 5}, "bad_top"),
        ({"public_value_source": "x" * 201}, "public_value_too_long"),
    ],
)
def test_bad_commitments_are_refused(sixteen, fields, code):
    refused(code, lambda: services.draw_commit(tournament=sixteen, **fields))
    assert not DrawCommitment.objects.exists()


def test_a_player_count_that_cannot_be_drawn_cannot_be_committed(tournament):
    make_players(tournament, 15)
    refused("not_multiple_of_four", lambda: services.draw_commit(tournament=tournament))


def test_a_seed_made_public_by_a_withdrawal_cannot_be_committed_again(sixteen):
    withdrawn = services.draw_commitment_withdraw(
        commitment=services.draw_commit(tournament=sixteen, seed=777)
    )
    refused(
        "seed_public", lambda: services.draw_commit(tournament=sixteen, seed=withdrawn.secret_seed)
    )
    assert services.draw_commit(tournament=sixteen, seed=778).secret_seed == 778


def test_a_planned_method_whose_plan_outlived_a_cancelled_draw_cannot_be_committed(sixteen):
    session = services.session_draw(tournament=sixteen, number=1, seed=5, method="planned")
    services.session_cancel_draw(session=session)
    refused("plan_seed_fixed", lambda: services.draw_commit(tournament=sixteen, method="planned"))
    assert services.draw_commit(tournament=sixteen, method="random")


# ---------------------------------------------------------------- the committed draw


def test_the_committed_draw_defaults_to_the_committed_method(sixteen):
    services.draw_commit(tournament=sixteen, method="serpentine")
    assert services.session_draw(tournament=sixteen, number=1).method == "serpentine"


def test_the_first_draw_uses_the_committed_seed_and_reveals_it(sixteen):
    commitment = services.draw_commit(tournament=sixteen, method="lot")
    session = services.session_draw(tournament=sixteen, number=1)
    commitment.refresh_from_db()
    assert session.seed == commitment.secret_seed
    assert commitment.revealed_at is not None
    assert commitment.session_number == 1
    assert commitment.drawn == {"1": drawn_lists(sixteen, 1)}
    record = fairness_record(commitment)
    assert record["seed"] == commitment.secret_seed
    assert rules.verify(record, expected_hash=commitment.hash).ok


def test_the_draw_waits_for_the_promised_public_value(sixteen):
    commitment = services.draw_commit(tournament=sixteen, public_value_source="drand round 9")
    refused("public_value_missing", lambda: services.session_draw(tournament=sixteen, number=1))
    assert not Session.objects.exists()
    services.draw_commitment_public_value(commitment=commitment, value="  4f2a  ")
    session = services.session_draw(tournament=sixteen, number=1)
    commitment.refresh_from_db()
    assert commitment.public_value == "4f2a"
    assert session.seed == rules.draw_seed(commitment.secret_seed, "4f2a")
    assert session.seed != commitment.secret_seed
    assert rules.verify(fairness_record(commitment)).ok


def test_a_committed_draw_refuses_a_typed_seed(sixteen):
    services.draw_commit(tournament=sixteen)
    refused("seed_committed", lambda: services.session_draw(tournament=sixteen, number=1, seed=1))
    assert not Session.objects.exists()


def test_a_committed_draw_refuses_other_players_and_says_which(sixteen):
    services.draw_commit(tournament=sixteen)
    services.player_withdraw(player=sixteen.players.get(number=3))
    services.player_save(tournament=sixteen, number=17, name="Sub", is_substitute=True)
    error = refused(
        "commitment_differs", lambda: services.session_draw(tournament=sixteen, number=1)
    )
    message = " ".join(error.messages)
    assert "Player 17 is drawn now but was not committed." in message
    assert "Player 3 was committed but is no longer drawn." in message
    assert "Withdraw the commitment" in message
    assert not Session.objects.exists()


def test_a_committed_draw_refuses_another_method_or_option(sixteen):
    services.draw_commit(tournament=sixteen, method="planned")
    error = refused(
        "commitment_differs",
        lambda: services.session_draw(tournament=sixteen, number=1, method="random"),
    )
    assert "The method was planned, now random." in " ".join(error.messages)
    services.tournament_update(tournament=sixteen, session_count=5)
    error = refused(
        "commitment_differs",
        lambda: services.session_draw(tournament=sixteen, number=1, method="planned"),
    )
    assert "The option sessions was 4, now 5." in " ".join(error.messages)


def test_a_committed_draw_refuses_a_changed_group(sixteen):
    services.tournament_update(tournament=sixteen, separate_by="team")
    services.draw_commit(tournament=sixteen, method="random")
    services.player_save(tournament=sixteen, player=sixteen.players.get(number=5), team="Club")
    error = refused(
        "commitment_differs",
        lambda: services.session_draw(tournament=sixteen, number=1, method="random"),
    )
    assert "Player 5 changed group or substitute status." in " ".join(error.messages)


def test_a_renamed_player_does_not_stop_the_committed_draw(sixteen):
    services.draw_commit(tournament=sixteen)
    services.player_save(tournament=sixteen, player=sixteen.players.get(number=5), name="Typo")
    assert services.session_draw(tournament=sixteen, number=1)


@pytest.mark.parametrize("method", METHODS)
def test_every_method_draws_as_committed_and_verifies(tournament, method):
    make_players(tournament, 15, team="")
    for number, team in ((1, "Club A"), (2, "Club A"), (5, "Club B"), (6, "Club B")):
        services.player_save(
            tournament=tournament, player=tournament.players.get(number=number), team=team
        )
    services.player_save(tournament=tournament, number=16, name="Sub", is_substitute=True)
    services.player_save(tournament=tournament, number=17, name="Spare", is_substitute=True)
    services.tournament_update(tournament=tournament, separate_by="team")
    commitment = services.draw_commit(
        tournament=tournament, method=method, top=2, public_value_source="lottery of 5 December"
    )
    services.draw_commitment_public_value(commitment=commitment, value="07 13 21 34 45")
    services.session_draw(tournament=tournament, number=1, method=method, top=2)
    commitment.refresh_from_db()
    record = fairness_record(commitment)
    assert record["seating"] == {"1": drawn_lists(tournament, 1)}
    found = rules.verify(record, expected_hash=commitment.hash)
    assert found.ok, found.checks


def test_the_committed_schedule_covers_the_later_planned_sessions(sixteen):
    commitment = services.draw_commit(tournament=sixteen, method="planned")
    services.session_draw(tournament=sixteen, number=1)
    services.session_draw(tournament=sixteen, number=2, method="planned")
    commitment.refresh_from_db()
    assert commitment.drawn == {"1": drawn_lists(sixteen, 1), "2": drawn_lists(sixteen, 2)}
    assert rules.verify(fairness_record(commitment)).ok
    # A withdrawal re-plans the later sessions: they are no longer the committed schedule.
    services.player_withdraw(player=sixteen.players.get(number=4))
    services.player_save(tournament=sixteen, number=17, name="Sub", is_substitute=True)
    services.session_draw(tournament=sixteen, number=3, method="planned")
    assert SeatingPlan.objects.get(tournament=sixteen).replans == 1
    commitment.refresh_from_db()
    assert set(commitment.drawn) == {"1", "2"}
    assert rules.verify(fairness_record(commitment)).ok


def test_later_sessions_of_another_method_are_not_covered(sixteen):
    commitment = services.draw_commit(tournament=sixteen, method="lot")
    services.session_draw(tournament=sixteen, number=1)
    services.session_draw(tournament=sixteen, number=2, seed=8)
    commitment.refresh_from_db()
    assert set(commitment.drawn) == {"1"}


def test_a_cancelled_committed_draw_stays_in_the_record(sixteen):
    commitment = services.draw_commit(tournament=sixteen)
    session = services.session_draw(tournament=sixteen, number=1)
    drawn = drawn_lists(sixteen, 1)
    services.session_cancel_draw(session=session)
    commitment.refresh_from_db()
    assert commitment.drawn == {"1": drawn}
    assert [s.state for s in fairness_page(sixteen).covered] == ["cancelled"]
    refused("already_committed", lambda: services.draw_commit(tournament=sixteen))
    # Drawn again without the commitment (its seed is public): a free draw, said so.
    services.session_draw(tournament=sixteen, number=1, seed=99)
    assert [s.state for s in fairness_page(sixteen).covered] == ["redrawn"]


def test_a_substitute_in_a_drawn_seat_leaves_the_draw_standing(sixteen):
    services.player_save(tournament=sixteen, number=17, name="Sub", is_substitute=True)
    commitment = services.draw_commit(tournament=sixteen)
    session = services.session_draw(tournament=sixteen, number=1)
    seat = session.seats.get(player__number=3)
    services.player_withdraw(player=seat.player)
    services.seat_replace(seat=seat, player=sixteen.players.get(number=17))
    assert [s.state for s in fairness_page(sixteen).covered] == ["standing"]
    commitment.refresh_from_db()
    assert rules.verify(fairness_record(commitment)).ok


# ---------------------------------------------------------------- the public value


def test_the_public_value_is_recorded_once(sixteen):
    commitment = services.draw_commit(tournament=sixteen, public_value_source="drand round 9")
    recorded = services.draw_commitment_public_value(commitment=commitment, value="ab")
    assert recorded.public_value_at is not None
    refused(
        "public_value_recorded",
        lambda: services.draw_commitment_public_value(commitment=commitment, value="cd"),
    )
    commitment.refresh_from_db()
    assert commitment.public_value == "ab"


@pytest.mark.parametrize(
    ("source", "value", "code"),
    [
        ("", "ab", "public_value_not_promised"),
        ("drand round 9", "   ", "public_value_empty"),
        ("drand round 9", "x" * 201, "public_value_too_long"),
    ],
)
def test_bad_public_values_are_refused(sixteen, source, value, code):
    commitment = services.draw_commit(tournament=sixteen, public_value_source=source)
    refused(code, lambda: services.draw_commitment_public_value(commitment=commitment, value=value))
    commitment.refresh_from_db()
    assert commitment.public_value == ""


def test_no_public_value_after_the_draw_or_the_withdrawal(sixteen):
    commitment = services.draw_commit(tournament=sixteen, public_value_source="drand round 9")
    services.draw_commitment_withdraw(commitment=commitment)
    refused(
        "commitment_withdrawn",
        lambda: services.draw_commitment_public_value(commitment=commitment, value="ab"),
    )
    again = services.draw_commit(tournament=sixteen)
    services.session_draw(tournament=sixteen, number=1)
    refused("commitment_revealed", lambda: services.draw_commitment_withdraw(commitment=again))


# ---------------------------------------------------------------- withdrawal


def test_a_withdrawn_commitment_stays_with_its_time_and_frees_the_draw(sixteen):
    commitment = services.draw_commit(tournament=sixteen)
    withdrawn = services.draw_commitment_withdraw(commitment=commitment)
    assert withdrawn.withdrawn_at is not None
    page = fairness_page(sixteen)
    assert page.live is None
    assert page.withdrawn == [withdrawn]
    # The draw is free again: any seed, any method.
    assert services.session_draw(tournament=sixteen, number=1, seed=5).seed == 5
    withdrawn.refresh_from_db()
    assert withdrawn.revealed_at is None
    refused("commitment_withdrawn", lambda: services.draw_commitment_withdraw(commitment=withdrawn))


def test_the_history_keeps_every_step_of_a_commitment(sixteen, organiser):
    from tournament.history import audit

    with audit.acting(user=organiser):
        commitment = services.draw_commit(tournament=sixteen, public_value_source="drand 9")
        services.draw_commitment_public_value(commitment=commitment, value="ab")
        services.draw_commitment_withdraw(commitment=commitment)
    rows = list(commitment.history.order_by("history_id"))
    assert [row.history_type for row in rows] == ["+", "~", "~"]
    assert [row.history_user for row in rows] == [organiser] * 3
    assert rows[1].public_value == "ab" and rows[2].withdrawn_at is not None
