"""``pontoon-table floor serve`` in its own process, against a real Mosquitto.

Expected: the rows the test published (floor_rows.py) come back through the
page's API with the printed token; a wrong option is refused in words.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from broker_kit import BrokerKit, free_port
from floor_rows import small_game
from test_floor_service import Table

from controller.cli import main


def get(url: str, token: str) -> dict[str, Any]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return dict(json.loads(answer.read()))


def wait_for(port: int, check: Callable[[dict[str, Any]], bool], folder: Path) -> None:
    end = time.monotonic() + 60
    while True:
        try:
            if check(get(f"http://127.0.0.1:{port}/api/floor", "tok-1")):
                return
        except urllib.error.URLError:
            pass  # not listening yet
        assert time.monotonic() < end, (folder / "floor.err").read_text()[-2000:]
        time.sleep(0.1)


def test_floor_serve_stores_and_shows_and_stops_on_sigterm(
    broker: BrokerKit, tmp_path: Path
) -> None:
    port = free_port()
    credentials = broker.files.out / "floor-credentials.toml"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "controller.cli",
            "floor",
            "serve",
            "--credentials",
            str(credentials),
            "--broker",
            broker.url,
            "--db",
            f"sqlite:///{tmp_path / 'f.db'}",
            "--port",
            str(port),
            "--token",
            "tok-1",
            "--tables",
            "table-1,table-2",
        ],
        stdout=subprocess.PIPE,
        stderr=open(tmp_path / "floor.err", "w"),  # noqa: SIM115
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == f"floor: http://127.0.0.1:{port}/floor#token=tok-1"
        wait_for(port, lambda view: view["broker"] is True, tmp_path)  # subscribed
        rows = small_game(count=3)
        table = Table(broker)
        try:
            table.rows(rows)
        finally:
            table.close()
        wait_for(
            port, lambda view: bool(view["tables"]) and view["tables"][0]["stored"] == 3, tmp_path
        )
        try:
            get(f"http://127.0.0.1:{port}/api/floor", "wrong")
            raise AssertionError("a wrong token was let in")
        except urllib.error.HTTPError as error:
            assert error.code == 403
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(20)
    assert code == 0


def test_floor_refuses_bad_options_in_words(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["floor", "--broker", "http://x"]) == 2
    assert "mqtt://host" in capsys.readouterr().err
    assert main(["floor", "serve"]) == 2
    assert "give --broker" in capsys.readouterr().err
    assert main(["floor", "--broker", "mqtt://h", "--tables", "Table 1"]) == 2
    assert "not table ids" in capsys.readouterr().err
    (tmp_path / "r.json").write_text('{"R": {"table-1": ["x"]}}')
    assert main(["floor", "--broker", "mqtt://h", "--rounds", str(tmp_path / "r.json")]) == 2
    assert "whole numbers" in capsys.readouterr().err
    missing = str(tmp_path / "no-ca.pem")
    assert (
        main(
            [
                "floor",
                "--broker",
                "mqtts://h",
                "--ca",
                missing,
                "--db",
                f"sqlite:///{tmp_path / 'f.db'}",
            ]
        )
        == 1
    )
    assert "CA file" in capsys.readouterr().err
