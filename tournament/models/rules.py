"""The changes of a tournament's rules made after play started, each with its reason."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.history.audit import TournamentHistory
from tournament.models.tournaments import Tournament, preset_json
from tournament.models.validators import validate_multi_line
from tournament.scoring.profiles import PROFILES

# The tournament's fields that make its rules: the profile it started from and each option.
RULE_FIELDS = (
    "rule_profile",
    "melded_and_concealed_kong",
    "flowers",
    "blessings",
    "minimum_fan",
    "session_minutes",
    "session_end",
    "gong_minute",
    "penalty_presets",
    "tiebreak_order",
)


def profile_options(key: str) -> dict:
    """The options of the profile ``key`` (``scoring.profiles.PROFILES``), as the
    tournament's fields."""
    profile = PROFILES[key]
    return {
        "rule_profile": key,
        "melded_and_concealed_kong": profile.rules.melded_and_concealed_kong,
        "flowers": profile.rules.flowers,
        "blessings": profile.rules.blessings,
        "minimum_fan": profile.rules.minimum_fan,
        "session_minutes": profile.session_minutes,
        "session_end": profile.session_end,
        "gong_minute": profile.gong_minute,
        "penalty_presets": preset_json(profile.penalty_presets),
        "tiebreak_order": ",".join(profile.tiebreaks),
    }


def rule_options(tournament: Tournament) -> dict:
    """The tournament's rules as its fields hold them."""
    return {name: getattr(tournament, name) for name in RULE_FIELDS}


class RuleChange(models.Model):
    """The rules changed once a hand was entered: who, when, why, the options before and
    after (``services.rules.RULE_FIELDS``), and how many stored hands were settled again
    under the new ones. The standings and the rules page say so."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rule_changes"
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(_("reason"), max_length=1000, validators=[validate_multi_line])
    before = models.JSONField()
    after = models.JSONField()
    # Every stored hand is settled again; those whose fan or points changed are counted.
    hands_settled = models.PositiveIntegerField(_("hands settled again"), default=0)
    hands_changed = models.PositiveIntegerField(_("hands changed"), default=0)
    # The activity log lists the change, its reason with it.
    history = TournamentHistory()

    class Meta:
        ordering = ["tournament", "changed_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(reason=""), name="rule_change_has_reason"),
        ]

    def __str__(self):
        return f"{self.tournament} · {self.changed_at:%Y-%m-%d %H:%M}"


# A change waiting for the task queue, or being made by it.
RULE_CHANGE_JOB_ACTIVE = ("queued", "running")


class RuleChangeJob(models.Model):
    """A change of the rules after play started that settles every stored hand again: asked
    for on the organiser's page, made by the task queue (``services.rules.rules_change_run``:
    at a thousand players the hands take longer than a request may), the page following it.
    Done, it names the ``RuleChange`` it made; refused, it says why (``error``)."""

    STATUS_CHOICES = [
        ("queued", _("waiting for the task queue")),
        ("running", _("being made")),
        ("done", _("made")),
        ("failed", _("refused")),
    ]

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rule_change_jobs"
    )
    # The options asked for (``RULE_FIELDS``) and the reason given.
    options = models.JSONField()
    reason = models.TextField(max_length=1000)
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    asked_at = models.DateTimeField(auto_now_add=True)
    # The language the organiser asked in: the task writes a refusal in it.
    language = models.CharField(max_length=16, blank=True)
    status = models.CharField(max_length=8, choices=STATUS_CHOICES, default="queued")
    error = models.TextField(blank=True)
    change = models.OneToOneField(
        RuleChange, null=True, blank=True, on_delete=models.SET_NULL, related_name="job"
    )
    task_id = models.CharField(max_length=64, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "asked_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"],
                condition=models.Q(status__in=RULE_CHANGE_JOB_ACTIVE),
                name="one_rule_change_job_at_a_time",
            ),
        ]

    def __str__(self):
        return f"{self.tournament} · {self.status}"
