"""The committed draw through the pages: the organiser's controls, the public fairness page and
its record, and the record checked by ``python -m tournament.seating verify``."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from tests import html
from tests.conftest import make_players
from tests.web.pages import assert_error_beside
from tournament import services
from tournament.models import DrawCommitment, Session
from tournament.selectors.seating import drawn_tables

ROOT = Path(__file__).resolve().parents[2]
PERSONAS = ["organiser", "referee", "other_referee", "anonymous"]


@pytest.fixture
def sixteen(tournament):
    make_players(tournament, 16)
    return tournament


def url(name, tournament):
    return reverse(name, args=[tournament.slug])


def page(client, name, tournament) -> str:
    response = client.get(url(name, tournament))
    assert response.status_code == 200
    return response.content.decode()


def facts(shown) -> dict[str, str]:
    """What the page's lists of facts say: each term's text -> its description's text."""
    found = {}
    for listed in html.elements(shown, "dl.facts"):
        terms = [e for e in listed.children if isinstance(e, html.Element)]
        for term, description in zip(terms[::2], terms[1::2], strict=True):
            assert (term.tag, description.tag) == ("dt", "dd")
            found[term.text()] = description.text()
    return found


def covered(shown, seating_link: str) -> list[str]:
    """The sessions the commitment covers, as listed; the ones whose session is linked to
    the seating page named first."""
    items = html.elements(shown, "ul.covered li")
    return [item.text() for item in items if item.find(f"a[href='{seating_link}']")]


