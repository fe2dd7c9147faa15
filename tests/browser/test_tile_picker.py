"""The winning hand entered by touch, in a real browser, on the calculator and the sheet.

Each hand is tapped on the tile picker as ``reference.tile_taps`` plans it; the hand the
picker writes must be that hand, and the fans it shows must be the scoring core's. On the
sheet the hand is then saved, with the network and without it.
"""

import dataclasses
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from reference.tile_taps import Tap, plan
from tests.browser.conftest import TABLET_LANDSCAPE, TABLET_UPRIGHT, log_in, navigates, set_viewport
from tests.browser.picker import PICKER, fits_the_screen, shown_fans, tap_plan, written_hand
from tests.browser.test_hand_entry import choose, saves_in_place, sheet_url
from tests.browser.test_offline import network, sync_state
from tests.fan_lists import core_fans
from tournament import seating
from tournament.scoring import notation

# The hands of the issue: a chow-pung hand, seven pairs, a concealed kong with flowers, and a
# hand below the 8-fan minimum.
HANDS = {
    "chow_pung": "123m456p789s1z [555p] +1z",
    "seven_pairs": "1199m2277p3388sE +E | self",
    "kong_and_flowers": "123m789p456s1s {CCCC} +1s | self kong flowers=3",
    "below_minimum": "123m456p23s55s [789m] +4s",
}
SIZES = pytest.mark.parametrize(
    "size", [TABLET_UPRIGHT, TABLET_LANDSCAPE], ids=["upright", "landscape"]
)


def picker_state(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, PICKER).text


@SIZES
def test_the_calculator_counts_the_hands_tapped_as_the_core_does(browser, size):
    set_viewport(browser, *size)
    for name, text in HANDS.items():
        hand = notation.parse_hand(text)
        browser.get(browser.live_server_url + "/calculator/")
        tap_plan(browser, plan(hand))
        assert notation.parse_hand(written_hand(browser)) == hand, name
        shown = shown_fans(browser)
        scored = notation.score_hand(hand)
        assert shown["total"] == scored.total_without_flowers, name
        assert shown["fans"] == core_fans(scored), name
        if not scored.valid:
            assert "Below the 8-fan minimum" in shown["text"]
        # The whole picker, its fans shown, fits the screen: nothing to scroll while tapping.
        assert fits_the_screen(browser, PICKER), (name, size)


def test_a_tile_that_cannot_be_added_is_refused_at_once_with_the_reason(browser):
    browser.get(browser.live_server_url + "/calculator/")
    refusal = browser.find_element(By.CSS_SELECTOR, "[data-picker-refusal]")
    tap_plan(
        browser, [Tap("mode", "kong"), Tap("tile", "5p"), Tap("mode", "tile"), Tap("tile", "5p")]
    )
    assert refusal.text == "There are only four of 5 of dots."
    assert written_hand(browser).startswith("{5555p}")
    tap_plan(browser, [Tap("mode", "chow"), Tap("tile", "8m")])
    assert refusal.text.endswith("tap its lowest tile, 1 to 7.")
    tap_plan(browser, [Tap("mode", "pung")] + [Tap("tile", t) for t in ("1m", "2m", "3m")])
    tap_plan(browser, [Tap("mode", "pair"), Tap("tile", "E")])
    assert refusal.text == ""
    assert "14 of 14 tiles" in picker_state(browser)
    tap_plan(browser, [Tap("tile", "S")])
    assert refusal.text.startswith("The hand already has its 14 tiles")
    assert "S" not in written_hand(browser)
    # Undo takes the last group back; a tap on a tile of the hand makes it the winning tile.
    browser.find_element(By.CSS_SELECTOR, f"{PICKER} [data-undo]").click()
    assert "12 of 14 tiles" in picker_state(browser)
    tap_plan(browser, [Tap("tile", "W"), Tap("win", "1:0")])
    assert written_hand(browser).split(" | ")[0] == "11222333mWW {5555p} +1m"
    # A tile of a concealed kong is not a winning tile.
    tap_plan(browser, [Tap("win", "0:0")])
    assert refusal.text.startswith("The winning tile is one of the tiles in the hand")


