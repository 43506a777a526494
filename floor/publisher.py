"""The table's side of the floor: its journal, published row by row, and its status.

The journal is the outbox.  The publisher reads the rows from the journal file
with its own read-only SQLite connection (the table's WAL lets a reader and the
writer go on side by side), publishes each to ``pontoon/v1/tables/<id>/journal``
with QoS 1 in ``seq`` order, and remembers how far the broker has acknowledged
(the PUBACK) in a small file next to the journal (``<journal>.floor.json``,
written atomically and fsynced a few times a second at most).  So:

* a broker that is down, or a cable pulled for an hour: rows wait in the
  journal, nothing is dropped; when the broker is back the publisher goes on
  from the first row not acknowledged;
* a table restart: the cursor file says where to go on (a row sent but not yet
  acknowledged is sent again; the floor stores ``(table, seq, hash)`` once);
* a broker that lost messages it had acknowledged (a crash before it saved
  them): the floor sees a gap and asks on ``…/resend``; the table sends again
  from the row it names.

The table never waits on the broker.  The publisher runs in its own thread
with paho-mqtt's network thread beside it; the table's only call into it is
:meth:`FloorPublisher.on_snapshot`, which stores a reference and sets an event.
New rows are found by a cheap poll (the highest ``seq``, every 50 ms) and at
once after each snapshot (the table publishes one after every change).

Why paho-mqtt directly and not an asyncio wrapper here: the row counts as
delivered only on a PUBACK whose reason code is a success; a broker's ACL
refusal ("not authorized", MQTT 5) arrives as a PUBACK too, and must leave the
row in the outbox and be said in the log.  paho reports the reason code, and
its own thread keeps the table's event loop free of broker I/O.
"""

from __future__ import annotations

import collections
import contextlib
import json
import logging
import os
import sqlite3
import ssl
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from controller.config import FloorConfig
from controller.journal import GENESIS
from floor.messages import (
    JOURNAL,
    RESEND,
    STATUS,
    BadMessage,
    JournalEntry,
    TableStatus,
    decode_resend,
    encode_entry,
    encode_status,
    topic,
)

log = logging.getLogger(__name__)

#: rows handed to the MQTT client and not yet acknowledged, at most
WINDOW = 500
#: seconds between looks at the journal when nothing woke the publisher
POLL = 0.05
#: the cursor file is written at most this often (a lost write only re-sends rows)
SAVE_EVERY = 0.25
#: a status is published at most this often (the newest one wins)
STATUS_EVERY = 0.25
#: seconds before rows the broker refused are offered again
REFUSED_RETRY = 10.0


@dataclass
class PublisherStats:
    """What the publisher did, for the doctor, the tests and the benchmark."""

    published: int = 0
    acked: int = 0
    refused: int = 0
    resend_requests: int = 0
    bad_messages: int = 0
    connects: int = 0
    statuses: int = 0
    last_problem: str = ""


class Cursor:
    """How far the broker has acknowledged, kept in ``<journal>.floor.json``.

    The row's hash is stored with its number: a journal file replaced by
    another (or recovered past the cursor) is noticed, and publishing starts
    again from the first row (the floor drops what it has).
    """

    def __init__(self, journal: Path, table_id: str) -> None:
        self.path = journal.with_name(journal.name + ".floor.json")
        self.table_id = table_id

    def load(self) -> tuple[int, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("table") == self.table_id:
                return int(data["acked"]), str(data["hash"])
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("floor: cursor %s unreadable (%s); publishing from row 1", self.path, exc)
        return 0, GENESIS

    def save(self, acked: int, digest: str) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        text = json.dumps({"table": self.table_id, "acked": acked, "hash": digest})
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)


