"""What the rehearsal (bench/rehearsal.py) plays: the event, its players and accounts, and each
table's sixteen hands, the same every run."""

from __future__ import annotations

import dataclasses
import random

POSTGRES = "postgres://postgres@127.0.0.1:5432/test"
WIDTH, HEIGHT = 768, 1024
NAME, SLUG = "Harbour Rehearsal", "harbour-rehearsal"
SESSIONS = 3
ORGANISER = ("organiser", "rehearsal-organiser-2026")
# The tables the referees keep at every session; the others are entered by their tablets.
REFEREES = {3: ("referee-ana", "rehearsal-ana-2026"), 4: ("referee-ben", "rehearsal-ben-2026")}
TABLET_TABLES = (1, 2)
PLAYERS = [
    (1, "Zhang Wei", "张伟", "Harbour", "CHN"),
    (2, "Anna Berg", "", "Harbour", "SWE"),
    (3, "Li Na", "李娜", "Lantern", "CHN"),
    (4, "Marc Roux", "", "Lantern", "FRA"),
    (5, "Wang Fang", "王芳", "Bamboo", "CHN"),
    (6, "Jonas Falk", "", "Bamboo", "GER"),
    (7, "Liu Yang", "刘洋", "Harbour", "CHN"),
    (8, "Claire Dupont", "", "Lantern", "FRA"),
    (9, "Chen Jing", "陈静", "Bamboo", "CHN"),
    (10, "Lena Voss", "", "Harbour", "GER"),
    (11, "Yang Lei", "杨磊", "Lantern", "CHN"),
    (12, "Hugo Blanc", "", "Bamboo", "FRA"),
    (13, "Zhao Min", "赵敏", "Harbour", "CHN"),
    (14, "Tim Kraus", "", "Lantern", "GER"),
    (15, "Huang Yong", "黄勇", "Bamboo", "CHN"),
    (16, "Julie Petit", "", "Harbour", "FRA"),
]
FAN_PICKS = (8, 9, 10, 12, 16, 24, 32, 48, 64, 88)
# (session, table, hand): the event's one penalty, a false win (10 to each other player) by
# P2 in a hand that ends in a draw.
PENALTY_AT = (1, 3, 6)
# (session, table, hand, after): the hand a tablet corrects through its link on the sheet,
# once hand ``after`` is entered.
CORRECTED_AT = (1, 2, 3, 9)
# (session, table, hand): the table the organiser reopens once confirmed, the hand corrected.
REOPENED_AT = (2, 3, 10)
REOPEN_REASON = "Hand 10: the players agree the fan was different; corrected with them."


@dataclasses.dataclass(frozen=True)
class Hand:
    """What a referee enters for one hand; seats are 0–3 (P1–P4)."""

    outcome: str  # "discard", "self_drawn" or "draw"
    winner: int | None = None
    discarder: int | None = None
    fan: int | None = None
    typed: bool = False  # the fan typed in its field, not picked
    flowers: int = 0
    penalty: tuple[int, int] | None = None  # (offender, points to each other player)

    def points(self) -> list[int]:
        """Each seat's points for the hand, by the rules' settlement."""
        points = [0, 0, 0, 0]
        if self.outcome != "draw":
            total = self.fan + self.flowers
            for seat in range(4):
                if seat == self.winner:
                    continue
                pays = 8 + total if self.outcome == "self_drawn" or seat == self.discarder else 8
                points[seat] -= pays
                points[self.winner] += pays
        if self.penalty:
            offender, each = self.penalty
            for seat in range(4):
                points[seat] += -3 * each if seat == offender else each
        return points

    def corrected(self) -> Hand:
        """The same hand with another fan, as found when the players check it."""
        fan = next(pick for pick in (16, 24, 12) if pick != self.fan)
        return dataclasses.replace(self, fan=fan, typed=False)


def plan_table(session: int, table: int) -> dict[int, Hand]:
    """The 16 hands of one table: wins on a discard and self-drawn (fans picked or typed,
    flowers), two draws; the same every run."""
    rng = random.Random(f"{session}/{table}")
    draws = set(rng.sample(range(4, 17), 2))
    plan = {}
    for number in range(1, 17):
        winner = rng.randrange(4)
        typed = rng.random() < 0.25
        fan = rng.randint(8, 30) if typed else rng.choice(FAN_PICKS[:7])
        if (session, table, number) == PENALTY_AT:
            plan[number] = Hand("draw", penalty=(1, 10))
        elif number in draws and (session, table, number) not in (CORRECTED_AT[:3], REOPENED_AT):
            plan[number] = Hand("draw")
        elif number == 2 or rng.random() < 0.35:
            flowers = rng.randint(1, 3) if number == 2 else rng.randint(0, 3)
            plan[number] = Hand("self_drawn", winner, None, fan, typed, flowers)
        else:
            discarder = rng.choice([seat for seat in range(4) if seat != winner])
            plan[number] = Hand("discard", winner, discarder, fan, typed, rng.randint(0, 1))
    return plan
