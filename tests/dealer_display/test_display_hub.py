"""The WebSocket fan-out: order, catch-up of a slow client, bounded memory."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from dealer_display.hub import Channel, diff


class Screen:
    """A client applying messages the way common.js does."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.version = 0
        self.messages: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        msg = json.loads(text)
        self.messages.append(msg)
        if msg["type"] == "snapshot":
            self.view, self.version = msg["view"], msg["version"]
            return
        assert self.view is not None, "a patch came before any snapshot"
        assert msg["version"] == self.version + 1, "a patch was skipped or reordered"
        self.view.update(msg["set"])
        for key in msg["remove"]:
            del self.view[key]
        self.version = msg["version"]


class BlockedScreen(Screen):
    """A tablet that stops reading until ``release`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()

    async def send(self, text: str) -> None:
        await self.release.wait()
        await super().send(text)


def test_diff_reports_changed_and_removed_keys() -> None:
    changed, removed = diff({"a": 1, "b": [1], "c": 3}, {"a": 1, "b": [1, 2], "d": 4})
    assert changed == {"b": [1, 2], "d": 4}
    assert removed == ["c"]


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_clients_get_snapshot_then_every_change_in_order() -> None:
    async def main() -> None:
        channel = Channel("public", queue_size=64)
        channel.publish({"deal": 1, "seats": []})
        screens = [Screen() for _ in range(5)]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(channel.serve(s.send, until=stop.wait())) for s in screens]
        await _settle()
        for n in range(2, 30):
            channel.publish({"deal": n, "seats": [n] * (n % 3)})
        assert channel.publish({"deal": 29, "seats": [29] * 2}) is False  # nothing changed
        await _settle()
        stop.set()
        await asyncio.gather(*tasks)
        for s in screens:
            assert s.view == {"deal": 29, "seats": [29, 29]}
            assert s.messages[0]["type"] == "snapshot"
            assert all(m["type"] == "patch" for m in s.messages[1:])
            assert len(s.messages) == 29
        assert not channel.clients

    asyncio.run(main())


def test_a_stalled_client_neither_blocks_publishing_nor_grows_without_bound() -> None:
    async def main() -> None:
        channel = Channel("public", queue_size=4)
        channel.publish({"n": 0})
        slow, fast = BlockedScreen(), Screen()
        stop = asyncio.Event()
        tasks = [
            asyncio.create_task(channel.serve(slow.send, until=stop.wait())),
            asyncio.create_task(channel.serve(fast.send, until=stop.wait())),
        ]
        await _settle()
        for n in range(1, 500):
            channel.publish({"n": n, "big": "x" * (n % 7)})
            (slow_client,) = [c for c in channel.clients if c.send == slow.send]
            assert slow_client.queue.qsize() <= 4
        await _settle()
        assert fast.view == {"n": 499, "big": "x" * (499 % 7)}
        assert slow_client.resyncs > 0
        slow.release.set()
        await _settle()
        # The slow tablet caught up through a snapshot and holds the newest view.
        assert slow.view == fast.view
        assert len(slow.messages) < 10
        stop.set()
        await asyncio.gather(*tasks)

    asyncio.run(main())


def test_a_client_whose_socket_fails_is_dropped() -> None:
    async def broken(text: str) -> None:
        raise ConnectionError("gone")

    async def main() -> None:
        channel = Channel("public")
        channel.publish({"n": 0})
        never = asyncio.Event()
        with pytest.raises(ConnectionError):
            await channel.serve(broken, until=never.wait())
        assert not channel.clients
        channel.publish({"n": 1})  # publishing to nobody still works

    asyncio.run(main())
