"""The values the fuzzing of the site's forms posts (``test_fuzz_forms.py``): plausible ones,
so that some posts reach the services, and garbage (long or control-character text, huge or
odd numbers, several values), with the player files it uploads."""

import functools
import io
from urllib.parse import urlencode

from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import strategies as st
from openpyxl import Workbook

from tests import xlsx_files
from tournament import services
from tournament.models import (
    OFFENCES,
    RULE_PROFILE_CHOICES,
    SEATING_METHOD_CHOICES,
    SEPARATE_BY_CHOICES,
    SERIES_RULE_CHOICES,
    TIEBREAK_CHOICES,
    Seat,
)
from tournament.models.rulings import OFFENCE_CHOICES

SLUG = "spring-open"

# Text as a browser or a script may send it; lone surrogates cannot be encoded at all.
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
LONG_TEXT = st.text(st.characters(exclude_categories=("Cs",)), min_size=200, max_size=2_000)
NUMBERS = st.one_of(
    st.integers(min_value=-5, max_value=20),
    st.integers(min_value=-(2**70), max_value=2**70),
).map(str)
ODD_NUMBERS = st.one_of(
    st.sampled_from(["", " ", "-0", "1.5", "1e3", "٣", "８", "+7", "0x10", "nan", "9" * 30]),
    # Past the 4,300 digits Python's int() reads from text.
    st.integers(4_000, 5_000).map(lambda digits: "9" * digits),
)
GARBAGE = st.one_of(TEXT, LONG_TEXT, NUMBERS, ODD_NUMBERS, st.just("\x00"))


def value(*plausible):
    """A field's value: mostly one of ``plausible`` (strategies or plain values), so that
    some posts get past the form to the service; otherwise garbage."""
    options = [p if isinstance(p, st.SearchStrategy) else st.just(p) for p in plausible]
    single = st.one_of(*options, *options, *options, GARBAGE) if options else GARBAGE
    # Now and then the field is sent several times.
    return st.one_of(single, single, single, st.lists(single, min_size=2, max_size=3))


def choice_of(pairs):
    return value(st.sampled_from([str(key) for key, _label in pairs]))


SEAT = value(st.sampled_from(["0", "1", "2", "3"]))
HAND_NUMBER = value(st.integers(1, 16).map(str))
# A few winning hands in the referee notation, and the fans as referees write them.
WINNING_HANDS = st.sampled_from(
    [
        "123m456p789s123s55p",
        "11m22p33s44m55p66s77m",
        "123m456p78sEE [555p] +9s",
        "1m9m1p9p1s9sEWSNCFPP",
    ]
)
FAN_NAMES = st.sampled_from(["", "Pure Straight", "Pure Straight, Mixed Double Chow", "xyz 99"])


def penalty_fields(rows: int) -> dict:
    fields = {
        "penalty-TOTAL_FORMS": value(st.integers(0, 9).map(str), "100000"),
        "penalty-INITIAL_FORMS": value("0", "1"),
        "penalty-MIN_NUM_FORMS": value("0"),
        "penalty-MAX_NUM_FORMS": value("8"),
    }
    for row in range(rows):
        fields.update(
            {
                f"penalty-{row}-offender": SEAT,
                f"penalty-{row}-kind": value(
                    st.sampled_from(["to_each_other", "to_one", "deducted"])
                ),
                f"penalty-{row}-points": value(st.integers(1, 60).map(str)),
                f"penalty-{row}-beneficiary": SEAT,
                f"penalty-{row}-reason": value(st.sampled_from(["Lateness", "False win"])),
                f"penalty-{row}-DELETE": value("on"),
            }
        )
    return fields


def hand_fields(world) -> dict:
    return {
        "number": HAND_NUMBER,
        "outcome": value(st.sampled_from(["self_drawn", "discard", "draw", "not_played"])),
        "winner": SEAT,
        "discarder": SEAT,
        "fan": value(st.sampled_from(["8", "9", "16", "88", "7", "0"])),
        "flowers": value(st.integers(0, 9).map(str)),
        "fan_names": value(FAN_NAMES),
        "winning_hand": value(WINNING_HANDS),
        "keep_my_figure": value("on"),
        "version": value("1", "2"),
        "submission_key": value(st.uuids().map(str)),
        "compute": value("1"),
        "add_penalty": value("1"),
        **penalty_fields(2),
    }


def tournament_fields(world) -> dict:
    users = st.sampled_from([str(pk) for pk in world.user_pks])
    return {
        "name": value("Spring Open", "春季公开赛"),
        "slug": value(SLUG, "autumn-cup", "new-open", "Not A Slug!"),
        "session_count": value(st.integers(1, 31).map(str)),
        "session_minutes": value(st.integers(9, 601).map(str)),
        "seating_method": choice_of(SEATING_METHOD_CHOICES),
        "separate_by": choice_of(SEPARATE_BY_CHOICES),
        "rule_profile": choice_of(RULE_PROFILE_CHOICES),
        "referees": value(users),
        "organisers": value(users),
    }


# A post the rules page accepts (a reason given: the world's play has started).
RULES_VALID = {
    "rule_profile": "seed",
    "melded_and_concealed_kong": "5",
    "flowers": "on",
    "minimum_fan": "8",
    "session_minutes": "150",
    "session_end": "bell",
    "preset_false_win": "on",
    "preset_false_win_kind": "to_each_other",
    "preset_false_win_points": "10",
    "criterion_1": "table_points",
    "reason": "As announced.",
}