def verify(path: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tournament.seating", "verify", str(path), *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


# ---------------------------------------------------------------- who may do what


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_organiser_commits(personas, sixteen, persona):
    client = personas[persona]
    shown = client.get(url("draw_commit", sixteen))
    posted = client.post(url("draw_commit", sixteen), {"method": "lot"})
    if persona == "organiser":
        assert shown.status_code == 200
        assert posted.status_code == 302
        assert posted.url == url("fairness", sixteen)
        assert DrawCommitment.objects.filter(tournament=sixteen).count() == 1
        return
    expected = 302 if persona == "anonymous" else 403
    assert shown.status_code == posted.status_code == expected
    if persona == "anonymous":
        assert posted.url.startswith(reverse("login"))
    assert not DrawCommitment.objects.exists()


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_organiser_records_the_public_value(personas, sixteen, persona):
    commitment = services.draw_commit(tournament=sixteen, public_value_source="drand round 9")
    client = personas[persona]
    shown = client.get(url("commitment_public_value", sixteen))
    posted = client.post(url("commitment_public_value", sixteen), {"value": "4f2a"})
    commitment.refresh_from_db()
    if persona == "organiser":
        assert shown.status_code == 200
        assert "drand round 9" in shown.content.decode()
        assert posted.status_code == 302
        assert commitment.public_value == "4f2a"
        return
    assert shown.status_code == posted.status_code == (302 if persona == "anonymous" else 403)
    assert commitment.public_value == ""


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_organiser_withdraws(personas, sixteen, persona):
    commitment = services.draw_commit(tournament=sixteen)
    client = personas[persona]
    assert client.get(url("commitment_withdraw", sixteen)).status_code in (302, 405)
    posted = client.post(url("commitment_withdraw", sixteen))
    commitment.refresh_from_db()
    if persona == "organiser":
        assert posted.status_code == 302
        assert commitment.withdrawn_at is not None
    else:
        assert posted.status_code == (302 if persona == "anonymous" else 403)
        assert commitment.withdrawn_at is None


def test_the_withdrawal_is_a_post(personas, sixteen):
    services.draw_commit(tournament=sixteen)
    assert personas["organiser"].get(url("commitment_withdraw", sixteen)).status_code == 405


def test_without_a_pending_commitment_its_pages_are_not_found(personas, sixteen):
    organiser = personas["organiser"]
    assert organiser.get(url("commitment_public_value", sixteen)).status_code == 404
    assert organiser.post(url("commitment_withdraw", sixteen)).status_code == 404
    assert organiser.get(url("fairness_record", sixteen)).status_code == 404


@pytest.mark.parametrize("persona", PERSONAS)
def test_everyone_reads_the_fairness_page_and_its_record(personas, sixteen, persona):
    services.draw_commit(tournament=sixteen)
    client = personas[persona]
    assert client.get(url("fairness", sixteen)).status_code == 200
    record = client.get(url("fairness_record", sixteen))
    assert record.status_code == 200
    assert record["Content-Disposition"] == 'attachment; filename="fairness.json"'
    assert json.loads(record.content)["format"] == "mcr-fairness-record/1"


def test_the_fairness_page_of_a_tournament_without_commitment(personas, sixteen):
    assert "No draw of this tournament was committed" in page(
        personas["anonymous"], "fairness", sixteen
    )


# ---------------------------------------------------------------- the organiser's controls


def test_the_tournament_page_offers_the_commitment_to_the_organiser_only(personas, sixteen):
    commit_link = f"a[href='{url('draw_commit', sixteen)}']"
    assert html.elements(page(personas["organiser"], "tournament", sixteen), commit_link)
    for persona in ("referee", "other_referee", "anonymous"):
        assert not html.elements(page(personas[persona], "tournament", sixteen), commit_link)


def test_the_tournament_page_while_committed(personas, sixteen):
    commitment = services.draw_commit(tournament=sixteen, public_value_source="drand round 9")
    organisers = page(personas["organiser"], "tournament", sixteen)
    assert commitment.hash in organisers
    assert url("commitment_public_value", sixteen) in organisers
    assert url("commitment_withdraw", sixteen) in organisers
    assert not html.elements(organisers, f"[href='{url('draw_commit', sixteen)}']")
    # Everyone gets the link to the fairness page, nobody else the controls.
    for persona in PERSONAS:
        assert url("fairness", sixteen) in page(personas[persona], "tournament", sixteen)
    for persona in ("referee", "other_referee", "anonymous"):
        shown = page(personas[persona], "tournament", sixteen)
        assert url("commitment_withdraw", sixteen) not in shown
        assert url("commitment_public_value", sixteen) not in shown


def test_no_commitment_offered_once_a_session_is_drawn(personas, sixteen):
    services.session_draw(tournament=sixteen, number=1, seed=3)
    shown = page(personas["organiser"], "tournament", sixteen)
    assert not html.elements(shown, f"[href='{url('draw_commit', sixteen)}']")
    response = personas["organiser"].post(url("draw_commit", sixteen), {"method": "lot"})
    assert response.status_code == 200
    assert "only the first draw can be committed" in response.content.decode()
    assert not DrawCommitment.objects.exists()


def test_a_bad_commitment_gets_its_message_beside_the_field(personas, sixteen):
    response = personas["organiser"].post(
        url("draw_commit", sixteen), {"method": "top_tables", "top": "9"}
    )
    assert_error_beside(response, "top", "Choose from 1 to 4 top tables.")
    response = personas["organiser"].post(url("draw_commit", sixteen), {"seed": "-4"})
    assert response.status_code == 200
    assert response.context["form"].errors["seed"]
    assert not DrawCommitment.objects.exists()


def test_the_draw_form_follows_the_commitment(personas, sixteen):
    services.draw_commit(tournament=sixteen, method="random")
    form = personas["organiser"].get(url("session_draw", sixteen)).context["form"]
    assert form.fields["method"].initial == "random"
    assert "committed seed" in str(form.fields["seed"].help_text)
    typed = personas["organiser"].post(url("session_draw", sixteen), {"number": "1", "seed": "5"})
    assert_error_beside(typed, "seed", "This draw is committed: it uses the committed seed.")
    assert not Session.objects.exists()


def test_the_draw_page_says_the_public_value_is_missing(personas, sixteen):
    services.draw_commit(tournament=sixteen, public_value_source="drand round 9")
    response = personas["organiser"].post(url("session_draw", sixteen), {"number": "1"})
    assert response.status_code == 200
    assert "record the public value first" in response.content.decode()
    assert not Session.objects.exists()


def test_a_public_value_typed_twice_is_refused_beside_the_field(personas, sixteen):
    services.draw_commit(tournament=sixteen, public_value_source="drand round 9")
    organiser = personas["organiser"]
    assert (
        organiser.post(url("commitment_public_value", sixteen), {"value": "ab"}).status_code == 302
    )
    again = organiser.post(url("commitment_public_value", sixteen), {"value": "cd"})
    assert_error_beside(again, "value", "The public value is already recorded")


def test_the_activity_log_lists_the_commitment_without_its_secret(personas, sixteen):
    commitment = services.draw_commit(tournament=sixteen, seed=987654321)
    personas["organiser"].post(url("commitment_withdraw", sixteen))
    log = page(personas["organiser"], "activity_log", sixteen)
    assert f"Draw commitment {commitment.hash[:12]}" in log
    assert "withdrawn" in log
    assert "987654321" not in log
    assert commitment.salt not in log


# ---------------------------------------------------------------- the public page


def test_before_the_draw_the_seed_stays_secret(personas, sixteen):
    commitment = services.draw_commit(tournament=sixteen, public_value_source="drand round 9")
    for persona in PERSONAS:
        shown = page(personas[persona], "fairness", sixteen)
        assert commitment.hash in shown
        assert "The seed is secret until the draw." in shown
        assert str(commitment.secret_seed) not in shown
        assert commitment.salt not in shown
        assert "drand round 9" in shown
        assert "python -m tournament.seating verify" not in shown
    record = json.loads(personas["anonymous"].get(url("fairness_record", sixteen)).content)
    assert (record["seed"], record["salt"], record["seating"]) == (None, None, {})
    assert str(commitment.secret_seed) not in json.dumps(record)


def test_the_page_says_what_the_commitment_covers(personas, sixteen):
    services.tournament_update(tournament=sixteen, separate_by="country")
    services.draw_commit(tournament=sixteen, method="planned")
    shown = page(personas["anonymous"], "fairness", sixteen)
    assert html.texts(shown, "dd.players-count") == ["16"]
    assert "Planned for the whole tournament" in html.text(shown)
    assert facts(shown)["Sessions planned"] == "4"
    assert facts(shown)["Keep apart players of the same"] == "Country"
    assert html.texts(shown, "dd.software") == ["mcr-tournament 0.1.0"]


def test_a_withdrawn_commitment_stays_public_with_its_seed(personas, sixteen):
    withdrawn = services.draw_commit(tournament=sixteen)
    personas["organiser"].post(url("commitment_withdraw", sixteen))
    withdrawn.refresh_from_db()
    live = services.draw_commit(tournament=sixteen)
    shown = page(personas["anonymous"], "fairness", sixteen)
    assert "Withdrawn commitments" in shown
    assert withdrawn.hash in shown and live.hash in shown
    assert str(withdrawn.secret_seed) in shown and withdrawn.salt in shown
    assert str(live.secret_seed) not in shown


def test_the_seating_page_links_a_committed_draw_to_the_fairness_page(personas, sixteen):
    services.draw_commit(tournament=sixteen)
    services.session_draw(tournament=sixteen, number=1)
    services.session_draw(tournament=sixteen, number=2, seed=4)
    first = personas["anonymous"].get(reverse("seating", args=[sixteen.slug, 1]))
    second = personas["anonymous"].get(reverse("seating", args=[sixteen.slug, 2]))
    assert url("fairness", sixteen) in first.content.decode()
    assert url("fairness", sixteen) not in second.content.decode()


# ---------------------------------------------------------------- end to end


def test_a_real_draw_is_verified_by_the_command_of_the_fairness_page(personas, sixteen, tmp_path):
    organiser, anonymous = personas["organiser"], personas["anonymous"]
    services.player_save(tournament=sixteen, number=17, name="Sub", is_substitute=True)
    services.tournament_update(tournament=sixteen, separate_by="team")
    for number in (1, 2, 3):
        services.player_save(
            tournament=sixteen, player=sixteen.players.get(number=number), team="Club A"
        )

    # The organiser commits the first draw with a public value to come.
    response = organiser.post(
        url("draw_commit", sixteen),
        {"method": "planned", "public_value_source": "drand round 4200000"},
    )
    assert response.status_code == 302
    before = page(anonymous, "fairness", sixteen)
    published_hash = html.one(before, "#commitment-hash").text()
    assert re.fullmatch(r"[0-9a-f]{64}", published_hash)

    # The public value becomes known; the organiser types it in and draws.
    assert (
        organiser.post(url("commitment_public_value", sixteen), {"value": "a1b2c3d4"}).status_code
        == 302
    )
    drawn = organiser.post(url("session_draw", sixteen), {"number": "1", "method": "planned"})
    assert drawn.status_code == 302
    drawn = organiser.post(url("session_draw", sixteen), {"number": "2", "method": "planned"})
    assert drawn.status_code == 302

    after = page(anonymous, "fairness", sixteen)
    commands = html.texts(after, "code#verify-command")
    assert commands == [
        f"python -m tournament.seating verify fairness.json --hash {published_hash}"
    ]
    commitment = DrawCommitment.objects.get()
    assert html.one(after, "#revealed-seed").text() == str(commitment.secret_seed)
    assert "a1b2c3d4" in html.text(after)
    assert Session.objects.get(number=1).seed == int(html.one(after, "#draw-seed").text())

    # Anyone downloads the record from the page's link and runs the page's command.
    link = html.one(after, "a.button[download=fairness.json]")
    downloaded = anonymous.get(link.attrs["href"])
    record = json.loads(downloaded.content)
    drawn = drawn_tables(sixteen)
    assert record["seating"] == {str(n): [list(table) for table in drawn[n]] for n in (1, 2)}
    path = tmp_path / "fairness.json"
    path.write_bytes(downloaded.content)
    arguments = commands[0].split()[4:]  # after "python -m tournament.seating verify"
    assert arguments[0] == "fairness.json"
    result = verify(path, *arguments[1:])
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "verified: every check matches"
    assert f"match    --hash: {published_hash}" in result.stdout

    # A changed player list fails.
    changed = json.loads(downloaded.content)
    changed["commitment"]["players"][5]["number"] = 99
    path.write_text(json.dumps(changed), encoding="utf-8")
    result = verify(path, *arguments[1:])
    assert result.returncode == 1
    assert "MISMATCH published hash" in result.stdout

    # So does a changed seed.
    changed = json.loads(downloaded.content)
    changed["seed"] += 1
    path.write_text(json.dumps(changed), encoding="utf-8")
    result = verify(path, *arguments[1:])
    assert result.returncode == 1
    assert "MISMATCH published hash" in result.stdout
    assert "MISMATCH session 1" in result.stdout


def test_the_fairness_page_reads_a_fixed_number_of_queries(
    personas, sixteen, django_assert_num_queries
):
    services.draw_commit(tournament=sixteen, method="planned")
    # The tournament, its commitments, the sessions under review (kept from a visitor).
    with django_assert_num_queries(3):
        personas["anonymous"].get(url("fairness", sixteen))
    services.session_draw(tournament=sixteen, number=1)
    services.session_draw(tournament=sixteen, number=2, method="planned")
    # After the draw, the seats of the sessions it covers too, however many.
    with django_assert_num_queries(4):
        response = personas["anonymous"].get(url("fairness", sixteen))
    assert len(response.context["page"].covered) == 2


def test_the_page_says_when_a_committed_draw_was_cancelled(personas, sixteen):
    services.draw_commit(tournament=sixteen)
    session = services.session_draw(tournament=sixteen, number=1)
    seating_link = reverse("seating", args=[sixteen.slug, 1])
    shown = page(personas["anonymous"], "fairness", sixteen)
    assert covered(shown, seating_link) == ["Session 1: 4 tables, as drawn."]
    assert html.texts(shown, f"ul.covered a[href='{seating_link}']") == ["Session 1"]
    services.session_cancel_draw(session=session)
    shown = page(personas["anonymous"], "fairness", sixteen)
    assert html.texts(shown, "ul.covered li") == [
        "Session 1: drawn under the commitment, then the draw was cancelled."
    ]
    assert not html.elements(shown, "ul.covered a")
    services.session_draw(tournament=sixteen, number=1, seed=3)
    shown = page(personas["anonymous"], "fairness", sixteen)
    assert covered(shown, seating_link) == [
        "Session 1: drawn under the commitment, then cancelled and drawn again without it."
    ]
    assert html.texts(shown, f"ul.covered a[href='{seating_link}']") == ["Session 1"]


def test_a_draw_under_review_reveals_nothing_to_visitors_until_published(personas, sixteen):
    services.tournament_update(tournament=sixteen, review_draws=True)
    commitment = services.draw_commit(tournament=sixteen)
    session = services.session_draw(tournament=sixteen, number=1)
    for persona in ("anonymous", "other_referee"):
        shown = page(personas[persona], "fairness", sixteen)
        assert not html.elements(shown, "#revealed-seed")
        assert str(commitment.secret_seed) not in shown
        record = json.loads(personas[persona].get(url("fairness_record", sixteen)).content)
        assert record.get("seed") is None and not record.get("seating")
    # The organiser reviewing the draw sees its reveal.
    assert html.elements(page(personas["organiser"], "fairness", sixteen), "#revealed-seed")
    services.session_publish(session=session)
    shown = page(personas["anonymous"], "fairness", sixteen)
    assert html.elements(shown, "#revealed-seed")
    record = json.loads(personas["anonymous"].get(url("fairness_record", sixteen)).content)
    assert record["seed"] == commitment.secret_seed and record["seating"]
