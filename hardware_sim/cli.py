"""``pontoon-table sim-hw`` / ``python -m hardware_sim``: the emulated devices on
serial ports, in their own process, for a controller (or a person with a
terminal program) to connect to.

It prints one JSON line with the ports to open (``shoe``, ``panels``), the
bus addresses and the camera's MJPEG URL (``camera``, served by
:mod:`hardware_sim.camera_stream` as an IP camera serves itself), then runs
until interrupted, with the simulated dealer pulling a card whenever the
shoe's gate opens and, if asked, bots at the seats.

``--print-config PATH`` also writes a ready ``table.toml`` for
``pontoon-table run`` (seats, device ports, camera URL, the simulated deck's
calibrated profile, a display port and a fresh dealer token)::

    pontoon-table sim-hw --bots Ann,Ben,Cat,Dan --clock fast --print-config t.toml &
    pontoon-table run --config t.toml

Knowing the token, the simulated dealer also watches that display and
confirms a card the camera could not read (:mod:`hardware_sim.dealer_eyes`),
as the dealer at a real table does.  ``GET <camera base>/report`` gives what
the simulated hands did so far (cards pulled, presses, faults) as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

from controller.tokens import new_token
from hardware_sim.clock import MODES, Clock
from hardware_sim.faults import PRESETS, FaultConfig
from hardware_sim.people import STRATEGIES, DealerMistakes

CAMERA_MODES = ("overhead", "in_shoe")


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
    parser.add_argument("--camera-mode", choices=CAMERA_MODES, default="in_shoe",
                        help="in_shoe (default): the camera under the shoe's window, a pass "
                             "of frames per card, sent just before the card's CARD_OUT "
                             "('run' pairs them, docs/hardware.md 2.7); overhead: a card "
                             "at rest on the table")
    parser.add_argument("--motor", action="store_true", help="the shoe has a dispensing motor")
    parser.add_argument("--no-dealer", action="store_true", help="no simulated dealer")
    parser.add_argument("--dealer-mistakes", default="",
                        help="e.g. wrong_seat=0.05,draw_while_locked=0.01")
    parser.add_argument("--bots", default="",
                        help=f"seat=strategy,... with strategies {', '.join(STRATEGIES)}")
    parser.add_argument("--duration", type=float, default=0.0,
                        help="stop after this many seconds (0: run until interrupted)")
    parser.add_argument("--camera-port", type=int, default=0,
                        help="port of the camera's MJPEG stream on 127.0.0.1 (0: any free port)")
    parser.add_argument("--camera-fps", type=float, default=None,
                        help="frames per second the camera streams (25 overhead; in_shoe: "
                             "the camera's 120, so a pass plays as fast as it happens)")
    parser.add_argument("--manual-next", action="store_true",
                        help="the simulated dealer gathers the cards but leaves NEXT to a "
                             "person (the dealer panel or the display's next-deal)")
    config = parser.add_argument_group("a table.toml for pontoon-table run")
    config.add_argument("--print-config", type=Path, metavar="PATH",
                        help="write a ready table.toml for these ports (and the deck profile "
                             "beside it)")
    config.add_argument("--rules", default="house", help="rules preset for the file (house)")
    config.add_argument("--display-port", type=int, default=0,
                        help="the dealer display's port in the file (0: a free port)")
    config.add_argument("--token", default=None, help="the dealer token (default: random)")
    config.add_argument("--journal", default=None,
                        help="journal path in the file (default: beside it, <name>.journal.sqlite)")


def _parse_bots(text: str, seats: list[str]) -> dict[str, str]:
    bots: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        seat, _, strategy = part.partition("=")
        if seat not in seats:
            raise ValueError(f"--bots names {seat!r}, who is not in --seats")
        bots[seat] = strategy or "stick17"
    return bots


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on now (for the display the controller will open)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _toml(value: object) -> str:
    """A TOML value: JSON's string escapes are TOML's basic-string escapes."""
    return json.dumps(value)


def table_toml(
    *,
    seats: dict[str, int],
    shoe: str,
    panels: str,
    camera: str,
    profile: str | None,
    mount: str = "overhead",
    rules: str,
    seed: int,
    display_port: int,
    token: str,
    journal: str,
) -> str:
    """The ``table.toml`` text for a controller to drive this simulated table."""
    house = rules in ("casino", "ponton")
    lines = [
        "# Written by pontoon-table sim-hw: the emulated table it is serving now.",
        "# pontoon-table run --config THIS_FILE",
        "[table]",
        'name = "Simulated table"',
        f"journal = {_toml(journal)}",
        "",
        "[rules]",
        f"preset = {_toml(rules)}",
        f"seed = {seed}",
    ]
    if not house:
        lines.append(f"banker = {_toml(list(seats)[-1])}")
    for name, address in seats.items():
        lines += ["", "[[seats]]", f"name = {_toml(name)}", f"panel_address = {address}"]
    lines += ["", "[devices]", f"shoe = {_toml(shoe)}", f"panels = {_toml(panels)}",
              "", "[camera]", f"source = {_toml(camera)}"]
    if profile is not None:
        lines.append(f"profile = {_toml(profile)}")
    lines += ["frames = 3", f"mount = {_toml(mount)}", "", "[display]", 'host = "127.0.0.1"',
              f"port = {display_port}", f"token = {_toml(token)}", ""]
    return "\n".join(lines)


def _write_atomically(path: Path, text: str) -> None:
    """Whoever polls for the file sees all of it or none of it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _write_config(args: argparse.Namespace, rig: Any, camera_url: str) -> dict[str, Any]:
    from hardware_sim.camera.profile_cache import camera_profile

    path: Path = args.print_config.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    profile_file: str | None = None
    profile = camera_profile(rig.camera) if rig.camera is not None else None
    if profile is not None:
        target = path.with_name(path.stem + ".profile.npz")
        profile.save(target)
        profile_file = str(target)
    token = args.token or new_token(128)
    port = args.display_port or free_port()
    journal = args.journal or path.stem + ".journal.sqlite"
    text = table_toml(
        seats=dict(rig.seats), shoe=rig.shoe_url, panels=rig.bus_url, camera=camera_url,
        profile=profile_file, mount=args.camera_mode, rules=args.rules, seed=args.seed,
        display_port=port, token=token, journal=journal,
    )
    _write_atomically(path, text)
    return {"config": str(path), "display": f"http://127.0.0.1:{port}", "token": token}


