"""The ledger's decisions on small chains derived by hand.

Rows are hashed in floor_rows.py from the documented formula (hashlib, not
the code under test); each expected decision is worked out from the rules in
floor/ledger.py's docstring: store only the next row of the chain.
"""

from __future__ import annotations

from dataclasses import replace

from floor_rows import GENESIS, chain, digest, forged, small_game

from floor.ledger import Accept, Broken, Conflict, Duplicate, Gap, Head, Ledger
from floor.messages import JournalEntry


class Held:
    """What a store would hold: the hashes of the rows the ledger accepted."""

    def __init__(self) -> None:
        self.hashes: dict[int, str] = {}

    def __call__(self, seq: int) -> str | None:
        return self.hashes.get(seq)

    def take(self, ledger: Ledger, entry: JournalEntry) -> None:
        assert ledger.decide(entry, self) == Accept()
        ledger.advance(entry)
        self.hashes[entry.seq] = entry.hash


def test_a_chain_in_order_is_accepted_row_by_row() -> None:
    ledger, held = Ledger(), Held()
    rows = small_game(count=4)
    for row in rows:
        held.take(ledger, row)
    assert ledger.head("table-1") == Head(4, rows[3].hash)
    assert ledger.head("table-2") == Head(0, GENESIS)


def test_a_replayed_row_is_a_duplicate_at_the_head_and_below() -> None:
    ledger, held = Ledger(), Held()
    rows = small_game(count=3)
    for row in rows:
        held.take(ledger, row)
    assert ledger.decide(rows[2], held) == Duplicate()  # the head itself
    assert ledger.decide(rows[0], held) == Duplicate()  # looked up in the store
    assert ledger.head("table-1").seq == 3


def test_a_forged_body_with_the_old_hash_is_broken_and_not_accepted() -> None:
    ledger, held = Ledger(), Held()
    rows = small_game(count=3)
    held.take(ledger, rows[0])
    held.take(ledger, rows[1])
    fake = forged(rows[2], body='{"card":"AH","type":"DealCard"}')
    decision = ledger.decide(fake, held)
    assert isinstance(decision, Broken) and "own hash" in decision.reason
    assert ledger.head("table-1").seq == 2
    assert ledger.decide(rows[2], held) == Accept()  # the true row still fits


def test_an_edited_stored_row_is_a_conflict_even_with_its_hash_recomputed() -> None:
    ledger, held = Ledger(), Held()
    rows = small_game(count=3)
    for row in rows:
        held.take(ledger, row)
    # row 2 rewritten by someone who knows the formula: self-consistent, but
    # row 2 is stored with another hash
    body = '{"type":"Abandon"}'
    edited = replace(rows[1], body=body)
    edited = replace(edited, hash=digest(edited.prev, 2, 1, "action", body, edited.meta, edited.at))
    decision = ledger.decide(edited, held)
    assert isinstance(decision, Conflict)
    # a row stored with the right hash but another body is a conflict too
    assert isinstance(ledger.decide(forged(rows[0], meta='{"source":"x"}'), held), Conflict)


def test_a_row_that_does_not_follow_the_head_is_broken() -> None:
    ledger, held = Ledger(), Held()
    rows = small_game(count=2)
    held.take(ledger, rows[0])
    # a valid chain of its own, but from another previous row
    stray = chain("table-1", [("action", {"type": "StartDeal"})], prev="1" * 64, first=2)[0]
    decision = ledger.decide(stray, held)
    assert isinstance(decision, Broken) and "does not follow" in decision.reason


def test_rows_beyond_the_head_are_a_gap_from_the_first_missing() -> None:
    ledger, held = Ledger(), Held()
    rows = small_game(count=4)
    assert ledger.decide(rows[3], held) == Gap(1)
    held.take(ledger, rows[0])
    # reordered delivery: 3 before 2
    assert ledger.decide(rows[2], held) == Gap(2)
    held.take(ledger, rows[1])
    held.take(ledger, rows[2])
    held.take(ledger, rows[3])
    assert ledger.head("table-1").seq == 4


def test_a_row_under_the_head_the_store_does_not_hold_is_broken() -> None:
    ledger = Ledger([("table-1", 3, "a" * 64)])
    row = small_game(count=2)[1]
    decision = ledger.decide(row, lambda seq: None)
    assert isinstance(decision, Broken) and "not stored" in decision.reason


def test_tables_have_separate_chains() -> None:
    ledger, held = Ledger(), Held()
    held.take(ledger, small_game("table-1", count=1)[0])
    other = small_game("table-2", count=1)[0]
    assert ledger.decide(other, lambda seq: None) == Accept()


def test_advance_refuses_a_row_that_does_not_continue() -> None:
    ledger = Ledger()
    try:
        ledger.advance(small_game(count=2)[1])
    except ValueError:
        pass
    else:
        raise AssertionError("advance took row 2 on an empty chain")
