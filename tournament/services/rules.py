"""The rules a tournament plays: chosen from a profile, changed freely until the first hand is
entered, and after that only with a reason, every stored hand then settled again under the
new options (docs/rules.md)."""

import logging

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks import task

from tournament import scoring
from tournament.history import audit
from tournament.models import (
    RULE_CHANGE_JOB_ACTIVE,
    Hand,
    RuleChange,
    RuleChangeJob,
    Table,
    Tournament,
)
from tournament.models.rules import (  # noqa: F401 - the services' names for them
    RULE_FIELDS,
    profile_options,
    rule_options,
)
from tournament.models.rulings import penalty_presets_error, presets_in_order
from tournament.selectors.tasks import task_ended
from tournament.services.common import refused
from tournament.services.hands import (
    figure_disputed,
    penalty_entries,
    revision_kept,
    score_winning_hand,
    settle,
)
from tournament.services.results import table_results_store, tournament_touch

logger = logging.getLogger(__name__)


def rules_checked(tournament: Tournament) -> None:
    """Check the tournament's fields, its rules among them (``Tournament.full_clean``, then
    the penalty presets against the offences, then put in the offences' order: one order
    for every tournament, so that presets differing only in order are the same)."""
    tournament.full_clean()
    if error := penalty_presets_error(tournament.penalty_presets):
        raise ValidationError(
            {"penalty_presets": ValidationError(error, "penalty_presets_invalid")}
        )
    tournament.penalty_presets = presets_in_order(tournament.penalty_presets)


def play_started(tournament: Tournament) -> bool:
    """Whether a hand of the tournament has been entered: its rules are fixed from then."""
    return Hand.objects.filter(table__session__tournament=tournament).exists()


@transaction.atomic
def rules_change(
    *, tournament: Tournament, user=None, reason: str = "", **options
) -> RuleChange | None:
    """Change the tournament's rules (``options``: any of ``RULE_FIELDS``).

    Until a hand is entered the options simply change. After that a reason is required and
    the change is kept (``RuleChange``, returned, which the activity log, the rules page and
    the standings show); when the scoring options changed (``Tournament.rules``), every
    stored hand is settled again under them in this transaction. A hand the new options
    cannot settle (a win below a higher minimum, flowers when they are no longer played)
    refuses the whole change, naming the hand; nothing is saved.
    """
    unknown = set(options) - set(RULE_FIELDS)
    if unknown:
        raise TypeError(f"not rule options: {sorted(unknown)}")
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    # Every table too: a hand being saved meanwhile is either in (saved before, waited for)
    # or settled under the new rules (its save reads them once it has its table's lock).
    tables = Table.objects.select_for_update(of=("self",)).filter(session__tournament=tournament)
    list(tables.values("pk"))
    before = rule_options(tournament)
    before["penalty_presets"] = presets_in_order(before["penalty_presets"])
    scoring_before = tournament.rules
    for name, value in options.items():
        setattr(tournament, name, value)
    rules_checked(tournament)
    after = rule_options(tournament)
    if after == before:
        return None
    reason = (reason or "").strip()
    if not play_started(tournament):
        with audit.acting(user=user):
            tournament.save()
        tournament_touch(tournament.pk)
        return None
    if not reason:
        raise refused(
            "reason",
            _("Hands are already entered: say why the rules change (the standings will say so)."),
            "reason_required",
        )
    # The history's rows say why with a code (their reason holds 100 characters); the words
    # are the RuleChange's, which the activity log lists.
    with audit.acting(user=user, reason=audit.RULES_CHANGED):
        tournament.save()
        settled = changed = 0
        if tournament.rules != scoring_before:
            settled, changed = _settle_again(tournament, user=user)
    # Its own row in the activity log says what it is, with its reason.
    with audit.acting(user=user):
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


def _settle_again(tournament: Tournament, *, user) -> tuple[int, int]:
    """Settle every stored hand of ``tournament`` under its (new) rules and store what
    changed, each changed hand's earlier version kept (``revision_kept``): the fan the
    calculator finds for a typed winning hand (the referee's figure follows it unless the
    referee kept a figure of their own), whether the fans claimed still hold, the points,
    the seats' results. Returns (hands settled, hands changed); refuses with every hand that
    cannot be settled."""
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
        hands = table.hands.order_by("number").select_related("entered_by")
        for hand in hands.prefetch_related("penalties"):
            settled += 1
            try:
                new = _settled_again(hand, rules)
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
            if new is not None:
                updated.append((hand, new))
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
    for hand, new in updated:
        revision_kept(hand, user=user)
        for name, value in new.items():
            setattr(hand, name, value)
        hand.save()
    for table in touched:
        table_results_store(table)
    return settled, len(updated)


