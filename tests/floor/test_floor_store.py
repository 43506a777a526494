"""The floor's store, SQLite and a real PostgreSQL server, through the same tests.

Expected contents are the rows the test wrote (floor_rows.py hashes them from
the documented formula): what goes in comes out, to the byte and the float,
exactly once per (table, seq).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from floor_rows import chain, small_game
from pg_kit import fresh_database, pg_server

from floor.store import Store, StoreConflict, StoreError, open_store

__all__ = ["pg_server"]  # the session's PostgreSQL server, a fixture
_names = itertools.count()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'floor.db'}"
    server: str = request.getfixturevalue("pg_server")
    return fresh_database(server, f"floor_{next(_names)}")


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    yield s
    s.close()


def test_rows_come_back_exactly_as_written(db_url: str) -> None:
    rows = small_game(count=4)
    # an awkward body: non-ASCII, escapes, a number that JSON would rewrite
    rows = chain("table-1", [("game", {"players": ["Zoë", "Bob"], "x": 'a\\b"c', "f": 1.10})])
    rows += chain(
        "table-1",
        [("action", {"type": "StartDeal"})],
        prev=rows[0].hash,
        first=2,
        at=1796173078.480881,
    )
    store = open_store(db_url)
    assert store.append(rows) == 2
    store.close()
    again = open_store(db_url)  # a restarted floor reads what the first one wrote
    assert again.rows("table-1") == rows
    assert again.heads() == [("table-1", 2, rows[1].hash)]
    assert again.verify("table-1") == 2  # the hash recomputes from the stored text
    again.close()


def test_a_row_is_stored_once_and_a_failed_batch_stores_nothing(store: Store) -> None:
    rows = small_game(count=5)
    store.append(rows[:3])
    with pytest.raises(StoreConflict):
        store.append([rows[2]])  # the same row again
    with pytest.raises(StoreConflict):
        store.append([rows[3], rows[3]])  # row 4 twice in one batch: all rolled back
    with pytest.raises(StoreConflict):
        store.append([rows[4]])  # row 5 does not follow row 3
    assert store.count("table-1") == 3
    assert store.heads() == [("table-1", 3, rows[2].hash)]
    store.append(rows[3:])
    assert [r.seq for r in store.rows("table-1")] == [1, 2, 3, 4, 5]


def test_the_head_moves_only_along_the_chain(store: Store) -> None:
    rows = small_game(count=2)
    store.append(rows[:1])
    stray = chain("table-1", [("action", {"type": "StartDeal"})], prev="f" * 64, first=2)
    with pytest.raises(StoreConflict):
        store.append(stray)
    assert store.heads() == [("table-1", 1, rows[0].hash)]


def test_two_connections_cannot_store_a_row_twice(db_url: str) -> None:
    rows = small_game(count=2)
    one, two = open_store(db_url), open_store(db_url)
    one.append(rows[:1])
    with pytest.raises(StoreConflict):
        two.append(rows[:1])
    two.append(rows[1:])
    assert one.count() == 2 and one.heads()[0][1] == 2
    one.close()
    two.close()


def test_tables_games_alarms_and_settings(store: Store) -> None:
    store.append(small_game("table-1", count=3))
    store.append(chain("table-2", [("game", {"a": 1})], game=4))
    assert [h[0] for h in store.heads()] == ["table-1", "table-2"]
    assert store.games("table-2") == [4]
    assert [r.seq for r in store.rows("table-1", after=1)] == [2, 3]
    assert store.hash_at("table-1", 9) is None
    store.add_alarm("table-1", 2, "conflict", "Refused row 2", 10.5)
    store.add_alarm("table-2", 1, "broken", "Refused row 1", 11.0)
    assert [(a.table, a.code, a.at) for a in store.alarms()] == [
        ("table-1", "conflict", 10.5),
        ("table-2", "broken", 11.0),
    ]
    store.set_setting("rounds", {"Round 1": {"table-1": [1]}})
    store.set_setting("rounds", {"Round 2": {"table-2": [4]}})
    assert store.get_setting("rounds") == {"Round 2": {"table-2": [4]}}


def test_a_bad_database_url_is_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="sqlite:///"):
        open_store("mysql://nowhere/x")
    with pytest.raises(StoreError, match="cannot be reached"):
        open_store("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")
    (tmp_path / "not-a-db").write_bytes(b"this is not SQLite" * 100)
    with pytest.raises(StoreError, match="cannot be opened"):
        open_store(f"sqlite:///{tmp_path / 'not-a-db'}")


def test_a_batch_of_several_tables_is_stored_whole_or_not_at_all(store: Store) -> None:
    one, two = small_game("table-1", count=4), small_game("table-2", count=3)
    store.append([one[0], two[0], one[1], two[1]])  # interleaved, as the broker delivers
    assert store.heads() == [("table-1", 2, one[1].hash), ("table-2", 2, two[1].hash)]
    stray = chain("table-1", [("action", {"type": "StartDeal"})], prev="e" * 64, first=3)[0]
    with pytest.raises(StoreConflict):
        store.append([two[2], stray])  # table-2's row is good, table-1's is not: neither
    with pytest.raises(StoreConflict):
        store.append([one[2], two[2], one[2]])  # a repeat inside the batch
    assert store.count() == 4
    store.append([two[2], one[2], one[3]])
    assert [r.seq for r in store.rows("table-1")] == [1, 2, 3, 4]
    assert store.verify("table-1") == 4 and store.verify("table-2") == 3
