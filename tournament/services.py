"""Every write to the tournament data.

Each service is keyword-only, validates with the pure cores, and runs in one
transaction, so a failure leaves nothing half-saved. Errors are Django
``ValidationError``s with codes, keyed by the form field they concern, so a
form can show them beside that field.
"""

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from tournament import models, scoring, seating, selectors
from tournament.models import (
    HANDS_PER_SESSION,
    Hand,
    HandRevision,
    Penalty,
    Player,
    Seat,
    SeatingPlan,
    Session,
    Table,
    TableReopening,
    Tournament,
)
from tournament.scoring import notation
from tournament.scoring.hand import HandError
from tournament.seating import modes
from tournament.seating.draw import SeatAssignment
from tournament.seating.replan import replan
from tournament.seating.schedule import plan_schedule, schedule_stats

# ---------------------------------------------------------------- tournaments


@transaction.atomic
def tournament_create(
    *,
    name: str,
    slug: str,
    session_count: int,
    session_minutes: int,
    tiebreak_order: str,
    seating_method: str = "lot",
    separate_by: str = "",
    creator=None,
    referees=(),
) -> Tournament:
    tournament = Tournament(
        name=name,
        slug=slug,
        session_count=session_count,
        session_minutes=session_minutes,
        tiebreak_order=tiebreak_order,
        seating_method=seating_method,
        separate_by=separate_by,
    )
    tournament.full_clean()
    tournament.save()
    if creator is not None:
        tournament.organisers.add(creator)
    tournament.referees.set(referees)
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, referees=None, **fields) -> Tournament:
    """Change the settings; ``referees``, when given, replaces the referee accounts."""
    drawn = tournament.sessions.order_by("-number").values_list("number", flat=True).first()
    if drawn and fields.get("session_count", tournament.session_count) < drawn:
        raise ValidationError(
            {
                "session_count": ValidationError(
                    _(
                        "Session %(n)s is already drawn: "
                        "the tournament needs at least %(n)s sessions."
                    )
                    % {"n": drawn},
                    code="sessions_already_drawn",
                )
            }
        )
    for key, value in fields.items():
        setattr(tournament, key, value)
    tournament.full_clean()
    tournament.save()
    if referees is not None:
        tournament.referees.set(referees)
    return tournament


# ---------------------------------------------------------------- players

PLAYER_FIELDS = ("number", "name", "name_zh", "team", "country", "is_substitute")


@transaction.atomic
def player_save(*, tournament: Tournament, player: Player | None = None, **fields) -> Player:
    """Create a player, or update ``player`` with ``fields``."""
    player = player or Player(tournament=tournament)
    new_number = fields.get("number", player.number)
    if player.pk and new_number != player.number and player.seats.exists():
        # The published draw is sha256("seed:number"): renumbering would make it uncheckable.
        raise ValidationError(
            {
                "number": ValidationError(
                    _("%(name)s is already seated by a draw: the number can no longer change.")
                    % {"name": player.name},
                    code="number_fixed_after_draw",
                )
            }
        )
    for key, value in fields.items():
        if key not in PLAYER_FIELDS:
            raise TypeError(f"unknown player field {key}")
        setattr(player, key, value)
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def player_withdraw(*, player: Player) -> Player:
    """Withdraw a player from the sessions still to be drawn; played sessions stand."""
    if player.withdrawn_at is None:
        player.withdrawn_at = timezone.now()
        player.save(update_fields=["withdrawn_at"])
    return player


@transaction.atomic
def player_reinstate(*, player: Player) -> Player:
    if player.withdrawn_at is not None:
        player.withdrawn_at = None
        player.save(update_fields=["withdrawn_at"])
    return player


@dataclass(frozen=True)
class ImportOutcome:
    created: int
    updated: int
    unchanged: int


