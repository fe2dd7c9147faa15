"""Data of a tournament and the invariants the database can enforce.

Behaviour lives in ``services`` (writes), ``selectors`` (reads) and the pure
cores ``scoring`` and ``seating``; the models only hold data and constraints.

Every model holding tournament data keeps its history (``history``, see
``tournament.history.audit``): who changed what, when, before and after.
``HandSubmission`` (a form's one-time key) and ``HandRevision`` (itself a copy of a hand's
past, which the sheet lists) keep none.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.history.audit import TournamentHistory
from tournament.language.formatting import SEAT_LABELS
from tournament.scoring import MAX_FLOWERS, MIN_FAN, Outcome, PenaltyKind
from tournament.seating import HANDS_PER_SESSION

SEAT_CHOICES = [(i, label) for i, label in enumerate(SEAT_LABELS)]

# Standings are ordered by these criteria, in the order the tournament chooses.
TIEBREAK_CHOICES = [
    ("table_points", _("Table points")),
    ("score", _("Total score")),
    ("first_places", _("Number of 1st places")),
    ("best_session", _("Best session score")),
]
DEFAULT_TIEBREAK_ORDER = "table_points,score,first_places,best_session"

# How a session's seats are chosen. "planned" seats every session from one schedule planned
# for the whole tournament (no pair meets twice where possible); the session modes seat one
# session at a time; "lot" is the first draw by lot (sha256 of "seed:number"), kept so that
# tournaments drawn with it stay checkable.
SEATING_METHOD_CHOICES = [
    ("planned", _("Planned for the whole tournament (the fewest repeated meetings possible)")),
    ("random", _("Session by session, at random, avoiding repeated meetings where it can")),
    ("standings", _("By standings (ranks 1–4 at table 1, 5–8 at table 2, …)")),
    ("serpentine", _("Serpentine (one player of each quarter of the ranking per table)")),
    ("top_tables", _("Top tables by standings, the others at random (final session)")),
    ("lot", _("Draw by lot, checkable with SHA-256 (no repeat avoidance)")),
]
# New tournaments are planned as a whole: the fewest repeated meetings mathematics allows (none
# when there are enough players for the sessions).
DEFAULT_SEATING_METHOD = "planned"
# Federations count at most this many substitutes in a tournament's results unless the
# tournament says otherwise (a warning, never a refusal: the seat is still given).
DEFAULT_SUBSTITUTE_LIMIT = 3
SEPARATE_BY_CHOICES = [
    ("", _("Nothing")),
    ("team", _("Team or club")),
    ("country", _("Country")),
]


def validate_tiebreak_order(value: str) -> None:
    keys = [key for key in value.split(",") if key]
    known = {key for key, _label in TIEBREAK_CHOICES}
    if not keys or any(key not in known for key in keys) or len(set(keys)) != len(keys):
        raise ValidationError(
            _("Choose ranking criteria among %(known)s, each once.")
            % {"known": ", ".join(sorted(known))},
            code="invalid_tiebreak_order",
        )


class Tournament(models.Model):
    name = models.CharField(pgettext_lazy("tournament", "name"), max_length=200)
    slug = models.SlugField(_("short name in addresses"), max_length=60, unique=True)
    session_count = models.PositiveSmallIntegerField(
        _("number of sessions"),
        default=4,
        validators=[MinValueValidator(1), MaxValueValidator(30)],
    )
    session_minutes = models.PositiveSmallIntegerField(
        _("session time limit (minutes)"),
        default=150,
        validators=[MinValueValidator(10), MaxValueValidator(600)],
    )
    tiebreak_order = models.CharField(
        _("ranking order"),
        max_length=200,
        default=DEFAULT_TIEBREAK_ORDER,
        validators=[validate_tiebreak_order],
    )
    seating_method = models.CharField(
        _("seating method"),
        max_length=12,
        choices=SEATING_METHOD_CHOICES,
        default=DEFAULT_SEATING_METHOD,
    )
    separate_by = models.CharField(
        _("keep apart players of the same"),
        max_length=8,
        choices=SEPARATE_BY_CHOICES,
        default="",
        blank=True,
    )
    substitute_limit = models.PositiveSmallIntegerField(
        _("substitutes the federation counts"),
        default=DEFAULT_SUBSTITUTE_LIMIT,
        validators=[MinValueValidator(0)],
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_tournaments", blank=True
    )
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="refereed_tournaments", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Settings and the lists of organisers and referees, as they were after each change.
    history = TournamentHistory(m2m_fields=["organisers", "referees"])

    class Meta:
        ordering = ["-created_at", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(session_count__gte=1), name="tournament_session_count_positive"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournament", args=[self.slug])

    @property
    def tiebreaks(self) -> list[str]:
        return [key for key in self.tiebreak_order.split(",") if key]


class TournamentVersion(models.Model):
    """A number that every write to a tournament's data raises, in the write's transaction:
    what is computed from the data (standings, the workbook) is cached under it, and a
    cached copy under an older number is never used again.

    ``seating`` is raised by every write but those that cannot change the seating (hands,
    table confirmations, sessions opened and closed, referees, clocks, device links): the
    seating figures, recounted from every seat, are cached under it, so that they survive
    the thousands of hands entered while a session is played."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="version"
    )
    number = models.PositiveBigIntegerField(default=1)
    seating = models.PositiveBigIntegerField(default=1)

    def __str__(self):
        return f"{self.tournament_id} v{self.number}"


