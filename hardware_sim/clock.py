"""The simulation's clock: real time for people, as fast as possible for tests.

Two different kinds of time meet in the simulator and must not be confused:

* **Protocol time** — heartbeats, retransmission timers, the device's
  millisecond timestamps. The host on the other end of the serial port runs on
  the wall clock, so the emulated firmware must too: :meth:`Clock.now` is always
  ``time.monotonic()`` (or a manual time in pure unit tests), whatever the mode.
* **Human time** — how long a dealer takes to pull a card, a player to think.
  :meth:`Clock.pause` waits that long in ``realtime`` mode (scaled by ``speed``
  so a trainer can run a table at half or double pace) and not at all in
  ``fast`` mode, so soak runs are limited only by the link and the controller.

Example::

    clock = Clock.fast()
    await clock.pause(1.5)          # returns at once: nobody waits in fast mode
    clock = Clock.realtime(speed=2)
    await clock.pause(1.5)          # waits 0.75 s
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

#: the clock modes a run can be configured with (``--clock`` on the command line)
MODES = ("realtime", "fast")


@dataclass
class Clock:
    """Protocol time from ``source``; human delays scaled by ``speed`` (0 = none)."""

    speed: float = 0.0
    source: Callable[[], float] = field(default=time.monotonic)

    @classmethod
    def fast(cls) -> Clock:
        """No human delays at all: as fast as the link and the controller allow."""
        return cls(speed=0.0)

    @classmethod
    def realtime(cls, speed: float = 1.0) -> Clock:
        """People take their time; ``speed`` > 1 makes them quicker."""
        if speed <= 0:
            raise ValueError("a real-time clock needs a speed above 0")
        return cls(speed=speed)

    @classmethod
    def from_mode(cls, mode: str, speed: float = 1.0) -> Clock:
        if mode == "fast":
            return cls.fast()
        if mode == "realtime":
            return cls.realtime(speed)
        raise ValueError(f"unknown clock mode {mode!r}; choose one of {', '.join(MODES)}")

    @property
    def is_fast(self) -> bool:
        return self.speed == 0.0

    def now(self) -> float:
        """Seconds for protocol timers; never scaled, the host uses the same wall clock."""
        return self.source()

    def human(self, seconds: float) -> float:
        """How long a human delay of ``seconds`` lasts in this mode."""
        return 0.0 if self.speed == 0.0 else max(0.0, seconds) / self.speed

    async def pause(self, seconds: float) -> None:
        """Wait for a human delay (yields to the loop even when it is zero)."""
        await asyncio.sleep(self.human(seconds))


class ManualClock(Clock):
    """A clock that moves only when told to, for the pure parts' unit tests."""

    def __init__(self, start: float = 0.0) -> None:
        self._t = start
        super().__init__(speed=0.0, source=self._read)

    def _read(self) -> float:
        return self._t

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time does not run backwards")
        self._t += seconds
