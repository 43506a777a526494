"""``pontoon-table run`` with ``[floor]``: the real table publishes its journal and status.

The emulated devices (``sim-hw``, bots and the simulated dealer, fast clock)
write the table's configuration; the test appends init-broker's ``[floor]``
snippet for table-1 and runs the real ``run`` command in its own process.
Expected: the journal file itself, read with SQLite after the table stopped.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from broker_kit import BrokerKit, Listener

from controller.config import load_config
from floor.messages import decode_entry, decode_status, topic


def _start(args: list[str], cwd: Path, name: str) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    err = (cwd / f"{name}.err").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=err,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    return proc, lines


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_run_publishes_its_journal_and_status(broker: BrokerKit, tmp_path: Path) -> None:
    listener = Listener(
        broker.plain_port, broker.floor, [topic("table-1", "journal"), topic("table-1", "status")]
    )
    assert listener.subscribed.wait(10)
    sim, sim_lines = _start(
        ["sim-hw", "--seats", "Ann,Ben,Cat", "--bots", "Ann,Ben,Cat", "--clock", "fast",
         "--seed", "5", "--print-config", "table.toml"],
        tmp_path, "sim-hw",
    )  # fmt: skip
    run = None
    try:
        info = None
        end = time.monotonic() + 60
        while info is None and time.monotonic() < end:
            try:
                line = sim_lines.get(timeout=0.5)
            except queue.Empty:
                assert sim.poll() is None, (tmp_path / "sim-hw.err").read_text()[-2000:]
                continue
            if line.startswith("{"):
                info = json.loads(line)
        assert info is not None, "sim-hw printed no configuration"
        config_path = Path(info["config"])
        snippet = (broker.files.out / "tables" / "table-1.toml").read_text()
        with config_path.open("a") as f:
            f.write("\n" + snippet)
        shutil.copy(broker.files.ca, config_path.parent / "floor-ca.pem")
        journal = load_config(config_path).journal
        run, _ = _start(["run", "--config", str(config_path), "--no-qr"], tmp_path, "run")

        def rows(messages: list[tuple[str, bytes]]) -> int:
            return sum(1 for t, _ in messages if t.endswith("/journal"))

        def online(messages: list[tuple[str, bytes]]) -> bool:
            return any(
                t.endswith("/status") and decode_status("table-1", p).online for t, p in messages
            )

        ok = listener.wait_for(lambda m: rows(m) >= 40 and online(m), 90)
        assert ok, (tmp_path / "run.err").read_text()[-3000:]
    finally:
        if run is not None:
            _stop(run)
        _stop(sim)
    # SIGTERM ends the process without a goodbye: the broker publishes the last will
    assert listener.wait_for(
        lambda m: any(t.endswith("/status") and not decode_status("table-1", p).online
                      for t, p in m), 30
    )  # fmt: skip
    listener.close()
    entries = [decode_entry("table-1", p) for t, p in listener.messages if t.endswith("/journal")]
    with sqlite3.connect(journal) as db:
        stored = [
            (int(s), str(h)) for s, h in db.execute("SELECT seq, hash FROM rows ORDER BY seq")
        ]
    # the rows that reached the floor are the journal's, in order, each once (the rest
    # wait in the journal for the next start: tests/floor/test_floor_publisher.py)
    assert [(e.seq, e.hash) for e in entries] == stored[: len(entries)]
    cursor = json.loads(journal.with_name(journal.name + ".floor.json").read_text())
    assert 0 < cursor["acked"] <= len(entries)
    assert cursor["hash"] == stored[cursor["acked"] - 1][1]
    statuses = [decode_status("table-1", p) for t, p in listener.messages if t.endswith("/status")]
    assert any(s.phase and s.last_seq > 0 and s.devices for s in statuses if s.online)
