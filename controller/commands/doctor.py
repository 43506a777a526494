"""``pontoon-table doctor --config table.toml``: is this table ready to open?

Runs every check of :mod:`controller.doctor_checks` (configuration, shoe,
panels, camera, deck, test card, display, journal, disk, clock) and prints one
line each, with what to do when one fails.  Exits 0 only when none failed
("unknown", e.g. a clock that cannot be asked, is said but does not fail).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from controller.doctor_checks import Context, Options, format_finding, run_checks


def _size(text: str) -> tuple[int, int] | None:
    if text == "any":
        return None
    try:
        width, height = (int(n) for n in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT (e.g. 640x480)") from None
    return width, height


def add_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = Options()
    parser.add_argument("--config", required=True, help="the table's TOML file")
    parser.add_argument("--no-card", action="store_true",
                        help="do not ask for a test card in front of the camera")
    parser.add_argument("--fps", type=float, default=defaults.fps,
                        help=f"frames a second the camera must send (default {defaults.fps:g})")
    parser.add_argument("--size", type=_size, default=defaults.size,
                        help="the camera's frame size, WIDTHxHEIGHT or 'any' (default 640x480)")
    parser.add_argument("--min-free-mb", type=float, default=defaults.min_free_mb,
                        help="free space the journal's disk needs, in MB "
                        f"(default {defaults.min_free_mb:g})")
    parser.add_argument("--timeout", type=float, default=defaults.timeout,
                        help="seconds a device or the camera may take to answer (default 5)")


def run(args: argparse.Namespace) -> int:
    options = Options(fps=args.fps, size=args.size, card=not args.no_card,
                      min_free_mb=args.min_free_mb, timeout=args.timeout)
    ctx = Context(Path(args.config), options)
    findings = run_checks(ctx, report=lambda f: print(format_finding(f), flush=True))
    failed = [f for f in findings if f.failed]
    if failed:
        names = ", ".join(dict.fromkeys(f.check for f in failed))
        print(f"\nNOT READY: {len(failed)} problem(s) ({names}); fix them and run doctor again.")
        return 1
    print("\nREADY: every check passed.")
    return 0
