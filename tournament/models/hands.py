"""A table's hands as entered, their penalties, the one-time keys of the forms that sent them,
their earlier versions, and the reopenings of confirmed tables."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournament.history.audit import TournamentHistory
from tournament.language.formatting import SEAT_LABELS
from tournament.models.tournaments import SEAT_CHOICES, Table
from tournament.models.validators import one_line_field, validate_multi_line
from tournament.scoring import MAX_FLOWERS, Outcome, PenaltyKind
from tournament.scoring.rules import LOWEST_MINIMUM_FAN
from tournament.seating import HANDS_PER_SESSION


class Hand(models.Model):
    """One hand as the referee entered it, with its settled points per seat."""

    OUTCOME_CHOICES = [
        (Outcome.SELF_DRAWN.value, _("Win by self-draw")),
        (Outcome.DISCARD.value, _("Win on a discard")),
        (Outcome.DRAW.value, _("Draw")),
        (Outcome.NOT_PLAYED.value, _("Not played")),
    ]
    WINS = [Outcome.SELF_DRAWN.value, Outcome.DISCARD.value]

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("hand"))
    outcome = models.CharField(_("result"), max_length=12, choices=OUTCOME_CHOICES)
    winner = models.PositiveSmallIntegerField(
        _("winner"), null=True, blank=True, choices=SEAT_CHOICES
    )
    discarder = models.PositiveSmallIntegerField(
        _("discarder"), null=True, blank=True, choices=SEAT_CHOICES
    )
    fan = models.PositiveSmallIntegerField(_("fan (without flowers)"), null=True, blank=True)
    flowers = models.PositiveSmallIntegerField(_("flowers"), default=0)
    fan_names = models.CharField(_("fans claimed"), max_length=500, blank=True)
    # The winning hand in the referee notation, when entered, and the fan the
    # calculator found for it: kept beside the referee's own figure, which decides.
    winning_hand = models.CharField(_("winning hand"), max_length=200, blank=True)
    computed_fan = models.PositiveSmallIntegerField(
        _("computed fan (without flowers)"), null=True, blank=True
    )
    # The referee kept their fan figure or their claimed fans although the calculator
    # disputed them (the hand service refuses such a hand without this explicit choice).
    referee_figure_kept = models.BooleanField(_("referee's figure kept"), default=False)
    # Settled points including penalties, stored so sheets and exports read the
    # exact figures the referee saw; the scoring core recomputes them on every save.
    points_p1 = models.IntegerField(default=0)
    points_p2 = models.IntegerField(default=0)
    points_p3 = models.IntegerField(default=0)
    points_p4 = models.IntegerField(default=0)
    deducted = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Set when the entry came through a table's device link rather than a logged-in account:
    # which link (its short id), so a correction can be traced to the tablet that made it.
    entered_by_device = models.CharField(_("entered by table device"), max_length=40, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = TournamentHistory()

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_once_per_table"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=HANDS_PER_SESSION),
                name="hand_number_1_to_16",
            ),
            models.CheckConstraint(
                condition=Q(flowers__lte=MAX_FLOWERS), name="hand_flowers_at_most_8"
            ),
            models.CheckConstraint(
                condition=(
                    Q(
                        outcome__in=[Outcome.SELF_DRAWN, Outcome.DISCARD],
                        winner__isnull=False,
                        winner__lte=3,
                        # The tournament's minimum is the hand service's to check.
                        fan__gte=LOWEST_MINIMUM_FAN,
                    )
                    | Q(
                        outcome__in=[Outcome.DRAW, Outcome.NOT_PLAYED],
                        winner__isnull=True,
                        discarder__isnull=True,
                        fan__isnull=True,
                        flowers=0,
                    )
                ),
                name="hand_win_has_winner_and_minimum_fan",
            ),
            models.CheckConstraint(
                condition=(
                    Q(outcome=Outcome.DISCARD, discarder__isnull=False, discarder__lte=3)
                    & ~Q(discarder=F("winner"))
                )
                | (~Q(outcome=Outcome.DISCARD) & Q(discarder__isnull=True)),
                name="hand_discarder_only_on_discard_win_and_not_winner",
            ),
            models.CheckConstraint(
                condition=Q(
                    points_p1=-F("points_p2") - F("points_p3") - F("points_p4") - F("deducted")
                ),
                name="hand_points_sum_to_minus_deducted",
            ),
        ]

    def __str__(self):
        return f"{self.table} · {_('hand')} {self.number}"

    @property
    def points(self) -> tuple[int, int, int, int]:
        return (self.points_p1, self.points_p2, self.points_p3, self.points_p4)

    @property
    def is_win(self) -> bool:
        return self.outcome in self.WINS


class Penalty(models.Model):
    KIND_CHOICES = [
        (PenaltyKind.TO_EACH_OTHER.value, _("Paid to each other player")),
        (PenaltyKind.TO_ONE.value, _("Paid to one player")),
        (PenaltyKind.DEDUCTED.value, _("Deducted (leaves the table)")),
    ]

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="penalties")
    offender = models.PositiveSmallIntegerField(_("offender"), choices=SEAT_CHOICES)
    kind = models.CharField(_("kind"), max_length=16, choices=KIND_CHOICES)
    points = models.PositiveIntegerField(_("points"))
    beneficiary = models.PositiveSmallIntegerField(
        _("paid to"), null=True, blank=True, choices=SEAT_CHOICES
    )
    reason = one_line_field(_("reason"), max_length=200)
    # The desk's ruling that gave this penalty: the hand service writes such a penalty from
    # the ruling, never from the entry form (``services.hands.ruled_penalties``).
    ruling = models.ForeignKey(
        "tournament.Ruling",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="penalties",
    )
    history = TournamentHistory()

    class Meta:
        ordering = ["hand", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(points__gte=1), name="penalty_points_positive"),
            models.CheckConstraint(condition=Q(offender__lte=3), name="penalty_offender_seat"),
            models.CheckConstraint(
                condition=(
                    Q(kind=PenaltyKind.TO_ONE, beneficiary__isnull=False, beneficiary__lte=3)
                    & ~Q(beneficiary=F("offender"))
                )
                | (~Q(kind=PenaltyKind.TO_ONE) & Q(beneficiary__isnull=True)),
                name="penalty_beneficiary_only_when_paid_to_one",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="penalty_has_reason"),
        ]

    def __str__(self):
        return f"{self.hand}: {SEAT_LABELS[self.offender]} {self.kind} {self.points}"


class HandSubmission(models.Model):
    """The one-time key an entry form carried, the digest of what it entered, and the hand
    version its save produced.

    A form repeated with the same key and the same content (a double tap, a reload, Back
    then Save, a tablet retrying after a lost answer) gets the original save back, never a
    second hand; the same key with other content is refused as a conflict, never answered
    "saved" (``services.hands``).
    """

    key = models.UUIDField(unique=True)
    # ``services.hands.entry_digest`` of the entry saved; "" for the keys stored before
    # digests were kept, which match any content as every key did then.
    digest = models.CharField(max_length=64, blank=True, default="")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="submissions")
    version = models.PositiveIntegerField()
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "version"]

    def __str__(self):
        return f"{self.hand} v{self.version} ({self.key})"


class HandRevision(models.Model):
    """What a hand was before a correction: nothing a referee entered is lost."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField()
    previous = models.JSONField()
    # The desk's ruling this correction carries out, when it does (its reason).
    ruling = models.ForeignKey(
        "tournament.Ruling", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revised_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "version"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "version"], name="one_revision_per_version"),
        ]

    def __str__(self):
        return f"{self.hand} v{self.version}"


class TableReopening(models.Model):
    """An organiser's correction after a table was confirmed, with its reason."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reopenings")
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reopened_at = models.DateTimeField(auto_now_add=True)
    reason = models.CharField(_("reason"), max_length=500, validators=[validate_multi_line])
    history = TournamentHistory()

    class Meta:
        ordering = ["table", "reopened_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="reopening_has_reason"),
        ]

    def __str__(self):
        return f"{self.table}: {self.reason}"