@transaction.atomic
def players_import(*, tournament: Tournament, rows: Iterable[dict]) -> ImportOutcome:
    """Create or update players by number; a row equal to the stored player changes nothing."""
    existing = {p.number: p for p in tournament.players.select_for_update()}
    created = updated = unchanged = 0
    for row in rows:
        player = existing.get(row["number"])
        if player is None:
            player_save(tournament=tournament, **row)
            created += 1
        elif any(getattr(player, key) != value for key, value in row.items()):
            player_save(tournament=tournament, player=player, **row)
            updated += 1
        else:
            unchanged += 1
    return ImportOutcome(created=created, updated=updated, unchanged=unchanged)


# ---------------------------------------------------------------- draw and sessions


SESSION_MODES = ("random", "standings", "serpentine", "top_tables")


def _session_refused(number: int, message: str, code: str) -> ValidationError:
    return ValidationError({"number": ValidationError(message % {"number": number}, code=code)})


@transaction.atomic
def session_draw(
    *,
    tournament: Tournament,
    number: int,
    seed: int | None = None,
    method: str | None = None,
    top: int = 1,
) -> Session:
    """Seat session ``number`` by ``method`` (default: the tournament's); the seed makes it
    reproducible.

    "planned" seats it from the tournament's whole schedule (planned on first use, re-planned
    when the active players or the drawn sessions no longer match it); the session modes
    (random, standings, serpentine, top_tables) seat this session from the drawn ones and the
    standings; "lot" is the draw by lot checkable with sha256.
    """
    method = method or tournament.seating_method
    if method not in {key for key, _label in models.SEATING_METHOD_CHOICES}:
        raise ValidationError(
            {"method": ValidationError(_("Unknown seating method."), code="unknown_method")}
        )
    if not 1 <= number <= tournament.session_count:
        raise ValidationError(
            {
                "number": ValidationError(
                    _("The tournament has sessions 1 to %(count)s.")
                    % {"count": tournament.session_count},
                    code="session_out_of_range",
                )
            }
        )
    if tournament.sessions.filter(number=number).exists():
        raise _session_refused(
            number, _("Session %(number)s is already drawn."), "session_already_drawn"
        )
    try:
        players = {p.number: p for p in selectors.players_for_draw(tournament)}
    except selectors.DrawRefused as refusal:
        raise ValidationError(refusal.message, code=refusal.code) from refusal
    draw_input = None
    if method == "planned":
        seed, tables = _tables_from_plan(
            tournament=tournament, number=number, players=sorted(players), seed=seed
        )
    else:
        if seed is None:
            seed = seating.new_seed()
        if method == "lot":
            tables = _tables_by_lot(sorted(players), seed)
        else:
            tables, draw_input = _tables_by_mode(
                tournament=tournament, method=method, players=players, seed=seed, top=top
            )
    try:
        # A savepoint so a concurrent draw of the same session fails cleanly.
        with transaction.atomic():
            session = Session.objects.create(
                tournament=tournament,
                number=number,
                seed=seed,
                method=method,
                draw_input=draw_input,
            )
    except IntegrityError as error:
        raise _session_refused(
            number, _("Session %(number)s is already drawn."), "session_already_drawn"
        ) from error
    for table_number, (table_players, lots) in enumerate(tables, start=1):
        table = Table.objects.create(session=session, number=table_number)
        for seat, (player, lot) in enumerate(zip(table_players, lots, strict=True)):
            Seat.objects.create(
                session=session, table=table, player=players[player], seat=seat, lot=lot
            )
    return session


def _seat_order_lots(tables: Sequence[Sequence[int]]) -> list[tuple[tuple[int, ...], list[int]]]:
    """Methods other than the lot number seats in order: (table − 1)·4 + seat + 1."""
    return [
        (tuple(table), [index * 4 + seat + 1 for seat in range(4)])
        for index, table in enumerate(tables)
    ]


