"""The standings workbook: one row generator per sheet, and the file made of them.

Each ``*_rows`` function yields a header, then one tuple of plain values per line:
ints, strings, booleans, ``None`` for an empty cell and exact ``Fraction``s for table
points (``ExactPoints`` where the cell is to show the fraction itself). Only the step to
the file turns a ``Fraction`` into a number a spreadsheet holds, so any other reader of the
rows (CSV, a test) sees the exact values.

The rows come from the stored seat results and from the hands and seats read as plain
values, never as model objects, and ``spreadsheet`` streams them into the file as they come
(openpyxl's write-only mode): a 1,000-player tournament's 40,000 hands are never all in
memory at once. The file is made from the tournament alone, never from a request: the task
queue builds it once per version of the data and the site serves it from the database
(``services.exports``).
"""

import dataclasses
import io
import itertools
from collections.abc import Iterable, Iterator
from fractions import Fraction

from django.utils import formats, timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournament import scoring, seating
from tournament.exports.spreadsheet import PageText, Sheet, Title, page_text, write_workbook
from tournament.language.formatting import SEAT_LABELS, WIND_NAMES, days_text, place_text
from tournament.models import Hand, Penalty, Seat
from tournament.scoring import PenaltyKind
from tournament.selectors.fouls import Foul, record_of_fouls
from tournament.selectors.lookups import PLAYED_SEAT
from tournament.selectors.overview import event_days
from tournament.selectors.rules import rules_shown
from tournament.selectors.standings import (
    StandingRow,
    TeamRow,
    penalties_of,
    team_standings,
    tournament_standings,
)
from tournament.selectors.withdrawals import (
    REPLACED_FIELDS,
    SubstituteCount,
    last_sessions_played,
    replaced_text,
    substitute_count,
)

Row = tuple

# Excel keeps 15 significant digits; four decimals tell 7/3 from 2.33 at a glance, and
# the exact value sits in the "(exact)" column beside it, a number shown as a fraction
# (7/3 as "2 1/3") that sums and sorts as a number.
TABLE_POINTS_DECIMALS = 4


class ExactPoints(Fraction):
    """Table points for a cell that shows the exact fraction (a number, not text)."""


def _seat(seat: int | None) -> str | None:
    return SEAT_LABELS[seat] if seat is not None else None


# ---------------------------------------------------------------- row generators


def standing_status(row: StandingRow, last_session: int | None) -> str:
    """Why a player has no rank, or that they withdrew: in the standings page's words (its
    badges say "substitute" and "withdrawn"). ``last_session`` is the last session the
    player played, if any. Empty for a player who plays on."""
    player = row.player
    if player.is_substitute:
        return _("substitute (unranked)")
    if player.withdrawn_at is None:
        return ""
    if not row.ranked:
        return _("withdrawn before playing (unranked)")
    return _("withdrawn after session %(number)s") % {"number": last_session}


def standings_rows(
    rows: Iterable[StandingRow],
    last_sessions: dict[int, int] | None = None,
    *,
    hands_won: bool = False,
) -> Iterator[Row]:
    """The individual standings, ranked players first, then the unranked ones (substitutes,
    players who withdrew before playing) without a rank, their status saying why;
    ``last_sessions`` is ``last_sessions_played``. ``hands_won``: with each player's hands
    won after the best session (where the ranking order counts them)."""
    last_sessions = last_sessions or {}
    won = (_("Hands won"),) if hands_won else ()
    yield (
        _("Rank"),
        _("Number"),
        _("Name"),
        _("Chinese name"),
        _("Team"),
        _("Country"),
        _("Table points"),
        _("Table points (exact)"),
        _("Score"),
        _("1st"),
        _("2nd"),
        _("3rd"),
        _("4th"),
        _("Sessions played"),
        _("Best session"),
        *won,
        _("Substitute"),
        _("Status"),
    )
    for row in rows:
        player = row.player
        yield (
            row.rank,
            player.number,
            player.name,
            player.name_zh,
            player.team,
            player.country,
            row.table_points,
            ExactPoints(row.table_points),
            row.score,
            *row.places,
            row.sessions_played,
            row.best_session,
            *((row.hands_won,) if hands_won else ()),
            # A mark: "yes" for a substitute, blank for everyone else.
            True if player.is_substitute else None,
            standing_status(row, last_sessions.get(player.pk)),
        )


