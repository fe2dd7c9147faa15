"""Sign-ups: a player's request to play, made on the tournament's public form, before the
organiser accepts it (or it is accepted at once), with the waiting list beyond the cap."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.history.audit import TournamentHistory
from tournament.models.tournaments import FEDERATION_CODES, Player, Tournament
from tournament.models.validators import one_line_field

# Where a sign-up stands: "pending" holds a place and waits for the organiser; "waiting" is
# on the waiting list (beyond the cap), in ``position`` order; "accepted" made ``player``;
# "refused" by the organiser; "withdrawn" by the player (or the organiser for them).
SIGN_UP_STATUS_CHOICES = [
    ("pending", _("waiting for the organiser")),
    ("waiting", _("on the waiting list")),
    ("accepted", _("accepted")),
    ("refused", _("refused")),
    ("withdrawn", _("withdrawn")),
]
# The sign-ups still in the running (they count against duplicates and for the cap).
LIVE_SIGN_UP_STATUSES = ("pending", "waiting", "accepted")


class SignUp(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sign_ups")
    name = one_line_field(pgettext_lazy("player", "name"), max_length=120)
    first_name = one_line_field(_("first name"), max_length=60, blank=True)
    last_name = one_line_field(_("last name"), max_length=60, blank=True)
    name_zh = one_line_field(_("Chinese name"), max_length=60, blank=True)
    team = one_line_field(_("team or club"), max_length=120, blank=True)
    country = models.CharField(_("country"), max_length=3, blank=True)
    ema_number = models.CharField(_("EMA number"), max_length=8, blank=True)
    email = models.EmailField(_("e-mail"))
    status = models.CharField(_("status"), max_length=10, choices=SIGN_UP_STATUS_CHOICES)
    # The order of the waiting list (and of sign-ups): the organiser may move one up or down.
    position = models.PositiveIntegerField(_("position"))
    # The player an accepted sign-up became; deleting the player (the tournament with it)
    # deletes the sign-up, which cannot stay accepted without its player.
    player = models.OneToOneField(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="sign_up"
    )
    # Raised to revoke the sign-up's own link (the one in its e-mails).
    link_version = models.PositiveIntegerField(default=1)
    signed_up_at = models.DateTimeField(_("signed up at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    history = TournamentHistory()

    class Meta:
        ordering = ["tournament", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "position"], name="sign_up_position_unique"
            ),
            models.UniqueConstraint(
                fields=["tournament", "ema_number"],
                condition=~Q(ema_number="") & Q(status__in=LIVE_SIGN_UP_STATUSES),
                name="sign_up_ema_number_once",
            ),
            models.CheckConstraint(
                condition=Q(status="accepted", player__isnull=False)
                | (~Q(status="accepted") & Q(player__isnull=True))
                | Q(status="withdrawn"),
                name="sign_up_accepted_has_its_player",
            ),
            models.CheckConstraint(
                condition=FEDERATION_CODES, name="sign_up_country_and_ema_number_codes"
            ),
        ]

    def __str__(self):
        return self.name
