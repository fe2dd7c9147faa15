"""The referees' desk: a table's calls for a referee, the rulings given, their appeals, and
the list of offences a ruling names (the rules' penalties, which the sheet's presets read)."""

import dataclasses
from collections.abc import Sequence

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.history.audit import TournamentHistory
from tournament.models.tournaments import Player, Table
from tournament.models.validators import one_line_field, validate_multi_line
from tournament.scoring import PenaltyKind
from tournament.seating import HANDS_PER_SESSION


@dataclasses.dataclass(frozen=True)
class Offence:
    """An offence of the rules with its usual penalty: the kind, the points the rules allow
    (the usual figure first) and the words written on the sheet and the record of fouls."""

    code: str
    kind: str
    points: Sequence[int]
    reason: str

    @property
    def default_points(self) -> int:
        return self.points[0]


# The one list of offences: the sheet's penalty presets, the reasons offered while typing, the
# desk's ruling form and the record of fouls all read it. Figures from the rules digest (CR98
# defaults, docs/desk.md).
OFFENCES = (
    Offence("false_win", PenaltyKind.TO_EACH_OTHER.value, (10,), _("False win (错和)")),
    Offence(
        "not_ready",
        PenaltyKind.TO_EACH_OTHER.value,
        (20,),
        _("Claimed a win while not ready (诈和)"),
    ),
    # Two the EMA's regulations name: a false claim of a chow, pung or kong, and a hand counted
    # before its winning tile was taken.
    Offence("false_claim", PenaltyKind.DEDUCTED.value, (10,), _("False claim of a set")),
    Offence(
        "tile_not_taken",
        PenaltyKind.DEDUCTED.value,
        (10,),
        _("Counted the hand before taking the winning tile"),
    ),
    Offence(
        "exposed_tiles", PenaltyKind.TO_ONE.value, range(5, 61), _("Exposed another player's tiles")
    ),
    Offence(
        "procedural",
        PenaltyKind.DEDUCTED.value,
        (5, 10, 20, 30, 40, 50, 60),
        _("Procedural foul after a warning"),
    ),
    Offence("lateness", PenaltyKind.DEDUCTED.value, (10, 20), _("Lateness")),
)
OFFENCE_BY_CODE = {offence.code: offence for offence in OFFENCES}
# The most points a preset may give: what the sheet's and the ruling form's penalty take.
MOST_PENALTY_POINTS = 999


def penalty_presets_error(presets) -> str | None:
    """Why a tournament's penalty presets (``Tournament.penalty_presets``) are not usable,
    or None: each names a known offence once, a penalty kind, and one or more amounts."""
    if not isinstance(presets, list) or not presets:
        return _("Give at least one penalty preset.")
    seen = set()
    kinds = {kind.value for kind in PenaltyKind}
    for preset in presets:
        if not isinstance(preset, dict) or set(preset) != {"offence", "kind", "points"}:
            return _("Each penalty preset has an offence, a kind and its points.")
        offence = preset["offence"]
        if offence not in OFFENCE_BY_CODE or offence in seen:
            return _("Each preset names an offence of the list, once.")
        seen.add(offence)
        if preset["kind"] not in kinds:
            return _("A preset's kind is paid to each other player, to one, or deducted.")
        points = preset["points"]
        if (
            not isinstance(points, list)
            or not points
            or any(
                isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= MOST_PENALTY_POINTS
                for p in points
            )
        ):
            return _("A preset's points are whole numbers from 1 to %(most)s.") % {
                "most": MOST_PENALTY_POINTS
            }
    return None


def presets_in_order(presets: list[dict]) -> list[dict]:
    """Penalty presets (checked by ``penalty_presets_error``) in the order of ``OFFENCES``."""
    order = {offence.code: index for index, offence in enumerate(OFFENCES)}
    return sorted(presets, key=lambda preset: order[preset["offence"]])