# What an organiser sets on a player (the form, the import file, the service).
PLAYER_FIELDS = (
    "number",
    "name",
    "first_name",
    "last_name",
    "name_zh",
    "team",
    "country",
    "ema_number",
    "is_substitute",
)


class Player(models.Model):
    """A registered player. ``name`` is shown everywhere; ``first_name`` and ``last_name`` are
    what federations ask for, kept in step with it (``tournament.players.names``). ``country`` and
    ``ema_number`` are as the EMA writes them (``tournament.exports.federation``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveIntegerField(_("number"), validators=[MinValueValidator(1)])
    name = models.CharField(pgettext_lazy("player", "name"), max_length=120)
    first_name = models.CharField(_("first name"), max_length=60, blank=True)
    last_name = models.CharField(_("last name"), max_length=60, blank=True)
    name_zh = models.CharField(_("Chinese name"), max_length=60, blank=True)
    team = models.CharField(_("team or club"), max_length=120, blank=True)
    # Three capital letters. The column keeps the width it had when countries were free
    # text, so that the history's earlier values (full names) stay as they were written.
    country = models.CharField(_("country"), max_length=60, blank=True)
    # What the country field held before countries were codes, when no code could be found
    # for it: shown to the organiser until they give the player's country again.
    country_unrecognised = models.CharField(
        _("country as written before codes"), max_length=60, blank=True
    )
    ema_number = models.CharField(_("EMA number"), max_length=8, blank=True)
    is_substitute = models.BooleanField(_("substitute"), default=False)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    history = TournamentHistory()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="player_number_unique_in_tournament"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="player_number_positive"),
            models.UniqueConstraint(
                fields=["tournament", "ema_number"],
                condition=~Q(ema_number=""),
                name="player_ema_number_unique_in_tournament",
            ),
            # One constraint for both codes: each one checked costs a query in full_clean().
            models.CheckConstraint(
                condition=(Q(country="") | Q(country__regex=r"^[A-Z]{3}$"))
                & (Q(ema_number="") | Q(ema_number__regex=r"^[0-9]{8}$")),
                name="player_country_and_ema_number_codes",
            ),
        ]

    def __str__(self):
        return f"{self.number} {self.name}"

    @property
    def is_active(self) -> bool:
        return self.withdrawn_at is None

    @property
    def display_name(self) -> str:
        return f"{self.name} ({self.name_zh})" if self.name_zh else self.name


class Session(models.Model):
    """One tournament round: every table plays it at the same time."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveSmallIntegerField(_("session"))
    seed = models.BigIntegerField(_("draw seed"))
    # Every draw records its method; sessions drawn before there were methods were by lot.
    method = models.CharField(
        _("seating method"), max_length=12, choices=SEATING_METHOD_CHOICES, default="lot"
    )
    # For the session-by-session methods: exactly what the draw was computed from (players,
    # earlier tables, ranking, groups), so `python -m tournament.seating session` re-runs it.
    draw_input = models.JSONField(null=True, blank=True)
    # Raised to revoke every table-device link of the session at once (the links carry it).
    device_links_version = models.PositiveIntegerField(default=1)
    drawn_at = models.DateTimeField(auto_now_add=True)
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    history = TournamentHistory()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="session_drawn_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_positive"),
            models.CheckConstraint(condition=Q(seed__gte=0), name="session_seed_not_negative"),
        ]

    def __str__(self):
        return f"{self.tournament} · {_('session')} {self.number}"

    @property
    def status(self) -> str:
        if self.closed_at:
            return "closed"
        if self.opened_at:
            return "in_play"
        return "drawn"

    @property
    def is_in_play(self) -> bool:
        return self.opened_at is not None and self.closed_at is None


