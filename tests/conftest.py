"""Personas and small builders shared by the tests.

Every web endpoint is tested with the same cast: the tournament's organiser,
its referee, the referee of another tournament, and an anonymous visitor.
"""

from contextlib import contextmanager

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission, User
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.test import Client
from django.utils import translation
from django_tasks_db.management.commands import db_worker
from xdist.scheduler import LoadScheduling

from tournament import services
from tournament.models import Table, Tournament
from tournament.players.player_import import state_fingerprint
from tournament.server.task_worker import tasks_run_ready

# The queries a request signed in (an account or a tablet) makes to read its session: one,
# unless the sessions are kept in the Redis cache too (settings, with MCR_REDIS_URL), which
# holds every session written since the cache was emptied.
SESSION_READS = 0 if settings.SESSION_ENGINE.endswith(".cached_db") else 1

# The real SMTP server of the e-mail tests (the ``smtp_server`` fixture); the migrated
# database the tests of the event's server copy (``migrated_database``).
pytest_plugins = ["tests.mail_server", "tests.event_databases"]

# What a test needs to touch the database: one of these fixtures, or the ``django_db`` mark.
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "_django_db_helper",
        "live_server",
    }
)


# The web tests of who may do what and of what a page or a form says (the personas, the
# messages beside the fields, the redirects, the layout): what they store and read goes
# through the services and selectors, whose own tests run on every database, so CI's run on
# its second database leaves them out for time (about a minute). The web tests that lean on
# the database itself stay in that run: random posts (column sizes, constraints), lists
# sorted, searched, counted or ordered by name, imports, downloads, statistics, withdrawals,
# check-in, the activity log, the pages kept in the shared cache, concurrent saves. (The
# record of fouls is sorted in memory, its selector tested on both: tests/selectors.)
PAGES_ONLY = frozenset(
    f"tests/web/test_{name}.py"
    for name in (
        "admin",
        "body_limit",
        "calculator",
        "content_security_policy",
        "core_messages",
        "desk",
        "device_links",
        "draw_page",
        "emails",
        "fairness",
        "hand_fans",
        "head_requests",
        "kong_readings",
        "healthz",
        "languages",
        "one_line_fields",
        "organiser",
        "paper_sheets",
        "penalties",
        "player_link",
        "players",
        "public",
        "publish",
        "record_of_fouls",
        "referee",
        "rules_doc",
        "rules_pages",
        "seat_change",
        "seating_methods",
        "server_error",
        "session_clock",
        "session_gong",
        "session_undo",
        "static_files",
        "table_calls",
        "table_confirm",
        "table_permissions",
        "table_referees",
    )
)


def pytest_collection_modifyitems(items):
    """Mark ``database`` every test that can touch the database. The others (the pure cores,
    the file readers, the catalogue, the docs) give the same result on any database, so CI's
    run on its second database (``make test-database``) leaves them out, as it leaves out
    those marked ``pages_only`` (``PAGES_ONLY``)."""
    for item in items:
        if DATABASE_FIXTURES.intersection(item.fixturenames) or item.get_closest_marker(
            "django_db"
        ):
            item.add_marker(pytest.mark.database)
        if _module(item.nodeid) in PAGES_ONLY:
            item.add_marker(pytest.mark.pages_only)


# Modules whose tests share what a fixture of theirs makes once (a server and nginx, a
# PostgreSQL cluster, LibreOffice's conversions, a migrated demo, a played season): each is
# given whole to one pytest worker, which makes it once, instead of each worker making its
# own. (xdist's own grouping, `--dist loadgroup` with ``xdist_group`` marks, no longer takes
# effect with pytest 9.2: pytest-xdist issue 1386.)
SHARED_SET_UP = frozenset(
    {
        "tests/test_concurrency.py",
        "tests/test_outages.py",
        "tests/test_series.py",
        "tests/test_venue_laptop.py",
        "tests/test_workbooks_libreoffice.py",
    }
)


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


