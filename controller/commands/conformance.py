"""``pontoon-table conformance shoe|bus URL``: check a device against the protocol.

A thin command line over :mod:`firmware_bridge.conformance`: it prints one line
per check as it finishes and a summary, and exits 1 if any check failed (2 if
the suite could not start), so a maker can run it against a board on
``/dev/ttyACM0`` and a CI job against the firmware.
"""

from __future__ import annotations

import argparse
import sys

from firmware_bridge.conformance.suite import (
    FAIL,
    SuiteError,
    bus_addresses,
    format_identity,
    format_outcome,
    run_checks,
    select,
    summary,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("device", choices=("shoe", "bus"),
                        help="a shoe on its own USB link, or the RS-485 panel bus")
    parser.add_argument("url", help="the serial port: /dev/ttyACM0, a pty path, socket://HOST:PORT")
    parser.add_argument("--seats", type=int, default=1,
                        help="bus: seat panels at addresses 1..N (default 1)")
    parser.add_argument("--no-dealer", action="store_true",
                        help="bus: no dealer panel at address 15")
    parser.add_argument("--target", type=int, default=None, metavar="ADDRESS",
                        help="bus: the panel the device checks talk to (default: the first)")
    parser.add_argument("--check", action="append", default=[], metavar="NAME",
                        help="run only this check, or every check of a section (e.g. 5.1);"
                        " may be repeated")
    parser.add_argument("--quick", action="store_true",
                        help="leave out the checks that wait out the 2 s fail-safe")
    parser.add_argument("--slack", type=float, default=0.03, metavar="SECONDS",
                        help="latency the port may add to the spec's timings (default 0.03)")
    parser.add_argument("--baud", type=int, default=115200, help="baud rate (default 115200)")


def run(args: argparse.Namespace) -> int:
    try:
        addresses = (
            bus_addresses(args.seats, not args.no_dealer) if args.device == "bus" else None
        )
        select(args.device, args.check)  # a wrong check name is said before the port opens
        print(f"conformance of the {args.device} on {args.url}", flush=True)
        outcomes = run_checks(
            args.url,
            args.device,
            addresses=addresses,
            target=args.target if args.device == "bus" else None,
            only=args.check,
            slack=args.slack,
            slow=not args.quick,
            baudrate=args.baud,
            report=lambda o: print(format_outcome(o), flush=True),
            identified=lambda hello: print(format_identity(hello), flush=True),
        )
    except SuiteError as exc:
        print(f"pontoon-table conformance: {exc}", file=sys.stderr)
        return 2
    print(summary(outcomes))
    return 1 if any(o.status == FAIL for o in outcomes) else 0
