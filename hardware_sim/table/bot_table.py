"""The bot table of ``pontoon-table sim``: simulated hardware, bots, a simulated
dealer and the dealer display, for training and demonstrations.

Players are bots pressing their emulated panels (``hardware_sim.people.Bot``);
the simulated dealer deals when the gate opens, presses NEXT between deals and
answers the table's alarms about the shoe (a shoe reboot or lost card events
mid-deal, docs/protocol.md section 5.3) after looking at the cards on the
table for a few (simulated) seconds.  The dealer display is served with the
dealer's token, so a person can watch, pause, confirm unsure cards or void a
deal exactly as at a real table; the alarms the simulated dealer's own
mistakes cause (``--dealer-mistakes``) are left to that person to practise on.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from controller.core import Alarm, GameSetup, TableCore
from controller.diagnostics import install_state_dump
from controller.journal import Journal
from controller.shoe_feed import JournalledShoe
from controller.table import Table

STRATEGIES = ("stick17", "buy11", "stick16", "random")

#: the alarms the simulated dealer answers: both ask "check the cards on the
#: table against the display" (controller.core: a shoe reboot, lost card events)
SHOE_ALARMS = ("reboot", "lost")
#: how long (human seconds, on the simulation's clock) the simulated dealer
#: takes to look over the table before answering such an alarm
CHECK_TIME = (2.0, 5.0)


def _shoe_alarm(core: TableCore) -> Alarm | None:
    """The alarm the dealer's answer would go to (the first), when it is one
    about the shoe; a misdeal or jam before it is the person's to answer."""
    first = next(iter(core.alarms.values()), None)
    return first if first is not None and first.kind in SHOE_ALARMS else None


def cards_shown(snapshot: dict[str, Any]) -> int:
    """Cards of this deal the display shows: every hand's, and the bank's."""
    shown = sum(
        len(hand.get("cards") or ())
        for seat in snapshot.get("seats") or ()
        for hand in seat.get("hands") or ()
    )
    bank = snapshot.get("bank") or {}
    return shown + len(bank.get("cards") or ())


async def answer_shoe_alarms(
    table: Table, rig: Any, *, seed: int = 0, check_time: tuple[float, float] = CHECK_TIME
) -> None:
    """The simulated dealer's answer to a shoe alarm: after ``check_time``
    seconds of looking (scaled by the simulation's clock: none in fast mode),
    ``continue`` when the cards on the table are those the display shows
    (plus any card the table is still reading), else ``void``.  Answers only
    once the shoe is back (the alarm's hold and the link's are separate), and
    leaves an alarm alone that someone at the display answered meanwhile."""
    rng = random.Random(f"dealer-alarms:{seed}")
    core = table.core
    generation = 0
    while True:
        alarm = _shoe_alarm(core)
        if alarm is None or "link_down" in core.machine.holds:
            generation = await table.wait_change(generation)
            continue
        await rig.clock.pause(rng.uniform(*check_time))
        if _shoe_alarm(core) is not alarm or "link_down" in core.machine.holds:
            continue
        with rig.world.lock:
            on_table = len(rig.world.on_table)
        shown = cards_shown(dict(table.snapshot())) + len(core.in_flight)
        result = await table.command(
            "misdeal", {"choice": "continue" if on_table == shown else "void"}
        )
        if not result.ok:  # not now (e.g. the table changed meanwhile): look again later
            generation = await table.wait_change(table.generation)


@contextlib.asynccontextmanager
async def bot_table(
    players: Sequence[str],
    rules: str,
    *,
    seed: int = 0,
    pace: float = 1.0,
    journal_path: str | None = None,
    faults: str = "none",
    dealer_mistakes: str = "",
) -> AsyncIterator[tuple[Table, Any]]:
    """A running bot table: devices on ptys, the table, the simulated dealer
    (dealing, NEXT, answering shoe alarms) and the bots; yields the table and
    the rig.  ``pace`` 0: no human delays at all."""
    from firmware_bridge.drivers import PanelBus, Shoe
    from hardware_sim.camera.profile_cache import camera_reader
    from hardware_sim.clock import Clock
    from hardware_sim.people import DealerMistakes
    from hardware_sim.rig import SimRig

    house = rules in ("casino", "ponton")
    setup = GameSetup(
        rules, tuple(players), None if house else players[-1], seed, {}, table="Simulated table"
    )
    path = journal_path or str(Path(tempfile.mkdtemp(prefix="pontoon-")) / "sim.sqlite")
    journal = Journal(path, durable=False)
    core = TableCore(setup, journal, new_game_if_over=True)
    seats = {name: i + 1 for i, name in enumerate(players)}
    clock = Clock.realtime(speed=1 / pace) if pace > 0 else Clock.fast()
    rig = SimRig(seats, seed=seed, faults=faults, clock=clock)
    try:
        with rig:
            async with (
                Shoe.open(rig.shoe_url) as shoe,
                PanelBus.open(rig.bus_url, seats=list(seats.values())) as bus,
            ):
                table = Table(
                    core,
                    shoe=JournalledShoe(shoe, core, None),
                    bus=bus,
                    camera=rig.camera,
                    recognizer=camera_reader(rig.camera),
                )
                async with table:
                    answers = asyncio.ensure_future(answer_shoe_alarms(table, rig, seed=seed))
                    try:
                        rig.start_dealer(
                            view=table.snapshot,
                            press_next=True,
                            pace=1.5,
                            mistakes=DealerMistakes.parse(dealer_mistakes),
                            seed=seed,
                        )
                        rig.start_bots(
                            {
                                name: STRATEGIES[i % len(STRATEGIES)]
                                for i, name in enumerate(players)
                            }
                        )
                        if core.phase() == "between_deals":
                            # the dealer opens the game; NEXT after that
                            await table.command("next_deal")
                        yield table, rig
                    finally:
                        answers.cancel()
                        with contextlib.suppress(asyncio.CancelledError):
                            await answers
    finally:
        journal.close()


async def serve_bot_table(args: argparse.Namespace, token: str) -> int:
    from dealer_display.address import print_dealer_address
    from dealer_display.app import create_app, serve

    players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    if len(players) < 2:
        print("pontoon-table sim: --players needs at least two names", file=sys.stderr)
        return 2
    journal_path = args.journal or str(Path(tempfile.mkdtemp(prefix="pontoon-")) / "sim.sqlite")
    async with bot_table(
        players,
        args.rules,
        seed=args.seed,
        pace=args.pace,
        journal_path=journal_path,
        faults=args.faults,
        dealer_mistakes=getattr(args, "dealer_mistakes", "") or "",
    ) as (table, _):
        install_state_dump(table)
        app = create_app(table, token=token, title="Pontoon table (simulation)")
        url = f"http://{args.host}:{args.port}/"
        print_dealer_address(url, token, qr=getattr(args, "qr", None))
        print(f"public display: {url}table", flush=True)
        print(f"journal: {journal_path}", flush=True)
        with contextlib.suppress(asyncio.CancelledError, KeyboardInterrupt):
            await serve(app, host=args.host, port=args.port)
    return 0
