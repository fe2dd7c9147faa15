"""People across tournaments: players linked by EMA number at once, by hand otherwise, the
matches by name suggested, and every refusal naming what is wrong."""

import pytest
from django.core.exceptions import ValidationError

from tests.conftest import make_tournament, make_user
from tournament import services
from tournament.models import Person, Player, TournamentVersion
from tournament.players.names import identity_key
from tournament.selectors.people import (
    linked_players,
    person_results,
    person_search,
    person_suggestions,
)


@pytest.fixture
def two(db):
    owner = make_user("owner")
    return make_tournament(creator=owner, slug="spring"), make_tournament(
        creator=owner, slug="autumn"
    )


def add(tournament, number, name, **fields):
    return services.player_save(tournament=tournament, number=number, name=name, **fields)


def test_an_ema_number_links_the_player_at_once_and_the_next_tournament_to_the_same_person(two):
    spring, autumn = two
    first = add(spring, 1, "Anna Berg", ema_number="04010005", country="swe")
    person = first.person
    assert (person.name, person.ema_number, person.country) == ("Anna Berg", "04010005", "SWE")
    second = add(autumn, 7, "Anna Berg-Lund", ema_number="04010005")
    assert second.person == person
    assert Person.objects.count() == 1


def test_a_number_given_later_moves_a_person_linked_by_hand_or_gives_it_them(two):
    spring, autumn = two
    anna = add(spring, 1, "Anna")
    services.person_create_for(tournament=spring, numbers=[1])
    anna.refresh_from_db()
    hand_made = anna.person
    assert hand_made.ema_number == ""
    # The person linked by hand takes the number nobody had.
    anna = add(spring, 1, "Anna", player=anna, ema_number="11111111")
    hand_made.refresh_from_db()
    assert (anna.person, hand_made.ema_number) == (hand_made, "11111111")
    # In another tournament, a hand-made person with no number gives way to the number's.
    bo = add(autumn, 1, "Anna")
    services.person_create_for(tournament=autumn, numbers=[1])
    bo = add(autumn, 1, "Anna", player=Player.objects.get(pk=bo.pk), ema_number="11111111")
    assert bo.person == hand_made


def test_matches_by_name_are_suggested_whatever_the_case_accents_and_word_order(two):
    spring, autumn = two
    add(spring, 1, "Wáng Li", name_zh="王力")
    add(spring, 2, "Chris Doe")
    services.person_create_for(tournament=spring, numbers=[1, 2])
    add(autumn, 1, "LI wang")
    add(autumn, 2, "Someone", name_zh="王力")
    add(autumn, 3, "Nobody Known")
    suggestions, others = person_suggestions(autumn)
    assert [(s.player.number, [p.name for p in s.people]) for s in suggestions] == [
        (1, ["Wáng Li"]),
        (2, ["Wáng Li"]),
    ]
    assert [p.number for p in others] == [3]
    assert identity_key("Wáng  Li") == identity_key("li WANG") == "li wang"
    assert identity_key("王 力") == identity_key("王力")


def test_confirmed_links_are_written_together_and_raise_the_version(two):
    spring, autumn = two
    add(spring, 1, "Anna")
    add(spring, 2, "Bo")
    services.person_create_for(tournament=spring, numbers=[1, 2])
    anna, bo = (p.person for p in spring.players.order_by("number"))
    add(autumn, 4, "Anna")
    add(autumn, 5, "Bo")
    before = TournamentVersion.objects.get(tournament=autumn).number
    assert services.people_link(tournament=autumn, links=[(4, anna.pk), (5, bo.pk)]) == 2
    assert [p.person for p in linked_players(autumn)] == [anna, bo]
    assert TournamentVersion.objects.get(tournament=autumn).number > before
    # Swapped in one go (two players trading people) is allowed.
    services.people_link(tournament=autumn, links=[(4, bo.pk), (5, anna.pk)])
    assert [p.person for p in linked_players(autumn)] == [bo, anna]


