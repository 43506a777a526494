"""Simulated tables that publish to a broker, each as a real table would.

Each :class:`SimTable` is a :class:`~floor.sim_table.BotTable` (the real core
and journal) in its own thread with a :class:`~floor.publisher.FloorPublisher`
beside it, exactly as ``pontoon-table run`` wires one: the publisher reads the
journal file on its own connection and is handed a snapshot now and then.
Used by ``pontoon-table floor sim``, the chaos test and the benchmark.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.config import FloorConfig
from floor.publisher import FloorPublisher
from floor.sim_table import PLAYERS, BotTable

log = logging.getLogger(__name__)

#: seconds between snapshots handed to the publisher (the status is a glance, not a feed)
SNAPSHOT_EVERY = 0.5


@dataclass(frozen=True)
class SimTableSpec:
    table_id: str
    broker: str  # the URL this table connects to (a proxy's, to pull its cable)
    username: str
    password: str
    ca: Path | None = None
    seed: int = 1
    deals: int = 0  # deals per game (0: the house rules' 8)
    games: int = 0  # games to play (0: until stopped)
    pace: float = 0.0  # seconds between moves
    players: tuple[str, ...] = PLAYERS


class SimTable:
    """One simulated table and its publisher; ``start()`` then ``finished.wait()``."""

    def __init__(self, spec: SimTableSpec, folder: Path) -> None:
        self.spec = spec
        self.journal_path = folder / f"{spec.table_id}.sqlite"
        self.bot = BotTable(
            self.journal_path,
            name=spec.table_id,
            seed=spec.seed,
            deals=spec.deals,
            players=spec.players,
        )
        config = FloorConfig(spec.broker, spec.table_id, spec.username, spec.password, spec.ca)
        self.publisher = FloorPublisher(config, self.journal_path)
        self.stop_event = threading.Event()
        self.finished = threading.Event()
        self.error: BaseException | None = None
        self._last_snapshot = 0.0
        self._thread = threading.Thread(target=self._run, name=f"sim-{spec.table_id}", daemon=True)

    def start(self) -> None:
        self.publisher.on_snapshot(self.bot.snapshot())
        self.publisher.start()
        self._thread.start()

    def _on_move(self, bot: BotTable) -> None:
        now = time.monotonic()
        if now - self._last_snapshot >= SNAPSHOT_EVERY:
            self._last_snapshot = now
            self.publisher.on_snapshot(bot.snapshot())
        else:
            self.publisher.wake()

    def _run(self) -> None:
        try:
            self.bot.play(
                self.spec.games, pace=self.spec.pace, stop=self.stop_event, on_move=self._on_move
            )
            self.publisher.on_snapshot(self.bot.snapshot())
        except BaseException as exc:  # the test or the sim reports it
            self.error = exc
            log.exception("simulated table %s stopped", self.spec.table_id)
        finally:
            self.finished.set()

    @property
    def head(self) -> int:
        return self.bot.journal.head

    def delivered(self) -> bool:
        """Every row of the journal acknowledged by the broker."""
        return self.finished.is_set() and self.publisher.acked >= self.head

    def stop(self) -> None:
        self.stop_event.set()
        self._thread.join(30)
        self.publisher.stop()
        self.bot.close()


def wait_all(tables: list[SimTable], predicate: Any, timeout: float) -> bool:
    """Until ``predicate(table)`` holds for every table (True) or ``timeout`` (False)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(predicate(t) for t in tables):
            return True
        time.sleep(0.05)  # polling threads' progress: nothing to wait on
    return all(predicate(t) for t in tables)
