"""The seam between the table and the dealer display.

The table publishes a :data:`TableSnapshot` (a JSON-able dict, typed by
:mod:`controller.snapshot_schema`) after every change, and accepts dealer
commands (:mod:`controller.dealer_commands`) that return a
:class:`CommandResult`.  The display never talks to a device or to the rules
engine: it renders snapshots and forwards commands, and it redacts face-down
cards for public clients using the ``face_up`` flags given here.

Publishing must never make the table wait for a screen, so :class:`Publisher`
calls listeners synchronously with the already-built snapshot (a listener must
only queue it) and offers bounded asyncio queues that keep the newest snapshot
when a slow consumer falls behind (a snapshot is complete, so older ones are
worthless once a newer one exists).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from controller.snapshot_schema import Snapshot

#: A complete, JSON-able picture of the table (controller/snapshot_schema.py).
TableSnapshot = Snapshot
Listener = Callable[[TableSnapshot], None]

@dataclass(frozen=True)
class CommandResult:
    """Answer to a dealer command: ``ok``, or a refusal whose ``message`` a dealer understands."""

    ok: bool
    message: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def refused(cls, message: str) -> CommandResult:
        return cls(False, message)

    @classmethod
    def done(cls, message: str = "done", **data: Any) -> CommandResult:
        return cls(True, message, dict(data))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok, "message": self.message}
        if self.data:
            out["data"] = self.data
        return out


class Publisher:
    """Fan-out of snapshots: synchronous listeners and bounded async queues."""

    def __init__(self) -> None:
        self._latest: TableSnapshot = cast(TableSnapshot, {})  # empty until the first
        self._listeners: list[Listener] = []
        self._queues: list[asyncio.Queue[TableSnapshot]] = []
        self.version = 0

    @property
    def latest(self) -> TableSnapshot:
        """The last snapshot published (``{}`` before the first)."""
        return self._latest

    def publish(self, snapshot: TableSnapshot) -> None:
        """Number the snapshot and hand it to every subscriber without waiting."""
        self.version += 1
        snapshot["version"] = self.version
        self._latest = snapshot
        for listener in list(self._listeners):
            listener(snapshot)
        for queue in self._queues:
            if queue.full():  # keep only the newest: it carries everything
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(snapshot)

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(snapshot)`` on every publish; returns the unsubscribe function."""
        self._listeners.append(listener)

        def remove() -> None:
            with contextlib.suppress(ValueError):
                self._listeners.remove(listener)

        return remove

    async def subscribe(self, maxsize: int = 4) -> AsyncIterator[TableSnapshot]:
        """Yield the latest snapshot, then every new one (skipping ones a slow reader missed)."""
        queue: asyncio.Queue[TableSnapshot] = asyncio.Queue(maxsize=maxsize)
        if self._latest:
            queue.put_nowait(self._latest)
        self._queues.append(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            self._queues.remove(queue)


class TableLink(Protocol):
    """What the display is given: snapshots out, dealer commands in.

    ``controller.table.Table`` implements it (the live table and the manual
    one alike).  ``command`` takes a name from
    :data:`controller.dealer_commands.COMMANDS` and its arguments; it returns a
    CommandResult and never raises for bad input: a refusal says why.
    """

    def snapshot(self) -> TableSnapshot: ...

    def add_listener(self, listener: Listener) -> Callable[[], None]: ...

    async def command(
        self, name: str, args: Mapping[str, Any] | None = None
    ) -> CommandResult: ...
