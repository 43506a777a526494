"""Stopping a table stops it: no task may swallow its cancellation.

Found by ``benchmarks/table_bench.py`` hanging at the end of a run: on
Python 3.11, ``asyncio.wait_for`` returns the inner result instead of raising
when the task is cancelled in the very turn the awaited thing completes
(CPython gh-86296, fixed in 3.12).  The shoe's gate pusher, cancelled by
``Table.stop`` just as the resent shoe events caught up, went on to wait for
the next gate change for ever, and ``Table.stop`` waited for it.  The table's
own waits use ``asyncio.timeout``, which does not lose a cancellation, and
ruff bans ``asyncio.wait_for`` outside tests and benchmarks (pyproject.toml).
"""

from __future__ import annotations

import asyncio

import pytest
from ctrl_drive import SCENARIOS, new_core

from controller.shoe_feed import JournalledShoe

HOUSE = next(p for p in SCENARIOS if p.name == "house-buy-example.json")


class GateOnlyShoe:
    """Just the gate of a shoe driver: what ``JournalledShoe.set_gate`` forwards to."""

    def __init__(self) -> None:
        self.gates: list[bool] = []

    async def set_gate(self, locked: bool) -> None:
        self.gates.append(locked)


@pytest.mark.parametrize("completes_in_same_turn", [True, False])
def test_a_gate_push_cancelled_while_waiting_for_the_catch_up_is_cancelled(
    completes_in_same_turn: bool,
) -> None:
    async def run() -> tuple[bool, list[bool]]:
        shoe = GateOnlyShoe()
        feed = JournalledShoe(shoe, new_core(HOUSE), None, catch_up_timeout=30.0)
        feed._link_up_seen.set()
        push = asyncio.ensure_future(feed.set_gate(False))
        for _ in range(3):
            await asyncio.sleep(0)  # the push now waits for the resent events
        assert not push.done()
        if completes_in_same_turn:
            feed._caught_up.set()  # ...which arrive in the turn the table stops
        push.cancel()
        try:
            await push
        except asyncio.CancelledError:
            return True, shoe.gates
        return False, shoe.gates

    cancelled, gates = asyncio.run(run())
    assert cancelled, "the cancellation was swallowed: Table.stop would wait for ever"
    assert gates == []  # and the gate was not opened on the way out
