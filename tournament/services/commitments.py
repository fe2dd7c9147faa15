"""A draw committed before it is made: commit, type the public value, withdraw; and what the
draw service asks of a commitment (``seating.commitment`` holds the rules)."""

import json

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import seating
from tournament.language.translated import core_error
from tournament.models import SEATING_METHOD_CHOICES, DrawCommitment, SeatingPlan, Tournament
from tournament.models.validators import unsafe_character
from tournament.seating import commitment as rules
from tournament.selectors.seating import players_for_draw, seating_groups
from tournament.services.common import fields_saved, refused
from tournament.services.results import tournament_touch

# The largest seed an organiser may type (the draw form's bound): it fits the database's
# seed columns, and is far more than anyone reads aloud.
MAX_TYPED_SEED = 10**15
MAX_PUBLIC_VALUE = DrawCommitment._meta.get_field("public_value").max_length


def current_document(
    tournament: Tournament,
    *,
    method: str,
    top: int,
    committed_at,
    public_value_source: str = "",
) -> dict:
    """The commitment document of the draw as the tournament stands now: the players the
    next draw seats (``players_for_draw``), their groups, the method's options."""
    try:
        players = players_for_draw(tournament)
    except seating.DrawError as refusal:
        raise core_error(refusal) from refusal
    groups = seating_groups(tournament, players)
    return rules.commitment_document(
        tournament=tournament.name,
        players=[
            rules.CommittedPlayer(
                number=p.number,
                name=p.name,
                group=groups.get(p.number, ""),
                substitute=p.is_substitute,
            )
            for p in players
        ],
        method=method,
        options=rules.method_options(
            method,
            sessions=tournament.session_count,
            separate_by=tournament.separate_by,
            top=top,
        ),
        committed_at=committed_at,
        public_value_source=public_value_source or None,
    )


@transaction.atomic
def draw_commit(
    *,
    tournament: Tournament,
    method: str | None = None,
    top: int = 1,
    seed: int | None = None,
    public_value_source: str = "",
) -> DrawCommitment:
    """Commit the first draw: its players, method and options, the software's version and
    the time, sealed with a secret seed (from ``secrets`` unless ``seed`` is given) and,
    when ``public_value_source`` names one, a public value to be mixed in later."""
    # Locked: a draw and a commitment of the same tournament wait for each other.
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    method = method or tournament.seating_method
    if method not in {key for key, _label in SEATING_METHOD_CHOICES}:
        raise refused("method", _("Unknown seating method."), "unknown_method")
    if tournament.sessions.exists():
        raise ValidationError(
            _("A session is already drawn: only the first draw can be committed."),
            code="draw_already_made",
        )
    live = DrawCommitment.objects.filter(tournament=tournament, withdrawn_at__isnull=True).first()
    if live is not None:
        if live.revealed_at is not None:
            message = _("The first draw was made under a commitment: it cannot be committed again.")
        else:
            message = _(
                "The first draw is already committed: withdraw that commitment (the "
                "withdrawal stays public) before committing again."
            )
        raise ValidationError(message, code="already_committed")
    if method == "planned":
        plan = SeatingPlan.objects.filter(tournament=tournament).only("seed").first()
        if plan is not None:
            raise refused(
                "method",
                _(
                    "The schedule was planned with seed %(seed)s at a draw since cancelled: "
                    "the planned method keeps that seed, so it cannot be committed. Commit "
                    "another method."
                )
                % {"seed": plan.seed},
                "plan_seed_fixed",
            )
    if seed is not None and not (
        isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed <= MAX_TYPED_SEED
    ):
        raise refused(
            "seed",
            _("The seed must be a whole number from 0 to %(max)s.") % {"max": MAX_TYPED_SEED},
            "bad_seed",
        )
    if (
        seed is not None
        and DrawCommitment.objects.filter(
            tournament=tournament, withdrawn_at__isnull=False, secret_seed=seed
        ).exists()
    ):
        raise refused(
            "seed",
            _("This seed was made public with a withdrawn commitment: choose another."),
            "seed_public",
        )
    source = (public_value_source or "").strip()
    if len(source) > MAX_PUBLIC_VALUE:
        raise refused(
            "public_value_source",
            _("Describe the public value in at most %(max)s characters.")
            % {"max": MAX_PUBLIC_VALUE},
            "public_value_too_long",
        )
    committed_at = timezone.now().replace(microsecond=0)
    document = current_document(
        tournament, method=method, top=top, committed_at=committed_at, public_value_source=source
    )
    table_count = len(document["players"]) // 4
    if method == "top_tables" and not 1 <= top <= table_count:
        raise refused(
            "top",
            _("Choose from 1 to %(count)s top tables.") % {"count": table_count},
            "bad_top",
        )
    seed = seating.new_seed() if seed is None else seed
    salt = rules.new_salt()
    commitment = DrawCommitment(
        tournament=tournament,
        hash=rules.commitment_hash(document, seed=seed, salt=salt),
        document=rules.canonical_bytes(document).decode("utf-8"),
        secret_seed=seed,
        salt=salt,
        committed_at=committed_at,
        public_value_source=source,
    )
    commitment.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            commitment.save()
    except IntegrityError as error:  # a concurrent commitment won the race
        raise ValidationError(
            _("The first draw is already committed."), code="already_committed"
        ) from error
    tournament_touch(tournament.pk, seating=False, standings=False)
    return commitment