def test_the_calculator_in_chinese_names_the_fans_in_chinese(browser):
    browser.get(browser.live_server_url + "/calculator/")
    browser.add_cookie({"name": "django_language", "value": "zh-hans"})
    browser.get(browser.live_server_url + "/calculator/")
    hand = notation.parse_hand(HANDS["chow_pung"])
    tap_plan(browser, plan(hand))
    assert shown_fans(browser)["fans"] == core_fans(notation.score_hand(hand), "zh-hans")
    assert "番" in shown_fans(browser)["text"]


# --- On the referee's sheet ------------------------------------------------------------------


def on_the_sheet(hand, number: int, winner: int):
    """The scoring core's result for ``hand`` as hand ``number`` won by seat ``winner``: the
    winds from the schedule, as the sheet gives them."""
    slot = seating.session_schedule()[number - 1]
    return notation.score_hand(
        dataclasses.replace(
            hand, seat_wind=slot.seat_winds[winner], prevalent_wind=slot.prevalent_wind
        )
    )


def tap_the_result(driver, hand, winner: int) -> None:
    choose(driver, "outcome", "self_drawn" if hand.self_drawn else "discard")
    choose(driver, "winner", str(winner))
    if not hand.self_drawn:
        choose(driver, "discarder", str((winner + 1) % 4))


