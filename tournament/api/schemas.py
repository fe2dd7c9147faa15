"""The API's documents, field by field (their names in English whatever the reader's
language). Table points are exact: a fraction as text ("7/3", "4") and the same value in
twelfths (28, 48), never a rounded number."""

from datetime import date, datetime
from fractions import Fraction

from ninja import Field, Schema

from tournament.language.formatting import SEAT_LABELS
from tournament.scoring import TWELFTHS


def exact(points: Fraction | int) -> str:
    """Table points as an exact fraction in text: "7/3", "4", "-1/2"."""
    return str(Fraction(points))


def twelfths(points: Fraction | int) -> int:
    return int(Fraction(points) * TWELFTHS)


def seat_label(seat: int | None) -> str | None:
    return SEAT_LABELS[seat] if seat is not None else None


class Message(Schema):
    detail: str


class FieldError(Schema):
    type: str
    loc: list[str | int] = Field(description="Where: the query, then the parameter's name.")
    msg: str


class InvalidRequest(Schema):
    """A parameter that cannot be read (a page that is not a whole number, say)."""

    detail: list[FieldError]


class TournamentOut(Schema):
    slug: str
    name: str
    first_day: date | None = Field(description="The first day of play, if announced.")
    last_day: date | None = Field(description="The last day of play, if announced.")
    venue: str
    city: str
    country: str = Field(description="As the organiser wrote it.")
    website: str
    time_zone: str = Field(
        description="The IANA time zone the tournament is played in (its pages' clock)."
    )
    session_count: int = Field(description="Sessions planned.")
    players: int = Field(description="Players registered, substitutes and withdrawn included.")
    tiebreaks: list[str] = Field(description="The ranking order, first criterion first.")
    version: int = Field(
        description="Raised by every change to the tournament's data; also the ETag's."
    )
    created_at: datetime


class PenaltyPresetOut(Schema):
    offence: str = Field(description="The offence's code (the referees' desk's list).")
    kind: str = Field(description="to_each_other, to_one or deducted.")
    points: list[int] = Field(description="The usual amount first, then the others allowed.")


class RuleOptionsOut(Schema):
    profile: str = Field(description="The rule profile the options started from.")
    melded_and_concealed_kong: int = Field(
        description="Points of one melded and one concealed kong together: 3, 5 or 6."
    )
    flowers: bool = Field(description="Whether the flowers are played (144 tiles).")
    blessings: bool = Field(description="Whether Heavenly, Earthly and Human Hand count (8).")
    minimum_fan: int = Field(description="Fan a hand needs to win, flowers not counted.")
    session_minutes: int
    session_end: str = Field(description="bell or gong.")
    gong_minute: int | None = Field(description="Minutes into a session the gong sounds.")
    penalty_presets: list[PenaltyPresetOut]
    tiebreaks: list[str] = Field(description="The ranking order, first criterion first.")


class RuleChangeOut(Schema):
    changed_at: datetime
    reason: str
    before: RuleOptionsOut
    after: RuleOptionsOut
    hands_settled: int = Field(description="Stored hands settled again under the new rules.")
    hands_changed: int = Field(description="Of them, those whose fan or points changed.")


class RulesOut(RuleOptionsOut):
    readings: list[str] = Field(
        description="The options whose value is the site's reading of the profile's rule book."
    )
    changes: list[RuleChangeOut] = Field(
        description="The changes made after play started, oldest first."
    )


class TournamentDetailOut(TournamentOut):
    sessions_published: int
    seating_method: str
    ema_qualifying: bool
    rules: RulesOut


# The players and the sessions answered are the stored ones, read field by field; ninja's
# ``resolve_`` methods give the fields that are not theirs as such.
class PlayerOut(Schema):
    number: int
    name: str
    first_name: str
    last_name: str
    name_zh: str
    team: str
    country: str = Field(description="The EMA's three-letter code, or empty.")
    ema_number: str = Field(description="Eight digits, or empty.")
    is_substitute: bool
    ema_guest: bool
    withdrawn: bool
    person: int | None = Field(description="The person across tournaments, if linked.")

    @staticmethod
    def resolve_withdrawn(player) -> bool:
        return player.withdrawn_at is not None

    @staticmethod
    def resolve_person(player) -> int | None:
        return player.person_id


class SessionOut(Schema):
    number: int
    status: str = Field(description="drawn, in_play or closed.")
    method: str
    seed: int
    published_at: datetime
    opened_at: datetime | None
    closed_at: datetime | None
    tables: int
    tables_confirmed: int

    @staticmethod
    def resolve_tables(session) -> int:
        return session.table_count


class SeatOut(Schema):
    seat: str = Field(description="The starting seat, P1 (East at hand 1) to P4.")
    player: int = Field(description="The player's number.")
    name: str
    replaces: int | None = Field(description="The number of the player whose seat this was.")
    score: int
    place: int | None = Field(description="None while the table has no hand entered.")
    table_points: str
    table_points_twelfths: int


class TableOut(Schema):
    number: int
    confirmed: bool
    hands_entered: int
    seats: list[SeatOut]


class PenaltyOut(Schema):
    offender: str
    kind: str
    points: int
    beneficiary: str | None


class HandOut(Schema):
    number: int
    outcome: str = Field(description="self_drawn, discard, draw or not_played.")
    winner: str | None
    discarder: str | None
    fan: int | None = Field(description="Without flowers.")
    flowers: int
    points: list[int] = Field(description="P1 to P4, penalties included.")
    penalties: list[PenaltyOut]


class StandingOut(Schema):
    rank: int | None = Field(description="None for substitutes and players not ranked.")
    player: int
    name: str
    country: str
    table_points: str
    table_points_twelfths: int
    score: int
    sessions_played: int
    first_places: int
    second_places: int
    third_places: int
    fourth_places: int = Field(description="Fewer ranks higher where the ranking order counts it.")
    best_session: int | None
    hands_won: int


class SeriesOut(Schema):
    slug: str
    name: str
    rule: str = Field(description="best (table points) or places (points by place).")
    counted_results: int | None = Field(description="Results counted per person; None: all.")
    place_points: list[int]
    tournaments: list[str] = Field(description="The tournaments' slugs, in the series' order.")
    version: int


class SeriesResultOut(Schema):
    tournament: str
    player: int
    rank: int
    table_points: str
    table_points_twelfths: int
    score: int
    place_points: int | None
    counted: bool


class SeriesRowOut(Schema):
    rank: int
    person: int
    name: str
    country: str
    total: str = Field(description="Table points (exact) or points by place.")
    table_points: str
    table_points_twelfths: int
    score: int
    results: list[SeriesResultOut]