def status_from_snapshot(
    table_id: str, snapshot: dict[str, Any], *, game: int, last_seq: int, at: float
) -> TableStatus:
    """The retained status in plain words, from the table's display snapshot."""
    hold = snapshot.get("hold")
    holds = (str(hold["message"]),) if isinstance(hold, dict) and hold.get("message") else ()
    alarms = tuple(str(a.get("message", "")) for a in snapshot.get("alarms") or [])
    devices: dict[str, Any] = {}
    for name, info in (snapshot.get("links") or {}).items():
        device: dict[str, Any] = {"up": bool(info.get("up"))}
        if info.get("reason"):
            device["reason"] = str(info["reason"])
        device["drops"] = int(info.get("drops", 0))
        devices[str(name)] = device
    deal = snapshot.get("deal") or {}
    return TableStatus(
        table=table_id,
        online=True,
        at=at,
        phase=str(snapshot.get("phase", "")),
        game=game,
        deal=int(deal.get("number") or 0),
        last_seq=last_seq,
        holds=holds,
        alarms=alarms,
        devices=devices,
    )


class JournalReader:
    """A read-only view of the table's journal file (its own connection)."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)

    def head(self) -> tuple[int, int]:
        """The last row's ``(seq, game)``; ``(0, 0)`` for an empty journal."""
        row = self.db.execute("SELECT seq, game FROM rows ORDER BY seq DESC LIMIT 1").fetchone()
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def hash_of(self, seq: int) -> str | None:
        if seq == 0:
            return GENESIS
        row = self.db.execute("SELECT hash FROM rows WHERE seq=?", (seq,)).fetchone()
        return str(row[0]) if row else None

    def rows(self, first: int, limit: int) -> list[tuple[int, int, str, str, str, float, str]]:
        return list(
            self.db.execute(
                "SELECT seq, game, kind, body, meta, at, hash FROM rows "
                "WHERE seq>=? ORDER BY seq LIMIT ?",
                (first, limit),
            )
        )

    def close(self) -> None:
        self.db.close()