def _tables_by_lot(players: list[int], seed: int):
    try:
        assignments = seating.draw_by_lot(players, seed)
    except seating.DrawError as error:
        field = "seed" if error.code == "bad_seed" else None
        raise ValidationError({field: ValidationError(str(error), code=error.code)}) from error
    tables: dict[int, list[SeatAssignment]] = {}
    for assignment in assignments:
        tables.setdefault(assignment.table, []).append(assignment)
    return [
        (
            tuple(a.player for a in sorted(seats, key=lambda a: a.seat)),
            [a.lot for a in sorted(seats, key=lambda a: a.seat)],
        )
        for _table, seats in sorted(tables.items())
    ]


def _tables_by_mode(*, tournament, method, players, seed, top):
    drawn = selectors.drawn_tables(tournament)
    history = [drawn[n] for n in sorted(drawn)]
    numbers = set(players)
    # Ranked players first, then the others by number (standings already list them so).
    ranking = [
        row.player.number for row in selectors.standings(tournament) if row.player.number in numbers
    ]
    table_count = len(players) // 4
    if method == "top_tables" and not 1 <= top <= table_count:
        raise ValidationError(
            {
                "top": ValidationError(
                    _("Choose from 1 to %(count)s top tables.") % {"count": table_count},
                    code="bad_top",
                )
            }
        )
    groups = selectors.seating_groups(tournament, players.values())
    tables = modes.seat_session(
        method,
        players=sorted(players),
        seed=seed,
        history=history,
        ranking=ranking,
        groups=groups,
        top=top,
    )
    draw_input = {
        "mode": method,
        "seed": seed,
        "players": sorted(players),
        "history": [[list(table) for table in session] for session in history],
        "ranking": ranking,
        "groups": {str(number): name for number, name in sorted((groups or {}).items())},
        "top": top,
    }
    return _seat_order_lots(tables), draw_input


def _tables_from_plan(*, tournament, number, players, seed):
    """Session ``number`` from the tournament's plan, planned or re-planned first if needed."""
    plan = SeatingPlan.objects.select_for_update().filter(tournament=tournament).first()
    if plan is not None and seed is not None and seed != plan.seed:
        raise ValidationError(
            {
                "seed": ValidationError(
                    _(
                        "The schedule is published with seed %(seed)s: leave the seed empty "
                        "or give the same one."
                    )
                    % {"seed": plan.seed},
                    code="plan_seed_fixed",
                )
            }
        )
    drawn = selectors.drawn_tables(tournament)
    in_order = sorted(drawn) == list(range(1, len(drawn) + 1))
    player_objects = {p.number: p for p in tournament.players.filter(number__in=players)}
    groups = selectors.seating_groups(tournament, player_objects.values())
    if plan is None:
        if not in_order:
            raise _session_refused(
                number,
                _("A planned schedule needs the sessions already drawn to be 1, 2, 3, …"),
                "plan_needs_sessions_in_order",
            )
        fixed = [drawn[n] for n in sorted(drawn)]
        if any(p not in set(players) for tables in fixed for table in tables for p in table):
            raise _session_refused(
                number,
                _(
                    "The sessions already drawn seat players who are no longer active: "
                    "draw session %(number)s with a session-by-session method."
                ),
                "plan_roster_changed",
            )
        seed = seating.new_seed() if seed is None else seed
        # Planned for players 1..N, as the command line does, so the command reproduces it.
        index = {number: i for i, number in enumerate(players, start=1)}
        schedule = plan_schedule(
            len(players),
            tournament.session_count,
            seed=seed,
            groups={index[p]: group for p, group in groups.items()},
            fixed=[[[index[p] for p in table] for table in tables] for tables in fixed],
        )
        sessions = [
            [[players[i - 1] for i in table] for table in tables] for tables in schedule.sessions
        ]
        plan = SeatingPlan(
            tournament=tournament,
            seed=seed,
            players=players,
            groups={str(index[p]): group for p, group in sorted(groups.items())},
            sessions=sessions,
            stats=schedule.stats.as_dict(),
            fixed_sessions=len(fixed),
        )
        plan.full_clean()
        plan.save()
    else:
        published_drawn = {
            n: [tuple(t) for t in plan.sessions[n - 1]] for n in drawn if n <= len(plan.sessions)
        }
        if sorted(plan.players) != players or published_drawn != drawn:
            if not in_order:
                raise _session_refused(
                    number,
                    _("A re-planned schedule needs the sessions already drawn to be 1, 2, 3, …"),
                    "plan_needs_sessions_in_order",
                )
            published = [drawn[n] for n in sorted(drawn)] + [
                [tuple(t) for t in tables] for tables in plan.sessions[len(drawn) :]
            ]
            result = replan(
                published, played=len(drawn), players=players, seed=plan.seed, groups=groups
            )
            plan.sessions = [[list(t) for t in tables] for tables in result.sessions]
            plan.players = players
            plan.stats = schedule_stats(result.sessions, groups).as_dict()
            plan.replans += 1
            plan.moved_seats += result.moved_seats
            plan.save()
    if number > len(plan.sessions):
        raise _session_refused(
            number, _("The schedule has no session %(number)s."), "session_not_planned"
        )
    return plan.seed, _seat_order_lots(plan.sessions[number - 1])


