"""Run the reference firmware under MicroPython on a pty until interrupted.

    python -m hardware_sim.firmware_runner shoe [--link-dir DIR] [--motor]
    python -m hardware_sim.firmware_runner bus --seats 1,2,3 [--no-dealer]

Prints the port to open (e.g. for ``pontoon-table conformance shoe URL``),
then keeps the firmware running; Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from hardware_sim.firmware_runner import FirmwareRunnerError, MicroPythonDevice


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware_sim.firmware_runner")
    parser.add_argument("device", choices=("shoe", "bus"))
    parser.add_argument("--link-dir", type=Path, help="publish the port as DIR/shoe or DIR/panels")
    parser.add_argument("--motor", action="store_true", help="the shoe has a dispense motor")
    parser.add_argument("--seats", default="1,2", help="bus: seat panel addresses (1,2)")
    parser.add_argument("--no-dealer", action="store_true", help="bus: no dealer panel")
    args = parser.parse_args(argv)
    if args.link_dir is not None:
        args.link_dir.mkdir(parents=True, exist_ok=True)
    if args.device == "shoe":
        dev = MicroPythonDevice.shoe(args.link_dir, motor=args.motor)
    else:
        try:
            seats = [int(s) for s in args.seats.split(",") if s.strip()]
        except ValueError:
            parser.error(f"--seats takes addresses like 1,2,3, not {args.seats!r}")
        dev = MicroPythonDevice.bus(seats, not args.no_dealer, args.link_dir)
    try:
        dev.start()
    except FirmwareRunnerError as exc:
        print(f"cannot start the firmware: {exc}", file=sys.stderr)
        return 1
    print(dev.url, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            if dev.error is not None:
                print(f"the firmware stopped: {dev.error}", file=sys.stderr)
                return 1
    except KeyboardInterrupt:
        pass
    finally:
        dev.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