def substitute_rows(count: SubstituteCount) -> list[Row]:
    """The note below the standings: how many substitutes have sat at a table against the
    federation's limit (the tournament page's words)."""
    said = ngettext(
        "%(n)s substitute has sat at a table; the federation counts at most %(limit)s.",
        "%(n)s substitutes have sat at a table; the federation counts at most %(limit)s.",
        count.seated,
    ) % {"n": count.seated, "limit": count.limit}
    block: list[Row] = [(said,)]
    if count.beyond_limit:
        block.append(
            (
                ngettext(
                    "The federation will count only %(limit)s substitute.",
                    "The federation will count only %(limit)s substitutes.",
                    count.limit,
                )
                % {"limit": count.limit},
            )
        )
    return block


def heading_rows(tournament, made) -> list[Row]:
    """The rows above the standings, for the sheet printed as a handout: the tournament's
    name, its days (``event_days``) and place where known, when the file was made
    (``made``, an aware datetime, on the tournament's clock, its zone named), then a blank
    row."""
    made_text = _("Made on %(moment)s (%(zone)s)") % {
        "moment": formats.date_format(timezone.localtime(made, tournament.zone), "DATETIME_FORMAT"),
        "zone": tournament.time_zone,
    }
    facts = [days_text(event_days(tournament)), place_text(tournament)]
    return [(Title(tournament.name),), *[(fact,) for fact in facts if fact], (made_text,), ()]


SESSION_SEAT_FIELDS = (
    "session__number",
    "table__number",
    "seat",
    "player__number",
    "player__name",
    "player__name_zh",
    "score",
    "place",
    "table_points_twelfths",
    "table__confirmed_at",
)


def session_rows(seats: Iterable[tuple]) -> Iterator[Row]:
    """One session's results: every player of every table, by table and starting seat, from
    the seats' stored results (empty where the table has no hand yet); ``seats`` are tuples
    of ``SESSION_SEAT_FIELDS``."""
    yield (
        _("Table"),
        _("Seat"),
        _("Number"),
        _("Name"),
        _("Chinese name"),
        _("Score"),
        _("Place"),
        _("Table points"),
        _("Table points (exact)"),
        _("Confirmed"),
    )
    for _session, table, seat, number, name, name_zh, score, place, twelfths, confirmed in seats:
        played = place is not None
        points = scoring.from_twelfths(twelfths)
        yield (
            table,
            SEAT_LABELS[seat],
            number,
            name,
            name_zh,
            score if played else None,
            place,
            points if played else None,
            ExactPoints(points) if played else None,
            confirmed is not None,
        )


HAND_FIELDS = (
    "table__session__number",
    "table__number",
    "table_id",
    "number",
    "outcome",
    "winner",
    "discarder",
    "fan",
    "flowers",
    "fan_names",
    "winning_hand",
    "computed_fan",
    "points_p1",
    "points_p2",
    "points_p3",
    "points_p4",
)


