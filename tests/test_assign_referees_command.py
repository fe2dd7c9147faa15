"""``assign_referees``: an organiser's script giving a session's tables to a referee."""

import io

import pytest
from django.core.management import CommandError, call_command

from tests.conftest import make_players, referees_by_table
from tournament import services


def run(*args) -> list[str]:
    out = io.StringIO()
    call_command("assign_referees", *args, stdout=out)
    return out.getvalue().splitlines()


@pytest.fixture
def drawn(tournament):
    """Session 1 of spring-open drawn for 32 players: 8 tables, nobody assigned."""
    make_players(tournament, 32)
    return services.session_draw(tournament=tournament, number=1, seed=20261130)


def test_a_run_of_tables_goes_to_the_referee_and_the_command_says_so(drawn, referee):
    lines = run("spring-open", "1", "referee", "--tables", "1-6")
    assert lines == ["Session 1: tables 1, 2, 3, 4, 5, 6 -> referee"]
    assert referees_by_table(drawn) == {n: "referee" if n <= 6 else None for n in range(1, 9)}


def test_scattered_tables_may_be_listed(drawn, organiser):
    assert run("spring-open", "1", "organiser", "--tables", "1-2,7") == [
        "Session 1: tables 1, 2, 7 -> organiser"
    ]
    assert [n for n, name in referees_by_table(drawn).items() if name] == [1, 2, 7]


@pytest.mark.parametrize("clearing", [["-"], ["--clear"]])
def test_a_dash_or_clear_leaves_the_tables_to_nobody(drawn, referee, clearing):
    services.tables_assign(session=drawn, referee=referee, tables=range(1, 9))
    assert run("spring-open", "1", *clearing, "--tables", "7-8") == [
        "Session 1: tables 7, 8 -> nobody"
    ]
    assert referees_by_table(drawn) == {n: "referee" if n <= 6 else None for n in range(1, 9)}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["autumn", "1", "referee"], "No session 1 in a tournament with slug 'autumn'."),
        (["spring-open", "2", "referee"], "No session 2 in a tournament with slug 'spring-open'."),
        (["spring-open", "1", "nobody-here"], "No account with username 'nobody-here'."),
        (["spring-open", "1", "other-referee"], "other-referee neither referees nor organises"),
        (["spring-open", "1", "referee", "--clear"], "Give a username or --clear, not both."),
        (["spring-open", "1"], "Give the referee's username, or '-' or --clear."),
    ],
)
def test_refusals_are_command_errors_and_change_nothing(drawn, other_referee, args, message):
    with pytest.raises(CommandError, match=message):
        run(*args, "--tables", "1-2")
    assert set(referees_by_table(drawn).values()) == {None}


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ("7-12", "Session 1 has no tables 9, 10, 11, 12."),
        ("six", "“six” is neither a table number nor a range such as 1-6."),
        ("3-1", "“3-1” runs backwards: write 1-3."),
    ],
)
def test_bad_tables_give_the_services_message(drawn, referee, tables, message):
    with pytest.raises(CommandError) as raised:
        run("spring-open", "1", "referee", "--tables", tables)
    assert str(raised.value) == message
    assert set(referees_by_table(drawn).values()) == {None}


def test_the_tables_option_is_required(drawn, referee):
    with pytest.raises(CommandError, match="--tables"):
        run("spring-open", "1", "referee")
