"""Several app servers on one PostgreSQL and one Redis, under a big event's load: hand saves,
spectators, and a server killed in the middle of a burst.

    .venv/bin/python bench/cluster.py [--players 1000] [--pace-seconds 150] [--burst 200]
        [--spectators 200] [--layouts one,one-hall,two,two-hall] [--against OTHER_CHECKOUT]

(``make bench-cluster``.) 1,000 players by default, the event the site is built for
(docs/architecture.md, "The scale it is built for"); ``--players 10000 --burst 500`` is the
stress run recorded in docs/deploy.md. A fresh PostgreSQL database (on the server
DATABASE_URL names, made and dropped here) and a Redis database of the machine's Redis
(``--redis``, emptied before and after) hold a generated tournament of ``--players`` players
in session 3 of 8 (two sessions played, the third drawn and open). The same load is then
run against each layout in turn:

- **one**: one app server (``make serve``) with ``--workers`` × 2 workers;
- **two**: two app servers with ``--workers`` workers each, a request sent to either as the
  proxy of docs/deploy.md does (the driver picks, per request, the server with the fewer
  requests in flight; a server that refused a connection is left out for a few seconds, as
  the proxy's health check does);
- **one-hall**, **two-hall**: the same machines run hall first (docs/deploy.md): each
  machine's workers split in two pools of half as many, the hall's (``make serve``, with the
  task worker) for the tablets and the spectators' (``make serve`` at nice 10, no task
  worker) for the spectators' pages, each request sent to its pool as nginx's map does.

Each layout's run:

1. **after a draw**: the cache emptied (as just after a draw, when every page is new), then
   the standings, the seating and player pages read, each cold and then warm;
2. **pace**: every table's tablet saves one hand at a random moment of ``--pace-seconds``
   and loads its sheet again (150 s: the real pace of a hand per table every 2–3 minutes,
   250 tables saving 1.7 hands a second, 2,500 tables 17; fewer seconds compress it);
   meanwhile spectators read the standings, the seating and player pages at
   ``--spectators`` requests a second;
   after one save in ten, the table's first player's page is read from each server and
   must count the hand just saved (a page older than the save is a stale read);
3. **burst**: ``--burst`` tables save a hand within the same second; halfway through, one
   app machine (both its pools, hall first) is killed with SIGKILL and started again. A
   tablet keeps a save it got no answer for and sends it again (the same form key) a second
   later, as the offline-safe sheet does; the time counted is the referee's, from the first
   send to the answer.

With ``--against`` (another checkout of the project, an older commit say, with its own
``.venv``: ``git worktree add ../base <commit> && make -C ../base .venv/.installed-app``),
each layout is run first with the other checkout's servers, then with this one's, on the same
database and load: both sides of the comparison in one run, side by side. The other
checkout's migrations must be this one's (``make serve`` migrates).

Then every acknowledged hand is looked for in the database: lost (acknowledged, not stored
as sent), duplicated (stored twice, or stored without being sent). Printed: the hand saves'
p50/p95/p99, each page's p95 (cold after a draw, warm, under load), the spectators' requests
answered and their rate, the share of the machine's cores busy during the pace and the
servers' CPU time a request then, stale reads, the PostgreSQL connections at the peak,
server errors.
Exit status 1 if a hand was lost or duplicated or a read was stale.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hall import (
    ROOT,
    Answer,
    Balancer,
    EventDatabase,
    Machine,
    Save,
    check,
    cpu_seconds,
    machine_ticks,
    percentile,
    request,
    save_request,
)

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/13"
SLUG = "cluster"
SESSIONS, PLAYED = 8, 2
SESSION = PLAYED + 1
HANDS_PLAYED = re.compile(rb'id="stat-hands-played">(\d+)<')


# ---------------------------------------------------------------- the tablets


class Tablet:
    """A table's tablet, signed in with its table card's link; each request goes to the
    server the balancer picks (the sign-in is a session in the database, valid on all)."""

    def __init__(self, table: int, balancer: Balancer):
        self.table = table
        self.balancer = balancer
        self.cookies: dict[str, str] = {}
        self.path = f"/t/{SLUG}/sessions/{SESSION}/tables/{table}/"
        self.acknowledged = 0  # hands this tablet saved and was told were saved
        # A save that never got an answer may be stored or not: its table's count is unknown.
        self.unsure = False

    def _send(self, method, path, body=None, headers=None) -> Answer:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        answer = self.balancer.request(
            method, path, body=body, headers={**(headers or {}), "Cookie": cookie}
        )
        for value in answer.cookies:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return answer

    def sign_in(self, token: str) -> None:
        for _attempt in range(5):
            signed_in = self._send("GET", f"/device/{token}/").status == 302
            if signed_in and self._send("GET", self.path).status == 200:
                return
            time.sleep(1)
        raise RuntimeError(f"table {self.table} could not sign in")

    def sheet(self) -> Answer:
        return self._send("GET", self.path)

    def save(self, entry: Save, *, retry_for: float = 60.0) -> Save:
        """Send ``entry`` until an answer comes (a second between tries), as the sheet's
        queue does; its time is from the first send to the answer."""
        body, headers = save_request(entry, self.cookies.get("csrftoken", ""))
        started = time.perf_counter()
        deadline = time.monotonic() + retry_for
        entry.tries = entry.server_errors = 0
        while True:
            entry.tries += 1
            answer = self._send("POST", self.path, body, headers)
            if answer.status is not None and answer.status < 500:
                break
            entry.server_errors += answer.status is not None
            if time.monotonic() > deadline:
                break
            time.sleep(1)
        entry.status = answer.status
        try:
            entry.saved = bool(json.loads(answer.body).get("saved"))
        except ValueError:
            entry.saved = False
        self.acknowledged += entry.saved
        self.unsure |= answer.status is None
        entry.milliseconds = (time.perf_counter() - started) * 1000
        return entry


# ---------------------------------------------------------------- the run


@dataclass
class Event:
    """The generated tournament: each table's device token and players by seat, and each
    player's hands played before this session."""

    tokens: dict[int, str]
    seats: dict[int, list[int]]
    hands_before: dict[int, int]
    players: int


