"""A synthetic tournament played through the services, for rehearsals and benchmarks.

``build_tournament`` registers N players (some in teams, most with a country), then draws,
opens, plays, confirms and closes every session with the same services the pages call, so
every hand is settled by the scoring core and kept in the history as a referee's entry
would be. An organiser can rehearse an event on their own server (the pages, the
standings, the workbook, a backup and restore) with a tournament of the event's size.

Everything random comes from ``random.Random`` instances seeded from the rehearsal's seed
and a name for what they draw (the players, one table's hands, a session's draw), never
from the global generator: the same arguments give the same players, seats and hands,
and a table's hands do not depend on how many tables were played before it.
"""

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.core.validators import MaxValueValidator
from django.db import transaction
from django.utils.translation import gettext as _

from tournament import services
from tournament.models import Tournament
from tournament.scoring import Outcome, PenaltyKind
from tournament.seating import HANDS_PER_SESSION
from tournament.seating.draw import SEED_MAX, SEED_MIN
from tournament.server.planner_statistics import planner_statistics_refresh
from tournament.services.common import refused

# The tournament's time limit; it only shows on the table clocks.
SESSION_MINUTES = 150

# How hands end, per thousand hands entered: a quarter self-drawn, one in ten a draw.
OUTCOME_WEIGHTS = (
    (Outcome.DISCARD, 650),
    (Outcome.SELF_DRAWN, 250),
    (Outcome.DRAW, 100),
)
# The winner's fan without flowers: mostly 8 to 16, then the long tail of the big hands,
# rarer as they grow, up to the 88-fan ones.
FAN_WEIGHTS = (
    (8, 240),
    (9, 120),
    (10, 100),
    (11, 80),
    (12, 90),
    (13, 60),
    (14, 50),
    (15, 40),
    (16, 50),
    (17, 20),
    (18, 20),
    (19, 12),
    (20, 12),
    (21, 10),
    (22, 10),
    (24, 25),
    (26, 8),
    (28, 6),
    (30, 5),
    (32, 10),
    (36, 3),
    (40, 4),
    (48, 4),
    (56, 1),
    (64, 4),
    (72, 1),
    (88, 2),
)
FLOWER_WEIGHTS = ((0, 55), (1, 25), (2, 13), (3, 7))
# About one hand in 200 carries a penalty, of the kinds the rules name (CR98 amounts).
PENALTY_CHANCE = 1 / 200
PENALTIES = (
    (PenaltyKind.TO_EACH_OTHER, 10, "False win"),
    (PenaltyKind.TO_ONE, 10, "Exposed another player's tiles"),
    (PenaltyKind.DEDUCTED, 10, "Lateness"),
)
# Some tables run out of time: their last one to three hands are recorded as not played
# when the referee confirms the sheet, as a referee does when time is called.
TIME_CALLED_CHANCE = 0.15
HANDS_CUT_WEIGHTS = ((1, 3), (2, 2), (3, 1))

