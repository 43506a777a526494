"""Serial link benchmark: the Shoe driver against an emulated shoe over a real pty.

    .venv/bin/python benchmarks/link_bench.py [--events 300] [--quick]

For 115200 and 1,000,000 baud (the device's writes are paced to the line rate,
since a pty has none) and 0 %, 1 % and 5 % of bytes corrupted in both
directions, it prints: events per second (a burst), event latency from the
device's emit to the host's delivery (p50/p99, events paced at 100/s),
retransmissions per event, CRC errors, link drops, CPU use of the process
(host and device thread together), and whether every event arrived exactly
once.  Aims: exactly once at 5 %; p99 < 20 ms at 115200 baud without
corruption.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.device import DeviceCore, RecordingHardware, shoe_identity
from firmware_bridge.device_runner import DeviceRunner, PtyPort
from firmware_bridge.drivers import Shoe
from firmware_bridge.host import CardOut, LinkDown, LinkUp


@dataclass
class Figures:
    baud: int
    corrupt: float
    events_per_s: float
    p50_ms: float
    p99_ms: float
    retrans_per_event: float
    crc_errors: int
    link_downs: int
    cpu_pct: float
    exactly_once: bool


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def _measure(baud: int, corrupt: float, n: int) -> Figures:
    core = DeviceCore(shoe_identity(), RecordingHardware(), now=time.monotonic(), boot_id=1)
    emitted: dict[int, float] = {}
    delivered: list[int] = []
    latencies: list[float] = []

    def emit(runner: DeviceRunner) -> None:
        def go(c: object, now: float) -> None:
            assert isinstance(c, DeviceCore)
            emitted[c.emit_card_out(now)] = now

        runner.call(go)

    with DeviceRunner(core, PtyPort(), corrupt=corrupt, seed=42, baud=baud) as runner:
        async with Shoe.open(runner.url, baudrate=baud) as shoe:
            while not isinstance(await shoe.next_event(), LinkUp):
                pass

            async def collect(count: int) -> None:
                while len(delivered) < count:
                    event = await shoe.next_event()
                    if isinstance(event, CardOut):
                        delivered.append(event.event_no)
                        latencies.append(time.monotonic() - emitted[event.event_no])
                    elif isinstance(event, LinkDown | LinkUp):
                        pass

            cpu0, wall0 = _cpu(), time.monotonic()
            # latency: events paced at 100/s
            collector = asyncio.create_task(collect(n))
            for _ in range(n):
                emit(runner)
                await asyncio.sleep(0.01)
            await asyncio.wait_for(collector, 600)
            paced = sorted(latencies)
            # throughput: a burst of n events
            t0 = time.monotonic()
            collector = asyncio.create_task(collect(2 * n))
            for _ in range(n):
                emit(runner)
                await asyncio.sleep(0)
            await asyncio.wait_for(collector, 600)
            burst_s = time.monotonic() - t0
            cpu = (_cpu() - cpu0) / (time.monotonic() - wall0) * 100
            counters = shoe.counters
            retrans = counters.retransmissions + core.counters.retransmissions
            return Figures(
                baud=baud,
                corrupt=corrupt,
                events_per_s=n / burst_s,
                p50_ms=statistics.median(paced) * 1000,
                p99_ms=paced[min(len(paced) - 1, int(0.99 * len(paced)))] * 1000,
                retrans_per_event=retrans / (2 * n),
                crc_errors=counters.crc_errors + core.counters.crc_errors,
                link_downs=counters.link_downs,
                cpu_pct=cpu,
                exactly_once=delivered == list(range(1, 2 * n + 1)),
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="115200 baud, 0 %% only")
    args = parser.parse_args()
    bauds = [115200] if args.quick else [115200, 1_000_000]
    rates = [0.0] if args.quick else [0.0, 0.01, 0.05]
    print(
        f"{'baud':>8} {'corrupt':>7} {'events/s':>9} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'retx/ev':>8} {'crc err':>7} {'drops':>5} {'cpu %':>6}  exactly once"
    )
    ok = True
    for baud in bauds:
        for rate in rates:
            # a 5 % line is slow by nature: fewer events keep the run short
            n = args.events if rate < 0.05 else max(20, args.events // 5)
            f = asyncio.run(_measure(baud, rate, n))
            ok &= f.exactly_once
            print(
                f"{f.baud:>8} {f.corrupt * 100:>6.0f}% {f.events_per_s:>9.0f} {f.p50_ms:>7.2f} "
                f"{f.p99_ms:>7.2f} {f.retrans_per_event:>8.3f} {f.crc_errors:>7} "
                f"{f.link_downs:>5} {f.cpu_pct:>6.1f}  {'yes' if f.exactly_once else 'NO'}"
            )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
