"""player_save, player_withdraw / player_reinstate: the registration services (a list
imported: test_player_imports.py)."""

import pytest
from django.core.exceptions import ValidationError

from tests.conftest import make_players
from tests.services.errors import codes
from tournament import services
from tournament.models import PLAYER_FIELDS, Player, Seat


def registered(tournament) -> list[tuple]:
    """The tournament's players as stored, every field an organiser sets plus the withdrawal."""
    return list(tournament.players.values_list(*PLAYER_FIELDS, "withdrawn_at"))


# ---------------------------------------------------------------- player_save


def test_player_save_creates_a_player_in_the_tournament(tournament):
    player = services.player_save(
        tournament=tournament, number=7, name="Li Wei", name_zh="李伟", team="Lyon", country="FRA"
    )
    stored = Player.objects.get(pk=player.pk)
    assert stored.tournament == tournament
    assert (stored.number, stored.name, stored.name_zh, stored.team, stored.country) == (
        7,
        "Li Wei",
        "李伟",
        "Lyon",
        "FRA",
    )
    assert not stored.is_substitute
    assert stored.is_active


def test_player_save_updates_only_the_fields_given(tournament):
    player = services.player_save(tournament=tournament, number=3, name="Ann", team="Lyon")
    services.player_save(tournament=tournament, player=player, name="Anne", is_substitute=True)
    stored = Player.objects.get(pk=player.pk)
    assert (stored.number, stored.name, stored.team, stored.is_substitute) == (
        3,
        "Anne",
        "Lyon",
        True,
    )
    assert tournament.players.count() == 1


def test_player_save_renumbers_a_player_not_yet_drawn(tournament):
    player = services.player_save(tournament=tournament, number=3, name="Ann")
    services.player_save(tournament=tournament, player=player, number=30)
    assert list(tournament.players.values_list("number", flat=True)) == [30]


@pytest.mark.parametrize("existing", [False, True], ids=["create", "update"])
def test_player_save_refuses_an_unknown_field_and_saves_nothing(tournament, existing):
    player = services.player_save(tournament=tournament, number=1, name="Ann") if existing else None
    before = registered(tournament)
    with pytest.raises(TypeError, match="withdrawn_at"):
        # Not an organiser's field: withdrawals go through player_withdraw.
        services.player_save(
            tournament=tournament, player=player, number=2, name="Bo", withdrawn_at=None
        )
    assert registered(tournament) == before


def test_player_save_refuses_a_number_already_taken(tournament):
    services.player_save(tournament=tournament, number=4, name="Ann")
    with pytest.raises(ValidationError) as raised:
        services.player_save(tournament=tournament, number=4, name="Bo")
    assert codes(raised.value) == {"number_taken"}
    assert "Ann" in raised.value.message_dict["number"][0]
    assert list(tournament.players.values_list("number", "name")) == [(4, "Ann")]


def test_player_save_refuses_renumbering_onto_another_player(tournament):
    ann, _bo = make_players(tournament, 2)
    with pytest.raises(ValidationError) as raised:
        services.player_save(tournament=tournament, player=ann, number=2)
    assert codes(raised.value) == {"number_taken"}
    assert sorted(tournament.players.values_list("number", "name")) == [
        (1, "Player 1"),
        (2, "Player 2"),
    ]


def test_the_same_number_in_two_tournaments_is_two_players(tournament, other_tournament):
    services.player_save(tournament=tournament, number=1, name="Ann")
    services.player_save(tournament=other_tournament, number=1, name="Ann")
    assert Player.objects.filter(number=1).count() == 2


@pytest.mark.parametrize(
    ("fields", "field"),
    [({"number": 0, "name": "Ann"}, "number"), ({"number": 1, "name": ""}, "name")],
)
def test_player_save_refuses_invalid_values_beside_their_field(tournament, fields, field):
    with pytest.raises(ValidationError) as raised:
        services.player_save(tournament=tournament, **fields)
    assert field in raised.value.error_dict
    assert not tournament.players.exists()


@pytest.fixture
def seated(tournament):
    """Players 1..16 drawn by lot into session 1, and substitute 17 not seated."""
    make_players(tournament, 16)
    services.player_save(tournament=tournament, number=17, name="Sub", is_substitute=True)
    services.session_draw(tournament=tournament, number=1, seed=5)
    return tournament


