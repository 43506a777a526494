"""``pontoon-table sim``: the whole table in simulation.

* ``sim --scenario FILE --json [--faults none|light|heavy] [--journal PATH]``
  plays a scenario through emulated devices over ptys, the simulated camera
  and the recogniser, and prints the same JSON as ``replay`` (errors: exit 2
  with replay's one-line message).  With ``--journal`` a killed run restarted
  with the same journal finishes the same game.
* ``sim --scenario FILE --json --firmware``: the same with the MicroPython
  reference firmware (under MicroPython in Node) as the shoe; with
  ``--firmware-panels`` as every panel too.
* ``sim`` alone runs bots and a simulated dealer at a simulated table and
  serves the dealer display, printing its URL and the dealer's token; that
  dealer answers the alarm of a shoe reboot mid-deal (``--faults``, e.g.
  ``none,reboot=0.05``) after checking the cards on the table;
  ``--dealer-mistakes`` (as ``sim-hw`` takes it) makes that dealer pull cards
  past the locked gate and so on, to see and practise the hold screens.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from controller.scenario import ScenarioError
from controller.tokens import new_token


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scenario", metavar="FILE", help="play this scenario file")
    parser.add_argument("--json", action="store_true", help="print the result JSON (as replay)")
    parser.add_argument(
        "--faults", default="none", help="fault preset: none, light, heavy (or preset,knob=value)"
    )
    parser.add_argument("--journal", metavar="PATH", help="SQLite journal (resumes a killed run)")
    parser.add_argument(
        "--recover", action="store_true", help="continue a damaged journal from its last good row"
    )
    parser.add_argument(
        "--firmware", action="store_true",
        help="scenario: the MicroPython reference firmware is the shoe (needs Node.js)",
    )
    parser.add_argument(
        "--firmware-panels", action="store_true",
        help="scenario: the MicroPython reference firmware is every panel too",
    )
    parser.add_argument("--compact", action="store_true", help="print JSON on one line")
    parser.add_argument("--players", default="Ann,Ben,Cat,Dan", help="bot table: seat names")
    parser.add_argument("--rules", default="house", help="bot table: rules preset")
    parser.add_argument("--seed", type=int, default=0, help="bot table: shuffle seed")
    parser.add_argument("--host", default="127.0.0.1", help="display address")
    parser.add_argument("--port", type=int, default=8000, help="display port")
    parser.add_argument("--token", default=None, help="dealer token (default: random)")
    parser.add_argument(
        "--qr", action=argparse.BooleanOptionalAction, default=None,
        help="bot table: print the dealer address's QR code (default: when stdout is a terminal)",
    )
    parser.add_argument(
        "--pace", type=float, default=1.0, help="bot table: human speed (0 = as fast as possible)"
    )
    parser.add_argument(
        "--dealer-mistakes", default="", metavar="MISTAKE=P,...",
        help="bot table: the simulated dealer's mistakes, as sim-hw takes them "
             "(e.g. draw_while_locked=0.05,force_gate=1): misdeals and other holds to practise on",
    )


def run(args: argparse.Namespace) -> int:
    if args.scenario:
        return _run_scenario(args)
    from hardware_sim.people import DealerMistakes
    from hardware_sim.table.bot_table import serve_bot_table

    try:
        DealerMistakes.parse(args.dealer_mistakes)
    except ValueError as exc:
        print(f"pontoon-table sim: --dealer-mistakes: {exc}", file=sys.stderr)
        return 2
    token = args.token or new_token()
    return asyncio.run(serve_bot_table(args, token))


def _run_scenario(args: argparse.Namespace) -> int:
    from controller.journal import JournalError
    from hardware_sim.firmware_runner import FirmwareRunnerError
    from hardware_sim.table.scenario_run import play_scenario

    try:
        result = asyncio.run(
            play_scenario(
                args.scenario, faults=args.faults, journal_path=args.journal,
                recover=args.recover, firmware=args.firmware,
                firmware_panels=args.firmware_panels,
            )
        )
    except ScenarioError as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return 2
    except FirmwareRunnerError as exc:
        print(f"pontoon-table sim: the firmware shoe cannot run: {exc}", file=sys.stderr)
        return 1
    except JournalError as exc:
        print(f"pontoon-table sim: {exc}", file=sys.stderr)
        return 1
    # The result is the run's only output; --json says so explicitly (as replay's format).
    print(json.dumps(result, indent=None if args.compact else 2))
    return 0
