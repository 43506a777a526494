"""What every browser test needs: Debian's Chromium, a free port, a server
process started and stopped, a screenshot.  The ``browser`` fixture that uses
it is in ``conftest.py``."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Two pages are watched at once: keep the one not in front from being throttled.
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_up(base: str, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    """Until the server answers ``/api/public`` (or has died: say so)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(base + "/api/public", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.1)  # polling a port that is not open yet: nothing to wait on
    raise TimeoutError("server did not come up")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server started in its own session, its children too."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def shot(page: Any, folder: Path, name: str) -> Path:
    """A screenshot kept as a test artifact (its path is printed)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    print(f"screenshot: {path}")
    return path
