"""The standings and seating pages kept whole for the spectators (``views.shared_pages``):
read from the cache by anyone not signed in, each with a form token of their own, and drawn
again as soon as anything they show changes; everyone else gets their own page."""

import re

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client
from django.urls import reverse

from tests import html
from tests.conftest import login, make_players
from tournament import services
from tournament.models import Tournament
from tournament.selectors import lookups
from tournament.views import shared_pages

SEED = 20261205
# The form token in the page's markup, which Django masks afresh for every answer: left out
# where a page kept whole is compared, byte for byte, with one drawn afresh.
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def form_token(page) -> str:
    return html.elements(page, "input[name=csrfmiddlewaretoken]")[0].attrs["value"]


@pytest.fixture
def drawn(tournament):
    make_players(tournament, 8)
    return services.session_draw(tournament=tournament, number=1, seed=SEED)


def urls(tournament) -> list[str]:
    return [
        reverse("standings", args=[tournament.slug]),
        reverse("seating", args=[tournament.slug, 1]),
    ]


@pytest.mark.parametrize("page", [0, 1])
def test_a_spectator_reads_the_page_kept_with_a_token_of_their_own(
    drawn, tournament, page, django_assert_max_num_queries
):
    url = urls(tournament)[page]
    first = Client(enforce_csrf_checks=True)
    drawn_page = first.get(url).content.decode()
    second = Client(enforce_csrf_checks=True)
    # Kept: the tournament with its versions (the seating: with the session) read in one
    # query, no template drawn.
    with django_assert_max_num_queries(1):
        answer = second.get(url)
    assert answer.templates == []
    kept = answer.content.decode()
    assert TOKEN.sub("", kept) == TOKEN.sub("", drawn_page)
    token = form_token(kept)
    assert token != form_token(drawn_page) and "visitor form token" not in kept
    # The token is good: the language switch takes it.
    answer = second.post(
        reverse("set_language"), {"language": "zh-hans", "next": url, "csrfmiddlewaretoken": token}
    )
    assert answer.status_code == 302
    assert html.one(second.get(url).content, "html").attrs["lang"] == "zh-hans"


@pytest.mark.parametrize("page", [0, 1])
def test_signed_in_readers_get_their_own_page_and_spectators_never_see_it(
    drawn, tournament, organiser, page
):
    url = urls(tournament)[page]
    player_list = reverse("player_list", args=[tournament.slug])
    assert player_list not in login(None).get(url).content.decode()
    assert player_list in login(organiser).get(url).content.decode()
    assert player_list not in login(None).get(url).content.decode()


@pytest.mark.parametrize("page", [0, 1])
@pytest.mark.parametrize("through", ["the services", "the admin"])
def test_a_new_name_shows_at_once(drawn, tournament, page, through):
    url = urls(tournament)[page]
    assert "Spring Open" in login(None).get(url).content.decode()
    if through == "the services":
        services.tournament_update(tournament=tournament, name="Autumn Open")
    else:  # a change that raises no version: the page's key holds the name
        Tournament.objects.filter(pk=tournament.pk).update(name="Autumn Open")
    html = login(None).get(url).content.decode()
    assert "Autumn Open" in html and "Spring Open" not in html


def test_a_hand_shows_in_the_standings_at_once_and_leaves_the_seating_kept(
    drawn, tournament, django_assert_max_num_queries
):
    standings, seating = urls(tournament)
    before = login(None).get(standings).content.decode()
    login(None).get(seating)
    services.session_open(session=drawn)
    table = drawn.tables.get(number=1)
    # A self-draw of 8 fan: each of the three others pays 8 + 8.
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
    )
    after = login(None).get(standings).content.decode()
    assert "48" in html.texts(after, "td.num") and "48" not in html.texts(before, "td.num")
    # The seating is as it was: still kept (the tournament, the session, its versions).
    with django_assert_max_num_queries(3):
        assert login(None).get(seating).templates == []