class SeatingPlan(models.Model):
    """The published whole-tournament schedule of the "planned" method.

    ``sessions[s][t]`` lists table t+1 of session s+1 by registration number, East first.
    The schedule was planned for players 1..N of the command line, player i being
    ``first_players[i-1]``; ``players`` are those it seats now. After a re-plan (players
    changed) it no longer comes from the command alone: ``replan_inputs`` keeps each
    re-plan's input, which ``python -m tournament.seating replan`` runs again.
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="seating_plan"
    )
    seed = models.BigIntegerField(_("seed"))
    players = models.JSONField()
    # The players of the first plan, by registration number: command-line player i is
    # ``first_players[i - 1]``, whatever re-plans changed since.
    first_players = models.JSONField(default=list)
    # Each re-plan's input, in order, as the command line reads it (``seating.published``).
    replan_inputs = models.JSONField(default=list, blank=True)
    groups = models.JSONField(default=dict, blank=True)
    sessions = models.JSONField()
    stats = models.JSONField()
    # Sessions already drawn (by another method) when the plan was made: kept as drawn.
    fixed_sessions = models.PositiveSmallIntegerField(default=0)
    replans = models.PositiveSmallIntegerField(default=0)
    moved_seats = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = TournamentHistory()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(seed__gte=0), name="plan_seed_not_negative"),
        ]

    def __str__(self):
        return f"{self.tournament} · {_('seating plan')}"

    @property
    def reproducible(self) -> bool:
        """True when the command line gives exactly this schedule."""
        return self.fixed_sessions == 0 and self.replans == 0


class Table(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The referee who enters, corrects and confirms this table's hands (organisers may too).
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="refereed_tables",
        verbose_name=_("referee"),
    )
    # Minutes an organiser added to this table's session time (a late start, a dispute).
    extra_minutes = models.PositiveSmallIntegerField(
        _("extra minutes"), default=0, validators=[MaxValueValidator(240)]
    )
    # Raised to revoke this table's device link (a lost tablet): the link carries it.
    device_link_version = models.PositiveIntegerField(default=1)
    # The four players' initials, by starting seat, when they checked the sheet at confirmation.
    confirmed_initials = models.JSONField(_("players' initials"), default=list, blank=True)
    # How many of its hands are entered, kept with its seats' results (see ``Seat.score``).
    hands_entered = models.PositiveSmallIntegerField(default=0)
    history = TournamentHistory(excluded_fields=["hands_entered"])

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
            models.CheckConstraint(
                condition=Q(hands_entered__lte=HANDS_PER_SESSION), name="table_hands_entered_max"
            ),
        ]

    def __str__(self):
        return f"{self.session} · {_('table')} {self.number}"

    @property
    def is_confirmed(self) -> bool:
        return self.confirmed_at is not None


class Seat(models.Model):
    """A player's starting seat (P1..P4 = East..North at hand 1) for one session."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # RESTRICT, not PROTECT: a seated player cannot be deleted on their own, but deleting the
    # whole tournament (which deletes its sessions, hence the seats) is allowed.
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    seat = models.PositiveSmallIntegerField(choices=SEAT_CHOICES)
    lot = models.PositiveIntegerField()
    # The player the lot gave this seat, when an organiser later put someone else
    # in it (a withdrawal before play): the published draw stays checkable.
    replaces = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    # The seat's result at its table so far: the sum of its points in the hands entered, its
    # place and its exact table points in twelfths (7/3 is 28), or no place while no hand is
    # entered. Kept by the hand service in each hand's transaction (``services.results``) so
    # that standings add them up instead of settling every hand again; the history keeps
    # the hands they come from, and ``manage.py verify_results`` checks them against those.
    score = models.IntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    table_points_twelfths = models.PositiveSmallIntegerField(default=0)
    history = TournamentHistory(excluded_fields=["score", "place", "table_points_twelfths"])

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="one_seat_per_player"),
            models.UniqueConstraint(fields=["table", "seat"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["session", "lot"], name="one_lot_per_number"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="seat_is_p1_to_p4"),
            models.CheckConstraint(
                condition=Q(place__isnull=True, score=0, table_points_twelfths=0)
                | Q(place__gte=1, place__lte=4, table_points_twelfths__lte=48),
                name="seat_result_in_range",
            ),
        ]

    def __str__(self):
        return f"{self.table} {SEAT_LABELS[self.seat]}: {self.player}"


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
                        fan__gte=MIN_FAN,
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
    reason = models.CharField(_("reason"), max_length=200)
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
    """The one-time key an entry form carried, and the hand version its save produced.

    A form repeated with the same key (a double tap, a reload, Back then Save, a tablet
    retrying after a lost answer) gets the original save back, never a second hand.
    """

    key = models.UUIDField(unique=True)
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
    reason = models.CharField(_("reason"), max_length=500)
    history = TournamentHistory()

    class Meta:
        ordering = ["table", "reopened_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="reopening_has_reason"),
        ]

    def __str__(self):
        return f"{self.table}: {self.reason}"