def open_picker(driver) -> None:
    button = driver.find_element(By.CSS_SELECTOR, "[data-picker-open]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()
    WebDriverWait(driver, 5).until(
        lambda d: (
            d.find_element(By.CSS_SELECTOR, "[data-picker-dialog]").get_attribute("open")
            is not None
        )
    )


def heading(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, "#entry h2").text


@SIZES
def test_the_referee_enters_the_hands_by_touch_and_saves_them(browser, table_in_play, size):
    set_viewport(browser, *size)
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    for number, name in enumerate(("chow_pung", "seven_pairs", "kong_and_flowers"), start=1):
        hand = notation.parse_hand(HANDS[name])
        winner = number % 4
        tap_the_result(browser, hand, winner)
        open_picker(browser)
        tap_plan(browser, plan(hand, on_sheet=True))
        shown = shown_fans(browser)
        scored = on_the_sheet(hand, number, winner)
        assert (shown["total"], shown["fans"]) == (scored.total_without_flowers, core_fans(scored))
        # The picker and its fans fit the tablet's screen, in its dialog: no scrolling.
        assert browser.execute_script(
            "const d = document.querySelector('[data-picker-dialog]');"
            "return d.scrollHeight <= d.clientHeight;"
        ), (name, size)
        # One tap puts the total into the fan; the flowers came from the picker.
        browser.find_element(By.CSS_SELECTOR, f"{PICKER} [data-use-total]").click()
        assert browser.find_element(By.NAME, "fan").get_attribute("value") == str(shown["total"])
        assert browser.find_element(By.NAME, "flowers").get_attribute("value") == str(hand.flowers)
        summary = browser.find_element(By.CSS_SELECTOR, "[data-picker-summary]").text
        assert summary == f"The tiles give {shown['total']} fan, as declared."
        save = browser.find_element(By.CSS_SELECTOR, "#hand-entry button.primary")
        saves_in_place(browser, save.click)
        assert heading(browser) == f"Enter hand {number + 1}"
        stored = table_in_play.hands.get(number=number)
        assert (stored.fan, stored.computed_fan, stored.flowers) == (
            scored.total_without_flowers,
            scored.total_without_flowers,
            hand.flowers,
        )
        kept = notation.parse_hand(stored.winning_hand)
        assert (kept.concealed, kept.melds, kept.win_tile) == (
            hand.concealed,
            hand.melds,
            hand.win_tile,
        )
    # The statistics count the fans of the hands entered by touch, and say how many.
    slug = table_in_play.session.tournament.slug
    browser.get(f"{browser.live_server_url}/t/{slug}/statistics/")
    sources = browser.find_element(By.ID, "fan-sources").text
    assert "Wins entered with their tiles, picked on the tablet or typed" in sources
    assert sources.splitlines()[0].endswith(": 3")
    frequent = browser.find_element(By.CSS_SELECTOR, "table.frequent-fans").text
    assert "Seven Pairs" in frequent and "Concealed Kong" in frequent


@SIZES
def test_a_hand_below_the_minimum_is_refused_and_kept_with_its_tiles(browser, table_in_play, size):
    set_viewport(browser, *size)
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    hand = notation.parse_hand(HANDS["below_minimum"])
    tap_the_result(browser, hand, 2)
    open_picker(browser)
    tap_plan(browser, plan(hand, on_sheet=True))
    shown = shown_fans(browser)
    assert shown["total"] < 8 and "Below the 8-fan minimum" in shown["text"]
    browser.find_element(By.CSS_SELECTOR, f"{PICKER} [data-use-total]").click()
    save = browser.find_element(By.CSS_SELECTOR, "#hand-entry button.primary")
    navigates(browser, save.click)
    assert not table_in_play.hands.exists()
    assert "8" in browser.find_element(By.ID, "field-fan").text  # the reason, beside the fan
    # Everything entered is still there: the result, the winner, the fan and the tiles.
    assert browser.find_element(By.CSS_SELECTOR, "input[name=winner][value='2']").is_selected()
    assert browser.find_element(By.NAME, "fan").get_attribute("value") == str(shown["total"])
    assert (
        notation.parse_hand(browser.find_element(By.NAME, "winning_hand").get_attribute("value"))
        == hand
    )
    assert "14 of 14 tiles" in browser.find_element(
        By.CSS_SELECTOR, f"{PICKER} [data-picker-count]"
    ).get_attribute("textContent")


@SIZES
def test_without_the_network_the_tiles_are_kept_and_checked_when_sent(browser, table_in_play, size):
    set_viewport(browser, *size)
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    WebDriverWait(browser, 15).until(lambda d: sync_state(d) == ("saved", "All saved"))
    network(browser, offline=True)
    expected = {}
    # The four hands, each declared at the fan its tiles give on the sheet; the last one is
    # below the minimum.
    for number, name in enumerate(HANDS, start=1):
        hand = notation.parse_hand(HANDS[name])
        winner = number % 4
        scored = on_the_sheet(hand, number, winner)
        expected[number] = scored.total_without_flowers
        tap_the_result(browser, hand, winner)
        open_picker(browser)
        tap_plan(browser, plan(hand, on_sheet=True))
        shown = shown_fans(browser)
        assert shown["offline"] and shown["total"] is None
        assert "the fans are checked when it is sent" in shown["text"]
        browser.find_element(By.CSS_SELECTOR, f"{PICKER} [data-picker-close]").click()
        fan = browser.find_element(By.NAME, "fan")
        fan.clear()
        fan.send_keys(str(scored.total_without_flowers))
        summary = browser.find_element(By.CSS_SELECTOR, "[data-picker-summary]").text
        assert "checked when the hand is sent" in summary
        browser.find_element(By.CSS_SELECTOR, "#hand-entry button.primary").click()
        next_hand = f"Enter hand {number + 1}"
        WebDriverWait(browser, 15).until(lambda d, title=next_hand: heading(d) == title)
    assert not table_in_play.hands.exists()
    network(browser, offline=False)
    # The three wins are stored with their tiles checked; the fourth is refused for the
    # minimum, and kept on the tablet.
    WebDriverWait(browser, 40).until(lambda d: sync_state(d)[0] == "refused")
    stored = list(table_in_play.hands.order_by("number"))
    assert [(h.number, h.fan, h.computed_fan) for h in stored] == [
        (n, expected[n], expected[n]) for n in (1, 2, 3)
    ]
    assert expected[4] < 8
    problems = browser.find_element(By.CSS_SELECTOR, "[data-sync-problems]").text
    assert "Hand 4" in problems and "8" in problems


def test_a_chows_winning_tile_is_tapped_not_guessed(browser):
    browser.get(browser.live_server_url + "/calculator/")
    # 123m 456m 789m 234p EE, the pair first: the last group is a chow.
    taps = [Tap("mode", "pair"), Tap("tile", "E"), Tap("mode", "chow")]
    tap_plan(browser, taps + [Tap("tile", t) for t in ("1m", "4m", "7m", "2p")])
    count = browser.find_element(By.CSS_SELECTOR, f"{PICKER} [data-picker-count]")
    assert count.text == "14 of 14 tiles"
    fans = browser.find_element(By.CSS_SELECTOR, f"{PICKER} [data-picker-fans]")
    assert fans.text.startswith("Tap the winning tile among the tiles of the hand")
    assert "+" not in written_hand(browser)
    # The middle of 234p: a closed wait, which the core counts.
    tap_plan(browser, [Tap("win", "4:1")])
    assert count.text == "14 of 14 tiles · winning tile: 3 of dots"
    hand = notation.parse_hand(written_hand(browser))
    assert hand.win_tile == "3p"
    shown = shown_fans(browser)
    assert ("Closed Wait", "1", "") in shown["fans"]
    assert shown["fans"] == core_fans(notation.score_hand(hand))


def test_a_hand_typed_that_the_picker_cannot_read_is_kept_until_clear(browser):
    typed = "123m456p789s东东 +东"
    browser.get(browser.live_server_url + "/calculator/?hand=" + urllib.parse.quote(typed))
    refusal = browser.find_element(By.CSS_SELECTOR, "[data-picker-refusal]")
    assert refusal.text.startswith("The picker cannot read the hand written in the field")
    tap_plan(browser, [Tap("tile", "1m"), Tap("flag", "self")])
    assert written_hand(browser) == typed
    browser.find_element(By.CSS_SELECTOR, f"{PICKER} [data-clear]").click()
    tap_plan(browser, [Tap("mode", "pung"), Tap("tile", "1m")])
    assert written_hand(browser) == "11m +1m | seat=E wind=E flowers=0"
    assert refusal.text == ""


def test_a_winner_changed_after_the_tiles_counts_the_fans_again(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    # A pung of East: the seat wind's for P1 in hand 1, not for P2 (South).
    hand = notation.parse_hand("123m456p1sEEE [789s] +1s")
    tap_the_result(browser, hand, 0)
    open_picker(browser)
    tap_plan(browser, plan(hand, on_sheet=True))
    first = shown_fans(browser)
    assert first["total"] == on_the_sheet(hand, 1, 0).total_without_flowers
    browser.find_element(By.CSS_SELECTOR, f"{PICKER} [data-picker-close]").click()
    choose(browser, "winner", "1")
    choose(browser, "discarder", "3")
    again = shown_fans(browser)
    expected = on_the_sheet(hand, 1, 1)
    assert (again["total"], again["fans"]) == (expected.total_without_flowers, core_fans(expected))
    assert again["total"] < first["total"]
    use = browser.find_element(By.CSS_SELECTOR, "[data-picker-use]")
    assert use.text == f"Use {expected.total_without_flowers} fan"


def test_a_self_draw_corrected_to_a_discard_after_the_tiles_counts_again(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    hand = notation.parse_hand(HANDS["chow_pung"])
    choose(browser, "outcome", "self_drawn")
    choose(browser, "winner", "0")
    open_picker(browser)
    tap_plan(browser, plan(hand, on_sheet=True))
    self_drawn = shown_fans(browser)
    browser.find_element(By.CSS_SELECTOR, f"{PICKER} [data-picker-close]").click()
    # It was a win on a discard: the fans are counted again.
    choose(browser, "outcome", "discard")
    choose(browser, "discarder", "2")
    on_discard = shown_fans(browser)
    expected = on_the_sheet(hand, 1, 0)
    assert (on_discard["total"], on_discard["fans"]) == (
        expected.total_without_flowers,
        core_fans(expected),
    )
    assert ("Self-Drawn", "1", "") in self_drawn["fans"]
    assert ("Self-Drawn", "1", "") not in on_discard["fans"]
