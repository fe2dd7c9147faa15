"""The rehearsal's checks of the results (bench/rehearsal.py): the standings page, the workbook
and the scores computed from the hands must agree; the activity log lists the corrections; a
backup restored serves the same standings."""

from __future__ import annotations

import gzip
import io
import time
import urllib.request
from pathlib import Path

from hall import EventDatabase, Server
from rehearsal_browser import Browser, Rehearsal
from rehearsal_plan import CORRECTED_AT, PLAYERS, REOPEN_REASON, REOPENED_AT, SESSIONS, SLUG


def standings_table(page: Browser) -> dict[int, dict[str, str]]:
    """Player number -> the standings page's cells, by column heading."""
    headings = [th.text.strip() for th in page.finds("table.standings thead th")]
    rows = {}
    for row in page.finds("table.standings tbody tr"):
        cells = [td.text.strip() for td in row.find_elements("css selector", "td")]
        record = dict(zip(headings, cells, strict=False))
        rows[int(record["No."])] = record
    return rows


def as_int(text: str) -> int:
    return int(text.replace("−", "-").replace("+", "").strip())


def read_workbook(page: Browser, run: Rehearsal) -> dict[int, tuple[int, str]]:
    """standings.xlsx, downloaded with the browser's login: number -> (score, table points)."""
    import openpyxl

    address = page.find("a[href$='standings.xlsx']").get_attribute("href")
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.driver.get_cookies())
    request = urllib.request.Request(address, headers={"Cookie": cookies})
    # The file is built by the server's task worker: until it is, a page that waits (202),
    # or the file of an earlier version (X-Workbook-Status says so).
    deadline = time.monotonic() + 120
    while True:
        with urllib.request.urlopen(request, timeout=60) as answer:
            body = answer.read()
            kind = answer.headers.get("Content-Type", "")
            if answer.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            waiting = answer.status == 202 or answer.headers.get("X-Workbook-Status") not in (
                None,
                "current",
            )
        if not waiting or time.monotonic() > deadline:
            break
        time.sleep(1)
    run.check("standings.xlsx downloads as a workbook", "spreadsheet" in kind, kind)
    book = openpyxl.load_workbook(io.BytesIO(body), read_only=True)
    sheet = book["Standings"]
    rows = list(sheet.iter_rows(values_only=True))
    # The header is below the block of the substitutes: the first row that starts with "Rank".
    rows = rows[next(i for i, row in enumerate(rows) if row and row[0] == "Rank") :]
    header = list(rows[0])
    number, score = header.index("Number"), header.index("Score")
    exact = header.index("Table points (exact)")
    run.check(
        "the workbook has a sheet per session",
        all(f"Session {n}" in book.sheetnames for n in range(1, SESSIONS + 1)),
        repr(book.sheetnames),
    )
    return {int(r[number]): (int(r[score]), str(r[exact])) for r in rows[1:] if r[number]}


def activity_rows(page: Browser, session: int, table: int) -> list[str]:
    """The activity log filtered by session and table, through its form: each row's text."""
    page.open(f"/t/{SLUG}/")
    page.tap_through(page.link("Activity", "//main"))
    page.find("#id_session").send_keys(str(session))
    page.find("#id_table").send_keys(str(table))
    page.tap_through(page.button("Filter"))
    rows = []
    for _page in range(10):
        rows += [r.text for r in page.finds("tr.activity-entry")]
        older = page.finds("a[rel=next]")
        if not older:
            break
        page.tap_through(older[0])
    return rows


def expected_scores(hands: dict, seats: dict) -> dict[int, int]:
    """Each player's score over the event, computed from the hands entered."""
    totals = dict.fromkeys(range(1, 17), 0)
    for (session, table), plan in hands.items():
        players = seats[(session, table)]
        for hand in plan.values():
            for seat, points in enumerate(hand.points()):
                totals[players[seat]] += points
    return totals


