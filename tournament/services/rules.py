"""The rules a tournament plays: chosen from a profile, changed freely until the first hand is
entered, and after that only with a reason, every stored hand then settled again under the
new options (docs/rules.md)."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament import scoring
from tournament.history import audit
from tournament.language.translated import core_message
from tournament.models import Hand, RuleChange, Table, Tournament
from tournament.models.rules import (  # noqa: F401 - the services' names for them
    RULE_FIELDS,
    profile_options,
    rule_options,
)
from tournament.models.rulings import penalty_presets_error
from tournament.scoring.hand import HandError
from tournament.services.common import refused
from tournament.services.hands import (
    penalty_entries,
    score_winning_hand,
    settle,
    stored_hand_result,
)
from tournament.services.results import table_results_store, tournament_touch


def rules_checked(tournament: Tournament) -> None:
    """Check the tournament's fields, its rules among them (``Tournament.full_clean``, then
    the penalty presets against the offences)."""
    tournament.full_clean()
    if error := penalty_presets_error(tournament.penalty_presets):
        raise ValidationError(
            {"penalty_presets": ValidationError(error, "penalty_presets_invalid")}
        )


def play_started(tournament: Tournament) -> bool:
    """Whether a hand of the tournament has been entered: its rules are fixed from then."""
    return Hand.objects.filter(table__session__tournament=tournament).exists()


@transaction.atomic
def rules_change(
    *, tournament: Tournament, user=None, reason: str = "", **options
) -> RuleChange | None:
    """Change the tournament's rules (``options``: any of ``RULE_FIELDS``).

    Until a hand is entered the options simply change. After that a reason is required:
    every stored hand is settled again under the new options, in this transaction, and the
    change is kept (``RuleChange``, returned) with the reason, which the activity log's rows
    of the tournament and of the hands changed carry too. A hand the new options cannot
    settle (a win below a higher minimum, flowers when they are no longer played) refuses
    the whole change, naming the hand; nothing is saved.
    """
    unknown = set(options) - set(RULE_FIELDS)
    if unknown:
        raise TypeError(f"not rule options: {sorted(unknown)}")
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = rule_options(tournament)
    for name, value in options.items():
        setattr(tournament, name, value)
    rules_checked(tournament)
    after = rule_options(tournament)
    if after == before:
        return None
    reason = (reason or "").strip()
    if not play_started(tournament):
        with audit.acting(user=user, reason=reason):
            tournament.save()
        tournament_touch(tournament.pk)
        return None
    if not reason:
        raise refused(
            "reason",
            _("Hands are already entered: say why the rules change (the standings will say so)."),
            "reason_required",
        )
    with audit.acting(user=user, reason=reason):
        tournament.save()
        settled, changed = _settle_again(tournament)
    change = RuleChange(
        tournament=tournament,
        changed_by=user,
        reason=reason,
        before=before,
        after=after,
        hands_settled=settled,
        hands_changed=changed,
    )
    change.full_clean()
    change.save()
    tournament_touch(tournament.pk)
    return change


def _settle_again(tournament: Tournament) -> tuple[int, int]:
    """Settle every stored hand of ``tournament`` under its (new) rules and store what
    changed: the fan the calculator finds for a typed winning hand (the referee's figure
    follows it unless the referee kept a figure of their own), the points, the seats'
    results. Returns (hands settled, hands changed); refuses with every hand that cannot be
    settled."""
    rules = tournament.rules
    tables = (
        Table.objects.filter(session__tournament=tournament, hands_entered__gt=0)
        .select_related("session")
        .order_by("session__number", "number")
    )
    problems, updated, settled = [], [], 0
    touched = []
    for table in tables:
        table_changed = False
        for hand in table.hands.order_by("number").prefetch_related("penalties"):
            settled += 1
            try:
                changed = _hand_settled_again(hand, rules)
            except ValidationError as error:
                problems.append(
                    _("Session %(session)s, table %(table)s, hand %(hand)s: %(why)s")
                    % {
                        "session": table.session.number,
                        "table": table.number,
                        "hand": hand.number,
                        "why": " ".join(error.messages),
                    }
                )
                continue
            if changed:
                updated.append(hand)
                table_changed = True
        if table_changed:
            touched.append(table)
    if problems:
        raise ValidationError(
            [
                ValidationError(text, "hands_not_settled")
                for text in (_("These hands cannot be settled under the new rules:"), *problems)
            ]
        )
    for hand in updated:
        hand.version += 1
        hand.save()
    for table in touched:
        table_results_store(table)
    return settled, len(updated)


def _hand_settled_again(hand: Hand, rules: scoring.rules.Rules) -> bool:
    """Give ``hand`` the fan and points ``rules`` give it (not saved); whether they changed."""
    fan, computed = hand.fan, hand.computed_fan
    if hand.is_win and hand.winning_hand:
        try:
            scored = score_winning_hand(
                text=hand.winning_hand,
                number=hand.number,
                winner=hand.winner,
                outcome=hand.outcome,
                flowers=hand.flowers,
                rules=rules,
            )
        except HandError as error:  # pragma: no cover - stored hands were scored before
            raise ValidationError(core_message(error)) from error
        computed = scored.total_without_flowers
        # The referee's figure followed the calculator: it follows it still.
        if not hand.referee_figure_kept and hand.fan == hand.computed_fan:
            fan = computed
    result = stored_hand_result(hand)
    settlement = settle(
        penalties=penalty_entries(hand),
        rules=rules,
        outcome=result.outcome.value,
        winner=hand.winner,
        discarder=hand.discarder,
        fan=fan,
        flowers=hand.flowers,
    )
    points, deducted = settlement.points, settlement.deducted
    if (fan, computed, points, deducted) == (
        hand.fan,
        hand.computed_fan,
        hand.points,
        hand.deducted,
    ):
        return False
    hand.fan, hand.computed_fan, hand.deducted = fan, computed, deducted
    hand.points_p1, hand.points_p2, hand.points_p3, hand.points_p4 = points
    return True
