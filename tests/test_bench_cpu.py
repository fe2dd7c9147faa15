"""The cluster bench's CPU figures (bench/hall.py, read from /proc): the CPU time a server's
process group used, and the share of the machine's cores busy between two readings."""

import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from hall import cpu_seconds, machine_ticks

# A process that works until it has used 0.4 s of CPU (its start-up included), then waits.
WORKS_THEN_WAITS = "import time\nwhile time.process_time() < 0.4:\n    pass\ntime.sleep(60)\n"


def burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_the_cpu_time_of_a_process_group_is_counted_and_a_group_gone_counts_nothing():
    worker = subprocess.Popen([sys.executable, "-c", WORKS_THEN_WAITS], start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        # /proc counts whole ticks (a hundredth of a second), rounded down.
        while cpu_seconds([worker.pid]) < 0.38 and time.monotonic() < deadline:
            time.sleep(0.05)
        used = cpu_seconds([worker.pid])
        # Its 0.4 s, to a tick or two: not this process's time, nor the machine's.
        assert 0.38 <= used < 1.0
        time.sleep(0.3)
        assert cpu_seconds([worker.pid]) - used < 0.05  # waiting costs nothing
    finally:
        worker.kill()
        worker.wait()
    assert cpu_seconds([worker.pid]) == 0.0
    assert cpu_seconds([]) == 0.0


def test_the_machines_busy_ticks_grow_by_the_work_done_between_two_readings():
    busy_before, ticks_before = machine_ticks()
    burn(0.3)
    busy, ticks = machine_ticks()
    # 0.3 s of one core is 30 ticks at the usual 100 a second (other processes add more).
    assert busy - busy_before >= 25
    assert ticks - ticks_before >= busy - busy_before