def test_a_seated_players_number_is_fixed_after_a_draw(seated):
    player = seated.players.get(number=5)
    with pytest.raises(ValidationError) as raised:
        services.player_save(tournament=seated, player=player, number=40)
    assert codes(raised.value) == {"number_fixed_after_draw"}
    assert "number" in raised.value.error_dict
    assert seated.players.filter(number=5).exists()


def test_a_seated_player_can_still_be_renamed_with_the_same_number(seated):
    player = seated.players.get(number=5)
    services.player_save(tournament=seated, player=player, number=5, name="Eve")
    assert seated.players.get(number=5).name == "Eve"


def test_a_player_not_seated_by_any_draw_can_still_be_renumbered(seated):
    substitute = seated.players.get(number=17)
    services.player_save(tournament=seated, player=substitute, number=20)
    assert seated.players.filter(number=20, is_substitute=True).exists()


def test_a_drawn_player_whose_seat_went_to_a_substitute_keeps_their_number(seated):
    """The lot gave player 3 a seat; the seat now records "replaces 3". The published draw
    is sha256("seed:3"), so 3 must stay 3 even though player 3 holds no seat any more."""
    seat = Seat.objects.get(session__tournament=seated, player__number=3)
    drawn = seat.player
    services.player_withdraw(player=drawn)
    services.seat_replace(seat=seat, player=seated.players.get(number=17))
    with pytest.raises(ValidationError) as raised:
        services.player_save(tournament=seated, player=drawn, number=40)
    assert codes(raised.value) == {"number_fixed_after_draw"}
    assert Seat.objects.get(pk=seat.pk).replaces.number == 3


# ---------------------------------------------------------------- withdraw / reinstate


def test_withdraw_then_reinstate(tournament):
    (player,) = make_players(tournament, 1)
    services.player_withdraw(player=player)
    assert not Player.objects.get(pk=player.pk).is_active
    services.player_reinstate(player=player)
    assert Player.objects.get(pk=player.pk).is_active


def test_withdrawing_twice_keeps_the_first_withdrawal_time(tournament):
    (player,) = make_players(tournament, 1)
    first = services.player_withdraw(player=player).withdrawn_at
    again = services.player_withdraw(player=Player.objects.get(pk=player.pk))
    assert again.withdrawn_at == first
    assert Player.objects.get(pk=player.pk).withdrawn_at == first


def test_reinstating_an_active_player_changes_nothing(tournament):
    (player,) = make_players(tournament, 1)
    assert services.player_reinstate(player=player).withdrawn_at is None
    assert Player.objects.get(pk=player.pk).is_active


def test_a_withdrawal_keeps_the_seats_already_drawn(seated):
    player = seated.players.get(number=5)
    services.player_withdraw(player=player)
    assert player.seats.count() == 1


# ---------------------------------------------------------------- names, EMA number, country


def stored(player) -> tuple:
    player.refresh_from_db()
    return (player.name, player.first_name, player.last_name)


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ({"name": "Alice Martin"}, ("Alice Martin", "Alice", "Martin")),
        ({"name": "MARTIN, Alice"}, ("MARTIN, Alice", "Alice", "MARTIN")),
        ({"name": "欧阳娜娜"}, ("欧阳娜娜", "娜娜", "欧阳")),
        ({"name": "李伟"}, ("李伟", "伟", "李")),
        ({"first_name": "Wei", "last_name": "LI"}, ("Wei LI", "Wei", "LI")),
        ({"first_name": "娜娜", "last_name": "欧阳"}, ("欧阳娜娜", "娜娜", "欧阳")),
        ({"name": "Li Wei", "first_name": "Wei", "last_name": "Li"}, ("Li Wei", "Wei", "Li")),
    ],
)
def test_a_new_players_names_are_split_or_joined(tournament, given, kept):
    player = services.player_save(tournament=tournament, number=1, **given)
    assert stored(player) == kept


def test_renaming_a_player_splits_the_new_name_unless_names_were_set_apart(tournament):
    split = services.player_save(tournament=tournament, number=1, name="Jon Smith")
    services.player_save(tournament=tournament, player=split, name="John Smyth")
    assert stored(split) == ("John Smyth", "John", "Smyth")

    apart = services.player_save(
        tournament=tournament, number=2, name="Li Wei", first_name="Wei", last_name="Li"
    )
    services.player_save(tournament=tournament, player=apart, name="Li Wei (Paris)")
    assert stored(apart) == ("Li Wei (Paris)", "Wei", "Li")

    # The name shown stays as given when only the first or last name is corrected.
    services.player_save(tournament=tournament, player=split, first_name="Johnny")
    assert stored(split) == ("John Smyth", "Johnny", "Smyth")


