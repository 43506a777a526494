"""The device's side of the protocol: the firmware logic, sans-I/O.

:class:`DeviceCore` is what a shoe or panel microcontroller runs, in Python:
the per-boot event log and ``event_no``, sessions, command execution through a
small :class:`Hardware` interface, and the fail-safe timer (docs/protocol.md
section 9).  Time is passed in; bytes go in and out.  The hardware simulator
implements :class:`Hardware` and drives a core per emulated device;
:class:`BusEndpoint` hosts several panel cores on one RS-485 port.
"""

from __future__ import annotations

import logging
import secrets
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from firmware_bridge.link import Link, LinkConfig, LinkCounters
from firmware_bridge.wire import (
    COMMAND_TYPES,
    FLAG_FROM_DEVICE,
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    BodyError,
    Button,
    Capability,
    CrcError,
    DeviceKind,
    DeviceStatus,
    Dispense,
    Event,
    EventKind,
    Frame,
    FrameDecoder,
    FrameError,
    Header,
    Hello,
    HelloReply,
    LengthError,
    Light,
    MsgType,
    Ping,
    Pong,
    Result,
    ResultCode,
    SetGate,
    SetLights,
    SetText,
    SyncEvents,
    SyncResult,
    button_capability,
    decode_command,
    encode_frame,
)

log = logging.getLogger(__name__)

LOG_CAPACITY = 64
OFFLINE_TEXT = "OFFLINE"


class Hardware(Protocol):
    """What the firmware logic asks of the physical device; each returns a result code."""

    def set_gate(self, locked: bool) -> ResultCode: ...

    def set_lights(self, mask: int) -> ResultCode: ...

    def set_text(self, text: str) -> ResultCode: ...

    def dispense(self) -> ResultCode: ...


@dataclass
class RecordingHardware:
    """A :class:`Hardware` that only remembers: for tests and as the simulator's base."""

    gate_locked: bool = True
    lights: int = 0
    text: str = ""
    dispensed: int = 0
    dispense_result: ResultCode = ResultCode.OK
    calls: list[tuple[str, object]] = field(default_factory=list)

    def set_gate(self, locked: bool) -> ResultCode:
        self.gate_locked = locked
        self.calls.append(("gate", locked))
        return ResultCode.OK

    def set_lights(self, mask: int) -> ResultCode:
        self.lights = mask
        self.calls.append(("lights", mask))
        return ResultCode.OK

    def set_text(self, text: str) -> ResultCode:
        self.text = text
        self.calls.append(("text", text))
        return ResultCode.OK

    def dispense(self) -> ResultCode:
        self.calls.append(("dispense", None))
        if self.dispense_result == ResultCode.OK:
            self.dispensed += 1
        return self.dispense_result


@dataclass(frozen=True, slots=True)
class DeviceIdentity:
    """What HELLO_REPLY says; ``protocol`` can be changed to test version refusal."""

    kind: DeviceKind
    capabilities: int
    seat: int = 0
    firmware: tuple[int, int, int] = (1, 0, 0)
    hardware_rev: int = 1
    unique_id: bytes = b"\x00" * 8
    protocol: tuple[int, int] = (PROTOCOL_MAJOR, PROTOCOL_MINOR)


SHOE_CAPABILITIES = Capability.GATE | Capability.EXIT_SENSOR | Capability.LIGHTS
SEAT_BUTTONS = (
    Button.TWIST,
    Button.BUY,
    Button.STICK,
    Button.SPLIT,
    Button.STAKE_UP,
    Button.STAKE_DOWN,
    Button.CONFIRM,
)
DEALER_BUTTONS = (Button.DRAW, Button.STAY, Button.NEXT, Button.PAUSE, Button.CONFIRM)


def panel_capabilities(buttons: Iterable[Button]) -> int:
    mask = int(Capability.LIGHTS | Capability.TEXT)
    for b in buttons:
        mask |= button_capability(b)
    return mask


def shoe_identity(
    *, motor: bool = False, unique_id: bytes = b"SHOE0001", pack_switch: bool = False
) -> DeviceIdentity:
    """``pack_switch``: a 1.1 shoe with the loading-lid switch (PACK_LOADED)."""
    caps = SHOE_CAPABILITIES | (Capability.MOTOR if motor else 0)
    caps |= Capability.PACK_SWITCH if pack_switch else 0
    return DeviceIdentity(DeviceKind.SHOE, int(caps), unique_id=unique_id)


def seat_identity(seat: int, buttons: Iterable[Button] = SEAT_BUTTONS) -> DeviceIdentity:
    return DeviceIdentity(
        DeviceKind.SEAT_PANEL,
        panel_capabilities(buttons),
        seat=seat,
        unique_id=f"SEAT{seat:04d}".encode(),
    )


