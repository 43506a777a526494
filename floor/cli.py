"""``pontoon-table floor init-broker`` and ``pontoon-table floor sim``: their arguments.

``controller/commands/floor.py`` owns the ``floor`` command and its ``serve``
action; it calls :func:`add_init_broker_parser` and :func:`add_sim_parser` with
its sub-parsers.  Each parser sets ``run`` (a function ``args -> exit code``)
as its default, so the command only calls ``args.run(args)``.
"""

from __future__ import annotations

import argparse
import socket
import sys
from typing import Any

from floor.broker_setup import TLS_PORT, SetupError, table_ids, write_broker


def add_init_broker_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "init-broker",
        help="write a Mosquitto configuration, accounts, ACL and TLS CA for an event",
        description=(
            "Write mosquitto.conf, a password file, an ACL (each table publishes only under "
            "its own id; the floor reads), a CA with the broker's certificate, and one "
            "[floor] section per table for its table.toml."
        ),
    )
    parser.add_argument("--tables", type=int, required=True, help="how many tables (1-999)")
    parser.add_argument("--out", required=True, help="a new folder for the broker's files")
    parser.add_argument(
        "--host",
        default=socket.gethostname(),
        help="the broker's name as the tables reach it (default: this machine's name)",
    )
    parser.add_argument("--port", type=int, default=TLS_PORT, help="the TLS port (8883)")
    parser.add_argument(
        "--plain-port",
        type=int,
        default=None,
        help="also listen without TLS on 127.0.0.1 at this port (simulation, tests)",
    )
    parser.add_argument(
        "--run-as",
        default=None,
        help="the account a broker started as root switches to (Debian's service: mosquitto)",
    )
    parser.set_defaults(run=run_init_broker)
    return parser


def run_init_broker(args: argparse.Namespace) -> int:
    try:
        files = write_broker(
            args.out,
            table_ids(args.tables),
            host=args.host,
            tls_port=args.port,
            plain_port=args.plain_port,
            user=args.run_as,
        )
    except (SetupError, OSError) as exc:
        print(f"pontoon-table floor init-broker: {exc}", file=sys.stderr)
        return 1
    out = files.out
    print(f"broker files for {len(files.tables)} tables in {out}:")
    print("  mosquitto.conf, passwd, acl; ca.pem (the event's CA), server.pem/server.key")
    print(f"  start the broker:   mosquitto -c {files.conf}")
    print("  each table:         append tables/table-K.toml to its table.toml, and copy")
    print("                      ca.pem next to it as floor-ca.pem")
    print(f"  the floor's login:  {out / 'floor-credentials.toml'}")
    print(f"  keep ca.key off the broker once done: it signs certificates for {files.host!r}")
    return 0


def add_sim_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "sim",
        help="a whole event on one machine: broker, simulated tables and the floor",
        description=(
            "Start a broker (unless --broker-dir names a running one), N simulated tables "
            "with bots on a fast clock publishing to it, and the floor; prints the floor's "
            "address."
        ),
    )
    parser.add_argument("--tables", type=int, default=4, help="how many tables (default 4)")
    parser.add_argument("--games", type=int, default=0, help="games per table (0: endless)")
    parser.add_argument("--deals", type=int, default=0, help="deals per game (0: the rules')")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pace", type=float, default=0.2, help="seconds between a table's moves (default 0.2)"
    )
    parser.add_argument(
        "--broker-dir",
        default=None,
        help="the init-broker folder of a broker already running (its accounts are used)",
    )
    parser.add_argument("--dir", default=None, help="where the journals and files go")
    parser.add_argument("--host", default="127.0.0.1", help="the floor page's address")
    parser.add_argument("--port", type=int, default=8100, help="the floor page's port")
    parser.add_argument("--db", default=None, help="the floor's database (default: SQLite)")
    parser.set_defaults(run=run_sim)
    return parser


def run_sim(args: argparse.Namespace) -> int:
    from floor.sim import run_event

    return run_event(args)
