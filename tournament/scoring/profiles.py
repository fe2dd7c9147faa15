"""The named rule profiles a tournament starts from: each a preset of explicit options that
the organiser can still change (docs/rules.md lists them with their sources).

A profile is plain data: the scoring options (``Rules``), how a session ends, the penalty
presets the referees tap, and the tie-break chain (its name, in both languages, is the
models' ``RULE_PROFILE_CHOICES``). ``readings`` names the options whose value
the profile's rule book does not settle for certain: the rules page says they are the site's
reading, which the organiser may change.
"""

from dataclasses import dataclass, field
from typing import Final

from tournament.scoring.rules import Rules
from tournament.scoring.settlement import PenaltyKind

# How a session ends when its time is up:
# "bell": at the end of the time the hand in play is abandoned and no new hand starts;
# "gong": a gong sounds ``gong_minute`` minutes into the session; the hand in play is
#         finished, no new hand starts.
# Either way the hands not played are recorded as not played (超时) and count nothing.
SESSION_ENDS: Final = ("bell", "gong")

# The tie-break criteria a chain is made of, in the words the standings use.
TIEBREAKS: Final = (
    "table_points",
    "score",
    "first_places",
    "second_places",
    "third_places",
    "fourth_places",
    "best_session",
    "hands_won",
    "player_number",
)


@dataclass(frozen=True)
class PenaltyPreset:
    """An offence the referee taps on the sheet and the desk: its kind and its amounts (the
    first is the one filled in)."""

    offence: str
    kind: PenaltyKind
    points: tuple[int, ...]


@dataclass(frozen=True)
class Profile:
    key: str
    rules: Rules
    session_minutes: int
    session_end: str
    gong_minute: int | None
    penalty_presets: tuple[PenaltyPreset, ...]
    tiebreaks: tuple[str, ...]
    readings: frozenset[str] = field(default_factory=frozenset)


_EACH = PenaltyKind.TO_EACH_OTHER
_ONE = PenaltyKind.TO_ONE
_DEDUCTED = PenaltyKind.DEDUCTED

# The Chinese competition rules' amounts (1998), the seed documents' defaults.
_SEED_PENALTIES = (
    PenaltyPreset("false_win", _EACH, (10,)),
    PenaltyPreset("not_ready", _EACH, (20,)),
    PenaltyPreset("exposed_tiles", _ONE, tuple(range(5, 61))),
    PenaltyPreset("procedural", _DEDUCTED, (5, 10, 20, 30, 40, 50, 60)),
    PenaltyPreset("lateness", _DEDUCTED, (10, 20)),
)

SEED: Final = Profile(
    key="seed",
    rules=Rules(),
    session_minutes=150,
    session_end="bell",
    gong_minute=None,
    penalty_presets=_SEED_PENALTIES,
    tiebreaks=("table_points", "score", "first_places", "best_session"),
)

EMA: Final = Profile(
    key="ema",
    # The English book scores one melded and one concealed kong under Two Melded Kongs.
    rules=Rules(melded_and_concealed_kong=6),
    # The Danish Open 2026: 120 minutes, a gong at 115, the hand in play finished.
    session_minutes=120,
    session_end="gong",
    gong_minute=115,
    penalty_presets=(
        PenaltyPreset("false_win", _EACH, (10,)),
        PenaltyPreset("not_ready", _EACH, (10,)),
        PenaltyPreset("false_claim", _DEDUCTED, (10,)),
        PenaltyPreset("tile_not_taken", _DEDUCTED, (10,)),
        PenaltyPreset("exposed_tiles", _ONE, tuple(range(5, 61))),
        PenaltyPreset("procedural", _DEDUCTED, (5, 10, 20, 30, 40, 50, 60)),
        PenaltyPreset("lateness", _DEDUCTED, (10, 20)),
    ),
    tiebreaks=("table_points", "score"),
    readings=frozenset(
        {"melded_and_concealed_kong", "penalty_presets", "tiebreaks", "session_minutes"}
    ),
)

MIL_CHINA_2025: Final = Profile(
    key="mil_china_2025",
    # The League's rulings count 明暗杠 as a fan of 5; its duplicate events play without
    # flowers; the blessings are the League's option, off unless the event says so.
    rules=Rules(melded_and_concealed_kong=5, flowers=False),
    session_minutes=150,
    session_end="bell",
    gong_minute=None,
    penalty_presets=_SEED_PENALTIES,
    tiebreaks=(
        "table_points",
        "score",
        "first_places",
        "second_places",
        "third_places",
        "fourth_places",
        "best_session",
        "player_number",
    ),
    readings=frozenset(
        {"flowers", "blessings", "penalty_presets", "session_minutes", "session_end"}
    ),
)

PROFILES: Final = {profile.key: profile for profile in (SEED, EMA, MIL_CHINA_2025)}
DEFAULT_PROFILE: Final = SEED.key