def rules_fields(world) -> dict:
    """The rules page's fields: every option, each offence's preset row, the ranking order."""
    fields = {
        "rule_profile": choice_of(RULE_PROFILE_CHOICES),
        "take_profile": value("1"),
        "melded_and_concealed_kong": value("3", "5", "6", "4"),
        "flowers": value("on", ""),
        "blessings": value("on", ""),
        "minimum_fan": value(st.integers(0, 90).map(str)),
        "session_minutes": value(st.integers(9, 601).map(str)),
        "session_end": value("bell", "gong"),
        "gong_minute": value(st.integers(0, 160).map(str), ""),
        "reason": value("As announced.", ""),
        **{f"criterion_{n}": choice_of(TIEBREAK_CHOICES) for n in range(1, 10)},
    }
    for offence in OFFENCES:
        fields[f"preset_{offence.code}"] = value("on", "")
        fields[f"preset_{offence.code}_kind"] = value("to_each_other", "to_one", "deducted")
        fields[f"preset_{offence.code}_points"] = value("10", "5, 10, 20", "5-60", "0", "9-1")
    return fields


def series_fields(world) -> dict:
    return {
        "name": value("Club season", "赛季"),
        "slug": value("season", "new-season", "Not A Slug!"),
        "rule": choice_of(SERIES_RULE_CHOICES),
        "counted_results": value(st.integers(-1, 12).map(str), ""),
        "place_points": value("10, 7, 5", "5, 10", "10;7", "x"),
        "tournaments": value(st.sampled_from([str(pk) for pk in world.tournament_pks])),
    }


def csv_upload(text: str, name: str = "players.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def xlsx_upload(rows) -> SimpleUploadedFile:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return SimpleUploadedFile("players.xlsx", buffer.getvalue())


@functools.cache
def shared_string_bomb() -> bytes:
    return xlsx_files.workbook(padding=("a", 21 * 1024 * 1024))


# openpyxl refuses to write control characters.
CELL = st.one_of(
    st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=40),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=True),
    st.booleans(),
)
UPLOADS = st.one_of(
    st.builds(
        lambda rows: csv_upload("\n".join(",".join(row) for row in rows)),
        st.lists(st.lists(TEXT.filter(lambda t: "\x00" not in t), max_size=6), max_size=8),
    ),
    st.builds(
        lambda number, name: csv_upload(f"number,name\n{number},{name}\n"),
        st.one_of(NUMBERS, ODD_NUMBERS),
        TEXT,
    ),
    st.builds(lambda rows: xlsx_upload(rows), st.lists(st.lists(CELL, max_size=6), max_size=6)),
    st.builds(
        lambda content, name: SimpleUploadedFile(name, content),
        st.binary(max_size=2_000),
        st.sampled_from(
            ["players.csv", "players.xlsx", "players.pdf", "players", "x" * 300 + ".csv"]
        ),
    ),
    st.builds(lambda: SimpleUploadedFile("players.xlsx", shared_string_bomb())),
)


# The referees' desk: its call, ruling and appeal (``desk_rows``), or none (a 404).
DESK_CALL = st.sampled_from(["call", "call", "none"])


def penalty_of_ruling(world) -> dict:
    players = value(*world.desk_players, "")
    return {
        "penalty_kind": value("", "to_each_other", "to_one", "deducted"),
        "penalty_points": value("10", "5", "0"),
        "offender": players,
        "beneficiary": players,
    }


def ruling_fields(world) -> dict:
    return {
        "hand": value(st.integers(1, 16).map(str), ""),
        "players": value(*world.desk_players),
        "offence": choice_of(OFFENCE_CHOICES),
        "offence_text": value("Slow play", ""),
        "decision": value("Warned for slow play."),
        **penalty_of_ruling(world),
    }


def desk_rows(table, referee) -> tuple[list[str], dict[str, int]]:
    """At ``table``: an open call, a ruling to appeal, a ruling with its appeal to decide;
    the table's players' ids by seat, and those three by name."""
    players = [str(s.player_id) for s in Seat.objects.filter(table=table).order_by("seat")]
    call = services.call_make(table=table, reason="foul", hand=1)
    ruling = services.ruling_give(table=table, referee=referee, decision="Warned.")
    appealed = services.ruling_give(
        table=table,
        referee=referee,
        hand=2,
        decision="Slow play after a warning.",
        offence="procedural",
        penalty_kind="deducted",
        penalty_points=10,
        offender=Seat.objects.get(table=table, seat=0).player,
    )
    appeal = services.appeal_lodge(ruling=appealed, user=referee, grounds="No warning.")
    return players, {"call": call.pk, "ruling": ruling.pk, "appeal": appeal.pk}


def _allowed_methods(view) -> set[str]:
    """The methods ``require_http_methods`` lets through to a view, found in its closure
    along the ``__wrapped__`` chain; every method for a view without it (a class view)."""
    while view is not None:
        for cell in getattr(view, "__closure__", None) or ():
            contents = cell.cell_contents
            if (
                isinstance(contents, list)
                and contents
                and all(isinstance(m, str) for m in contents)
            ):
                return set(contents)
        view = getattr(view, "__wrapped__", None)
    return {"GET", "HEAD", "POST"}


def post(client, url, fields: dict, encoding: str, accept_json: bool):
    headers = {"HTTP_ACCEPT": "application/json"} if accept_json else {}
    files = {name: upload for name, upload in fields.items() if hasattr(upload, "read")}
    if encoding == "urlencoded" and not files:
        body = urlencode(fields, doseq=True)
        return client.post(url, body, content_type="application/x-www-form-urlencoded", **headers)
    return client.post(url, fields, **headers)