def _settled_again(hand: Hand, rules: scoring.rules.Rules) -> dict | None:
    """What ``rules`` change in ``hand`` (its fields' new values), or None when nothing."""
    fan, computed, kept = hand.fan, hand.computed_fan, hand.referee_figure_kept
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
        except ValidationError:
            # A typed hand the sheet now contradicts (the players swapped seats after it):
            # it has no count, the referee's figure stands (``reseating`` does the same).
            scored = None
        if scored is None:
            computed = None
        else:
            # The referee's figure followed the calculator: it follows it still.
            if not hand.referee_figure_kept and hand.fan == hand.computed_fan:
                fan = scored.total_without_flowers
            computed = scored.total_without_flowers
            kept = figure_disputed(fan=fan, fan_names=hand.fan_names, scored=scored, rules=rules)
    settlement = settle(
        penalties=penalty_entries(hand),
        rules=rules,
        outcome=hand.outcome,
        winner=hand.winner,
        discarder=hand.discarder,
        fan=fan,
        flowers=hand.flowers,
    )
    points = settlement.points
    new = {
        "fan": fan,
        "computed_fan": computed,
        "referee_figure_kept": kept,
        "deducted": settlement.deducted,
        "points_p1": points[0],
        "points_p2": points[1],
        "points_p3": points[2],
        "points_p4": points[3],
    }
    if all(getattr(hand, name) == value for name, value in new.items()):
        return None
    return new


def _change_under_way() -> ValidationError:
    return refused(
        "__all__",
        _(
            "A change of the rules is being made: its hands are being settled again. Wait "
            "until the page says it is done."
        ),
        "rules_change_under_way",
    )


@transaction.atomic
def rules_change_ask(
    *, tournament: Tournament, user=None, reason: str = "", **options
) -> RuleChange | RuleChangeJob | None:
    """The organiser's change of the rules (``options``: any of ``RULE_FIELDS``): made at once
    by ``rules_change`` (None when nothing changed, its ``RuleChange`` after play started),
    unless it settles stored hands again, which the task queue does
    (``rules_change_run``): then refused at once for what can be said at once (an option,
    the reason), and kept as a ``RuleChangeJob``, returned, whose task makes it. One at a
    time: refused while another is waiting or being made."""
    unknown = set(options) - set(RULE_FIELDS)
    if unknown:
        raise TypeError(f"not rule options: {sorted(unknown)}")
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    for job in RuleChangeJob.objects.filter(
        tournament=tournament, status__in=RULE_CHANGE_JOB_ACTIVE
    ):
        if not task_ended(job.task_id):
            raise _change_under_way()
        _job_failed(job.pk, _("The task worker stopped while the change was being made."))
    asked = Tournament.objects.get(pk=tournament.pk)
    for name, value in options.items():
        setattr(asked, name, value)
    rules_checked(asked)
    reason = (reason or "").strip()
    if asked.rules == tournament.rules or not play_started(tournament):
        return rules_change(tournament=tournament, user=user, reason=reason, **options)
    if not reason:
        raise refused(
            "reason",
            _("Hands are already entered: say why the rules change (the standings will say so)."),
            "reason_required",
        )
    job = RuleChangeJob.objects.create(
        tournament=tournament,
        options={name: getattr(asked, name) for name in options},
        reason=reason,
        asked_by=user,
        language=translation.get_language() or "",
    )
    # A row of this database, committed with the job: a worker sees both or neither.
    job.task_id = str(rules_change_run.enqueue(job_id=job.pk).id)
    job.save(update_fields=["task_id"])
    return job


def _job_failed(job_id: int, message: str) -> None:
    RuleChangeJob.objects.filter(pk=job_id, status__in=RULE_CHANGE_JOB_ACTIVE).update(
        status="failed", error=message, finished_at=timezone.now()
    )


@task()
def rules_change_run(job_id: int) -> str:
    """The queue's task: make the change ``job_id`` asked for (``rules_change``, every stored
    hand settled again, in one transaction); returns the status it ended with. Safe to run
    again: a job that ended is left as it is."""
    job = (
        RuleChangeJob.objects.filter(pk=job_id, status__in=RULE_CHANGE_JOB_ACTIVE)
        .select_related("tournament", "asked_by")
        .first()
    )
    if job is None:
        return "ended before"
    RuleChangeJob.objects.filter(pk=job.pk).update(status="running")
    try:
        with translation.override(job.language or None), transaction.atomic():
            still = RuleChangeJob.objects.filter(pk=job.pk, status="running")
            if not still.select_for_update().values_list("pk", flat=True):
                return "ended before"  # another run of the task made it meanwhile
            change = rules_change(
                tournament=job.tournament, user=job.asked_by, reason=job.reason, **job.options
            )
            still.update(status="done", change=change, finished_at=timezone.now())
    except ValidationError as error:
        with translation.override(job.language or None):
            _job_failed(job.pk, " ".join(error.messages))
        return "failed"
    except Exception:
        logger.exception("The change of rules %s of %s failed", job.pk, job.tournament.slug)
        with translation.override(job.language or None):
            _job_failed(
                job.pk,
                _(
                    "An unexpected error stopped the change: nothing was changed. The task "
                    "worker's log has the details."
                ),
            )
        raise
    return "done"
