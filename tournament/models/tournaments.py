"""A tournament, its version, its players, and its sessions with their tables and seats."""

import secrets
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.history.audit import TournamentHistory
from tournament.language.formatting import SEAT_LABELS
from tournament.models.validators import one_line_field, validate_time_zone
from tournament.scoring.profiles import DEFAULT_PROFILE, PROFILES, SEED, SESSION_ENDS
from tournament.scoring.rules import HIGHEST_MINIMUM_FAN, KONG_READINGS, LOWEST_MINIMUM_FAN, Rules
from tournament.seating import HANDS_PER_SESSION

SEAT_CHOICES = [(i, label) for i, label in enumerate(SEAT_LABELS)]

# Standings are ordered by these criteria, in the order the tournament chooses.
TIEBREAK_CHOICES = [
    ("table_points", _("Table points")),
    ("score", _("Total score")),
    ("first_places", _("Number of 1st places")),
    ("second_places", _("Number of 2nd places")),
    ("third_places", _("Number of 3rd places")),
    ("fourth_places", _("Number of 4th places")),
    ("best_session", _("Best session score")),
    ("hands_won", _("Hands won")),
    ("player_number", _("Player number")),
]
DEFAULT_TIEBREAK_ORDER = ",".join(SEED.tiebreaks)

# The rule profiles a tournament starts from (``scoring.profiles``), and the options each
# presets: the organiser may change any of them (``services.rules``).
RULE_PROFILE_CHOICES = [
    ("seed", _("MCR as the seed documents")),
    ("ema", _("EMA (the English rule book and the EMA's regulations)")),
    ("mil_china_2025", _("Mahjong International League (China, 2025)")),
]
assert [key for key, _label in RULE_PROFILE_CHOICES] == list(PROFILES)
KONG_READING_CHOICES = [
    (3, _("3: Melded Kong (1) + Concealed Kong (2)")),
    (5, _("5: the fan 明暗杠 (Melded and Concealed Kong)")),
    (6, _("6: Two Melded Kongs (4) + Concealed Kong (2)")),
]
assert [value for value, _label in KONG_READING_CHOICES] == list(KONG_READINGS)
SESSION_END_CHOICES = [
    ("bell", _("At the bell: the hand in play is abandoned")),
    ("gong", _("After the gong: the hand in play is finished, no new hand starts")),
]
assert [value for value, _label in SESSION_END_CHOICES] == list(SESSION_ENDS)


def preset_json(presets) -> list[dict]:
    """Penalty presets (``scoring.profiles.PenaltyPreset``) as a tournament stores them."""
    return [{"offence": p.offence, "kind": p.kind.value, "points": list(p.points)} for p in presets]


def default_penalty_presets() -> list[dict]:
    return preset_json(SEED.penalty_presets)


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


