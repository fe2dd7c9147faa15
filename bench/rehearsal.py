"""A rehearsal of a small event, run through the real pages in headless Chromium.

    .venv/bin/python bench/rehearsal.py [--database postgresql|sqlite] [--screenshots DIR]

Needs Debian's ``chromium`` and ``chromedriver``. Serves a fresh database with ``make serve``
(gunicorn, DEBUG off): by default a PostgreSQL database of its own on the server that
``--postgres`` names (``postgres://postgres@127.0.0.1:5432/test``), made and dropped here;
with ``--database sqlite`` a SQLite file. The accounts are made as docs/deploy.md says (an
organiser with the *add tournament* permission, two referees); everything else is done in
the browser, at tablet size (768×1024), as the organiser and the referees would:

1. The organiser logs in, creates a tournament of 3 sessions with *New tournament*, imports
   16 players from a CSV file (preview, then confirm; the import page follows the task
   worker to *Import done*) and ticks the two referees in *Settings*.
2. Each session: *Draw*, *Referees* (tables 3 and 4, one referee each; later draws keep
   them), *Table cards* (each table's device link and seats), *Open for play*. Tables 1–2 are
   entered by tablets signed in with their links (a fresh browser each), tables 3–4 by the
   referees logged in: 16 hands each through the sheet's form (winner and discarder tiles,
   fan quick picks or the typed fan, the flower stepper, *Save as a draw*), one penalty in
   the event, one hand corrected through its link on the sheet; the tablet's badge must say
   *All saved*, then *Review and confirm*. In session 2 the organiser reopens a confirmed
   table with a reason, its referee corrects a hand and confirms it again. Then *Close
   session*.
3. The scores on the standings page, in the downloaded standings.xlsx and computed here from
   the hands entered (a discard win: 8 + fan from the discarder, 8 from each other player;
   self-drawn: 8 + fan from each of the three; flowers count as fan; a draw 0; penalties as
   entered) must agree for every player. The *Activity* page must list the reopening and
   the corrections. ``manage.py backup`` of the running event, ``manage.py restore`` into a
   second fresh database, served: its standings page must show the same table.

Prints each step as it goes, then the report: hands entered, timings (the whole run; page
loads, tap to page shown, median and p95), what was noticed on the way (a page wider than
the tablet, the browser's console errors) and every check. Exits 1 when a check fails.
``--screenshots`` keeps a picture of each kind of page, the first time it is shown. Not part
of ``make test``.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from hall import EventDatabase, Server, percentile  # noqa: E402
from rehearsal_browser import Browser, PageProblem, Rehearsal  # noqa: E402
from rehearsal_checks import check_activity, check_backup, check_results  # noqa: E402
from rehearsal_plan import (  # noqa: E402
    CORRECTED_AT,
    NAME,
    ORGANISER,
    PLAYERS,
    POSTGRES,
    REFEREES,
    REOPEN_REASON,
    REOPENED_AT,
    SESSIONS,
    SLUG,
    TABLET_TABLES,
    Hand,
    plan_table,
)


def write_players(folder: Path) -> Path:
    path = folder / "players.csv"
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["number", "name", "name_zh", "team", "country", "substitute"])
        for number, name, name_zh, team, country in PLAYERS:
            writer.writerow([number, name, name_zh, team, country, "no"])
    return path


def make_accounts(database: EventDatabase) -> None:
    """As docs/deploy.md says: the organiser with the add-tournament permission, referees."""
    referees = "".join(
        f"User.objects.create_user({name!r}, password={password!r})\n"
        for name, password in REFEREES.values()
    )
    database.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import Permission, User\n"
        f"organiser = User.objects.create_user({ORGANISER[0]!r}, password={ORGANISER[1]!r})\n"
        "organiser.user_permissions.add(Permission.objects.get(\n"
        "    content_type__app_label='tournament', codename='add_tournament'))\n" + referees,
    )


def set_up_tournament(org: Browser, run: Rehearsal, players_csv: Path) -> None:
    org.log_in(*ORGANISER)
    run.step("organiser logged in")
    org.open("/")
    org.tap_through(org.link("New tournament"))
    org.find("#id_name").send_keys(NAME)
    org.find("#id_slug").send_keys(SLUG)
    count = org.find("#id_session_count")
    count.clear()
    count.send_keys(str(SESSIONS))
    minutes = org.find("#id_session_minutes")
    if not minutes.get_attribute("value"):
        minutes.send_keys("150")
    org.tap_through(org.button("Save"))
    run.check(
        "New tournament: created, on to its players",
        org.path == f"/t/{SLUG}/players/" and any("created" in m for m in org.messages()),
        f"{org.path} {org.messages()}",
    )
    run.step(f"tournament {NAME!r} created with {SESSIONS} sessions")

    org.tap_through(org.link("Import a list"))
    org.find("input[type=file][name=file]").send_keys(str(players_csv))
    org.tap_through(org.button("Preview"))
    rows = org.finds("table.import-rows tbody tr.import-new")
    badges = org.text(".import-preview p")
    run.check(
        "import preview: 16 new rows, nothing saved yet",
        len(rows) == 16 and "16 new" in badges,
        f"{len(rows)} new rows; {badges!r}",
    )
    org.tap_through(org.button("Import these players"))
    # The task worker beside the server imports them; the page asks every 2 s meanwhile.
    from selenium.webdriver.support.wait import WebDriverWait

    WebDriverWait(org.driver, 60, poll_frequency=0.2).until(
        lambda _driver: "Import done" in org.text("#import-job")
    )
    run.check(
        "import confirmed: the import page follows it to its end",
        "Import done: created 16, updated 0, unchanged 0." in org.text("#import-job"),
        org.text("#import-job"),
    )
    org.tap_through(org.link("Back to the players", "//section[@id='import-job']"))
    active = org.text(".active-count")
    run.check(
        "import confirmed: 16 active players",
        active == "16",
        f"active {active!r}, {org.messages()}",
    )
    run.step(f"16 players imported from {players_csv.name} (preview, then confirm)")

    org.tap_through(org.link(NAME, "//nav"))
    org.tap_through(org.link("Settings"))
    for name, _password in REFEREES.values():
        box = org.xpath(
            f"//input[@name='referees']/ancestor::label[contains(normalize-space(), '{name}')]"
            "//input"
        )
        if not box.is_selected():
            org.tap(box)
    org.tap_through(org.button("Save"))
    run.check(
        "Settings: the referees saved",
        org.path == f"/t/{SLUG}/" and any("saved" in m for m in org.messages()),
        f"{org.path} {org.messages()}",
    )
    run.step("referees " + ", ".join(n for n, _p in REFEREES.values()) + " given the tournament")


def session_row(number: int) -> str:
    return f"//tr[td/a[normalize-space()='Session {number}']]"


def draw_session(org: Browser, run: Rehearsal, number: int) -> dict[int, dict]:
    """Draw, referees, table cards, open for play: each table's seats and device link."""
    from selenium.webdriver.support.select import Select

    org.open(f"/t/{SLUG}/")
    Select(org.find("#id_number")).select_by_value(str(number))
    org.tap_through(org.button("Draw"))
    drawn = [m for m in org.messages() if "drawn with seed" in m]
    run.check(
        f"session {number}: drawn, seating shown",
        bool(drawn) and org.path == f"/t/{SLUG}/seating/{number}/",
        f"{org.path} {org.messages()}",
    )
    run.step(f"session {number} drawn ({drawn[0] if drawn else 'no message'})")

    org.tap_through(org.link("Referees", "//main"))
    if number == 1:
        for table, (name, _password) in REFEREES.items():
            Select(org.find("#id_referee")).select_by_visible_text(name)
            field = org.find("#id_tables")
            field.clear()
            field.send_keys(str(table))
            org.tap_through(org.button("Assign"))
    given = {table: org.text(f"tr#table-{table}") for table in REFEREES}
    run.check(
        f"session {number}: tables 3 and 4 have their referees"
        + (" (kept from the draw before)" if number > 1 else ""),
        all(name in given[table] for table, (name, _p) in REFEREES.items()),
        repr(given),
    )

    org.open(f"/t/{SLUG}/")
    org.tap_through(org.link("Table cards", session_row(number)))
    tables = {}
    for card in org.finds("section.table-card"):
        table = int(card.get_attribute("id").removeprefix("table-"))
        seats = [
            int(cell.text.split()[0])
            for cell in card.find_elements(
                "css selector", "table:first-of-type tbody td:nth-child(2)"
            )
        ]
        links = card.find_elements("css selector", "a[data-device-link]")
        tables[table] = {
            "seats": seats,
            "link": links[0].get_attribute("href") if links else None,
        }
    run.check(
        f"session {number}: 4 table cards, each with 4 players and a device link",
        sorted(tables) == [1, 2, 3, 4]
        and all(len(t["seats"]) == 4 and t["link"] for t in tables.values()),
        repr({t: (v["seats"], bool(v["link"])) for t, v in tables.items()}),
    )
    seated = sorted(p for t in tables.values() for p in t["seats"])
    run.check(f"session {number}: every player seated once", seated == list(range(1, 17)))

    org.open(f"/t/{SLUG}/")
    org.tap_through(org.button("Open for play", session_row(number)))
    run.check(
        f"session {number}: open for play",
        any("open for play" in m for m in org.messages())
        and "in play" in org.xpath(session_row(number)).text,
        f"{org.messages()}",
    )
    run.step(f"session {number}: table cards read, session open for play")
    return tables