def check_results(run: Rehearsal, org: Browser, hands: dict, seats: dict) -> None:
    org.open(f"/t/{SLUG}/")
    org.tap_through(org.link("Standings", "//nav"))
    page = standings_table(org)
    run.check(
        "the standings page is final (no provisional note)",
        not org.finds(".message.provisional"),
        org.text(".message.provisional"),
    )
    book = read_workbook(org, run)
    expected = expected_scores(hands, seats)
    run.step("standings page read, standings.xlsx downloaded")
    names = {number: name for number, name, *_rest in PLAYERS}
    differ = []
    for number in range(1, 17):
        shown = as_int(page[number]["Score"]) if number in page else None
        in_book = book.get(number, (None, None))[0]
        if not (shown == in_book == expected[number]):
            differ.append(
                f"{number} {names[number]}: page {shown}, workbook {in_book}, "
                f"from the hands {expected[number]}"
            )
    run.check(
        "every player's score: standings page = workbook = the hands entered",
        not differ and len(page) == 16 and len(book) == 16,
        "; ".join(differ) or f"{len(page)} on the page, {len(book)} in the workbook",
    )
    points = [
        f"{n}: page {page[n]['Table points']}, workbook {book[n][1]}"
        for n in range(1, 17)
        if n in page and n in book and page[n]["Table points"] != book[n][1]
    ]
    run.check("every player's table points: page = workbook", not points, "; ".join(points))
    run.check(
        "scores sum to zero over the event (a penalty paid to the others moves points only)",
        sum(expected.values()) == 0 and sum(as_int(r["Score"]) for r in page.values()) == 0,
        f"{sum(as_int(r['Score']) for r in page.values())}",
    )
    run.standings = {n: [r[h] for h in r] for n, r in page.items()}


def check_activity(run: Rehearsal, org: Browser) -> None:
    session, table, hand = REOPENED_AT
    rows = activity_rows(org, session, table)
    reopening = [r for r in rows if f"Reopening of session {session} table {table}" in r]
    run.check(
        "Activity lists the reopening with its reason",
        any(REOPEN_REASON in r for r in reopening),
        repr(reopening[:2]) if reopening else f"{len(rows)} rows, none a reopening",
    )
    reopened = [r for r in rows if f"Session {session} table {table} " in r]
    run.check(
        "Activity lists the table reopened and confirmed again",
        any("reopened" in r for r in reopened),
        repr(reopened[:3]),
    )
    corrected = [r for r in rows if f"Hand {hand}, session {session} table {table} changed" in r]
    run.check(
        f"Activity lists the correction of hand {hand} after the reopening",
        bool(corrected),
        repr([r for r in rows if f"Hand {hand}," in r][:3]),
    )
    session, table, hand, _after = CORRECTED_AT
    rows = activity_rows(org, session, table)
    corrected = [r for r in rows if f"Hand {hand}, session {session} table {table} changed" in r]
    run.check(
        f"Activity lists the tablet's correction of hand {hand} (by the tablet, not an account)",
        bool(corrected) and "tablet" in corrected[0],
        repr(corrected[:1] or [r for r in rows if f"Hand {hand}," in r][:3]),
    )
    run.step("Activity page read (reopening, corrections)")


def check_backup(run: Rehearsal, database: EventDatabase, org: Browser, folder: Path, postgres):
    # The database's own backup (a PostgreSQL dump, a SQLite copy), whichever it is.
    backup = folder / "event.backup"
    said = database.manage("backup", str(backup)).strip()
    run.step(f"backup of the running event: {said}")
    copy = EventDatabase(postgres)
    server = Server(copy, workers=2)
    visitor = None
    try:
        copy.manage("migrate", "--noinput")
        said = copy.manage("restore", str(backup)).strip().splitlines()[0]
        run.step(f"restored into a second database: {said}")
        server.start()
        visitor = Browser("visitor of the restored event", f"http://127.0.0.1:{server.port}", run)
        visitor.open(f"/t/{SLUG}/standings/")
        restored = {n: list(r.values()) for n, r in standings_table(visitor).items()}
        run.check(
            "the restored event's standings page shows the same table",
            restored == run.standings,
            f"{len(restored)} rows; first differing: "
            + repr(next((n for n in run.standings if restored.get(n) != run.standings[n]), None)),
        )
        run.step("the restored event served: standings compared")
    finally:
        if visitor:
            visitor.quit()
        server.stop()
        copy.close()