def prepare(database: EventDatabase, players: int) -> tuple[Event, float]:
    database.manage("migrate", "--noinput")
    started = time.perf_counter()
    database.manage(
        "generate_tournament",
        *("--players", str(players), "--sessions", str(SESSIONS), "--played", str(PLAYED)),
        *("--seed", "1", "--slug", SLUG),
    )
    built = time.perf_counter() - started
    facts = database.python(
        "import json\n"
        "from django.db.models import Count, Q\n"
        "from tournament.hall.device_links import device_token\n"
        "from tournament.models import Hand, Seat, Table\n"
        f"tables = Table.objects.filter(session__tournament__slug='{SLUG}',"
        f" session__number={SESSION})\n"
        "seats = {}\n"
        "for table_number, number in Seat.objects.filter(table__in=tables).order_by(\n"
        "        'table__number', 'seat').values_list('table__number', 'player__number'):\n"
        "    seats.setdefault(table_number, []).append(number)\n"
        "played = dict(Seat.objects.filter(session__tournament__slug='"
        f"{SLUG}', session__number__lt={SESSION})"
        ".values_list('player__number').annotate(n=Count('table__hands',"
        " filter=~Q(table__hands__outcome='not_played'))))\n"
        "print(json.dumps({'tokens': {t.number: device_token(t) for t in tables},\n"
        "    'seats': seats, 'played': played}))\n"
    )
    event = Event(
        tokens={int(k): v for k, v in facts["tokens"].items()},
        seats={int(k): v for k, v in facts["seats"].items()},
        hands_before={int(k): v for k, v in facts["played"].items()},
        players=players,
    )
    return event, built


