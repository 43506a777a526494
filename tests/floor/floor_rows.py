"""Journal rows for the floor tests, hashed here from the documented formula.

The hash is computed with ``hashlib`` from docs/journal's formula (previous
hash, seq, game, kind, body, meta, repr(at), one per line), not with
``controller.journal.chain_hash``: the ledger's checks are then held against
an independent reference.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from typing import Any

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
    """A game row then ``count - 1`` actions (``StartDeal`` and dealt cards)."""
    bodies: list[tuple[str, dict[str, Any]]] = [("game", SETUP), ("action", {"type": "StartDeal"})]
    cards = ["AS", "KD", "7C", "5H", "9S", "2D"]
    bodies += [("action", {"type": "DealCard", "card": c}) for c in cards[: max(0, count - 2)]]
    return chain(table, bodies[:count])


def forged(entry: JournalEntry, **changes: Any) -> JournalEntry:
    """The same row with fields changed and the hash left as it was."""
    return replace(entry, **changes)
