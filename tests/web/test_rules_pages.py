"""A tournament's rules through the pages: the organisers' page that chooses and changes them
(freely before the first hand, with a reason after, refused whole when a stored hand cannot
take the new rules), the public page in both languages, and the standings' line about a
change."""

import pytest
from django.urls import reverse

from tests import html
from tests.conftest import login
from tests.web.pages import assert_error_beside
from tournament import services
from tournament.forms.rules import form_initial, points_read, points_text
from tournament.models import RuleChange, Tournament
from tournament.server.task_worker import tasks_run_ready
from tournament.services import HandEntry

PERSONAS = ["organiser", "referee", "other_referee", "anonymous"]
CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9,en;q=0.5"}


def edit_url(tournament):
    return reverse("rules_edit", args=[tournament.slug])


def rules_url(tournament):
    return reverse("rules", args=[tournament.slug])


def posted(tournament, **changes) -> dict:
    """The rules form's POST data as the page shows it for ``tournament``, with ``changes``
    (form field names)."""
    options = services.rule_options(tournament)
    data = {}
    for name, value in {**form_initial(options), **changes}.items():
        if value is True:
            data[name] = "on"
        elif value not in (False, None):
            data[name] = str(value)
    return data


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 200), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_only_organisers_open_and_post_the_rules_page(personas, tournament, who, status):
    client = personas[who]
    assert client.get(edit_url(tournament)).status_code == status
    response = client.post(edit_url(tournament), posted(tournament, minimum_fan=6))
    assert response.status_code == (302 if who == "organiser" else status)
    tournament.refresh_from_db()
    assert tournament.minimum_fan == (6 if who == "organiser" else 8)


@pytest.mark.parametrize("who", PERSONAS)
def test_anyone_reads_the_public_rules_page(personas, tournament, who):
    response = personas[who].get(rules_url(tournament))
    assert response.status_code == 200
    edit_link = html.elements(response.content, f"a[href='{edit_url(tournament)}']")
    assert bool(edit_link) == (who == "organiser")