@transaction.atomic
def session_cancel_draw(*, session: Session) -> None:
    """Undo a draw before play starts (a withdrawal, a late registration); it can be redrawn."""
    if Hand.objects.filter(table__session=session).exists():
        raise ValidationError(
            _("Hands are already entered in session %(n)s: its draw can no longer be cancelled.")
            % {"n": session.number},
            code="session_has_hands",
        )
    session.delete()


@transaction.atomic
def seat_replace(*, seat: Seat, player: Player) -> Seat:
    """Put ``player`` (say a substitute) in a drawn seat before its table starts playing.

    The seat remembers whom the lot gave it, so the published draw stays checkable.
    """
    seat = Seat.objects.select_related("table", "session", "player").get(pk=seat.pk)
    if seat.table.hands.exists():
        raise ValidationError(
            _("Table %(t)s has started: its players can no longer change.")
            % {"t": seat.table.number},
            code="table_has_hands",
        )
    if player.tournament_id != seat.session.tournament_id or not player.is_active:
        raise ValidationError(
            {"player": ValidationError(_("Choose an active player."), code="player_not_active")}
        )
    if Seat.objects.filter(session=seat.session, player=player).exists():
        raise ValidationError(
            {
                "player": ValidationError(
                    _("%(name)s already has a seat in this session.") % {"name": player.name},
                    code="player_already_seated",
                )
            }
        )
    drawn = seat.replaces or seat.player
    seat.replaces = None if player == drawn else drawn
    seat.player = player
    seat.save(update_fields=["player", "replaces"])
    return seat


@transaction.atomic
def session_open(*, session: Session) -> Session:
    if session.closed_at:
        raise ValidationError(_("The session is closed."), code="session_closed")
    if session.opened_at is None:
        session.opened_at = timezone.now()
        session.save(update_fields=["opened_at"])
    return session


@transaction.atomic
def session_close(*, session: Session) -> Session:
    unconfirmed = list(
        session.tables.filter(confirmed_at__isnull=True).values_list("number", flat=True)
    )
    if unconfirmed:
        raise ValidationError(
            _("Tables not confirmed yet: %(tables)s.")
            % {"tables": ", ".join(str(n) for n in unconfirmed)},
            code="tables_not_confirmed",
        )
    if session.closed_at is None:
        session.closed_at = timezone.now()
        session.save(update_fields=["closed_at"])
    return session


@transaction.atomic
def session_reopen(*, session: Session) -> Session:
    if session.closed_at is not None:
        session.closed_at = None
        session.save(update_fields=["closed_at"])
    return session


# ---------------------------------------------------------------- hands