def close_session(org: Browser, run: Rehearsal, number: int) -> None:
    org.open(f"/t/{SLUG}/")
    org.tap_through(org.button("Close session", session_row(number)))
    row = org.xpath(session_row(number)).text
    run.check(
        f"session {number}: closed, 4 / 4 tables confirmed",
        "closed" in row and "4 / 4" in row and any("closed" in m for m in org.messages()),
        f"{row!r} {org.messages()}",
    )
    run.step(f"session {number} closed")


def closed_sheets(org: Browser, run: Rehearsal, session: int) -> None:
    """After closing: the pages that lead an organiser to a table's sheet (where a confirmed
    table is reopened) still do for this session's tables."""
    pattern = re.compile(rf"/t/{SLUG}/sessions/{session}/tables/\d+/$")
    found = []
    for address in (
        f"/t/{SLUG}/",
        f"/t/{SLUG}/seating/{session}/",
        f"/t/{SLUG}/sessions/{session}/referees/",
        f"/t/{SLUG}/referee/",
    ):
        org.open(address)
        hrefs = [a.get_attribute("href") or "" for a in org.finds("main a[href]")]
        found += [h for h in hrefs if pattern.search(h)]
    if not found:
        org.open(f"/t/{SLUG}/sessions/{session}/tables/1/")
        offered = bool(org.finds(f'a[href="/t/{SLUG}/sessions/{session}/tables/1/reopen/"]'))
        run.notice(
            "closed sheets",
            f"once session {session} is closed no page links to its tables' sheets (tournament,"
            " seating, Referees, Referee pages): the sheet, where a confirmed table is reopened,"
            " is reached only by typing its address"
            + (" (typed, it does offer Reopen for correction)" if offered else ""),
        )


