"""The shoe as the table sees it: boots journalled, the gate held until caught up.

The shoe keeps its recent events and resends, after a reconnection, every
event after the cursor the host gives it.  Two things follow, for every
table that talks to a shoe driver (``run``, ``sim``, ``sim --scenario``, the
benchmarks):

* the controller journals where it stands in the shoe's event stream
  (a ``shoe_boot`` table event before the first card of a boot; each card's
  ``event_no`` in its action's meta), so a restart gives that cursor back
  (:func:`shoe_resume`): a card pulled while the controller was down is
  delivered after the restart, and a journalled card is never delivered twice;
* after a reconnection the host reports the link up only with the events the
  shoe resent right behind it (docs/protocol.md section 5.3); the gate stays
  locked until they have all reached the table as well (a second guard, e.g.
  for events the shoe recorded after its SYNC_EVENTS answer), or the dealer
  could pull the next card while the camera still reads a resent one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

from controller.core import TableCore
from controller.journal import Journal
from firmware_bridge.host import CardOut, EventCursor, EventsLost, HostEvent, LinkDown, LinkUp

log = logging.getLogger(__name__)

#: the journal's table event recording a shoe boot the controller saw
SHOE_BOOT = "shoe_boot"


def shoe_resume(journal: Journal) -> EventCursor | None:
    """Where the controller stands in the shoe's event stream, from the journal.

    The last ``shoe_boot`` note names the boot and the event before its first
    card; every action journalled after it with an ``event_no`` meta moves the
    cursor on.  None when the journal never saw the shoe (a fresh table: skip
    whatever the shoe did before).
    """
    boot: int | None = None
    event_no = 0
    for game in journal.games():
        for row in journal.rows(game):
            if row.kind == "table" and row.body.get("event") == SHOE_BOOT:
                boot = int(row.body["boot_id"])
                event_no = int(row.body.get("event_no", 0))
            elif row.kind == "action" and boot is not None and "event_no" in row.meta:
                event_no = max(event_no, int(row.meta["event_no"]))
    return None if boot is None else EventCursor(boot, event_no)


class JournalledShoe:
    """The shoe driver as the table sees it: boots journalled, gate held until caught up.

    * Before the first card of a shoe boot the journal has not seen reaches the
      table, a ``shoe_boot`` note is written, so a card journalled afterwards
      can always be placed in the shoe's event stream again by
      :func:`shoe_resume`.
    * After a (re)connection the shoe resends the events the controller has
      not had, right behind the link-up; a gate opened before they are in lets the
      dealer pull the next card while the camera has not yet read the resent
      one, and the two readings see the same card.  So the gate is opened only
      once every event the shoe had at the reconnection has reached the table
      (and the table still wants it open by then).

    Everything else is the driver's own.
    """

    def __init__(
        self, shoe: Any, core: TableCore, resume: EventCursor | None,
        *, catch_up_timeout: float = 3.0,
    ) -> None:
        self._shoe = shoe
        self._core = core
        self._noted_boot: int | None = None if resume is None else resume.boot_id
        self._resume = resume
        self._boot: int | None = None
        #: the newest event of ``_boot`` the table has been given
        self._seen = 0
        self._target = 0
        self._first_link = True
        self._caught_up = asyncio.Event()
        self._link_up_seen = asyncio.Event()
        self.catch_up_timeout = catch_up_timeout

    def __getattr__(self, name: str) -> Any:
        return getattr(self._shoe, name)

    async def set_lights(self, mask: int) -> None:
        await self._shoe.set_lights(mask)

    async def set_gate(self, locked: bool) -> None:
        if not locked:
            await self._link_up_seen.wait()  # the driver would wait for the link anyway
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for loses a
                # cancellation that lands as the wait ends (tests/controller/test_ctrl_cancel.py)
                async with asyncio.timeout(self.catch_up_timeout):
                    await self._caught_up.wait()
            except TimeoutError:
                log.warning("shoe: resent events still missing; opening the gate anyway")
            if self._core.gate_locked():
                return  # a resent card arrived meanwhile: the table's next push locks it
        await self._shoe.set_gate(locked)

    def _link_up(self, event: LinkUp) -> None:
        if self._first_link:
            resume = self._resume
            if resume is None:
                # a fresh start asks only for events after the shoe's newest
                self._seen = self._shoe.session.device_last_event_no
            elif resume.boot_id == event.boot_id:
                self._seen = resume.event_no
            else:
                self._seen = 0
            self._first_link = False
        elif event.boot_id != self._boot:
            self._seen = 0  # a power cycle: every event of the new boot is sent
        self._boot = event.boot_id
        self._target = self._shoe.session.device_last_event_no
        self._link_up_seen.set()
        self._check()

    def _check(self) -> None:
        if self._seen >= self._target:
            self._caught_up.set()

    async def events(self) -> AsyncIterator[HostEvent]:
        async for event in self._shoe.events():
            if isinstance(event, LinkUp | LinkDown):
                self._caught_up.clear()
                self._link_up_seen.clear()
            if isinstance(event, CardOut) and event.boot_id != self._noted_boot:
                self._core.journal.note(
                    {"event": SHOE_BOOT, "boot_id": event.boot_id,
                     "event_no": event.event_no - 1}
                )
                self._noted_boot = event.boot_id
            yield event
            # the table has handled ``event`` by the time it asks for the next one
            if isinstance(event, LinkUp):
                self._link_up(event)
            elif isinstance(event, EventsLost):
                self._seen = max(self._seen, event.last_event_no)
                self._check()
            else:
                event_no = getattr(event, "event_no", None)
                if isinstance(event_no, int) and getattr(event, "boot_id", None) == self._boot:
                    self._seen = max(self._seen, event_no)
                    self._check()
