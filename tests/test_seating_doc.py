"""The messages docs/seating.md quotes about withdrawals and substitutes are the code's.

Each quoted message or table row is read from the document, and the same situation is built
through the services: what the code says must be the quoted text, word for word.
"""

import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from tests.conftest import make_players
from tests.markdown_tables import code_text, table_rows
from tournament import seating, services
from tournament.models import Seat
from tournament.selectors.withdrawals import registration_summary, substitute_limit_warning
from tournament.tables.seating import replaced_note

DOC = Path(__file__).resolve().parents[1] / "docs" / "seating.md"
TEXT = DOC.read_text(encoding="utf-8")
SHORTFALL_HEADER = (
    "| active players, not counting substitutes | active substitutes | the pages say |"
)
NOTE_HEADER = "| method | the substitute's seat says |"


def quoted(start: str) -> str:
    """The one block quote of the document that starts with ``start``."""
    (line,) = [line for line in TEXT.splitlines() if line.startswith(f"> {start}")]
    return line[2:]


def test_the_documents_quotes_are_there():
    assert len(table_rows(DOC, SHORTFALL_HEADER)) == 4
    assert len(table_rows(DOC, NOTE_HEADER)) == 3
    assert quoted("Withdrawn players") and quoted("Seating ")


@pytest.mark.parametrize("row", table_rows(DOC, SHORTFALL_HEADER), ids=lambda row: row[0])
def test_the_refused_draws_message_is_the_documents(tournament, row):
    regular, substitutes, message = int(row[0]), int(row[1]), row[2]
    make_players(tournament, regular)
    make_players(tournament, substitutes, start=100, is_substitute=True)
    with pytest.raises(ValidationError) as refused:
        services.session_draw(tournament=tournament, number=1, seed=1)
    assert refused.value.messages == [message]
    assert registration_summary(tournament).draw_problem == message


def test_the_refused_opening_is_the_documents(tournament):
    message = quoted("Withdrawn players")
    session_number, seed = 1, 20261130
    assert f"session {session_number}:" in message and str(seed) in TEXT
    make_players(tournament, 16)
    session = services.session_draw(tournament=tournament, number=session_number, seed=seed)
    for number in (3, 9):
        services.player_withdraw(player=tournament.players.get(number=number))
    with pytest.raises(ValidationError) as refused:
        services.session_open(session=session)
    assert refused.value.messages == [message]


@pytest.mark.parametrize("row", table_rows(DOC, NOTE_HEADER), ids=lambda row: row[0])
def test_a_substitutes_seat_says_what_the_document_says(row):
    methods = [code_text(method) for method in row[0].split(", ")]
    for method in methods:
        assert replaced_note(method, 3, "Player 3") == row[1]


def test_every_method_has_its_words_in_the_document():
    from tournament.models import SEATING_METHOD_CHOICES

    documented = {
        code_text(method) for row in table_rows(DOC, NOTE_HEADER) for method in row[0].split(", ")
    }
    assert documented == {key for key, _label in SEATING_METHOD_CHOICES}


def test_the_substitute_limit_warning_is_the_documents(tournament):
    message = quoted("Seating ")
    make_players(tournament, 16)
    for number in (17, 18, 19, 20):
        services.player_save(
            tournament=tournament, number=number, name=f"Sub {number}", is_substitute=True
        )
    session = services.session_draw(tournament=tournament, number=1, seed=5)
    for drawn, substitute in ((1, 17), (2, 18), (3, 19)):
        seat = Seat.objects.get(session=session, player__number=drawn)
        services.seat_replace(seat=seat, player=tournament.players.get(number=substitute))
    assert tournament.substitute_limit == 3
    twentieth = tournament.players.get(number=20)
    assert substitute_limit_warning(tournament, [twentieth]) == message


def test_the_cores_refusal_quoted_in_the_errors_table_is_the_cores():
    (message,) = re.findall(r'e\.g\. "(\d+ players are registered;[^"]+)"', TEXT)
    players = int(message.split()[0])
    with pytest.raises(seating.DrawError) as refused:
        seating.draw_by_lot(list(range(1, players + 1)), 1)
    assert refused.value.message == message
