"""The score sheet's rows as the tablet shows them (``referee/_hand_result.html``,
``referee/_sheet_rows.html``): each part of a hand's result, stored text shown as written
(never as markup), in both languages."""

from types import SimpleNamespace

from django.template.loader import render_to_string
from django.utils import translation

from tests.html import parse
from tournament.seating import session_schedule
from tournament.selectors.sheets import SheetRow


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


def hand_result(hand):
    """The hand's result as its cell of the sheet shows it (a parsed fragment)."""
    return parse(render_to_string("referee/_hand_result.html", {"hand": hand}))


def test_a_self_drawn_win_with_flowers():
    assert hand_result(a_hand(flowers=2)).lines() == ["P1 self-drawn 8 + 2 flowers"]
    assert hand_result(a_hand(flowers=1)).lines() == ["P1 self-drawn 8 + 1 flower"]


def test_a_win_on_a_discard_a_draw_and_a_hand_not_played():
    won = a_hand(outcome="discard", winner=3, discarder=1, fan=12)
    assert hand_result(won).lines() == ["P4 on discard of P2 12"]
    assert hand_result(a_hand(outcome="draw")).lines() == ["Draw"]
    not_played = hand_result(a_hand(outcome="not_played"))
    assert not_played.one("span.muted").text() == "Not played"


def test_the_calculators_figure_shows_only_when_it_differs():
    assert "calculator" not in hand_result(a_hand(computed_fan=8)).text()
    differs = hand_result(a_hand(computed_fan=10))
    assert differs.lines()[-1] == "calculator: 10 fan"
    assert differs.one("small.minus").text() == "calculator: 10 fan"


def test_stored_texts_are_shown_as_written_never_as_markup():
    hand = a_hand(
        entered_by_device='Tablet <b> & "1"',
        fan_names="<script>",
        penalties=Penalties([a_penalty(reason="<i>late</i>", beneficiary=0)]),
    )
    html = hand_result(hand)
    assert not html.find("b") and not html.find("script") and not html.find("i")
    device = html.one("""small[title='Tablet <b> & "1"']""")
    assert device.text() == "via the table's tablet"
    assert html.lines()[2:] == [
        "<script>",
        "Penalty P3 10 (Deducted (leaves the table) → P1): <i>late</i>",
    ]


def test_the_referees_figure_kept_and_the_chinese_sheet():
    hand = a_hand(referee_figure_kept=True, flowers=1)
    assert hand_result(hand).lines()[-1] == "the referee's figures kept"
    with translation.override("zh-hans"):
        chinese = hand_result(hand).text()
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
    page = parse(render_to_string("referee/_sheet_rows.html", context))
    assert len(page.find("tr")) == 16
    first = page.one("tr#hand-1")
    assert first.classes == {"current"}
    link = first.one("a.hand-link")
    assert link.attrs["href"] == "/t/open/sessions/2/tables/7/hands/1/#entry" and link.text() == "1"
    second = page.one("tr#hand-2")
    assert "class" not in second.attrs
    assert second.find("td")[0].text() == "2" and not second.find("a")
    # Each player's cell: the hand's plus or minus, then the running total.
    winner = first.find("td.num")[0]
    assert winner.one("span.plus").text() == "+24"
    assert winner.find("small")[-1].text() == "+24"
    assert len(first.find("small.dealer")) == 1
    # A hand not entered: a dash for its result, no points.
    assert [row.find("td")[2].text() for row in page.find("tr")[1:]] == ["—"] * 15
    assert not second.find(".plus") and not second.find(".minus")
    context["can_enter"] = False
    page = parse(render_to_string("referee/_sheet_rows.html", context))
    assert not page.find(".hand-link")