def default_time_zone() -> str:
    """A new tournament's time zone when its organiser gives none: the site's."""
    return settings.TIME_ZONE


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
    name = one_line_field(pgettext_lazy("tournament", "name"), max_length=200)
    slug = models.SlugField(_("short name in addresses"), max_length=60, unique=True)
    # When and where: said on the public page, carried by the API, the workbook and the
    # EMA file. Every time the site shows or sends about the tournament is in its zone.
    first_day = models.DateField(_("first day"), null=True, blank=True)
    last_day = models.DateField(_("last day"), null=True, blank=True)
    venue = one_line_field(_("venue"), max_length=200, blank=True)
    city = one_line_field(_("city"), max_length=100, blank=True)
    country = one_line_field(_("country"), max_length=100, blank=True)
    website = models.URLField(_("website"), max_length=300, blank=True)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=default_time_zone,
        validators=[validate_time_zone],
    )
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
    # The rules the tournament plays: the profile it started from, then each option
    # (``scoring.profiles``, docs/rules.md). Fixed once a hand is entered, unless changed
    # with a reason (``services.rules.rules_change``).
    rule_profile = models.CharField(
        _("rules"), max_length=20, choices=RULE_PROFILE_CHOICES, default=DEFAULT_PROFILE
    )
    melded_and_concealed_kong = models.PositiveSmallIntegerField(
        _("one melded and one concealed kong"),
        choices=KONG_READING_CHOICES,
        default=SEED.rules.melded_and_concealed_kong,
    )
    flowers = models.BooleanField(_("flowers played"), default=SEED.rules.flowers)
    blessings = models.BooleanField(
        _("Heavenly, Earthly and Human Hand count (8 each)"), default=SEED.rules.blessings
    )
    minimum_fan = models.PositiveSmallIntegerField(
        _("minimum fan to win (flowers not counted)"),
        default=SEED.rules.minimum_fan,
        validators=[
            MinValueValidator(LOWEST_MINIMUM_FAN),
            MaxValueValidator(HIGHEST_MINIMUM_FAN),
        ],
    )
    session_end = models.CharField(
        _("end of a session"), max_length=8, choices=SESSION_END_CHOICES, default="bell"
    )
    gong_minute = models.PositiveSmallIntegerField(
        _("the gong sounds at (minutes into the session)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
    )
    # [{"offence": code, "kind": penalty kind, "points": [first the usual, then others]}],
    # checked by ``services.rules`` (the offences are the rulings' module's)
    penalty_presets = models.JSONField(_("penalty presets"), default=default_penalty_presets)
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
    # How long after a session is closed its rulings may still be appealed (the Chinese
    # competition rules: 30 minutes).
    appeal_minutes = models.PositiveSmallIntegerField(
        _("appeals accepted for (minutes after a session closes)"),
        default=30,
        validators=[MaxValueValidator(24 * 60)],
    )
    # A draw is kept from the players (their links, the screen, the seating pages and
    # e-mails) until the organiser publishes it; otherwise it is public once made.
    review_draws = models.BooleanField(_("review each draw before players see it"), default=False)
    # A qualifying tournament weighs more in the EMA's ranking (``rankings.ema_checks``).
    ema_qualifying = models.BooleanField(_("qualifying tournament for the EMA"), default=False)
    # Sign-up on the tournament's public form (``SignUp``): open or not, until when, how many
    # players, and whether each sign-up waits for an organiser's acceptance.
    sign_up_open = models.BooleanField(_("players may sign up"), default=False)
    sign_up_closes_at = models.DateTimeField(_("sign-up closes at"), null=True, blank=True)
    player_cap = models.PositiveIntegerField(
        _("most players"), null=True, blank=True, validators=[MinValueValidator(4)]
    )
    sign_up_review = models.BooleanField(
        _("each sign-up waits for an organiser's acceptance"), default=True
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
            models.CheckConstraint(
                condition=Q(first_day__isnull=True)
                | Q(last_day__isnull=True)
                | Q(last_day__gte=models.F("first_day")),
                name="tournament_days_in_order",
            ),
            models.CheckConstraint(
                condition=Q(melded_and_concealed_kong__in=KONG_READINGS)
                & Q(minimum_fan__gte=LOWEST_MINIMUM_FAN, minimum_fan__lte=HIGHEST_MINIMUM_FAN),
                name="tournament_scoring_options",
            ),
            models.CheckConstraint(
                condition=Q(session_end="bell", gong_minute__isnull=True)
                | Q(
                    session_end="gong",
                    gong_minute__gte=1,
                    gong_minute__lte=models.F("session_minutes"),
                ),
                name="tournament_gong_within_session",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournament", args=[self.slug])

    def clean(self):
        super().clean()
        if self.session_end == "gong" and self.gong_minute is None:
            raise ValidationError(
                {
                    "gong_minute": ValidationError(
                        _("Say when the gong sounds."), "gong_minute_required"
                    )
                }
            )
        if self.session_end == "gong" and self.gong_minute > (self.session_minutes or 0):
            raise ValidationError(
                {
                    "gong_minute": ValidationError(
                        _("The gong sounds within the session's time."), "gong_after_session"
                    )
                }
            )
        if self.session_end == "bell":
            self.gong_minute = None
        if self.first_day and self.last_day and self.last_day < self.first_day:
            raise ValidationError(
                {"last_day": _("The last day cannot come before the first day.")},
                code="days_out_of_order",
            )

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The tournament's time zone, in which its pages, e-mails and files give every
        time (``validate_time_zone`` keeps the name one the machine knows)."""
        return zoneinfo.ZoneInfo(self.time_zone)

    @property
    def rules(self) -> Rules:
        """The scoring options the tournament plays, for the scoring core."""
        return Rules(
            melded_and_concealed_kong=self.melded_and_concealed_kong,
            flowers=self.flowers,
            blessings=self.blessings,
            minimum_fan=self.minimum_fan,
        )

    @property
    def tiebreaks(self) -> list[str]:
        return [key for key in self.tiebreak_order.split(",") if key]


def new_standings_stamp() -> int:
    """A fresh value for ``TournamentVersion.standings``."""
    return secrets.randbits(62)


class TournamentVersion(models.Model):
    """A number that every write to a tournament's data raises, in the write's transaction:
    what is computed from the data (standings, the workbook) is cached under it, and a
    cached copy under an older number is never used again.

    ``seating`` is raised by every write but those that cannot change the seating (hands,
    table confirmations, sessions opened and closed, referees, clocks, device links): the
    seating figures, recounted from every seat, are cached under it, so that they survive
    the thousands of hands entered while a session is played.

    ``standings`` changes with every write that can change the standings other than by the
    results of a table (players, seats, the tie-breaks), and with every write that raises
    ``seating`` (a draw published, say): a new random value each time, so that no two states
    of any tournament share one, even after a restore. The cached standings and seating are
    kept under it with ``number`` or ``seating`` (``selectors.lookups.seating_key``): never
    taken for another tournament's that had the same id and version.

    ``exports`` is raised when a download's file of the tournament is stored
    (``services.exports.export_build``, which removes the older ones in the same
    transaction): the standings page says beside a download's link when it gives an older
    version's file, and is kept under it."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="version"
    )
    number = models.PositiveBigIntegerField(default=1)
    seating = models.PositiveBigIntegerField(default=1)
    standings = models.BigIntegerField(default=new_standings_stamp)
    exports = models.PositiveBigIntegerField(default=0)
    # Raised by every call, ruling and appeal: the desk's and the tablets' polls answer "not
    # changed" (304) under it, without reading the calls.
    desk = models.PositiveBigIntegerField(default=0)

    def __str__(self):
        return f"{self.tournament_id} v{self.number}"


# A country and an EMA number as the EMA writes them (``tournament.players.federation``), or
# none: one constraint for both codes, since each constraint checked costs a query in
# full_clean().
FEDERATION_CODES = (Q(country="") | Q(country__regex=r"^[A-Z]{3}$")) & (
    Q(ema_number="") | Q(ema_number__regex=r"^[0-9]{8}$")
)

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
    "email",
    "ema_guest",
)


class Player(models.Model):
    """A registered player. ``name`` is shown everywhere; ``first_name`` and ``last_name`` are
    what federations ask for, kept in step with it (``tournament.players.names``). ``country`` and
    ``ema_number`` are as the EMA writes them (``tournament.players.federation``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveIntegerField(_("number"), validators=[MinValueValidator(1)])
    name = one_line_field(pgettext_lazy("player", "name"), max_length=120)
    first_name = one_line_field(_("first name"), max_length=60, blank=True)
    last_name = one_line_field(_("last name"), max_length=60, blank=True)
    name_zh = one_line_field(_("Chinese name"), max_length=60, blank=True)
    team = one_line_field(_("team or club"), max_length=120, blank=True)
    # Three capital letters. The column keeps the width it had when countries were free
    # text, so that the history's earlier values (full names) stay as they were written.
    country = one_line_field(_("country"), max_length=60, blank=True)
    # What the country field held before countries were codes, when no code could be found
    # for it: shown to the organiser until they give the player's country again.
    country_unrecognised = models.CharField(
        _("country as written before codes"), max_length=60, blank=True
    )
    ema_number = models.CharField(_("EMA number"), max_length=8, blank=True)
    is_substitute = models.BooleanField(_("substitute"), default=False)
    # Plays as a guest of the EMA's results: no EMA number and no country expected.
    ema_guest = models.BooleanField(_("EMA guest (not a member)"), default=False)
    # Where the player is told their table and seat; never shown on a public page or in a
    # public file.
    email = models.EmailField(_("e-mail"), blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    # Raised to revoke the player's own link (a lost badge): the link carries it
    # (``tournament.players.player_links``).
    link_version = models.PositiveIntegerField(default=1)
    # The same person in other tournaments (``people.Person``): by EMA number, or linked by
    # an organiser.
    person = models.ForeignKey(
        "tournament.Person",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
        verbose_name=_("person"),
    )
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
            models.CheckConstraint(
                condition=FEDERATION_CODES, name="player_country_and_ema_number_codes"
            ),
            # A person plays once in a tournament.
            models.UniqueConstraint(
                fields=["tournament", "person"],
                condition=Q(person__isnull=False),
                name="person_once_per_tournament",
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
    # When players could first see the draw: at once, or when the organiser published it
    # after reviewing it (``Tournament.review_draws``). None while under review.
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    history = TournamentHistory()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="session_drawn_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_positive"),
            models.CheckConstraint(condition=Q(seed__gte=0), name="session_seed_not_negative"),
            # Players see the draw before they play it.
            models.CheckConstraint(
                condition=Q(opened_at__isnull=True) | Q(published_at__isnull=False),
                name="session_published_before_play",
            ),
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
    def is_published(self) -> bool:
        return self.published_at is not None

    @property
    def is_in_play(self) -> bool:
        return self.opened_at is not None and self.closed_at is None


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
    # The withdrawn player a substitute stands in for when the draw itself seated the
    # substitute (``seating.replacements``). Unlike ``replaces``, the draw gave this seat to
    # its player: the draw stays checkable as it is.
    stands_in_for = models.ForeignKey(
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
    # The hands the seat won at its table (a tie-break some rules rank by: "hands_won"),
    # stored with the rest of its result.
    hands_won = models.PositiveSmallIntegerField(default=0)
    history = TournamentHistory(
        excluded_fields=["score", "place", "table_points_twelfths", "hands_won"]
    )

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
