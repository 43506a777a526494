"""Fan-out of view updates to WebSocket clients, one bounded queue per client.

The table must never wait for a screen: a tablet on bad Wi-Fi, a sleeping
laptop or a stuck browser tab would otherwise hold the controller's publish
call.  So publishing only puts a message on each client's queue without
waiting, and a per-client task drains the queue to the socket.  When a queue is
full the client has fallen behind; its queued changes are dropped and replaced
by one full snapshot, which carries everything the dropped changes did, so the
client catches up in one message and memory stays bounded.

Each view is serialised once per change and shared by every client of that
channel; the cost of a change is one ``json.dumps`` per channel plus a queue put
per client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

#: A channel's view is a JSON object; changes are sent per top-level key.
View = dict[str, Any]
Send = Callable[[str], Awaitable[None]]

DEFAULT_QUEUE_SIZE = 16


def diff(old: View, new: View) -> tuple[View, list[str]]:
    """Top-level keys whose value changed (with the new value), and removed keys."""
    changed = {k: v for k, v in new.items() if k not in old or old[k] != v}
    removed = [k for k in old if k not in new]
    return changed, removed


@dataclass(eq=False)
class Client:
    """One connected socket: its queue and the task that drains it."""

    send: Send
    queue: asyncio.Queue[str]
    resyncs: int = 0
    task: asyncio.Task[None] | None = None


@dataclass
class Channel:
    """The clients that see one view (dealer, public), and that view's latest version."""

    name: str
    queue_size: int = DEFAULT_QUEUE_SIZE
    version: int = 0
    view: View = field(default_factory=dict)
    snapshot_text: str = ""
    clients: set[Client] = field(default_factory=set)

    def _snapshot(self) -> str:
        if not self.snapshot_text:
            self.snapshot_text = json.dumps(
                {"type": "snapshot", "version": self.version, "view": self.view},
                separators=(",", ":"),
            )
        return self.snapshot_text

    def publish(self, view: View) -> bool:
        """Record a new view and queue the change for every client; never blocks.

        Returns False (and sends nothing) when nothing changed.
        """
        changed, removed = diff(self.view, view)
        if not changed and not removed and self.version:
            return False
        self.version += 1
        self.view = view
        self.snapshot_text = ""
        patch = json.dumps(
            {"type": "patch", "version": self.version, "set": changed, "remove": removed},
            separators=(",", ":"),
        )
        for client in self.clients:
            self._offer(client, patch)
        return True

    def _offer(self, client: Client, text: str) -> None:
        try:
            client.queue.put_nowait(text)
        except asyncio.QueueFull:
            # Behind: throw away the backlog; one snapshot says it all.
            while not client.queue.empty():
                client.queue.get_nowait()
            client.resyncs += 1
            client.queue.put_nowait(self._snapshot())

    async def serve(self, send: Send, *, until: Awaitable[Any]) -> None:
        """Send a snapshot, then every change, until ``until`` completes or sending fails."""
        client = Client(send=send, queue=asyncio.Queue(maxsize=self.queue_size))
        client.queue.put_nowait(self._snapshot())
        self.clients.add(client)
        client.task = asyncio.current_task()
        waiter = asyncio.ensure_future(until)
        try:
            while True:
                getter = asyncio.ensure_future(client.queue.get())
                done, _ = await asyncio.wait(
                    {getter, waiter}, return_when=asyncio.FIRST_COMPLETED
                )
                if getter not in done:
                    getter.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await getter
                    return
                await client.send(getter.result())
        finally:
            self.clients.discard(client)
            if not waiter.done():
                waiter.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await waiter


class Hub:
    """The dealer and public channels, published together from one table state."""

    def __init__(self, queue_size: int = DEFAULT_QUEUE_SIZE) -> None:
        self.channels: dict[str, Channel] = {
            name: Channel(name, queue_size) for name in ("dealer", "public")
        }

    def __getitem__(self, name: str) -> Channel:
        return self.channels[name]

    def client_count(self) -> int:
        return sum(len(c.clients) for c in self.channels.values())
