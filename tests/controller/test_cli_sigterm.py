"""SIGTERM (``kill``, a supervisor's stop) ends a command as Ctrl-C does.

Python's default answer to SIGTERM ends the process where it stands: the
simulated table (``pontoon-table sim``) then left its serial ports' folder
(``/tmp/pontoon-sim-*``) behind on every stop, 33 of them a test run."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import types
import urllib.request
from pathlib import Path

import pytest

from controller import cli


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_up(base: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert proc.poll() is None, f"the table exited with {proc.returncode}"
        try:
            with urllib.request.urlopen(base + "/api/public", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)  # the port is not open yet: nothing to wait on
    raise TimeoutError("the simulated table did not come up")


def test_sigterm_stops_the_simulated_table_cleanly(tmp_path: Path) -> None:
    """The rig's pty folder is made under ``TMPDIR`` (``tempfile``), so a
    private one shows what a stop leaves behind."""
    port = _free_port()
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "sim", "--port", str(port), "--pace", "0"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        _wait_up(f"http://127.0.0.1:{port}", proc)
        assert list(tmp_path.glob("pontoon-sim-*")), "the rig's pty folder exists while it runs"
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, proc.stderr.read().decode() if proc.stderr else ""
    assert not list(tmp_path.glob("pontoon-sim-*")), "the pty folder was left behind"
    # the journal (``pontoon-*/sim.sqlite``) stays: it is the game's record
    assert list(tmp_path.glob("pontoon-*/sim.sqlite"))


def test_a_command_that_does_not_catch_it_exits_143(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real SIGTERM to this process, inside a command with no answer of its
    own: it unwinds (the ``finally`` runs) and the status is 128 + 15, as a
    shell reports a process SIGTERM ended."""
    unwound: list[bool] = []

    def run(_args: object) -> int:
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the signal's handler raises before this ends
            return 0
        finally:
            unwound.append(True)

    module = types.SimpleNamespace(add_arguments=lambda parser: None, run=run)
    monkeypatch.setitem(sys.modules, "pontoon_test_command", module)
    monkeypatch.setitem(cli.COMMANDS, "stand", ("pontoon_test_command", "stands still"))
    before = signal.getsignal(signal.SIGTERM)
    try:
        started = time.monotonic()
        assert cli.main(["stand"]) == 143
        assert time.monotonic() - started < 4
    finally:
        signal.signal(signal.SIGTERM, before)
    assert unwound == [True]
