"""tables_assign and referees_copy_from_previous: who referees which table, session by session."""

import pytest
from django.core.exceptions import ValidationError

from tests.conftest import make_players, make_user, referees_by_table
from tests.services.errors import codes
from tournament import services


@pytest.fixture
def first(tournament):
    """Session 1 drawn for 16 players (4 tables), nobody assigned yet."""
    make_players(tournament, 16)
    return services.session_draw(tournament=tournament, number=1, seed=20261130)


# ---------------------------------------------------------------- reading "1-6"


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("1-6", [1, 2, 3, 4, 5, 6]),
        ("1-3,7,9", [1, 2, 3, 7, 9]),
        ("1–3", [1, 2, 3]),  # an en dash, as typed on many keyboards
        (" 9, 1 - 2 ", [1, 2, 9]),
        ("4 2 3", [2, 3, 4]),
        ("2-3, 3, 1-2", [1, 2, 3]),
        ("1，2、3", [1, 2, 3]),  # Chinese punctuation
        ("5", [5]),
    ],
)
def test_table_numbers_are_read_as_an_organiser_writes_them(text, numbers):
    assert services.parse_table_numbers(text) == numbers


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Give table numbers, such as 1-6"),
        (" , ", "Give table numbers, such as 1-6"),
        ("abc", "“abc” is neither a table number nor a range such as 1-6."),
        ("1-3,x", "“x” is neither"),
        ("1-", "“1-” is neither"),
        ("1.5", "“1.5” is neither"),
        ("6-1", "“6-1” runs backwards: write 1-6."),
        ("0-3", "Table numbers go from 1 to 999."),
        ("1-99999999999", "Table numbers go from 1 to 999."),
        ("١", "“١” is neither"),  # digits other than 0-9 are not table numbers
    ],
)
def test_text_that_is_not_table_numbers_is_refused_with_what_is_wrong(text, message):
    with pytest.raises(ValidationError) as raised:
        services.parse_table_numbers(text)
    assert codes(raised.value) == {"bad_tables"}
    assert message in raised.value.messages[0]


# ---------------------------------------------------------------- assigning


def test_a_run_of_tables_goes_to_one_referee(first, referee):
    assigned = services.tables_assign(session=first, referee=referee, tables=[1, 2, 3])
    assert [(t.number, t.referee) for t in assigned] == [(1, referee), (2, referee), (3, referee)]
    assert referees_by_table(first) == {1: "referee", 2: "referee", 3: "referee", 4: None}


def test_an_organiser_may_referee_tables(first, organiser):
    services.tables_assign(session=first, referee=organiser, tables=[4])
    assert referees_by_table(first)[4] == "organiser"


def test_assigning_again_moves_the_tables_to_the_new_referee(first, referee, organiser):
    services.tables_assign(session=first, referee=referee, tables=[1, 2, 3, 4])
    services.tables_assign(session=first, referee=organiser, tables=[3, 4])
    assert referees_by_table(first) == {1: "referee", 2: "referee", 3: "organiser", 4: "organiser"}


def test_nobody_clears_the_tables(first, referee):
    services.tables_assign(session=first, referee=referee, tables=[1, 2, 3, 4])
    services.tables_assign(session=first, referee=None, tables=[2, 3])
    assert referees_by_table(first) == {1: "referee", 2: None, 3: None, 4: "referee"}


@pytest.mark.parametrize("account", ["other_referee", "stranger"])
def test_an_account_that_neither_referees_nor_organises_is_refused(
    first, referee, other_referee, account
):
    services.tables_assign(session=first, referee=referee, tables=[1])
    user = other_referee if account == "other_referee" else make_user("stranger")
    with pytest.raises(ValidationError) as raised:
        services.tables_assign(session=first, referee=user, tables=[1, 2])
    assert set(raised.value.error_dict) == {"referee"}
    assert codes(raised.value) == {"not_a_referee"}
    assert raised.value.messages == [
        f"{user.username} neither referees nor organises this tournament."
    ]
    assert referees_by_table(first) == {1: "referee", 2: None, 3: None, 4: None}


