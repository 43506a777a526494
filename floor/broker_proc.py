"""A Mosquitto process started from files :mod:`floor.broker_setup` wrote.

Used by ``pontoon-table floor sim`` (the whole event on a laptop) and by the
tests, which also kill and restart it.  The broker runs in its own process
group so stopping it never touches anything else; :meth:`Mosquitto.start`
returns only once the broker accepts connections on every listener (or says
why it died), so nothing waits on a guessed sleep.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = "/usr/sbin/mosquitto"


class BrokerError(RuntimeError):
    """The broker did not start; the text carries its own words."""


def find_mosquitto() -> str:
    """The mosquitto binary (Debian puts it in /usr/sbin, outside a user's PATH)."""
    if os.access(MOSQUITTO, os.X_OK):
        return MOSQUITTO
    found = shutil.which("mosquitto")
    if found is None:
        raise BrokerError("mosquitto is not installed (Debian: apt-get install mosquitto)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


class Mosquitto:
    """One broker process; ``ports`` are the listeners to wait for."""

    def __init__(self, conf: Path, ports: list[int], log: Path | None = None) -> None:
        self.conf = conf
        self.ports = ports
        self.log = log if log is not None else conf.with_name("mosquitto.log")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = 20.0) -> None:
        if self.running:
            return
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [find_mosquitto(), "-c", str(self.conf)],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        end = time.monotonic() + timeout
        waiting = list(self.ports)
        while waiting:
            if self.proc.poll() is not None:
                tail = self.log.read_text(errors="replace")[-800:]
                raise BrokerError(f"mosquitto exited with {self.proc.returncode}: {tail}")
            if time.monotonic() > end:
                self.stop()
                raise BrokerError(f"mosquitto did not open port(s) {waiting} in {timeout:.0f} s")
            if port_open(waiting[0]):
                waiting.pop(0)
            else:
                time.sleep(0.02)  # polling a port that is not open yet: nothing to wait on

    def kill(self) -> None:
        """A crash: SIGKILL, nothing saved since the last autosave."""
        self._signal(signal.SIGKILL)

    def stop(self) -> None:
        """A clean stop: SIGTERM, the broker saves its queues first."""
        self._signal(signal.SIGTERM)

    def _signal(self, sig: signal.Signals) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        os.killpg(proc.pid, sig)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

    def restart(self) -> None:
        self.stop()
        self.start()
