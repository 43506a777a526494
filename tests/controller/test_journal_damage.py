"""The journal's refusals where SQLite itself fails, and its use from another
thread (controller/journal.py's docstring: a broken journal is refused with
the last consistent point named, in plain words; docs/controller.md).

The damaged file is made by hand: a row too long for one SQLite page keeps
its tail in *overflow pages*; pointing one of those at a page past the end
of the file leaves every page SQLite needs to open the journal intact (the
schema, the head, the row numbers) while the row itself can no longer be
read.  That is damage below SQLite's page level, unlike the edited rows of
``test_journal_edges.py``.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from controller.journal import Journal, JournalBroken

SETUP = {"rules": "house", "players": ["Ann", "Bob"], "banker": "Bob", "seed": 7}
ADVICE = "restore it from a copy or start a new journal file"


def _page_size(path: Path) -> int:
    db = sqlite3.connect(path)
    size = int(db.execute("PRAGMA page_size").fetchone()[0])
    db.close()
    return size


def _break_overflow_of(path: Path, marker: bytes) -> None:
    """Point the first overflow page holding ``marker`` at a page that does not exist."""
    data = bytearray(path.read_bytes())
    size = _page_size(path)
    for start in range(size, len(data), size):
        # an overflow page: 4 bytes (the next page's number), then payload only
        if data[start + 4 : start + 4 + 64] == marker * 64:
            data[start : start + 4] = (0x7FFFFFFF).to_bytes(4, "big")
            path.write_bytes(bytes(data))
            return
    raise AssertionError("no overflow page found")  # pragma: no cover - the file's layout


def test_a_row_sqlite_cannot_read_is_refused_naming_the_rows_before_it(tmp_path: Path) -> None:
    """Row 4's long body is damaged in the file.  Python's sqlite3 reads one
    row ahead (the step that fails on row 4 is taken while row 3 is handed
    over), so the rows SQLite delivered are 1 and 2: expected by hand, the
    journal is refused as damaged "past row 2" with ``last_good`` 2 (a safe
    point: row 3 is set aside by a recovery, not lost) and the advice to
    restore it."""
    path = tmp_path / "j.sqlite"
    with Journal(path, durable=False) as j:
        j.start_game(SETUP)
        j.append({"type": "StartDeal"})
        j.note({"event": "payouts_confirmed"})
        j.note({"event": "long", "text": "Q" * 20000})
        j.append({"type": "StartDeal"})
    _break_overflow_of(path, b"Q")
    with pytest.raises(JournalBroken) as err:
        Journal(path)
    assert err.value.last_good == 2
    message = str(err.value)
    assert message.startswith(f"journal {path} is damaged: SQLite cannot read it past row 2 (")
    assert message.endswith(f"); {ADVICE}")
    # opened without the check (to recover), verify() says the same
    with Journal(path, check=False) as j:
        with pytest.raises(JournalBroken) as again:
            j.verify()
        assert again.value.last_good == 2 and str(again.value) == message


def test_damage_in_the_first_row_leaves_nothing_usable(tmp_path: Path) -> None:
    """The game row itself cannot be read: by hand, nothing before it, so
    ``last_good`` is 0 and the message says "past row 0" (this one was a
    traceback until the query itself moved under the refusal)."""
    path = tmp_path / "j.sqlite"
    with Journal(path, durable=False) as j:
        j.start_game({**SETUP, "note": "Z" * 20000})
    _break_overflow_of(path, b"Z")
    with pytest.raises(JournalBroken, match="SQLite cannot read it past row 0 ") as err:
        Journal(path)
    assert err.value.last_good == 0


def test_an_unreadable_head_is_refused_with_the_full_advice(tmp_path: Path) -> None:
    """The head's row number is not a number: the journal cannot be read at
    all (``last_good`` 0), and the refusal says what to do, word for word."""
    path = tmp_path / "j.sqlite"
    with Journal(path, durable=False) as j:
        j.start_game(SETUP)
    db = sqlite3.connect(path)
    db.execute("UPDATE info SET value='x' WHERE key='head_seq'")
    db.commit()
    db.close()
    with pytest.raises(JournalBroken) as err:
        Journal(path)
    assert err.value.last_good == 0
    assert str(err.value).startswith(f"journal {path} cannot be read by SQLite (")
    assert str(err.value).endswith(f"); {ADVICE}")


def test_a_journal_opened_on_one_thread_can_be_used_on_another(tmp_path: Path) -> None:
    """docs/controller.md: the journal may be opened before the thread that
    uses it takes over (one thread at a time).  Written on a second thread,
    then read back on the first: the rows are there, in order."""
    path = tmp_path / "j.sqlite"
    j = Journal(path, durable=False)
    j.start_game(SETUP)
    failures: list[BaseException] = []

    def write() -> None:
        try:
            j.append({"type": "StartDeal"})
            j.note({"event": "payouts_confirmed"})
        except BaseException as exc:  # reported on the main thread below
            failures.append(exc)

    worker = threading.Thread(target=write)
    worker.start()
    worker.join()
    assert failures == []
    assert j.head == 3 and j.actions() == [{"type": "StartDeal"}]
    j.close()
    with Journal(path) as again:
        assert [r.kind for r in again.rows()] == ["game", "action", "table"]
