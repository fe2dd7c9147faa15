"""People across tournaments, and the series that rank them.

A ``Person`` is someone who plays in several tournaments: each tournament's ``Player`` of them
links to the person (by EMA number when the player has one, by an organiser's choice
otherwise), so a series can add up their results and their page can list them. A ``Series``
is a set of tournaments ranked together by one rule (``tournament.rankings.series``).
"""

import itertools
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.history.audit import TournamentHistory
from tournament.models.tournaments import FEDERATION_CODES, Tournament
from tournament.models.validators import one_line_field


class Person(models.Model):
    """Someone who plays; named and coded as the player they were first linked from."""

    name = one_line_field(pgettext_lazy("player", "name"), max_length=120)
    name_zh = one_line_field(_("Chinese name"), max_length=60, blank=True)
    country = one_line_field(_("country"), max_length=60, blank=True)
    ema_number = models.CharField(_("EMA number"), max_length=8, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    history = TournamentHistory()

    class Meta:
        ordering = ["name", "pk"]
        verbose_name_plural = "people"
        constraints = [
            models.UniqueConstraint(
                fields=["ema_number"], condition=~Q(ema_number=""), name="person_ema_number_unique"
            ),
            models.CheckConstraint(
                condition=FEDERATION_CODES, name="person_country_and_ema_number_codes"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("person", args=[self.pk])

    @property
    def display_name(self) -> str:
        return f"{self.name} ({self.name_zh})" if self.name_zh else self.name


# How a series ranks its people (``tournament.rankings.series``).
SERIES_RULE_CHOICES = [
    ("best", _("Best results by table points")),
    ("places", _("Points by place in each tournament")),
]


# The points one place earns, at most: six digits.
PLACE_POINTS_DIGITS = re.compile(r"[0-9]{1,6}")


def parse_place_points(text: str) -> list[int]:
    """The points of places 1, 2, 3… as written in a series' table ("20, 15, 12"): whole
    numbers of at most six digits, none above the place before; raises ValidationError
    otherwise."""
    parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
    if not parts or not all(PLACE_POINTS_DIGITS.fullmatch(part) for part in parts):
        raise ValidationError(
            _(
                "Write the points of places 1, 2, 3… as whole numbers (at most 999999), "
                "separated by commas."
            ),
            code="place_points_invalid",
        )
    points = [int(part) for part in parts]
    if any(later > earlier for earlier, later in itertools.pairwise(points)):
        raise ValidationError(
            _("A place cannot earn more points than the place before it."),
            code="place_points_not_decreasing",
        )
    return points


def validate_place_points(text: str) -> None:
    parse_place_points(text)


class Series(models.Model):
    """Tournaments ranked together: a season of a club or a national ranking."""

    name = one_line_field(pgettext_lazy("series", "name"), max_length=200)
    slug = models.SlugField(_("short name in addresses"), max_length=60, unique=True)
    rule = models.CharField(
        _("ranking rule"), max_length=8, choices=SERIES_RULE_CHOICES, default="best"
    )
    # How many of a person's results count (their best ones); none: all of them.
    counted_results = models.PositiveSmallIntegerField(
        _("results counted per person"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Each person's best results count; leave empty to count them all."),
    )
    place_points = models.CharField(
        _("points by place"),
        max_length=500,
        blank=True,
        validators=[validate_place_points],
        help_text=_("Points of places 1, 2, 3… in each tournament, e.g. 20, 15, 12, 10."),
    )
    tournaments = models.ManyToManyField(
        Tournament, related_name="series", blank=True, verbose_name=_("tournaments")
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_series", blank=True
    )
    # Raised by every change to the series (its rule, its tournaments): the ranking is
    # cached under it and the versions of its tournaments.
    version = models.PositiveBigIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    history = TournamentHistory(m2m_fields=["tournaments", "organisers"])

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name_plural = "series"
        constraints = [
            models.CheckConstraint(
                condition=Q(rule__in=["best", "places"]), name="series_rule_known"
            ),
            models.CheckConstraint(
                condition=Q(counted_results__isnull=True) | Q(counted_results__gte=1),
                name="series_counted_results_positive",
            ),
            models.CheckConstraint(
                condition=~Q(rule="places") | ~Q(place_points=""),
                name="series_places_rule_has_points",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("series", args=[self.slug])
