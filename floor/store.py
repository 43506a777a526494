"""The floor's store: every table's journal rows, exactly once per (table, seq).

One interface (:class:`Store`), two adapters: SQLite (the default,
``sqlite:///floor.db``, nothing to install at a small event) and PostgreSQL
(``postgresql://...``, psycopg 3, for a larger event or several floors reading
one database).  Both keep the same three guarantees, enforced by the database
itself and not only by the ledger in front of it:

* a row is stored once: ``(table_id, seq)`` is the primary key;
* the chain head moves with the row, in the same transaction, and only from
  ``seq - 1`` with the row's ``prev`` hash -- a row that does not continue the
  stored chain rolls the whole batch back (:class:`StoreConflict`);
* ``body`` and ``meta`` are kept as the exact text the table hashed and ``at``
  as a double, so the chain recomputes from the store at any time
  (:func:`Store.verify`).

Alarms the floor raised (a forged row, a conflict) are stored too: they are
evidence, and the alarm board shows them again after a restart.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from controller.journal import GENESIS, chain_hash

from .messages import JournalEntry


class StoreError(Exception):
    """The store cannot be used; the message says why in plain words."""


class StoreConflict(StoreError):
    """A batch did not continue a table's stored chain; nothing of it was stored."""


@dataclass(frozen=True)
class StoredAlarm:
    id: int
    table: str
    seq: int
    code: str  # "conflict", "broken"
    text: str
    at: float


_COLUMNS = "table_id, seq, game, kind, body, meta, at, prev, hash"


class Store:
    """The interface both adapters keep; the SQL is shared, the dialect is not."""

    url: str
    _param = "?"

    # -- the adapter's part ---------------------------------------------------
    def _execute(self, sql: str, args: Sequence[Any] = ()) -> Any: ...  # returns a cursor

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        yield

    def close(self) -> None: ...

    def reconnect(self) -> None:
        """After a failure: a fresh connection where the adapter has one to lose."""

    # -- shared ---------------------------------------------------------------
    def _sql(self, text: str) -> str:
        return text.replace("?", self._param)

    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self._execute(self._sql(sql), args).fetchall())

    def heads(self) -> list[tuple[str, int, str]]:
        """Every table's stored head: ``(table, seq, hash)``."""
        rows = self._query("SELECT table_id, seq, hash FROM floor_heads ORDER BY table_id")
        return [(str(t), int(s), str(h)) for t, s, h in rows]

    def append(self, entries: Sequence[JournalEntry], received: float | None = None) -> int:
        """Store ``entries`` (in chain order) in one transaction; returns how many.

        Each table's rows in the batch must continue one another, and the first
        must continue the table's stored head (``seq - 1`` and its ``prev``
        hash); otherwise (stored already, or not the next one) nothing is
        stored and :class:`StoreConflict` says which.  The rows go in with one
        ``executemany`` and each table's head moves once, so a batch costs
        about one statement per row, not two.
        """
        if not entries:
            return 0
        now = time.time() if received is None else received
        runs: dict[str, list[JournalEntry]] = {}
        for e in entries:
            run = runs.setdefault(e.table, [])
            if run and (e.seq != run[-1].seq + 1 or e.prev != run[-1].hash):
                raise StoreConflict(
                    f"row {e.seq} of table {e.table} does not follow row "
                    f"{run[-1].seq} of the same batch"
                )
            run.append(e)
        insert = self._sql(
            f"INSERT INTO floor_rows ({_COLUMNS}, received) VALUES (?,?,?,?,?,?,?,?,?,?)"
        )
        move = self._sql(
            "UPDATE floor_heads SET seq = ?, hash = ? WHERE table_id = ? AND seq = ? AND hash = ?"
        )
        start = self._sql("INSERT INTO floor_heads (table_id, seq, hash) VALUES (?, ?, ?)")
        values = [
            (e.table, e.seq, e.game, e.kind, e.body, e.meta, e.at, e.prev, e.hash, now)
            for e in entries
        ]
        try:
            with self._transaction():
                self._execute_many(insert, values)
                for table, run in runs.items():
                    first, last = run[0], run[-1]
                    if first.seq == 1 and first.prev == GENESIS:
                        self._execute(start, (table, last.seq, last.hash))
                        continue
                    moved = self._execute(
                        move, (last.seq, last.hash, table, first.seq - 1, first.prev)
                    )
                    if moved.rowcount != 1:
                        raise StoreConflict(
                            f"row {first.seq} of table {table} does not continue its stored chain"
                        )
        except StoreConflict:
            raise
        except Exception as error:
            if self._is_duplicate(error):
                raise StoreConflict(f"a row of the batch is stored already ({error})") from None
            raise
        return len(entries)

    def _execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        for row in rows:
            self._execute(sql, row)

    def _is_duplicate(self, error: Exception) -> bool:
        return False

    def hash_at(self, table: str, seq: int) -> str | None:
        rows = self._query(
            "SELECT hash FROM floor_rows WHERE table_id = ? AND seq = ?", (table, seq)
        )
        return str(rows[0][0]) if rows else None

    def rows(
        self, table: str, *, game: int | None = None, after: int = 0, limit: int | None = None
    ) -> list[JournalEntry]:
        """A table's rows in order (one game's, or those after ``after``)."""
        sql = f"SELECT {_COLUMNS} FROM floor_rows WHERE table_id = ? AND seq > ?"
        args: list[Any] = [table, after]
        if game is not None:
            sql += " AND game = ?"
            args.append(game)
        sql += " ORDER BY seq"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [
            JournalEntry(
                table=str(t),
                seq=int(s),
                game=int(g),
                kind=str(k),
                body=str(b),
                meta=str(m),
                at=float(a),
                prev=str(p),
                hash=str(h),
            )
            for t, s, g, k, b, m, a, p, h in self._query(sql, args)
        ]

    def games(self, table: str) -> list[int]:
        rows = self._query(
            "SELECT DISTINCT game FROM floor_rows WHERE table_id = ? ORDER BY game", (table,)
        )
        return [int(g) for (g,) in rows]

    def count(self, table: str | None = None) -> int:
        if table is None:
            return int(self._query("SELECT COUNT(*) FROM floor_rows")[0][0])
        return int(
            self._query("SELECT COUNT(*) FROM floor_rows WHERE table_id = ?", (table,))[0][0]
        )

    def verify(self, table: str) -> int:
        """Walk a table's stored chain from the genesis; returns its length or raises."""
        prev, expected = GENESIS, 1
        for e in self.rows(table):
            own = chain_hash(prev, e.seq, e.game, e.kind, e.body, e.meta, e.at)
            if e.seq != expected or e.prev != prev or own != e.hash:
                raise StoreError(f"table {table}: the stored chain breaks at row {e.seq}")
            prev, expected = e.hash, e.seq + 1
        return expected - 1

    def add_alarm(self, table: str, seq: int, code: str, text: str, at: float) -> None:
        with self._transaction():
            self._execute(
                self._sql(
                    "INSERT INTO floor_alarms (table_id, seq, code, text, at) VALUES (?,?,?,?,?)"
                ),
                (table, seq, code, text, at),
            )

    def alarms(self) -> list[StoredAlarm]:
        rows = self._query("SELECT id, table_id, seq, code, text, at FROM floor_alarms ORDER BY id")
        return [
            StoredAlarm(int(i), str(t), int(s), str(c), str(x), float(a))
            for i, t, s, c, x, a in rows
        ]

    def get_setting(self, key: str) -> Any:
        rows = self._query("SELECT value FROM floor_settings WHERE key = ?", (key,))
        return json.loads(rows[0][0]) if rows else None

    def set_setting(self, key: str, value: Any) -> None:
        text = json.dumps(value, sort_keys=True)
        with self._transaction():
            self._execute(self._sql("DELETE FROM floor_settings WHERE key = ?"), (key,))
            self._execute(
                self._sql("INSERT INTO floor_settings (key, value) VALUES (?, ?)"), (key, text)
            )