def _pending_locked(commitment: DrawCommitment) -> DrawCommitment:
    """The commitment as stored, locked; refused once withdrawn or revealed."""
    commitment = DrawCommitment.objects.select_for_update().get(pk=commitment.pk)
    if commitment.withdrawn_at is not None:
        raise ValidationError(_("This commitment was withdrawn."), code="commitment_withdrawn")
    if commitment.revealed_at is not None:
        raise ValidationError(
            _("The draw was made under this commitment: it can no longer change."),
            code="commitment_revealed",
        )
    return commitment


@transaction.atomic
def draw_commitment_public_value(*, commitment: DrawCommitment, value: str) -> DrawCommitment:
    """Record the public value the commitment promised, once, before the draw."""
    commitment = _pending_locked(commitment)
    if not commitment.public_value_source:
        raise refused(
            "value", _("This commitment promised no public value."), "public_value_not_promised"
        )
    if commitment.public_value:
        # Typed once for good: a value changed after the seed can be mixed with it would let
        # whoever knows the seed choose among outcomes.
        raise refused(
            "value",
            _(
                "The public value is already recorded: withdraw the commitment (the "
                "withdrawal stays public) to start again."
            ),
            "public_value_recorded",
        )
    value = (value or "").strip()
    if not value:
        raise refused("value", _("Type the public value."), "public_value_empty")
    if len(value) > MAX_PUBLIC_VALUE:
        raise refused(
            "value",
            _("The public value can have at most %(max)s characters.") % {"max": MAX_PUBLIC_VALUE},
            "public_value_too_long",
        )
    if unsafe_character(value) is not None:
        raise refused(
            "value",
            _("Type the public value on one line, without control characters."),
            "not_one_line",
        )
    fields_saved(commitment, public_value=value, public_value_at=timezone.now())
    tournament_touch(commitment.tournament_id, seating=False, standings=False)
    return commitment


@transaction.atomic
def draw_commitment_withdraw(*, commitment: DrawCommitment) -> DrawCommitment:
    """Withdraw a commitment before its draw. It stays listed publicly, with its time, and
    its seed becomes public: the draw it promised can be checked by anyone."""
    commitment = _pending_locked(commitment)
    fields_saved(commitment, withdrawn_at=timezone.now())
    tournament_touch(commitment.tournament_id, seating=False, standings=False)
    return commitment


