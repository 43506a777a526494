"""Display fan-out latency: 50 WebSocket clients, time from a change to every client.

Runs the real app under uvicorn on a free localhost port with a manual table on
the real rules engine; 50 public clients (the ``websockets`` library, in a
separate process as real tablets would be) connect;
simulated people then make moves at a steady pace.  For every move that changes
the public view we time from just before the command to the moment each client
has parsed the message carrying it, and report the per-client latency and the
"every client has it" latency (p50, p99, max).  Aim: p99 under 100 ms.

    .venv/bin/python benchmarks/display_bench.py [--clients 50] [--changes 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import socket
import statistics
import time
from typing import Any

import uvicorn
import websockets

from dealer_display import autoplay
from dealer_display.app import create_app
from dealer_display.manual import ManualTable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def client(url: str, arrivals: dict[int, list[float]], ready: asyncio.Event,
                 counter: list[int], total: int, stop: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        first = json.loads(await ws.recv())
        assert first["type"] == "snapshot"
        counter[0] += 1
        if counter[0] == total:
            ready.set()
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            msg = json.loads(text)
            arrivals.setdefault(msg["version"], []).append(time.perf_counter())


async def _clients(url: str, clients: int, ready: Any, done: Any) -> dict[int, list[float]]:
    arrivals: dict[int, list[float]] = {}
    all_in, stop = asyncio.Event(), asyncio.Event()
    counter = [0]
    tasks = [
        asyncio.create_task(client(url, arrivals, all_in, counter, clients, stop))
        for _ in range(clients)
    ]
    await asyncio.wait_for(all_in.wait(), 30)
    ready.set()
    while not done.is_set():
        await asyncio.sleep(0.05)
    stop.set()
    await asyncio.gather(*tasks)
    return arrivals


def client_process(url: str, clients: int, ready: Any, done: Any, out: Any) -> None:
    out.put(asyncio.run(_clients(url, clients, ready, done)))


async def main(clients: int, changes: int, pace: float) -> dict[str, float]:
    table = ManualTable(rules="house", players=["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], seed=1)
    app = create_app(table, token="bench-token-123")
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    channel = app.state.hub["public"]
    ctx = multiprocessing.get_context("spawn")
    ready, done, out = ctx.Event(), ctx.Event(), ctx.Queue()
    url = f"ws://127.0.0.1:{port}/ws/public"
    proc = ctx.Process(target=client_process, args=(url, clients, ready, done, out))
    proc.start()
    while not ready.is_set():
        await asyncio.sleep(0.05)
    rng = random.Random(7)
    sent: dict[int, float] = {}
    while len(sent) < changes:
        before = channel.version
        t0 = time.perf_counter()
        if not await autoplay.step(table, rng):
            await table.command("new_game")
        if channel.version != before:
            sent[channel.version] = t0
        await asyncio.sleep(pace)
    await asyncio.sleep(0.5)
    done.set()
    arrivals: dict[int, list[float]] = await asyncio.to_thread(out.get, True, 60)
    await asyncio.to_thread(proc.join, 30)
    server.should_exit = True
    await serving
    each: list[float] = []
    every: list[float] = []
    missing = 0
    for version, t0 in sent.items():
        got = arrivals.get(version, [])
        missing += clients - len(got)
        each += [(t - t0) * 1000 for t in got]
        if len(got) == clients:
            every.append((max(got) - t0) * 1000)
    return {
        "clients": clients,
        "changes": len(sent),
        "missed": missing,
        "client_p50_ms": statistics.median(each),
        "client_p99_ms": pct(each, 99),
        "all_p50_ms": statistics.median(every),
        "all_p99_ms": pct(every, 99),
        "all_max_ms": max(every),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--changes", type=int, default=300)
    parser.add_argument("--pace", type=float, default=0.02, help="seconds between moves")
    args = parser.parse_args()
    result = asyncio.run(main(args.clients, args.changes, args.pace))
    print(f"{result['clients']} clients, {result['changes']} changes, "
          f"{result['missed']} messages missed")
    print(f"one client has it:   p50 {result['client_p50_ms']:.1f} ms, "
          f"p99 {result['client_p99_ms']:.1f} ms")
    print(f"every client has it: p50 {result['all_p50_ms']:.1f} ms, "
          f"p99 {result['all_p99_ms']:.1f} ms, max {result['all_max_ms']:.1f} ms "
          f"(aim: p99 < 100 ms)")