async def _open_game(rig: Any, stop: threading.Event) -> None:
    """The dealer presses NEXT when it is lit over an empty table (a new game, or a
    controller restarted after the cards were gathered): the simulated dealer
    itself presses it only after gathering cards."""
    from firmware_bridge.wire import Button

    panel = rig.panels.dealer
    if panel is None:
        return
    waiting_since: float | None = None
    while not stop.is_set():
        await asyncio.sleep(0.5)
        idle = Button.NEXT in panel.lit_buttons() and not rig.world.on_table
        if not idle:
            waiting_since = None
        elif waiting_since is None:
            waiting_since = time.monotonic()
        elif time.monotonic() - waiting_since >= 1.5:
            panel.press(Button.NEXT)
            if panel.wire is not None:
                panel.wire.kick()
            waiting_since = None


def run(args: argparse.Namespace) -> int:
    from hardware_sim.rig import SimRig

    try:
        faults = FaultConfig.parse(args.faults)
        clock = Clock.from_mode(args.clock, args.speed)
        mistakes = DealerMistakes.parse(args.dealer_mistakes)
        camera = None if args.camera == "none" else args.camera
        common = dict(faults=faults, clock=clock, port_kind=args.ports, camera=camera,
                      camera_mode=args.camera_mode, motor=args.motor, link_dir=args.link_dir)
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
        if args.camera_fps is None:
            from vision.geometry import IN_SHOE

            args.camera_fps = IN_SHOE.fps if args.camera_mode == "in_shoe" else 25.0
        if args.camera_fps <= 0:
            raise ValueError("--camera-fps must be positive")
    except ValueError as exc:
        print(f"pontoon-table sim-hw: {exc}", file=sys.stderr)
        return 2

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stream = None
    eyes = None
    with rig:
        described = rig.describe()
        if rig.camera is not None:
            from hardware_sim.camera_stream import CameraStream

            try:
                stream = CameraStream(rig.camera, port=args.camera_port, fps=args.camera_fps,
                                      extra={"/report": lambda: _report(rig, eyes)}).start()
            except OSError as exc:
                print(f"pontoon-table sim-hw: camera port {args.camera_port}: {exc.strerror}",
                      file=sys.stderr)
                return 2
            if args.camera_mode == "in_shoe" and hasattr(rig.shoe, "card_out_after"):
                # the pass is sent before its CARD_OUT, as the real shoe's is
                rig.shoe.card_out_after = stream.after_pass
            described["camera"] = stream.url
            described["camera_snapshot"] = stream.snapshot_url
            described["report"] = stream.base_url + "/report"
        if args.print_config is not None:
            written = _write_config(args, rig, described.get("camera", "0"))
            described.update(written)
            if not args.no_dealer:
                from hardware_sim.dealer_eyes import DealerEyes

                eyes = DealerEyes(written["display"], written["token"],
                                  lambda dealt: rig.call(lambda: rig.world.unaccounted(dealt))
                                  ).start()
        press_next = bool(bots) and not args.manual_next
        if not args.no_dealer:
            rig.start_dealer(mistakes=mistakes, press_next=press_next, seed=args.seed)
            if press_next:
                rig.spawn(_open_game(rig, stop))
        if bots:
            rig.start_bots(bots, seed=args.seed)
        print(json.dumps(described), flush=True)
        deadline = time.monotonic() + args.duration if args.duration > 0 else None
        try:
            while not stop.is_set():
                if deadline is not None and time.monotonic() >= deadline:
                    break
                stop.wait(0.2)
        except KeyboardInterrupt:
            pass
        if eyes is not None:
            eyes.stop()
        if stream is not None:
            stream.stop()
        print(json.dumps({"report": _report(rig, eyes)}), flush=True)
    return 0


def _report(rig: Any, eyes: Any) -> dict[str, Any]:
    report: dict[str, Any] = rig.report()
    report["on_table"] = rig.call(lambda: len(rig.world.on_table))
    if eyes is not None:
        report["confirmed_by_dealer"] = list(eyes.confirmed)
        report["dealer_eyes_problem"] = eyes.last_problem
    report["under_camera"] = rig.call(lambda: rig.world.under_camera)
    return report
