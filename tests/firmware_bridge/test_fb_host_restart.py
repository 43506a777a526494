"""A host (controller) restart against a shoe that kept running, over a real pty.

The shoe is the reference device core in a thread behind a pseudo-terminal
(``DeviceRunner``); each ``Shoe.open`` is a new host session, as after a
restart of the controller.  Expected results come from docs/protocol.md
(sections 5.3 and 5.4), not from the host's code.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import TypeVar

import pytest

from firmware_bridge.device import DeviceCore, RecordingHardware, shoe_identity
from firmware_bridge.device_runner import DeviceRunner, PtyPort
from firmware_bridge.drivers import Shoe
from firmware_bridge.host import CardOut, EventCursor, HostEvent, LinkUp

T = TypeVar("T")
pytestmark = pytest.mark.timeout(60)


def run(coro: Awaitable[T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 30))  # type: ignore[arg-type]


def shoe_core(motor: bool = False) -> DeviceCore:
    return DeviceCore(
        shoe_identity(motor=motor), RecordingHardware(), now=time.monotonic(), boot_id=0x5EED
    )


async def until_up(shoe: Shoe) -> list[HostEvent]:
    """Every event up to and including the first LinkUp."""
    seen: list[HostEvent] = []
    while not any(isinstance(e, LinkUp) for e in seen):
        seen.append(await asyncio.wait_for(shoe.next_event(), 5))
    return seen


def test_after_a_restart_the_link_is_up_only_with_the_resent_cards_behind_it() -> None:
    """Ten cards leave while the controller is down.  The restarted host asks
    for the events after its journalled cursor; the shoe answers SYNC_EVENTS
    with last event 12 and resends 3..12, four frames at a time (the window),
    so most arrive well after that RESULT.  Section 5.3: the host reports the
    link up only once they are in, and hands them over right behind LinkUp; a
    table that opens the gate on LinkUp then already knows of every card that
    left, and no resent card is paired with a card pulled after it.  (Before,
    LinkUp came with the RESULT and the cards trickled in after it.)"""
    core = shoe_core()

    async def main() -> None:
        with DeviceRunner(core, PtyPort()) as runner:
            async with Shoe.open(runner.url) as shoe:
                await until_up(shoe)
                for _ in range(2):
                    runner.call(lambda c, now: c.emit_card_out(now))  # type: ignore[union-attr]
                cards = [await asyncio.wait_for(shoe.next_event(), 5) for _ in range(2)]
                assert [getattr(e, "event_no", None) for e in cards] == [1, 2]
                cursor = shoe.cursor
            assert cursor == EventCursor(0x5EED, 2)
            for _ in range(10):  # pulled while the controller restarts
                runner.call(lambda c, now: c.emit_card_out(now))  # type: ignore[union-attr]
            async with Shoe.open(runner.url, resume=cursor) as shoe:
                before = await until_up(shoe)
                assert not any(isinstance(e, CardOut) for e in before)
                up = before[-1]
                assert isinstance(up, LinkUp) and not up.rebooted and up.events_lost == 0
                # everything resent is already queued behind the LinkUp: no await needed
                queued = [
                    shoe._endpoint.queue.get_nowait() for _ in range(shoe._endpoint.queue.qsize())
                ]
                resent = [e.event_no for e in queued if isinstance(e, CardOut)]
                assert resent == list(range(3, 13))

    run(main())


def test_a_restarted_host_dispenses_a_new_card_not_already_done() -> None:
    """The shoe remembers the last ``dispense_no`` it carried out this boot
    (section 5.4).  A host that numbered its dispenses from 1 in every process
    repeated number 1 after a restart and got ALREADY_DONE: no card.  Section
    5.4 now has a host start from a random number, so the restarted host's
    first dispense moves the motor again (fails 1 run in 65,535 by chance)."""
    core = shoe_core(motor=True)
    hw = core.hardware
    assert isinstance(hw, RecordingHardware)

    async def main() -> None:
        with DeviceRunner(core, PtyPort()) as runner:
            for restart in range(2):
                async with Shoe.open(runner.url) as shoe:
                    await until_up(shoe)
                    await shoe.dispense()
                    assert hw.dispensed == restart + 1

    run(main())
