"""The activity log of a tournament: its history rows (``tournament.history.audit``), newest first,
told in words: when, who (an account or a table's tablet), what, and each field's value
before and after.

The historical tables are read in the database: one query merges the rows of every model
of the tournament (``UNION ALL``), filtered, ordered and cut to the page a table shows (another
counts them, for the table's pages); then a fixed number of queries reads the page's rows, the
rows before them and the names they refer to. The number of queries does not grow with the
tournament's history, only the database's work does.

Historical rows keep the ids of the rows they refer to, whether those still exist (a
cancelled draw's tables do not): a tournament's sessions, tables and hands are found among
the live rows and the historical ones both, so rows changed since the history began are
found even when the row they belong to has no history yet.
"""

import datetime
import functools
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import CharField, OuterRef, Q, Subquery, Value
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from tournament.history import audit
from tournament.language.formatting import SEAT_LABELS
from tournament.models import (
    Appeal,
    DrawCommitment,
    Hand,
    Penalty,
    Player,
    RefereeCall,
    RuleChange,
    Ruling,
    Seat,
    SeatingPlan,
    Session,
    Table,
    TableReopening,
    Tournament,
)

# Times as the log's "when" column writes them, to the second.
TIME_FORMAT = "Y-m-d H:i:s"

# Not shown as changes: ids and counters, the row the subject already names (its tournament,
# session, table or hand), and who made the change, which the log's "who" column says.
HIDDEN_FIELDS = frozenset(
    {
        "id",
        "version",
        "tournament",
        "session",
        "table",
        "hand",
        "entered_by",
        "entered_by_device",
        "confirmed_by",
        "reopened_by",
        "draw_input",
        # A commitment's secret stays off the log: the fairness page shows it once public.
        "secret_seed",
        "salt",
        # The desk's: a call's one-time key; the call a ruling resolved and the ruling a
        # penalty or an appeal carries (the subject names its table and hand); the offence's
        # code (its words are listed); what an appeal changed (its ruling's row says); who
        # called, lodged or decided, and when, which the log's columns say.
        "key",
        "call",
        "ruling",
        "offence",
        "previous",
        "called_by",
        "called_by_device",
        "lodged_by",
        "decided_by",
        "called_at",
        "ruled_at",
        "lodged_at",
        "decided_at",
        "ended_at",
        "taken_at",
        # A change of the rules: its options before and after (the tournament's row lists
        # them) and who made it (the log's column).
        "before",
        "after",
        "changed_by",
    }
)
# Said by the subject ("Hand 5, session 2 table 3"): not listed again with a row's values.
SUBJECT_FIELDS = {
    "player": {"number", "name"},
    "session": {"number"},
    "table": {"number"},
    "seat": {"seat"},
    "hand": {"number"},
}
# Who made, confirmed or reopened a row, or referees a table: named by their account.
USER_COLUMNS = ("referee_id", "confirmed_by_id", "entered_by_id", "reopened_by_id", "taken_by_id")
# The players a row names by id.
PLAYER_COLUMNS = ("player_id", "replaces_id", "offender_id", "beneficiary_id")
# Large figures (the whole-tournament schedule): said to have changed, not spelled out.
SUMMARISED_FIELDS = frozenset(
    {"players", "groups", "sessions", "stats", "document", "drawn", "penalty_presets"}
)
# Raised to revoke device links: the number means nothing to a reader.
REVOCATION_FIELDS = frozenset({"device_link_version", "device_links_version"})

FIELD_LABELS = {
    "points_p1": gettext_lazy("P1 points"),
    "points_p2": gettext_lazy("P2 points"),
    "points_p3": gettext_lazy("P3 points"),
    "points_p4": gettext_lazy("P4 points"),
    "deducted": gettext_lazy("points deducted"),
    "lot": gettext_lazy("lot"),
    "replaces": gettext_lazy("drawn player replaced"),
    "player": gettext_lazy("player"),
    "device_link_version": gettext_lazy("device link"),
    "device_links_version": gettext_lazy("device links of every table"),
    "opened_at": gettext_lazy("opened at"),
    "closed_at": gettext_lazy("closed at"),
    "confirmed_at": gettext_lazy("confirmed at"),
    "organisers": gettext_lazy("organisers"),
    "referees": gettext_lazy("referees"),
    "fixed_sessions": gettext_lazy("sessions drawn before the plan"),
    "replans": gettext_lazy("re-plans"),
    "moved_seats": gettext_lazy("seats moved by re-plans"),
}