def test_tables_the_session_does_not_have_are_named_and_nothing_changes(first, referee):
    with pytest.raises(ValidationError) as raised:
        services.tables_assign(session=first, referee=referee, tables=[3, 9, 5, 4])
    assert set(raised.value.error_dict) == {"tables"}
    assert codes(raised.value) == {"unknown_tables"}
    assert raised.value.messages == ["Session 1 has no tables 5, 9."]
    assert referees_by_table(first) == {1: None, 2: None, 3: None, 4: None}


def test_one_missing_table_is_named_alone(first, referee):
    with pytest.raises(ValidationError) as raised:
        services.tables_assign(session=first, referee=referee, tables=range(1, 6))
    assert raised.value.messages == ["Session 1 has no table 5."]


def test_no_table_at_all_is_refused(first, referee):
    with pytest.raises(ValidationError) as raised:
        services.tables_assign(session=first, referee=referee, tables=[])
    assert set(raised.value.error_dict) == {"tables"}
    assert codes(raised.value) == {"no_tables"}


def test_a_confirmed_table_can_still_change_referee(first, referee, organiser):
    services.session_open(session=first)
    table = first.tables.get(number=1)
    services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    services.tables_assign(session=first, referee=referee, tables=[1])
    table.refresh_from_db()
    assert table.is_confirmed
    assert table.referee == referee


# ---------------------------------------------------------------- copied at the draw


def test_the_first_session_is_drawn_with_nobody_assigned(first):
    assert referees_by_table(first) == {1: None, 2: None, 3: None, 4: None}


def test_a_drawn_session_keeps_the_referees_of_the_session_before(
    first, tournament, referee, organiser
):
    services.tables_assign(session=first, referee=referee, tables=[1, 2])
    services.tables_assign(session=first, referee=organiser, tables=[3])
    second = services.session_draw(tournament=tournament, number=2, seed=7)
    assert referees_by_table(second) == {1: "referee", 2: "referee", 3: "organiser", 4: None}


def test_the_copy_skips_a_referee_removed_from_the_tournament(first, tournament, referee):
    colleague = make_user("colleague")
    tournament.referees.add(colleague)
    services.tables_assign(session=first, referee=referee, tables=[1, 2])
    services.tables_assign(session=first, referee=colleague, tables=[3, 4])
    services.tournament_update(tournament=tournament, referees=[referee])
    second = services.session_draw(tournament=tournament, number=2, seed=7)
    assert referees_by_table(second) == {1: "referee", 2: "referee", 3: None, 4: None}


def test_the_copy_comes_from_the_session_numbered_just_before(first, tournament, referee):
    services.tables_assign(session=first, referee=referee, tables=[1, 2, 3, 4])
    third = services.session_draw(tournament=tournament, number=3, seed=7)
    assert referees_by_table(third) == {1: None, 2: None, 3: None, 4: None}


def test_the_copy_leaves_tables_that_already_have_a_referee(first, tournament, referee, organiser):
    services.tables_assign(session=first, referee=referee, tables=[1, 2, 3, 4])
    second = services.session_draw(tournament=tournament, number=2, seed=7)
    services.tables_assign(session=second, referee=organiser, tables=[1])
    services.tables_assign(session=second, referee=None, tables=[4])
    copied = services.referees_copy_from_previous(session=second)
    assert [table.number for table in copied] == [4]
    assert referees_by_table(second) == {1: "organiser", 2: "referee", 3: "referee", 4: "referee"}


def test_a_redrawn_session_takes_the_referees_again(first, tournament, referee):
    services.tables_assign(session=first, referee=referee, tables=[1, 2, 3, 4])
    second = services.session_draw(tournament=tournament, number=2, seed=7)
    services.session_cancel_draw(session=second)
    again = services.session_draw(tournament=tournament, number=2, seed=8)
    assert set(referees_by_table(again).values()) == {"referee"}