class Pool:
    """Worker threads running timed calls, each at its moment or as soon as a worker is free
    after it. A call given as sheddable is dropped when it could only start more than
    ``most_late`` seconds late (a spectator who gave up): ``dropped`` counts them, so that a
    saturated server ends the phase on time instead of working through a backlog."""

    def __init__(self, threads: int, most_late: float = 5.0):
        self.threads = threads
        self.most_late = most_late
        self.dropped = 0

    def run(self, calls: list[tuple]) -> None:
        """``calls``: (seconds from now, callable) or (seconds, callable, sheddable)."""
        calls = sorted(calls, key=lambda c: c[0])
        lock = threading.Lock()
        position = [0]
        start = time.monotonic()

        def work():
            while True:
                with lock:
                    if position[0] >= len(calls):
                        return
                    due, call, *sheddable = calls[position[0]]
                    position[0] += 1
                wait = start + due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                elif sheddable and sheddable[0] and -wait > self.most_late:
                    with lock:
                        self.dropped += 1
                    continue
                call()

        workers = [threading.Thread(target=work) for _ in range(self.threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()


@dataclass
class Figures:
    saves: list[Save] = field(default_factory=list)
    pages: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    server_errors: int = 0
    spectator_seconds: float = 0.0
    stale_checks: int = 0
    stale: list[str] = field(default_factory=list)
    # While the pace lasted: the servers' CPU seconds, and the machine's cores' busy share.
    servers_cpu: float = 0.0
    machine_busy: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def page(self, kind: str, answer: Answer) -> None:
        with self.lock:
            if answer.status is None or answer.status >= 500:
                self.server_errors += 1
            else:
                self.pages[kind].append(answer.milliseconds)


def spectator_paths(event: Event, rng: random.Random):
    """The pages spectators read, by kind: the standings' first page, the seating of the
    session in play, a player's page (any of them, drawn from ``rng`` under a lock: the
    pool's threads share it)."""
    lock = threading.Lock()

    def player():
        with lock:
            return f"/t/{SLUG}/players/{rng.randint(1, event.players)}/"

    return {
        "standings": lambda: f"/t/{SLUG}/standings/",
        "seating": lambda: f"/t/{SLUG}/seating/{SESSION}/",
        "player": player,
    }


def after_a_draw(balancer, redis_flush, event, rng, figures: Figures, rounds: int = 5) -> None:
    """Each page read cold (the cache emptied, as after a draw) then warm, ``rounds`` times."""
    paths = spectator_paths(event, rng)
    for _round in range(rounds):
        redis_flush()
        for kind, path in paths.items():
            asked = path()
            figures.page(f"{kind} cold", balancer.request("GET", asked))
            figures.page(f"{kind} warm", balancer.request("GET", asked))


def check_not_stale(event, tablet: Tablet, ports, figures: Figures):
    """The table's first player's page from each server counts every hand acknowledged."""
    if tablet.unsure:
        return
    player = event.seats[tablet.table][0]
    expected = event.hands_before.get(player, 0) + tablet.acknowledged
    for port in ports:
        answer = request(port, "GET", f"/t/{SLUG}/players/{player}/")
        if answer.status is None:
            continue  # that server is down: nothing it serves can be stale
        found = HANDS_PLAYED.search(answer.body)
        counted = int(found.group(1)) if found else None
        with figures.lock:
            figures.stale_checks += 1
            if counted != expected:
                figures.stale.append(
                    f"table {tablet.table}: player {player} on :{port} counts {counted} hands,"
                    f" {expected} stored"
                )


def load(event, tablets, balancer, ports, number, args, rng, figures: Figures) -> None:
    """Hand ``number`` saved at every table at the pace of play, with the spectators."""
    calls = []
    paths = spectator_paths(event, rng)
    kinds = list(paths)

    def save(tablet, check):
        def call():
            entry = tablet.save(Save(tablet.table, number, winner=number % 4, fan=8))
            with figures.lock:
                figures.saves.append(entry)
            if entry.saved:
                figures.page("sheet after a save", tablet.sheet())
                if check:
                    check_not_stale(event, tablet, ports, figures)

        return call

    def spectator(kind):
        def call():
            figures.page(f"{kind} under load", balancer.request("GET", paths[kind]()))

        return call

    for index, tablet in enumerate(tablets):
        calls.append((rng.uniform(0, args.pace_seconds), save(tablet, index % 10 == 0)))
    count = int(args.spectators * args.pace_seconds)
    for index in range(count):
        calls.append((index / args.spectators, spectator(kinds[index % len(kinds)]), True))
    started = time.monotonic()
    pool = Pool(args.threads)
    pool.run(calls)
    figures.spectator_seconds = time.monotonic() - started
    figures.spectators_asked, figures.spectators_dropped = count, pool.dropped


def burst(tablets, machines, kill_index, number, figures: Figures) -> float:
    """``tablets`` save hand ``number`` within one second; machine ``kill_index`` is killed
    halfway through and started again. The restart's duration, in seconds."""
    restart: dict = {}
    half = len(tablets) // 2

    def kill_and_restart():
        try:
            machines[kill_index].kill()
            started = time.monotonic()
            machines[kill_index].start(timeout=120)
            restart["seconds"] = time.monotonic() - started
        except Exception as error:  # reported on the caller's thread, after the burst
            restart["error"] = error

    restarter = threading.Thread(target=kill_and_restart)

    def fire(index, tablet):
        if index == half:
            restarter.start()
        entry = tablet.save(Save(tablet.table, number, winner=number % 4, fan=9), retry_for=120)
        with figures.lock:
            figures.saves.append(entry)

    calls = [
        (index / len(tablets), lambda i=index, t=tablet: fire(i, t))
        for index, tablet in enumerate(tablets)
    ]
    Pool(len(tablets)).run(calls)
    restarter.join()
    if "error" in restart:
        raise RuntimeError("the killed server did not start again") from restart["error"]
    return restart["seconds"]


class ConnectionPeak:
    """Samples the database's connections (PostgreSQL's own count) every quarter second."""

    def __init__(self, url: str):
        self.url = url
        self.peak = 0
        self.running = True
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self):
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            while self.running:
                (count,) = connection.execute(
                    "SELECT count(*) - 1 FROM pg_stat_activity WHERE datname = current_database()"
                ).fetchone()
                self.peak = max(self.peak, count)
                time.sleep(0.25)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()


def stored(database: EventDatabase) -> dict:
    """Every hand of the session in play, and the form keys that stored them."""
    return database.python(
        "import json\n"
        "from tournament.models import Hand, HandSubmission\n"
        f"hands = Hand.objects.filter(table__session__tournament__slug='{SLUG}',"
        f" table__session__number={SESSION})\n"
        "rows = list(hands.values_list('table__number', 'number', 'winner', 'fan'))\n"
        "keys = list(HandSubmission.objects.filter(hand__in=hands).values_list('key',\n"
        "    'hand__table__number', 'hand__number'))\n"
        "print(json.dumps({'hands': rows, 'keys': [[str(k), t, n] for k, t, n in keys]}))\n"
    )


def run_layout(layout, database, event, tablets, number, args, rng, redis_cache, root):
    """The three phases against the ``layout``'s machines (its count, workers a machine and
    whether hall first) serving the checkout ``root``; the figures."""
    name, count, workers, hall_first = layout
    machines = [Machine(database, workers, root, hall_first=hall_first) for _ in range(count)]
    servers = [server for machine in machines for server in machine.servers]
    figures = Figures()
    try:
        for machine in machines:
            machine.start(timeout=180)
        ports = [server.port for server in servers]
        balancer = Balancer([m.spectators_port for m in machines], random.Random(rng.random()))
        tables = Balancer([m.hall_port for m in machines], random.Random(rng.random()))
        for tablet in tablets:
            tablet.balancer = tables
        with ConnectionPeak(database.env["DATABASE_URL"]) as connections:
            if not tablets[0].cookies:
                Pool(args.threads).run(
                    [(0.0, lambda t=t: t.sign_in(event.tokens[t.table])) for t in tablets]
                )
            after_a_draw(balancer, redis_cache.flushdb, event, rng, figures)
            # The CPU the servers and the whole machine used while the pace lasted: at a
            # saturated machine the latencies say only that it queued; the CPU a request
            # cost compares two sides steadily from one run to the next.
            machine_before = machine_ticks()
            servers_before = cpu_seconds(server.process_group for server in servers)
            load(event, tablets, balancer, ports, number, args, rng, figures)
            figures.servers_cpu = (
                cpu_seconds(server.process_group for server in servers) - servers_before
            )
            (busy, ticks), (busy_before, ticks_before) = machine_ticks(), machine_before
            figures.machine_busy = (busy - busy_before) / max(ticks - ticks_before, 1)
            restart = burst(tablets[: args.burst], machines, count - 1, number + 1, figures)
        figures.connections = connections.peak
        figures.restart = restart
        figures.redis_mb = redis_cache.info("memory")["used_memory"] / 2**20
    finally:
        for machine in machines:
            machine.stop()
    figures.name = name
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2, help="per machine of two")
    parser.add_argument("--pace-seconds", type=float, default=150)
    parser.add_argument("--burst", type=int, default=200)
    parser.add_argument("--spectators", type=float, default=200, help="requests a second")
    parser.add_argument("--threads", type=int, default=96)
    # Each machine count with one pool, then hall first: both sides of docs/deploy.md's
    # "Hall first" in one run.
    parser.add_argument("--layouts", default="one,one-hall,two,two-hall")
    parser.add_argument("--postgres-url", default=os.environ.get("DATABASE_URL") or DEFAULT_PG)
    parser.add_argument("--redis", default=os.environ.get("MCR_BENCH_REDIS_URL") or DEFAULT_REDIS)
    parser.add_argument("--seed", type=int, default=20261205)
    parser.add_argument(
        "--against", type=Path, help="another checkout, run first on the same load to compare"
    )
    args = parser.parse_args(argv)
    if args.against and not (args.against / ".venv" / "bin" / "gunicorn").exists():
        parser.error(
            f"--against: {args.against} has no .venv with gunicorn (make .venv/.installed-app)"
        )
    if not 2 <= args.burst <= args.players // 4:
        parser.error("--burst needs at least 2 tables, and no more than the tournament has")
    import redis

    rng = random.Random(args.seed)
    cache = redis.Redis.from_url(args.redis)
    cache.flushdb()
    database = EventDatabase(args.postgres_url)
    database.env["MCR_REDIS_URL"] = args.redis
    database.env["MCR_API_RATE"] = "1000000/m"
    results = []
    try:
        event, built = prepare(database, args.players)
        tables = len(event.tokens)
        print(
            f"{args.players} players, {tables} tables, session {SESSION} of {SESSIONS} in play"
            f" (two played: generated in {built:.0f} s); PostgreSQL and Redis of this machine"
        )
        tablets = [Tablet(table, None) for table in sorted(event.tokens)]
        layouts = {
            "one": ("one server", 1, args.workers * 2, False),
            "two": ("two servers", 2, args.workers, False),
            "one-hall": ("one, hall first", 1, args.workers * 2, True),
            "two-hall": ("two, hall first", 2, args.workers, True),
        }
        checkouts = (
            [(args.against.resolve(), "(other)"), (ROOT, "")] if args.against else [(ROOT, "")]
        )
        number = 1
        for key in args.layouts.split(","):
            for root, side in checkouts:
                name, count, workers, hall_first = layouts[key]
                name = f"{name} {side}".strip()
                pools = " in two pools (hall first)" if hall_first else ""
                print(
                    f"{name}: {count} × {workers} workers{pools}, the code of {root} …", flush=True
                )
                layout = (name, count, workers, hall_first)
                figures = run_layout(
                    layout, database, event, tablets, number, args, rng, cache, root
                )
                # A machine's workers, hall first as the hall's pool + the spectators'.
                split = f"({workers // 2} + {workers // 2})" if hall_first else workers
                results.append((figures, count, split))
                number += 2
        verdict = check([s for f, _c, _w in results for s in f.saves], stored(database))
    finally:
        database.close()
        cache.flushdb()
    return report(results, verdict, args)