# A call's state, when it changes: what became of it.
CALL_STATES = {
    RefereeCall.TAKEN: gettext_lazy("taken by a referee"),
    RefereeCall.RESOLVED: gettext_lazy("resolved"),
    RefereeCall.CANCELLED: gettext_lazy("cancelled"),
}
# What the creation of a row is called, where "created" is not the word.
CREATED = {
    "hand": gettext_lazy("entered"),
    "penalty": gettext_lazy("entered"),
    "call": gettext_lazy("called"),
    "ruling": gettext_lazy("given"),
    "appeal": gettext_lazy("lodged"),
    "rule_change": gettext_lazy("rules changed after play started"),
}

REASONS = {
    audit.DRAW_CANCELLED: gettext_lazy("draw cancelled"),
    audit.TOURNAMENT_DELETED: gettext_lazy("tournament deleted"),
    audit.TIME_CALLED: gettext_lazy("not played: time called"),
    audit.SEATS_SWAPPED: gettext_lazy("players swapped seats"),
    audit.COUNTRY_CODES: gettext_lazy("countries written as codes"),
    audit.UNDONE: gettext_lazy("undone"),
    audit.RULES_CHANGED: gettext_lazy("rules changed after play started"),
}

# What a change of these fields means, said instead of "changed": (when the field is set,
# when it is cleared). A change of a revocation counter is always a revocation.
EVENTS = {
    "player": {"withdrawn_at": (gettext_lazy("withdrawn"), gettext_lazy("reinstated"))},
    "session": {
        "published_at": (gettext_lazy("published"), gettext_lazy("back under review")),
        "opened_at": (gettext_lazy("opened for play"), gettext_lazy("back to drawn")),
        "closed_at": (gettext_lazy("closed"), gettext_lazy("reopened")),
        "device_links_version": (gettext_lazy("device links revoked"),) * 2,
    },
    "table": {
        "confirmed_at": (gettext_lazy("confirmed"), gettext_lazy("reopened")),
        "referee": (gettext_lazy("referee assigned"), gettext_lazy("referee removed")),
        "extra_minutes": (gettext_lazy("extra time"), gettext_lazy("extra time taken back")),
        "device_link_version": (gettext_lazy("device link revoked"),) * 2,
    },
    "seat": {"player": (gettext_lazy("player changed"),) * 2},
    "appeal": {"decided_at": (gettext_lazy("decided"), gettext_lazy("decision withdrawn"))},
    "commitment": {
        "public_value": (gettext_lazy("public value recorded"),) * 2,
        "revealed_at": (gettext_lazy("revealed by the draw"),) * 2,
        "withdrawn_at": (gettext_lazy("withdrawn"),) * 2,
    },
}


@dataclass(frozen=True)
class ActivityFilter:
    """Which part of the tournament: a session, a table number (in every session, or in the
    one given), a player (their record, their seats and what happened at their tables).

    Given together, they narrow each other. The settings, the seating plan and the draw's
    commitments are listed only without a filter; a session's own rows (opened, closed,
    cancelled) without a table or a player; a player's own rows (edits, withdrawal) without a
    session or a table.
    """

    session: int | None = None
    table: int | None = None
    player: int | None = None

    @property
    def is_empty(self) -> bool:
        return self.session is None and self.table is None and self.player is None


@dataclass(frozen=True)
class Change:
    label: str
    before: str
    after: str


@dataclass
class Activity:
    """One change, as the log lists it."""

    when: datetime.datetime
    user: object | None
    device: str
    kind: str  # "+" created, "~" changed, "-" deleted
    subject: str
    action: str
    changes: list[Change] = field(default_factory=list)

    @property
    def who(self) -> str:
        if self.user is not None:
            return self.user.get_username()
        if self.device:
            return _("tablet at %(link)s") % {"link": self.device}
        return ""


def _historical(model):
    return model.history.model


def _any_in(name: str, *querysets) -> Q:
    """``name`` is among the ids the querysets give (each a one-column ``values()``)."""
    return functools.reduce(
        operator.or_, (Q(**{f"{name}__in": queryset}) for queryset in querysets)
    )