# A ruling's offence: one of the list, another one (its words typed), or none (a claim or a
# count settled without a foul).
OTHER_OFFENCE = "other"
OFFENCE_CHOICES = [
    ("", _("No offence")),
    *((offence.code, offence.reason) for offence in OFFENCES),
    (OTHER_OFFENCE, _("Another offence")),
]


class RefereeCall(models.Model):
    """A table asking for a referee: from its sheet, a player's own page, or a hand the players
    disagree on at the review. Open (called, then taken) until resolved or cancelled."""

    CALLED, TAKEN, RESOLVED, CANCELLED = "called", "taken", "resolved", "cancelled"
    STATE_CHOICES = [
        (CALLED, _("Called")),
        (TAKEN, _("Referee on the way")),
        (RESOLVED, _("Resolved")),
        (CANCELLED, _("Cancelled")),
    ]
    OPEN = (CALLED, TAKEN)
    DISPUTE = "dispute"
    REASON_CHOICES = [
        ("claim", _("A claim")),
        ("count", _("The count")),
        ("foul", _("A foul")),
        ("time", _("Time")),
        (DISPUTE, _("We disagree on a hand")),
        ("other", _("Other")),
    ]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="calls")
    reason = models.CharField(_("reason"), max_length=8, choices=REASON_CHOICES, default="other")
    hand = models.PositiveSmallIntegerField(_("hand"), null=True, blank=True)
    note = one_line_field(_("note"), max_length=200, blank=True)
    # The one-time key the tablet or the phone made the call with: a call sent again (a
    # double tap, a queue delivered after the network came back) is stored once.
    key = models.UUIDField(unique=True, null=True, blank=True)
    # Who called: the table (its tablet or its referee's account), or a player from their
    # own page.
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    called_by_device = models.CharField(max_length=40, blank=True)
    called_at = models.DateTimeField(_("called at"), default=timezone.now)
    state = models.CharField(_("state"), max_length=10, choices=STATE_CHOICES, default=CALLED)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("referee"),
    )
    taken_at = models.DateTimeField(_("taken at"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    history = TournamentHistory()

    class Meta:
        ordering = ["called_at", "id"]
        indexes = [models.Index(fields=["table", "state"], name="call_table_state")]
        constraints = [
            models.CheckConstraint(
                condition=Q(hand__isnull=True) | Q(hand__gte=1, hand__lte=HANDS_PER_SESSION),
                name="call_hand_1_to_16",
            ),
            models.CheckConstraint(
                condition=(
                    Q(state="called", taken_at__isnull=True, ended_at__isnull=True)
                    | Q(state="taken", taken_at__isnull=False, ended_at__isnull=True)
                    | Q(state__in=["resolved", "cancelled"], ended_at__isnull=False)
                ),
                name="call_state_times",
            ),
            models.CheckConstraint(
                condition=~Q(reason="dispute") | Q(hand__isnull=False),
                name="call_dispute_names_hand",
            ),
        ]

    def __str__(self):
        return f"{self.table} · {self.get_reason_display()} ({self.state})"

    @property
    def is_open(self) -> bool:
        return self.state in self.OPEN


class Ruling(models.Model):
    """A referee's decision at a table: the hand, the players concerned, the offence, what was
    decided and the penalty it gave, which the hand carries (``Penalty.ruling``)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rulings")
    call = models.OneToOneField(
        RefereeCall, null=True, blank=True, on_delete=models.SET_NULL, related_name="ruling"
    )
    hand = models.PositiveSmallIntegerField(_("hand"), null=True, blank=True)
    players = models.ManyToManyField(
        Player, blank=True, related_name="+", verbose_name=_("players concerned")
    )
    offence = models.CharField(_("offence"), max_length=16, blank=True, choices=OFFENCE_CHOICES)
    # The offence in words: the list's as it read when the ruling was given, or typed.
    offence_text = one_line_field(_("offence"), max_length=200, blank=True)
    decision = models.CharField(_("decision"), max_length=1000, validators=[validate_multi_line])
    # The penalty given, if any: the offender, its kind and points, and who is paid. Players,
    # not seats: a seat swap moves the hands' seats, and the penalty follows its player.
    offender = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
        verbose_name=_("offender"),
    )
    penalty_kind = models.CharField(
        _("penalty"), max_length=16, blank=True, choices=[(k.value, k.value) for k in PenaltyKind]
    )
    penalty_points = models.PositiveIntegerField(_("points"), null=True, blank=True)
    beneficiary = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
        verbose_name=_("paid to"),
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("referee"),
    )
    ruled_at = models.DateTimeField(_("ruled at"), default=timezone.now)
    # The one-time key of the form the ruling was given with: sent again (a double tap, Back
    # then send), it is the ruling stored the first time, its penalty counted once.
    key = models.UUIDField(unique=True, null=True, blank=True)
    history = TournamentHistory()

    class Meta:
        ordering = ["ruled_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(hand__isnull=True) | Q(hand__gte=1, hand__lte=HANDS_PER_SESSION),
                name="ruling_hand_1_to_16",
            ),
            models.CheckConstraint(condition=~Q(decision=""), name="ruling_has_decision"),
            # A penalty names its hand, its offender, its kind and points; none names none.
            models.CheckConstraint(
                condition=(
                    Q(penalty_kind="", penalty_points__isnull=True, beneficiary__isnull=True)
                    | (
                        Q(
                            penalty_kind__in=[k.value for k in PenaltyKind],
                            penalty_points__gte=1,
                            offender__isnull=False,
                            hand__isnull=False,
                        )
                        & (
                            Q(penalty_kind=PenaltyKind.TO_ONE, beneficiary__isnull=False)
                            & ~Q(beneficiary=F("offender"))
                            | ~Q(penalty_kind=PenaltyKind.TO_ONE) & Q(beneficiary__isnull=True)
                        )
                    )
                ),
                name="ruling_penalty_complete",
            ),
        ]

    def __str__(self):
        return f"{self.table} · {_('ruling')} {self.pk}"

    @property
    def gives_penalty(self) -> bool:
        return bool(self.penalty_kind)


class Appeal(models.Model):
    """A ruling appealed within the tournament's appeal time, and the decision on it: upheld,
    or changed, with the penalty it gives instead (none: withdrawn)."""

    PENDING, UPHELD, CHANGED = "", "upheld", "changed"
    DECISION_CHOICES = [
        (PENDING, _("Waiting for a decision")),
        (UPHELD, _("Upheld")),
        (CHANGED, _("Changed")),
    ]

    ruling = models.OneToOneField(Ruling, on_delete=models.CASCADE, related_name="appeal")
    grounds = models.CharField(_("grounds"), max_length=1000, validators=[validate_multi_line])
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("appealed by"),
    )
    lodged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    lodged_at = models.DateTimeField(_("appealed at"), default=timezone.now)
    decision = models.CharField(
        _("decision"), max_length=8, blank=True, choices=DECISION_CHOICES, default=PENDING
    )
    decision_text = models.CharField(
        _("reasons"), max_length=1000, blank=True, validators=[validate_multi_line]
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    # What the ruling gave before a change: the penalty's kind, points, offender and who was
    # paid ({} when it gave none), kept with the appeal that changed it.
    previous = models.JSONField(default=dict, blank=True)
    history = TournamentHistory()

    class Meta:
        ordering = ["lodged_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(grounds=""), name="appeal_has_grounds"),
            models.CheckConstraint(
                condition=Q(decision="", decided_at__isnull=True)
                | Q(decision__in=["upheld", "changed"], decided_at__isnull=False),
                name="appeal_decided_has_time",
            ),
        ]

    def __str__(self):
        return f"{self.ruling} · {_('appeal')}"
