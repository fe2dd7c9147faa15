"""Data of a tournament and the invariants the database can enforce, one module per area
(docs/architecture.md lists them), the models named from here.

Behaviour lives in ``services`` (writes), ``selectors`` (reads) and the pure
cores ``scoring`` and ``seating``; the models only hold data and constraints.

Every model holding tournament data keeps its history (``history``, see
``tournament.history.audit``): who changed what, when, before and after.
``HandSubmission`` (a form's one-time key) and ``HandRevision`` (itself a copy of a hand's
past, which the sheet lists) keep none.
"""

from tournament.models.check_in import CheckIn, ScheduledSession
from tournament.models.draws import DrawCommitment, SeatingPlan
from tournament.models.exports import ExportFile
from tournament.models.hands import Hand, HandRevision, HandSubmission, Penalty, TableReopening
from tournament.models.imports import PLAYER_IMPORT_ACTIVE, PlayerImport
from tournament.models.mail import OutgoingEmail
from tournament.models.people import (
    SERIES_RULE_CHOICES,
    Person,
    Series,
    parse_place_points,
)
from tournament.models.rules import RULE_CHANGE_JOB_ACTIVE, RuleChange, RuleChangeJob
from tournament.models.rulings import OFFENCES, Appeal, RefereeCall, Ruling
from tournament.models.sign_ups import SignUp
from tournament.models.tasks import ScheduledJob, TaskWorker
from tournament.models.tournaments import (
    DEFAULT_SEATING_METHOD,
    DEFAULT_SUBSTITUTE_LIMIT,
    DEFAULT_TIEBREAK_ORDER,
    KONG_READING_CHOICES,
    PLAYER_FIELDS,
    RULE_PROFILE_CHOICES,
    SEATING_METHOD_CHOICES,
    SEPARATE_BY_CHOICES,
    SESSION_END_CHOICES,
    TIEBREAK_CHOICES,
    Player,
    Seat,
    Session,
    Table,
    Tournament,
    TournamentVersion,
    default_time_zone,
    preset_json,
    validate_tiebreak_order,
)

__all__ = [
    "DEFAULT_SEATING_METHOD",
    "DEFAULT_SUBSTITUTE_LIMIT",
    "DEFAULT_TIEBREAK_ORDER",
    "KONG_READING_CHOICES",
    "OFFENCES",
    "PLAYER_FIELDS",
    "PLAYER_IMPORT_ACTIVE",
    "RULE_CHANGE_JOB_ACTIVE",
    "RULE_PROFILE_CHOICES",
    "SEATING_METHOD_CHOICES",
    "SEPARATE_BY_CHOICES",
    "SERIES_RULE_CHOICES",
    "SESSION_END_CHOICES",
    "TIEBREAK_CHOICES",
    "Appeal",
    "CheckIn",
    "DrawCommitment",
    "ExportFile",
    "Hand",
    "HandRevision",
    "HandSubmission",
    "OutgoingEmail",
    "Penalty",
    "Person",
    "Player",
    "PlayerImport",
    "RefereeCall",
    "RuleChange",
    "RuleChangeJob",
    "Ruling",
    "ScheduledJob",
    "ScheduledSession",
    "Seat",
    "SeatingPlan",
    "Series",
    "Session",
    "SignUp",
    "Table",
    "TableReopening",
    "TaskWorker",
    "Tournament",
    "TournamentVersion",
    "default_time_zone",
    "parse_place_points",
    "preset_json",
    "validate_tiebreak_order",
]
