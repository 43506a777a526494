"""``kill -USR1`` on a running table: its state and every task's stack, and it plays on."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.core import LinkChanged
from controller.diagnostics import state_report
from controller.scenario import load_scenario, run_scenario
from controller.table import Table
from firmware_bridge.link import LinkCounters

ROOT = Path(__file__).resolve().parents[2]


def _bot_scenario(deals: int) -> dict[str, object]:
    spec = importlib.util.spec_from_file_location("soak", ROOT / "benchmarks" / "soak.py")
    assert spec is not None and spec.loader is not None
    soak = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("soak", soak)  # its dataclasses look themselves up there
    spec.loader.exec_module(sys.modules["soak"])
    soak = sys.modules["soak"]
    doc: dict[str, object] = soak.bot_scenario("house", 3, deals)
    return doc


def _rows(journal: Path) -> int:
    try:
        db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=0.2)
        try:
            return int(db.execute("SELECT COUNT(*) FROM rows").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


@pytest.mark.slow
def test_sigusr1_reports_the_table_state_and_the_game_still_finishes_right(
    tmp_path: Path,
) -> None:
    scenario = tmp_path / "game.json"
    scenario.write_text(json.dumps(_bot_scenario(6)))
    journal = tmp_path / "game.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "sim", "--scenario", str(scenario), "--json",
         "--journal", str(journal)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not journal.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        # the table may not run yet: then it is ignored, but never fatal (its default)
        os.kill(proc.pid, signal.SIGUSR1)
        while _rows(journal) < 8 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, "the game ended before it could be asked"
        os.kill(proc.pid, signal.SIGUSR1)
        out, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-2000:]
    assert json.loads(out) == run_scenario(load_scenario(scenario))
    report = err[err.index("pontoon-table state: phase"):]
    assert "running" in report and "journal head" in report and "next:" in report
    assert "panel 1: wanted" in report and "gate: wanted" in report
    assert "link shoe (up" in report and "crc errors" in report  # the drop counters
    assert "ScenarioRun.run" in report  # the tasks' stacks
    assert "Current thread" in report or "Thread 0x" in report  # and the threads'


class _CountingShoe:
    """Just enough of a shoe driver for the report: its link counters."""

    def __init__(self) -> None:
        self.counters = LinkCounters(crc_errors=3, retransmissions=7, oversized=1)


def test_the_report_carries_each_links_drop_counters() -> None:
    """Issue 17, finding 3: drops reach ``kill -USR1``.  The figures are the
    stand-in driver's own (3 CRC errors, 7 retransmissions, 1 oversized)."""
    import asyncio

    from ctrl_drive import SCENARIOS, new_core

    core = new_core(SCENARIOS[0])
    core.handle(LinkChanged("shoe", True))
    table = Table(core, shoe=_CountingShoe())  # type: ignore[arg-type]

    async def report() -> str:
        return state_report(table)

    text = asyncio.run(report())
    (line,) = [row for row in text.splitlines() if "link shoe" in row]
    assert "(up, 0 drops, 0 reboots)" in line
    assert "crc errors 3" in line and "retransmissions 7" in line and "oversized 1" in line
    assert "bad cobs 0" in line