def test_before_play_every_option_saves_without_a_reason(tournament, organiser):
    client = login(organiser)
    page = client.get(edit_url(tournament))
    assert "reason" not in page.context["form"].fields
    data = posted(
        tournament,
        melded_and_concealed_kong=5,
        flowers=False,
        blessings=True,
        minimum_fan=6,
        session_minutes=120,
        session_end="gong",
        gong_minute=115,
        preset_lateness=False,
        preset_false_claim=True,
        preset_false_claim_kind="deducted",
        preset_false_claim_points="10, 5, 20",
        criterion_1="score",
        criterion_2="table_points",
        criterion_3="",
        criterion_4="",
    )
    response = client.post(edit_url(tournament), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rules.melded_and_concealed_kong == 5
    assert (tournament.flowers, tournament.blessings, tournament.minimum_fan) == (False, True, 6)
    assert (tournament.session_minutes, tournament.session_end, tournament.gong_minute) == (
        120,
        "gong",
        115,
    )
    presets = {p["offence"]: p for p in tournament.penalty_presets}
    assert "lateness" not in presets
    assert presets["false_claim"] == {
        "offence": "false_claim",
        "kind": "deducted",
        "points": [10, 5, 20],
    }
    assert tournament.tiebreak_order == "score,table_points"
    assert not RuleChange.objects.exists()


def test_taking_a_profile_fills_the_form_and_saves_nothing(tournament, organiser):
    client = login(organiser)
    data = posted(tournament, rule_profile="ema", take_profile="1")
    response = client.post(edit_url(tournament), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert not form.is_bound
    assert (form.initial["melded_and_concealed_kong"], form.initial["gong_minute"]) == (6, 115)
    assert form.initial["preset_false_claim"] is True
    # The EMA's kong figure is the site's reading: said beside the option.
    assert "The site's reading of" in form.fields["melded_and_concealed_kong"].help_text
    tournament.refresh_from_db()
    assert (tournament.rule_profile, tournament.melded_and_concealed_kong) == ("seed", 3)


@pytest.mark.parametrize(
    ("changes", "field", "text"),
    [
        ({"session_end": "gong", "gong_minute": ""}, "gong_minute", "Say when the gong sounds."),
        (
            {"session_end": "gong", "gong_minute": "200"},
            "gong_minute",
            "The gong sounds within the session's time.",
        ),
        ({"preset_lateness_points": "ten"}, "preset_lateness_points", "Whole numbers above 0"),
        ({"criterion_2": "table_points"}, "criterion_2", "Each criterion can be used once."),
    ],
)
def test_a_bad_option_is_refused_beside_its_field(tournament, organiser, changes, field, text):
    client = login(organiser)
    response = client.post(edit_url(tournament), posted(tournament, **changes))
    assert_error_beside(response, field, text)
    assert Tournament.objects.get(pk=tournament.pk).session_end == "bell"


def test_no_preset_at_all_is_refused_at_the_top(tournament, organiser):
    unticked = {f"preset_{p['offence']}": False for p in tournament.penalty_presets}
    response = login(organiser).post(edit_url(tournament), posted(tournament, **unticked))
    assert response.status_code == 200
    assert "Give at least one penalty preset." in response.context["form"].non_field_errors()


@pytest.fixture
def played(session_in_play):
    """Session 1 with two hands at table 1: a 10-fan discard win with 2 flowers, a draw."""
    table = session_in_play.tables.get(number=1)
    services.hand_record(
        table=table,
        entry=HandEntry(number=1, outcome="discard", winner=0, discarder=1, fan=10, flowers=2),
    )
    services.hand_record(table=table, entry=HandEntry(number=2, outcome="draw"))
    return session_in_play.tournament


def test_after_play_the_page_says_the_rules_are_fixed_and_asks_a_reason(played, organiser):
    client = login(organiser)
    page = client.get(edit_url(played))
    assert html.elements(page.content, ".rules-fixed")
    assert "reason" in page.context["form"].fields

    response = client.post(edit_url(played), posted(played, minimum_fan=6))
    assert_error_beside(response, "reason", "say why the rules change")
    assert Tournament.objects.get(pk=played.pk).minimum_fan == 8

    # The hands are settled again by the task queue: the page says the change is being made.
    response = client.post(
        edit_url(played), posted(played, minimum_fan=6, reason="The hall plays 6."), follow=True
    )
    assert "is being made" in html.one(response.content, "#rules-job").text()
    assert Tournament.objects.get(pk=played.pk).minimum_fan == 8
    again = client.post(edit_url(played), posted(played, minimum_fan=7, reason="Seven."))
    assert "A change of the rules is being made" in html.one(again.content, ".form-errors").text()
    tasks_run_ready()
    assert not html.elements(client.get(edit_url(played)).content, "#rules-job")
    shown = html.text(client.get(rules_url(played)).content)
    assert "2 hands settled again, 0 of them changed." in shown
    assert Tournament.objects.get(pk=played.pk).minimum_fan == 6
    change = RuleChange.objects.get()
    assert (change.reason, change.changed_by, change.after["minimum_fan"]) == (
        "The hall plays 6.",
        organiser,
        6,
    )


def test_a_change_a_stored_hand_cannot_take_is_refused_with_the_hand_named(played, organiser):
    client = login(organiser)
    response = client.post(edit_url(played), posted(played, flowers=False, reason="No flowers."))
    assert response.status_code == 302
    tasks_run_ready()
    refusal = html.one(client.get(edit_url(played)).content, "#rules-job").text()
    assert "was refused; nothing was changed" in refusal
    assert "Session 1, table 1, hand 1" in refusal
    assert Tournament.objects.get(pk=played.pk).flowers is True
    assert not RuleChange.objects.exists()


def test_the_public_page_says_every_option_and_the_changes(played, organiser, client):
    services.rules_change(
        tournament=played,
        user=organiser,
        reason="Six, as announced.",
        minimum_fan=6,
        session_end="gong",
        gong_minute=145,
    )
    shown = client.get(rules_url(played)).content.decode()
    facts = dict(
        zip(
            html.texts(shown, "dl.rules-options dt"),
            html.texts(shown, "dl.rules-options dd"),
            strict=True,
        )
    )
    assert facts["One melded and one concealed kong"].startswith("3 points")
    assert facts["Flowers"] == "played (144 tiles)"
    assert facts["Blessings"] == "not counted"
    assert facts["Minimum"] == "6 fan, flowers not counted"
    assert facts["A session"] == (
        "150 minutes; a gong at 145 minutes, after which the hand in play is finished and no "
        "new hand starts"
    )
    assert html.texts(shown, "ol.tiebreaks li")[0] == "Table points"
    assert len(html.elements(shown, "table.rule-presets tbody tr")) == 5
    change = " ".join(html.texts(shown, ".rule-change"))
    assert "Six, as announced." in change
    assert "Minimum: 8 fan, flowers not counted → 6 fan, flowers not counted" in change
    assert "2 hands settled again" in change

    chinese = client.get(rules_url(played), **CHINESE).content.decode()
    assert "明暗杠" not in html.texts(chinese, "dl.rules-options dt")
    assert "花牌" in " ".join(html.texts(chinese, "dl.rules-options dt"))


def test_the_site_s_reading_is_marked_while_the_profile_s_value_is_kept(tournament, client):
    services.rules_change(tournament=tournament, **services.profile_options("ema"))
    shown = client.get(rules_url(tournament)).content.decode()
    assert html.elements(shown, "dd.rule-melded_and_concealed_kong .reading")
    assert not html.elements(shown, "dd.rule-minimum_fan .reading")
    services.rules_change(tournament=tournament, melded_and_concealed_kong=3)
    shown = client.get(rules_url(tournament)).content.decode()
    assert not html.elements(shown, "dd.rule-melded_and_concealed_kong .reading")


def test_the_standings_say_when_the_rules_changed(played, organiser, client):
    standings = reverse("standings", args=[played.slug])
    assert not html.elements(client.get(standings).content, ".rules-changed")
    services.rules_change(tournament=played, user=organiser, reason="Six.", minimum_fan=6)
    line = html.elements(client.get(standings).content, ".rules-changed")
    assert line and "Results settled again under the rules changed on" in line[0].text()
    assert line[0].one("q").text() == "Six."
    assert line[0].find(f"a[href='{rules_url(played)}']")
    # A change that scores no hand differently says only that the rules changed.
    services.rules_change(tournament=played, user=organiser, reason="Gong.", session_minutes=140)
    line = html.elements(client.get(standings).content, ".rules-changed")[0]
    assert "The rules were changed on" in line.text() and line.one("q").text() == "Gong."


def test_another_profile_chosen_without_its_options_is_refused_beside_it(tournament, organiser):
    client = login(organiser)
    response = client.post(edit_url(tournament), posted(tournament, rule_profile="ema"))
    assert_error_beside(response, "rule_profile", "take this profile's options first")
    assert "Nothing was saved" in html.one(response.content, "#rules-refused").text()
    assert Tournament.objects.get(pk=tournament.pk).rule_profile == "seed"
    # With its options taken (here: its kong reading), the profile is saved.
    data = posted(tournament, rule_profile="ema", melded_and_concealed_kong=6)
    assert client.post(edit_url(tournament), data).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).rule_profile == "ema"


def test_the_rules_page_links_the_calculator_with_its_rules(tournament, client):
    services.rules_change(tournament=tournament, melded_and_concealed_kong=5, blessings=True)
    page = client.get(rules_url(tournament)).content.decode()
    link = next(a for a in html.elements(page, "a") if a.text() == "Count a hand under these rules")
    assert link.attrs["href"] == reverse("calculator") + "?kong=5&blessings=on&minimum=8"
    calculator = client.get(link.attrs["href"]).content.decode()
    # Only the rules asked: nothing to check yet, no error; the options shown, this one's marked.
    assert not html.elements(calculator, ".field-errors")
    assert html.one(calculator, "input[name=blessings]").attrs.get("checked") is not None
    assert html.one(calculator, "details.calculator-rules").attrs.get("open") is not None
    assert len(html.elements(calculator, "[data-blessing]")) == 3


@pytest.mark.parametrize(
    ("points", "text"),
    [
        ([10], "10"),
        ([5, 10, 20], "5, 10, 20"),
        (list(range(5, 61)), "5-60"),
        ([10, 5, 20], "10, 5, 20"),
    ],
)
def test_preset_points_are_written_and_read_back(points, text):
    assert points_text(points) == text
    assert points_read(text) == points


def test_the_public_tournament_the_fairness_the_sheet_and_the_paper_pages_link_the_rules(
    session_in_play, organiser
):
    tournament = session_in_play.tournament
    client = login(organiser)
    link = f"a[href='{rules_url(tournament)}']"
    for url in (
        reverse("tournament", args=[tournament.slug]),
        reverse("fairness", args=[tournament.slug]),
        reverse("table_sheet", args=[tournament.slug, 1, 1]),
        reverse("score_sheets", args=[tournament.slug, 1]),
    ):
        assert html.elements(client.get(url).content, link), url
