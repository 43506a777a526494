"""The cable between a serial port and an emulated firmware: bytes, faults, timers.

:class:`Wire` is the thin I/O adapter around a sans-I/O firmware core (any
object with the small :class:`Firmware` interface): bytes read from the port go
through the host-to-device :class:`~hardware_sim.faults.ByteFaults` into the
core; what the core wants to send goes through the device-to-host faults to the
port; the core's own timers (retransmission, the heartbeat fail-safe) are
armed on the loop with ``call_at``, never polled, so an idle table costs no CPU
and a busy one adds no latency.

Everything runs on one asyncio loop (the rig's background loop); only
:meth:`Wire.kick` is called after the people or the rig changed the core's
state (an event queued), to flush what it now wants to send.
"""

from __future__ import annotations

import asyncio
import random
from typing import Protocol

from hardware_sim.clock import Clock
from hardware_sim.faults import ByteFaults, FaultConfig, FaultCounters
from hardware_sim.ports import Port


class Firmware(Protocol):
    """What :class:`Wire` needs of a device core (time always passed in)."""

    def receive_bytes(self, data: bytes, now: float) -> None:
        """Feed bytes from the host."""

    def tick(self, now: float) -> None:
        """Run timers due by ``now`` (retransmission, the fail-safe)."""

    def data_to_send(self) -> bytes:
        """Bytes the firmware wants on the wire now."""

    def next_deadline(self) -> float | None:
        """When :meth:`tick` next has something to do, or None."""


class Wire:
    """Moves bytes between ``port`` and ``firmware`` with ``faults`` in both directions."""

    def __init__(
        self,
        port: Port,
        firmware: Firmware,
        clock: Clock,
        faults: FaultConfig | None = None,
        *,
        seed: int = 0,
        counters: FaultCounters | None = None,
    ) -> None:
        self.port = port
        self.firmware = firmware
        self.clock = clock
        self.counters = counters if counters is not None else FaultCounters()
        cfg = faults or FaultConfig()
        self.to_device = ByteFaults(cfg, random.Random(seed * 2 + 1), self.counters)
        self.to_host = ByteFaults(cfg, random.Random(seed * 2 + 2), self.counters)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self.powered = True

    # -- life cycle ------------------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.port.attach(loop, self._from_port)
        self.kick()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.port.close()

    def replace_firmware(self, firmware: Firmware) -> None:
        """A power cycle: the new core starts from nothing (new boot id)."""
        self.firmware = firmware
        self.to_device.clear()
        self.to_host.clear()
        self.kick()

    def unplug(self) -> None:
        self.to_device.clear()
        self.to_host.clear()
        self.port.unplug()

    def replug(self) -> None:
        self.port.replug()
        self.kick()

    # -- data path -------------------------------------------------------------------
    def _from_port(self, data: bytes) -> None:
        now = self.clock.now()
        self.to_device.feed(data, now)
        self._pump(now)

    def kick(self) -> None:
        """Flush whatever the firmware wants to send now (after the world changed it)."""
        if self._loop is not None:
            self._pump(self.clock.now())

    def _pump(self, now: float) -> None:
        fw = self.firmware
        inbound = self.to_device.take_due(now)
        if inbound:
            fw.receive_bytes(inbound, now)
        fw.tick(now)
        out = fw.data_to_send()
        if out:
            self.to_host.feed(out, now)
        sent = self.to_host.take_due(now)
        if sent and self.port.plugged:
            self.port.write(sent)
        self._arm()

    def _arm(self) -> None:
        if self._loop is None:
            return
        times = [
            t
            for t in (
                self.firmware.next_deadline(),
                self.to_device.next_due(),
                self.to_host.next_due(),
            )
            if t is not None
        ]
        when = min(times) if times else None
        if when == self._timer_at and self._timer is not None:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = when
        if when is not None:
            # the loop's clock and ours are both time.monotonic in real runs
            delay = max(0.0, when - self.clock.now())
            self._timer = self._loop.call_later(delay, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._timer_at = None
        self._pump(self.clock.now())
