"""Every page that accepts a POST, posted random and hostile field values by whoever may use it.

For each endpoint of ``tournament/urls.py`` that takes a POST, hypothesis posts the fields its
form knows, each either plausible or garbage (long or control-character text, huge or
negative numbers, several values, nothing), sometimes leaving fields out or adding unknown
ones, as multipart or url-encoded. Every answer must be below 500, and what is stored must
still hold together: every hand settles again to the points stored with it, its corrections
are all kept, every drawn table has its four seats.

Each example runs in a savepoint rolled back afterwards, so all examples start from the same
tournament: session 1 in play (a hand entered at table 1, table 2 confirmed), session 2
drawn, not started, and a substitute waiting; beside it two tournaments of 16 players with
nothing drawn, one of them with its first draw committed.
"""

import json
import os
import uuid

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.conftest import (
    kept_for_the_module,
    login,
    make_players,
    make_tournament,
    make_user,
    open_session_one,
)
from tests.web.fuzz_values import (
    DESK_CALL,
    GARBAGE,
    RULES_VALID,
    SLUG,
    UPLOADS,
    _allowed_methods,
    choice_of,
    csv_upload,
    desk_rows,
    hand_fields,
    penalty_of_ruling,
    post,
    rules_fields,
    ruling_fields,
    series_fields,
    tournament_fields,
    value,
)
from tournament import scoring, services
from tournament.forms.players import sign_preview
from tournament.hall import device_links
from tournament.models import (
    SEATING_METHOD_CHOICES,
    DrawCommitment,
    Hand,
    Player,
    RefereeCall,
    Seat,
    Table,
    Tournament,
)
from tournament.players import player_links
from tournament.players.player_import import import_preview
from tournament.seating import commitment as rules
from tournament.selectors.sheets import sheet_version, table_sheet
from tournament.services.hands import MAX_PENALTIES_PER_HAND, stored_hand_result