@pytest.mark.parametrize(
    ("links", "code"),
    [
        ([(4, "anna"), (5, "anna")], "person_chosen_twice"),
        ([(4, "bo")], "person_already_playing"),
        ([(6, "anna")], "person_by_ema_number"),
        ([(99, "anna")], "link_gone"),
        ([], "nothing_to_link"),
    ],
)
def test_a_link_that_cannot_hold_is_refused_and_nothing_is_written(two, links, code):
    spring, autumn = two
    add(spring, 1, "Anna")
    add(spring, 2, "Bo")
    services.person_create_for(tournament=spring, numbers=[1, 2])
    people = {
        "anna": spring.players.get(number=1).person,
        "bo": spring.players.get(number=2).person,
    }
    add(autumn, 3, "Bo")
    services.people_link(tournament=autumn, links=[(3, people["bo"].pk)])
    add(autumn, 4, "Anna")
    add(autumn, 5, "Ann")
    add(autumn, 6, "Anna", ema_number="22222222")
    before = list(autumn.players.order_by("number").values_list("person_id", flat=True))
    with pytest.raises(ValidationError) as refused:
        services.people_link(
            tournament=autumn, links=[(number, people[key].pk) for number, key in links]
        )
    assert refused.value.error_list[0].code == code
    after = list(autumn.players.order_by("number").values_list("person_id", flat=True))
    assert after == before


def test_unlink_by_hand_only(two):
    spring, _autumn = two
    anna = add(spring, 1, "Anna")
    bo = add(spring, 2, "Bo", ema_number="33333333")
    services.person_create_for(tournament=spring, numbers=[1])
    anna.refresh_from_db()
    assert services.person_unlink(player=anna).person is None
    with pytest.raises(ValidationError) as refused:
        services.person_unlink(player=bo)
    assert refused.value.error_list[0].code == "person_by_ema_number"


def test_link_by_ema_numbers_links_players_saved_without_the_service(two):
    spring, _autumn = two
    add(spring, 1, "Anna", ema_number="44444444")
    Player.objects.filter(tournament=spring).update(person=None)
    assert services.people_link_by_ema_numbers(tournament=spring) == 1
    assert spring.players.get(number=1).person.ema_number == "44444444"


def test_search_finds_by_name_pinyin_and_ema_number_but_not_people_playing_here(two):
    spring, _autumn = two
    add(spring, 1, "Li Wang", name_zh="王力", ema_number="55555555")
    add(spring, 2, "Chris Doe")
    services.person_create_for(tournament=spring, numbers=[2])
    assert [p.name for p in person_search("wangli")] == ["Li Wang"]
    assert [p.name for p in person_search("5555")] == ["Li Wang"]
    assert [p.name for p in person_search("doe")] == ["Chris Doe"]
    assert person_search("doe", exclude_tournament=spring) == []
    assert person_search("") == []


def test_a_persons_results_list_each_tournament_with_their_standing(two):
    spring, autumn = two
    add(spring, 1, "Anna", ema_number="66666666")
    add(autumn, 2, "Anna", ema_number="66666666")
    person = Person.objects.get()
    results = person_results(person)
    assert {(r.tournament.slug, r.player.number) for r in results} == {
        ("spring", 1),
        ("autumn", 2),
    }
    assert all(r.standing is not None and r.standing.player.pk == r.player.pk for r in results)


def test_a_mistyped_number_or_name_corrected_corrects_the_person_of_that_player_alone(two):
    spring, autumn = two
    bo = add(spring, 1, "Bo Typo", ema_number="11111111")
    person = bo.person
    bo = add(spring, 1, "Bo Real", player=bo, ema_number="22222222")
    person.refresh_from_db()
    assert (bo.person, person.name, person.ema_number) == (person, "Bo Real", "22222222")
    # The real holder of the first number gets a person of their own.
    cy = add(autumn, 1, "Cy Real", ema_number="11111111")
    assert cy.person != person and cy.person.name == "Cy Real"
    # A person who is several players keeps their name when one of them is renamed.
    add(autumn, 2, "Bo Real", ema_number="22222222")
    add(spring, 1, "Bo Renamed", player=spring.players.get(number=1))
    person.refresh_from_db()
    assert person.name == "Bo Real"


def test_a_player_ticked_as_two_people_is_refused(two):
    spring, autumn = two
    add(spring, 1, "Anna Berg")
    add(spring, 2, "Anna Berg")
    services.person_create_for(tournament=spring, numbers=[1, 2])
    first, second = (p.person for p in spring.players.order_by("number"))
    add(autumn, 1, "Anna Berg")
    with pytest.raises(ValidationError) as refused:
        services.people_link(tournament=autumn, links=[(1, first.pk), (1, second.pk)])
    assert refused.value.error_list[0].code == "player_chosen_twice"
    assert autumn.players.get(number=1).person is None
