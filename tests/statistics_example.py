"""A small tournament written hand by hand, and its statistics worked out by hand.

Eight players and a substitute who never plays; three sessions, the third in play. The
seats are imposed after each draw, so that the hands below can name the players. The
figures in ``EXPECTED_*`` were worked out on paper from these hands (the working is in the
comments), not by the code under test.

Seats, P1..P4 (the starting seats):

    session 1   table 1: 1 2 3 4    table 2: 5 6 7 8
    session 2   table 1: 1 5 2 6    table 2: 3 7 4 8
    session 3   table 1: 1 8 3 6    table 2: 2 7 4 5   (in play: table 2 has no hand yet)

Sessions 1 and 2 enter hands 1-4 (1-2 at session 2 table 2), then the tables are
confirmed with the other hands recorded as not played.
"""

from tests.conftest import make_tournament, make_user
from tournament import services
from tournament.models import Seat

# The calculator scores it 13 for a winner whose seat wind is South (Mixed Straight 8, Seat
# Wind 2, Concealed Hand 2, Single Wait 1) and 12 for any other (a Pung of Terminals or
# Honors instead of the Seat Wind): player 2 wins it at hand 1 from P2, seat wind South.
SOUTH_PUNG_HAND = "123m456p789sSSSE +E"
# Mixed Straight 8, Concealed Hand 2 whatever the winds.
TEN_FAN_HAND = "123m456p789s23sEE +4s"

SEATS = {
    1: {1: (1, 2, 3, 4), 2: (5, 6, 7, 8)},
    2: {1: (1, 5, 2, 6), 2: (3, 7, 4, 8)},
    3: {1: (1, 8, 3, 6), 2: (2, 7, 4, 5)},
}

# (session, table, hand, fields for hand_record with players by number; penalties as
# (offender, kind, points, beneficiary)).
HANDS = [
    (1, 1, 1, {"outcome": "discard", "winner": 2, "discarder": 1, "fan": 13,
               "winning_hand": SOUTH_PUNG_HAND}),
    (1, 1, 2, {"outcome": "self_drawn", "winner": 1, "fan": 8, "flowers": 2}),
    (1, 1, 3, {"outcome": "draw", "penalties": [(3, "to_each_other", 10, None)]}),
    (1, 1, 4, {"outcome": "discard", "winner": 4, "discarder": 3, "fan": 24, "flowers": 1}),
    (1, 2, 1, {"outcome": "discard", "winner": 5, "discarder": 6, "fan": 12,
               "fan_names": "All Pungs, Half Flush"}),
    (1, 2, 2, {"outcome": "draw"}),
    (1, 2, 3, {"outcome": "self_drawn", "winner": 7, "fan": 88}),
    (1, 2, 4, {"outcome": "discard", "winner": 6, "discarder": 8, "fan": 8,
               "penalties": [(8, "deducted", 5, None)]}),
    (2, 1, 1, {"outcome": "discard", "winner": 1, "discarder": 2, "fan": 10,
               "winning_hand": TEN_FAN_HAND, "fan_names": "Mixed Straight, Concealed Hand"}),
    (2, 1, 2, {"outcome": "discard", "winner": 5, "discarder": 1, "fan": 16, "flowers": 3}),
    (2, 1, 3, {"outcome": "draw"}),
    (2, 1, 4, {"outcome": "self_drawn", "winner": 6, "fan": 8,
               "penalties": [(1, "to_one", 5, 5)]}),
    (2, 2, 1, {"outcome": "self_drawn", "winner": 4, "fan": 24, "flowers": 1}),
    (2, 2, 2, {"outcome": "discard", "winner": 3, "discarder": 7, "fan": 8}),
    (3, 1, 1, {"outcome": "discard", "winner": 8, "discarder": 3, "fan": 9}),
    (3, 1, 2, {"outcome": "draw"}),
]  # fmt: skip

