"""The simulator's devices in their own process, as a table's box would see them.

``pontoon-table sim-hw --print-config`` serves the shoe and the panel bus on
ptys and the camera as an MJPEG stream, and writes a ready ``table.toml``;
the venue tests point their commands at it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


class SimHw:
    def __init__(self, folder: Path, *extra: str) -> None:
        self.folder = folder
        self.err = (folder / "sim-hw.err").open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "sim-hw", "--seats", "Ann,Ben",
             "--clock", "fast", "--print-config", "table.toml",
             # the overhead camera at 25 fps (the doctor's camera checks are about
             # it; the in-shoe camera's pairing is tested by test_ctrl_run_e2e)
             "--camera-mode", "overhead", *extra],
            cwd=folder, stdout=subprocess.PIPE, stderr=self.err, text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
        self.info = self._first_json(60.0)
        self.config = Path(self.info["config"])

    def _first_json(self, timeout: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        for line in self.proc.stdout:  # the first line it prints is the JSON description
            if line.startswith("{"):
                return dict(json.loads(line))
            assert time.monotonic() < deadline, "sim-hw printed no JSON line"
        raise AssertionError(f"sim-hw exited: {(self.folder / 'sim-hw.err').read_text()}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self.err.close()
