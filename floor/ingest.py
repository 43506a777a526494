"""The floor's core: messages in, rows stored, resend requests out (no network here).

:class:`Floor` takes a batch of ``(topic, payload)`` as the broker delivered
them and returns what to publish back (resend requests).  It checks each
message (:mod:`floor.messages`), asks the ledger what to do with a journal
row, stores the accepted rows of the batch in ONE transaction (the row and
its table's head together), replays them into the standings and updates the
board.  The MQTT client (:mod:`floor.service`) is a thin loop around it, so
every decision here is tested without a broker.

Bad input is counted by its code (``size``, ``json``, ``schema``, ``topic``,
``table``, ``field``, ``unknown``) and logged in one line; it never raises.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .board import Board
from .ledger import Accept, Broken, Conflict, Duplicate, Gap, Ledger
from .messages import (
    JOURNAL,
    RESEND,
    STATUS,
    BadMessage,
    JournalEntry,
    decode_entry,
    decode_status,
    encode_resend,
    parse_topic,
    topic,
)
from .standings import Standings
from .store import Store, StoreConflict

log = logging.getLogger("floor")

#: a resend request for the same row is repeated at most this often (seconds)
RESEND_AGAIN_S = 2.0


@dataclass(frozen=True)
class Outgoing:
    """A message the floor publishes (QoS 1)."""

    topic: str
    payload: bytes
    retain: bool = True


@dataclass
class _Asked:
    first: int
    at: float


@dataclass
class Floor:
    """Ledger + store + standings + board, fed by batches of broker messages."""

    store: Store
    known: frozenset[str] | None = None  # None: any valid table id is welcome
    clock: Callable[[], float] = time.time
    ledger: Ledger = field(default_factory=Ledger)
    standings: Standings = field(default_factory=Standings)
    board: Board = field(default_factory=Board)
    counts: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)  # bad input by code
    #: the subscriber's word: is the floor connected to its broker (shown on the page)
    broker_up: bool = False
    _asked: dict[str, _Asked] = field(default_factory=dict)
    _progress: dict[str, float] = field(default_factory=dict)  # table -> head last moved

    def __post_init__(self) -> None:
        self.load()
        for table in sorted(self.known or ()):
            self.board.card(table)  # listed from the start: a table never heard from shows

    def load(self) -> None:
        """Start from the store: heads, standings replayed, the floor's alarms."""
        heads = self.store.heads()
        self.ledger.reset(heads)
        self.standings = Standings()
        for table, seq, _ in heads:
            self.board.card(table).stored = seq
            for entry in self.store.rows(table):
                self._replay(entry)
        for alarm in self.store.alarms():
            self.board.chain_alarm(alarm.table, alarm.seq, alarm.text, alarm.at)

    def _replay(self, entry: JournalEntry) -> None:
        refusal = self.standings.add(entry)
        if refusal:
            log.warning("floor: %s", refusal)
            self.board.chain_alarm(entry.table, entry.seq, refusal, self.clock())

    # -- one batch -------------------------------------------------------------
    def handle(self, messages: Iterable[tuple[str, bytes]]) -> list[Outgoing]:
        """Ingest a batch; returns the resend requests (and clears) to publish."""
        now = self.clock()
        accepted: list[JournalEntry] = []
        pending: dict[tuple[str, int], str] = {}
        behind: dict[str, int] = {}  # table -> first row it should resend
        for name, payload in messages:
            try:
                self._one(name, payload, now, accepted, pending, behind)
            except BadMessage as bad:
                self.refused[bad.code] += 1
                log.warning("floor refused a message on %r (%s): %s", name[:200], bad.code, bad)
        self._commit(accepted)
        return self._resends(behind, now)

    def _one(
        self,
        name: str,
        payload: bytes,
        now: float,
        accepted: list[JournalEntry],
        pending: dict[tuple[str, int], str],
        behind: dict[str, int],
    ) -> None:
        table, kind = parse_topic(name)
        if self.known is not None and table not in self.known:
            raise BadMessage("unknown", f"table {table!r} is not on this floor's list")
        if kind == RESEND:
            return  # our own requests, if a broker echoes them: nothing to do
        if kind == STATUS:
            status = decode_status(table, payload)
            self.board.set_status(status, now)
            self.counts["status"] += 1
            return
        assert kind == JOURNAL
        entry = decode_entry(table, payload)
        self.board.heard(table, now)

        def stored(seq: int) -> str | None:
            return pending.get((table, seq)) or self.store.hash_at(table, seq)

        decision = self.ledger.decide(entry, stored)
        card = self.board.card(table)
        if isinstance(decision, Accept):
            self.ledger.advance(entry)
            pending[(table, entry.seq)] = entry.hash
            accepted.append(entry)
            behind.pop(table, None)
            self._progress[table] = now
        elif isinstance(decision, Duplicate):
            self.counts["duplicate"] += 1
            card.duplicates += 1
        elif isinstance(decision, Gap):
            self.counts["gap"] += 1
            behind[table] = decision.first_missing
        else:
            assert isinstance(decision, Conflict | Broken)
            code = "conflict" if isinstance(decision, Conflict) else "broken"
            self.counts[code] += 1
            card.refused += 1
            text = f"Refused row {entry.seq} of {table}: {decision.reason}"
            log.error("floor ALARM: %s", text)
            self.store.add_alarm(table, entry.seq, code, text, now)
            self.board.chain_alarm(table, entry.seq, text, now)

    def _commit(self, accepted: Sequence[JournalEntry]) -> None:
        if not accepted:
            return
        try:
            self.store.append(accepted, received=self.clock())
        except StoreConflict as error:
            # Another writer moved a head (a second floor on the same database):
            # nothing of the batch is stored; start again from what is.
            log.error("floor: %s; reloading the heads from the store", error)
            self.counts["store_conflict"] += 1
            self.ledger.reset(self.store.heads())
            return
        self.counts["stored"] += len(accepted)
        for entry in accepted:
            self.board.card(entry.table).stored = entry.seq
            self._replay(entry)

    def _resends(self, behind: dict[str, int], now: float) -> list[Outgoing]:
        out: list[Outgoing] = []
        for table, first in sorted(behind.items()):
            first = max(first, self.ledger.head(table).seq + 1)
            asked = self._asked.get(table)
            if asked and asked.first == first and now - asked.at < RESEND_AGAIN_S:
                continue
            self._asked[table] = _Asked(first, now)
            self.counts["resend"] += 1
            log.info("floor: asking %s to resend from row %d", table, first)
            out.append(Outgoing(topic(table, RESEND), encode_resend(first)))
        for table, asked in list(self._asked.items()):
            if table not in behind and self.ledger.head(table).seq >= asked.first:
                # caught up: clear the retained request, so a table that starts
                # later does not send again what the floor holds
                del self._asked[table]
                out.append(Outgoing(topic(table, RESEND), b""))
        return out

    def check_behind(self) -> list[Outgoing]:
        """Tables whose status says they wrote rows the floor has not got, and
        whose head has not moved for :data:`RESEND_AGAIN_S`: ask them to resend.

        This finds the rows no later row reveals as a gap: the tail lost when a
        floor died between the broker's delivery and its commit, or a broker
        that lost its queue.  A table that is still delivering (its head moves)
        is left alone, so a long catch-up is not asked for twice.
        """
        now = self.clock()
        behind: dict[str, int] = {}
        for table, card in self.board.tables.items():
            status = card.status
            head = self.ledger.head(table).seq
            if status is None or not status.online or status.last_seq <= head:
                continue
            if now - self._progress.get(table, 0.0) >= RESEND_AGAIN_S:
                behind[table] = head + 1
        return self._resends(behind, now)

    def status_counts(self) -> dict[str, int]:
        """Counters for the page and the log: stored, duplicates, refusals by code."""
        return dict(self.counts) | {f"refused_{code}": n for code, n in self.refused.items()}