def test_a_player_without_any_name_is_refused_beside_the_name(tournament):
    with pytest.raises(ValidationError) as raised:
        services.player_save(tournament=tournament, number=1, name="", first_name=" ")
    assert codes(raised.value) == {"name_missing"}
    assert "name" in raised.value.error_dict
    assert not tournament.players.exists()


@pytest.mark.parametrize(
    ("given", "kept"),
    [("04010005", "04010005"), (" 04010005 ", "04010005"), (12345678, "12345678"), ("", "")],
)
def test_ema_numbers_are_stored_with_eight_digits(tournament, given, kept):
    player = services.player_save(tournament=tournament, number=1, name="Ann", ema_number=given)
    player.refresh_from_db()
    assert player.ema_number == kept


@pytest.mark.parametrize(
    ("fields", "field", "code"),
    [
        ({"ema_number": "0401-0005"}, "ema_number", "ema_number_not_digits"),
        ({"ema_number": "123456789"}, "ema_number", "ema_number_too_long"),
        # Never padded: the leading zero a spreadsheet dropped is not guessed back.
        ({"ema_number": "4010005"}, "ema_number", "ema_number_too_short"),
        ({"ema_number": "0"}, "ema_number", "ema_number_zero"),
        ({"country": "Atlantis"}, "country", "country_not_a_code"),
        ({"country": "FR1"}, "country", "country_not_a_code"),
    ],
)
def test_bad_codes_are_refused_beside_their_field_and_nothing_is_saved(
    tournament, fields, field, code
):
    with pytest.raises(ValidationError) as raised:
        services.player_save(tournament=tournament, number=1, name="Ann", **fields)
    assert field in raised.value.error_dict
    assert codes(raised.value) == {code}
    assert not tournament.players.exists()


def test_an_ema_number_is_one_players_in_a_tournament(tournament, other_tournament):
    ann = services.player_save(tournament=tournament, number=1, name="Ann", ema_number="04010005")
    with pytest.raises(ValidationError) as raised:
        services.player_save(tournament=tournament, number=2, name="Bo", ema_number="04010005")
    assert codes(raised.value) == {"ema_number_taken"}
    assert "1 Ann" in raised.value.error_dict["ema_number"][0].message
    assert tournament.players.count() == 1
    # The same player may be registered in another tournament, and keep their own number.
    services.player_save(tournament=other_tournament, number=1, name="Ann", ema_number="04010005")
    services.player_save(tournament=tournament, player=ann, team="Lyon", ema_number="04010005")
    # Several guests (no number) are no clash.
    services.player_save(tournament=tournament, number=3, name="Cy")
    services.player_save(tournament=tournament, number=4, name="Di", ema_number="")
    assert tournament.players.filter(ema_number="").count() == 2


@pytest.mark.parametrize(
    ("given", "kept"),
    [("FRA", "FRA"), ("fra", "FRA"), ("France", "FRA"), ("DEU", "GER"), ("arg", "ARG"), ("", "")],
)
def test_countries_are_stored_as_codes(tournament, given, kept):
    player = services.player_save(tournament=tournament, number=1, name="Ann", country=given)
    player.refresh_from_db()
    assert player.country == kept


def test_giving_a_country_clears_the_one_written_before_codes(tournament):
    player = services.player_save(tournament=tournament, number=1, name="Ann")
    Player.objects.filter(pk=player.pk).update(country_unrecognised="Atlantis")
    player.refresh_from_db()
    services.player_save(tournament=tournament, player=player, team="Lyon")
    player.refresh_from_db()
    assert player.country_unrecognised == "Atlantis"  # the country was not given
    services.player_save(tournament=tournament, player=player, country="")
    player.refresh_from_db()
    assert (player.country, player.country_unrecognised) == ("", "")


def test_the_database_refuses_codes_the_service_would_not_store(tournament):
    from django.db import IntegrityError, transaction

    player = services.player_save(tournament=tournament, number=1, name="Ann")
    for fields in ({"country": "fra"}, {"country": "France"}, {"ema_number": "4010005"}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Player.objects.filter(pk=player.pk).update(**fields)