def _sources(tournament: Tournament, where: ActivityFilter) -> dict[str, models.QuerySet]:
    """Per kind of row, the historical rows the filter keeps (querysets, not run)."""
    sessions = {
        "history": _historical(Session).objects.filter(tournament_id=tournament.pk),
        "live": Session.objects.filter(tournament_id=tournament.pk),
    }
    if where.session is not None:
        sessions = {key: qs.filter(number=where.session) for key, qs in sessions.items()}
    in_sessions = _any_in("session_id", *(qs.values("id") for qs in sessions.values()))
    tables = {
        "history": _historical(Table).objects.filter(in_sessions),
        "live": Table.objects.filter(in_sessions),
    }
    if where.table is not None:
        tables = {key: qs.filter(number=where.table) for key, qs in tables.items()}
    players = None
    if where.player is not None:
        players = Player.objects.filter(tournament_id=tournament.pk, number=where.player).values(
            "id"
        )
        theirs = Q(player_id__in=players) | Q(replaces_id__in=players)
        their_tables = _any_in(
            "id",
            _historical(Seat).objects.filter(theirs).values("table_id"),
            Seat.objects.filter(theirs).values("table_id"),
        )
        tables = {key: qs.filter(their_tables) for key, qs in tables.items()}
    in_tables = _any_in("table_id", *(qs.values("id") for qs in tables.values()))
    hands = _historical(Hand).objects.filter(in_tables)
    in_hands = _any_in("hand_id", hands.values("id"), Hand.objects.filter(in_tables).values("id"))
    seats = _historical(Seat).objects.filter(in_tables)
    if players is not None:
        seats = seats.filter(Q(player_id__in=players) | Q(replaces_id__in=players))

    rulings = _historical(Ruling).objects.filter(in_tables)
    in_rulings = _any_in(
        "ruling_id", rulings.values("id"), Ruling.objects.filter(in_tables).values("id")
    )
    sources = {
        "table": tables["history"],
        "seat": seats,
        "hand": hands,
        "penalty": _historical(Penalty).objects.filter(in_hands),
        "reopening": _historical(TableReopening).objects.filter(in_tables),
        "call": _historical(RefereeCall).objects.filter(in_tables),
        "ruling": rulings,
        "appeal": _historical(Appeal).objects.filter(in_rulings),
    }
    if where.table is None and where.player is None:
        sources["session"] = sessions["history"]
    if where.session is None and where.table is None:
        player_rows = _historical(Player).objects.filter(tournament_id=tournament.pk)
        if players is not None:
            player_rows = player_rows.filter(id__in=players)
        sources["player"] = player_rows
    if where.is_empty:
        sources["tournament"] = _historical(Tournament).objects.filter(id=tournament.pk)
        sources["rule_change"] = _historical(RuleChange).objects.filter(tournament_id=tournament.pk)
        sources["plan"] = _historical(SeatingPlan).objects.filter(tournament_id=tournament.pk)
        sources["commitment"] = _historical(DrawCommitment).objects.filter(
            tournament_id=tournament.pk
        )
    return sources


SOURCE_MODELS = {
    "tournament": Tournament,
    "rule_change": RuleChange,
    "plan": SeatingPlan,
    "player": Player,
    "session": Session,
    "table": Table,
    "seat": Seat,
    "hand": Hand,
    "penalty": Penalty,
    "reopening": TableReopening,
    "commitment": DrawCommitment,
    "call": RefereeCall,
    "ruling": Ruling,
    "appeal": Appeal,
}


class ActivityLog(Sequence):
    """The tournament's changes that a filter keeps, newest first, read a slice at a time: its
    length is one count, a slice is one query for the changes it holds and a fixed number for
    what they refer to, whatever the history's size (a table's pages slice it)."""

    def __init__(self, tournament: Tournament, where: ActivityFilter | None = None):
        sources = _sources(tournament, where or ActivityFilter())
        branches = [
            queryset.order_by()
            .annotate(source=Value(key, output_field=CharField()))
            .values_list("history_date", "history_id", "source")
            for key, queryset in sources.items()
        ]
        self._merged = branches[0].union(*branches[1:], all=True)
        self._length: int | None = None

    def __len__(self) -> int:
        if self._length is None:
            self._length = self._merged.count()
        return self._length

    def __getitem__(self, index):
        if isinstance(index, slice):
            return _activities(self._merged.order_by("-history_date", "-history_id")[index])
        return self[index : index + 1][0]

    def __iter__(self):
        # Every change in one read, not one read a change.
        return iter(self[:])