class FloorPublisher:
    """Publishes one table's journal and status to the floor's broker."""

    def __init__(self, config: FloorConfig, journal: str | Path, *, client_id: str = "") -> None:
        self.config = config
        self.table_id = config.table_id
        self.journal_path = Path(journal)
        self.cursor = Cursor(self.journal_path, self.table_id)
        self.stats = PublisherStats()
        self._topics = {kind: topic(self.table_id, kind) for kind in (JOURNAL, STATUS, RESEND)}
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._connected = threading.Event()
        self._events: collections.deque[tuple[str, Any]] = collections.deque()
        self._snapshot: dict[str, Any] | None = None
        self._thread: threading.Thread | None = None
        self._client = self._make_client(client_id or f"pontoon-{self.table_id}")
        # pump-thread state
        self.acked, self._acked_hash = 0, GENESIS
        self._next = 1
        self._prev = GENESIS
        self._inflight: dict[int, tuple[int, str]] = {}  # mid -> (seq, hash)
        self._done: set[int] = set()  # acknowledged rows above the cursor
        self._hashes: dict[int, str] = {}
        self._head = (0, 0)
        self._saved = 0
        self._last_save = 0.0
        self._status_sent: tuple[Any, ...] | None = None
        self._last_status = 0.0
        self._retry_at = 0.0

    # -- the table's side: never blocks ---------------------------------------

    def on_snapshot(self, snapshot: Any) -> None:
        """A table listener: keep the newest snapshot, wake the publisher."""
        self._snapshot = snapshot
        self._wake.set()

    def wake(self) -> None:
        self._wake.set()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    # -- life -------------------------------------------------------------------

    def start(self) -> None:
        url = urlsplit(self.config.broker)
        port = url.port or (8883 if url.scheme == "mqtts" else 1883)
        self._client.connect_async(url.hostname or "localhost", port, keepalive=15)
        self._client.loop_start()
        self._thread = threading.Thread(
            target=self._run, name=f"floor-{self.table_id}", daemon=True
        )
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Say "offline" (retained), save the cursor, disconnect; waits at most ``timeout``."""
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout + 5)
        if self._connected.is_set():
            offline = TableStatus(table=self.table_id, online=False, at=time.time())
            info = self._client.publish(
                self._topics[STATUS], encode_status(offline), qos=1, retain=True
            )
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout)
        self._drain_events()
        self._save(force=True)
        self._client.disconnect()
        self._client.loop_stop()

    def __enter__(self) -> FloorPublisher:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- MQTT client and its callbacks (paho's network thread) ------------------

    def _make_client(self, client_id: str) -> mqtt.Client:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        client.username_pw_set(self.config.username, self.config.password)
        if urlsplit(self.config.broker).scheme == "mqtts":
            context = ssl.create_default_context(
                cafile=str(self.config.ca) if self.config.ca else None
            )
            if self.config.cert is not None:
                context.load_cert_chain(str(self.config.cert), str(self.config.key))
            client.tls_set_context(context)
        offline = TableStatus(table=self.table_id, online=False)
        client.will_set(self._topics[STATUS], encode_status(offline), qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=10)
        client.max_inflight_messages_set(100)
        client.max_queued_messages_set(0)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client

    def _on_connect(
        self, client: mqtt.Client, _u: Any, _f: Any, reason: ReasonCode, _p: Any
    ) -> None:
        if reason.is_failure:
            self._problem(f"the broker refused the connection: {reason}")
            return
        self.stats.connects += 1
        client.subscribe(self._topics[RESEND], qos=1)
        self._connected.set()
        self._events.append(("connected", None))
        self._wake.set()

    def _on_connect_fail(self, _c: mqtt.Client, _u: Any) -> None:
        self._problem(
            f"cannot reach the broker at {self.config.broker} (network, TLS or address); "
            "rows wait in the journal"
        )

    def _on_disconnect(
        self, _c: mqtt.Client, _u: Any, _f: Any, reason: ReasonCode, _p: Any
    ) -> None:
        self._connected.clear()
        if not self._stopping.is_set():
            self._problem(f"lost the broker ({reason}); rows wait in the journal")

    def _on_publish(self, _c: mqtt.Client, _u: Any, mid: int, reason: ReasonCode, _p: Any) -> None:
        self._events.append(("ack", (mid, reason)))
        if len(self._events) >= WINDOW // 2:  # else the next poll takes them: no wake per ack
            self._wake.set()

    def _on_message(self, _c: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        self._events.append(("resend", bytes(message.payload)))
        self._wake.set()

    def _problem(self, text: str) -> None:
        if text != self.stats.last_problem:
            log.warning("floor %s: %s", self.table_id, text)
        self.stats.last_problem = text

    # -- the pump (its own thread) ----------------------------------------------

    def _run(self) -> None:
        reader = None
        try:
            while reader is None and not self._stopping.is_set():
                try:
                    reader = JournalReader(self.journal_path)
                except sqlite3.Error as exc:  # not created yet by the table
                    self._problem(f"cannot read the journal yet ({exc})")
                    self._wake.wait(1.0)
            if reader is None:
                return
            self._resume(reader)
            while not self._stopping.is_set():
                self._wake.wait(POLL)
                self._wake.clear()
                try:
                    self._step(reader)
                except sqlite3.Error as exc:
                    self._problem(f"journal read failed ({exc}); trying again")
                    self._wake.wait(0.5)
        finally:
            if reader is not None:
                reader.close()

    def _resume(self, reader: JournalReader) -> None:
        acked, digest = self.cursor.load()
        if acked and reader.hash_of(acked) != digest:
            log.warning(
                "floor %s: the journal does not hold acknowledged row %d as sent; "
                "publishing from row 1 again",
                self.table_id,
                acked,
            )
            acked, digest = 0, GENESIS
        self.acked, self._acked_hash, self._saved = acked, digest, acked
        self._next, self._prev = acked + 1, digest
        if acked:
            log.info(
                "floor %s: the broker has rows 1-%d; going on from there", self.table_id, acked
            )

    def _step(self, reader: JournalReader) -> None:
        self._drain_events(reader)
        self._head = reader.head()
        now = time.monotonic()
        if self._connected.is_set() and now >= self._retry_at:
            self._pump(reader)
            self._send_status(now)
        self._save()

    def _drain_events(self, reader: JournalReader | None = None) -> None:
        while self._events:
            kind, value = self._events.popleft()
            if kind == "ack":
                self._ack(*value)
            elif kind == "resend" and reader is not None:
                self._resend(reader, value)
            elif kind == "connected":
                self._status_sent = None  # the retained one may be the will: say it again

    def _ack(self, mid: int, reason: ReasonCode) -> None:
        item = self._inflight.pop(mid, None)
        if item is None:
            return  # the status, or a row acknowledged twice after a resend
        seq, digest = item
        if reason.is_failure:
            self.stats.refused += 1
            text = (
                f"the broker refused row {seq} on {self._topics[JOURNAL]}: {reason} "
                f"(check that floor.username {self.config.username!r} may publish as "
                f"{self.table_id!r}); trying again in {REFUSED_RETRY:.0f} s"
            )
            self._problem(text)
            if seq < self._next:
                self._rewind(seq)
            self._retry_at = time.monotonic() + REFUSED_RETRY
            return
        self.stats.acked += 1
        if seq <= self.acked:
            return
        self._done.add(seq)
        self._hashes[seq] = digest
        while self.acked + 1 in self._done:
            self.acked += 1
            self._done.discard(self.acked)
            self._acked_hash = self._hashes.pop(self.acked)

    def _rewind(self, first: int) -> None:
        """Publish again from row ``first`` (its predecessor's hash read on the next pump)."""
        self._next = first
        self._prev = ""

    def _resend(self, reader: JournalReader, payload: bytes) -> None:
        if not payload:
            return  # the floor cleared its retained request: nothing is missing
        try:
            first = decode_resend(payload)
        except BadMessage as exc:
            self.stats.bad_messages += 1
            log.warning(
                "floor %s: refused a message on %s (%s): %s",
                self.table_id,
                self._topics[RESEND],
                exc.code,
                exc,
            )
            return
        head = reader.head()[0]
        if first > head:
            log.info(
                "floor %s: the floor asks for rows from %d; the journal ends at %d",
                self.table_id,
                first,
                head,
            )
            return
        self.stats.resend_requests += 1
        log.info("floor %s: the floor asks for rows from %d again", self.table_id, first)
        if first < self._next:
            self._rewind(first)

    def _pump(self, reader: JournalReader) -> None:
        while self._next <= self._head[0] and len(self._inflight) < WINDOW:
            if not self._prev:
                prev = reader.hash_of(self._next - 1)
                if prev is None:
                    return
                self._prev = prev
            rows = reader.rows(self._next, WINDOW - len(self._inflight))
            if not rows:
                return
            for seq, game, kind, body, meta, at, digest in rows:
                entry = JournalEntry(
                    self.table_id, seq, game, kind, body, meta, float(at), self._prev, digest
                )
                info = self._client.publish(self._topics[JOURNAL], encode_entry(entry), qos=1)
                if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):
                    self._problem(f"could not hand row {seq} to the MQTT client ({info.rc})")
                    return
                self._inflight[info.mid] = (seq, digest)
                self.stats.published += 1
                self._next, self._prev = seq + 1, digest

    def _send_status(self, now: float) -> None:
        snapshot = self._snapshot
        if snapshot is None or now - self._last_status < STATUS_EVERY:
            return
        status = status_from_snapshot(
            self.table_id, snapshot, game=self._head[1], last_seq=self._head[0], at=time.time()
        )
        key = (status.phase, status.game, status.deal, status.last_seq, status.holds,
               status.alarms, json.dumps(status.devices, sort_keys=True))  # fmt: skip
        if key == self._status_sent:
            return
        self._client.publish(self._topics[STATUS], encode_status(status), qos=1, retain=True)
        self._status_sent, self._last_status = key, now
        self.stats.statuses += 1

    def _save(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if self.acked == self._saved or (not force and now - self._last_save < SAVE_EVERY):
            return
        try:
            self.cursor.save(self.acked, self._acked_hash)
        except OSError as exc:
            self._problem(f"cannot save the cursor {self.cursor.path} ({exc})")
            return
        self._saved, self._last_save = self.acked, now