# Chinese names: pinyin and hanzi in the same order.
FAMILY_PINYIN = ("Li", "Wang", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou")
GIVEN_PINYIN = ("Wei", "Fang", "Min", "Jing", "Lei", "Yang", "Jie", "Na", "Tao", "Hui")
FAMILY_NAMES = tuple(zip(FAMILY_PINYIN, "李王张刘陈杨黄赵吴周", strict=True))
GIVEN_NAMES_ZH = tuple(zip(GIVEN_PINYIN, "伟芳敏静磊洋杰娜涛慧", strict=True))
GIVEN_NAMES = (
    "Anna",
    "Marc",
    "Claire",
    "Jonas",
    "Lena",
    "Hugo",
    "Julie",
    "Tim",
    "Sofia",
    "Pieter",
    "Elena",
    "Mateo",
    "Ingrid",
    "Luca",
    "Haruka",
    "Ren",
)
SURNAMES = (
    "Berg",
    "Dubois",
    "Schmidt",
    "Rossi",
    "Jansen",
    "Novak",
    "Moreau",
    "Vogel",
    "Lindqvist",
    "Garcia",
    "Kowalski",
    "Sato",
    "Kato",
    "Petit",
    "Falk",
    "Horvath",
)
# As the EMA writes them (``tournament.players.federation``).
COUNTRIES = ("CHN", "DEN", "FRA", "GER", "HUN", "ITA", "JPN", "NED", "POL", "ESP")
TEAM_WORDS = ("Dragons", "Winds", "Bamboo", "Pungs", "Flowers", "Seasons", "Tigers", "Cranes")
CITIES = (
    "Beijing",
    "Berlin",
    "Copenhagen",
    "Lyon",
    "Milan",
    "Osaka",
    "Budapest",
    "Utrecht",
    "Krakow",
    "Valencia",
)
# About half the players play for a team of about four (a team event's size); most players
# give a country, a team's members its country.
TEAM_SHARE = 0.5
TEAM_MEMBERS = 4
COUNTRY_SHARE = 0.8


@dataclass(frozen=True)
class SessionPlayed:
    """What the progress callback hears after each session is closed."""

    number: int
    sessions: int
    tables: int
    hands: int
    draw_seconds: float
    play_seconds: float


def _max_sessions() -> int:
    """The most sessions a tournament may have, as its model allows."""
    field = Tournament._meta.get_field("session_count")
    return min(v.limit_value for v in field.validators if isinstance(v, MaxValueValidator))


def _check_arguments(*, players, sessions, seed, slug, played) -> None:
    def whole(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if not whole(players) or players < 4 or players % 4:
        raise refused(
            "players",
            _(
                "The number of players must be a multiple of 4, at least 4 (tables of four): "
                "got %(players)s."
            )
            % {"players": players},
            "bad_player_count",
        )
    most = _max_sessions()
    if not whole(sessions) or not 1 <= sessions <= most:
        raise refused(
            "sessions",
            _("The number of sessions must be from 1 to %(most)s: got %(sessions)s.")
            % {"most": most, "sessions": sessions},
            "bad_session_count",
        )
    if not whole(played) or not 0 <= played <= sessions:
        raise refused(
            "played",
            _("The sessions played must be from 0 to %(sessions)s: got %(played)s.")
            % {"sessions": sessions, "played": played},
            "bad_played_count",
        )
    if not whole(seed) or seed < 0:
        raise refused(
            "seed",
            _("The seed must be a whole number of zero or more: got %(seed)s.") % {"seed": seed},
            "bad_seed",
        )
    if Tournament.objects.filter(slug=slug).exists():
        raise refused(
            "slug",
            _("A tournament with the short name %(slug)s already exists: choose another slug.")
            % {"slug": slug},
            "slug_taken",
        )


def _weighted(rng: random.Random, weights) -> object:
    values = [value for value, _weight in weights]
    return rng.choices(values, weights=[weight for _value, weight in weights])[0]


def planned_players(*, players: int, seed: int) -> list[dict]:
    """The players to register, as ``player_save`` fields, numbered 1..``players``."""
    rng = random.Random(f"rehearsal:{seed}:players")
    team_count = max(2, round(players * TEAM_SHARE / TEAM_MEMBERS))
    teams = []
    for index in range(team_count):
        city = CITIES[index % len(CITIES)]
        # Past the list of cities, teams are numbered: team names stay distinct.
        word = rng.choice(TEAM_WORDS)
        name = f"{city} {word}" if index < len(CITIES) else f"{city} {word} {index + 1}"
        teams.append((name, COUNTRIES[index % len(COUNTRIES)]))
    planned = []
    for number in range(1, players + 1):
        team, country = "", ""
        if rng.random() < TEAM_SHARE:
            team, country = teams[rng.randrange(team_count)]
        elif rng.random() < COUNTRY_SHARE:
            country = rng.choice(COUNTRIES)
        if country == "CHN" or (not country and rng.random() < 0.3):
            family, family_zh = rng.choice(FAMILY_NAMES)
            given, given_zh = rng.choice(GIVEN_NAMES_ZH)
            # The family name first, as Chinese names are written in Latin letters too.
            name, name_zh = f"{family} {given}", family_zh + given_zh
        else:
            given = rng.choice(GIVEN_NAMES)
            family = rng.choice(SURNAMES)
            name, name_zh = f"{given} {family}", ""
        planned.append(
            {
                "number": number,
                "name": name,
                "first_name": given,
                "last_name": family,
                "name_zh": name_zh,
                "team": team,
                "country": country,
            }
        )
    return planned


def draw_seed(*, seed: int, session: int) -> int:
    """The seed of session ``session``'s draw: nine digits, as a fresh published seed has."""
    return random.Random(f"rehearsal:{seed}:draw:{session}").randint(SEED_MIN, SEED_MAX)


def _penalty(rng: random.Random, winner: int | None) -> services.PenaltyEntry:
    kind, points, reason = rng.choice(PENALTIES)
    # A false win's offender may not win the hand; choose among the others.
    offender = rng.randrange(4) if winner is None else (winner + rng.randrange(1, 4)) % 4
    beneficiary = None
    if kind is PenaltyKind.TO_ONE:
        beneficiary = (offender + rng.randrange(1, 4)) % 4
    return services.PenaltyEntry(
        offender=offender, kind=kind.value, points=points, reason=reason, beneficiary=beneficiary
    )


def planned_hands(*, seed: int, session: int, table: int) -> list[dict]:
    """The hands one table enters, as ``hand_record`` arguments, in order.

    Fewer than 16 when time is called at that table: the rest are recorded as not played
    when the table is confirmed.
    """
    rng = random.Random(f"rehearsal:{seed}:hands:{session}:{table}")
    played = HANDS_PER_SESSION
    if rng.random() < TIME_CALLED_CHANCE:
        played -= _weighted(rng, HANDS_CUT_WEIGHTS)
    hands = []
    for number in range(1, played + 1):
        outcome = _weighted(rng, OUTCOME_WEIGHTS)
        hand = {"number": number, "outcome": outcome.value}
        if outcome is not Outcome.DRAW:
            winner = rng.randrange(4)
            hand.update(
                winner=winner,
                fan=_weighted(rng, FAN_WEIGHTS),
                flowers=_weighted(rng, FLOWER_WEIGHTS),
            )
            if outcome is Outcome.DISCARD:
                hand["discarder"] = (winner + rng.randrange(1, 4)) % 4
        if rng.random() < PENALTY_CHANCE:
            hand["penalties"] = [_penalty(rng, hand.get("winner"))]
        hands.append(hand)
    return hands


def _play_table(*, table, seed: int, session: int, user) -> None:
    """Enter one table's sheet and confirm it, as a referee typing in a paper sheet would:
    every hand settled and checked by the services' rules, stored in a few statements."""
    hands = planned_hands(seed=seed, session=session, table=table.number)
    services.table_sheet_record(
        table=table,
        entries=[services.HandEntry(**hand) for hand in hands],
        user=user,
        record_missing_as_not_played=len(hands) < HANDS_PER_SESSION,
    )


def build_tournament(
    *,
    players: int,
    sessions: int,
    seed: int,
    slug: str | None = None,
    name: str | None = None,
    organiser=None,
    played: int | None = None,
    progress: Callable[[SessionPlayed], None] | None = None,
) -> Tournament:
    """Create and play a whole tournament; return it.

    ``organiser`` (an account, or None) creates it, enters every hand and confirms every
    table. With ``played`` (fewer than ``sessions``), only the first ``played`` sessions are
    played: the next is drawn and opened for play, as in the middle of an event.
    ``progress`` is called after each session is closed. Raises ``ValidationError``
    (keyed by the argument concerned) before writing anything when an argument is refused.
    A build stopped part-way leaves the sessions played so far: delete the tournament from
    its settings page.
    """
    slug = slug or f"rehearsal-{players}x{sessions}-s{seed}"
    played = sessions if played is None else played
    _check_arguments(players=players, sessions=sessions, seed=seed, slug=slug, played=played)
    with transaction.atomic():
        tournament = services.tournament_create(
            name=name
            or _("Rehearsal %(players)s×%(sessions)s (seed %(seed)s)")
            % {"players": players, "sessions": sessions, "seed": seed},
            slug=slug,
            session_count=sessions,
            session_minutes=SESSION_MINUTES,
            creator=organiser,
        )
        for fields in planned_players(players=players, seed=seed):
            services.player_save(tournament=tournament, **fields)
    for number in range(1, min(played + 1, sessions) + 1):
        drawing = time.perf_counter()
        # A planned schedule is published with one seed for the whole tournament; the
        # session-by-session methods take a seed per draw.
        per_draw = 1 if tournament.seating_method == "planned" else number
        session = services.session_draw(
            tournament=tournament, number=number, seed=draw_seed(seed=seed, session=per_draw)
        )
        services.session_open(session=session)
        if number > played:
            break
        playing = time.perf_counter()
        tables = list(session.tables.order_by("number"))
        for table in tables:
            _play_table(table=table, seed=seed, session=number, user=organiser)
        services.session_close(session=session)
        if progress is not None:
            progress(
                SessionPlayed(
                    number=number,
                    sessions=sessions,
                    tables=len(tables),
                    hands=len(tables) * HANDS_PER_SESSION,
                    draw_seconds=playing - drawing,
                    play_seconds=time.perf_counter() - playing,
                )
            )
    # What was just loaded in bulk, counted for the database's planner (see the module).
    planner_statistics_refresh()
    return tournament