def _activities(found) -> list[Activity]:
    """The changes ``found`` names, as (when, history id, source) in their order, each with
    the row before it and the names it refers to."""
    found = list(found)
    by_source: dict[str, list[int]] = {}
    for _when, history_id, source in found:
        by_source.setdefault(source, []).append(history_id)
    rows = {}
    previous = {}
    for source, ids in by_source.items():
        fetched, before = _rows_and_previous(_historical(SOURCE_MODELS[source]), ids)
        rows.update({(source, row.history_id): row for row in fetched})
        previous.update({(source, row.history_id): row for row in before})
    names = _Names.read(rows, previous)
    entries = []
    for _when, history_id, source in found:
        row = rows[(source, history_id)]
        before = previous.get((source, getattr(row, "previous_history_id", None)))
        entries.append(_activity(source, row, before, names))
    return entries


def _rows_and_previous(model, ids: list[int]):
    """The page's rows of one historical model, each with the history row before it (of the
    same object): two queries."""
    earlier = model.objects.filter(id=OuterRef("id"), history_id__lt=OuterRef("history_id"))
    rows = list(
        model.objects.filter(history_id__in=ids)
        .select_related("history_user")
        .annotate(
            previous_history_id=Subquery(earlier.order_by("-history_id").values("history_id")[:1])
        )
    )
    previous_ids = [row.previous_history_id for row in rows if row.previous_history_id]
    before = list(model.objects.filter(history_id__in=previous_ids)) if previous_ids else []
    return rows, before


@dataclass
class _Names:
    """What the page's rows refer to by id, read in a fixed number of queries."""

    users: dict[int, str]
    players: dict[int, str]
    hands: dict[int, tuple[int, int]]  # hand id -> (number, table id)
    rulings: dict[int, tuple[int | None, int]]  # ruling id -> (hand number, table id)
    tables: dict[int, tuple[int, int]]  # table id -> (number, session id)
    sessions: dict[int, int]  # session id -> number
    accounts: dict[int, dict[str, list[int]]]  # tournament's history id -> m2m user ids

    @classmethod
    def read(cls, rows: dict, previous: dict) -> "_Names":
        user_ids, player_ids, hand_ids, table_ids, ruling_ids = set(), set(), set(), set(), set()
        tournament_rows = []
        for (source, _history_id), row in [*rows.items(), *previous.items()]:
            user_ids.update(getattr(row, name, None) for name in USER_COLUMNS)
            player_ids.update(getattr(row, name, None) for name in PLAYER_COLUMNS)
            table_ids.add(row.id if source == "table" else getattr(row, "table_id", None))
            if source == "penalty":
                hand_ids.add(row.hand_id)
            if source == "appeal":
                ruling_ids.add(row.ruling_id)
            if source == "tournament":
                tournament_rows.append(row)
        accounts: dict = {}
        for m2m_field in _historical(Tournament)._history_m2m_fields:
            kept = HistoricalRecords.m2m_models[m2m_field]
            for history_id, user_id in kept.objects.filter(
                history_id__in=[row.history_id for row in tournament_rows]
            ).values_list("history_id", "user_id"):
                accounts.setdefault(history_id, {}).setdefault(m2m_field.name, []).append(user_id)
                user_ids.add(user_id)
        hands = _numbers(Hand, hand_ids, "table_id")
        rulings = _ruling_places(ruling_ids)
        table_ids.update(table_id for _number, table_id in [*hands.values(), *rulings.values()])
        tables = _numbers(Table, table_ids - {None}, "session_id")
        session_ids = {session_id for _number, session_id in tables.values()}
        sessions = {
            key: number for key, (number, _none) in _numbers(Session, session_ids, None).items()
        }
        users = dict(
            get_user_model()
            .objects.filter(pk__in=user_ids - {None})
            .values_list("pk", get_user_model().USERNAME_FIELD)
        )
        players = {
            player.pk: str(player) for player in Player.objects.filter(pk__in=player_ids - {None})
        }
        return cls(users, players, hands, rulings, tables, sessions, accounts)


