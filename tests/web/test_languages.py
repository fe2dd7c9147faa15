"""Chinese and English: the browser's language, the header's switch, and a page that is
always in the language its <html lang> names."""

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from tests import html
from tests.conftest import login
from tournament import services

PERSONAS = ["organiser", "referee", "other_referee", "anonymous"]
CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9,en;q=0.5"}


def html_lang(response) -> str:
    return html.one(response.content, "html").attrs["lang"]


def title(response) -> str:
    return html.one(response.content, "head title").text()


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_browser_asking_for_chinese_gets_chinese_pages(session_in_play, personas, persona):
    slug = session_in_play.tournament.slug
    client = personas[persona]
    for url in (
        reverse("standings", args=[slug]),
        reverse("seating", args=[slug, 1]),
        reverse("seating_by_name", args=[slug, 1]),
        reverse("calculator"),
    ):
        english, chinese = client.get(url), client.get(url, **CHINESE)
        assert html_lang(english) == "en" and html_lang(chinese) == "zh-hans"
        # The page's own words change with the language, not only the attribute.
        assert title(english) != title(chinese)
        assert re.search(r"[\u4e00-\u9fff]", title(chinese))


def test_the_words_are_the_catalogues(session_in_play):
    slug = session_in_play.tournament.slug
    page = html.parse(login(None).get(reverse("standings", args=[slug]), **CHINESE).content)
    assert page.one("head title")
    shown = [element.text() for element in page.find("*")]
    for chinese, english in (("排名", "Standings"), ("标准分", "Table points")):
        assert chinese in page.text()
        assert english not in shown


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_header_offers_the_other_language_named_in_itself(session_in_play, personas, persona):
    url = reverse("standings", args=[session_in_play.tournament.slug])
    english = personas[persona].get(url).content
    assert html.texts(english, "button.link[value=zh-hans][lang=zh-Hans]") == ["中文"]
    chinese = personas[persona].get(url, **CHINESE).content
    assert html.texts(chinese, "button.link[value=en][lang=en]") == ["English"]


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_switch_keeps_the_choice_and_returns_to_the_page(session_in_play, personas, persona):
    client = personas[persona]
    url = reverse("seating", args=[session_in_play.tournament.slug, 1])
    response = client.post(reverse("set_language"), {"language": "zh-hans", "next": url})
    assert response.status_code == 302 and response["Location"] == url
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    # The cookie outranks the browser's English.
    assert html_lang(client.get(url, HTTP_ACCEPT_LANGUAGE="en")) == "zh-hans"
    client.post(reverse("set_language"), {"language": "en", "next": url})
    assert html_lang(client.get(url, **CHINESE)) == "en"


def test_the_switch_does_not_send_a_reader_to_another_site(session_in_play):
    response = login(None).post(
        reverse("set_language"), {"language": "zh-hans", "next": "https://elsewhere.example/"}
    )
    assert response.status_code == 302 and "elsewhere" not in response["Location"]


def test_the_switch_is_a_form_reading_pages_does_not_change_the_language(session_in_play):
    client = login(None)
    url = reverse("standings", args=[session_in_play.tournament.slug])
    # A GET of the switch's address changes nothing (GET never writes, not even a cookie).
    client.get(reverse("set_language"), {"language": "zh-hans", "next": url})
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    assert html_lang(client.get(url)) == "en"


def test_dates_are_written_the_chinese_way_in_chinese(session_in_play, organiser):
    table = session_in_play.tables.get(number=1)
    services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    table.refresh_from_db()
    url = reverse("table_sheet", args=[session_in_play.tournament.slug, 1, 1])
    client = login(organiser)
    when = timezone.localtime(table.confirmed_at)
    chinese = client.get(url, **CHINESE).content.decode()
    assert f"{when.year}年{when.month}月{when.day}日" in chinese
    english = client.get(url).content.decode()
    assert f"{when.year}年" not in english
    assert when.strftime("%B")[:3] in english