def hand_rows(tournament) -> Iterator[Row]:
    """Every entered hand of every table, with the settled points per starting seat: read as
    plain values in one streamed query, never as model objects."""
    yield (
        _("Session"),
        _("Table"),
        _("Hand"),
        _("Prevalent wind"),
        _("Dealer"),
        _("Dealer name"),
        _("Result"),
        _("Winner"),
        _("Winner name"),
        _("Discarder"),
        _("Discarder name"),
        _("Fan"),
        _("Flowers"),
        _("Fans claimed"),
        _("Winning hand"),
        _("Computed fan"),
        _("Points P1"),
        _("Points P2"),
        _("Points P3"),
        _("Points P4"),
    )
    names = {
        (table, seat): name
        for table, seat, name in Seat.objects.filter(session__tournament=tournament)
        .order_by()
        .values_list("table_id", "seat", "player__name")
    }
    # What the schedule says of each hand number, translated once.
    slots = {
        slot.number: (str(WIND_NAMES[slot.prevalent_wind]), slot.dealer)
        for slot in seating.session_schedule()
    }
    outcomes = {key: str(label) for key, label in Hand.OUTCOME_CHOICES}
    hands = (
        Hand.objects.filter(table__session__tournament=tournament)
        .order_by("table__session__number", "table__number", "number")
        .values_list(*HAND_FIELDS)
        .iterator(chunk_size=2000)
    )
    for session, table, table_id, number, outcome, winner, discarder, *rest in hands:
        fan, flowers, fan_names, winning_hand, computed_fan, *points = rest
        wind, dealer = slots[number]
        yield (
            session,
            table,
            number,
            wind,
            SEAT_LABELS[dealer],
            names.get((table_id, dealer)),
            outcomes[outcome],
            _seat(winner),
            names.get((table_id, winner)) if winner is not None else None,
            _seat(discarder),
            names.get((table_id, discarder)) if discarder is not None else None,
            fan,
            flowers if outcome in Hand.WINS else None,
            fan_names,
            winning_hand,
            computed_fan,
            *points,
        )


def penalty_rows(tournament) -> Iterator[Row]:
    """Every penalty, in the order of the hands."""
    yield (
        _("Session"),
        _("Table"),
        _("Hand"),
        _("Offender seat"),
        _("Offender number"),
        _("Offender name"),
        _("Kind"),
        _("Points"),
        _("Paid to"),
        _("Reason"),
    )
    penalties = penalties_of(tournament)
    # The players of the tables with a penalty only: a few, where the tournament has thousands.
    players = {
        (table, seat): (number, name)
        for table, seat, number, name in Seat.objects.filter(
            table__in=Penalty.objects.filter(hand__table__session__tournament=tournament).values(
                "hand__table"
            )
        )
        .order_by()
        .values_list("table_id", "seat", "player__number", "player__name")
    }
    for penalty in penalties:
        table = penalty.hand.table
        offender = players.get((table.pk, penalty.offender))
        if penalty.beneficiary is not None:
            beneficiary = players.get((table.pk, penalty.beneficiary))
            paid_to = (
                f"{SEAT_LABELS[penalty.beneficiary]} {beneficiary[0]} {beneficiary[1]}"
                if beneficiary
                else SEAT_LABELS[penalty.beneficiary]
            )
        elif penalty.kind == PenaltyKind.TO_EACH_OTHER:
            paid_to = _("each other player")
        else:
            paid_to = None
        yield (
            table.session.number,
            table.number,
            penalty.hand.number,
            SEAT_LABELS[penalty.offender],
            offender[0] if offender else None,
            offender[1] if offender else None,
            str(penalty.get_kind_display()),
            penalty.points,
            paid_to,
            penalty.reason,
        )


def foul_rows(fouls: Iterable[Foul], zone) -> Iterator[Row]:
    """The record of fouls as its page shows it (``selectors.fouls``), a cell a value: the
    times on the tournament's clock (``zone``), the penalty's points a number of their own,
    warnings without."""
    yield (
        _("No."),
        _("Session"),
        _("Table"),
        _("Hand"),
        _("Time"),
        _("Player number"),
        _("Player"),
        _("Chinese name"),
        _("Offence"),
        _("Penalty"),
        _("Points"),
        _("Paid to"),
        _("Decision"),
        _("Referee"),
        _("Appeal"),
        _("Appeal decision"),
    )
    for foul in fouls:
        players = foul.players
        appeal = foul.appeal_text
        if foul.previous:
            was = _("was: %(penalty)s") % {"penalty": foul.previous}
            appeal = f"{appeal} ({was})" if appeal else f"({was})"
        yield (
            foul.number,
            foul.session,
            foul.table,
            foul.hand,
            timezone.localtime(foul.time, zone).strftime("%Y-%m-%d %H:%M"),
            ", ".join(str(p.number) for p in players) or None,
            ", ".join(p.name for p in players) or None,
            ", ".join(p.name_zh for p in players if p.name_zh) or None,
            foul.offence,
            foul.kind_label,
            foul.penalty_points,
            str(foul.beneficiary) if foul.beneficiary else None,
            foul.decision,
            foul.referee,
            foul.appeal_label,
            appeal,
        )


