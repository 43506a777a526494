"""``pontoon-table floor sim``: a broker, simulated tables and the floor, from one command.

Expected, independent of the code under test: every table's game ends with the
floor holding as many rows as the table says it wrote (its status), and at a
player-banked table money only changes hands, so each table's people end with
units summing to zero (each table has its own people in the simulation).
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from floor.broker_proc import free_port, port_open


def _get(url: str, token: str) -> Any:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=3) as reply:
        return json.loads(reply.read())


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_floor_sim_runs_a_small_event(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "floor", "sim", "--tables", "3",
         "--games", "1", "--deals", "2", "--pace", "0.02", "--port", str(port),
         "--dir", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=(tmp_path / "sim.err").open("w"), text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        address, broker_port = "", 0
        while not address:
            line = proc.stdout.readline()
            assert line, f"sim ended: {(tmp_path / 'sim.err').read_text()[-2000:]}"
            if line.startswith("floor: "):
                address = line.split(" ", 1)[1].strip()
            if line.startswith("broker: mqtt://127.0.0.1:"):
                broker_port = int(line.split(":")[3].split()[0])
        match = re.match(r"http://127\.0\.0\.1:(\d+)/floor#token=(\S+)$", address)
        assert match and int(match.group(1)) == port, address
        token = match.group(2)
        api = f"http://127.0.0.1:{port}/api/floor"
        view: dict[str, Any] = {}
        end = time.monotonic() + 90
        while time.monotonic() < end:
            try:
                view = _get(api, token)
            except OSError:
                view = {}
            tables = view.get("tables", [])
            if len(tables) == 3 and all(
                t["phase"] == "game_over" and t["stored"] == t["last_seq"] > 0 for t in tables
            ):
                break
            time.sleep(0.2)  # polling another process's page
        else:
            pytest.fail(f"the event did not finish: {view}")
        by_table: dict[str, int] = {}
        for player in view["leaderboard"]:
            assert len(player["tables"]) == 1  # each table its own people
            by_table[player["tables"][0]] = by_table.get(player["tables"][0], 0) + player["units"]
        assert by_table == {"table-1": 0, "table-2": 0, "table-3": 0}
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, (tmp_path / "sim.err").read_text()[-2000:]
    assert broker_port and not port_open(broker_port)  # the broker it started is gone too