def _table_open_for_entry(table: Table) -> None:
    if table.confirmed_at is not None:
        raise ValidationError(
            _("Table %(table)s is confirmed: only an organiser can reopen it.")
            % {"table": table.number},
            code="table_confirmed",
        )
    session = table.session
    if session.closed_at is not None:
        raise ValidationError(_("The session is closed."), code="session_closed")
    if session.opened_at is None:
        raise ValidationError(
            _("The session has not been opened for play yet."), code="session_not_open"
        )


@dataclass(frozen=True)
class PenaltyEntry:
    """A penalty as entered: seats are 0..3 (P1..P4)."""

    offender: int
    kind: str
    points: int
    reason: str
    beneficiary: int | None = None


# The scoring core speaks English with codes; referees read these, translatable.
CORE_MESSAGES = {
    "winner_required": _lazy("Choose the winner."),
    "discarder_required": _lazy("Choose who discarded the winning tile."),
    "discarder_is_winner": _lazy("The winner cannot be the discarder: choose who discarded."),
    "fan_required": _lazy("Enter the winner's fan, without flowers."),
    "fan_below_minimum": _lazy("A win needs at least 8 fan, flowers not counted."),
    "flowers_out_of_range": _lazy("Flowers are 0 to 8."),
    "penalised_player_cannot_win": _lazy(
        "A player penalised for a false win in this hand cannot win it."
    ),
    "penalty_beneficiary_required": _lazy("Penalty %(n)s: choose the player who is paid."),
    "penalty_beneficiary_is_offender": _lazy(
        "Penalty %(n)s: a player cannot pay a penalty to themselves."
    ),
    "penalty_points_invalid": _lazy("Penalty %(n)s: the points must be a positive whole number."),
}


def _core_message(error: scoring.SettlementError) -> str:
    message = CORE_MESSAGES.get(error.code)
    if message is None:
        return str(error)
    # Penalties are numbered from 1 on the form, as the referee sees them.
    return str(message) % {"n": (error.index or 0) + 1}


def settle(
    *,
    outcome: str,
    winner: int | None,
    discarder: int | None,
    fan: int | None,
    flowers: int,
    penalties: Sequence[PenaltyEntry],
) -> scoring.Settlement:
    """Settle a hand with the scoring core, turning its errors into form errors."""
    try:
        result = scoring.HandResult(
            outcome=scoring.Outcome(outcome),
            winner=winner,
            discarder=discarder,
            fan=fan,
            flowers=flowers,
            penalties=tuple(
                scoring.Penalty(
                    offender=p.offender,
                    kind=scoring.PenaltyKind(p.kind),
                    points=p.points,
                    beneficiary=p.beneficiary,
                    reason=p.reason,
                )
                for p in penalties
            ),
        )
        return scoring.settle_hand(result)
    except scoring.SettlementError as error:
        raise ValidationError(
            {error.field: ValidationError(_core_message(error), code=error.code)}
        ) from error
    except ValueError as error:  # an unknown outcome or penalty kind
        raise ValidationError(str(error), code="invalid") from error


