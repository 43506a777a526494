"""The journal keeps every action, survives reopening and refuses damage."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from controller.journal import Journal, JournalBroken, JournalError

SETUP = {"rules": "house", "options": {}, "players": ["Ann", "Bob"], "banker": "Bob", "seed": 1}


def filled(path: Path, actions: int = 5) -> Journal:
    journal = Journal(path)
    journal.start_game(SETUP)
    for i in range(actions):
        journal.append({"type": "stake", "player": "Ann", "amount": i + 1}, {"source": "panel"})
    return journal


def test_rows_survive_reopening_in_order(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    filled(path).close()
    journal = Journal(path)
    assert journal.head == 6
    assert journal.game == 1
    assert journal.setup() == SETUP
    assert [a["amount"] for a in journal.actions()] == [1, 2, 3, 4, 5]
    assert next(r.meta for r in journal.rows() if r.kind == "action") == {"source": "panel"}
    journal.append({"type": "stake", "player": "Ann", "amount": 9})
    journal.close()
    assert Journal(path).actions()[-1]["amount"] == 9


def test_games_are_kept_apart(tmp_path: Path) -> None:
    journal = filled(tmp_path / "j.sqlite", 2)
    journal.start_game({**SETUP, "seed": 2})
    journal.append({"type": "x"})
    assert journal.games() == [1, 2]
    assert journal.setup()["seed"] == 2
    assert journal.actions() == [{"type": "x"}]
    assert len(journal.actions(1)) == 2


def test_append_without_a_game_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no game started"):
        Journal(tmp_path / "j.sqlite").append({"type": "x"})


def test_wal_and_full_sync_are_on(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def tamper(path: Path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


def test_a_changed_row_is_found_and_the_last_good_point_named(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    filled(path).close()
    body = '{"type":"stake","player":"Ann","amount":99}'
    tamper(path, f"UPDATE rows SET body='{body}' WHERE seq=4")
    with pytest.raises(JournalBroken) as caught:
        Journal(path)
    assert caught.value.last_good == 3
    message = str(caught.value)
    assert "row 4 does not match its checksum" in message
    assert "row 3 (game 1, action 2)" in message
    assert "--recover" in message


def test_lost_tail_is_found(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    filled(path).close()
    tamper(path, "DELETE FROM rows WHERE seq>=5")
    with pytest.raises(JournalBroken, match="ends at row 4 but its last commit was row 6") as err:
        Journal(path)
    assert err.value.last_good == 4


def test_a_missing_middle_row_is_found(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    filled(path).close()
    tamper(path, "DELETE FROM rows WHERE seq=2")
    with pytest.raises(JournalBroken, match="row 2 is missing") as caught:
        Journal(path)
    assert caught.value.last_good == 1


def test_recover_sets_bad_rows_aside_and_the_chain_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    filled(path).close()
    tamper(path, "UPDATE rows SET meta='{}' WHERE seq=5")
    with pytest.raises(JournalBroken) as caught:
        Journal(path)
    journal = Journal(path, check=False)
    assert journal.recover(caught.value.last_good) == 2
    assert journal.head == 4
    journal.append({"type": "after"})
    journal.close()
    reopened = Journal(path)
    assert [a.get("amount") for a in reopened.actions()] == [1, 2, 3, None]
    kept = reopened._db.execute("SELECT seq FROM quarantine ORDER BY seq").fetchall()
    assert kept == [(5,), (6,)]


def test_garbage_file_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalBroken, match="cannot be read by SQLite"):
        Journal(path)


def test_a_refused_effect_rolls_the_row_back(tmp_path: Path) -> None:
    journal = filled(tmp_path / "j.sqlite", 1)

    def refuse() -> None:
        raise ValueError("the engine says no")

    with pytest.raises(ValueError, match="engine says no"):
        journal.append({"type": "bad"}, effect=refuse)
    applied: list[int] = []
    journal.append({"type": "good"}, effect=lambda: applied.append(1))
    journal.note({"event": "payouts_done"})
    journal.close()
    reopened = Journal(tmp_path / "j.sqlite")
    assert [a["type"] for a in reopened.actions()] == ["stake", "good"]
    assert applied == [1]
    assert [r.kind for r in reopened.rows()][-1] == "table"


def _open_handles(path: Path) -> int:
    """Descriptors of this process open on ``path`` (or its -wal / -shm files)."""
    fd_dir = Path("/proc/self/fd")
    count = 0
    for fd in fd_dir.iterdir():
        try:
            target = str(fd.resolve())
        except OSError:
            continue
        if target.startswith(str(path.resolve())):
            count += 1
    return count


def test_a_refused_journal_is_not_left_open(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    filled(path).close()
    tamper(path, "DELETE FROM rows WHERE seq=2")
    assert _open_handles(path) == 0
    with pytest.raises(JournalBroken) as caught:
        Journal(path)
    # the refusal (and its traceback, which holds the half-made journal) is still alive
    assert caught.value.last_good == 1
    assert _open_handles(path) == 0