def _numbers(model, ids: set[int], parent: str | None) -> dict[int, tuple[int, int | None]]:
    """id -> (number, parent id) of ``model``'s rows, live or deleted (one query, none when
    there are no ids). A row's number and parent never change."""
    if not ids:
        return {}
    columns = ("id", "number", parent) if parent else ("id", "number")
    live = model.objects.filter(pk__in=ids).order_by().values_list(*columns)
    kept = _historical(model).objects.filter(id__in=ids).order_by().values_list(*columns)
    return {row[0]: (row[1], row[2] if parent else None) for row in live.union(kept)}


def _ruling_places(ids: set[int]) -> dict[int, tuple[int | None, int]]:
    """ruling id -> (its hand, its table id), live or deleted (one query, none without ids).
    A ruling's table and hand never change."""
    if not ids:
        return {}
    columns = ("id", "hand", "table_id")
    live = Ruling.objects.filter(pk__in=ids).order_by().values_list(*columns)
    kept = _historical(Ruling).objects.filter(id__in=ids).order_by().values_list(*columns)
    return {pk: (hand, table_id) for pk, hand, table_id in live.union(kept)}


def _table_words(names: _Names, table_id) -> dict:
    number, session_id = names.tables.get(table_id, ("?", None))
    return {"session": names.sessions.get(session_id, "?"), "table": number}


def _subject(source: str, row, names: _Names) -> str:
    if source == "tournament":
        return _("Tournament settings")
    if source == "rule_change":
        return _("Rules")
    if source == "plan":
        return _("Seating plan")
    if source == "commitment":
        return _("Draw commitment %(hash)s") % {"hash": row.hash[:12]}
    if source == "player":
        return _("Player %(number)s %(name)s") % {"number": row.number, "name": row.name}
    if source == "session":
        return _("Session %(session)s") % {"session": row.number}
    if source == "table":
        return _("Session %(session)s table %(table)s") % _table_words(names, row.id)
    if source == "seat":
        words = _table_words(names, row.table_id)
        return _("Seat %(seat)s, session %(session)s table %(table)s") % {
            "seat": SEAT_LABELS[row.seat] if row.seat is not None else "?",
            **words,
        }
    if source == "hand":
        return _("Hand %(hand)s, session %(session)s table %(table)s") % {
            "hand": row.number,
            **_table_words(names, row.table_id),
        }
    if source == "penalty":
        number, table_id = names.hands.get(row.hand_id, ("?", None))
        return _("Penalty in hand %(hand)s, session %(session)s table %(table)s") % {
            "hand": number,
            **_table_words(names, table_id),
        }
    if source == "call":
        words = _table_words(names, row.table_id)
        if row.hand is None:
            return _("Call for a referee, session %(session)s table %(table)s") % words
        return _("Call for a referee about hand %(hand)s, session %(session)s table %(table)s") % {
            "hand": row.hand,
            **words,
        }
    if source == "ruling":
        return _ruling_subject(names, row.hand, row.table_id)
    if source == "appeal":
        hand, table_id = names.rulings.get(row.ruling_id, (None, None))
        return _ruling_subject(names, hand, table_id, appeal=True)
    return _("Reopening of session %(session)s table %(table)s") % _table_words(names, row.table_id)


def _ruling_subject(names: _Names, hand, table_id, *, appeal: bool = False) -> str:
    words = _table_words(names, table_id)
    if hand is None:
        if appeal:
            return _("Appeal of a ruling, session %(session)s table %(table)s") % words
        return _("Ruling, session %(session)s table %(table)s") % words
    words["hand"] = hand
    if appeal:
        return _("Appeal of the ruling in hand %(hand)s, session %(session)s table %(table)s") % (
            words
        )
    return _("Ruling in hand %(hand)s, session %(session)s table %(table)s") % words


def _label(model, name: str) -> str:
    return str(FIELD_LABELS.get(name) or model._meta.get_field(name).verbose_name)


