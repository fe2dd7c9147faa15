"""The score sheet's rows as the tablet shows them (``templatetags.mcr``: ``hand_result`` and
``score_sheet_rows``), written in Python: each part of a hand's result, escaped where it is
stored text, in both languages."""

from types import SimpleNamespace

from django.template import Context, Template
from django.utils import translation

from tournament.seating import session_schedule
from tournament.selectors.sheets import SheetRow
from tournament.templatetags.mcr import hand_result


class Penalties(list):
    def all(self):
        return self


def a_hand(**fields):
    values = {
        "number": 1,
        "outcome": "self_drawn",
        "winner": 0,
        "discarder": None,
        "fan": 8,
        "flowers": 0,
        "computed_fan": None,
        "entered_by_device": "",
        "referee_figure_kept": False,
        "fan_names": "",
        "penalties": Penalties(),
        "points": (24, -8, -8, -8),
    }
    return SimpleNamespace(**{**values, **fields})


def a_penalty(**fields):
    values = {"offender": 2, "points": 10, "kind": "deducted", "beneficiary": None, "reason": ""}
    values.update(fields)
    return SimpleNamespace(**values, get_kind_display=lambda: "Deducted (leaves the table)")


def test_a_self_drawn_win_with_flowers():
    assert hand_result(a_hand(flowers=2)) == "P1 self-drawn 8 + 2 flowers"
    assert hand_result(a_hand(flowers=1)) == "P1 self-drawn 8 + 1 flower"


def test_a_win_on_a_discard_a_draw_and_a_hand_not_played():
    won = a_hand(outcome="discard", winner=3, discarder=1, fan=12)
    assert hand_result(won) == "P4 on discard of P2 12"
    assert hand_result(a_hand(outcome="draw")) == "Draw"
    assert hand_result(a_hand(outcome="not_played")) == '<span class="muted">Not played</span>'


def test_the_calculators_figure_shows_only_when_it_differs():
    assert "calculator" not in hand_result(a_hand(computed_fan=8))
    differs = hand_result(a_hand(computed_fan=10))
    assert differs.endswith('<br><small class="minus">calculator: 10 fan</small>')


def test_stored_texts_are_escaped():
    hand = a_hand(
        entered_by_device='Tablet <b> & "1"',
        fan_names="<script>",
        penalties=Penalties([a_penalty(reason="<i>late</i>", beneficiary=0)]),
    )
    html = hand_result(hand)
    assert 'title="Tablet &lt;b&gt; &amp; &quot;1&quot;">via the table\'s tablet' in html
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert (
        '<small class="minus">Penalty P3 10 (Deducted (leaves the table) → P1):'
        " &lt;i&gt;late&lt;/i&gt;</small>"
    ) in html


def test_the_referees_figure_kept_and_the_chinese_sheet():
    hand = a_hand(referee_figure_kept=True, flowers=1)
    assert hand_result(hand).endswith('<small class="muted">the referee\'s figures kept</small>')
    with translation.override("zh-hans"):
        chinese = hand_result(hand)
    assert "P1" in chinese and "figures" not in chinese and "self-drawn" not in chinese


def test_the_rows_link_the_hands_to_correct_and_mark_the_one_corrected():
    running = (24, -8, -8, -8)
    schedule = session_schedule()
    rows = [SheetRow(slot=schedule[0], hand=a_hand(), running=running)] + [
        SheetRow(slot=slot, hand=None, running=running) for slot in schedule[1:]
    ]
    table = SimpleNamespace(number=7, session=SimpleNamespace(number=2))
    context = {
        "sheet": SimpleNamespace(rows=rows, table=table),
        "tournament": SimpleNamespace(slug="open"),
        "can_enter": True,
        "editing": SimpleNamespace(number=1),
    }
    html = Template("{% load mcr %}{% score_sheet_rows %}").render(Context(context))
    assert html.count("<tr ") == 16
    assert '<tr id="hand-1" class="current">' in html
    assert 'href="/t/open/sessions/2/tables/7/hands/1/#entry"' in html
    assert '<tr id="hand-2">\n    <td>2</td>' in html
    first = html.split('<tr id="hand-2">')[0]
    assert '<span class="plus">+24</span><br><small>+24</small>' in first
    assert first.count('class="seat-wind dealer"') == 1
    assert html.count("<td>—</td>") == 0 and html.count('<span class="muted">—</span>') == 15
    context["can_enter"] = False
    assert "hand-link" not in Template("{% load mcr %}{% score_sheet_rows %}").render(
        Context(context)
    )