# Hands played (wins and draws) at each table: S1 T1 4, S1 T2 4, S2 T1 4, S2 T2 2,
# S3 T1 2, S3 T2 0. The fan of a win is fan + flowers.
# player: (played, self-drawn, discard wins, deal-ins, win rate, deal-in rate, average fan,
#          biggest (fan, session, table, hand), penalties, penalty points)
EXPECTED_PLAYERS = {
    # 4+4+2 played; wins S1T1h2 self 8+2, S2T1h1 discard 10; dealt in S1T1h1, S2T1h2;
    # both wins 10, the earlier is the biggest; paid 5 to player 5 (S2T1h4).
    1: (10, 1, 1, 2, "20.0", "20.0", "10.0", (10, 1, 1, 2), 1, 5),
    # 4+4+0; won S1T1h1 (13, typed); dealt in S2T1h1.
    2: (8, 0, 1, 1, "12.5", "12.5", "13.0", (13, 1, 1, 1), 0, 0),
    # 4+2+2; won S2T2h2 (8); dealt in S1T1h4 and S3T1h1; a false win, 10 to each of 3.
    3: (8, 0, 1, 2, "12.5", "25.0", "8.0", (8, 2, 2, 2), 1, 30),
    # 4+2+0; won S1T1h4 discard 24+1, S2T2h1 self 24+1: 2 of 6 is 33.33…
    4: (6, 1, 1, 0, "33.3", "0.0", "25.0", (25, 1, 1, 4), 0, 0),
    # 4+4+0; won S1T2h1 (12, claimed) and S2T1h2 (16+3): 31 / 2 = 15.5.
    5: (8, 0, 2, 0, "25.0", "0.0", "15.5", (19, 2, 1, 2), 0, 0),
    # 4+4+2; won S1T2h4 discard 8 and S2T1h4 self 8; dealt in S1T2h1.
    6: (10, 1, 1, 1, "20.0", "10.0", "8.0", (8, 1, 2, 4), 0, 0),
    # 4+2+0; won S1T2h3 self 88; dealt in S2T2h2: 1 of 6 is 16.66…
    7: (6, 1, 0, 1, "16.7", "16.7", "88.0", (88, 1, 2, 3), 0, 0),
    # 4+2+2; won S3T1h1 (9); dealt in S1T2h4; 5 deducted at S1T2h4.
    8: (8, 0, 1, 1, "12.5", "12.5", "9.0", (9, 3, 1, 1), 1, 5),
}
# The fans of the biggest hands where the data holds them (the typed hand's, or the claim).
EXPECTED_BIGGEST_FANS = {
    (1, 1, 1): ("typed", ["mixed_straight", "seat_wind", "concealed_hand", "single_wait"]),
    (1, 2, 1): ("claimed", ["all_pungs", "half_flush"]),
    # Typed and claimed: the typed hand's fans count.
    (2, 1, 1): ("typed", ["mixed_straight", "concealed_hand"]),
}

# Biggest hands: fan + flowers, then the earliest first; two of the three 8s are cut.
# (fan, player, session, table, hand)
EXPECTED_BIGGEST = [
    (88, 7, 1, 2, 3),
    (25, 4, 1, 1, 4),
    (25, 4, 2, 2, 1),
    (19, 5, 2, 1, 2),
    (13, 2, 1, 1, 1),
    (12, 5, 1, 2, 1),
    (10, 1, 1, 1, 2),
    (10, 1, 2, 1, 1),
    (9, 8, 3, 1, 1),
    (8, 6, 1, 2, 4),
]
EXPECTED_FAN_COUNTS = {
    "mixed_straight": 2,
    "concealed_hand": 2,
    "seat_wind": 1,
    "single_wait": 1,
    "all_pungs": 1,
    "half_flush": 1,
}
EXPECTED_WINS = 12
EXPECTED_TYPED, EXPECTED_CLAIMED = 2, 1

# The winner's seat wind, read from the rotation table of docs/seating.md: hand 1 P1 E, P2 S,
# P3 W; hand 2 P1 N, P2 E; hand 3 P3 E; hand 4 P2 W, P4 E.
#   S1T1h1 P2 S discard   S1T1h2 P1 N self   S1T1h4 P4 E discard   S1T2h1 P1 E discard
#   S1T2h3 P3 E self      S1T2h4 P2 W discard   S2T1h1 P1 E discard   S2T1h2 P2 E discard
#   S2T1h4 P4 E self      S2T2h1 P3 W self   S2T2h2 P1 N discard   S3T1h1 P2 S discard
# wind: (self-drawn, discard)
EXPECTED_WINDS = {"E": (2, 4), "S": (0, 2), "W": (1, 1), "N": (1, 1)}

# session: (tables, hands played, wins, self-drawn, draws, hands per table, average fan,
#           self-draw share). Fans: S1 13+10+25+12+88+8 = 156 over 6; S2 10+19+8+25+8 = 70
# over 5; S3 9.
EXPECTED_SESSIONS = {
    1: (2, 8, 6, 2, 2, "4.0", "26.0", "33.3"),
    2: (2, 6, 5, 2, 1, "3.0", "14.0", "40.0"),
    3: (1, 2, 1, 0, 1, "2.0", "9.0", "0.0"),
}

