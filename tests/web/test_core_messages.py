"""The cores' errors and fan names shown in the reader's language: the templates go through
gettext, their phrases too, fan names come out in Chinese under Chinese.

There is no Chinese catalogue in the tests: ``gettext`` is replaced by one that marks what
it was given («…»), or by a catalogue of one sentence."""

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from tests.core_error_cases import CASES
from tests.markdown_tables import table_rows
from tests.web.pages import assert_error_beside
from tests.web.test_referee import post_hand, urls  # noqa: F401 (a fixture)
from tournament.language import translated
from tournament.scoring import claims, notation
from tournament.scoring.fans import fan_by_name
from tournament.scoring.hand import Meld, WinningHand
from tournament.services import hands
from tournament.templatetags.mcr import fan_name, fans_claimed

ROOT = Path(__file__).resolve().parents[2]
CALCULATOR = reverse("calculator")
FAKE_CATALOGUE = {"%(fan)s: a count is at least 1.": "%(fan)s：次数至少为 1。"}


def marked(text: str) -> str:
    return f"«{text}»"


@pytest.fixture
def marking(monkeypatch):
    """gettext as the cores' messages see it, marking every text it translates."""
    monkeypatch.setattr(translated, "gettext", marked)


@pytest.fixture
def catalogue(monkeypatch):
    """gettext as the cores' messages see it, with a Chinese catalogue of one sentence."""
    monkeypatch.setattr(translated, "gettext", lambda text: FAKE_CATALOGUE.get(text, text))


def error_of(call):
    with pytest.raises(ValueError) as raised:
        call()
    return raised.value


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_every_core_message_goes_through_gettext_and_reads_as_in_english(marking, case):
    shown = translated.core_message(error_of(case.call))
    assert shown.startswith("«") and shown.endswith("»")
    assert shown.replace("«", "").replace("»", "") == case.message


def test_the_phrases_among_the_params_go_through_gettext_too(marking):
    error = error_of(lambda: notation.parse_hand("123m456p"))
    assert translated.core_message(error) == (
        "«at character 9 («end of text, after 123m456p»): "
        "«no winning tile: write it after +, as in +9s, before any |»»"
    )
    hand = WinningHand(concealed=("1m",) * 10, win_tile="C", melds=(Meld("pung", ("X",) * 3),))
    message = translated.core_message(error_of(lambda: notation.validate(hand)))
    assert message.startswith("«'X' in «meld 1» is not a tile; ")


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "Pure Straight: a count is at least 1."), ("zh-hans", "清龙：计番次数至少为 1。")],
)
def test_a_fan_in_a_message_is_named_in_the_reader_language(language, expected):
    error = error_of(lambda: claims.parse_claimed_fans("Pure Straight ×0"))
    with translation.override(language):
        assert translated.core_message(error) == expected


def test_a_translated_message_reads_in_chinese(catalogue):
    error = error_of(lambda: claims.parse_claimed_fans("清龙 ×0"))
    with translation.override("zh-hans"):
        assert translated.core_message(error) == "清龙：次数至少为 1。"
    # The English message of the error is untouched: the command line and the tests read it.
    assert error.message == "Pure Straight: a count is at least 1."


def test_the_worked_example_of_the_scoring_doc(monkeypatch):
    rows = dict(table_rows(ROOT / "docs" / "scoring.md", "| where | shown |"))
    error = error_of(lambda: claims.parse_claimed_fans("清龙 ×0"))
    assert error.message == rows["`error.message`, the command line"]
    with translation.override("en"):
        assert translated.core_message(error) == rows["an English page"]
    with translation.override("zh-hans"):
        shown = rows["a Chinese page (the catalogue has `%(fan)s：计番次数至少为 1。`)"]
        assert translated.core_message(error) == shown
        assert translation.gettext(error.template) == "%(fan)s：计番次数至少为 1。"
        # Without the sentence in the catalogue, the fan is still named in Chinese.
        monkeypatch.setattr(translated, "gettext", lambda text: text)
        shown = rows["a Chinese page, were the sentence missing from the catalogue"]
        assert translated.core_message(error) == shown


# --- On the pages ------------------------------------------------------------------------


def test_the_calculator_shows_an_illegal_hand_through_gettext(client, db, marking):
    response = client.get(CALCULATOR, {"hand": "123m x +9s"}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert_error_beside(response, "hand", "«at character 6 (123m ")
    assert response.context["form"].errors["hand"] == [
        "«at character 6 (123m >>x<< +9s): «'x' is not a tile; tiles are 1m-9m, 1p-9p, 1s-9s, "
        "the winds E S W N and the dragons C F P (or the honors as 1z-7z)»»"
    ]


def test_the_calculator_shows_a_wrong_claim_in_chinese(client, db, catalogue):
    response = client.get(
        CALCULATOR, {"claimed_fans": "Pure Straight ×0"}, HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert_error_beside(response, "claimed_fans", "清龙：次数至少为 1。")


def test_the_referee_sees_an_illegal_winning_hand_through_gettext(personas, urls, marking):  # noqa: F811
    client = personas["referee"]
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-hans"
    response = post_hand(
        client, urls["sheet"], outcome="self_drawn", winner="1", fan="8", winning_hand="123m +4m"
    )
    assert_error_beside(response, "winning_hand", "«the hand has 4 tiles (3 concealed, ")


def test_the_referee_sees_a_fan_name_error_in_chinese(personas, urls, catalogue):  # noqa: F811
    client = personas["referee"]
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-hans"
    response = post_hand(
        client,
        urls["sheet"],
        outcome="self_drawn",
        winner="1",
        fan="8",
        fan_names="Pure Straight ×0",
    )
    assert_error_beside(response, "fan_names", "清龙：次数至少为 1。")


def test_a_settlement_refusal_without_words_of_the_sheet_goes_through_gettext(db, marking):
    with pytest.raises(ValidationError) as raised:
        hands.settle(outcome="draw", winner=None, discarder=None, fan=None, flowers=1, penalties=())
    assert raised.value.message_dict == {"flowers": ["«There are no flowers to count in a draw.»"]}


# --- Fan names ---------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "expected"), [("en", "Pure Straight"), ("zh-hans", "清龙")])
def test_a_fan_is_named_in_the_page_language(language, expected):
    with translation.override(language):
        assert fan_name(fan_by_name("pure_straight")) == expected


def test_the_fans_claimed_are_shown_in_the_page_language():
    with translation.override("zh-hans"):
        assert fans_claimed("Pure Straight 16, Short Straight x2") == "清龙、连六 ×2"
    with translation.override("en"):
        assert fans_claimed("清龙, 连六 ×2") == "Pure Straight, Short Straight ×2"
        # What cannot be read is shown as it was stored.
        assert fans_claimed("Lucky Seven") == "Lucky Seven"


def test_the_score_sheet_shows_the_fans_claimed_in_the_page_language(personas, urls):  # noqa: F811
    client = personas["referee"]
    response = post_hand(
        client,
        urls["sheet"],
        outcome="discard",
        winner="0",
        discarder="2",
        fan="12",
        fan_names="Mixed Straight, Dragon Pung, Concealed Hand",
    )
    assert response.status_code == 302
    page = client.get(urls["sheet"], HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "花龙、箭刻、门前清" in page
    page = client.get(urls["sheet"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Mixed Straight, Dragon Pung, Concealed Hand" in page
