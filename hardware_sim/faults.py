"""Fault injection: what goes wrong with real cables, real firmware and real cameras.

A :class:`FaultConfig` says how bad a run is; three named presets cover most
needs (``none``, ``light``, ``heavy``) and single knobs can be overridden::

    cfg = FaultConfig.parse("heavy")                  # a preset
    cfg = FaultConfig.parse("light,corrupt=0.01")     # a preset with one knob changed

Two kinds of fault:

* **Byte-stream faults** (:class:`ByteFaults`, one per direction of each link)
  sit between the serial port and the emulated firmware: bytes corrupted (one
  bit flipped), bytes dropped, whole frames sent twice, and stalls (the stream
  delivers late but never out of order, as a UART would). Sans-I/O: the port
  loop calls :meth:`ByteFaults.feed` with what it read or wants to write and
  :meth:`ByteFaults.take_due` to get what may pass now.
* **Scheduled faults** (:class:`FaultPlan`) happen at moments of the game,
  decided each time a card leaves the shoe: the USB cable pulled and put back,
  a device rebooting mid-deal, the camera going dark for a few frames. The rig
  carries them out.

Every injected fault is counted in :class:`FaultCounters`, so a soak run can
say what the table survived.

The presets stay inside what the link is specified to recover from without
losing anything (``docs/protocol.md``): a reboot is injected only when the
device has no unacknowledged event (a real shoe loses un-acknowledged events
on power loss, which the host reports as a loss; ``lossy_reboot`` turns that
on for training), and stalls stay far below the 2 s fail-safe.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import asdict, dataclass, field, fields, replace

#: the COBS frame delimiter of docs/protocol.md: the only byte the injector needs to know
FRAME_DELIMITER = 0x00


@dataclass(frozen=True)
class FaultConfig:
    """Probabilities and sizes of every fault; all zero means a perfect table."""

    corrupt: float = 0.0
    """chance that a byte has one bit flipped"""
    drop: float = 0.0
    """chance that a byte is lost"""
    duplicate: float = 0.0
    """chance that a whole frame is sent a second time right after itself"""
    delay: float = 0.0
    """chance that a chunk of bytes stalls the stream"""
    delay_min: float = 0.005
    delay_max: float = 0.05
    unplug: float = 0.0
    """chance, per card out, that a device's cable is pulled"""
    unplug_for: float = 0.3
    """seconds the cable stays out"""
    reboot: float = 0.0
    """chance, per card out, that a device reboots (power glitch)"""
    lossy_reboot: bool = False
    """allow a reboot while events are unacknowledged (they are lost, as on a real shoe)"""
    blackout: float = 0.0
    """chance, per card out, that the camera sees nothing for a few frames"""
    blackout_frames: int = 3

    @classmethod
    def preset(cls, name: str) -> FaultConfig:
        try:
            return PRESETS[name]
        except KeyError:
            raise ValueError(
                f"unknown fault preset {name!r}; choose one of {', '.join(PRESETS)}"
            ) from None

    @classmethod
    def parse(cls, text: str) -> FaultConfig:
        """``"heavy"`` or ``"light,corrupt=0.01,unplug=0"``: a preset, then overrides."""
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if not parts:
            return PRESETS["none"]
        base = PRESETS["none"]
        if "=" not in parts[0]:
            base = cls.preset(parts.pop(0))
        known = {f.name: f.type for f in fields(cls)}
        changes: dict[str, object] = {}
        for part in parts:
            key, _, raw = part.partition("=")
            key = key.strip()
            if key not in known:
                raise ValueError(f"unknown fault setting {key!r}; known: {', '.join(known)}")
            try:
                value: object
                if key == "lossy_reboot":
                    value = raw.strip().lower() in {"1", "true", "yes", "on"}
                elif key == "blackout_frames":
                    value = int(raw)
                else:
                    value = float(raw)
            except ValueError:
                raise ValueError(f"fault setting {key}={raw!r} is not a number") from None
            changes[key] = value
        cfg = replace(base, **changes)  # type: ignore[arg-type]
        cfg.validate()
        return cfg

    def validate(self) -> None:
        for name in ("corrupt", "drop", "duplicate", "delay", "unplug", "reboot", "blackout"):
            p = getattr(self, name)
            if not 0.0 <= p <= 1.0:
                raise ValueError(f"fault setting {name}={p} must be a probability between 0 and 1")
        if not 0.0 <= self.delay_min <= self.delay_max <= 1.0:
            raise ValueError("stalls must satisfy 0 <= delay_min <= delay_max <= 1 s")
        if self.unplug_for < 0 or self.blackout_frames < 0:
            raise ValueError("unplug_for and blackout_frames cannot be negative")

    @property
    def touches_bytes(self) -> bool:
        return any((self.corrupt, self.drop, self.duplicate, self.delay))