class DrawCommitment(models.Model):
    """A tournament's first draw, committed before it is made (``seating.commitment``).

    ``document`` is the canonical commitment document, exactly as hashed; ``secret_seed`` and
    ``salt`` stay hidden until the draw reveals them (``revealed_at``). The public value
    promised (``public_value_source``) is typed in later, before the draw. A commitment
    withdrawn before the draw is kept, public, with its seed: at most one is live.
    ``drawn`` holds the sessions drawn under it, as drawn: the first draw, and for the
    planned method every later session taken from the committed schedule.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="draw_commitments"
    )
    hash = models.CharField(_("commitment hash"), max_length=64)
    document = models.TextField(_("commitment document"))
    secret_seed = models.BigIntegerField(_("secret seed"))
    salt = models.CharField(_("salt"), max_length=64)
    committed_at = models.DateTimeField(_("committed at"))
    public_value_source = models.CharField(_("public value promised"), max_length=200, blank=True)
    public_value = models.CharField(_("public value"), max_length=200, blank=True)
    public_value_at = models.DateTimeField(_("public value typed at"), null=True, blank=True)
    revealed_at = models.DateTimeField(_("revealed at"), null=True, blank=True)
    session_number = models.PositiveSmallIntegerField(_("session drawn"), null=True, blank=True)
    drawn = models.JSONField(default=dict, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    history = TournamentHistory()

    class Meta:
        ordering = ["tournament", "-committed_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(withdrawn_at__isnull=True),
                name="one_live_commitment_per_tournament",
            ),
            models.CheckConstraint(
                condition=Q(secret_seed__gte=0), name="commitment_seed_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(revealed_at__isnull=True) | Q(withdrawn_at__isnull=True),
                name="commitment_drawn_or_withdrawn_not_both",
            ),
            models.CheckConstraint(
                condition=Q(revealed_at__isnull=True) | Q(session_number__gte=1),
                name="commitment_revealed_by_a_session",
            ),
            models.CheckConstraint(
                condition=Q(public_value="") | ~Q(public_value_source=""),
                name="commitment_public_value_only_when_promised",
            ),
            models.CheckConstraint(
                condition=Q(public_value="", public_value_at__isnull=True)
                | (~Q(public_value="") & Q(public_value_at__isnull=False)),
                name="commitment_public_value_with_its_time",
            ),
        ]

    def __str__(self):
        return f"{self.tournament} · {_('draw commitment')} {self.hash[:12]}"

    @property
    def is_live(self) -> bool:
        """Not withdrawn: waiting for its draw, or drawn."""
        return self.withdrawn_at is None

    @property
    def seed_is_public(self) -> bool:
        """The seed and salt are shown once the draw revealed them or the commitment was
        withdrawn (never used, so anyone may check what it held)."""
        return self.revealed_at is not None or self.withdrawn_at is not None
