"""The event floor's figures: ingest rate, append-to-floor latency, catch-up, deal time.

    .venv/bin/python benchmarks/floor_bench.py              # everything, prints figures
    .venv/bin/python benchmarks/floor_bench.py --only ingest --tables 50 --rows 600

Everything is real but the people: Debian's Mosquitto with init-broker's files
(plain listener on 127.0.0.1), the floor (``pontoon-table floor serve``: its
subscriber, store and page) in its own process with SQLite or PostgreSQL, and
tables that are the real table core and journal with bots
(``floor/sim_table.py``), each with the real publisher (``floor/publisher.py``),
all tables in this process.  The machine is shared: each run prints the load
average it started with, and the floor's CPU time per row, which the load
does not change.

* **ingest**: ``--tables`` tables each hold a recorded journal of ``--rows``
  rows (games the bots played beforehand); their publishers start at once
  with no cursor and send as fast as they can.  Figure: rows stored by the
  floor per second, from the publishers' start to the last row committed
  (polled from the store), for SQLite and for PostgreSQL (Debian's server in
  a temporary folder, ``fsync=off`` as the test kit starts it: PostgreSQL's
  own durability is the database's business, not the floor's figure).
  Aim: 5,000 rows/s or more.
* **latency**: ``--tables`` tables play live at ``--pace`` seconds per move
  (a real table's pace is a move every second or two) for ``--seconds``,
  with the floor (``pontoon-table floor serve``: subscriber and page) in its own
  process and a WebSocket client holding the floor page as a browser does.
  Per row: the time the page first showed it stored (the table's ``stored``
  count reaching its number, arrival time of the WebSocket message) minus
  the journal's append time (the row's ``at``; one machine, one clock); and
  the floor's commit time minus the append time.  Aim: p99 250 ms or less.
* **catch-up**: one table with an hour of play in its journal
  (``--hour-rows`` rows) whose cable comes back: time until the floor holds
  every row.
* **deal**: one table playing house-rules deals as fast as the bots can, with
  a durable journal (fsync per row, as a real table): mean wall time per deal
  with no floor, with the broker up, and with the broker down.  The
  publisher's own threads share the interpreter with the table, so "broker
  up" shows what publishing costs; "broker down" must not be slower.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "floor"))

from broker_kit import FloorProcess, free_port, start_broker  # noqa: E402

from controller.config import FloorConfig  # noqa: E402
from floor.broker_proc import port_open  # noqa: E402
from floor.publisher import FloorPublisher  # noqa: E402
from floor.sim_fleet import SimTable, SimTableSpec  # noqa: E402
from floor.sim_table import BotTable  # noqa: E402


def record(folder: Path, table_id: str, rows: int, seed: int) -> Path:
    """A journal of at least ``rows`` rows, played by the bots beforehand."""
    path = folder / f"{table_id}.sqlite"
    bot = BotTable(path, name=table_id, seed=seed)
    while bot.journal.head < rows:
        if not bot.step():
            bot.core.new_game()
    bot.close()
    return path


def store_count(db: str) -> int:
    if db.startswith("sqlite:///"):
        path = db.removeprefix("sqlite:///")
        if not Path(path).exists():
            return 0
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
                return int(conn.execute("SELECT COUNT(*) FROM floor_rows").fetchone()[0])
        except sqlite3.OperationalError:
            return 0  # the floor has not made its tables yet
    import psycopg

    try:
        with psycopg.connect(db) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM floor_rows").fetchone()[0])  # type: ignore[index]
    except psycopg.errors.UndefinedTable:
        return 0


def store_latencies(db: str, since: float) -> list[float]:
    sql = "SELECT received - at FROM floor_rows WHERE at >= "
    if db.startswith("sqlite:///"):
        with sqlite3.connect(f"file:{db.removeprefix('sqlite:///')}?mode=ro", uri=True) as conn:
            return [float(x) for (x,) in conn.execute(sql + "?", (since,))]
    import psycopg

    with psycopg.connect(db) as conn:
        return [float(x) for (x,) in conn.execute(sql + "%s", (since,))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), children not counted."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def until(condition: Callable[[], bool], timeout: float, poll: float = 0.05) -> bool:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(poll)
    return True


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ingest(work: Path, db: str, tables: int, rows: int, label: str) -> None:
    kit = start_broker(work / f"broker-{label}", tables=tables)
    floor = FloorProcess(kit, db, work / f"floor-{label}.log")
    journals = work / "recorded"
    publishers: list[FloorPublisher] = []
    try:
        floor.start()
        total = 0
        for k in range(1, tables + 1):
            table_id = f"table-{k}"
            path = journals / f"{table_id}.sqlite"
            path.with_name(path.name + ".floor.json").unlink(missing_ok=True)
            with sqlite3.connect(path) as conn:
                total += int(conn.execute("SELECT COUNT(*) FROM rows").fetchone()[0])
            config = FloorConfig(kit.url, table_id, table_id, kit.table(table_id).password)
            publishers.append(FloorPublisher(config, path))
        cpu0, mine0 = cpu_seconds(floor.pid), time.process_time()
        t0 = time.perf_counter()
        for p in publishers:
            p.start()
        ok = until(lambda: store_count(db) >= total, 600, poll=0.1)
        elapsed = time.perf_counter() - t0
        cpu, mine = cpu_seconds(floor.pid) - cpu0, time.process_time() - mine0
        print(
            f"ingest {label:<10} {tables} tables, {total} rows: {elapsed:6.2f} s, "
            f"{total / elapsed:8,.0f} rows/s stored{'' if ok else ' (INCOMPLETE)'}; "
            f"CPU: floor {cpu:.1f} s ({total / cpu:,.0f} rows per floor CPU-second), "
            f"the {tables} publishers {mine:.1f} s",
            flush=True,
        )
    finally:
        for p in publishers:
            p.stop(timeout=0.5)
        floor.kill()
        kit.kill()


class PageWatcher:
    """The floor page's WebSocket, as a browser holds it: when each table's stored
    row count was first shown (wall clock of arrival)."""

    def __init__(self, port: int, token: str) -> None:
        self.shown: dict[str, list[tuple[int, float]]] = {}
        self.url, self.token = f"ws://127.0.0.1:{port}/ws/floor", token
        self.ws: Any = None
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.ready.wait(30)

    def _run(self) -> None:
        from websockets.sync.client import connect

        with contextlib.suppress(Exception), connect(self.url) as ws:  # closes at the end
            self.ws = ws
            ws.send(json.dumps({"token": self.token}))
            self.ready.set()
            for text in ws:
                now = time.time()
                message = json.loads(text)
                view = message.get("view") or message.get("set") or {}
                for card in view.get("tables", []):
                    seen = self.shown.setdefault(card["table"], [])
                    if not seen or card["stored"] > seen[-1][0]:
                        seen.append((int(card["stored"]), now))

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


def page_latencies(shown: list[tuple[int, float]], ats: list[float], since: float) -> list[float]:
    """Per row appended after ``since``: first shown on the page minus appended."""
    out, k = [], 0
    for seq, at in enumerate(ats, start=1):
        while k < len(shown) and shown[k][0] < seq:
            k += 1
        if k == len(shown):
            break
        if at >= since:
            out.append(shown[k][1] - at)
    return out


def latency(work: Path, tables: int, pace: float, seconds: float) -> None:
    kit = start_broker(work / "broker-latency", tables=tables)
    db = f"sqlite:///{work / 'latency.db'}"
    floor = FloorProcess(kit, db, work / "floor-latency.log")  # pontoon-table floor serve
    sims: list[SimTable] = []
    watcher = None
    try:
        floor.start()
        until(lambda: port_open(floor.port), 60)
        watcher = PageWatcher(floor.port, floor.token)
        folder = work / "live"
        folder.mkdir()
        for k in range(1, tables + 1):
            table_id = f"table-{k}"
            spec = SimTableSpec(table_id, kit.url, table_id, kit.table(table_id).password,
                                seed=k, pace=pace)  # fmt: skip
            sims.append(SimTable(spec, folder))
        for s in sims:
            s.start()
        since = time.time() + 5  # the first seconds (connections, subscriptions) left out
        time.sleep(seconds + 5)  # the measuring window: the tables play at their pace
        for s in sims:
            s.stop_event.set()
        heads = sum(s.head for s in sims)
        until(lambda: store_count(db) >= heads, 60)
        time.sleep(1)  # the page's last refresh
        commit = [v * 1000 for v in store_latencies(db, since)]
        shown = []
        for s in sims:
            ats = [row[0] for row in sqlite3.connect(s.journal_path).execute(
                "SELECT at FROM rows ORDER BY seq")]  # fmt: skip
            shown += page_latencies(watcher.shown.get(s.spec.table_id, []), ats, since)
        shown_ms = [v * 1000 for v in shown]
        print(
            f"latency   {tables} tables at {pace:g} s per move, {len(commit)} rows in "
            f"{seconds:g} s: journal append to the floor's commit p50 {pct(commit, 0.5):.0f} ms, "
            f"p99 {pct(commit, 0.99):.0f} ms; to the floor page (WebSocket) p50 "
            f"{pct(shown_ms, 0.5):.0f} ms, p99 {pct(shown_ms, 0.99):.0f} ms, "
            f"max {max(shown_ms):.0f} ms ({len(shown_ms)} rows)",
            flush=True,
        )
    finally:
        if watcher is not None:
            watcher.close()
        for s in sims:
            s.stop()
        floor.kill()
        kit.kill()


def catch_up(work: Path, hour_rows: int) -> None:
    kit = start_broker(work / "broker-catchup", tables=1)
    db = f"sqlite:///{work / 'catchup.db'}"
    floor = FloorProcess(kit, db, work / "floor-catchup.log")
    folder = work / "hour"
    folder.mkdir()
    path = record(folder, "table-1", hour_rows, seed=7)
    with sqlite3.connect(path) as conn:
        total = int(conn.execute("SELECT COUNT(*) FROM rows").fetchone()[0])
    config = FloorConfig(kit.url, "table-1", "table-1", kit.table("table-1").password)
    publisher = FloorPublisher(config, path)
    try:
        floor.start()
        t0 = time.perf_counter()
        publisher.start()
        until(lambda: store_count(db) >= total, 600)
        elapsed = time.perf_counter() - t0
        print(
            f"catch-up  one table, an hour of play ({total} rows) after the cable comes "
            f"back: {elapsed:.2f} s ({total / elapsed:,.0f} rows/s)",
            flush=True,
        )
    finally:
        publisher.stop(timeout=0.5)
        floor.kill()
        kit.kill()


def deal_time(work: Path, deals: int) -> None:
    """Three tables in turn, ten deals each, until each played ``deals``: one without a
    floor, one publishing to a running broker (the floor subscribed), one whose broker
    is down (nothing listens on its port).  Taking turns spreads the machine's other
    load evenly over the three."""
    kit = start_broker(work / "broker-deal", tables=2)
    db = f"sqlite:///{work / 'deal.db'}"
    floor = FloorProcess(kit, db, work / "floor-deal.log")
    floor.start()
    dead = f"mqtt://127.0.0.1:{free_port()}"
    modes: dict[str, tuple[BotTable, FloorPublisher | None]] = {}
    for mode, url in (("no floor", None), ("broker up", kit.url), ("broker down", dead)):
        folder = work / f"deal-{mode.replace(' ', '-')}"
        folder.mkdir()
        bot = BotTable(folder / "t.sqlite", seed=3, durable=True)
        publisher = None
        if url is not None:
            table_id = "table-1" if url == kit.url else "table-2"
            config = FloorConfig(url, table_id, table_id, kit.table(table_id).password)
            publisher = FloorPublisher(config, bot.journal.path)
            publisher.start()
        modes[mode] = (bot, publisher)
    up = modes["broker up"][1]
    assert up is not None
    until(up._connected.is_set, 20)
    samples: dict[str, list[float]] = {mode: [] for mode in modes}
    try:
        while min(len(v) for v in samples.values()) < deals:
            for mode, (bot, publisher) in modes.items():
                for _ in range(10):
                    samples[mode].append(_one_deal(bot, publisher))
    finally:
        for bot, publisher in modes.values():
            if publisher is not None:
                publisher.stop(timeout=0.5)
            bot.close()
        floor.kill()
        kit.kill()
    line = ", ".join(
        f"{mode} {statistics.median(v) * 1000:.1f} ms (mean {statistics.fmean(v) * 1000:.1f})"
        for mode, v in samples.items()
    )
    print(f"deal      median wall time per deal, {deals} deals each, durable journal: {line}")


def _one_deal(bot: BotTable, publisher: FloorPublisher | None) -> float:
    """Wall time of one deal, from its first move to its settlement."""
    before = len(bot.core.state.results)
    t0 = time.perf_counter()
    while len(bot.core.state.results) == before:
        if not bot.step():
            bot.core.new_game()
            before, t0 = len(bot.core.state.results), time.perf_counter()
            continue
        if publisher is not None:
            publisher.wake()  # as the table's snapshot listener does
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="ingest,latency,catchup,deal")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rows", type=int, default=600, help="recorded rows per table")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds per move (latency)")
    parser.add_argument("--seconds", type=float, default=30.0, help="latency window")
    parser.add_argument("--hour-rows", type=int, default=3600, help="an hour of play")
    parser.add_argument("--deals", type=int, default=100, help="deals per mode (deal)")
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    only = set(args.only.split(","))
    load = os.getloadavg()[0]
    print(f"{os.cpu_count()} cores, load average {load:.2f} at the start", flush=True)
    work = Path(tempfile.mkdtemp(prefix="floor-bench-"))
    try:
        if "ingest" in only:
            recorded = work / "recorded"
            recorded.mkdir()
            for k in range(1, args.tables + 1):
                record(recorded, f"table-{k}", args.rows, seed=k)
            ingest(work, f"sqlite:///{work / 'ingest.db'}", args.tables, args.rows, "SQLite")
            if not args.no_postgres:
                import pg_kit

                if pg_kit.available():
                    with pg_kit.postgres_server() as url:
                        db = pg_kit.fresh_database(url, "floor_bench")
                        ingest(work, db, args.tables, args.rows, "PostgreSQL")
                else:
                    print("ingest PostgreSQL: Debian's postgresql is not installed; skipped")
        if "latency" in only:
            latency(work, args.tables, args.pace, args.seconds)
        if "catchup" in only:
            catch_up(work, args.hour_rows)
        if "deal" in only:
            deal_time(work, args.deals)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