def dealer_identity() -> DeviceIdentity:
    return DeviceIdentity(
        DeviceKind.DEALER_PANEL, panel_capabilities(DEALER_BUTTONS), unique_id=b"DEALER01"
    )


def new_boot_id() -> int:
    return secrets.randbits(32) or 1


class DeviceCore:
    """One device's firmware logic.

    ``polled`` selects bus behaviour: the core never transmits on its own and
    :meth:`receive_frame` returns exactly one reply per frame addressed to it.
    """

    def __init__(
        self,
        identity: DeviceIdentity,
        hardware: Hardware,
        *,
        address: int = 0,
        now: float = 0.0,
        boot_id: int | None = None,
        polled: bool = False,
        config: LinkConfig | None = None,
        log_capacity: int = LOG_CAPACITY,
    ) -> None:
        self.identity = identity
        self.hardware = hardware
        self.address = address
        self.polled = polled
        self.config = config or LinkConfig()
        self.counters = LinkCounters()
        self.link = Link(address, True, self.config, self.counters, polled)
        self.decoder = FrameDecoder()
        self.boot_id = new_boot_id() if boot_id is None else boot_id
        self.boot_time = now
        self.log: deque[Event] = deque(maxlen=log_capacity)
        self.last_event_no = 0
        self.session = 0  # the HELLO nonce of the current session; 0: none
        self.streaming = False  # SYNC_EVENTS received: events flow
        self.fail_safe = False
        self.gate_locked = True
        self.status = 0  # JAMMED / EMPTY bits, kept by the simulator
        self.last_dispense_no: int | None = None
        self.last_heard = now
        self.events_dropped = 0  # left the log before the host had them
        self._enter_fail_safe("power-up")

    # --- events (what the device's sensors and buttons call) --------------------

    def device_ms(self, now: float) -> int:
        return round((now - self.boot_time) * 1000) & 0xFFFFFFFF

    def emit(self, kind: EventKind, now: float, arg: int = 0, device_ms: int | None = None) -> int:
        """Record an event; it goes to the host now or on its next SYNC_EVENTS."""
        self.last_event_no += 1
        event = Event(self.last_event_no, self.device_ms(now) if device_ms is None else device_ms,
                      kind, arg)
        if len(self.log) == self.log.maxlen:
            self.events_dropped += 1
        self.log.append(event)
        if self.session and self.streaming:
            self.link.queue(MsgType.EVENT, event.encode())
            if not self.polled:
                self.link.flush(now)
        return event.event_no

    def emit_card_out(self, now: float, device_ms: int | None = None) -> int:
        return self.emit(EventKind.CARD_OUT, now, device_ms=device_ms)

    def emit_button(self, button: Button, now: float) -> int | None:
        """A press; ignored (None) in fail-safe, where it could only be stale."""
        if self.fail_safe:
            return None
        if not self.identity.capabilities & button_capability(button):
            raise ValueError(f"this panel has no {button.name} button")
        return self.emit(EventKind.BUTTON, now, int(button))

    def emit_gate_forced(self, now: float) -> int:
        return self.emit(EventKind.GATE_FORCED, now)

    def emit_gate_jammed(self, now: float) -> int:
        self.status |= DeviceStatus.JAMMED
        return self.emit(EventKind.GATE_JAMMED, now)

    def emit_shoe_empty(self, now: float) -> int:
        self.status |= DeviceStatus.EMPTY
        return self.emit(EventKind.SHOE_EMPTY, now)

    def emit_pack_loaded(self, now: float) -> int:
        """Protocol 1.1: the loading lid closed on a pack; the shoe is no longer
        empty.  Only a shoe with the lid switch (``PACK_SWITCH``) records it."""
        if not self.identity.capabilities & Capability.PACK_SWITCH:
            raise ValueError("this shoe has no pack switch")
        self.status &= ~DeviceStatus.EMPTY
        return self.emit(EventKind.PACK_LOADED, now)

    # --- time and bytes -------------------------------------------------------------

    def tick(self, now: float) -> None:
        if not self.fail_safe and now - self.last_heard > self.config.device_silence:
            self._enter_fail_safe(f"nothing heard for {self.config.device_silence:g} s")
            return
        if self.polled or not self.session:
            return
        self.link.tick(now)
        if self.link.failure:
            self._drop_session(self.link.failure)
        self.link.flush(now)

    def next_deadline(self) -> float | None:
        times = []
        if not self.fail_safe:
            times.append(self.last_heard + self.config.device_silence)
        link_deadline = self.link.next_deadline()
        if link_deadline is not None and self.session:
            times.append(link_deadline)
        return min(times) if times else None

    def receive_bytes(self, data: bytes, now: float) -> None:
        """Stream mode input; replies are collected by :meth:`data_to_send`."""
        self.counters.bytes_received += len(data)
        for item in self.decoder.feed(data):
            if isinstance(item, FrameError):
                self.counters.frame_error(item)
                continue
            reply = self.receive_frame(item, now)
            if reply:
                self.link.write(reply)
        if self.session and not self.polled:
            self.link.flush(now)

    def data_to_send(self) -> bytes:
        return self.link.take_output()

    def receive_frame(self, frame: Frame, now: float) -> bytes:
        """Handle one frame; returns the immediate reply (always one on the bus)."""
        header = frame.header
        if header.from_device or header.address != self.address:
            return b""  # another device's reply, our own echo, or not for us
        self.last_heard = now
        if header.type == MsgType.HELLO:
            return self._on_hello(frame.body, now)
        if header.version != PROTOCOL_MAJOR:
            self.counters.version_errors += 1
            return self._sessionless(MsgType.NO_SESSION) if self.polled else b""
        if not self.session:
            return self._sessionless(MsgType.NO_SESSION)
        idle = MsgType.ACK
        idle_body = b""
        for h, body in self.link.on_frame(header, frame.body, now):
            if h.type == MsgType.PING:
                try:
                    token = Ping.decode(body).token
                except BodyError:
                    self.counters.bad_bodies += 1
                    token = 0
                idle, idle_body = MsgType.PONG, self._pong(token, now)
                if not self.polled:
                    self.link.send_control(idle, idle_body)
            elif h.sequenced:
                self._execute(h.seq, h.type, body, now)
            elif h.type != MsgType.ACK:
                self.counters.unknown_types += 1
        if self.link.failure:
            self._drop_session(self.link.failure)
            return self._sessionless(MsgType.NO_SESSION) if self.polled else b""
        if self.polled:
            return self.link.turn_frame(now, idle, idle_body)
        return b""

    # --- internals ------------------------------------------------------------------------

    def _pong(self, token: int, now: float) -> bytes:
        status = self.status  # bit 0 reserved: in fail-safe there is no PING to answer
        if self.gate_locked:
            status |= DeviceStatus.GATE_LOCKED
        return Pong(token, self.last_event_no, self.device_ms(now), status).encode()

    def _on_hello(self, body: bytes, now: float) -> bytes:
        try:
            hello = Hello.decode(body)
        except BodyError:
            self.counters.bad_bodies += 1
            return b""
        major, minor = self.identity.protocol
        if hello.major == major and (hello.nonce != self.session or not self.session):
            self.link.reset()
            self.session = hello.nonce
            self.streaming = False
            self._new_session_outputs()
        ident = self.identity
        reply = HelloReply(
            major=major,
            minor=minor,
            kind=ident.kind,
            seat=ident.seat,
            firmware=ident.firmware,
            hardware_rev=ident.hardware_rev,
            unique_id=ident.unique_id,
            boot_id=self.boot_id,
            capabilities=ident.capabilities,
            last_event_no=self.last_event_no,
            nonce=hello.nonce,
        )
        return self._sessionless(MsgType.HELLO_REPLY, reply.encode(), major)

    def _sessionless(self, mtype: int, body: bytes = b"", version: int = PROTOCOL_MAJOR) -> bytes:
        """HELLO_REPLY or NO_SESSION: they belong to no session, so they carry
        ``seq`` 0 and ``ack`` 0 (docs/protocol.md section 2), even mid-session."""
        header = Header(self.address, mtype, 0, 0, FLAG_FROM_DEVICE, version)
        data = encode_frame(header, body)
        self.counters.frames_sent += 1
        self.counters.bytes_sent += len(data)
        return data

    def _execute(self, seq: int, mtype: int, body: bytes, now: float) -> None:
        extra = b""
        cmd: object = None
        if mtype not in COMMAND_TYPES:
            code = ResultCode.UNKNOWN_TYPE
        else:
            try:
                cmd = decode_command(mtype, body)
            except LengthError:
                code = ResultCode.BAD_LENGTH
            except BodyError:
                code = ResultCode.BAD_VALUE
            else:
                code, extra = self._run(cmd)
        self.link.queue(MsgType.RESULT, Result(seq, mtype, code, extra).encode())
        if isinstance(cmd, SyncEvents) and code == ResultCode.OK:
            self._start_stream(cmd)  # after the RESULT, as the spec orders

    def _run(self, cmd: object) -> tuple[ResultCode, bytes]:
        caps = self.identity.capabilities
        if isinstance(cmd, SyncEvents):
            oldest = self.log[0].event_no if self.log else self.last_event_no + 1
            return ResultCode.OK, SyncResult(oldest, self.last_event_no).encode()
        if isinstance(cmd, SetGate):
            if not caps & Capability.GATE:
                return ResultCode.NOT_SUPPORTED, b""
            code = self.hardware.set_gate(cmd.locked)
            if code == ResultCode.OK:
                self.gate_locked = cmd.locked
            return code, b""
        if isinstance(cmd, SetLights):
            if not caps & Capability.LIGHTS:
                return ResultCode.NOT_SUPPORTED, b""
            # bit 27 OFFLINE is the device's own fail-safe pattern, never the host's
            return self.hardware.set_lights(cmd.mask & ~int(Light.OFFLINE)), b""
        if isinstance(cmd, SetText):
            if not caps & Capability.TEXT:
                return ResultCode.NOT_SUPPORTED, b""
            return self.hardware.set_text(cmd.text), b""
        if isinstance(cmd, Dispense):
            if not caps & Capability.MOTOR:
                return ResultCode.NOT_SUPPORTED, b""
            if cmd.dispense_no == self.last_dispense_no:
                return ResultCode.ALREADY_DONE, b""
            code = self.hardware.dispense()
            if code == ResultCode.OK:
                self.last_dispense_no = cmd.dispense_no
            return code, b""
        return ResultCode.UNKNOWN_TYPE, b""

    def _start_stream(self, sync: SyncEvents) -> None:
        after = sync.after_event_no if sync.boot_id == self.boot_id else 0
        for event in self.log:
            if event.event_no > after:
                self.link.queue(MsgType.EVENT, event.encode())
        self.streaming = True

    def _drop_session(self, reason: str) -> None:
        if self.session:
            log.warning("device @%d: session dropped: %s", self.address, reason)
        self.session = 0
        self.streaming = False
        self.link.reset()

    def _enter_fail_safe(self, reason: str) -> None:
        # Every power-up starts fail-safe by design; only a lost host is news.
        level = logging.INFO if reason == "power-up" else logging.WARNING
        log.log(level, "device @%d: fail-safe (%s)", self.address, reason)
        self._drop_session(reason)
        self.fail_safe = True
        caps = self.identity.capabilities
        if caps & Capability.GATE:
            self.hardware.set_gate(True)
            self.gate_locked = True
        if caps & Capability.LIGHTS:
            self.hardware.set_lights(int(Light.OFFLINE))
        if caps & Capability.TEXT:
            self.hardware.set_text(OFFLINE_TEXT)

    def _new_session_outputs(self) -> None:
        """Every new session, from fail-safe or not, starts with the gate locked,
        every lamp off and no text (docs/protocol.md section 4): no card leaves
        on the word of a session that has ended."""
        self.fail_safe = False
        caps = self.identity.capabilities
        if caps & Capability.GATE:
            self.hardware.set_gate(True)
            self.gate_locked = True
        if caps & Capability.LIGHTS:
            self.hardware.set_lights(0)
        if caps & Capability.TEXT:
            self.hardware.set_text("")


