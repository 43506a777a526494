"""``pontoon-table floor``: the event floor (many tables, one broker, one page).

``pontoon-table floor serve`` (or the bare ``floor``) subscribes to the
broker, checks and stores every table's journal and serves the floor page;
``init-broker`` writes the broker's files for an event and ``sim`` runs a
whole event on one machine (both from :mod:`floor.cli`).  The floor itself
lives in the ``floor`` package; this module only reads the command line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import tomllib
from pathlib import Path
from typing import Any

from controller.tokens import new_token


def _serve_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--credentials",
        metavar="FILE",
        help="the floor's login as init-broker wrote it (floor-credentials.toml: "
        "broker, username, password, ca); the options below override it",
    )
    parser.add_argument("--broker", help="mqtt://host[:port] or mqtts://host[:port]")
    parser.add_argument("--username", help="the floor's broker account")
    parser.add_argument("--password", help="its password")
    parser.add_argument("--ca", help="the event's CA file (for mqtts://)")
    parser.add_argument(
        "--db",
        default="sqlite:///floor.db",
        help="sqlite:///PATH (default sqlite:///floor.db) or postgresql://user@host/db",
    )
    parser.add_argument(
        "--token", help="the floor page's token (default: a new random one, printed)"
    )
    parser.add_argument("--host", default="127.0.0.1", help="the page's address (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8100, help="the page's port (8100)")
    parser.add_argument(
        "--tables", help="the event's table ids, comma-separated (others are refused)"
    )
    parser.add_argument(
        "--rounds",
        metavar="FILE",
        help='rounds as JSON: {"Round 1": {"table-1": [1, 2], ...}, ...}',
    )
    parser.add_argument(
        "--client-id", default="pontoon-floor", help="the floor's MQTT session (keep it fixed)"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    _serve_options(parser)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    serve = actions.add_parser(
        "serve",
        help="subscribe, store every table's journal and serve the floor page (the default)",
        description="Subscribe to the broker, verify and store every table's journal exactly "
        "once, and serve the floor page.",
    )
    _serve_options(serve)
    serve.set_defaults(run=run_serve)
    try:
        from floor.cli import add_init_broker_parser, add_sim_parser
    except ImportError:  # pragma: no cover - a build without the broker tools
        return
    add_init_broker_parser(actions)
    add_sim_parser(actions)


def run(args: argparse.Namespace) -> int:
    action = getattr(args, "run", None)
    if action is None:
        return run_serve(args)
    return int(action(args))


def _settings(args: argparse.Namespace) -> Any:
    from floor.service import FloorSettings, broker_address

    login: dict[str, Any] = {}
    if args.credentials:
        login = tomllib.loads(Path(args.credentials).read_text(encoding="utf-8"))
    broker = args.broker or login.get("broker")
    if not broker:
        raise ValueError("give --broker (or --credentials with the floor's login)")
    broker_address(broker)  # refuses a malformed URL in words
    from floor.messages import TABLE_ID

    tables = None
    if args.tables:
        ids = [t.strip() for t in args.tables.split(",") if t.strip()]
        bad = [t for t in ids if not TABLE_ID.match(t)]
        if bad:
            raise ValueError(f"--tables: {', '.join(bad)} are not table ids (a-z, 0-9, '-')")
        tables = frozenset(ids)
    ca = args.ca or login.get("ca")
    return FloorSettings(
        broker=broker,
        db=args.db,
        username=args.username or login.get("username"),
        password=args.password or login.get("password"),
        ca=str(ca) if ca else None,
        client_id=args.client_id,
        tables=tables,
    )


def run_serve(args: argparse.Namespace) -> int:
    from floor.run import run_floor
    from floor.standings import check_rounds
    from floor.store import StoreError

    try:
        settings = _settings(args)
        rounds = None
        if args.rounds:
            rounds = check_rounds(json.loads(Path(args.rounds).read_text(encoding="utf-8")))
    except (ValueError, OSError, tomllib.TOMLDecodeError) as error:
        print(f"pontoon-table floor: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    token = args.token or new_token()
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"floor: http://{shown}:{args.port}/floor#token={token}", flush=True)
    # SIGTERM ends the floor as Ctrl-C does (``controller.cli``): subscriber
    # cancelled, store closed, exit 0
    try:
        asyncio.run(run_floor(settings, token=token, host=args.host, port=args.port, rounds=rounds))
    except (StoreError, ValueError) as error:
        print(f"pontoon-table floor: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0
