"""The floor's ledger: each table's chain head, and what to do with a row (pure, no I/O).

A table's journal is a hash chain (:func:`controller.journal.chain_hash`): each
row's hash covers the row and the previous row's hash.  The floor holds, per
table, the head it has stored (last ``seq`` and its hash) and accepts a row
only when it continues that chain: ``seq == head + 1``, ``prev == head hash``
and the hash recomputes from the row's own fields.  So a row edited on the way
(or forged with another table's credentials) cannot be stored, and the floor's
copy is the table's journal, entry for entry.

Anything else gets a named decision, never an exception:

* :class:`Duplicate` -- the same ``(seq, hash)`` again (a QoS 1 redelivery, a
  resend that overlaps): counted, not stored.
* :class:`Conflict` -- a row with a stored ``seq`` but another hash: a table
  that rewrote its history, or a forgery.  Refused and alarmed.
* :class:`Broken` -- a row that does not match its own hash, or whose ``prev``
  is not the stored head's hash.  Refused and alarmed.
* :class:`Gap` -- a row beyond ``head + 1``: rows are missing (a broker lost
  its queue, a floor died between receiving and storing); the floor asks the
  table to resend from ``first_missing`` and does not keep the early row (the
  resend brings it again, in order).

The ledger never looks rows up itself: for a row at or below the head the
caller passes ``stored(seq) -> hash | None`` (the store's answer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from controller.journal import GENESIS, chain_hash

from .messages import JournalEntry


@dataclass(frozen=True)
class Accept:
    """Store the row: it continues the table's chain."""


@dataclass(frozen=True)
class Duplicate:
    """The row is stored already, identical: count it, store nothing."""


@dataclass(frozen=True)
class Conflict:
    """Another row holds this number: refuse and alarm (``reason`` in plain words)."""

    reason: str


@dataclass(frozen=True)
class Broken:
    """The row breaks the chain: refuse and alarm (``reason`` in plain words)."""

    reason: str


@dataclass(frozen=True)
class Gap:
    """Rows are missing before this one: ask the table to resend from ``first_missing``."""

    first_missing: int


Decision = Accept | Duplicate | Conflict | Gap | Broken
#: the store's hash for ``seq`` of the table being decided (None: not stored)
Lookup = Callable[[int], str | None]


@dataclass(frozen=True)
class Head:
    seq: int = 0
    hash: str = GENESIS


def recomputed(entry: JournalEntry) -> str:
    """The hash the row's own fields give (what the table computed when it wrote it)."""
    return chain_hash(
        entry.prev, entry.seq, entry.game, entry.kind, entry.body, entry.meta, entry.at
    )


class Ledger:
    """Per table, the head of the chain the floor has stored."""

    def __init__(self, heads: Iterable[tuple[str, int, str]] = ()) -> None:
        self._heads: dict[str, Head] = {}
        self.reset(heads)

    def reset(self, heads: Iterable[tuple[str, int, str]]) -> None:
        """Start again from the store's heads (after opening it, or a failed commit)."""
        self._heads = {table: Head(seq, digest) for table, seq, digest in heads}

    def head(self, table: str) -> Head:
        return self._heads.get(table, Head())

    def tables(self) -> list[str]:
        return sorted(self._heads)

    def decide(self, entry: JournalEntry, stored: Lookup) -> Decision:
        """What to do with ``entry``; ``stored`` answers for rows at or below the head."""
        head = self.head(entry.table)
        own = recomputed(entry)
        if entry.seq <= head.seq:
            held = head.hash if entry.seq == head.seq else stored(entry.seq)
            if held == entry.hash and own == entry.hash:
                return Duplicate()
            if held is None:  # the store lost a row under its head: say so, never guess
                return Broken(f"row {entry.seq} is under the floor's head but not stored")
            return Conflict(
                f"row {entry.seq} differs from the row {entry.seq} the floor stored "
                "(an edited journal or a forged row)"
            )
        if entry.seq > head.seq + 1:
            return Gap(head.seq + 1)
        if own != entry.hash:
            return Broken(f"row {entry.seq} does not match its own hash (changed on the way)")
        if entry.prev != head.hash:
            return Broken(
                f"row {entry.seq} does not follow row {head.seq} the floor stored "
                "(its previous hash is another)"
            )
        return Accept()

    def advance(self, entry: JournalEntry) -> None:
        """The row was accepted (and will be stored): it is the table's new head."""
        head = self.head(entry.table)
        if entry.seq != head.seq + 1 or entry.prev != head.hash:
            raise ValueError(f"row {entry.seq} of {entry.table} does not continue the head")
        self._heads[entry.table] = Head(entry.seq, entry.hash)