def score_winning_hand(
    *,
    text: str,
    number: int | None,
    winner: int | None,
    outcome: str,
    flowers: int | None = None,
    hand_flowers_win: bool = False,
):
    """The calculator's result for the winning hand the referee typed, or None when empty.

    What the sheet already knows need not be typed: the prevalent wind and the
    winner's seat wind come from the 16-hand schedule, self-drawn from the result,
    flowers from the flowers field. What is typed anyway must agree with the sheet:
    a contradiction is an error beside the winning hand, never silently resolved.
    ``hand_flowers_win`` (for "Compute", which fills the form from the hand) lets
    flowers written in the hand replace the form's.
    """
    text = (text or "").strip()
    if not text:
        return None

    def refuse(message, code):
        return ValidationError({"winning_hand": ValidationError(message, code=code)})

    if outcome not in Hand.WINS:
        raise refuse(_("A winning hand only goes with a win."), "winning_hand_without_win")
    if number is None or not 1 <= number <= HANDS_PER_SESSION or winner is None:
        raise refuse(
            _("Choose the hand number and the winner first: the winds come from the sheet."),
            "winning_hand_needs_winner",
        )
    try:
        hand, written = notation.parse_hand_with_conditions(text)
    except HandError as error:
        raise refuse(error.message, error.code) from error
    slot = seating.session_schedule()[number - 1]
    sheet = {
        "prevalent_wind": slot.prevalent_wind,
        "seat_wind": slot.seat_winds[winner],
        "self_drawn": outcome == scoring.Outcome.SELF_DRAWN,
    }
    if flowers is not None and not (hand_flowers_win and "flowers" in written):
        sheet["flowers"] = flowers
    if hand.self_drawn and not sheet["self_drawn"]:
        raise refuse(
            _("The winning hand says self-drawn, but the result is a win on a discard."),
            "winning_hand_contradicts_result",
        )
    labels = {
        "prevalent_wind": ("wind", _("prevalent wind")),
        "seat_wind": ("seat", _("the winner's seat wind")),
        "flowers": ("flowers", _("flowers")),
    }
    for field, (word, label) in labels.items():
        if field in sheet and word in written and getattr(hand, field) != sheet[field]:
            raise refuse(
                _(
                    "The winning hand gives %(label)s %(typed)s, but the sheet says %(sheet)s. "
                    "Leave it out of the hand, or correct the sheet."
                )
                % {"label": label, "typed": getattr(hand, field), "sheet": sheet[field]},
                "winning_hand_contradicts_sheet",
            )
    try:
        return notation.score_hand(dataclasses.replace(hand, **sheet))
    except HandError as error:
        raise refuse(error.message, error.code) from error


def _already_entered(number: int) -> ValidationError:
    return ValidationError(
        {
            "number": ValidationError(
                _("Hand %(number)s is already entered; open it to correct it.")
                % {"number": number},
                code="hand_already_entered",
            )
        }
    )


def _hand_snapshot(hand: Hand) -> dict:
    """The hand as it stands, kept in a HandRevision before a correction replaces it."""
    return {
        "outcome": hand.outcome,
        "winner": hand.winner,
        "discarder": hand.discarder,
        "fan": hand.fan,
        "flowers": hand.flowers,
        "fan_names": hand.fan_names,
        "winning_hand": hand.winning_hand,
        "computed_fan": hand.computed_fan,
        "points": list(hand.points),
        "penalties": [
            {
                "offender": p.offender,
                "kind": p.kind,
                "points": p.points,
                "beneficiary": p.beneficiary,
                "reason": p.reason,
            }
            for p in hand.penalties.all()
        ],
        "entered_by": hand.entered_by.get_username() if hand.entered_by else None,
    }


