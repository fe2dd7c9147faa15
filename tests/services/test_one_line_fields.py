"""The services refuse a name (or any one-line text) with a line break or a control
character, called directly as a command or a test calls them, and store nothing; a reason of
several lines keeps its lines."""

import pytest
from django.core.exceptions import ValidationError

from tests.services.errors import codes
from tournament import services
from tournament.models import OutgoingEmail, Player, SignUp

INJECTED = "x\r\nBcc: evil@example.org"


def test_a_sign_up_named_with_a_line_break_is_refused_and_nobody_is_mailed(tournament):
    services.tournament_update(tournament=tournament, sign_up_open=True)
    with pytest.raises(ValidationError) as refused:
        services.sign_up(tournament=tournament, name=INJECTED, email="ann@example.org")
    assert codes(refused.value) == {"not_one_line"}
    assert "name" in refused.value.message_dict
    assert not SignUp.objects.exists()
    assert not OutgoingEmail.objects.exists()


@pytest.mark.parametrize("field", ["name", "first_name", "last_name", "name_zh", "team"])
def test_a_players_names_and_team_are_one_line(tournament, field):
    fields = {"name": "Ann", field: "Ann\u202eevil"}
    with pytest.raises(ValidationError) as refused:
        services.player_save(tournament=tournament, number=1, **fields)
    # (A name given alone is split into first and last names, refused with it.)
    assert field in refused.value.message_dict
    assert not Player.objects.exists()


def test_a_tournament_and_a_series_are_named_on_one_line(organiser, tournament):
    with pytest.raises(ValidationError) as refused:
        services.tournament_update(tournament=tournament, name="Spring\nOpen")
    assert list(refused.value.message_dict) == ["name"]
    with pytest.raises(ValidationError) as refused:
        services.series_save(
            user=organiser, tournaments=[tournament], name="Club\x1bseason", slug="season"
        )
    assert list(refused.value.message_dict) == ["name"]


def test_a_penalty_reason_is_one_line(session_in_play):
    table = session_in_play.tables.get(number=1)
    penalty = services.PenaltyEntry(
        offender=1, kind="to_each_other", points=10, reason="False win\nand more"
    )
    with pytest.raises(ValidationError) as refused:
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="draw", penalties=[penalty])
        )
    assert codes(refused.value) == {"penalty_reason_not_one_line"}
    assert not table.hands.exists()


def test_a_reopening_reason_keeps_its_lines_but_no_control_character(session_in_play, organiser):
    table = session_in_play.tables.get(number=1)
    services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    with pytest.raises(ValidationError) as refused:
        services.table_reopen(table=table, user=organiser, reason="Hand 2\x1b[31m")
    assert list(refused.value.message_dict) == ["reason"]
    table.refresh_from_db()
    assert table.confirmed_at is not None
    services.table_reopen(table=table, user=organiser, reason="Hand 2 was a win.\nP3 saw it.")
    assert table.reopenings.get().reason == "Hand 2 was a win.\nP3 saw it."


def test_initials_at_confirmation_are_one_line(session_in_play):
    table = session_in_play.tables.get(number=1)
    with pytest.raises(ValidationError) as refused:
        services.table_confirm(
            table=table,
            user=None,
            record_missing_as_not_played=True,
            initials=["A\nB", "C", "D", "E"],
        )
    assert codes(refused.value) == {"not_one_line"}