def test_a_reader_with_a_session_or_a_message_is_not_served_the_kept_page(
    drawn, tournament, monkeypatch
):
    url = urls(tournament)[0]
    login(None).get(url)
    asked = []
    real_get = lookups.cache.get
    monkeypatch.setattr(
        lookups.cache, "get", lambda key, *a, **k: asked.append(key) or real_get(key, *a, **k)
    )
    with_session, with_message = Client(), Client()
    with_session.cookies["sessionid"] = "atabletssessionkey0123456789abcd"  # a tablet's
    with_message.cookies["messages"] = "Hand 3 saved."
    for client in (with_session, with_message):
        assert client.get(url).status_code == 200
    assert not any("standings-page" in key for key in asked)
    Client().get(url)
    assert any("standings-page" in key for key in asked)


def test_spectators_asking_while_the_page_is_drawn_wait_for_it_instead_of_drawing_it_too(
    drawn, tournament, monkeypatch
):
    url = urls(tournament)[0]
    login(None).get(url)
    services.session_open(session=drawn)
    services.hand_record(
        table=drawn.tables.get(number=1), entry=services.HandEntry(number=1, outcome="draw")
    )
    # The page after the hand is being drawn by another spectator's request: its lock held,
    # and its copy kept while this reader waits.
    held, waited = [], []
    real_add = lookups.cache.add

    def add(key, value, timeout=None):
        if "standings-page" in key and key.endswith(":lock"):
            real_add(key, value, timeout)
            held.append(key)
            return False
        return real_add(key, value, timeout)

    def wait(seconds):
        waited.append(seconds)
        (lock,) = held
        lookups.cache.set(lock.removesuffix(":lock"), "The page the other spectator drew.", 60)
        lookups.cache.delete(lock)

    monkeypatch.setattr(lookups.cache, "add", add)
    monkeypatch.setattr(lookups.time, "sleep", wait)
    drawing = []
    real_render = shared_pages.render
    monkeypatch.setattr(
        shared_pages, "render", lambda *a, **k: drawing.append(1) or real_render(*a, **k)
    )
    answer = login(None).get(url)
    assert answer.content.decode() == "The page the other spectator drew."
    assert waited and drawing == []


def test_a_page_kept_by_another_release_is_not_served(drawn, tournament, monkeypatch):
    url = urls(tournament)[0]
    login(None).get(url)
    monkeypatch.setattr(shared_pages, "release", lambda: "next-release")
    assert login(None).get(url).templates != []


def kept_pages() -> set[str]:
    """The keys of the whole pages kept in the cache (the in-process cache the suite uses
    unless MCR_REDIS_URL names Redis)."""
    backend = caches["default"]
    if isinstance(backend, LocMemCache):  # its own dictionary
        return {key for key in backend._cache if "-page:" in key}
    client = backend._cache.get_client()
    return {key.decode() for key in client.keys("*-page:*")}


@pytest.mark.parametrize("page", [0, 1])
def test_a_made_up_parameter_is_served_the_kept_page_and_keeps_no_copy(drawn, tournament, page):
    url = urls(tournament)[page]
    plain = login(None).get(url).content.decode()
    assert len(kept_pages()) == 1
    for junk in ("?x=1", "?x=2&utm_source=feed", "?page=1&x=3", "?page=junk", "?sort=junk"):
        answer = login(None).get(url + junk)
        assert answer.status_code == 200
        assert answer.templates == [] or junk.startswith("?page"), junk
        # No address the page does not read is written into it (the language switch's
        # return address, a table's links): no "x" parameter in any address.
        html = answer.content.decode()
        assert not re.search(r"[?&;]x=", html) and "utm_source" not in html
    assert TOKEN.sub("", login(None).get(url + "?x=1").content.decode()) == TOKEN.sub("", plain)
    # The parameters the page reads: one copy each ("?page=1" above and each sort here).
    assert len(kept_pages()) == 2
    # A page's number as it reads it: past the highest a link may name, the highest.
    for same in ("?page=01", "?page=2&page=1"):
        login(None).get(url + same)
    login(None).get(url + "?page=900")
    login(None).get(url + "?page=90000")
    assert len(kept_pages()) == 3
    if page == 0:
        login(None).get(url + "?sort=-score")
        login(None).get(url + "?sort=-score&x=1")
        assert len(kept_pages()) == 4