PRESETS: dict[str, FaultConfig] = {
    "none": FaultConfig(),
    "light": FaultConfig(
        corrupt=0.001,
        drop=0.0005,
        duplicate=0.01,
        delay=0.02,
        delay_max=0.03,
        unplug=0.005,
        unplug_for=0.2,
        reboot=0.005,
        blackout=0.02,
        blackout_frames=2,
    ),
    "heavy": FaultConfig(
        corrupt=0.005,
        drop=0.002,
        duplicate=0.05,
        delay=0.1,
        delay_max=0.08,
        unplug=0.03,
        unplug_for=0.5,
        reboot=0.02,
        blackout=0.1,
        blackout_frames=5,
    ),
}


@dataclass
class FaultCounters:
    """What was injected, for reports and for tests that a fault really happened."""

    bytes_corrupted: int = 0
    bytes_dropped: int = 0
    frames_duplicated: int = 0
    stalls: int = 0
    unplugs: int = 0
    reboots: int = 0
    lost_reboots: int = 0
    blackouts: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    def total(self) -> int:
        return sum(asdict(self).values())


class ByteFaults:
    """One direction of a serial line, with faults; order is always preserved.

    Bytes fed in come out of :meth:`take_due` once their (possibly stalled)
    delivery time has come. Duplicated frames are copied whole, delimiter
    included, right behind the original, which is what a firmware resending a
    frame it believes lost would produce.
    """

    def __init__(
        self, config: FaultConfig, rng: random.Random, counters: FaultCounters | None = None
    ) -> None:
        self.config = config
        self.rng = rng
        self.counters = counters if counters is not None else FaultCounters()
        self._queue: deque[tuple[float, bytes]] = deque()
        self._frame = bytearray()  # the frame being passed through, kept for duplication
        self._release_at = 0.0  # the stream never delivers earlier than this (stalls)

    def feed(self, data: bytes, now: float) -> None:
        cfg = self.config
        if not cfg.touches_bytes:
            self._push(now, data)
            return
        rng = self.rng
        if cfg.delay and rng.random() < cfg.delay:
            self.counters.stalls += 1
            self._release_at = max(self._release_at, now) + rng.uniform(
                cfg.delay_min, cfg.delay_max
            )
        out = bytearray()
        for byte in data:
            if cfg.drop and rng.random() < cfg.drop:
                self.counters.bytes_dropped += 1
                continue
            if cfg.corrupt and rng.random() < cfg.corrupt:
                byte ^= 1 << rng.randrange(8)
                self.counters.bytes_corrupted += 1
            out.append(byte)
            if cfg.duplicate:
                self._frame.append(byte)
                if byte == FRAME_DELIMITER:
                    if len(self._frame) > 1 and rng.random() < cfg.duplicate:
                        out += self._frame
                        self.counters.frames_duplicated += 1
                    self._frame.clear()
        self._push(now, bytes(out))

    def _push(self, now: float, data: bytes) -> None:
        if data:
            self._queue.append((max(now, self._release_at), data))

    def next_due(self) -> float | None:
        """When the oldest held bytes may pass, or None when nothing is held."""
        return self._queue[0][0] if self._queue else None

    def take_due(self, now: float) -> bytes:
        """Everything whose time has come, in order."""
        out = bytearray()
        while self._queue and self._queue[0][0] <= now:
            out += self._queue.popleft()[1]
        return bytes(out)

    def clear(self) -> None:
        """The cable is pulled: whatever was on the wire is gone."""
        self._queue.clear()
        self._frame.clear()


@dataclass
class ScheduledFault:
    """A fault the rig carries out now: ``kind`` is ``unplug``, ``reboot`` or ``blackout``."""

    kind: str
    device: str
    seconds: float = 0.0
    frames: int = 0


@dataclass
class FaultPlan:
    """Decides, at each card out, whether a scheduled fault strikes and where."""

    config: FaultConfig
    rng: random.Random
    counters: FaultCounters = field(default_factory=FaultCounters)

    def on_card_out(self, devices: list[str]) -> list[ScheduledFault]:
        cfg, rng = self.config, self.rng
        out: list[ScheduledFault] = []
        if cfg.blackout and rng.random() < cfg.blackout:
            out.append(ScheduledFault("blackout", "camera", frames=max(1, cfg.blackout_frames)))
        if devices and cfg.unplug and rng.random() < cfg.unplug:
            out.append(ScheduledFault("unplug", rng.choice(devices), seconds=cfg.unplug_for))
        if devices and cfg.reboot and rng.random() < cfg.reboot:
            out.append(ScheduledFault("reboot", rng.choice(devices)))
        return out