def _option_value(value) -> str:
    if value is None:
        return _("not used")
    if value == "":
        return _("nothing")
    return str(value)


def _difference_text(difference: rules.Difference) -> str:
    numbers = ", ".join(str(n) for n in difference.players)
    count = len(difference.players)
    if difference.code == "method":
        return _("The method was %(committed)s, now %(current)s.") % {
            "committed": difference.committed,
            "current": difference.current,
        }
    if difference.code == "option":
        return _("The option %(name)s was %(committed)s, now %(current)s.") % {
            "name": difference.name,
            "committed": _option_value(difference.committed),
            "current": _option_value(difference.current),
        }
    if difference.code == "players_added":
        return ngettext(
            "Player %(numbers)s is drawn now but was not committed.",
            "Players %(numbers)s are drawn now but were not committed.",
            count,
        ) % {"numbers": numbers}
    if difference.code == "players_removed":
        return ngettext(
            "Player %(numbers)s was committed but is no longer drawn.",
            "Players %(numbers)s were committed but are no longer drawn.",
            count,
        ) % {"numbers": numbers}
    return ngettext(
        "Player %(numbers)s changed group or substitute status.",
        "Players %(numbers)s changed group or substitute status.",
        count,
    ) % {"numbers": numbers}


def committed_draw_seed(
    commitment: DrawCommitment, *, tournament: Tournament, method: str, top: int, typed_seed
) -> int:
    """The seed of the committed first draw, after checking that the draw is the committed
    one: no typed seed, the public value recorded if one was promised, and the players,
    method and options as committed (refused otherwise, saying what changed)."""
    if typed_seed is not None:
        raise refused(
            "seed",
            _("This draw is committed: it uses the committed seed. Leave the seed empty."),
            "seed_committed",
        )
    if commitment.public_value_source and not commitment.public_value:
        raise ValidationError(
            _(
                "This draw is committed with a public value (%(source)s) mixed into its seed: "
                "record the public value first."
            )
            % {"source": commitment.public_value_source},
            code="public_value_missing",
        )
    committed = json.loads(commitment.document)
    current = current_document(
        tournament,
        method=method,
        top=top,
        committed_at=commitment.committed_at,
        public_value_source=commitment.public_value_source,
    )
    differences = rules.draw_input_differences(committed, current)
    if differences:
        raise ValidationError(
            _(
                "This draw is committed, and its input changed since: %(changes)s Withdraw the "
                "commitment to change them (the withdrawal stays public)."
            )
            % {"changes": " ".join(_difference_text(d) for d in differences)},
            code="commitment_differs",
        )
    return rules.draw_seed(commitment.secret_seed, commitment.public_value or None)


def record_draw(
    *,
    tournament: Tournament,
    pending: DrawCommitment | None,
    number: int,
    method: str,
    seed: int,
    tables,
) -> None:
    """After a draw (in its transaction): reveal the pending commitment it used, or add a
    session drawn from a committed whole-tournament schedule to what the commitment covers.

    ``tables`` are the session's tables, each the players East..North."""
    drawn = [list(table) for table in tables]
    if pending is not None:
        fields_saved(
            pending, revealed_at=timezone.now(), session_number=number, drawn={str(number): drawn}
        )
        return
    if method != "planned":
        return
    commitment = (
        DrawCommitment.objects.select_for_update()
        .filter(tournament=tournament, withdrawn_at__isnull=True, revealed_at__isnull=False)
        .first()
    )
    if commitment is None or json.loads(commitment.document)["method"] != "planned":
        return
    plan = SeatingPlan.objects.filter(tournament=tournament).first()
    committed_seed = rules.draw_seed(commitment.secret_seed, commitment.public_value or None)
    # Still the committed schedule: planned from the committed seed, never re-planned.
    if plan is not None and plan.reproducible and plan.seed == committed_seed == seed:
        fields_saved(commitment, drawn={**commitment.drawn, str(number): drawn})
