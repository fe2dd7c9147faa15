"""The hand entry's fields and penalty rows as the tablet shows them (the form renderer's field
template, ``templates/forms/field.html``; ``referee/_penalty_row.html``): labels tied to
their inputs, help and errors beside the field, what was typed escaped, both languages."""

from types import SimpleNamespace

from django import forms
from django.template.loader import render_to_string
from django.utils import translation

from tests.html import parse
from tournament.forms.hands import PenaltyFormSet
from tournament.scoring.profiles import SEED
from tournament.seating import session_schedule
from tournament.selectors.desk import PenaltyPreset

PLAYERS = [SimpleNamespace(name=name) for name in ("Ann", "Bo", "Cai <Di>", "Eve")]
# The seed's presets, as a tournament's would give them (no database here).
PRESETS = [
    PenaltyPreset(p.offence, p.kind.value, p.points, p.offence.replace("_", " "))
    for p in SEED.penalty_presets
]
MANAGEMENT = {
    "penalty-TOTAL_FORMS": "2",
    "penalty-INITIAL_FORMS": "0",
    "penalty-MIN_NUM_FORMS": "0",
    "penalty-MAX_NUM_FORMS": "8",
}


class Example(forms.Form):
    fan = forms.IntegerField(label="Fan & more", help_text="At least <8>.", min_value=8)


def penalties(data=None, slot=None):
    rows = PenaltyFormSet(data, prefix="penalty", form_kwargs={"players": PLAYERS, "slot": slot})
    if data is not None:
        rows.is_valid()
    return rows


def penalty_row(pform, number):
    html = render_to_string(
        "referee/_penalty_row.html", {"pform": pform, "number": number, "presets": PRESETS}
    )
    return parse(html).one("fieldset[data-penalty-row]")


def test_a_field_has_its_label_help_and_errors_next_to_it():
    blank = parse(Example()["fan"].as_field_group()).one("div.field")
    assert "has-error" not in blank.classes
    label = blank.one("label")
    assert label.attrs["for"] == "id_fan" and label.text() == "Fan & more"
    assert blank.one("input#id_fan").attrs["name"] == "fan"
    assert blank.one("small.help").text() == "At least <8>."
    assert not blank.find(".field-errors")
    refused = parse(Example({"fan": "3"})["fan"].as_field_group()).one("div.field")
    assert "has-error" in refused.classes
    errors = refused.one("div.field-errors")
    assert errors.attrs["role"] == "alert"
    assert "greater than or equal to 8" in errors.one("ul.errorlist").text()
    # Every field of a form is drawn by the same template.
    page = parse(render_to_string("series/form.html", {"form": Example(), "creating": True}))
    assert page.one("div.field").one("label").text() == "Fan & more"


def test_a_blank_row_offers_every_seat_and_the_common_penalties():
    row = penalty_row(penalties().forms[0], 1)
    assert row.attrs["id"] == "penalty-0"
    assert row.find("legend")[0].text() == "Penalty 1"
    # Who is penalised and who is paid: the four seats (and nobody, for who is paid), the
    # players' names as written (escaped in the page: a name is never markup).
    assert len(row.find("input[name=penalty-0-offender]")) == 4
    who_is_paid = row.one("fieldset[data-beneficiary]")
    assert len(who_is_paid.find("input[name=penalty-0-beneficiary]")) == 5
    assert "P3 · Cai <Di>" in [label.text() for label in row.find("label")]
    presets = row.one("div[data-penalty-presets]")
    buttons = presets.find("button[data-preset-kind]")
    assert len(buttons) == len(PRESETS)
    # The range is offered only for a penalty the rules allow more than one figure for.
    ranged = [button.attrs["data-preset-range"] for button in presets.find("[data-preset-range]")]
    assert len(ranged) == sum(len(preset.points) > 1 for preset in PRESETS) == 3
    assert "The rules allow 10 or 20." in ranged
    assert row.one("label[for=id_penalty-0-points]").text() == "Points"
    assert row.one("small#id_penalty-0-points_helptext").find("[data-points-range]")
    assert not row.find(".has-error") and not row.find(".field-errors")
    # A new row can be removed by emptying it; the box is there as on every formset row.
    assert row.one("input[name=penalty-0-DELETE]")


def test_the_kept_empty_row_is_the_one_script_copies():
    row = penalty_row(penalties().empty_form, "__number__")
    assert row.attrs["id"] == "penalty-__prefix__"
    assert row.find("legend")[0].text() == "Penalty __number__"
    assert row.find("input[name=penalty-__prefix__-offender]")


def test_a_refused_row_shows_each_reason_beside_its_field_and_keeps_what_was_typed():
    data = {
        **MANAGEMENT,
        "penalty-0-offender": "2",
        "penalty-0-kind": "to_one",
        "penalty-0-points": "5",
        "penalty-0-reason": '<b>late</b> & "loud"',
        "penalty-1-kind": "deducted",
    }
    first, second = penalties(data).forms
    row = penalty_row(first, 1)
    # "Paid to" is missing for a penalty paid to one player.
    who_is_paid = row.one("fieldset[data-beneficiary]")
    assert "has-error" in who_is_paid.classes
    errors = who_is_paid.one(".field-errors").text()
    assert "Choose the player who receives the points." in errors
    assert row.one("input[name=penalty-0-reason]").attrs["value"] == '<b>late</b> & "loud"'
    assert "checked" in row.one("input#id_penalty-0-offender_2").attrs
    row = penalty_row(second, 2)
    offender = row.find("fieldset.choices")[0]
    assert offender.find("legend")[0].text() == "Player" and "has-error" in offender.classes
    assert "Choose who is penalised." in offender.text()
    assert "Enter the points." in row.text() and "Give the reason for the penalty." in row.text()


def test_a_row_in_chinese_with_the_hands_winds():
    slot = session_schedule()[4]
    with translation.override("zh-hans"):
        row = penalty_row(penalties(slot=slot).forms[0], 1)
        assert "Penalty" not in row.text()
        ranges = [button.attrs["data-preset-range"] for button in row.find("[data-preset-range]")]
        assert ranges and not any("The rules allow" in text for text in ranges)
        assert row.find("legend")[0].text() == translation.gettext("Penalty %(n)s") % {"n": 1}
    dealer = slot.dealer
    with translation.override("en"):
        row = penalty_row(penalties(slot=slot).forms[0], 1)
    labels = [label.text() for label in row.find("label")]
    assert any(
        text.startswith(f"P{dealer + 1} · {PLAYERS[dealer].name} (") and text.endswith(", dealer)")
        for text in labels
    )
