"""Crash recovery: SIGKILL the controller at random moments of a simulated game,
restart it on the same journal, and it finishes with the uninterrupted result."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ctrl_drive import expected

ROOT = Path(__file__).parent.parent.parent
SCENARIO = ROOT / "tests" / "scenarios" / "house-split-transfer.json"


def _start(journal: Path, faults: str) -> subprocess.Popen[str]:
    """The simulated table, its temporary files (the serial ports' folder,
    which no process can remove when SIGKILL ends it) beside the journal."""
    return subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "sim", "--scenario", str(SCENARIO), "--json",
         "--compact", "--journal", str(journal), "--faults", faults],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        start_new_session=True, env={**os.environ, "TMPDIR": str(journal.parent)},
    )


def _rows(journal: Path) -> int:
    import sqlite3

    if not journal.exists():
        return 0
    try:
        db = sqlite3.connect(journal)
        try:
            return int(db.execute("SELECT COUNT(*) FROM rows").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


@pytest.mark.slow
@pytest.mark.parametrize("faults", ["none", "light"])
def test_killed_runs_finish_with_the_uninterrupted_result(tmp_path: Path, faults: str) -> None:
    rng = random.Random(f"crash-{faults}")
    journal = tmp_path / "table.sqlite"
    kills = 0
    result = None
    for _attempt in range(40):
        proc = _start(journal, faults)
        before = _rows(journal)
        # Kill at a random moment once the run has made progress past the restart.
        deadline = time.monotonic() + 30
        while proc.poll() is None and _rows(journal) <= before and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.3))
        if proc.poll() is None and kills < 8:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            kills += 1
            continue
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0
        result = json.loads(out)
        break
    assert kills >= 3, "the test must actually kill the controller several times"
    assert result == expected(SCENARIO)