def reopen_table(org: Browser, run: Rehearsal, session: int, table: int) -> None:
    """The organiser reopens a confirmed table from its sheet, with a reason."""
    org.open(f"/t/{SLUG}/")
    org.tap_through(org.link("Referee", "//nav"))
    org.tap_through(f'a.button[href="/t/{SLUG}/sessions/{session}/tables/{table}/"]')
    org.tap_through(org.link("Reopen for correction"))
    org.find("#id_reason").send_keys(REOPEN_REASON)
    org.tap_through(org.button("Reopen"))
    run.check(
        f"session {session} table {table}: reopened, its sheet editable again",
        not org.finds("h1 .badge.ok") and bool(org.finds("#hand-entry, #entry")),
        f"{org.path} {org.messages()}",
    )
    run.check(
        "the reopening's reason is shown on the sheet",
        REOPEN_REASON in org.text("#confirm"),
        org.text("#confirm")[:300],
    )
    run.step(f"organiser reopened session {session} table {table}: {REOPEN_REASON!r}")


SAVED_JS = """
var state = document.querySelector('[data-sync-state]');
if (!state) return null;
return [state.getAttribute('data-sync-state'), state.textContent.trim(), !state.hidden];
"""


def enter_hand(page: Browser, run: Rehearsal, number: int, hand: Hand) -> None:
    """Fill the sheet's form for one hand as a referee taps, and save it."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.wait import WebDriverWait

    heading = page.text(".hand-header h2")
    shown = page.find('#hand-entry [name="number"]').get_attribute("value")
    if heading != f"Enter hand {number}" or shown != str(number):
        raise PageProblem(f"{page.path}: the form asks for {heading!r} ({shown}), not {number}")
    label = '#hand-entry label:has(input[name="{}"][value="{}"])'
    if hand.penalty:
        offender, _each = hand.penalty
        page.tap("#penalties > summary")
        page.tap(label.format("penalty-0-offender", offender))
        page.tap('#penalty-0 [data-preset-kind="to_each_other"][data-preset-points="10"]')
    if hand.outcome == "self_drawn":
        page.tap(label.format("outcome", "self_drawn"))
    if hand.winner is not None:
        page.tap(label.format("winner", hand.winner))
    if hand.discarder is not None:  # tapping the discarder chooses a win on a discard
        page.tap(label.format("discarder", hand.discarder))
    if hand.fan is not None and hand.typed:
        field = page.find('#hand-entry [name="fan"]')
        page.tap(field)
        field.clear()
        field.send_keys(str(hand.fan))
    elif hand.fan is not None:
        page.tap(f'#hand-entry [data-fan="{hand.fan}"]')
    for _ in range(hand.flowers):
        page.tap('#hand-entry [data-step="1"]')
    if hand.penalty:
        page.snapshot("the sheet's form filled, with a penalty")
    elif hand.flowers:
        page.snapshot("the sheet's form filled, with flowers")
    button = "#hand-entry [data-save-draw]" if hand.outcome == "draw" else "#hand-entry .primary"
    old = page.find("html")
    started = time.perf_counter()
    page.tap(button)

    def next_form(_driver):
        try:
            old.is_enabled()
        except WebDriverException:
            return "page"
        state = page.js(SAVED_JS)
        return "kept" if state and state[0] != "saved" else None

    how = WebDriverWait(page.driver, 60, poll_frequency=0.05).until(next_form)
    run.hands_entered += 1
    if how == "kept":
        run.kept_on_tablet += 1
        run.notice(f"kept {page.who}", f"{page.who}: a hand was kept on the tablet, not sent")
        return
    page.arrived()
    run.saves.append((time.perf_counter() - started) * 1000)
    said = page.text(".hand-header .saved") or " ".join(page.messages())
    if f"Hand {number} saved." not in said:
        run.check(f"{page.who}: hand {number} saved", False, f"the page says {said!r}")


def correct_hand(page: Browser, run: Rehearsal, number: int, hand: Hand) -> None:
    """Tap the hand's number on the sheet, change its fan, save the correction."""
    page.tap_through(f"#hand-{number} a.hand-link")
    heading = page.text(".hand-header h2")
    if heading != f"Correct hand {number}":
        raise PageProblem(f"{page.path}: the hand link opened {heading!r}")
    page.tap(f'#hand-entry [data-fan="{hand.fan}"]')
    page.tap_through(page.button("Save correction"))
    said = " ".join(page.messages())
    run.corrections += 1
    run.check(
        f"{page.who}: hand {number} corrected through its link",
        f"Hand {number} corrected." in said and page.path.startswith("/t/"),
        repr(said),
    )