class SharedSetUpScheduling(LoadScheduling):
    """xdist's ``load`` (the tests in the order collected, a few at a time to whichever
    worker asks), but a test of a module of ``SHARED_SET_UP`` takes the module's tests still
    waiting along to its worker. (xdist's scopes would not do: they key the tests by node id,
    which the API's schemathesis cases share, so all but one of those would not run.)"""

    def _send_tests(self, node, num: int) -> None:
        batch = self.pending[:num]
        shared = {_module(self.collection[index]) for index in batch} & SHARED_SET_UP
        batch += [
            index for index in self.pending[num:] if _module(self.collection[index]) in shared
        ]
        if batch:
            sent = set(batch)
            self.pending[:] = [index for index in self.pending if index not in sent]
            self.node2pending[node].extend(batch)
            node.send_runtest_some(batch)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "load":
        return None  # another --dist asked for: xdist's own
    return SharedSetUpScheduling(config, log)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, request):
    """pytest-django's test database, copied at once when a test of the run serves the event
    from a database of its own (``migrated_database``): the copy is what a fresh ``migrate``
    makes, without migrating again (tests/event_databases.py)."""
    # Imported here: the module is a plugin of this file's (``pytest_plugins``), which pytest
    # imports itself to rewrite its asserts.
    from tests.event_databases import copy_test_database, drop_test_database_copies

    if any("migrated_database" in item.fixturenames for item in request.session.items):
        with django_db_blocker.unblock():
            copy_test_database()
    yield
    drop_test_database_copies()


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: the database is rolled back after each test, so
    a tournament's id and version come round again while the cache would remember them."""
    cache.clear()


@pytest.fixture(autouse=True)
def tasks_keep_the_connection(monkeypatch):
    """A task run in the test's thread (``run_tasks``, ``tasks_run_ready``) runs on the
    test's connection, inside the test's transaction: the worker's look for stale
    connections before and after each task would close it on PostgreSQL (whose connections
    the test settings do not keep), and the test's transaction with it."""
    monkeypatch.setattr(db_worker, "close_old_connections", lambda **_kwargs: None)


@pytest.fixture(autouse=True)
def site_language_after():
    """A page asked for in Chinese leaves Chinese active in the test's thread (the locale
    middleware activates the request's language and nothing resets it): the next test, a
    command's output say, starts in the site's language again."""
    yield
    translation.deactivate()


def make_user(username: str, *, can_create: bool = False) -> User:
    user = User.objects.create_user(username=username, password="pw-" + username)
    if can_create:
        user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def make_tournament(
    *, creator: User, slug: str = "spring-open", sessions: int = 4, seating_method: str = "lot"
) -> Tournament:
    """A tournament seated by lot unless told otherwise: the fixtures' seeded draws and the
    seats the tests expect are those of the draw by lot."""
    return services.tournament_create(
        name=slug.replace("-", " ").title(),
        slug=slug,
        session_count=sessions,
        session_minutes=150,
        seating_method=seating_method,
        creator=creator,
    )


def make_players(tournament: Tournament, count: int, *, start: int = 1, **extra):
    """``count`` new players numbered from ``start``, named "Player N", with ``extra``
    fields each: stored at once as an import file's rows are (``players_import``, by the
    rules of a player saved alone), a few queries instead of a dozen a player. A number
    already held refuses them all (the import finds its preview stale)."""
    numbers = range(start, start + count)
    rows = [{"number": n, "name": f"Player {n}", **extra} for n in numbers]
    services.players_import(
        tournament=tournament, rows=rows, fingerprint=state_fingerprint({}, rows)
    )
    return list(tournament.players.filter(number__in=numbers).order_by("number"))


def play_some_sessions(
    tournament: Tournament, *, organiser: User, referee: User, committed: bool = False
) -> None:
    """Session 1 played and closed, with a penalty, two corrected hands and a reopened table;
    session 2 seated from the whole-tournament plan, a substitute in a withdrawn player's seat.

    ``committed``: session 1's draw committed beforehand (a first commitment withdrawn, then
    seed 11 committed), which leaves the seats as they are without it.
    """
    make_players(tournament, 16)
    services.player_save(tournament=tournament, number=17, name="Substitute", is_substitute=True)
    if committed:
        services.draw_commitment_withdraw(commitment=services.draw_commit(tournament=tournament))
        services.draw_commit(tournament=tournament, seed=11)
    first = services.session_draw(tournament=tournament, number=1, seed=None if committed else 11)
    services.session_open(session=first)
    table = first.tables.get(number=1)
    false_win = services.PenaltyEntry(
        offender=2, kind="to_each_other", points=10, reason="False win"
    )
    hand = services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="draw", penalties=[false_win])
    )
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1,
            outcome="self_drawn",
            winner=1,
            fan=8,
            penalties=[false_win],
            version=hand.version,
        ),
    )
    for each in first.tables.all():
        services.table_confirm(table=each, user=referee, record_missing_as_not_played=True)
    services.table_reopen(table=table, user=organiser, reason="Hand 2 was a win")
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=2,
            outcome="self_drawn",
            winner=0,
            fan=8,
            version=table.hands.get(number=2).version,
        ),
    )
    services.table_confirm(table=table, user=referee)
    services.session_close(session=first)

    second = services.session_draw(tournament=tournament, number=2, seed=22, method="planned")
    seat = second.seats.get(player__number=3)
    services.player_withdraw(player=seat.player)
    services.seat_replace(seat=seat, player=tournament.players.get(number=17))


