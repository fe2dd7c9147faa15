"""Seating a session (every seating method), changing a seat before play, cancelling a draw."""

import json

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from tournament import models, seating
from tournament.history import audit
from tournament.language.translated import core_error
from tournament.models import Hand, Player, Ruling, Seat, SeatingPlan, Session, Table, Tournament
from tournament.seating import modes, replacements
from tournament.seating.draw import SeatAssignment
from tournament.seating.published import (
    matches_drawn,
    plan_registered,
    replan_from_input,
    replan_input,
    seat_order_lots,
)
from tournament.selectors.fairness import pending_commitment
from tournament.selectors.seating import drawn_tables, players_for_draw, seating_groups
from tournament.selectors.standings import compute_standings
from tournament.services.commitments import committed_draw_seed, record_draw
from tournament.services.common import fields_saved, refused
from tournament.services.mail import seat_emails_drop, seat_emails_queue
from tournament.services.referees import previous_referees
from tournament.services.results import tournament_touch
from tournament.services.tables import locked_table


def _session_refused(number: int, message: str, code: str) -> ValidationError:
    return refused("number", message % {"number": number}, code)


# The "top tables" method seats this many tables by standings unless told otherwise.
DEFAULT_TOP_TABLES = 1


@transaction.atomic
def session_draw(
    *,
    tournament: Tournament,
    number: int,
    seed: int | None = None,
    method: str | None = None,
    top: int = DEFAULT_TOP_TABLES,
) -> Session:
    """Seat session ``number`` by ``method`` (default: the committed one, else the
    tournament's); the seed makes it reproducible.

    "planned" seats it from the tournament's whole schedule (planned on first use, re-planned
    when the active players or the drawn sessions no longer match it); the session modes
    (random, standings, serpentine, top_tables) seat this session from the drawn ones and the
    standings; "lot" is the draw by lot checkable with sha256.

    While the first draw is committed (``DrawCommitment``), it is made with the committed
    seed, only from the committed players, method and options, and reveals the seed.
    """
    # Locked with the tournament: a commitment made meanwhile waits for this draw.
    list(Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk"))
    pending = pending_commitment(tournament, lock=True)
    if method is None and pending is not None:
        method = json.loads(pending.document)["method"]
    method = method or tournament.seating_method
    if method not in {key for key, _label in models.SEATING_METHOD_CHOICES}:
        raise refused("method", _("Unknown seating method."), "unknown_method")
    if not 1 <= number <= tournament.session_count:
        raise refused(
            "number",
            _("The tournament has sessions 1 to %(count)s.") % {"count": tournament.session_count},
            "session_out_of_range",
        )
    if seed is not None:
        try:
            seating.check_seed(seed)
        except seating.DrawError as error:
            raise refused(
                "seed", _("The seed must be a whole number of zero or more."), error.code
            ) from error
    if tournament.sessions.filter(number=number).exists():
        raise _session_refused(
            number, _("Session %(number)s is already drawn."), "session_already_drawn"
        )
    try:
        players = {p.number: p for p in players_for_draw(tournament)}
    except seating.DrawError as refusal:
        raise core_error(refusal) from refusal
    if pending is not None:
        seed = committed_draw_seed(
            pending, tournament=tournament, method=method, top=top, typed_seed=seed
        )
    draw_input = None
    # The session as the plan published before this draw had it (a re-plan may change it).
    planned = _planned_session(tournament, number)
    try:
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
    except seating.SeatingError as error:
        # What the seating core refuses, in its words (a seed, or players it cannot seat).
        if error.code == "bad_seed":
            raise ValidationError({"seed": core_error(error)}) from error
        raise core_error(error) from error
    try:
        # A savepoint so a concurrent draw of the same session fails cleanly.
        with transaction.atomic():
            session = Session.objects.create(
                tournament=tournament,
                number=number,
                seed=seed,
                method=method,
                draw_input=draw_input,
                # Public at once, unless the tournament reviews its draws first.
                published_at=None if tournament.review_draws else timezone.now(),
            )
    except IntegrityError as error:
        raise _session_refused(
            number, _("Session %(number)s is already drawn."), "session_already_drawn"
        ) from error
    # Each table keeps the referee it had in the session before. The tables and seats are
    # inserted in bulk, their history rows too (a few statements for 250 tables, not 2,500).
    referees = previous_referees(tournament_id=tournament.pk, number=number)
    stand_ins = _stand_ins(
        tournament,
        number=number,
        tables=[t for t, _lots in tables],
        players=players,
        planned=planned,
    )
    history = audit.bulk_history()
    drawn = bulk_create_with_history(
        [
            Table(session=session, number=table_number, referee_id=referees.get(table_number))
            for table_number in range(1, len(tables) + 1)
        ],
        Table,
        **history,
    )
    bulk_create_with_history(
        [
            Seat(
                session=session,
                table=table,
                player=players[player],
                seat=seat,
                lot=lot,
                stands_in_for=stand_ins.get(player),
            )
            for table, (table_players, lots) in zip(drawn, tables, strict=True)
            for seat, (player, lot) in enumerate(zip(table_players, lots, strict=True))
        ],
        Seat,
        **history,
    )
    record_draw(
        tournament=tournament,
        pending=pending,
        number=number,
        method=method,
        seed=seed,
        tables=[table_players for table_players, _lots in tables],
    )
    if session.published_at is not None:
        seat_emails_queue(session=session)
    tournament_touch(tournament.pk)
    return session


def _planned_session(tournament, number: int) -> list[list[int]] | None:
    """Session ``number``'s tables in the tournament's published plan, if it has one."""
    sessions = SeatingPlan.objects.filter(tournament=tournament).values_list("sessions", flat=True)
    found = sessions.first()
    if found is None or number > len(found):
        return None
    return [list(table) for table in found[number - 1]]


def _stand_ins(tournament, *, number, tables, players, planned) -> dict[int, Player]:
    """Substitute number -> the withdrawn player they stand in for in this draw
    (``seating.replacements``), from the plan published before it, the substitutes' earlier
    seats and the withdrawn players who held a place (planned here, or played before)."""
    substitutes = [n for n, player in players.items() if player.is_substitute]
    if not substitutes:
        return {}
    withdrawn = list(
        tournament.players.filter(withdrawn_at__isnull=False, is_substitute=False).order_by(
            "withdrawn_at", "number"
        )
    )
    earlier_seats = Seat.objects.filter(session__tournament=tournament, session__number__lt=number)
    seated_before = {
        seated
        for pair in earlier_seats.values_list("player__number", "replaces__number")
        for seated in pair
        if seated is not None
    }
    planned_here = {n for table in planned or () for n in table}
    held = [p for p in withdrawn if p.number in seated_before or p.number in planned_here]
    earlier = {}
    for substitute, replaced, stood_in_for in (
        earlier_seats.filter(player__number__in=substitutes)
        .order_by("session__number")
        .values_list("player__number", "replaces__number", "stands_in_for__number")
    ):
        if replaced or stood_in_for:
            earlier[substitute] = replaced or stood_in_for
    named = replacements.substitutes_standing_in(
        tables=tables,
        substitutes=substitutes,
        withdrawn=[p.number for p in held],
        planned=planned,
        earlier=earlier,
    )
    by_number = {p.number: p for p in held}
    return {substitute: by_number[player] for substitute, player in named.items()}


def _tables_by_lot(players: list[int], seed: int):
    tables: dict[int, list[SeatAssignment]] = {}
    for assignment in sorted(seating.draw_by_lot(players, seed), key=lambda a: (a.table, a.seat)):
        tables.setdefault(assignment.table, []).append(assignment)
    return [(tuple(a.player for a in seats), [a.lot for a in seats]) for seats in tables.values()]


def _tables_by_mode(*, tournament, method, players, seed, top):
    drawn = drawn_tables(tournament)
    history = [drawn[n] for n in sorted(drawn)]
    numbers = set(players)
    # Ranked players first, then the others by number (standings already list them so): as
    # stored now, not from the cache (see ``tournament_standings``).
    ranking = [
        row.player.number for row in compute_standings(tournament) if row.player.number in numbers
    ]
    table_count = len(players) // 4
    if method == "top_tables" and not 1 <= top <= table_count:
        raise refused(
            "top", _("Choose from 1 to %(count)s top tables.") % {"count": table_count}, "bad_top"
        )
    groups = seating_groups(tournament, players.values())
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
    return seat_order_lots(tables), draw_input


def _tables_from_plan(*, tournament, number, players, seed):
    """Session ``number`` from the tournament's plan, planned or re-planned first if needed."""
    plan = SeatingPlan.objects.select_for_update().filter(tournament=tournament).first()
    if plan is not None and seed is not None and seed != plan.seed:
        raise refused(
            "seed",
            _(
                "The schedule is published with seed %(seed)s: leave the seed empty "
                "or give the same one."
            )
            % {"seed": plan.seed},
            "plan_seed_fixed",
        )
    drawn = drawn_tables(tournament)
    in_order = sorted(drawn) == list(range(1, len(drawn) + 1))
    player_objects = {p.number: p for p in tournament.players.filter(number__in=players)}
    groups = seating_groups(tournament, player_objects.values())
    if plan is None:
        if not in_order:
            raise _session_refused(
                number,
                _("A planned schedule needs the sessions already drawn to be 1, 2, 3, …"),
                "plan_needs_sessions_in_order",
            )
        fixed = [drawn[n] for n in sorted(drawn)]
        active = set(players)
        if any(p not in active for tables in fixed for table in tables for p in table):
            raise _session_refused(
                number,
                _(
                    "The sessions already drawn seat players who are no longer active: "
                    "draw session %(number)s with a session-by-session method."
                ),
                "plan_roster_changed",
            )
        if any({p for table in tables for p in table} != active for tables in fixed):
            raise _session_refused(
                number,
                _(
                    "The sessions already drawn do not seat every active player: "
                    "draw session %(number)s with a session-by-session method."
                ),
                "plan_roster_changed",
            )
        seed = seating.new_seed() if seed is None else seed
        schedule = plan_registered(
            players, tournament.session_count, seed=seed, groups=groups, fixed=fixed
        )
        plan = SeatingPlan(
            tournament=tournament,
            seed=seed,
            players=schedule.players,
            first_players=schedule.players,
            groups=schedule.groups,
            sessions=schedule.sessions,
            stats=schedule.stats,
            fixed_sessions=len(fixed),
        )
        plan.full_clean()
        plan.save()
    elif not matches_drawn(plan.players, plan.sessions, players=players, drawn=drawn):
        if not in_order:
            raise _session_refused(
                number,
                _("A re-planned schedule needs the sessions already drawn to be 1, 2, 3, …"),
                "plan_needs_sessions_in_order",
            )
        # Kept as the command line reads it, and re-planned from what is kept: the seating
        # page publishes each input, and the command gives the same schedule from it.
        data = replan_input(
            plan.sessions,
            drawn=[drawn[n] for n in sorted(drawn)],
            players=players,
            seed=plan.seed,
            groups=groups,
        )
        schedule = replan_from_input(data)
        plan.replan_inputs = [*plan.replan_inputs, data]
        plan.sessions = schedule.sessions
        plan.players = schedule.players
        plan.stats = schedule.stats
        plan.replans += 1
        plan.moved_seats += schedule.moved_seats
        plan.save()
    if number > len(plan.sessions):
        raise _session_refused(
            number, _("The schedule has no session %(number)s."), "session_not_planned"
        )
    return plan.seed, seat_order_lots(plan.sessions[number - 1])


@transaction.atomic
def session_publish(*, session: Session) -> Session:
    """Show a reviewed draw to the players: their links, the seating pages and the hall's
    screen show it from now on. Publishing again changes nothing."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.published_at is None:
        fields_saved(session, published_at=timezone.now())
        seat_emails_queue(session=session)
        # The seating version too: what the players' pages keep under it holds the sessions
        # published (``selectors.seating``). It gives a new standings stamp as well, so the
        # pages kept under the old stamp are drawn again.
        tournament_touch(session.tournament_id)
    return session


@transaction.atomic
def session_cancel_draw(*, session: Session) -> None:
    """Undo a draw before play starts (a withdrawal, a late registration); it can be redrawn.
    Its seats' e-mails not sent yet are dropped: they would tell seats that no longer are."""
    if Hand.objects.filter(table__session=session).exists():
        raise ValidationError(
            _("Hands are already entered in session %(n)s: its draw can no longer be cancelled.")
            % {"n": session.number},
            code="session_has_hands",
        )
    seat_emails_drop(tournament_id=session.tournament_id, session_number=session.number)
    tournament_touch(session.tournament_id)
    # The history keeps the session, its tables and seats, each marked as a cancelled draw.
    with audit.acting(reason=audit.DRAW_CANCELLED):
        session.delete()


@transaction.atomic
def seat_replace(*, seat: Seat, player: Player) -> Seat:
    """Put ``player`` (say a substitute) in a drawn seat before its table starts playing.

    The seat remembers whom the lot gave it, so the published draw stays checkable.
    """
    seat = Seat.objects.select_related("table", "session", "player").get(pk=seat.pk)
    # The table's row locked, as every write of its hands and seats locks it: a confirmation
    # of the table (its review showed the players seated now) waits for this change, or this
    # change for the confirmation's not-played hands, which then refuse it.
    locked_table(seat.table)
    if seat.table.hands.exists():
        raise ValidationError(
            _("Table %(t)s has started: its players can no longer change.")
            % {"t": seat.table.number},
            code="table_has_hands",
        )
    if player.tournament_id != seat.session.tournament_id or not player.is_active:
        raise refused("player", _("Choose an active player."), "player_not_active")
    if (
        Ruling.objects.filter(table=seat.table)
        .exclude(penalty_kind="")
        .filter(Q(offender=seat.player) | Q(beneficiary=seat.player))
        .exists()
    ):
        # The penalty follows its player: with them gone, their hand could not be settled.
        raise ValidationError(
            _(
                "A ruling at table %(t)s gives a penalty that names %(name)s: they keep their "
                "seat (an appeal may withdraw the penalty first)."
            )
            % {"t": seat.table.number, "name": seat.player.name},
            code="player_in_a_ruling",
        )
    if Seat.objects.filter(session=seat.session, player=player).exists():
        raise refused(
            "player",
            _("%(name)s already has a seat in this session.") % {"name": player.name},
            "player_already_seated",
        )
    drawn = seat.replaces or seat.player
    # The player leaving the seat is not to be told it any more, if not told yet.
    seat_emails_drop(
        tournament_id=seat.session.tournament_id,
        session_number=seat.session.number,
        players=[seat.player],
    )
    fields_saved(seat, player=player, replaces=None if player == drawn else drawn)
    if seat.session.published_at is not None:
        # The player now in the seat learns it as the others learnt theirs.
        seat_emails_queue(session=seat.session, players=[player])
    tournament_touch(seat.session.tournament_id)
    return seat
