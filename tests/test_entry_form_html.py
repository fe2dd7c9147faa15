"""The hand entry's fields and penalty rows as the tablet shows them (``form_field``,
``penalty_row``), written in Python: labels tied to their inputs, help and errors beside
the field, what was typed escaped, both languages."""

from types import SimpleNamespace

from django import forms
from django.template import Context, Template
from django.utils import translation

from tournament.forms.hands import PENALTY_PRESETS, PenaltyFormSet
from tournament.seating import session_schedule
from tournament.templatetags.form_fields import form_field
from tournament.templatetags.mcr import penalty_row

PLAYERS = [SimpleNamespace(name=name) for name in ("Ann", "Bo", "Cai <Di>", "Eve")]
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


def test_a_field_has_its_label_help_and_errors_next_to_it():
    blank = form_field(Example()["fan"])
    assert '<div class="field">' in blank
    assert '<label for="id_fan">Fan &amp; more</label>' in blank
    assert '<small class="help">At least &lt;8&gt;.</small>' in blank
    assert "field-errors" not in blank
    refused = form_field(Example({"fan": "3"})["fan"])
    assert '<div class="field has-error">' in refused
    assert '<div class="field-errors" role="alert"><ul class="errorlist"' in refused
    assert "greater than or equal to 8" in refused
    # As a tag, in a page.
    page = Template("{% load form_fields %}{% form_field form.fan %}")
    assert page.render(Context({"form": Example()})) == blank


def test_a_blank_row_offers_every_seat_and_the_common_penalties():
    row = penalty_row(penalties().forms[0], 1)
    assert row.count("data-penalty-row") == 1
    assert 'id="penalty-0"' in row and "<legend>Penalty 1</legend>" in row
    # Who is penalised and who is paid: the four seats (and nobody, for who is paid), the
    # players' names escaped.
    assert row.count('name="penalty-0-offender"') == 4
    assert row.count('name="penalty-0-beneficiary"') == 5
    assert "P3 · Cai &lt;Di&gt;</label>" in row
    assert row.count("data-preset-kind=") == len(PENALTY_PRESETS)
    # The range is offered only for a penalty the rules allow more than one figure for.
    ranged = sum(len(preset.points) > 1 for preset in PENALTY_PRESETS)
    assert row.count("data-preset-range=") == ranged == 3
    assert 'data-preset-range="The rules allow 10 or 20."' in row
    assert '<label for="id_penalty-0-points">Points</label>' in row
    assert 'id="id_penalty-0-points_helptext"' in row
    assert "has-error" not in row and "field-errors" not in row
    # A new row can be removed by emptying it; the box is there as on every formset row.
    assert 'name="penalty-0-DELETE"' in row


def test_the_kept_empty_row_is_the_one_script_copies():
    row = penalty_row(penalties().empty_form, "__number__")
    assert 'id="penalty-__prefix__"' in row
    assert "<legend>Penalty __number__</legend>" in row
    assert 'name="penalty-__prefix__-offender"' in row


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
    assert '<fieldset class="choices beneficiary has-error" data-beneficiary>' in row
    assert "Choose the player who receives the points." in row
    assert 'value="&lt;b&gt;late&lt;/b&gt; &amp; &#34;loud&#34;"' in row
    assert 'value="2" id="id_penalty-0-offender_2" checked' in row
    row = penalty_row(second, 2)
    assert '<fieldset class="choices has-error"><legend>Player</legend>' in row
    assert "Choose who is penalised." in row
    assert "Enter the points." in row and "Give the reason for the penalty." in row


def test_a_row_in_chinese_with_the_hands_winds():
    slot = session_schedule()[4]
    with translation.override("zh-hans"):
        row = penalty_row(penalties(slot=slot).forms[0], 1)
        assert "Penalty" not in row and "The rules allow" not in row
        assert translation.gettext("Penalty %(n)s") % {"n": 1} in row
    dealer = slot.dealer
    with translation.override("en"):
        row = penalty_row(penalties(slot=slot).forms[0], 1)
    assert f"P{dealer + 1} · {PLAYERS[dealer].name} (" in row and ", dealer)" in row