@transaction.atomic
def hand_record(
    *,
    table: Table,
    number: int,
    outcome: str,
    winner: int | None = None,
    discarder: int | None = None,
    fan: int | None = None,
    flowers: int = 0,
    fan_names: str = "",
    winning_hand: str = "",
    penalties: Sequence[PenaltyEntry] = (),
    user=None,
    version: int | None = None,
) -> Hand:
    """Create hand ``number`` at ``table``, or update it when ``version`` is given.

    ``version`` is the version of the hand the referee was editing: if someone
    saved it in between, the save is refused rather than overwriting their entry.
    """
    table = Table.objects.select_related("session").get(pk=table.pk)
    _table_open_for_entry(table)
    if not 1 <= number <= HANDS_PER_SESSION:
        raise ValidationError(
            {"number": ValidationError(_("A hand number is 1 to 16."), code="hand_out_of_range")}
        )
    settlement = settle(
        outcome=outcome,
        winner=winner,
        discarder=discarder,
        fan=fan,
        flowers=flowers,
        penalties=penalties,
    )
    computed = score_winning_hand(
        text=winning_hand, number=number, winner=winner, outcome=outcome, flowers=flowers
    )
    hand = Hand.objects.filter(table=table, number=number).first()
    if version is None and hand is not None:
        raise _already_entered(number)
    if version is not None and (hand is None or hand.version != version):
        raise ValidationError(
            _(
                "Hand %(number)s was changed by someone else after you opened it. "
                "Your entry was not saved: check the sheet and enter it again."
            )
            % {"number": number},
            code="hand_changed_meanwhile",
        )
    if hand is None:
        hand = Hand(table=table, number=number, version=1)
    else:
        HandRevision.objects.create(
            hand=hand, version=hand.version, previous=_hand_snapshot(hand), revised_by=user
        )
        hand.version += 1
        hand.penalties.all().delete()
    hand.outcome = outcome
    hand.winner = winner
    hand.discarder = discarder
    hand.fan = fan
    hand.flowers = flowers
    hand.fan_names = fan_names
    hand.winning_hand = (winning_hand or "").strip()
    hand.computed_fan = computed.total_without_flowers if computed else None
    (hand.points_p1, hand.points_p2, hand.points_p3, hand.points_p4) = settlement.points
    hand.deducted = settlement.deducted
    hand.entered_by = user
    hand.full_clean(validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            hand.save()
    except IntegrityError as error:
        # Two tablets creating the same hand at once: the second one is told.
        raise _already_entered(number) from error
    Penalty.objects.bulk_create(
        Penalty(
            hand=hand,
            offender=p.offender,
            kind=p.kind,
            points=p.points,
            beneficiary=p.beneficiary,
            reason=p.reason,
        )
        for p in penalties
    )
    return hand


@transaction.atomic
def table_confirm(*, table: Table, user, record_missing_as_not_played: bool = False) -> Table:
    """Confirm a table's sheet; hands not entered must be declared not played (time called)."""
    table = Table.objects.select_related("session").get(pk=table.pk)
    _table_open_for_entry(table)
    entered = set(table.hands.values_list("number", flat=True))
    missing = [n for n in range(1, HANDS_PER_SESSION + 1) if n not in entered]
    gaps = [n for n in missing if entered and n < max(entered)]
    if gaps:
        # Time can only cut the end of a session: a hole in the middle is a forgotten entry.
        raise ValidationError(
            {
                "record_missing_as_not_played": ValidationError(
                    _("Hands %(hands)s are missing between entered hands: enter them first.")
                    % {"hands": ", ".join(str(n) for n in gaps)},
                    code="hands_missing_in_between",
                )
            }
        )
    if missing and not record_missing_as_not_played:
        raise ValidationError(
            {
                "record_missing_as_not_played": ValidationError(
                    _(
                        "Hands %(hands)s are not entered. Enter them, or tick the box if time "
                        "was called and they were not played."
                    )
                    % {"hands": ", ".join(str(n) for n in missing)},
                    code="hands_missing",
                )
            }
        )
    Hand.objects.bulk_create(
        Hand(table=table, number=n, outcome=scoring.Outcome.NOT_PLAYED.value, entered_by=user)
        for n in missing
    )
    table.confirmed_at = timezone.now()
    table.confirmed_by = user
    table.save(update_fields=["confirmed_at", "confirmed_by"])
    return table


@transaction.atomic
def table_reopen(*, table: Table, user, reason: str) -> Table:
    """An organiser's correction after confirmation: the reason is kept."""
    table = Table.objects.select_related("session").get(pk=table.pk)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(
            {"reason": ValidationError(_("Say why the table is reopened."), code="required")}
        )
    if table.confirmed_at is None:
        raise ValidationError(_("The table is not confirmed."), code="table_not_confirmed")
    if table.session.closed_at is not None:
        session_reopen(session=table.session)
    TableReopening.objects.create(table=table, reopened_by=user, reason=reason)
    table.confirmed_at = None
    table.confirmed_by = None
    table.save(update_fields=["confirmed_at", "confirmed_by"])
    return table