# Enough examples to reach past each form's first checks, few enough for the file to run in
# about half a minute, the same each run. MCR_FUZZ_EXAMPLES=500 looks further, with new
# values each run (a few minutes).
EXAMPLES = os.environ.get("MCR_FUZZ_EXAMPLES")
FUZZ = settings(
    max_examples=int(EXAMPLES or 10),
    deadline=None,
    derandomize=EXAMPLES is None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # the world is rolled back after each example
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

# Two more tournaments of the organiser, nothing drawn: one free to commit its first draw,
# one whose first draw is committed with a public value to come.
FREE_SLUG = "free-cup"
COMMITTED_SLUG = "committed-cup"

# ---------------------------------------------------------------- endpoints

# url name -> (who posts, URL arguments, the fields its form knows); "table" is whoever
# enters at a table, with the table (``TABLE_VISITS``). URL numbers are mostly
# those of the world (session 1 in play; table 1 with a hand, 2 confirmed, 3 the tablet's),
# sometimes another one (a 404, a session not drawn).
SESSION = st.sampled_from([1, 1, 1, 2, 3])
TABLE = st.sampled_from([1, 1, 3, 3, 2, 5])
PLAYER = st.sampled_from([1, 17, 99])

# The people pages: the free tournament's players match the people of Spring Open's by name.
PEOPLE_SLUGS = st.sampled_from([FREE_SLUG, FREE_SLUG, SLUG])

TIMETABLE_FIELDS = {
    f"session_{n}": value("2026-12-05T09:30", "2026-02-30T25:61", "") for n in range(1, 6)
}


def absent_fields(world) -> dict:
    seats = [f"{what}_{n}" for n in world.absent_numbers for what in ("substitute", "withdraw")]
    return {field: value("17", "1", "99", "on") for field in seats}


# A call for a referee, from a table or a player's page.
CALL_FIELDS = {
    "reason": choice_of(RefereeCall.REASON_CHOICES),
    "hand": value(st.integers(-1, 17).map(str), ""),
    "note": value("East claims a win", "x" * 201),
    "key": value(st.uuids().map(str)),
    "back": value("review", "sheet"),
}

ENDPOINTS = {
    "login": ("anonymous", {}, lambda w: {"username": value("organiser"), "password": value()}),
    "logout": ("organiser", {}, lambda w: {}),
    "lockout_unlock": (
        "organiser",
        {},
        lambda w: {
            "username": value("referee", "organiser"),
            "ip_address": value("127.0.0.1", "::1", "10.0.0.300"),
        },
    ),
    "tournament_create": ("organiser", {}, tournament_fields),
    "tournament_edit": ("organiser", {"slug": st.just(SLUG)}, tournament_fields),
    "rules_edit": ("organiser", {"slug": st.just(SLUG)}, rules_fields),
    "tournament_delete": (
        "organiser",
        {"slug": st.just(SLUG)},
        lambda w: {"confirm_slug": value(SLUG, SLUG.upper())},
    ),
    "session_draw": (
        "organiser",
        {"slug": st.just(SLUG)},
        lambda w: {
            "number": value("3", "4", "1"),
            "seed": value(st.integers(0, 10**15).map(str)),
            "method": choice_of(SEATING_METHOD_CHOICES),
            "top": value("1", "2", "4"),
        },
    ),
    "draw_commit": (
        "organiser",
        {"slug": st.sampled_from([FREE_SLUG, FREE_SLUG, COMMITTED_SLUG, SLUG])},
        lambda w: {
            "method": choice_of(SEATING_METHOD_CHOICES),
            "top": value("1", "2", "4"),
            "seed": value(st.integers(0, 10**15).map(str)),
            "public_value_source": value("drand round 1234567", "lottery of 2026-12-05"),
        },
    ),
    "commitment_public_value": (
        "organiser",
        {"slug": st.sampled_from([COMMITTED_SLUG, COMMITTED_SLUG, FREE_SLUG])},
        lambda w: {"value": value("07 12 19 28 33 41", "ab" * 32)},
    ),
    "commitment_withdraw": (
        "organiser",
        {"slug": st.sampled_from([COMMITTED_SLUG, COMMITTED_SLUG, FREE_SLUG])},
        lambda w: {},
    ),
    "session_open": ("organiser", {"slug": st.just(SLUG), "number": SESSION}, lambda w: {}),
    "session_close": ("organiser", {"slug": st.just(SLUG), "number": SESSION}, lambda w: {}),
    "session_publish": ("organiser", {"slug": st.just(SLUG), "number": SESSION}, lambda w: {}),
    "session_publish_undo": (
        "organiser",
        {"slug": st.just(SLUG), "number": SESSION},
        lambda w: {},
    ),
    "session_open_undo": ("organiser", {"slug": st.just(SLUG), "number": SESSION}, lambda w: {}),
    "session_close_undo": ("organiser", {"slug": st.just(SLUG), "number": SESSION}, lambda w: {}),
    "session_cancel_draw": (
        "organiser",
        {"slug": st.just(SLUG), "number": SESSION},
        lambda w: {},
    ),
    "seat_change": (
        "organiser",
        {"slug": st.just(SLUG), "number": SESSION},
        lambda w: {
            "seat": value(st.sampled_from([str(pk) for pk in w.seat_pks])),
            "player": value(st.sampled_from([str(pk) for pk in w.player_pks])),
        },
    ),
    "table_referees": (
        "organiser",
        {"slug": st.just(SLUG), "number": SESSION},
        lambda w: {
            "referee": value(*[str(pk) for pk in w.user_pks], "nobody"),
            "tables": value("1-4", "1, 3", "2–3", "0", "1-999"),
        },
    ),
    "table_reopen": (
        "organiser",
        {"slug": st.just(SLUG), "number": SESSION, "table": TABLE},
        lambda w: {"reason": value("Hand 3 was a win")},
    ),
    "table_extra_time": (
        "organiser",
        {"slug": st.just(SLUG), "number": SESSION, "table": TABLE},
        lambda w: {"minutes": value(st.integers(-1, 100).map(str))},
    ),
    "table_seats_swap": (
        "referee",
        {"slug": st.just(SLUG), "number": SESSION, "table": TABLE},
        lambda w: {
            "first": value(st.integers(-1, 4).map(str)),
            "second": value(st.integers(-1, 4).map(str)),
        },
    ),
    "device_links_revoke": (
        "organiser",
        {"slug": st.just(SLUG), "number": SESSION},
        lambda w: {},
    ),
    "device_link_revoke": (
        "organiser",
        {"slug": st.just(SLUG), "number": SESSION, "table": TABLE},
        lambda w: {},
    ),
    "player_add": (
        "organiser",
        {"slug": st.just(SLUG)},
        lambda w: {
            "number": value(st.integers(1, 40).map(str)),
            "name": value("Zhang San", "张三"),
            "name_zh": value("张三"),
            "team": value("Lyon"),
            "country": value("FRA"),
            "is_substitute": value("on"),
            "email": value("zhang@example.org", "not an address"),
            "add_another": value("1"),
        },
    ),
    "player_edit": (
        "organiser",
        {"slug": st.just(SLUG), "number": PLAYER},
        lambda w: {
            "number": value(st.integers(1, 40).map(str)),
            "name": value("Alice B"),
            "name_zh": value(),
            "team": value(),
            "country": value(),
            "is_substitute": value("on"),
        },
    ),
    "player_withdraw": ("organiser", {"slug": st.just(SLUG), "number": PLAYER}, lambda w: {}),
    "player_reinstate": ("organiser", {"slug": st.just(SLUG), "number": PLAYER}, lambda w: {}),
    "player_import": ("organiser", {"slug": st.just(SLUG)}, lambda w: {"file": UPLOADS}),
    "player_import_confirm": (
        "organiser",
        {"slug": st.just(SLUG)},
        lambda w: {"payload": value(w.payload, w.payload[:-3] + "abc")},
    ),
    "player_link_revoke": ("organiser", {"slug": st.just(SLUG), "number": PLAYER}, lambda w: {}),
    "player_link_check_in": (
        "anonymous",
        {"token": st.sampled_from(["forged", "P1", "P17", "P17", "P1"])},
        lambda w: {"session": value(st.integers(-1, 31).map(str), "2")},
    ),
    "emails_send": ("organiser", {"slug": st.just(SLUG)}, lambda w: {}),
    "sign_up_form": (
        "anonymous",
        {"slug": st.sampled_from([FREE_SLUG, FREE_SLUG, SLUG])},
        lambda w: {
            "name": value("Zhang San", "张三"),
            "first_name": value("San"),
            "last_name": value("Zhang"),
            "name_zh": value("张三"),
            "team": value("Lyon"),
            "country": value("FRA", "France"),
            "ema_number": value("04010005", "4010005"),
            "email": value("zhang@example.org", "zhang@"),
            "website": value(""),
        },
    ),
    "sign_up_decide": (
        "organiser",
        {
            "slug": st.sampled_from([FREE_SLUG, SLUG]),
            "pk": st.sampled_from(["S1", "S2", "S1", "0"]),
            "action": st.sampled_from(["accept", "refuse", "up", "down", "other"]),
        },
        lambda w: {},
    ),
    "sign_up_withdraw": ("anonymous", {"token": st.sampled_from(["0", "S1", "S2"])}, lambda w: {}),
    "timetable": ("organiser", {"slug": st.just(SLUG)}, lambda w: TIMETABLE_FIELDS),
    "check_in_open": ("organiser", {"slug": st.just(SLUG), "number": SESSION}, lambda w: {}),
    "check_in_close": ("organiser", {"slug": st.just(SLUG), "number": SESSION}, lambda w: {}),
    "check_in_tick": (
        "organiser",
        {"slug": st.just(SLUG), "number": SESSION, "player": PLAYER},
        lambda w: {"action": value("check_in", "undo"), "q": value("Player")},
    ),
    "absent_seats": ("organiser", {"slug": st.just(SLUG), "number": SESSION}, absent_fields),
    "people_link": (
        "organiser",
        {"slug": PEOPLE_SLUGS},
        lambda w: {"link": value(*w.link_values, "1:99999999999")},
    ),
    "person_link_by_hand": (
        "organiser",
        {"slug": PEOPLE_SLUGS},
        lambda w: {
            "player": value("1", "2", "17"),
            "person": value(*[str(pk) for pk in w.person_pks]),
        },
    ),
    "people_new": ("organiser", {"slug": PEOPLE_SLUGS}, lambda w: {"player": value("1", "3")}),
    "people_link_by_ema": ("organiser", {"slug": PEOPLE_SLUGS}, lambda w: {}),
    "person_unlink": ("organiser", {"slug": PEOPLE_SLUGS, "number": PLAYER}, lambda w: {}),
    "series_create": ("organiser", {}, series_fields),
    "series_edit": ("organiser", {"slug": st.just("season")}, series_fields),
    "series_delete": ("organiser", {"slug": st.sampled_from(["season", "none"])}, lambda w: {}),
    "table_sheet": (
        "table",
        {"slug": st.just(SLUG)},
        hand_fields,
    ),
    "hand_edit": (
        "table",
        {
            "slug": st.just(SLUG),
            "hand": st.sampled_from([1, 1, 1, 2, 16]),
        },
        hand_fields,
    ),
    "table_calls": ("table", {"slug": st.just(SLUG)}, lambda w: CALL_FIELDS),
    "table_call_cancel": (
        "table",
        {"slug": st.just(SLUG), "call": st.sampled_from(["open", "open", "none"])},
        lambda w: {},
    ),
    "player_link_call": (
        "anonymous",
        {"token": st.sampled_from(["forged", "P1", "P17", "P1", "P1"])},
        lambda w: CALL_FIELDS,
    ),
    "table_confirm": (
        "table",
        {"slug": st.just(SLUG)},
        lambda w: {
            "record_missing_as_not_played": value("on"),
            **{f"initials_{seat}": value("ZS", "张") for seat in range(4)},
            "version": value(w.review_version, "0" * 64),
        },
    ),
    # The referees' desk: its call, ruling and appeal at table 4 (``World.desk``), or none.
    "desk_call_take": ("organiser", {"slug": st.just(SLUG), "call": DESK_CALL}, lambda w: {}),
    "desk_call_resolve": (
        "organiser",
        {"slug": st.just(SLUG), "call": DESK_CALL},
        lambda w: ruling_fields(w),
    ),
    "desk_ruling_new": ("organiser", {"slug": st.just(SLUG)}, lambda w: ruling_fields(w)),
    "desk_appeal": (
        "organiser",
        {"slug": st.just(SLUG), "ruling": st.sampled_from(["ruling", "ruling", "none"])},
        lambda w: {"grounds": value("No warning was given."), "player": value(*w.desk_players)},
    ),
    "desk_appeal_decide": (
        "organiser",
        {"slug": st.just(SLUG), "appeal": st.sampled_from(["appeal", "appeal", "none"])},
        lambda w: {
            "decision": value("upheld", "changed"),
            "reasons": value("One tile only."),
            **penalty_of_ruling(w),
        },
    ),
}


HAND_2_WITH_A_PENALTY = {
    "number": "2",
    "outcome": "self_drawn",
    "winner": "0",
    "fan": "8",
    "flowers": "0",
    "penalty-TOTAL_FORMS": "1",
    "penalty-INITIAL_FORMS": "0",
    "penalty-0-offender": "1",
    "penalty-0-kind": "deducted",
    "penalty-0-points": "10",
    "penalty-0-reason": "Lateness",
}

# url name -> a post its page accepts in the world (the base of "nearly valid" posts).
VALID = {
    "login": lambda w: {"username": "organiser", "password": "pw-organiser"},
    "lockout_unlock": lambda w: {"username": "referee"},
    "tournament_create": lambda w: {
        "name": "Winter Cup",
        "slug": "winter-cup",
        "session_count": "4",
        "session_minutes": "150",
        "rule_profile": "ema",
    },
    "tournament_edit": lambda w: {
        "name": "Spring Open",
        "slug": SLUG,
        "session_count": "4",
        "organisers": [str(w.organiser.pk)],
        "referees": [str(w.referee.pk)],
    },
    "rules_edit": lambda w: RULES_VALID,
    "tournament_delete": lambda w: {"confirm_slug": SLUG},
    "session_draw": lambda w: {"number": "3", "method": "random"},
    "draw_commit": lambda w: {"method": "planned"},
    "commitment_public_value": lambda w: {"value": "07 12 19 28 33 41"},
    "seat_change": lambda w: {"seat": str(w.seat_pks[0]), "player": str(w.player_pks[-1])},
    "table_referees": lambda w: {"referee": str(w.referee.pk), "tables": "1-4"},
    "table_reopen": lambda w: {"reason": "Hand 3 was a win"},
    "table_extra_time": lambda w: {"minutes": "5"},
    "table_seats_swap": lambda w: {"first": "0", "second": "2"},
    "player_add": lambda w: {"number": "30", "name": "Newcomer"},
    "player_edit": lambda w: {"number": "1", "name": "Alice B"},
    "player_import": lambda w: {"file": csv_upload("number,name\n18,Newcomer\n")},
    "player_import_confirm": lambda w: {"payload": w.payload},
    "timetable": lambda w: {"session_1": "2026-12-05T09:30"},
    "check_in_tick": lambda w: {"action": "check_in"},
    "player_link_check_in": lambda w: {"session": "2"},
    "sign_up_form": lambda w: {"name": "Newcomer", "email": "new@example.org"},
    "absent_seats": lambda w: {f"substitute_{w.absent_numbers[0]}": "17"},
    "people_link": lambda w: {"link": w.link_values[:1]},
    "person_link_by_hand": lambda w: {"player": "1", "person": str(w.person_pks[0])},
    "people_new": lambda w: {"player": ["1"]},
    "series_create": lambda w: {
        "name": "Winter season",
        "slug": "winter-season",
        "rule": "best",
        "tournaments": [str(w.tournament_pks[0])],
    },
    "series_edit": lambda w: {"name": "Club season", "slug": "season", "rule": "best"},
    "table_sheet": lambda w: dict(HAND_2_WITH_A_PENALTY),
    "hand_edit": lambda w: {**HAND_2_WITH_A_PENALTY, "number": "1", "version": "1"},
    "table_calls": lambda w: {"reason": "claim", "hand": "2", "key": str(uuid.uuid4())},
    "player_link_call": lambda w: {"reason": "foul", "key": str(uuid.uuid4())},
    "table_confirm": lambda w: {
        "record_missing_as_not_played": "on",
        "initials_0": "ZS",
        "version": w.review_version,
    },
    "desk_call_resolve": lambda w: {
        "hand": "1",
        "offence": "false_win",
        "decision": "A false win.",
        "penalty_kind": "to_each_other",
        "penalty_points": "10",
        "offender": w.desk_players[1],
    },
    "desk_appeal": lambda w: {"grounds": "No warning was given."},
    "desk_appeal_decide": lambda w: {
        "decision": "changed",
        "reasons": "Five points.",
        "penalty_kind": "deducted",
        "penalty_points": "5",
        "offender": w.desk_players[0],
    },
}

# Who enters at a table, and where: mostly where they may (the referee at tables 1 and 2,
# the organiser anywhere, the tablet at its table 3), sometimes anywhere.
TABLE_VISITS = st.one_of(
    st.sampled_from([("referee", 1, 1), ("tablet", 1, 3), ("organiser", 1, 4), ("referee", 1, 2)]),
    st.tuples(st.sampled_from(["referee", "organiser", "tablet"]), SESSION, TABLE),
)


def test_every_endpoint_that_takes_a_post_is_fuzzed():
    """The list above is every page of the site that takes a POST (Django's admin aside: its
    pages are read-only, and its own)."""
    from tournament.urls import urlpatterns

    def every(patterns):
        # A tournament's, a session's and a table's addresses are lists included without a
        # namespace; the admin's and the API's, namespaced, are not the site's pages.
        for pattern in patterns:
            if isinstance(getattr(pattern, "urlconf_name", None), list) and not pattern.namespace:
                yield from every(pattern.url_patterns)
            else:
                yield pattern

    posting = {
        pattern.name
        for pattern in every(urlpatterns)
        if getattr(pattern, "name", None) and "POST" in _allowed_methods(pattern.callback)
    }
    assert posting == set(ENDPOINTS)


# ---------------------------------------------------------------- the world


class World:
    def __init__(self, tournament, organiser, referee, session):
        self.tournament = tournament
        self.organiser = organiser
        self.referee = referee
        services.hand_record(
            table=session.tables.get(number=1), entry=services.HandEntry(number=1, outcome="draw")
        )
        services.table_confirm(
            table=session.tables.get(number=2), user=referee, record_missing_as_not_played=True
        )
        # The version table 1's review carries: a confirmation posted with it gets through.
        self.review_version = sheet_version(table_sheet(session.tables.get(number=1)))
        services.player_save(tournament=tournament, number=17, name="Sub", is_substitute=True)
        services.check_in_open(tournament=tournament, number=2)
        second = services.session_draw(tournament=tournament, number=2, seed=5)
        # Session 2's check-in open, everybody checked in but the first two seated players,
        # whose seats the absent players' page offers to substitute 17.
        seated = list(Seat.objects.filter(session=second).order_by("pk").select_related("player"))
        self.absent_numbers = [seat.player.number for seat in seated[:2]]
        for seat in seated[2:]:
            services.player_check_in(player=seat.player, number=2)
        self.tokens = {
            f"P{player.number}": player_links.player_token(player)
            for player in Player.objects.filter(tournament=tournament, number__in=[1, 17])
        }
        self.seat_pks = list(Seat.objects.filter(session=second).values_list("pk", flat=True))[:4]
        self.player_pks = list(Player.objects.values_list("pk", flat=True))[-3:]
        self.user_pks = [organiser.pk, referee.pk]
        preview = import_preview(
            tournament, filename="players.csv", content=b"number,name\n18,Newcomer\n"
        )
        self.payload = sign_preview(tournament, preview)
        # An open call at the tablet's table (table 1's review stays confirmable).
        call = services.call_make(table=session.tables.get(number=3), key=uuid.uuid4())
        self.call_pks = {"open": call.pk}
        self.table_link = reverse(
            "device_link", args=[device_links.device_token(session.tables.get(number=3))]
        )
        for slug in (FREE_SLUG, COMMITTED_SLUG):
            make_players(make_tournament(creator=organiser, slug=slug), 16)
        # The free tournament takes sign-ups: 18 places, two held, one on the waiting list.
        free = services.tournament_update(
            tournament=Tournament.objects.get(slug=FREE_SLUG), sign_up_open=True, player_cap=18
        )
        signed = [
            services.sign_up(tournament=free, name=f"Signer {n}", email=f"s{n}@example.org")
            for n in (1, 2, 3)
        ]
        self.sign_ups = {f"S{n}": each for n, each in enumerate(signed[:2], start=1)}
        services.draw_commit(
            tournament=Tournament.objects.get(slug=COMMITTED_SLUG),
            public_value_source="drand round 1234567",
        )
        # Spring Open's players 1-4 are people; the free tournament's players of the same
        # names are suggested as them; a series ranks both.
        services.person_create_for(tournament=tournament, numbers=[1, 2, 3, 4])
        self.person_pks = [p.person_id for p in tournament.players.filter(number__lte=4)]
        self.link_values = [f"{n}:{pk}" for n, pk in enumerate(self.person_pks, start=1)]
        self.tournament_pks = list(Tournament.objects.values_list("pk", flat=True))
        # The referees' desk at table 4: an open call, a ruling to appeal, an appeal to decide.
        self.desk_players, self.desk = desk_rows(session.tables.get(number=4), referee)
        services.series_save(
            user=organiser,
            tournaments=[tournament, free],
            name="Club season",
            slug="season",
            rule="best",
        )

    def client(self, who: str) -> Client:
        if who == "anonymous":
            return Client()
        if who == "organiser":
            return login(self.organiser)
        if who == "referee":
            return login(self.referee)
        tablet = Client()
        tablet.get(self.table_link)  # signed in at table 3 through its device link
        return tablet


@pytest.fixture(scope="module")
def built_world(django_db_setup, django_db_blocker):
    """The world built once for the module's tests (three tournaments, two sessions, a
    series, for some fifty endpoints), as it already is for each test's examples: every post
    is rolled back, and the world's instances are only read."""
    with kept_for_the_module(django_db_blocker):
        organiser = make_user("organiser", can_create=True)
        referee = make_user("referee")
        tournament = make_tournament(creator=organiser)
        tournament.referees.add(referee)
        yield World(tournament, organiser, referee, open_session_one(tournament, referee))


@pytest.fixture
def world(built_world, db):
    return built_world


def assert_consistent():
    """What every write leaves true: hands settle again to their stored points (penalties
    and all), each correction left its revision, each drawn table has four seats."""
    for hand in Hand.objects.prefetch_related("penalties"):
        settlement = scoring.settle_hand(stored_hand_result(hand))
        assert (hand.points, hand.deducted) == (tuple(settlement.points), settlement.deducted)
        assert hand.revisions.count() == hand.version - 1
        assert hand.penalties.count() <= MAX_PENALTIES_PER_HAND
    for table in Table.objects.prefetch_related("seats"):
        assert sorted(seat.seat for seat in table.seats.all()) == [0, 1, 2, 3]
    for commitment in DrawCommitment.objects.all():
        document = json.loads(commitment.document)
        assert commitment.hash == rules.commitment_hash(
            document, seed=commitment.secret_seed, salt=commitment.salt
        )


# Buttons that turn a post into another action (compute, add a row): sent now and then.
BUTTONS = {"compute", "add_penalty", "add_another"}

UNKNOWN_FIELDS = st.dictionaries(
    st.text("abcdefghijklmnopqrstuvwxyz_-0123456789", max_size=12), GARBAGE, max_size=2
)


def draw_fields(data, world, name) -> dict:
    """The fields of one post: a valid post with one to three fields changed (these reach
    the service), every known field, or any of them."""
    _who, _args, fields = ENDPOINTS[name]
    known = fields(world)
    buttons = {key: known.pop(key) for key in BUTTONS & set(known)}
    mode = data.draw(st.sampled_from(["nearly valid", "every field", "some fields"]), "mode")
    if mode == "nearly valid":
        posted = dict(VALID.get(name, lambda w: {})(world))
        keys = st.lists(st.sampled_from(sorted(known)), max_size=3, unique=True)
        changed = data.draw(keys, label="changed") if known else []
        posted.update({key: data.draw(known[key], label=key) for key in changed})
    elif mode == "every field":
        posted = data.draw(st.fixed_dictionaries(known), label="fields")
    else:
        posted = data.draw(st.fixed_dictionaries({}, optional=known), label="fields")
    posted.update(data.draw(st.fixed_dictionaries({}, optional=buttons), label="buttons"))
    return {**data.draw(UNKNOWN_FIELDS, label="unknown fields"), **posted}


# Where a hand is entered: the most fields, and the service with the most to check.
HAND_ENTRY = ["hand_edit", "table_sheet"]


@pytest.mark.parametrize("name", sorted(set(ENDPOINTS) - set(HAND_ENTRY)))
@FUZZ
@given(data=st.data())
def test_random_posts_never_fail_the_server_nor_break_what_is_stored(world, name, data):
    post_randomly(world, name, data)


@pytest.mark.parametrize("name", HAND_ENTRY)
@settings(FUZZ, max_examples=2 * FUZZ.max_examples)
@given(data=st.data())
def test_random_hand_entries_never_fail_the_server_nor_break_what_is_stored(world, name, data):
    post_randomly(world, name, data)


def post_randomly(world, name, data):
    who, url_args, _fields = ENDPOINTS[name]
    kwargs = {key: data.draw(strategy, label=key) for key, strategy in url_args.items()}
    if who == "table":
        who, kwargs["number"], kwargs["table"] = data.draw(TABLE_VISITS, label="visit")
    fields = draw_fields(data, world, name)
    encoding = data.draw(st.sampled_from(["multipart", "urlencoded"]), label="encoding")
    accept_json = name in HAND_ENTRY and data.draw(st.booleans(), label="json")
    if "token" in kwargs and name == "sign_up_withdraw":
        found = world.sign_ups.get(kwargs["token"])
        kwargs["token"] = player_links.sign_up_token(found) if found else kwargs["token"]
    elif "token" in kwargs:
        kwargs["token"] = world.tokens.get(kwargs["token"], kwargs["token"])
    if "call" in kwargs:
        kwargs["call"] = world.call_pks.get(kwargs["call"], 0)
    if "pk" in kwargs:
        found = world.sign_ups.get(kwargs["pk"])
        kwargs["pk"] = found.pk if found else 0
    for key in ("call", "ruling", "appeal"):
        if key in kwargs:
            kwargs[key] = world.desk.get(kwargs[key], 999999)
    url = reverse(name, kwargs=kwargs)

    with transaction.atomic():
        client = world.client(who)
        response = post(client, url, fields, encoding, accept_json)
        event(f"{response.status_code}")  # pytest --hypothesis-show-statistics counts them
        assert response.status_code < 500
        assert_consistent()
        transaction.set_rollback(True)
