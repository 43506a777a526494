"""The bot table of ``pontoon-table sim``: simulated hardware, bots, a simulated
dealer and the dealer display, for training and demonstrations.

Players are bots pressing their emulated panels (``hardware_sim.people.Bot``);
the simulated dealer deals when the gate opens and presses NEXT between deals.
The dealer display is served with the dealer's token, so a person can watch,
pause, confirm unsure cards or void a deal exactly as at a real table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
from pathlib import Path

from controller.core import GameSetup, TableCore
from controller.diagnostics import install_state_dump
from controller.journal import Journal
from controller.shoe_feed import JournalledShoe
from controller.table import Table

STRATEGIES = ("stick17", "buy11", "stick16", "random")


async def serve_bot_table(args: argparse.Namespace, token: str) -> int:
    from dealer_display.address import print_dealer_address
    from dealer_display.app import create_app, serve
    from firmware_bridge.drivers import PanelBus, Shoe
    from hardware_sim.camera.profile_cache import camera_reader
    from hardware_sim.clock import Clock
    from hardware_sim.people import DealerMistakes
    from hardware_sim.rig import SimRig

    players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    if len(players) < 2:
        print("pontoon-table sim: --players needs at least two names", file=sys.stderr)
        return 2
    house = args.rules in ("casino", "ponton")
    setup = GameSetup(
        args.rules, players, None if house else players[-1], args.seed, {}, table="Simulated table"
    )
    journal_path = args.journal or str(Path(tempfile.mkdtemp(prefix="pontoon-")) / "sim.sqlite")
    journal = Journal(journal_path, durable=False)
    core = TableCore(setup, journal, new_game_if_over=True)
    seats = {name: i + 1 for i, name in enumerate(players)}
    clock = Clock.realtime(speed=1 / args.pace) if args.pace > 0 else Clock.fast()
    rig = SimRig(seats, seed=args.seed, faults=args.faults, clock=clock)
    with rig:
        async with Shoe.open(rig.shoe_url) as shoe, PanelBus.open(
            rig.bus_url, seats=list(seats.values())
        ) as bus:
            table = Table(core, shoe=JournalledShoe(shoe, core, None), bus=bus, camera=rig.camera,
                          recognizer=camera_reader(rig.camera))
            async with table:
                install_state_dump(table)
                mistakes = DealerMistakes.parse(getattr(args, "dealer_mistakes", "") or "")
                rig.start_dealer(view=table.snapshot, press_next=True, pace=1.5,
                                 mistakes=mistakes, seed=args.seed)
                rig.start_bots(
                    {name: STRATEGIES[i % len(STRATEGIES)] for i, name in enumerate(players)}
                )
                if core.phase() == "between_deals":
                    await table.command("next_deal")  # the dealer opens the game; NEXT after that
                app = create_app(table, token=token, title="Pontoon table (simulation)")
                url = f"http://{args.host}:{args.port}/"
                print_dealer_address(url, token, qr=getattr(args, "qr", None))
                print(f"public display: {url}table", flush=True)
                print(f"journal: {journal_path}", flush=True)
                with contextlib.suppress(asyncio.CancelledError, KeyboardInterrupt):
                    await serve(app, host=args.host, port=args.port)
    journal.close()
    return 0
