"""A player's page's sessions, drawn and planned (``templatetags.seating_rows``), written in
Python: links, badges, the seat replaced and the plan's seats to be filled, names escaped."""

from tournament.selectors.seating import ListedPlayer, Numbered, PlannedSeat, PlayerSeat
from tournament.templatetags.seating_rows import player_planned_rows, player_schedule_rows

BO = ListedPlayer(14, "Bo <Li>", is_substitute=True)
ANN = ListedPlayer(3, "Ann", withdrawn=True)


def test_a_drawn_session_links_its_seating_and_the_opponents_with_their_badges():
    seat = PlayerSeat(
        Numbered(2),
        Numbered(7),
        1,
        [("P1", BO), ("P3", ANN)],
        replaces=ListedPlayer(9, "Cy & Co"),
    )
    html = player_schedule_rows([seat], "open")
    assert '<tr id="session-2">' in html
    assert '<a href="/t/open/seating/2/">2</a>' in html
    assert "<strong>7</strong>" in html
    assert 'P2 (South)<br><small class="muted replaces">replaces 9 Cy &amp; Co</small>' in html
    assert (
        'P1: <a href="/t/open/players/14/">14 Bo &lt;Li&gt;</a> <span class="badge">substitute'
        '</span> · P3: <a href="/t/open/players/3/">3 Ann</a> <span class="badge warn'
        ' withdrawn">withdrawn</span>'
    ) in html


def test_a_planned_session_shows_a_withdrawn_opponents_seat_as_to_be_filled():
    planned = PlannedSeat(session=5, table=12, seat=3, opponents=[("P1", BO), ("P2", None)])
    html = player_planned_rows([planned], "open")
    assert '<tr id="planned-5">' in html and "<td>P4</td>" in html
    # The plan's opponents carry no badges; a seat left by a withdrawal is to be filled.
    assert 'P1: <a href="/t/open/players/14/">14 Bo &lt;Li&gt;</a> · P2: <span' in html
    assert '<span class="muted to-be-filled">seat to be filled</span>' in html
    assert "badge" not in html