def wait_all_saved(page: Browser, run: Rehearsal, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    state = None
    while time.monotonic() < deadline:
        state = page.js(SAVED_JS)
        if state and state[0] == "saved" and state[1] == "All saved" and state[2]:
            break
        time.sleep(0.25)
    run.check(
        f"{page.who}: the sync badge says All saved",
        state is not None
        and state[1:]
        == [
            "All saved",
            True,
        ],
        repr(state),
    )


def confirm_table(page: Browser, run: Rehearsal, session: int, table: int) -> None:
    page.tap_through(page.link("Review and confirm"))
    missing = page.text("#missing")
    run.check(
        f"session {session} table {table}: the review lists 16 hands, none missing",
        len(page.finds("#hands ~ .table-wrap tbody tr")) == 16 and not missing,
        f"{len(page.finds('#hands ~ .table-wrap tbody tr'))} rows, {missing!r}",
    )
    page.tap_through(page.button("Confirm the scores of this table"))
    run.check(
        f"session {session} table {table}: confirmed",
        f"Table {table} confirmed." in " ".join(page.messages())
        and bool(page.finds("h1 .badge.ok")),
        f"{page.path} {page.messages()}",
    )


def check_seats(page: Browser, run: Rehearsal, seats: list[int], where: str) -> None:
    """The sheet's winner tiles name the players of the table card, in its order."""
    names = {number: name for number, name, *_rest in PLAYERS}
    tiles = [t.text for t in page.finds("#field-winner label")]
    ok = len(tiles) == 4 and all(
        tile.startswith(f"P{seat + 1} · {names[player]}")
        for seat, (tile, player) in enumerate(zip(tiles, seats, strict=False))
    )
    run.check(f"{where}: the sheet's seats are the table card's", ok, repr(tiles))


def play_table(
    page: Browser, run: Rehearsal, session: int, table: int, seats: list[int], plan: dict
) -> None:
    """All 16 hands of one table from its sheet, then review and confirm."""
    where = f"session {session} table {table}"
    check_seats(page, run, seats, where)
    for number in range(1, 17):
        enter_hand(page, run, number, plan[number])
        if CORRECTED_AT[:2] == (session, table) and number == CORRECTED_AT[3]:
            hand = CORRECTED_AT[2]
            plan[hand] = plan[hand].corrected()
            correct_hand(page, run, hand, plan[hand])
            run.step(f"{where}: hand {hand} corrected by {page.who} (fan now {plan[hand].fan})")
    done = page.text("#entry")
    run.check(f"{where}: the sheet says all 16 hands are entered", "All 16 hands" in done, done)
    wait_all_saved(page, run)
    confirm_table(page, run, session, table)
    page.console()
    run.step(f"{where}: 16 hands entered and confirmed by {page.who}")


def walk(run: Rehearsal, database: EventDatabase, server: Server, folder: Path, postgres):
    base = f"http://127.0.0.1:{server.port}"
    org = Browser("organiser", base, run)
    referees: dict[int, Browser] = {}
    hands: dict[tuple[int, int], dict[int, Hand]] = {}
    seats: dict[tuple[int, int], list[int]] = {}
    try:
        set_up_tournament(org, run, write_players(folder))
        for table, (name, password) in REFEREES.items():
            referees[table] = Browser(name, base, run)
            referees[table].log_in(name, password)
        run.step("referees logged in on their tablets")

        for session in range(1, SESSIONS + 1):
            tables = draw_session(org, run, session)
            for table in range(1, 5):
                seats[(session, table)] = tables[table]["seats"]
                plan = hands[(session, table)] = plan_table(session, table)
                if table in TABLET_TABLES:
                    tablet = Browser(f"table {table}'s tablet", base, run)
                    try:
                        tablet.open(tables[table]["link"])
                        # Signed in by the link, with no account: the header names the tablet.
                        who = tablet.text(".account .who")
                        run.check(
                            f"session {session} table {table}: the device link opens the sheet",
                            tablet.path.startswith(f"/t/{SLUG}/sessions/{session}/tables/{table}/")
                            and who == f"Tablet of table {table}",
                            f"{tablet.path} ({who})",
                        )
                        play_table(tablet, run, session, table, tables[table]["seats"], plan)
                    finally:
                        tablet.quit()
                else:
                    page = referees[table]
                    page.open(f"/t/{SLUG}/")
                    page.tap_through(page.link("Referee", "//nav"))
                    mine = [a.text for a in page.finds("td.num a.button")]
                    run.check(
                        f"session {session}: {page.who}'s Referee page lists table {table} only",
                        mine == [str(table)],
                        repr(mine),
                    )
                    page.tap_through(page.link(str(table)))
                    play_table(page, run, session, table, tables[table]["seats"], plan)
            if session == REOPENED_AT[0]:
                _session, table, hand = REOPENED_AT
                reopen_table(org, run, session, table)
                page = referees[table]
                page.open(f"/t/{SLUG}/sessions/{session}/tables/{table}/")
                hands[(session, table)][hand] = hands[(session, table)][hand].corrected()
                correct_hand(page, run, hand, hands[(session, table)][hand])
                confirm_table(page, run, session, table)
                run.step(
                    f"session {session} table {table}: hand {hand} corrected by {page.who},"
                    " table confirmed again"
                )
            close_session(org, run, session)
            if session == 1:
                closed_sheets(org, run, session)

        check_results(run, org, hands, seats)
        check_activity(run, org)
        check_backup(run, database, org, folder, postgres)
    finally:
        for browser in (org, *referees.values()):
            browser.quit()


def report(run: Rehearsal, kind: str) -> int:
    elapsed = time.monotonic() - run.started
    failed = [c for c in run.checks if not c[1]]
    print()
    print(
        f"Rehearsal on {kind}: {len(run.steps)} steps, {elapsed // 60:.0f} min {elapsed % 60:.0f} s"
    )
    print(
        f"hands entered {run.hands_entered} (at {len(run.saves)} the next sheet loaded,"
        f" {run.kept_on_tablet} kept on the tablet), corrections {run.corrections}"
    )
    if run.loads:
        print(
            f"page loads {len(run.loads)}: median {statistics.median(run.loads):.0f} ms,"
            f" p95 {percentile(run.loads, 95):.0f} ms, slowest {max(run.loads):.0f} ms"
        )
    if run.saves:
        print(
            f"Save tapped to the next hand's form: median {statistics.median(run.saves):.0f} ms,"
            f" p95 {percentile(run.saves, 95):.0f} ms"
        )
    if run.noticed:
        print("noticed:")
        for text in run.noticed.values():
            print(f"  - {text}")
    print("steps:")
    for text in run.steps:
        print(f"  - {text}")
    print(f"checks: {len(run.checks) - len(failed)} passed, {len(failed)} failed")
    for name, ok, detail in run.checks:
        print(f"  {'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"))
    return 1 if failed else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--postgres", default=POSTGRES, help=f"the server (default {POSTGRES})")
    parser.add_argument(
        "--screenshots", type=Path, help="a folder for a picture of each kind of page"
    )
    args = parser.parse_args(argv)
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("needs chromium and chromedriver: apt-get install chromium chromium-driver")
        return 2
    postgres = args.postgres if args.database == "postgresql" else None
    run = Rehearsal()
    if args.screenshots:
        args.screenshots.mkdir(parents=True, exist_ok=True)
        run.screenshots = args.screenshots
    database = EventDatabase(postgres)
    server = Server(database)
    folder = Path(tempfile.mkdtemp(prefix="mcr-rehearsal-"))
    keep = False
    try:
        database.manage("migrate", "--noinput")
        make_accounts(database)
        server.start()
        run.step(f"make serve on a fresh {database.kind} database, port {server.port}")
        walk(run, database, server, folder, postgres)
    except Exception as error:  # the report says where it stopped
        keep = True
        run.check("the rehearsal reached its end", False, f"{type(error).__name__}: {error}")
        log = Path(database.folder.name) / "server.log"
        server.stop()
        if log.exists():
            kept = folder / "server.log"
            shutil.copy(log, kept)
            print(f"server log kept in {kept}; its end:")
            print(log.read_text(errors="replace")[-3000:])
    finally:
        server.stop()
        database.close()
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)
    return report(run, database.kind)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
