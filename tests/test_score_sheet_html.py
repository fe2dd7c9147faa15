"""The score sheet's rows as the tablet shows them (``referee/_hand_result.html``,
``referee/_sheet_rows.html``): each part of a hand's result, stored text shown as written
(never as markup), in both languages."""

from types import SimpleNamespace

from django.template.loader import render_to_string
from django.utils import translation

from tests.html_tree import parse
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


def lines(result) -> list[str]:
    """The result's lines (a <br> between each), as read."""
    found = [""]
    for child in result.children:
        if isinstance(child, str):
            found[-1] += child
        elif child.tag == "br":
            found.append("")
        else:
            found[-1] += child.text
    return [" ".join(line.split()) for line in found if line.strip()]


def test_a_self_drawn_win_with_flowers():
    assert lines(hand_result(a_hand(flowers=2))) == ["P1 self-drawn 8 + 2 flowers"]
    assert lines(hand_result(a_hand(flowers=1))) == ["P1 self-drawn 8 + 1 flower"]


def test_a_win_on_a_discard_a_draw_and_a_hand_not_played():
    won = a_hand(outcome="discard", winner=3, discarder=1, fan=12)
    assert lines(hand_result(won)) == ["P4 on discard of P2 12"]
    assert lines(hand_result(a_hand(outcome="draw"))) == ["Draw"]
    not_played = hand_result(a_hand(outcome="not_played"))
    assert not_played.one("span", class_="muted").text == "Not played"


def test_the_calculators_figure_shows_only_when_it_differs():
    assert "calculator" not in hand_result(a_hand(computed_fan=8)).text
    differs = hand_result(a_hand(computed_fan=10))
    assert lines(differs)[-1] == "calculator: 10 fan"
    assert differs.one("small", class_="minus").text == "calculator: 10 fan"


def test_stored_texts_are_shown_as_written_never_as_markup():
    hand = a_hand(
        entered_by_device='Tablet <b> & "1"',
        fan_names="<script>",
        penalties=Penalties([a_penalty(reason="<i>late</i>", beneficiary=0)]),
    )
    html = hand_result(hand)
    assert not html.find_all("b") and not html.find_all("script") and not html.find_all("i")
    device = html.one("small", title='Tablet <b> & "1"')
    assert device.text == "via the table's tablet"
    assert lines(html)[2:] == [
        "<script>",
        "Penalty P3 10 (Deducted (leaves the table) → P1): <i>late</i>",
    ]


def test_the_referees_figure_kept_and_the_chinese_sheet():
    hand = a_hand(referee_figure_kept=True, flowers=1)
    assert lines(hand_result(hand))[-1] == "the referee's figures kept"
    with translation.override("zh-hans"):
        chinese = hand_result(hand).text
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
    assert len(page.find_all("tr")) == 16
    first = page.one("tr", id="hand-1")
    assert first.classes == {"current"}
    link = first.one("a", class_="hand-link")
    assert link["href"] == "/t/open/sessions/2/tables/7/hands/1/#entry" and link.text == "1"
    second = page.one("tr", id="hand-2")
    assert "class" not in second.attrs
    assert second.find("td").text == "2" and not second.find_all("a")
    # Each player's cell: the hand's plus or minus, then the running total.
    winner = first.find_all("td", class_="num")[0]
    assert winner.one("span", class_="plus").text == "+24"
    assert winner.find_all("small")[-1].text == "+24"
    assert len(first.find_all("small", class_="dealer")) == 1
    # A hand not entered: a dash for its result, no points.
    assert [row.find_all("td")[2].text for row in page.find_all("tr")[1:]] == ["—"] * 15
    assert not second.find_all(class_="plus") and not second.find_all(class_="minus")
    context["can_enter"] = False
    page = parse(render_to_string("referee/_sheet_rows.html", context))
    assert not page.find_all(class_="hand-link")