def seating_rows(tournament) -> Iterator[Row]:
    """The draw of every session: table, starting seat and lot of each player; whom a
    substitute replaces (the player the draw gave the seat, who withdrew, or the withdrawn
    player a substitute the draw seated stands in for) and the day a seated player withdrew,
    as the seating page marks them."""
    yield (
        _("Session"),
        _("Table"),
        _("Seat"),
        _("Lot"),
        _("Number"),
        _("Name"),
        _("Chinese name"),
        _("Team"),
        _("Replaces"),
        _("Withdrawn"),
    )
    seats = (
        Seat.objects.filter(session__tournament=tournament, session__published_at__isnull=False)
        .order_by("session__number", "table__number", "seat")
        .values_list(
            "session__number",
            "table__number",
            "seat",
            "lot",
            "player__number",
            "player__name",
            "player__name_zh",
            "player__team",
            "player__withdrawn_at",
            *REPLACED_FIELDS,
        )
        .iterator(chunk_size=2000)
    )
    for session, table, seat, lot, number, name, name_zh, team, withdrawn_at, *replaced in seats:
        yield (
            session,
            table,
            SEAT_LABELS[seat],
            lot,
            number,
            name,
            name_zh,
            team,
            replaced_text(*replaced) or None,
            None if withdrawn_at is None else timezone.localdate(withdrawn_at).isoformat(),
        )


def team_rows(teams: Iterable[TeamRow]) -> Iterator[Row]:
    """The team standings: sums of the ranked members' table points, then scores."""
    yield (
        _("Rank"),
        _("Team"),
        _("Members"),
        _("Table points"),
        _("Table points (exact)"),
        _("Score"),
    )
    for team in teams:
        yield (
            team.rank,
            team.team,
            ", ".join(team.members),
            team.table_points,
            ExactPoints(team.table_points),
            team.score,
        )


def rules_rows(tournament) -> Iterator[Row]:
    """The tournament's rules as its rules page says them (``selectors.rules``): each option
    with whether it is the site's reading, the penalty presets, the ranking order, then the
    changes made after play started (their times on the tournament's clock)."""
    shown = rules_shown(tournament)
    reading = _("the site's reading of %(book)s") % {"book": shown.book}
    yield (_("Rule"), _("As played"), _("Note"))
    for line in shown.options:
        yield (line.label, line.text, reading if line.reading else None)
    for n, row in enumerate(shown.presets):
        yield (
            _("Penalty presets") if n == 0 else None,
            f"{row.offence}: {row.kind}, {row.points}",
            reading if n == 0 and shown.presets_reading else None,
        )
    for n, label in enumerate(shown.tiebreaks, start=1):
        yield (
            _("Ranking order") if n == 1 else None,
            f"{n}. {label}",
            reading if n == 1 and shown.tiebreaks_reading else None,
        )
    for change in shown.changes:
        when = formats.date_format(
            timezone.localtime(change.change.changed_at, tournament.zone), "DATETIME_FORMAT"
        )
        yield (
            _("Changed on %(moment)s") % {"moment": when},
            change.change.reason,
            "; ".join(
                f"{label}: {before} → {after}" for label, before, after in change.differences
            ),
        )


def has_teams(rows: Iterable[StandingRow]) -> bool:
    """Whether any player, ranked or not, belongs to a team: then teams are shown."""
    return any(row.player.team for row in rows)


