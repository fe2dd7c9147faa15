"""docs/players.md's worked example of the waiting list, played through the services: each
row of its table is what the sign-ups and players are after that step."""

from pathlib import Path

from tests.markdown_tables import table_rows
from tournament import services

DOC = Path(__file__).resolve().parent.parent / "docs" / "players.md"
NAMES = ["Ann", "Bo", "Cai", "Dee", "Eve", "Fay"]


def described(tournament) -> list[str]:
    """Each sign-up as the table writes it."""
    cells = []
    line = 0
    for found in tournament.sign_ups.order_by("position").select_related("player"):
        if found.status == "waiting":
            line += 1
            cells.append(f"waiting, {line}{'st' if line == 1 else 'nd'}")
        elif found.status == "accepted" and found.player.is_active:
            cells.append(f"player {found.player.number}")
        elif found.status == "accepted":
            cells.append(f"withdrawn player {found.player.number}")
        else:
            cells.append(found.status)
    return cells


def test_the_waiting_list_example(tournament):
    rows = table_rows(DOC, "| step | Ann | Bo | Cai | Dee | Eve | Fay |")
    services.tournament_update(
        tournament=tournament, sign_up_open=True, player_cap=4, sign_up_review=False
    )
    steps = {
        "six sign-ups": lambda: [
            services.sign_up(tournament=tournament, name=name, email=f"{name}@example.org")
            for name in NAMES
        ],
        "Bo withdraws with the link": lambda: services.sign_up_withdraw(
            sign_up=tournament.sign_ups.get(name="Bo")
        ),
        "the organiser withdraws player 3": lambda: services.player_withdraw(
            player=tournament.players.get(number=3)
        ),
    }
    assert [row[0] for row in rows] == list(steps)
    for step, *expected in rows:
        steps[step]()
        assert described(tournament) == expected, step
