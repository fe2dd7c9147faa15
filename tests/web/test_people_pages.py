"""The tournament's *People* page (matches by name confirmed, new people, a link by hand, an
unlink, links by EMA number) and a person's public page, with every persona."""

import pytest
from django.urls import reverse

from tests import html
from tests.conftest import login, make_tournament
from tournament import services
from tournament.models import Person


def text(response) -> str:
    """The page's text as a reader sees it."""
    (body,) = html.texts(response.content, "body")
    return body


@pytest.fixture
def months(tournament, organiser):
    """Spring Open (4 players, each a person) and the organiser's later tournament, whose
    players 1 and 2 have the names of Spring's 1 and 2, 3 is new and 4 has an EMA number."""
    for number, name in enumerate(("Anna Berg", "Li Wang", "Chris Doe", "Dana Eck"), start=1):
        services.player_save(tournament=tournament, number=number, name=name)
    services.person_create_for(tournament=tournament, numbers=[1, 2, 3, 4])
    later = make_tournament(creator=organiser, slug="summer-cup")
    for number, name in enumerate(("BERG Anna", "Wang Li", "Eve New"), start=1):
        services.player_save(tournament=later, number=number, name=name)
    services.player_save(tournament=later, number=4, name="Fay", ema_number="07000001")
    return tournament, later


def people_url(name, slug="summer-cup", *args):
    return reverse(name, args=[slug, *args])


def test_the_page_suggests_the_matches_checked_and_links_them(months, organiser):
    spring, later = months
    client = login(organiser)
    page = client.get(people_url("tournament_people"))
    shown = text(page)
    assert "Matches by name to confirm" in shown
    assert [s.player.number for s in page.context["suggestions"]] == [1, 2]
    assert [p.number for p in page.context["others"]] == [3]
    # Player 4 was linked by its EMA number when it was saved.
    assert [p.number for p in page.context["linked"]] == [4]
    anna = spring.players.get(number=1).person
    assert "checked" in html.one(page.content, f"input[value='1:{anna.pk}']").attrs
    wang = spring.players.get(number=2).person
    response = client.post(people_url("people_link"), {"link": [f"1:{anna.pk}", f"2:{wang.pk}"]})
    assert response.status_code == 302
    assert [p.person for p in later.players.order_by("number")][:2] == [anna, wang]
    response = client.post(people_url("people_new"), {"player": ["3"]})
    assert response.status_code == 302
    assert later.players.get(number=3).person.name == "Eve New"
    final = client.get(people_url("tournament_people"))
    assert "Every player is linked to a person." in text(final)


def test_nothing_ticked_or_a_forged_pair_is_refused_beside_the_list(months, organiser):
    _spring, later = months
    client = login(organiser)
    response = client.post(people_url("people_link"), {})
    assert response.status_code == 200
    assert "Tick at least one player to link." in text(response)
    other_person = Person.objects.get(name="Chris Doe")
    response = client.post(people_url("people_link"), {"link": [f"1:{other_person.pk}"]})
    assert response.status_code == 200
    assert "is not one of the available choices" in text(response)
    assert not later.players.filter(person__isnull=False).exclude(number=4).exists()


def test_a_search_finds_a_person_and_links_them_by_hand_or_says_why_not(months, organiser):
    _spring, later = months
    client = login(organiser)
    page = client.get(people_url("tournament_people"), {"q": "doe"})
    (chris,) = page.context["found"]
    assert chris.name == "Chris Doe"
    response = client.post(
        people_url("person_link_by_hand"), {"player": "3", "person": str(chris.pk)}
    )
    assert response.status_code == 302
    assert later.players.get(number=3).person == chris
    # Player 4 is linked by EMA number: linking it elsewhere is refused, with the reason.
    dana = Person.objects.get(name="Dana Eck")
    response = client.post(
        people_url("person_link_by_hand"), {"player": "4", "person": str(dana.pk)}
    )
    assert response.status_code == 200
    assert "has EMA number 07000001" in text(response)
    response = client.post(people_url("person_link_by_hand"), {"player": "x", "person": "1"})
    assert response.status_code == 200
    assert "Enter a whole number." in text(response)


