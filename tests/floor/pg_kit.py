"""A real PostgreSQL server for the floor's store tests: Debian's server, started
in a temporary directory, on a free local port, for the whole session.

``initdb`` and ``postgres`` refuse to run as root, and CI runs as root: then
they run as the ``postgres`` user (``runuser``), in a directory that user owns.
The server listens on 127.0.0.1 and on a socket in the same directory; it is
stopped (fast shutdown) at the end of the session.  ``fsync`` is off: these
tests check behaviour, never speed (benchmarks/floor_bench.py measures that).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def available() -> bool:
    return (PG_BIN / "postgres").exists() and (PG_BIN / "initdb").exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(argv: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *argv]
    return argv


@contextmanager
def postgres_server(timeout: float = 60.0) -> Iterator[str]:
    """Yield ``postgresql://postgres@127.0.0.1:PORT/postgres`` of a fresh server."""
    root = Path(tempfile.mkdtemp(prefix="floor-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    os.chmod(root, 0o700)
    subprocess.run(
        _as_owner(
            [
                str(PG_BIN / "initdb"),
                "-D",
                str(data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    port = _free_port()
    log = root / "server.log"
    server = subprocess.Popen(
        _as_owner(
            [
                str(PG_BIN / "postgres"),
                "-D",
                str(data),
                "-p",
                str(port),
                "-k",
                str(root),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "fsync=off",
                "-c",
                "logging_collector=off",
            ]
        ),
        stdout=subprocess.DEVNULL,
        stderr=open(log, "wb"),  # noqa: SIM115 (closed with the process)
    )
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    try:
        _wait_ready(url, server, log, timeout)
        yield url
    finally:
        server.terminate()  # SIGTERM: "smart" shutdown; our clients are gone by now
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(root, ignore_errors=True)


def _wait_ready(url: str, server: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    import psycopg

    end = time.monotonic() + timeout
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"postgres exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            psycopg.connect(url, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > end:
                raise RuntimeError(f"postgres did not start in {timeout} s") from None
            time.sleep(0.1)


def fresh_database(url: str, name: str) -> str:
    """A new empty database on the server (one per test); its URL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}"')
        db.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The session's PostgreSQL server (import this fixture into a test module)."""
    if not available():
        pytest.fail("Debian's postgresql is missing: run scripts/test.sh as root to install it")
    with postgres_server() as url:
        yield url
