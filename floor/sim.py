"""``pontoon-table floor sim``: the whole event on one machine.

A broker (Mosquitto with init-broker's files in the work folder, TLS and a
plain listener on 127.0.0.1) unless ``--broker-dir`` names the folder of one
already running, N simulated tables (``floor/sim_fleet.py``: the real core,
journal and publisher, bots for people, a fast pace), and the floor (its
subscriber and page, ``floor.run.run_floor``).  Prints the floor's address
with its token; Ctrl-C stops everything, the broker last.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import secrets
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from controller.tokens import new_token
from floor.broker_proc import BrokerError, Mosquitto, free_port
from floor.broker_setup import SetupError, table_ids, write_broker
from floor.sim_fleet import SimTable, SimTableSpec
from floor.sim_table import PLAYERS


def _accounts(folder: Path) -> tuple[str, dict[str, Any], dict[str, dict[str, Any]]]:
    """(broker URL, the floor's login, each table's [floor]) of an init-broker folder."""
    floor = tomllib.loads((folder / "floor-credentials.toml").read_text(encoding="utf-8"))
    tables = {}
    for snippet in sorted((folder / "tables").glob("*.toml")):
        section = tomllib.loads(snippet.read_text(encoding="utf-8"))["floor"]
        tables[section["table_id"]] = section
    return str(floor["broker"]), floor, tables


def run_event(args: argparse.Namespace) -> int:
    if not 1 <= args.tables <= 200:
        print("pontoon-table floor sim: --tables must be 1-200", file=sys.stderr)
        return 2
    work = Path(args.dir or tempfile.mkdtemp(prefix="pontoon-floor-sim-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    broker: Mosquitto | None = None
    try:
        if args.broker_dir:
            url, floor_login, accounts = _accounts(Path(args.broker_dir))
            ca: Path | None = Path(args.broker_dir).resolve() / "ca.pem"
        else:
            plain, tls = free_port(), free_port()
            files = write_broker(
                work / "broker",
                table_ids(args.tables),
                host="localhost",
                tls_port=tls,
                plain_port=plain,
                user=getpass.getuser(),
            )
            broker = Mosquitto(files.conf, [plain, tls])
            broker.start()
            url, ca = f"mqtt://127.0.0.1:{plain}", None
            floor_login = {"username": files.floor.user, "password": files.floor.password}
            accounts = {t: {"username": a.user, "password": a.password}
                        for t, a in files.tables.items()}  # fmt: skip
    except (SetupError, BrokerError, OSError, KeyError, tomllib.TOMLDecodeError) as exc:
        print(f"pontoon-table floor sim: {exc}", file=sys.stderr)
        return 1
    chosen = sorted(accounts, key=lambda t: (len(t), t))[: args.tables]
    tables = [
        SimTable(
            SimTableSpec(
                table_id=t,
                broker=url,
                username=str(accounts[t]["username"]),
                password=str(accounts[t]["password"]),
                ca=ca if url.startswith("mqtts") else None,
                seed=args.seed * 1000 + k,
                deals=args.deals,
                games=args.games,
                pace=args.pace,
                players=tuple(f"{name} {k}" for name in PLAYERS),  # each table its own people
            ),
            work,
        )
        for k, t in enumerate(chosen, start=1)
    ]
    token = new_token()
    try:
        for table in tables:
            table.start()
        print(f"broker: {url}" + (f" (files in {work / 'broker'})" if broker else ""))
        print(f"{len(tables)} simulated tables; journals in {work}")
        print(f"floor: http://{args.host}:{args.port}/floor#token={token}", flush=True)
        db = args.db or f"sqlite:///{work / 'floor.db'}"
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_floor(url, db, floor_login, ca, token, args.host, args.port))
    finally:
        for table in tables:
            table.stop()
        if broker is not None:
            broker.stop()
    return 0


async def _floor(
    url: str, db: str, login: dict[str, Any], ca: Path | None, token: str, host: str, port: int
) -> None:
    from floor.run import run_floor
    from floor.service import FloorSettings

    settings = FloorSettings(
        broker=url,
        db=db,
        username=str(login["username"]),
        password=str(login["password"]),
        ca=str(ca) if ca else None,
        client_id=f"pontoon-floor-sim-{secrets.token_hex(3)}",
    )
    with contextlib.suppress(asyncio.CancelledError):
        await run_floor(settings, token=token, host=host, port=port)
