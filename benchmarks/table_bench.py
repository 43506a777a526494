"""Full-stack table benchmark: card latency and deals per minute.

    .venv/bin/python benchmarks/table_bench.py               # 45 s of play, prints figures
    .venv/bin/python benchmarks/table_bench.py --seconds 20 --faults light

Everything real except the people: the emulated shoe and panel bus over ptys
(``hardware_sim.rig``), the real drivers, the simulated camera rendered and
read by the recogniser (3 agreeing frames per card), the table core, the
SQLite journal (WAL; ``synchronous=FULL`` unless ``--fast-journal``) and the
snapshot publisher.  Bots play ``traditional`` rules (no deal limit) and the
simulated dealer deals and presses NEXT, with no human delays.

Figures:

* **card latency**: from the CARD_OUT frame being written on the emulated
  shoe's serial port to the snapshot that shows the dealt card being
  published for the display (camera read and journal fsync included), p50
  and p99.  Aim: p99 under 50 ms.
* **deals per minute** of the whole stack.  Aim: 600 or more.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.core import GameSetup, TableCore
from controller.journal import Journal
from controller.table import Table


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def bench(
    seconds: float, faults: str, durable: bool, players: int, frames: int
) -> dict[str, float]:
    from firmware_bridge.drivers import PanelBus, Shoe
    from hardware_sim.clock import Clock
    from hardware_sim.rig import SimRig
    from vision.recognizer import Recognizer

    names = tuple(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"][:players])
    setup = GameSetup("traditional", names, names[-1], 1, {}, table="bench")
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "bench.sqlite", durable=durable)
        core = TableCore(setup, journal)
        seats = {n: i + 1 for i, n in enumerate(names)}
        rig = SimRig(seats, seed=1, faults=faults, clock=Clock.fast())
        written: list[float] = []
        published: list[float] = []
        rig.shoe.on_card_out.append(lambda _card: written.append(time.perf_counter()))
        with rig:
            async with Shoe.open(rig.shoe_url) as shoe, PanelBus.open(
                rig.bus_url, seats=list(seats.values()), reply_timeout=0.005, cycle_min=0.0
            ) as bus:
                table = Table(core, shoe=shoe, bus=bus, camera=rig.camera,
                              recognizer=Recognizer(), frames=frames)
                last_cards = [0]

                def on_publish(snapshot: dict[str, object]) -> None:
                    cards = core.counters["cards"]
                    if cards > last_cards[0]:
                        published.extend([time.perf_counter()] * (cards - last_cards[0]))
                        last_cards[0] = cards

                table.publisher.add_listener(on_publish)
                async with table:
                    rig.start_dealer(view=table.snapshot, press_next=True, pace=0.0)
                    rig.start_bots({n: "stick16" for n in names}, think=0.0)
                    await table.next_deal()
                    start = time.perf_counter()
                    deals0 = len(core.state.results)
                    await asyncio.sleep(seconds)
                    elapsed = time.perf_counter() - start
                    deals = len(core.state.results) - deals0
        journal.close()
    pairs = min(len(written), len(published))
    latencies = [(published[i] - written[i]) * 1000 for i in range(pairs)]
    latencies = [x for x in latencies if x >= 0]
    return {
        "deals": deals,
        "seconds": elapsed,
        "deals_per_minute": deals / elapsed * 60,
        "cards": len(latencies),
        "p50_ms": statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": percentile(latencies, 99) if latencies else float("nan"),
        "max_ms": max(latencies) if latencies else float("nan"),
        "reads_p50_ms": statistics.median(table.card_latencies) * 1000
        if table.card_latencies else float("nan"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--faults", default="none")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--frames", type=int, default=3, help="frames that must agree per card")
    parser.add_argument("--fast-journal", action="store_true",
                        help="synchronous=NORMAL instead of FULL (no fsync per action)")
    args = parser.parse_args()
    figures = asyncio.run(
        bench(args.seconds, args.faults, not args.fast_journal, args.players, args.frames)
    )
    print(f"full-stack deals: {figures['deals']} in {figures['seconds']:.1f} s "
          f"= {figures['deals_per_minute']:.0f} deals/minute (aim >= 600)")
    print(f"card-out frame -> snapshot published, {figures['cards']} cards: "
          f"p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, "
          f"max {figures['max_ms']:.1f} ms (aim p99 < 50 ms)")
    print(f"camera read per card (card-out event -> reading), p50 {figures['reads_p50_ms']:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
