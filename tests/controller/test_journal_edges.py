"""The journal's promises at their edges (controller/journal.py's docstring and
docs/controller.md): append-only rows chained by hash, the head kept with each
row, damage named with the last consistent point, recovery that sets rows
aside, and plain-word refusals.  Each damaged file is made by hand with SQLite.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from controller.journal import GENESIS, Journal, JournalBroken, JournalError

SETUP = {"rules": "house", "players": ["Ann", "Bob"], "banker": "Bob", "seed": 7}


def _filled(path: Path) -> Journal:
    """Rows: 1 game, 2 action, 3 table, 4 action, 5 game (game 2), 6 action."""
    j = Journal(path, durable=False)
    j.start_game(SETUP)
    j.append({"type": "StartDeal"}, {"source": "shoe", "event_no": 4})
    j.note({"event": "payouts_confirmed"})
    j.append({"type": "DealCard", "card": "AS"})
    j.start_game({**SETUP, "seed": 8})
    j.append({"type": "StartDeal"})
    return j


def _sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    for s in statements:
        db.execute(s)
    db.commit()
    db.close()


def test_an_empty_journal_has_no_game_and_refuses_actions_and_notes(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite")
    assert j.head == 0 and j.game == 0 and j.games() == []
    assert j.describe(0) == "the empty journal"
    with pytest.raises(JournalError, match=r"^no game started in this journal$"):
        j.note({"event": "x"})
    with pytest.raises(JournalError, match=r"^no game started in this journal$"):
        j.append({"type": "StartDeal"})
    with pytest.raises(JournalError, match="has no game 0"):
        j.setup()
    j.close()


def test_rows_games_setups_and_actions_read_back(tmp_path: Path) -> None:
    with _filled(tmp_path / "j.sqlite") as j:
        assert j.head == 6 and j.game == 2 and j.games() == [1, 2]
        assert j.setup(1) == SETUP
        assert j.setup() == {**SETUP, "seed": 8}  # the latest game by default
        assert j.actions(1) == [{"type": "StartDeal"}, {"type": "DealCard", "card": "AS"}]
        assert j.actions() == [{"type": "StartDeal"}]
        rows = list(j.rows(1))
        assert [(r.seq, r.game, r.kind) for r in rows] == [
            (1, 1, "game"), (2, 1, "action"), (3, 1, "table"), (4, 1, "action")]
        assert rows[1].meta == {"source": "shoe", "event_no": 4}
        assert rows[2].body == {"event": "payouts_confirmed"} and rows[2].meta == {}
        assert rows[3].meta == {}
        assert len({r.hash for r in rows}) == 4 and all(len(r.hash) == 64 for r in rows)
        with pytest.raises(JournalError, match="no game 3"):
            j.setup(3)
    with Journal(tmp_path / "j.sqlite") as again:  # reopening checks the chain and goes on
        assert again.head == 6 and again.game == 2
        assert again.start_game(SETUP) == 3


def test_positions_are_described_in_plain_words(tmp_path: Path) -> None:
    with _filled(tmp_path / "j.sqlite") as j:
        assert j.describe(1) == "row 1 (game 1, action 0)"
        assert j.describe(3) == "row 3 (game 1, action 1)"
        assert j.describe(4) == "row 4 (game 1, action 2)"
        assert j.describe(6) == "row 6 (game 2, action 1)"
        assert j.describe(99) == "row 99"


def test_an_effect_runs_after_the_row_is_written_and_its_failure_undoes_the_row(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.sqlite"
    j = Journal(path, durable=False)
    j.start_game(SETUP)
    seen = []
    seq = j.append({"type": "StartDeal"}, effect=lambda: seen.append(j.head))
    assert seq == 2 and seen == [1]  # the head moves only once the row is committed

    def refuse() -> None:
        raise ValueError("the engine says no")

    with pytest.raises(ValueError, match="the engine says no"):
        j.append({"type": "DealCard", "card": "AS"}, effect=refuse)
    assert j.head == 2
    assert j.append({"type": "DealCard", "card": "KS"}) == 3
    j.close()
    with Journal(path) as again:
        assert again.actions() == [{"type": "StartDeal"}, {"type": "DealCard", "card": "KS"}]


@pytest.mark.parametrize(
    ("damage", "words", "last_good"),
    [
        ("UPDATE rows SET body='{\"type\":\"Void\"}' WHERE seq=4", "row 4 does not match", 3),
        ("UPDATE rows SET kind='other' WHERE seq=3", "row 3 has an unknown kind 'other'", 2),
        ("DELETE FROM rows WHERE seq=2", "row 2 is missing", 1),
        ("DELETE FROM rows WHERE seq=6", "ends at row 5 but its last commit was row 6", 5),
        ("UPDATE info SET value='" + "1" * 64 + "' WHERE key='head_hash'", "rows lost", 6),
        ("UPDATE rows SET hash='" + GENESIS + "' WHERE seq=1", "row 1 does not match", 0),
    ],
)
def test_damage_is_named_with_the_last_consistent_point(
    tmp_path: Path, damage: str, words: str, last_good: int
) -> None:
    path = tmp_path / "j.sqlite"
    _filled(path).close()
    _sql(path, damage)
    with pytest.raises(JournalBroken, match=words) as err:
        Journal(path)
    assert err.value.last_good == last_good
    assert "--recover" in str(err.value)
    # check=False opens it anyway (to recover), and verify() says the same
    j = Journal(path, check=False)
    with pytest.raises(JournalBroken, match=words):
        j.verify()
    j.close()


def test_a_row_whose_json_is_broken_but_whose_hash_matches_is_refused(tmp_path: Path) -> None:
    """A writer bug, not bit rot: the chain holds but the body cannot be read."""
    path = tmp_path / "j.sqlite"
    j = Journal(path, durable=False)
    j.start_game(SETUP)
    (row,) = list(j.rows())
    j.close()
    body, at = "{not json", row.at
    text = f"{GENESIS}\n1\n1\ngame\n{body}\n{{}}\n{at!r}"
    digest = hashlib.sha256(text.encode()).hexdigest()
    _sql(path, f"UPDATE rows SET body='{body}', hash='{digest}' WHERE seq=1",
         f"UPDATE info SET value='{digest}' WHERE key='head_hash'")
    with pytest.raises(JournalBroken, match="row 1 is not valid JSON") as err:
        Journal(path)
    assert err.value.last_good == 0
    assert "the empty journal" in str(err.value)


def test_recover_sets_the_rows_after_the_point_aside_and_appends_go_on(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    _filled(path).close()
    _sql(path, "UPDATE rows SET body='{}' WHERE seq=5")
    j = Journal(path, check=False)
    assert j.recover(4, reason="test") == 2
    assert j.head == 4 and j.game == 1
    assert j.append({"type": "StartDeal"}) == 5
    j.close()
    with Journal(path) as again:
        assert [r.seq for r in again.rows()] == [1, 2, 3, 4, 5]
        kept = again._db.execute("SELECT seq, reason FROM quarantine ORDER BY seq").fetchall()
        assert kept == [(5, "test"), (6, "test")]


def test_recover_to_the_start_empties_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    _filled(path).close()
    j = Journal(path, check=False)
    assert j.recover(0) == 6
    assert j.head == 0 and j.game == 0
    assert j.start_game(SETUP) == 1
    j.close()
    with Journal(path) as again:
        assert again.head == 1


def test_another_schema_is_refused_with_both_versions(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    Journal(path).close()
    _sql(path, "UPDATE info SET value='9' WHERE key='schema'")
    with pytest.raises(JournalError, match="has schema '9'; this program reads schema 1"):
        Journal(path)


def test_a_head_that_cannot_be_read_is_refused_as_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    _filled(path).close()
    _sql(path, "UPDATE info SET value='x' WHERE key='head_seq'")
    with pytest.raises(JournalBroken, match="cannot be read") as err:
        Journal(path)
    assert err.value.last_good == 0



def test_the_damage_message_says_what_to_do_in_full(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    _filled(path).close()
    _sql(path, "DELETE FROM rows WHERE seq=2")
    with pytest.raises(JournalBroken) as err:
        Journal(path)
    assert str(err.value) == (
        f"journal {path} is damaged: row 2 is missing; the last consistent point is "
        "row 1 (game 1, action 0). Start with --recover to continue from there "
        "(the rows after it are kept aside, not deleted)."
    )


def test_recover_says_why_the_rows_were_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    _filled(path).close()
    with Journal(path, check=False) as j:
        assert j.recover(5) == 1
        kept = j._db.execute("SELECT seq, reason FROM quarantine").fetchall()
    assert kept == [(6, "recovered after damage")]


def test_a_file_sqlite_cannot_open_is_refused_in_plain_words(tmp_path: Path) -> None:
    with pytest.raises(JournalBroken) as err:
        Journal(tmp_path)  # a folder, not a file
    assert err.value.last_good == 0
    assert str(err.value).startswith(f"journal {tmp_path} cannot be read by SQLite (")
    assert str(err.value).endswith("); restore it from a copy or start a new journal file")


def test_a_file_that_is_not_a_journal_is_refused_in_plain_words(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"not a database at all " * 200)
    with pytest.raises(JournalBroken) as err:
        Journal(path)
    assert err.value.last_good == 0
    assert str(err.value).endswith("); restore it from a copy or start a new journal file")


def test_a_journal_for_simulations_syncs_less() -> None:
    """durable=False: synchronous NORMAL (1), still WAL."""
    j = Journal(":memory:", durable=False)
    assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 1
    j.close()


def test_a_lost_tail_is_named_in_full(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    _filled(path).close()
    _sql(path, "DELETE FROM rows WHERE seq=6")
    with pytest.raises(JournalBroken) as err:
        Journal(path)
    assert "the journal ends at row 5 but its last commit was row 6 (rows lost); " in str(
        err.value
    )
