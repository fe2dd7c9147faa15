"""The changes of a tournament's rules made after play started, each with its reason."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.tournaments import Tournament
from tournament.models.validators import validate_multi_line


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
    hands_settled = models.PositiveIntegerField(default=0)
    hands_changed = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "changed_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(reason=""), name="rule_change_has_reason"),
        ]

    def __str__(self):
        return f"{self.tournament} · {self.changed_at:%Y-%m-%d %H:%M}"