# Scores (discard win: winner 24 + F, discarder −(8 + F), others −8; self-drawn: winner
# 3 × (8 + F), others −(8 + F)), places and table points:
#   S1 T1: 1 +35 (1st, 4), 4 +33 (2nd, 2), 2 +21 (3rd, 1), 3 −89 (4th, 0)
#   S1 T2: 7 +272 (4), 5 −68 (2), 6 −84 (1), 8 −125 (0)   [−5 deducted]
#   S2 T1: 6 +32 (4), 5 +24 (2), 1 −14 (1), 2 −42 (0)
#   S2 T2: 4 +91 (4), 3 −1 (2), 8 −41 (1), 7 −49 (0)
#   S3 T1: 8 +33 (4), 1 −8 and 6 −8 tied 2nd (1.5 each), 3 −17 (0); T2 not started
# After S1 (points, score): 7 4/272, 1 4/35, 4 2/33, 5 2/−68, 2 1/21, 6 1/−84, 3 0/−89,
#   8 0/−125.
# After S2: 4 6/124, 1 5/21, 6 5/−52, 7 4/223, 5 4/−44, 3 2/−90, 2 1/−21, 8 1/−166.
# After S3: 1 6.5/13, 6 6.5/−60, 4 6/124, 8 5/−133, 7 4/223, 5 4/−44, 3 2/−107, 2 1/−21.
EXPECTED_RANKS = {
    1: (2, 2, 1),
    2: (5, 7, 8),
    3: (7, 6, 7),
    4: (3, 1, 3),
    5: (4, 5, 6),
    6: (6, 3, 2),
    7: (1, 4, 5),
    8: (8, 8, 4),
}
SUBSTITUTE = 9


def _impose_seats(session, players) -> dict[int, tuple[object, int]]:
    """The example's seats instead of the drawn ones: player number -> (table, seat)."""
    tables = {table.number: table for table in session.tables.all()}
    Seat.objects.filter(session=session).delete()
    placed = {}
    for table_number, numbers in SEATS[session.number].items():
        for seat, number in enumerate(numbers):
            Seat.objects.create(
                session=session,
                table=tables[table_number],
                player=players[number],
                seat=seat,
                lot=(table_number - 1) * 4 + seat + 1,
            )
            placed[number] = (tables[table_number], seat)
    return placed


def _entry(fields: dict, seat_of: dict[int, int]) -> dict:
    entry = dict(fields)
    for name in ("winner", "discarder"):
        if name in entry:
            entry[name] = seat_of[entry[name]]
    entry["penalties"] = [
        services.PenaltyEntry(
            offender=seat_of[offender],
            kind=kind,
            points=points,
            beneficiary=None if beneficiary is None else seat_of[beneficiary],
            reason="Example",
        )
        for offender, kind, points, beneficiary in fields.get("penalties", ())
    ]
    return entry


def build_example(*, organiser=None, slug: str = "stats-example", on_session_end=None):
    """The example tournament; ``on_session_end(tournament, number)`` is called after each
    session's hands are in (sessions 1 and 2 confirmed and closed; session 3 stays in play)."""
    organiser = organiser or make_user("stats-organiser", can_create=True)
    tournament = make_tournament(creator=organiser, slug=slug, sessions=4)
    players = {
        number: services.player_save(tournament=tournament, number=number, name=f"Player {number}")
        for number in range(1, 9)
    }
    services.player_save(
        tournament=tournament, number=SUBSTITUTE, name="Substitute", is_substitute=True
    )
    for number in (1, 2, 3):
        session = services.session_draw(tournament=tournament, number=number, seed=number)
        placed = _impose_seats(session, players)
        services.session_open(session=session)
        for hand_session, table_number, hand, fields in HANDS:
            if hand_session != number:
                continue
            table = session.tables.get(number=table_number)
            seat_of = {n: seat for n, (t, seat) in placed.items() if t.pk == table.pk}
            services.hand_record(
                table=table,
                entry=services.HandEntry(number=hand, **_entry(fields, seat_of)),
                user=organiser,
            )
        if number < 3:
            for table in session.tables.all():
                services.table_confirm(
                    table=table, user=organiser, record_missing_as_not_played=True
                )
            services.session_close(session=session)
        if on_session_end is not None:
            on_session_end(tournament, number)
    tournament.refresh_from_db()
    return tournament
