"""The journal: every event that changes the game, written down before it happens.

The table's memory is not the process: the power can go at any moment.  So the
controller appends each engine action here *before* applying it, one SQLite
transaction per action (WAL, ``synchronous=FULL``: the commit returns only after
the write-ahead log is fsynced).  After a crash the table state is the engine's
new game with every journalled action applied again, in order: the engine is
deterministic, so that is exactly the state before the crash.

Rows are append-only and chained: each row's hash covers the previous row's
hash, so a corrupted or edited row is found on opening; the head (last sequence
number and hash) is kept in the same transaction as each row, so a journal that
lost its tail is found as well.  A broken journal is refused with the last
consistent point named, and :meth:`Journal.recover` can continue from there
(the rows after it are kept aside in a ``quarantine`` table, never deleted).

A journal file can hold several games: each starts with a ``game`` row carrying
the setup (rules, players, banker, seed); ``action`` rows follow, in the rules
engine's own JSON action format, with optional ``meta`` (where a card reading
came from, the shoe's event number) that the organiser's export shows but the
rebuild ignores.  ``table`` rows record table events that are not engine
actions (the dealer confirmed the payouts), so a restart resumes at the same
point of the dealer's routine too.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
GENESIS = "0" * 64

_SCHEMA = """
CREATE TABLE IF NOT EXISTS info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rows (
    seq INTEGER PRIMARY KEY,
    game INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    meta TEXT NOT NULL,
    at REAL NOT NULL,
    hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS quarantine (
    seq INTEGER, game INTEGER, kind TEXT, body TEXT, meta TEXT, at REAL, hash TEXT,
    moved_at REAL NOT NULL, reason TEXT NOT NULL
);
"""


#: the chain head (last row and its hash) in one statement: it runs once per action
_SET_HEAD = (
    "UPDATE info SET value = CASE key WHEN 'head_seq' THEN ?1 ELSE ?2 END "
    "WHERE key IN ('head_seq', 'head_hash')"
)


class JournalError(Exception):
    """The journal cannot be used; the message says why in plain words."""


class JournalBroken(JournalError):
    """The journal is damaged after ``last_good`` (0: nothing usable)."""

    def __init__(self, message: str, last_good: int) -> None:
        super().__init__(message)
        self.last_good = last_good


@dataclass(frozen=True)
class Row:
    seq: int
    game: int
    kind: str  # "game" (a new game's setup), "action" (engine action), "table" (table event)
    body: dict[str, Any]
    meta: dict[str, Any]
    at: float
    hash: str


def _canonical(value: Mapping[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(prev: str, seq: int, game: int, kind: str, body: str, meta: str, at: float) -> str:
    """The row's hash: it covers the previous row's, so no row can change unseen.

    Public because the event floor checks a table's published rows with it.
    """
    text = f"{prev}\n{seq}\n{game}\n{kind}\n{body}\n{meta}\n{at!r}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Journal:
    """An append-only, hash-chained, fsynced log of one table's games.

    ``durable=False`` lowers SQLite's ``synchronous`` to NORMAL (still crash-safe
    for the process, not for the power): for simulations and benchmarks only.
    """

    def __init__(self, path: str | Path, *, durable: bool = True, check: bool = True) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.DatabaseError as exc:
            raise JournalBroken(
                f"journal {self.path} cannot be read by SQLite ({exc}); "
                "restore it from a copy or start a new journal file",
                last_good=0,
            ) from exc
        try:
            self._open(durable=durable, check=check)
        except BaseException:
            # A refused file must not stay open (and locked) behind the refusal.
            self._db.close()
            raise

    def _open(self, *, durable: bool, check: bool) -> None:
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self._db.executescript(_SCHEMA)
            self._init_info()
        except sqlite3.DatabaseError as exc:
            raise JournalBroken(
                f"journal {self.path} cannot be read by SQLite ({exc}); "
                "restore it from a copy or start a new journal file",
                last_good=0,
            ) from exc
        try:
            self._head_seq, self._head_hash, self._game = self._read_head()
        except (sqlite3.DatabaseError, ValueError, KeyError) as exc:  # a flipped byte
            raise JournalBroken(
                f"journal {self.path} cannot be read by SQLite ({exc}); "
                "restore it from a copy or start a new journal file",
                last_good=0,
            ) from exc
        if check:
            self.verify()

    # -- setup -------------------------------------------------------------

    def _init_info(self) -> None:
        rows = dict(self._db.execute("SELECT key, value FROM info").fetchall())
        if not rows:
            with self._transaction():
                self._db.executemany(
                    "INSERT INTO info (key, value) VALUES (?, ?)",
                    [("schema", str(SCHEMA_VERSION)), ("head_seq", "0"), ("head_hash", GENESIS)],
                )
        elif rows.get("schema") != str(SCHEMA_VERSION):
            raise JournalError(
                f"journal {self.path} has schema {rows.get('schema')!r}; "
                f"this program reads schema {SCHEMA_VERSION}"
            )

    def _read_head(self) -> tuple[int, str, int]:
        info = dict(self._db.execute("SELECT key, value FROM info").fetchall())
        game_row = self._db.execute("SELECT MAX(game) FROM rows").fetchone()
        game = int(game_row[0]) if game_row and game_row[0] is not None else 0
        return int(info["head_seq"]), str(info["head_hash"]), game

    class _Tx:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> None:
            self.db.execute("BEGIN IMMEDIATE")

        def __exit__(self, kind: object, value: object, tb: object) -> None:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")

    def _transaction(self) -> Journal._Tx:
        return Journal._Tx(self._db)

    # -- writing -----------------------------------------------------------

    @property
    def head(self) -> int:
        """Sequence number of the last row (0 for an empty journal)."""
        return self._head_seq

    @property
    def game(self) -> int:
        """Number of the current (latest) game; 0 when none has started."""
        return self._game

    def start_game(self, setup: Mapping[str, Any]) -> int:
        """Begin a new game with its setup; returns the new game number."""
        self._write(self._game + 1, "game", setup, {})
        self._game += 1
        return self._game

    def append(
        self,
        action: Mapping[str, Any],
        meta: Mapping[str, Any] | None = None,
        *,
        effect: Callable[[], object] | None = None,
    ) -> int:
        """Append one engine action to the current game and make it durable.

        ``effect`` (applying the action to the engine) runs inside the
        transaction, after the row is written and before the commit: if it
        raises, the row is rolled back, so the journal never holds an action
        the engine refused; if the process dies before the commit, neither the
        row nor any visible effect exists.
        """
        if self._game == 0:
            raise JournalError("no game started in this journal")
        return self._write(self._game, "action", action, meta or {}, effect)

    def note(self, event: Mapping[str, Any]) -> int:
        """Append a table event that is not an engine action (e.g. payouts confirmed)."""
        if self._game == 0:
            raise JournalError("no game started in this journal")
        return self._write(self._game, "table", event, {})

    def _write(
        self,
        game: int,
        kind: str,
        body: Mapping[str, Any],
        meta: Mapping[str, Any],
        effect: Callable[[], object] | None = None,
    ) -> int:
        seq = self._head_seq + 1
        body_text, meta_text = _canonical(body), _canonical(meta)
        at = round(time.time(), 6)
        digest = chain_hash(self._head_hash, seq, game, kind, body_text, meta_text, at)
        with self._transaction():
            self._db.execute(
                "INSERT INTO rows (seq, game, kind, body, meta, at, hash) VALUES (?,?,?,?,?,?,?)",
                (seq, game, kind, body_text, meta_text, at, digest),
            )
            self._db.execute(_SET_HEAD, (str(seq), digest))
            if effect is not None:
                effect()
        self._head_seq, self._head_hash = seq, digest
        return seq

    # -- reading -----------------------------------------------------------

    def rows(self, game: int | None = None) -> Iterator[Row]:
        """The rows of one game (default: the latest), in order."""
        game = self._game if game is None else game
        cursor = self._db.execute(
            "SELECT seq, game, kind, body, meta, at, hash FROM rows WHERE game=? ORDER BY seq",
            (game,),
        )
        for seq, g, kind, body, meta, at, digest in cursor:
            yield Row(seq, g, kind, json.loads(body), json.loads(meta), at, digest)

    def games(self) -> list[int]:
        return [int(g) for (g,) in self._db.execute("SELECT DISTINCT game FROM rows ORDER BY game")]

    def setup(self, game: int | None = None) -> dict[str, Any]:
        """The setup row of a game."""
        for row in self.rows(game):
            if row.kind == "game":
                return row.body
        raise JournalError(f"journal {self.path} has no game {game or self._game}")

    def actions(self, game: int | None = None) -> list[dict[str, Any]]:
        return [row.body for row in self.rows(game) if row.kind == "action"]

    # -- integrity ---------------------------------------------------------

    def verify(self) -> None:
        """Walk the chain; raise JournalBroken naming the last consistent row."""
        prev, expected, last_good = GENESIS, 1, 0
        cursor: sqlite3.Cursor | None = None
        self._walked = 0
        try:
            # inside the try: executing already reads the first row, which may be the damaged one
            cursor = self._db.execute(
                "SELECT seq, game, kind, body, meta, at, hash FROM rows ORDER BY seq"
            )
            self._walk(cursor, prev, expected, last_good)
        except sqlite3.DatabaseError as exc:
            # a damaged page: SQLite itself cannot read on; say so, never a traceback
            raise JournalBroken(
                f"journal {self.path} is damaged: SQLite cannot read it past row "
                f"{self._walked} ({exc}); restore it from a copy or start a new journal file",
                last_good=self._walked,
            ) from exc
        finally:
            if cursor is not None:
                cursor.close()  # a live statement would keep a closed connection's file open

    def _walk(self, cursor: sqlite3.Cursor, prev: str, expected: int, last_good: int) -> None:
        for seq, game, kind, body, meta, at, digest in cursor:
            problem = None
            if seq != expected:
                problem = f"row {expected} is missing"
            elif kind not in ("game", "action", "table"):
                problem = f"row {seq} has an unknown kind {kind!r}"
            elif chain_hash(prev, seq, game, kind, body, meta, at) != digest:
                problem = f"row {seq} does not match its checksum (changed or damaged)"
            else:
                try:
                    json.loads(body)
                    json.loads(meta)
                except ValueError:
                    problem = f"row {seq} is not valid JSON"
            if problem:
                raise self._broken(problem, last_good)
            prev, expected, last_good = digest, seq + 1, seq
            self._walked = seq
        if self._head_seq != last_good or (last_good and self._head_hash != prev):
            raise self._broken(
                f"the journal ends at row {last_good} but its last commit was row {self._head_seq} "
                "(rows lost)",
                last_good,
            )

    def _broken(self, problem: str, last_good: int) -> JournalBroken:
        return JournalBroken(
            f"journal {self.path} is damaged: {problem}; the last consistent point is "
            f"{self.describe(last_good)}. Start with --recover to continue from there "
            "(the rows after it are kept aside, not deleted).",
            last_good,
        )

    def describe(self, seq: int) -> str:
        """Plain words for a journal position: 'row 41 (game 1, action 37)'."""
        if seq == 0:
            return "the empty journal"
        row = self._db.execute("SELECT game FROM rows WHERE seq=?", (seq,)).fetchone()
        if row is None:
            return f"row {seq}"
        game = int(row[0])
        count = self._db.execute(
            "SELECT COUNT(*) FROM rows WHERE game=? AND kind='action' AND seq<=?", (game, seq)
        ).fetchone()[0]
        return f"row {seq} (game {game}, action {count})"

    def recover(self, last_good: int, reason: str = "recovered after damage") -> int:
        """Continue from ``last_good``: move every later row to quarantine.

        Returns how many rows were set aside.  The chain head is reset to
        ``last_good`` so appends continue a valid chain.
        """
        now = time.time()
        with self._transaction():
            moved = self._db.execute(
                "INSERT INTO quarantine SELECT seq, game, kind, body, meta, at, hash, ?, ? "
                "FROM rows WHERE seq>?",
                (now, reason, last_good),
            ).rowcount
            self._db.execute("DELETE FROM rows WHERE seq>?", (last_good,))
            head = self._db.execute("SELECT hash FROM rows WHERE seq=?", (last_good,)).fetchone()
            digest = str(head[0]) if head else GENESIS
            self._db.execute("UPDATE info SET value=? WHERE key='head_seq'", (str(last_good),))
            self._db.execute("UPDATE info SET value=? WHERE key='head_hash'", (digest,))
        self._head_seq, self._head_hash, self._game = self._read_head()
        return int(moved)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