def play_every_table(session, *, referee: User | None) -> None:
    """Every table of ``session`` played whole (16 self-drawn 8-fan wins, by turns) and
    confirmed by ``referee``."""
    for table in session.tables.all():
        for hand in range(1, 17):
            services.hand_record(
                table=table,
                entry=services.HandEntry(number=hand, outcome="self_drawn", winner=hand % 4, fan=8),
            )
        services.table_confirm(table=table, user=referee)


def login(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def download(client: Client, path: str, **extra):
    """A download of the data as it is now: asked for (the page that waits for a file not
    built yet, or the previous version's file, the build queued), the build run as a worker
    would, asked for again."""
    response = client.get(path, **extra)
    if response.status_code == 202 or response.get("X-Workbook-Status", "current") != "current":
        tasks_run_ready()
        response = client.get(path, **extra)
    return response


@pytest.fixture
def run_tasks(db):
    """``with run_tasks(): ...``: the block's writes, then every task they queued run here,
    as a worker would after the write commits (a block that raises runs none)."""

    @contextmanager
    def running():
        yield
        tasks_run_ready()

    return running


@pytest.fixture
def organiser(db):
    return make_user("organiser", can_create=True)


@pytest.fixture
def referee(db):
    return make_user("referee")


@pytest.fixture
def other_referee(db):
    return make_user("other-referee")


@pytest.fixture
def colleague(tournament):
    """A second referee of the same tournament, without tables until given some."""
    user = make_user("colleague")
    tournament.referees.add(user)
    return user


@pytest.fixture
def tournament(organiser, referee):
    tournament = make_tournament(creator=organiser)
    tournament.referees.add(referee)
    return tournament


@pytest.fixture
def other_tournament(db, other_referee):
    owner = make_user("other-organiser", can_create=True)
    other = make_tournament(creator=owner, slug="autumn-cup")
    other.referees.add(other_referee)
    return other


@pytest.fixture
def personas(organiser, referee, other_referee, other_tournament):
    """name -> logged-in client; "anonymous" is not logged in."""
    return {
        "organiser": login(organiser),
        "referee": login(referee),
        "other_referee": login(other_referee),
        "anonymous": login(None),
    }


def give_all_tables(session, referee: User | None) -> None:
    """Every table of ``session`` to ``referee``: they may enter, correct and confirm there."""
    numbers = session.tables.values_list("number", flat=True)
    services.tables_assign(session=session, referee=referee, tables=list(numbers))


def referees_by_table(session) -> dict[int, str | None]:
    """Table number -> the username of its referee (None: nobody), read back from the database."""
    return {
        table.number: table.referee.username if table.referee else None
        for table in Table.objects.filter(session=session).select_related("referee")
    }


@pytest.fixture
def session_in_play(tournament, organiser, referee):
    """16 players drawn into session 1 with a fixed seed, open for play; the tournament's
    referee referees its four tables."""
    return open_session_one(tournament, referee)


def open_session_one(tournament: Tournament, referee: User):
    """``session_in_play``'s session, for a fixture of a wider scope."""
    make_players(tournament, 16)
    session = services.session_draw(tournament=tournament, number=1, seed=20261130)
    give_all_tables(session, referee)
    return services.session_open(session=session)


@contextmanager
def kept_for_the_module(django_db_blocker):
    """``with kept_for_the_module(django_db_blocker): yield ...`` in a module-scoped fixture:
    what the block writes is built once for the module's tests instead of once a test, in a
    transaction rolled back after the module's last test; each test's own writes are rolled
    back after it, as always (its ``db`` transaction is a savepoint inside this one). A test
    of such a module reads the built rows again rather than keep instances another test may
    have changed in memory."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture
def connection_kept():
    """The app answers in the test's own transaction, as the test client's requests do: a
    request's end must not close the database connection (which it does, on a database
    whose connections are not kept between requests)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
