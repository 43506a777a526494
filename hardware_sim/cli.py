"""``pontoon-table sim-hw`` / ``python -m hardware_sim``: the emulated devices on
serial ports, in their own process, for a controller (or a person with a
terminal program) to connect to.

It prints one JSON line with the ports to open (``shoe``, ``panels``) and the
bus addresses, then runs until interrupted, with the simulated dealer pulling
a card whenever the shoe's gate opens and, if asked, bots at the seats.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from pathlib import Path

from hardware_sim.clock import MODES, Clock
from hardware_sim.faults import PRESETS, FaultConfig
from hardware_sim.people import STRATEGIES, DealerMistakes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seats", default="Ann,Ben,Cat",
                        help="seat names, clockwise; panels at addresses 1.. (%(default)s)")
    parser.add_argument("--scenario", type=Path,
                        help="stack the shoe with exactly the cards this scenario deals")
    parser.add_argument("--seed", type=int, default=0, help="seeds the shuffle and the faults")
    parser.add_argument("--packs", type=int, default=1)
    parser.add_argument("--ports", choices=("pty", "socket"), default="pty",
                        help="pseudo-terminals (default) or socket:// servers")
    parser.add_argument("--link-dir", type=Path,
                        help="folder for stable port symlinks (default: a temporary folder)")
    parser.add_argument("--faults", default="none",
                        help=f"fault preset ({', '.join(PRESETS)}), optionally with overrides, "
                             "e.g. light,corrupt=0.01")
    parser.add_argument("--clock", choices=MODES, default="realtime",
                        help="realtime: people take human time; fast: no delays")
    parser.add_argument("--speed", type=float, default=1.0, help="human pace factor (realtime)")
    parser.add_argument("--camera", default="builtin",
                        help="deck design for the simulated camera ('none' for no camera)")
    parser.add_argument("--motor", action="store_true", help="the shoe has a dispensing motor")
    parser.add_argument("--no-dealer", action="store_true", help="no simulated dealer")
    parser.add_argument("--dealer-mistakes", default="",
                        help="e.g. wrong_seat=0.05,draw_while_locked=0.01")
    parser.add_argument("--bots", default="",
                        help=f"seat=strategy,... with strategies {', '.join(STRATEGIES)}")
    parser.add_argument("--duration", type=float, default=0.0,
                        help="stop after this many seconds (0: run until interrupted)")


def _parse_bots(text: str, seats: list[str]) -> dict[str, str]:
    bots: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        seat, _, strategy = part.partition("=")
        if seat not in seats:
            raise ValueError(f"--bots names {seat!r}, who is not in --seats")
        bots[seat] = strategy or "stick17"
    return bots


def run(args: argparse.Namespace) -> int:
    from hardware_sim.rig import SimRig

    try:
        faults = FaultConfig.parse(args.faults)
        clock = Clock.from_mode(args.clock, args.speed)
        mistakes = DealerMistakes.parse(args.dealer_mistakes)
        camera = None if args.camera == "none" else args.camera
        common = dict(faults=faults, clock=clock, port_kind=args.ports, camera=camera,
                      motor=args.motor, link_dir=args.link_dir)
        if args.scenario is not None:
            from controller.scenario import ScenarioError, load_scenario

            try:
                scenario = load_scenario(args.scenario)
            except ScenarioError as exc:
                raise ValueError(str(exc)) from None
            rig = SimRig.for_scenario(scenario, **common)
        else:
            seats = [s.strip() for s in args.seats.split(",") if s.strip()]
            if not seats or len(seats) > 14:
                raise ValueError("--seats needs 1 to 14 names")
            rig = SimRig({name: i + 1 for i, name in enumerate(seats)}, seed=args.seed,
                         packs=args.packs, **common)
        bots = _parse_bots(args.bots, list(rig.seats))
    except ValueError as exc:
        print(f"pontoon-table sim-hw: {exc}", file=sys.stderr)
        return 2

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with rig:
        if not args.no_dealer:
            rig.start_dealer(mistakes=mistakes, press_next=bool(bots), seed=args.seed)
        if bots:
            rig.start_bots(bots, seed=args.seed)
        print(json.dumps(rig.describe()), flush=True)
        deadline = time.monotonic() + args.duration if args.duration > 0 else None
        try:
            while not stop.is_set():
                if deadline is not None and time.monotonic() >= deadline:
                    break
                stop.wait(0.2)
        except KeyboardInterrupt:
            pass
        print(json.dumps({"report": rig.report()}), flush=True)
    return 0