class BusEndpoint:
    """Several polled panel cores sharing one RS-485 port (one pty in the simulator)."""

    def __init__(self, devices: Iterable[DeviceCore]) -> None:
        self.devices = {d.address: d for d in devices}
        for d in self.devices.values():
            if not d.polled:
                raise ValueError(f"device @{d.address} must be polled to sit on a bus")
        self.decoder = FrameDecoder()
        self._out = bytearray()
        #: damaged frames on the bus, before any address is known: noise (a
        #: CRC mismatch) apart from other damage
        self.crc_errors = 0
        self.bad_frames = 0

    def receive_bytes(self, data: bytes, now: float) -> None:
        for item in self.decoder.feed(data):
            if isinstance(item, CrcError):
                self.crc_errors += 1
                continue
            if isinstance(item, FrameError):
                self.bad_frames += 1
                continue
            device = self.devices.get(item.header.address)
            if device is not None:
                self._out += device.receive_frame(item, now)

    def tick(self, now: float) -> None:
        for d in self.devices.values():
            d.tick(now)

    def next_deadline(self) -> float | None:
        times = [t for d in self.devices.values() if (t := d.next_deadline()) is not None]
        return min(times) if times else None

    def data_to_send(self) -> bytes:
        data = bytes(self._out)
        self._out.clear()
        return data
