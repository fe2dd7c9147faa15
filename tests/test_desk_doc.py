"""The worked example of docs/desk.md played through the services: the call taken and
resolved, hand 5's points before and after the ruling, the appeal upheld; and the rules'
penalties its table lists are a tournament's presets under the seed documents' rules."""

from pathlib import Path

from django.utils import translation

from tests.markdown_tables import table_rows
from tournament import services
from tournament.models import Appeal, RefereeCall, Seat
from tournament.selectors.desk import open_calls, penalty_presets, rulings

DOC = Path(__file__).resolve().parents[1] / "docs" / "desk.md"
KINDS = {
    "to_each_other": "paid to each other player",
    "to_one": "paid to one player",
    "deducted": "deducted",
}


def test_the_rules_penalties_are_a_seed_tournaments_presets(tournament):
    assert tournament.rule_profile == "seed"
    with translation.override("en"):
        listed = [
            [str(preset.reason), KINDS[preset.kind], str(preset.figures)]
            for preset in penalty_presets(tournament)
        ]
    assert table_rows(DOC, "| offence | penalty | points |") == listed


def test_the_worked_example(session_in_play, organiser, referee):
    table = session_in_play.tables.get(number=1)
    tournament = session_in_play.tournament
    players = {f"P{seat.seat + 1}": seat.player for seat in Seat.objects.filter(table=table)}
    figures = table_rows(DOC, "| player | hand 5 before the ruling | hand 5 after the ruling |")
    before = tuple(int(row[1]) for row in figures)
    after = tuple(int(row[2]) for row in figures)
    steps = iter(table_rows(DOC, "| step | the call | the ruling's appeal |"))

    for number in range(1, 5):
        services.hand_record(table=table, entry=services.HandEntry(number=number, outcome="draw"))
    services.hand_record(
        table=table,
        entry=services.HandEntry(number=5, outcome="self_drawn", winner=3, fan=8),
    )
    assert table.hands.get(number=5).points == before

    def state(call, appeal=None):
        call.refresh_from_db()
        shown = {"": "waiting for a decision", "upheld": "upheld", "changed": "changed"}
        return [call.state, "" if appeal is None else shown[appeal.decision]]

    call = services.call_make(table=table, reason="foul", hand=5)
    assert state(call) == next(steps)[1:]
    services.call_take(call=call, user=organiser)
    assert state(call) == next(steps)[1:]
    ruling = services.ruling_give(
        table=table,
        referee=organiser,
        call=call,
        decision="P2 declared a win on a tile that does not complete a hand.",
        players=[players["P2"]],
        offence="false_win",
        penalty_kind="to_each_other",
        penalty_points=10,
        offender=players["P2"],
    )
    assert state(call) == next(steps)[1:]
    assert ruling.hand == 5
    assert table.hands.get(number=5).points == after
    # Hands 1 to 4 scored nothing: the table's scores after hand 5 are the hand's.
    scores = {f"P{seat.seat + 1}": seat.score for seat in Seat.objects.filter(table=table)}
    assert tuple(scores[f"P{n}"] for n in range(1, 5)) == after
    assert open_calls(tournament) == []

    appeal = services.appeal_lodge(
        ruling=ruling,
        user=referee,
        grounds="I had not shown my tiles when I stopped.",
        player=players["P2"],
    )
    assert state(call, appeal) == next(steps)[1:]
    services.appeal_decide(appeal=appeal, user=organiser, decision=Appeal.UPHELD)
    appeal.refresh_from_db()
    assert state(call, appeal) == next(steps)[1:]
    assert table.hands.get(number=5).points == after
    (listed,) = rulings(tournament, session=session_in_play)
    assert listed.appeal.decision == Appeal.UPHELD and not listed.appealable
    assert RefereeCall.objects.get(pk=call.pk).taken_by == organiser
