"""Copies of the journal, made safely while the table plays.

A journal is an SQLite file in WAL mode that the table writes to all evening:
copying the file (or the file without its ``-wal``) can catch it half-written.
SQLite's online backup API copies a consistent snapshot page by page under a
read transaction, which in WAL mode never blocks the table's writer.  The copy
is written beside its final name and renamed into place only after its hash
chain verifies, so a backup folder never holds a torn or damaged copy, and a
journal that has gone bad does not replace the last good backup.

:class:`AutoBackup` makes one at the end of each game (when the table's
snapshot turns ``game_over``), in a worker thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controller.journal import Journal, JournalError

log = logging.getLogger(__name__)


class BackupError(Exception):
    """A backup could not be made; the message says why in plain words."""


def stamped_name(journal: Path, when: datetime | None = None) -> str:
    """``table-1.journal.sqlite`` -> ``table-1.journal-20261202T004501Z.sqlite``."""
    when = when or datetime.now(UTC)
    stem = journal.name.removesuffix(".sqlite")
    return f"{stem}-{when.strftime('%Y%m%dT%H%M%SZ')}.sqlite"


def backup_journal(journal: str | Path, folder: str | Path, name: str | None = None) -> Path:
    """Copy ``journal`` into ``folder`` (as ``name``, default a time-stamped name).

    Returns the copy's path.  Raises BackupError when the journal is missing,
    the folder cannot be written, or the copy's chain does not verify.
    """
    source, folder = Path(journal), Path(folder)
    if not source.is_file():
        raise BackupError(f"no journal at {source}")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"cannot create the backup folder {folder} ({exc.strerror})") from exc
    target = folder / (name or stamped_name(source))
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        src = sqlite3.connect(source)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
        with Journal(partial) as copy:  # the copy's chain must verify before it counts
            copy.verify()
        with open(partial, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(partial, target)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"cannot copy {source}: {exc}") from exc
    except JournalError as exc:
        raise BackupError(f"the copy of {source} does not verify, backup not kept: {exc}") from exc
    except OSError as exc:
        raise BackupError(f"cannot write in {folder} ({exc.strerror or exc})") from exc
    finally:
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
    return target


class AutoBackup:
    """At each game's end, copy the journal to ``folder`` in a worker thread.

    Each game's copy is kept under its own time-stamped name; a failed backup
    is logged (the table plays on: a backup is never a reason to stop a game).
    """

    def __init__(self, journal: str | Path, folder: str | Path,
                 done: Callable[[Path], None] | None = None) -> None:
        self.journal = Path(journal)
        self.folder = Path(folder)
        self.done = done
        self._over: bool | None = None
        self.tasks: set[asyncio.Future[Any]] = set()

    def on_snapshot(self, snapshot: Mapping[str, Any]) -> None:
        """A table listener: start a backup when ``game_over`` turns true."""
        over = bool(snapshot.get("game_over"))
        if over and self._over is False:
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(None, self._backup)
            self.tasks.add(future)
            future.add_done_callback(self.tasks.discard)
        self._over = over

    def _backup(self) -> None:
        try:
            path = backup_journal(self.journal, self.folder)
        except BackupError as exc:
            log.error("backup at the end of the game failed: %s", exc)
            return
        log.info("journal backed up to %s", path)
        if self.done is not None:
            self.done(path)