_TABLES = """
CREATE TABLE IF NOT EXISTS floor_rows (
    table_id TEXT NOT NULL, seq BIGINT NOT NULL, game BIGINT NOT NULL, kind TEXT NOT NULL,
    body TEXT NOT NULL, meta TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
    prev TEXT NOT NULL, hash TEXT NOT NULL, received DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS floor_heads (
    table_id TEXT PRIMARY KEY, seq BIGINT NOT NULL, hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS floor_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_ALARMS = """
CREATE TABLE IF NOT EXISTS floor_alarms (
    id {serial}, table_id TEXT NOT NULL, seq BIGINT NOT NULL, code TEXT NOT NULL,
    text TEXT NOT NULL, at DOUBLE PRECISION NOT NULL
);
"""


class SqliteStore(Store):
    """One SQLite file in WAL mode; ``synchronous=NORMAL`` unless ``durable``.

    NORMAL is safe against the floor process dying (the chaos test kills it);
    a power cut may lose the last commits, which the tables then resend (the
    floor asks for them when their status says it is behind).
    """

    def __init__(self, path: str, *, durable: bool = False) -> None:
        self.url = f"sqlite:///{path}"
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(
                _TABLES + _ALARMS.format(serial="INTEGER PRIMARY KEY AUTOINCREMENT")
            )
        except sqlite3.DatabaseError as error:
            raise StoreError(f"the floor database {path} cannot be opened ({error})") from None

    def _execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self._db.execute(sql, tuple(args))

    def _execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._db.executemany(sql, rows)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _is_duplicate(self, error: Exception) -> bool:
        return isinstance(error, sqlite3.IntegrityError)

    def close(self) -> None:
        self._db.close()


class PostgresStore(Store):
    """One PostgreSQL connection (psycopg 3); the tables are made on first use."""

    _param = "%s"

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        try:
            self._db = psycopg.connect(url, autocommit=True)
        except psycopg.Error as error:
            raise StoreError(f"the floor database cannot be reached ({error})") from None
        with self._transaction():
            for statement in (_TABLES + _ALARMS.format(serial="BIGSERIAL PRIMARY KEY")).split(";"):
                if statement.strip():
                    self._db.execute(statement)

    def _execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        return self._db.execute(sql, tuple(args))

    def _execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._db.cursor() as cursor:
            cursor.executemany(sql, rows)  # one pipeline: no round trip per row

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._db.transaction():
            yield

    def reconnect(self) -> None:
        import psycopg

        with contextlib.suppress(psycopg.Error):
            self._db.close()
        try:
            self._db = psycopg.connect(self.url, autocommit=True)
        except psycopg.Error as error:
            raise StoreError(f"the floor database cannot be reached ({error})") from None

    def _is_duplicate(self, error: Exception) -> bool:
        import psycopg

        return isinstance(error, psycopg.errors.UniqueViolation)

    def close(self) -> None:
        self._db.close()


def open_store(url: str) -> Store:
    """``sqlite:///path`` (or a bare path) or ``postgresql://...``."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    if url.startswith("sqlite:///"):
        return SqliteStore(url[len("sqlite:///") :])
    if "://" in url:
        raise StoreError(f"--db {url!r}: use sqlite:///PATH or postgresql://...")
    return SqliteStore(url)
