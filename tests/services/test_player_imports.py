"""Player imports: the rows applied in bulk by the rules of a player saved alone."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction

from tests.conftest import make_tournament, make_user
from tests.services.errors import codes
from tournament import services
from tournament.models import PLAYER_FIELDS, Person, Player
from tournament.players.player_import import state_fingerprint, stored_players


def fingerprint(tournament, rows):
    return state_fingerprint(stored_players(tournament), rows)


@pytest.fixture
def ann_and_bo(tournament):
    services.player_save(tournament=tournament, number=1, name="Ann", team="Lyon")
    services.player_save(tournament=tournament, number=2, name="Bo")
    return tournament


ROWS = [
    {"number": 1, "name": "Ann", "team": "Lyon"},  # as stored
    {"number": 2, "name": "Bob"},  # renamed
    {"number": 3, "name": "Cleo", "country": "CHN", "ema_number": "04010005"},  # new
]


# ---------------------------------------------------------------- the same rules, in bulk


def one_by_one(tournament, rows):
    """The import as it was before it was made in bulk: each row saved by ``player_save``."""
    existing = {player.number: player for player in tournament.players.all()}
    for row in rows:
        player = existing.get(row["number"])
        if player is None:
            services.player_save(tournament=tournament, **row)
        elif any(getattr(player, key) != value for key, value in row.items()):
            services.player_save(tournament=tournament, player=player, **row)


def everyone(tournament):
    """The tournament's players, each with their person's values, and every person."""
    people = sorted(Person.objects.values_list("name", "name_zh", "country", "ema_number"))
    players = [
        (
            *(getattr(player, name) for name in (*PLAYER_FIELDS, "country_unrecognised")),
            player.person and (player.person.name, player.person.ema_number),
        )
        for player in tournament.players.select_related("person").order_by("number")
    ]
    return players, people


def outcome_of(tournament, write):
    """What ``write`` stores, or the codes of its refusal; undone afterwards."""
    with transaction.atomic():
        try:
            write()
        except ValidationError as error:
            result = ("refused", codes(error))
        else:
            result = everyone(tournament)
        transaction.set_rollback(True)
    return result


def elsewhere(tournament, *, ema_number, name="Elsewhere"):
    """A person of that EMA number, made by a player of another tournament."""
    other = make_tournament(creator=make_user(f"owner-{ema_number}"), slug=f"other-{ema_number}")
    return services.player_save(tournament=other, number=1, name=name, ema_number=ema_number).person


def by_hand(tournament, number, person=None):
    """Player ``number`` linked to ``person`` by the organiser (a new person without one)."""
    if person is None:
        services.person_create_for(tournament=tournament, numbers=[number])
    else:
        services.people_link(tournament=tournament, links=[(number, person.pk)])


def setup_new_numbers(t):
    elsewhere(t, ema_number="22000031", name="Dee Elsewhere")
    return [
        {"number": 3, "name": "Cleo", "ema_number": "04010005", "country": "FRA"},
        {"number": 4, "name": "Dee", "ema_number": "22000031"},  # a person already
        {"number": 5, "name": "Eve"},
    ]


def setup_numbers_given_later(t):
    by_hand(t, 1)  # a person without a number: takes the number
    services.player_save(tournament=t, number=3, name="Cy", ema_number="11111111")
    return [
        {"number": 1, "name": "Ann", "ema_number": "33333333"},
        {"number": 3, "name": "Cy Corrected", "ema_number": "11111112"},  # the number corrected
    ]


def setup_renamed(t):
    services.player_save(tournament=t, number=3, name="Cy", ema_number="11111111")
    elsewhere_person = elsewhere(t, ema_number="44444444", name="Di")
    services.player_save(tournament=t, number=4, name="Di", ema_number="44444444")
    assert elsewhere_person.players.count() == 2
    return [
        {"number": 3, "name": "Cyrus", "country": "GER"},  # their person alone: follows
        {"number": 4, "name": "Diana"},  # a person who plays elsewhere too: stays
    ]


def setup_number_passed_on(t):
    services.player_save(
        tournament=t, number=1, player=t.players.get(number=1), ema_number="55555555"
    )
    return [
        {"number": 1, "name": "Ann", "ema_number": "66666666"},
        {"number": 2, "name": "Bo", "ema_number": "55555555"},  # Ann's until the row above
    ]


def setup_number_passed_back(t):
    services.player_save(
        tournament=t, number=1, player=t.players.get(number=1), ema_number="55555555"
    )
    return [
        {"number": 2, "name": "Bo", "ema_number": "55555555"},  # still Ann's: refused
        {"number": 1, "name": "Ann", "ema_number": "66666666"},
    ]


def setup_person_playing_as_another(t):
    person = elsewhere(t, ema_number="77777777", name="Ray")
    services.player_save(tournament=t, number=5, name="Ray")
    by_hand(t, 5, person)
    return [{"number": 6, "name": "Ray Again", "ema_number": "77777777"}]


def setup_two_rows_one_number(t):
    return [
        {"number": 3, "name": "Cy", "ema_number": "88888888"},
        {"number": 4, "name": "Di", "ema_number": "88888888"},
    ]


def setup_bad_row(t):
    return [{"number": 3, "name": "Cy"}, {"number": 4, "name": "", "first_name": ""}]


def setup_country_given(t):
    Player.objects.filter(tournament=t, number=2).update(country_unrecognised="Atlantis")
    return [{"number": 2, "name": "Bo", "country": "ATL"}, {"number": 1, "name": "Ann B"}]


@pytest.mark.parametrize(
    "setup",
    [
        setup_new_numbers,
        setup_numbers_given_later,
        setup_renamed,
        setup_number_passed_on,
        setup_number_passed_back,
        setup_person_playing_as_another,
        setup_two_rows_one_number,
        setup_bad_row,
        setup_country_given,
    ],
)
def test_the_bulk_import_stores_what_saving_each_row_alone_stores(ann_and_bo, setup):
    rows = setup(ann_and_bo)

    expected = outcome_of(ann_and_bo, lambda: one_by_one(ann_and_bo, rows))
    stored = outcome_of(
        ann_and_bo,
        lambda: services.players_import(
            tournament=ann_and_bo, rows=rows, fingerprint=fingerprint(ann_and_bo, rows)
        ),
    )

    assert stored == expected


def test_each_player_and_person_written_keeps_its_history_naming_who(ann_and_bo, organiser):
    from tournament.history.audit import acting

    elsewhere(ann_and_bo, ema_number="22000031")
    rows = [{"number": 2, "name": "Bob", "ema_number": "22000031"}, *ROWS[2:]]
    with acting(user=organiser):
        services.players_import(
            tournament=ann_and_bo, rows=rows, fingerprint=fingerprint(ann_and_bo, rows)
        )
    bob = Player.history.filter(number=2, history_type="~").latest("history_id")
    cleo = Player.history.get(number=3)
    made = Person.history.get(ema_number="04010005")
    assert (bob.name, bob.ema_number, bob.history_user) == ("Bob", "22000031", organiser)
    assert bob.person_id == Person.objects.get(ema_number="22000031").pk
    assert (cleo.history_type, cleo.person_id, cleo.history_user) == (
        "+",
        made.id,
        organiser,
    )
    assert (made.history_type, made.name, made.history_user) == ("+", "Cleo", organiser)


def test_the_import_writes_many_rows_a_statement(ann_and_bo):
    from django.test.utils import CaptureQueriesContext

    def queries(count, start):
        rows = [
            {"number": n, "name": f"P{n}", "ema_number": f"{n:08d}"}
            for n in range(start, start + count)
        ]
        with CaptureQueriesContext(connection) as captured:
            services.players_import(
                tournament=ann_and_bo, rows=rows, fingerprint=fingerprint(ann_and_bo, rows)
            )
        return len(captured)

    # Players and people inserted many to a statement, with their history (up to 500; on
    # SQLite, 999 values a statement), updated in one statement sent with each row's values.
    assert queries(400, 100) < 40
