"""docs/rules.md's worked example, played through the rules page: a change after play settles
both hands again, and turning the flowers off is refused, naming the hand with flowers."""

from pathlib import Path

from django.urls import reverse

from tests import html
from tests.conftest import login
from tests.web.test_rules_pages import posted
from tournament import services
from tournament.models import RuleChange, Seat, Tournament
from tournament.server.task_worker import tasks_run_ready
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

    client.post(url, posted(tournament, flowers=False, reason="No flowers."))
    tasks_run_ready()
    refused = html.one(client.get(url).content, "#rules-job").text()
    assert "Session 1, table 1, hand 1: " in refused
    assert 'Turning the flowers off instead is refused with "Session 1, table 1, hand 1: …"' in (
        " ".join(DOC.split())
    )
    assert Tournament.objects.get(pk=tournament.pk).flowers is True

    reason = "The hall plays 6 fan."
    assert f'with the reason "{reason}"' in " ".join(DOC.split())
    client.post(url, posted(tournament, minimum_fan=6, reason=reason))
    tasks_run_ready()
    rules = client.get(reverse("rules", args=[tournament.slug])).content
    said = "2 hands settled again, 0 of them changed."
    assert said in html.text(rules) and f'says "{said}"' in " ".join(DOC.split())
    change = RuleChange.objects.get()
    assert (change.hands_settled, change.hands_changed, change.reason) == (2, 0, reason)
    assert (
        list(Seat.objects.filter(table=table).order_by("seat").values_list("score", flat=True))
        == scores
    )