def answered(figures: Figures) -> int:
    return sum(len(v) for k, v in figures.pages.items() if k.endswith("under load"))


def paced_requests(figures: Figures, saves: list[Save]) -> int:
    """Every request of the pace phase: the spectators', each save's tries, the sheets
    loaded after them and the stale-read checks."""
    return (
        answered(figures)
        + sum(save.tries for save in saves)
        + len(figures.pages.get("sheet after a save", []))
        + figures.stale_checks
    )


def report(results, verdict, args) -> int:
    print()
    print(f"{'':34}" + "".join(f"{f.name:>20}" for f, _c, _w in results))

    def line(label, values):
        print(f"{label:34}" + "".join(f"{v:>20}" for v in values))

    line("servers × workers", [f"{c} × {w}" for _f, c, w in results])
    pace = [[s for s in f.saves if s.number % 2 == 1] for f, _c, _w in results]
    burst_saves = [[s for s in f.saves if s.number % 2 == 0] for f, _c, _w in results]
    for label, groups in (("pace", pace), ("burst (a server killed)", burst_saves)):
        line(f"{label}: hands sent", [len(g) for g in groups])
        line("  acknowledged", [sum(s.saved for s in g) for g in groups])
        for share in (50, 95, 99):
            line(
                f"  save p{share} (ms)",
                [f"{percentile([s.milliseconds for s in g], share):.0f}" for g in groups],
            )
        line("  sent again (no answer)", [sum(s.tries - 1 for s in g) for g in groups])
    kinds = [
        f"{page} {when}"
        for page in ("standings", "seating", "player")
        for when in ("cold", "warm", "under load")
    ] + ["sheet after a save"]
    for kind in kinds:
        line(
            f"{kind} p95 (ms)",
            [f"{percentile(f.pages.get(kind, []), 95):.0f}" for f, _c, _w in results],
        )
    line(
        "spectators asked",
        [f"{f.spectators_asked} ({args.spectators:g}/s)" for f, _c, _w in results],
    )
    line("  given up (over 5 s late)", [f.spectators_dropped for f, _c, _w in results])
    line(
        "  answered",
        [f"{answered(f)} ({answered(f) / f.spectator_seconds:.0f}/s)" for f, _c, _w in results],
    )
    line("pace phase lasted (s)", [f"{f.spectator_seconds:.0f}" for f, _c, _w in results])
    line(
        "  machine busy (of its cores)",
        [f"{f.machine_busy:.0%} of {os.cpu_count()}" for f, _c, _w in results],
    )
    line(
        "  servers' CPU a request (ms)",
        [
            f"{f.servers_cpu * 1000 / max(paced_requests(f, saves), 1):.1f}"
            for (f, _c, _w), saves in zip(results, pace, strict=True)
        ],
    )
    line(
        "stale reads (of checks)", [f"{len(f.stale)} of {f.stale_checks}" for f, _c, _w in results]
    )
    line("PostgreSQL connections, peak", [f.connections for f, _c, _w in results])
    line("Redis memory after (MB)", [f"{f.redis_mb:.0f}" for f, _c, _w in results])
    line("server killed: back in (s)", [f"{f.restart:.1f}" for f, _c, _w in results])
    line(
        "server errors (5xx)",
        [f.server_errors + sum(s.server_errors for s in f.saves) for f, _c, _w in results],
    )
    print()
    print(f"All runs: lost {verdict['lost']}, duplicated {verdict['duplicated']}.")
    for f, _c, _w in results:
        for stale in f.stale[:5]:
            print(f"stale ({f.name}): {stale}")
    failed = verdict["lost"] or verdict["duplicated"] or any(f.stale for f, _c, _w in results)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
