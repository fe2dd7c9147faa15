"""docs/rules.md's worked example, played through the rules page: a change after play settles
both hands again, and turning the flowers off is refused, naming the hand with flowers."""

from pathlib import Path

from django.urls import reverse

from tests.conftest import login
from tests.web.test_rules_pages import posted
from tournament import services
from tournament.models import RuleChange, Seat, Tournament
from tournament.services import HandEntry

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()


def test_the_worked_example_of_a_change_after_play(session_in_play, organiser):
    tournament = session_in_play.tournament
    table = session_in_play.tables.get(number=1)
    services.hand_record(
        table=table,
        entry=HandEntry(number=1, outcome="discard", winner=0, discarder=1, fan=10, flowers=2),
    )
    services.hand_record(table=table, entry=HandEntry(number=2, outcome="draw"))
    scores = list(Seat.objects.filter(table=table).order_by("seat").values_list("score", flat=True))
    client = login(organiser)
    url = reverse("rules_edit", args=[tournament.slug])

    refused = client.post(url, posted(tournament, flowers=False, reason="No flowers."))
    assert "Session 1, table 1, hand 1: " in " ".join(refused.context["form"].non_field_errors())
    assert 'Turning the flowers off instead is refused with "Session 1, table 1, hand 1: …"' in (
        " ".join(DOC.split())
    )
    assert Tournament.objects.get(pk=tournament.pk).flowers is True

    reason = "The hall plays 6 fan."
    assert f'with the reason "{reason}"' in " ".join(DOC.split())
    done = client.post(url, posted(tournament, minimum_fan=6, reason=reason), follow=True)
    said = "The rules are changed: 2 hands settled again, 0 of them changed."
    assert said in done.content.decode() and said in " ".join(DOC.split())
    change = RuleChange.objects.get()
    assert (change.hands_settled, change.hands_changed, change.reason) == (2, 0, reason)
    assert (
        list(Seat.objects.filter(table=table).order_by("seat").values_list("score", flat=True))
        == scores
    )