def _session_seats(tournament) -> Iterator[tuple[int, Iterator[tuple]]]:
    """(session number, its played seats by table and seat) for every session with a table
    played, from one query: a table drawn but not started has no results to show (the
    standings' rule, ``PLAYED_SEAT``)."""
    seats = (
        Seat.objects.filter(PLAYED_SEAT, session__tournament=tournament)
        .order_by("session__number", "table__number", "seat")
        .values_list(*SESSION_SEAT_FIELDS)
        .iterator(chunk_size=2000)
    )
    return itertools.groupby(seats, key=lambda seat: seat[0])


def workbook_sheets(tournament, made=None) -> Iterator[Sheet]:
    """Every sheet of the standings workbook, in order, its rows as the row generators give
    them (``cell_values`` makes them cells); each sheet's rows are read as it is written. A
    session has a sheet once one of its tables has been played, with the played tables
    only. ``made``: when the file is made (now by default), for the Standings' heading."""
    rows = tournament_standings(tournament)
    # Every printed page says whose it is, and which page of how many.
    page = PageText(
        header=page_text(tournament.name),
        # Translators: "&P" and "&N" are the spreadsheet's codes for the page's number and
        # the number of pages: keep them as they are.
        footer=_("Page &P of &N"),
    )
    yield Sheet(
        _("Standings"),
        standings_rows(
            rows,
            last_sessions_played(tournament),
            hands_won="hands_won" in tournament.tiebreaks,
        ),
        above=heading_rows(tournament, made or timezone.now()),
        below=substitute_rows(substitute_count(tournament)),
        page=page,
    )
    for number, seats in _session_seats(tournament):
        yield Sheet(_("Session %(number)s") % {"number": number}, session_rows(seats), page=page)
    yield Sheet(pgettext("workbook sheet", "Hands"), hand_rows(tournament), page=page)
    yield Sheet(_("Penalties"), penalty_rows(tournament), page=page)
    yield Sheet(
        _("Record of fouls"), foul_rows(record_of_fouls(tournament), tournament.zone), page=page
    )
    yield Sheet(_("Seating"), seating_rows(tournament), page=page)
    if has_teams(rows):
        yield Sheet(_("Teams"), team_rows(team_standings(rows)), page=page)
    yield Sheet(_("Rules"), rules_rows(tournament), page=page)


# ---------------------------------------------------------------- xlsx


def _cell_value(value):
    """The one place where exact values become what a spreadsheet cell holds: a ``Fraction``
    the writer shows as a fraction (``ExactPoints``), or a number rounded for the eye; a
    yes or no as the word, never a spreadsheet's TRUE or FALSE."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, Fraction):
        if isinstance(value, ExactPoints):
            return value
        return round(float(value), TABLE_POINTS_DECIMALS)
    if isinstance(value, Promise):
        return str(value)
    return value


# Values the writer takes as they are.
_PLAIN = frozenset({int, float, str, type(None)})


def cell_values(rows: Iterable[Row]) -> Iterator[list]:
    """The rows as the file's cells hold them (``_cell_value``)."""
    for row in rows:
        yield [value if type(value) in _PLAIN else _cell_value(value) for value in row]


def as_cells(sheet: Sheet) -> Sheet:
    """The sheet with its rows as the file's cells hold them."""
    return dataclasses.replace(sheet, rows=cell_values(sheet.rows))


def workbook_bytes(sheets: Iterable[Sheet]) -> bytes:
    """The .xlsx file of ``sheets``, their rows made cells (``as_cells``) as they are written."""
    buffer = io.BytesIO()
    write_workbook(buffer, (as_cells(sheet) for sheet in sheets))
    return buffer.getvalue()


def standings_xlsx_bytes(tournament) -> bytes:
    """The whole tournament as an .xlsx in the active language: standings, sessions, hands,
    penalties, the record of fouls, seating (and teams), the rules, each sheet written as its
    rows are read."""
    return workbook_bytes(workbook_sheets(tournament))
