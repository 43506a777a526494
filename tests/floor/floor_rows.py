"""Journal rows for the floor tests, hashed here from the documented formula.

The hash is computed with ``hashlib`` from docs/journal's formula (previous
hash, seq, game, kind, body, meta, repr(at), one per line), not with
``controller.journal.chain_hash``: the ledger's checks are then held against
an independent reference.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from floor.messages import JournalEntry

GENESIS = "0" * 64
SETUP = {
    "rules": "house",
    "options": {},
    "players": ["Ann", "Bob"],
    "banker": "Bob",
    "seed": 1,
    "table": "T",
}


def digest(prev: str, seq: int, game: int, kind: str, body: str, meta: str, at: float) -> str:
    text = f"{prev}\n{seq}\n{game}\n{kind}\n{body}\n{meta}\n{at!r}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def text(value: dict[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain(
    table: str,
    bodies: list[tuple[str, dict[str, Any]]],
    *,
    prev: str = GENESIS,
    first: int = 1,
    game: int = 1,
    at: float = 1796173076.128034,
) -> list[JournalEntry]:
    """``[(kind, body), ...]`` as a table would publish them, from row ``first``."""
    rows = []
    for i, (kind, body) in enumerate(bodies):
        seq, when = first + i, round(at + i * 0.37, 6)
        b, m = text(body), text({"source": "dealer"} if kind == "action" else {})
        h = digest(prev, seq, game, kind, b, m, when)
        rows.append(JournalEntry(table, seq, game, kind, b, m, when, prev, h))
        prev = h
    return rows


def small_game(table: str = "table-1", count: int = 4) -> list[JournalEntry]:
    """The first ``count`` rows (up to 8) of a legal house game between Ann and Bob
    (Bob banks): the setup, the deal, the first cards, Ann's stake, her second card."""
    bodies: list[tuple[str, dict[str, Any]]] = [
        ("game", SETUP),
        ("action", {"type": "StartDeal"}),
        ("action", {"type": "DealCard", "card": "AS"}),
        ("action", {"type": "DealCard", "card": "KD"}),
        ("action", {"type": "PlaceStake", "player": "Ann", "amount": 2}),
        ("action", {"type": "DealCard", "card": "7C"}),
        ("action", {"type": "DealCard", "card": "5H"}),
        ("table", {"event": "a table event, not an engine action"}),
    ]
    if not 1 <= count <= len(bodies):
        raise ValueError(f"small_game has 1 to {len(bodies)} rows")
    return chain(table, bodies[:count])


def forged(entry: JournalEntry, **changes: Any) -> JournalEntry:
    """The same row with fields changed and the hash left as it was."""
    return replace(entry, **changes)


SCENARIO = Path(__file__).parent.parent / "scenarios" / "house-split-transfer.json"


@pytest.fixture(scope="session")
def sim_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real table's journal: the whole simulated table (devices, bots) plays
    the scenario ``house-split-transfer`` (its hand-written expected result is
    next to it); once per session."""
    path = tmp_path_factory.mktemp("sim") / "table-1.sqlite"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "controller.cli",
            "sim",
            "--scenario",
            str(SCENARIO),
            "--journal",
            str(path),
            "--json",
            "--compact",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=240,
    )
    return path


def expected_result() -> dict[str, Any]:
    return dict(json.loads(SCENARIO.with_suffix("").with_suffix(".expected.json").read_text()))


def journal_rows(path: Path) -> list[tuple[Any, ...]]:
    """Every row of a table's journal, read with SQLite directly (not the floor's code)."""
    with sqlite3.connect(path) as db:
        return list(
            db.execute("SELECT seq, game, kind, body, meta, at, hash FROM rows ORDER BY seq")
        )


OLD_JOURNAL = Path(__file__).parent.parent / "data" / "journal-v67a8ac4-house-buy-example.sqlite"


def entries_of(path: Path, table: str) -> list[JournalEntry]:
    """A journal file's rows as its table publishes them (``prev`` from the row before)."""
    rows, prev = [], GENESIS
    for seq, game, kind, body, meta, at, h in journal_rows(path):
        rows.append(JournalEntry(table, seq, game, kind, body, meta, at, prev, h))
        prev = h
    return rows
