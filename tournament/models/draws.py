"""What a draw is made from and answers to: the published whole-tournament plan, and the
commitment of a first draw before it is made."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.history.audit import TournamentHistory
from tournament.models.tournaments import Tournament
from tournament.models.validators import one_line_field


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
    public_value_source = one_line_field(_("public value promised"), max_length=200, blank=True)
    public_value = one_line_field(_("public value"), max_length=200, blank=True)
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
