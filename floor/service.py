"""The floor's MQTT subscriber: a thin loop around :class:`floor.ingest.Floor`.

A persistent session (a fixed client id, ``clean_session=False``, QoS 1
subscriptions): while the floor is down the broker keeps every table's rows
for it.  Each message is acknowledged (PUBACK) only after the batch it came
in is committed to the store, so a floor killed between delivery and commit
gets those rows again from the broker; rows the broker itself lost are found
by the ledger (a gap, or a table's status ahead of the floor's head) and
asked for again on the table's ``resend`` topic.

``FloorService(settings)`` has ``start()`` / ``stop()`` for tests and the
floor command; :func:`run_floor` runs it (and the page) until cancelled.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import aiomqtt

from .ingest import Floor, Outgoing
from .messages import JOURNAL, ROOT, STATUS
from .store import open_store

log = logging.getLogger("floor")

#: at most this many messages go into one store transaction
MAX_BATCH = 500
#: how often the floor looks for tables that wrote rows it has not got
CHECK_EVERY_S = 1.0


@dataclass(frozen=True)
class FloorSettings:
    """How the floor reaches its broker and its database."""

    broker: str = "mqtt://127.0.0.1:1883"  # mqtt://host[:port] or mqtts://host[:port]
    db: str = "sqlite:///floor.db"
    username: str | None = None
    password: str | None = None
    ca: str | None = None  # the CA file init-broker made (mqtts://)
    client_id: str = "pontoon-floor"
    tables: frozenset[str] | None = None  # None: every valid table id
    reconnect_s: float = 1.0


def broker_address(url: str) -> tuple[str, int, bool, str | None, str | None]:
    """``(host, port, tls, user, password)`` of ``mqtt://`` or ``mqtts://`` (ValueError)."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise ValueError(f"--broker must be mqtt://host[:port] or mqtts://host[:port] ({url!r})")
    tls = parts.scheme == "mqtts"
    port = parts.port or (8883 if tls else 1883)
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return parts.hostname, port, tls, user, password


class FloorService:
    """The floor's subscriber; ``floor`` is the core it feeds (made from ``settings.db``)."""

    def __init__(self, settings: FloorSettings, floor: Floor | None = None) -> None:
        broker_address(settings.broker)  # a malformed URL is refused here, in words
        if settings.ca and not Path(settings.ca).is_file():
            raise ValueError(f"the broker's CA file {settings.ca} does not exist")
        self.settings = settings
        self.floor = floor or Floor(open_store(settings.db), known=settings.tables)
        self.connected = asyncio.Event()
        self.batches = 0
        self._task: asyncio.Task[None] | None = None
        #: called (on the loop) after each batch that changed something: the page's cue
        self.on_change: list[Callable[[], None]] = []

    async def start(self, timeout: float = 30.0) -> None:
        """Run in the background; returns once subscribed (TimeoutError otherwise)."""
        self._task = asyncio.create_task(self.run(), name="floor-subscriber")
        async with asyncio.timeout(timeout):
            waiter = asyncio.ensure_future(self.connected.wait())
            done, _ = await asyncio.wait({waiter, self._task}, return_when=asyncio.FIRST_COMPLETED)
            if self._task in done:
                waiter.cancel()
                self._task.result()  # raises why it ended

    async def stop(self) -> None:
        task, self._task = self._task, None
        # cancelled again until it ends: a cancel that lands while the task is
        # already unwinding (a session closing on a lost broker) can be used up
        # there, and one `await task` would then wait for ever
        while task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=1.0)
        if task is not None and not task.cancelled() and task.exception() is not None:
            log.warning("floor: the subscriber had stopped on its own (%s)", task.exception())
        self.floor.store.close()

    async def run(self) -> None:
        """Subscribe and ingest until cancelled; a lost broker is reconnected to."""
        while True:
            try:
                await self._session()
            except aiomqtt.MqttError as error:
                self.connected.clear()
                self._broker(False)
                log.warning("floor: no connection to the broker (%s); retrying", error)
                await asyncio.sleep(self.settings.reconnect_s)
            except Exception as error:  # the store failed (a database gone, a full disk)
                # Nothing of the batch was acknowledged: leaving the session makes the
                # broker deliver it again.  Start again from what the store holds.
                self.connected.clear()
                self._broker(False)
                log.error("floor: storing failed (%s); reconnecting to the store and broker", error)
                await asyncio.sleep(self.settings.reconnect_s)
                self._recover_store()

    def _recover_store(self) -> None:
        try:
            self.floor.store.reconnect()
            self.floor.ledger.reset(self.floor.store.heads())
        except Exception as error:
            log.error("floor: the store is still unusable (%s); trying again", error)

    def _broker(self, up: bool) -> None:
        if self.floor.broker_up != up:
            self.floor.broker_up = up
            for cue in self.on_change:
                cue()

    def _client(self) -> aiomqtt.Client:
        host, port, tls, user, password = broker_address(self.settings.broker)
        context = None
        if tls:
            context = ssl.create_default_context(cafile=self.settings.ca)
        client = aiomqtt.Client(
            host,
            port,
            identifier=self.settings.client_id,
            clean_session=False,
            protocol=aiomqtt.ProtocolVersion.V311,
            username=self.settings.username or user,
            password=self.settings.password or password,
            tls_context=context,
            keepalive=10,
        )
        # PUBACK after the commit, not on arrival: see the module's docstring
        paho: Any = getattr(client, "_client", None)
        if paho is not None and hasattr(paho, "manual_ack_set"):
            paho.manual_ack_set(True)
        return client

    async def _session(self) -> None:
        client = self._client()
        paho: Any = getattr(client, "_client", None)
        async with client:
            await client.subscribe([(f"{ROOT}/+/{JOURNAL}", 1), (f"{ROOT}/+/{STATUS}", 1)])
            self.connected.set()
            self._broker(True)
            log.info("floor: subscribed to %s as %s", self.settings.broker, self.settings.client_id)
            checker = asyncio.create_task(self._check_behind(client))
            try:
                messages = client.messages
                while True:
                    batch = [await anext(messages)]
                    while len(batch) < MAX_BATCH and len(messages) > 0:
                        batch.append(await anext(messages))
                    out = self.floor.handle((str(m.topic), _bytes(m.payload)) for m in batch)
                    self.batches += 1
                    if paho is not None:
                        for m in batch:
                            if m.qos > 0:
                                paho.ack(m.mid, m.qos)
                    await self._publish(client, out)
                    for cue in self.on_change:
                        cue()
            finally:
                checker.cancel()
                # gather, not `suppress(CancelledError)`: that would also swallow a
                # cancel of this task arriving while it waits for the checker (the
                # session ending on a lost broker just as `stop` is called), and the
                # run loop would reconnect instead of stopping
                await asyncio.gather(checker, return_exceptions=True)

    async def _check_behind(self, client: aiomqtt.Client) -> None:
        while True:
            await asyncio.sleep(CHECK_EVERY_S)
            await self._publish(client, self.floor.check_behind())

    async def _publish(self, client: aiomqtt.Client, out: list[Outgoing]) -> None:
        for message in out:
            await client.publish(message.topic, message.payload, qos=1, retain=message.retain)


def _bytes(payload: Any) -> bytes:
    if isinstance(payload, bytes | bytearray):
        return bytes(payload)
    if isinstance(payload, str):
        return payload.encode("utf-8")
    return b"" if payload is None else str(payload).encode("utf-8")
