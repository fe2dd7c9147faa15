"""The winning hand by touch, counted: taps and fan latency on the tile picker for 20 hands.

    .venv/bin/python bench/tile_picker_bench.py [--hands 20] [--size 768x1024] [--size 1024x768]

(``make bench-picker``.) Needs Debian's ``chromium`` and ``chromedriver``. The hands are the
first 20 of the fan corpus the differential tests use (``reference.hand_generators.sample``:
every shape, every win condition, flowers and winds, and the generators aimed at the rare
fans). Serves the app with ``manage.py runserver`` on a free port (a temporary SQLite
database) and drives headless Chromium on ``/calculator/`` at each tablet size: each hand is
tapped as ``reference.tile_taps`` plans it, then checked (the hand the picker wrote is that
hand; the fans it shows are the scoring core's) — a hand that fails the check stops the run.

Prints, per size: taps per hand (median and most; on the calculator, where the conditions
and winds are tapped too; then what the same hands take on a referee's sheet, where the sheet
gives the winds and the self-draw: the picker's plan there plus the taps that open it and
take its total), the time from the last tap to the fans on screen (measured in the page,
from the tap's click to the fans inserted; p50, p95, most) and whether the picker and its
fans fit the screen for every hand; then, for comparison, the characters a referee typed for
the same hands before the picker (the notation on the sheet). Then the server's time for the
fans of one hand: the view in process (Django's test client, each hand 20 times) and over
loopback HTTP, p50 and p95. Targets (issue 20): median taps at most 22, fans on screen at
most 150 ms, server p95 at most 30 ms. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from hall import chromium  # noqa: E402

from reference.hand_generators import sample  # noqa: E402
from reference.tile_taps import as_picked, plan  # noqa: E402
from tournament.scoring import notation  # noqa: E402

TARGET_TAPS = 22
TARGET_SHOWN_MS = 150
TARGET_SERVER_P95_MS = 30
# On a sheet the picker opens with one tap and its total goes into the fan with another.
SHEET_EXTRA_TAPS = 2


def sheet_text(hand) -> str:
    """What a referee types on the sheet for ``hand``: its tiles, and the conditions the sheet
    cannot know (the winds, the self-draw and the flowers come from the sheet)."""
    tiles = notation.format_hand(hand).split(" | ")[0]
    words = [w for w, on in (("kong", hand.kong), ("fourth", hand.fourth_tile)) if on]
    words += ["last"] if hand.last_tile else []
    return tiles + (" | " + " ".join(words) if words else "")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def tap_hands(driver, base: str, hands) -> tuple[list[int], list[float], bool]:
    """Tap every hand on the calculator; its taps, fans-shown times and whether all fit."""
    from tests.browser.picker import PICKER, fits_the_screen, shown_fans, tap_plan, written_hand
    from tests.fan_lists import core_fans

    taps, shown_ms, fit = [], [], True
    for generated in hands:
        hand = generated.hand
        driver.get(base + "/calculator/")
        taps.append(tap_plan(driver, plan(hand)))
        written = notation.parse_hand(written_hand(driver))
        if as_picked(written) != as_picked(hand):
            raise SystemExit(f"the picker wrote {notation.format_hand(written)} for {hand}")
        shown = shown_fans(driver)
        scored = notation.score_hand(hand)
        if shown["fans"] != core_fans(scored) or shown["total"] != scored.total_without_flowers:
            raise SystemExit(f"the picker showed {shown['fans']} for {notation.format_hand(hand)}")
        shown_ms.append(shown["after_ms"])
        fit = fit and fits_the_screen(driver, PICKER)
    return taps, shown_ms, fit


def server_times(hands, base: str) -> tuple[list[float], list[float]]:
    """The fans view's time in process, and over loopback HTTP, for each hand 20 times."""
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    client = Client()
    queries = [{"hand": notation.format_hand(g.hand)} for g in hands]
    in_process, loopback = [], []
    for _ in range(20):
        for query in queries:
            started = time.perf_counter()
            response = client.get("/calculator/fans/", query)
            in_process.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200 and b"data-total" in response.content
            url = base + "/calculator/fans/?" + urllib.parse.urlencode(query)
            started = time.perf_counter()
            with urlopen(url, timeout=10) as answer:
                answer.read()
            loopback.append((time.perf_counter() - started) * 1000)
    return in_process, loopback


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--size", action="append", help="WIDTHxHEIGHT (default: both tablets)")
    args = parser.parse_args(argv)
    sizes = args.size or ["768x1024", "1024x768"]
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("needs chromium and chromedriver: apt-get install chromium chromium-driver")
        return 2
    # The fan names compared are the page's, in English, through Django's translation.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings_test")
    import django

    django.setup()
    hands = sample(args.hands)
    sheet_taps = [len(plan(g.hand, on_sheet=True)) + SHEET_EXTRA_TAPS for g in hands]
    typed = [len(sheet_text(g.hand)) for g in hands]
    print(f"{len(hands)} hands of the fan corpus: " + ", ".join(sorted({g.shape for g in hands})))
    print(
        "     size  taps-median  taps-most  sheet-taps-median  sheet-taps-most"
        "  shown-p50-ms  shown-p95-ms  shown-most-ms  fits"
    )
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "MCR_DB_PATH": str(Path(tmp) / "bench.sqlite3")}
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    urlopen(base + "/calculator/", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            shown_all = []
            for size in sizes:
                width, height = (int(x) for x in size.split("x"))
                driver = chromium(width, height)
                try:
                    taps, shown, fit = tap_hands(driver, base, hands)
                finally:
                    driver.quit()
                shown_all += shown
                print(
                    f"{size:>9}  {statistics.median(taps):11}  {max(taps):9}"
                    f"  {statistics.median(sheet_taps):17}  {max(sheet_taps):15}"
                    f"  {statistics.median(shown):12.1f}  {p95(shown):12.1f}  {max(shown):13.1f}"
                    f"  {'yes' if fit else 'NO'}"
                )
            in_process, loopback = server_times(hands, base)
        finally:
            server.terminate()
            server.wait()
    print(
        f"server, the fans of one hand: in process p50 {statistics.median(in_process):.1f} ms,"
        f" p95 {p95(in_process):.1f} ms; over loopback HTTP p50 {statistics.median(loopback):.1f}"
        f" ms, p95 {p95(loopback):.1f} ms"
    )
    print(
        f"before the picker, the same hands typed on the sheet in the notation: median"
        f" {statistics.median(typed)} characters, most {max(typed)} (on a tablet's on-screen"
        f" keyboard, with its layers for digits, capitals and brackets)"
    )
    taps_ok = max(statistics.median(sheet_taps), statistics.median(taps)) <= TARGET_TAPS
    print(
        f"targets: median taps <= {TARGET_TAPS}: {'met' if taps_ok else 'MISSED'};"
        f" fans on screen <= {TARGET_SHOWN_MS} ms:"
        f" {'met' if max(shown_all) <= TARGET_SHOWN_MS else 'MISSED'};"
        f" server p95 <= {TARGET_SERVER_P95_MS} ms:"
        f" {'met' if p95(in_process) <= TARGET_SERVER_P95_MS else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