def _shown(model, name: str, value, names: _Names) -> str:
    """A field's value in words; "" for none."""
    if value is None or value == "" or value == []:
        return ""
    model_field = model._meta.get_field(name)
    if name == "penalty_kind":
        # A ruling's penalty is paid as a sheet's is: in the sheet's words.
        return str(dict(Penalty.KIND_CHOICES).get(value, value))
    if model_field.choices:
        return str(dict(model_field.flatchoices).get(value, value))
    if isinstance(model_field, models.ForeignKey):
        if model_field.related_model is Player:
            return names.players.get(value, f"#{value}")
        return names.users.get(value, f"#{value}")
    if isinstance(model_field, models.BooleanField):
        return _("yes") if value else _("no")
    if isinstance(value, datetime.datetime):
        return dateformat.format(timezone.localtime(value), TIME_FORMAT)
    if isinstance(value, list) and all(isinstance(each, str) for each in value):
        return ", ".join(value)
    return str(value)


def _accounts(names: _Names, row, name: str) -> list[str]:
    ids = names.accounts.get(row.history_id, {}).get(name, [])
    return sorted(names.users.get(user_id, f"#{user_id}") for user_id in ids)


def _changes(model, source: str, row, before, names: _Names) -> list[Change]:
    """Field by field: before → after for a change; the values for a creation or a deletion."""
    m2m = [each.name for each in row._history_m2m_fields]
    if row.history_type == "~" and before is not None:
        delta = row.diff_against(before, excluded_fields=[*HIDDEN_FIELDS, *m2m])
        order = {each.name: index for index, each in enumerate(model._meta.fields)}
        changes = []
        for change in sorted(delta.changes, key=lambda change: order.get(change.field, 0)):
            name = change.field
            if name in REVOCATION_FIELDS:
                old, new = "", _("revoked")
            elif name in SUMMARISED_FIELDS:
                old, new = "", _("updated")
            else:
                old = _shown(model, name, change.old, names)
                new = _shown(model, name, change.new, names)
            changes.append(Change(_label(model, name), old, new))
        for name in m2m:
            old, new = _accounts(names, before, name), _accounts(names, row, name)
            if old != new:
                changes.append(Change(_label(model, name), ", ".join(old), ", ".join(new)))
        return changes
    # A creation, a deletion, or a change whose row before is not kept (older than the
    # history): the values it holds.
    left_out = (
        HIDDEN_FIELDS | SUMMARISED_FIELDS | REVOCATION_FIELDS | SUBJECT_FIELDS.get(source, set())
    )
    held = []
    for model_field in row.tracked_fields:
        name = model_field.name
        if not model_field.editable or name in left_out:
            continue
        value = getattr(row, model_field.attname)
        if value is None or value is False or value in ("", [], {}):
            continue
        if value == 0 and not model_field.choices:
            continue
        held.append((name, _shown(model, name, value, names)))
    held += [(name, ", ".join(_accounts(names, row, name))) for name in m2m]
    deleted = row.history_type == "-"
    return [
        Change(_label(model, name), shown if deleted else "", "" if deleted else shown)
        for name, shown in held
        if shown
    ]


def _action(source: str, row, before) -> str:
    reason = REASONS.get(row.history_change_reason or "")
    if row.history_type == "+":
        created = str(CREATED.get(source, _("created")))
        return f"{created} ({reason})" if reason else created
    if row.history_type == "-":
        return str(reason) if reason else _("deleted")
    said = []
    if before is not None:
        model = SOURCE_MODELS[source]
        for name, (when_set, when_cleared) in EVENTS.get(source, {}).items():
            attname = model._meta.get_field(name).attname
            new = getattr(row, attname)
            if getattr(before, attname) != new:
                said.append(str(when_set if new else when_cleared))
        if source == "call" and before.state != row.state and row.state in CALL_STATES:
            said.append(str(CALL_STATES[row.state]))
    if reason:
        said.append(str(reason))
    return ", ".join(said) if said else _("changed")


def _activity(source: str, row, before, names: _Names) -> Activity:
    return Activity(
        when=row.history_date,
        user=row.history_user,
        device=row.history_device,
        kind=row.history_type,
        subject=_subject(source, row, names),
        action=_action(source, row, before),
        changes=_changes(SOURCE_MODELS[source], source, row, before, names),
    )