def test_unlink_by_hand_and_link_again_by_ema_numbers(months, organiser):
    spring, later = months
    client = login(organiser)
    response = client.post(people_url("person_unlink", "spring-open", 1))
    assert response.status_code == 302
    assert spring.players.get(number=1).person is None
    response = client.post(people_url("person_unlink", "summer-cup", 4), follow=True)
    assert "is linked by their EMA number" in text(response)
    assert later.players.get(number=4).person is not None
    later.players.filter(number=4).update(person=None)
    response = client.post(people_url("people_link_by_ema"), follow=True)
    assert "1 player linked by EMA number." in text(response)
    assert later.players.get(number=4).person.ema_number == "07000001"


@pytest.mark.parametrize(
    ("persona", "status"),
    [("organiser", 200), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_only_the_organisers_see_the_people_page(months, personas, persona, status):
    response = personas[persona].get(people_url("tournament_people", "spring-open"))
    assert response.status_code == status
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("persona", ["referee", "other_referee", "anonymous"])
@pytest.mark.parametrize(
    ("name", "args", "data"),
    [
        ("people_link", (), {"link": ["1:1"]}),
        ("person_link_by_hand", (), {"player": "1", "person": "1"}),
        ("people_new", (), {"player": ["1"]}),
        ("people_link_by_ema", (), {}),
        ("person_unlink", (1,), {}),
    ],
)
def test_only_the_organisers_change_links(months, personas, persona, name, args, data):
    spring, _later = months
    before = list(spring.players.order_by("number").values_list("person_id", flat=True))
    response = personas[persona].post(reverse(name, args=["spring-open", *args]), data)
    assert response.status_code in (302, 403)
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == 403
    assert list(spring.players.order_by("number").values_list("person_id", flat=True)) == before


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
def test_a_persons_page_lists_their_tournaments_for_everyone(months, personas, persona):
    spring, later = months
    services.people_link(tournament=later, links=[(1, spring.players.get(number=1).person_id)])
    anna = spring.players.get(number=1).person
    response = personas[persona].get(reverse("person", args=[anna.pk]))
    assert response.status_code == 200
    shown = text(response)
    assert "Anna Berg" in shown
    results = html.elements(response.content, "table.person-results")[0]
    assert [row.attrs.get("id") for row in results.find("tr")][1:] == [
        "tournament-summer-cup",
        "tournament-spring-open",
    ]
    assert shown.count("1 of 4") == 2  # nobody has played: all four share rank 1
    assert "@" not in shown  # no e-mail of anyone


def test_an_unknown_person_is_not_found(db):
    assert login(None).get(reverse("person", args=[999])).status_code == 404


def test_the_people_page_in_chinese(months, organiser):
    client = login(organiser)
    client.cookies["django_language"] = "zh-hans"
    shown = text(client.get(people_url("tournament_people")))
    assert "Matches by name to confirm" not in shown
    assert "按姓名" in shown


def test_the_linked_players_sort_by_number_person_or_tournaments_played(months, organiser):
    spring, later = months
    anna = spring.players.get(number=1).person
    services.people_link(tournament=later, links=[(1, anna.pk)])
    services.person_create_for(tournament=later, numbers=[2, 3])
    client = login(organiser)

    def linked(**query) -> list[str]:
        page = client.get(people_url("tournament_people"), query)
        return [row[0] for row in html.table(page.content, "table.people-linked")[1:]]

    assert linked() == ["1 BERG Anna", "2 Wang Li", "3 Eve New", "4 Fay"]
    assert linked(sort="-player") == ["4 Fay", "3 Eve New", "2 Wang Li", "1 BERG Anna"]
    assert linked(sort="person") == ["1 BERG Anna", "3 Eve New", "4 Fay", "2 Wang Li"]
    # Anna played both tournaments; the others only this one.
    assert linked(sort="-tournaments")[0] == "1 BERG Anna"
