"""Every number on the wire, in one place both the host and the device import.

This module is the executable form of ``docs/protocol.md``: frame layout, message
types, result codes, buttons, lights and capabilities, plus the pure codec
(COBS framing, CRC-16/MCRF4XX, header and body packing).  It does no I/O and
keeps no state except the byte buffer of :class:`FrameDecoder`.

Bad input never raises anything but :class:`WireError` (and its subclasses);
the decoder reports damaged frames as values so a stream can go on.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass
from enum import IntEnum, IntFlag

from cobs import cobs

PROTOCOL_MAJOR = 1
#: 1.1 adds PACK_LOADED, PACK_SWITCH and AUTO_RELOCK (docs/protocol.md section 12)
PROTOCOL_MINOR = 1

HEADER = struct.Struct("<BBBBBB")  # version, address, flags, seq, ack, type
HEADER_SIZE = HEADER.size
CRC_SIZE = 2
MAX_BODY = 240
MIN_FRAME = HEADER_SIZE + CRC_SIZE
MAX_FRAME = HEADER_SIZE + MAX_BODY + CRC_SIZE
#: the longest COBS encoding of a MAX_FRAME payload, delimiter excluded
MAX_ENCODED = MAX_FRAME + (MAX_FRAME + 253) // 254
DELIMITER = b"\x00"

#: the frame carries a sequence number: the receiver must acknowledge it
FLAG_SEQ = 0x01
#: set on every frame a device sends, clear on every frame the host sends, so an
#: RS-485 transceiver's echo of its own frame is never taken for the host's
FLAG_FROM_DEVICE = 0x02

#: address of a device alone on its own USB link (the shoe)
ADDRESS_DIRECT = 0x00
#: RS-485 addresses: seat n's panel is n (1..14), the dealer panel is 15
SEAT_ADDRESS_MIN = 0x01
SEAT_ADDRESS_MAX = 0x0E
ADDRESS_DEALER = 0x0F

MAX_TEXT = 32


class WireError(ValueError):
    """Base of every error the codec raises on bad input."""


class FrameError(WireError):
    """A frame failed COBS, length or CRC checks."""


class CrcError(FrameError):
    """A frame whose CRC does not match: line noise, counted apart from the
    other damage (bad COBS, a truncated or oversized frame), which points at a
    wiring fault or a desynchronised reader rather than noise."""


class OversizedError(FrameError):
    """More than :data:`MAX_ENCODED` bytes without a delimiter."""


class CobsError(FrameError):
    """Bytes between two delimiters that are not valid COBS."""


class TruncatedError(FrameError):
    """A frame too short to hold a header and a CRC."""


class BodyError(WireError):
    """A frame was sound but its body does not match its message type."""


class LengthError(BodyError):
    """A body of the wrong size for its message type."""


class MsgType(IntEnum):
    """Message types.  0x01-0x0F are link control (never sequenced)."""

    HELLO = 0x01
    HELLO_REPLY = 0x02
    PING = 0x03
    PONG = 0x04
    ACK = 0x05
    NO_SESSION = 0x06
    # host -> device commands (sequenced, each answered by RESULT)
    SYNC_EVENTS = 0x10
    SET_GATE = 0x11
    SET_LIGHTS = 0x12
    SET_TEXT = 0x13
    DISPENSE = 0x14
    # device -> host (sequenced)
    RESULT = 0x20
    EVENT = 0x21


SEQUENCED_TYPES = frozenset(
    {
        MsgType.SYNC_EVENTS,
        MsgType.SET_GATE,
        MsgType.SET_LIGHTS,
        MsgType.SET_TEXT,
        MsgType.DISPENSE,
        MsgType.RESULT,
        MsgType.EVENT,
    }
)
COMMAND_TYPES = frozenset(
    {MsgType.SYNC_EVENTS, MsgType.SET_GATE, MsgType.SET_LIGHTS, MsgType.SET_TEXT, MsgType.DISPENSE}
)


class DeviceKind(IntEnum):
    SHOE = 1
    SEAT_PANEL = 2
    DEALER_PANEL = 3


class ResultCode(IntEnum):
    OK = 0
    UNKNOWN_TYPE = 1
    BAD_LENGTH = 2
    BAD_VALUE = 3
    NOT_SUPPORTED = 4
    JAMMED = 5
    EMPTY = 6
    ALREADY_DONE = 7
    FAILED = 8


RESULT_TEXT = {
    ResultCode.OK: "done",
    ResultCode.UNKNOWN_TYPE: "the device does not know this command (firmware too old?)",
    ResultCode.BAD_LENGTH: "the command had the wrong length",
    ResultCode.BAD_VALUE: "the device refused a value in the command",
    ResultCode.NOT_SUPPORTED: "this device has no such feature",
    ResultCode.JAMMED: "the shoe is jammed",
    ResultCode.EMPTY: "the shoe is empty",
    ResultCode.ALREADY_DONE: "already done (a repeated command)",
    ResultCode.FAILED: "the device could not carry out the command",
}


def result_text(code: int) -> str:
    """A result code as a dealer-readable phrase (unknown codes included)."""
    try:
        return RESULT_TEXT[ResultCode(code)]
    except ValueError:
        return f"the device answered with unknown result code {code}"


class EventKind(IntEnum):
    CARD_OUT = 1
    BUTTON = 2
    GATE_FORCED = 3
    GATE_JAMMED = 4
    SHOE_EMPTY = 5
    #: protocol 1.1: the shoe's loading lid closed on a pack (clears status EMPTY)
    PACK_LOADED = 6


class Button(IntEnum):
    """One code space for every panel; capability bit ``code - 1`` says a panel has it."""

    TWIST = 1
    BUY = 2
    STICK = 3
    SPLIT = 4
    STAKE_UP = 5
    STAKE_DOWN = 6
    CONFIRM = 7
    DOUBLE = 8
    SHOOT = 9
    INSURE = 10
    EVEN_MONEY = 11
    DRAW = 12
    STAY = 13
    NEXT = 14
    PAUSE = 15


class Light(IntFlag):
    """Light mask: bit ``code - 1`` is the lamp under button ``code``; bits 24+ are status."""

    READY = 1 << 24
    WAIT = 1 << 25
    ALARM = 1 << 26
    OFFLINE = 1 << 27


def button_light(button: Button) -> int:
    return 1 << (button - 1)


class Capability(IntFlag):
    """Capability mask: bits 0-14 are the buttons (bit ``code - 1``); bits 16+ features."""

    GATE = 1 << 16
    MOTOR = 1 << 17
    TEXT = 1 << 18
    EXIT_SENSOR = 1 << 19
    LIGHTS = 1 << 20
    #: protocol 1.1: the shoe has a loading-lid switch and records PACK_LOADED
    PACK_SWITCH = 1 << 21
    #: protocol 1.1: the shoe locks its gate itself as a card leaves
    AUTO_RELOCK = 1 << 22


def button_capability(button: Button) -> int:
    return 1 << (button - 1)


def buttons_in(capabilities: int) -> frozenset[Button]:
    return frozenset(b for b in Button if capabilities & button_capability(b))


# --- CRC and COBS -----------------------------------------------------------------

_BITREV = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def crc16_mcrf4xx(data: bytes) -> int:
    """CRC-16/MCRF4XX (poly 0x1021 reflected, init 0xFFFF, no final xor).

    The stdlib's C ``crc_hqx`` computes the same polynomial unreflected; feeding
    it bit-reversed bytes and reversing the result gives the reflected CRC at C
    speed without a hand-written table.
    """
    raw = binascii.crc_hqx(data.translate(_BITREV), 0xFFFF)
    return (_BITREV[raw & 0xFF] << 8) | _BITREV[raw >> 8]


@dataclass(frozen=True, slots=True)
class Header:
    address: int
    type: int
    seq: int = 0
    ack: int = 0
    flags: int = 0
    version: int = PROTOCOL_MAJOR

    @property
    def sequenced(self) -> bool:
        return bool(self.flags & FLAG_SEQ)

    @property
    def from_device(self) -> bool:
        return bool(self.flags & FLAG_FROM_DEVICE)


@dataclass(frozen=True, slots=True)
class Frame:
    header: Header
    body: bytes


def encode_frame(header: Header, body: bytes = b"") -> bytes:
    """Header + body + CRC, COBS-encoded, with the 0x00 delimiter appended."""
    if len(body) > MAX_BODY:
        raise FrameError(f"body of {len(body)} bytes is longer than {MAX_BODY}")
    raw = (
        HEADER.pack(
            header.version & 0xFF,
            header.address & 0xFF,
            header.flags & 0xFF,
            header.seq & 0xFF,
            header.ack & 0xFF,
            header.type & 0xFF,
        )
        + body
    )
    raw += struct.pack("<H", crc16_mcrf4xx(raw))
    return bytes(cobs.encode(raw)) + DELIMITER


def decode_frame(encoded: bytes) -> Frame:
    """Decode one frame (delimiter already removed); raises :class:`FrameError`."""
    if len(encoded) > MAX_ENCODED:
        raise OversizedError(f"oversized frame ({len(encoded)} bytes)")
    try:
        raw = bytes(cobs.decode(encoded))
    except cobs.DecodeError as exc:
        raise CobsError(f"bad COBS encoding: {exc}") from None
    if len(raw) < MIN_FRAME:
        raise TruncatedError(f"truncated frame ({len(raw)} bytes)")
    (crc,) = struct.unpack_from("<H", raw, len(raw) - CRC_SIZE)
    if crc != crc16_mcrf4xx(raw[:-CRC_SIZE]):
        raise CrcError("CRC mismatch")
    version, address, flags, seq, ack, mtype = HEADER.unpack_from(raw)
    return Frame(Header(address, mtype, seq, ack, flags, version), raw[HEADER_SIZE:-CRC_SIZE])


class FrameDecoder:
    """Splits a byte stream at 0x00 delimiters into frames and errors.

    Garbage is confined to the frame it lands in: the next delimiter always
    resynchronises.  Bytes beyond :data:`MAX_ENCODED` without a delimiter are
    dropped (reported once as an oversized frame), so memory stays bounded
    whatever the line carries.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        out: list[Frame | FrameError] = []
        start = 0
        while True:
            end = data.find(0, start)
            if end < 0:
                self._append(data[start:])
                return out
            self._append(data[start:end])
            if self._overflow:
                out.append(OversizedError("oversized frame (no delimiter in time)"))
            elif self._buf:
                try:
                    out.append(decode_frame(bytes(self._buf)))
                except FrameError as exc:
                    out.append(exc)
            self._buf.clear()
            self._overflow = False
            start = end + 1

    def _append(self, chunk: bytes) -> None:
        if self._overflow or not chunk:
            return
        if len(self._buf) + len(chunk) > MAX_ENCODED:
            self._buf.clear()
            self._overflow = True
        else:
            self._buf += chunk


# --- message bodies ----------------------------------------------------------------

_HELLO = struct.Struct("<BBH")
_HELLO_REPLY = struct.Struct("<BBBBBBBB8sIIIH")
_PING = struct.Struct("<H")
_PONG = struct.Struct("<HIIB")
_SYNC = struct.Struct("<II")
_SYNC_RESULT = struct.Struct("<II")
_RESULT_HEAD = struct.Struct("<BBB")
_EVENT = struct.Struct("<IIBB")
_U8 = struct.Struct("<B")
_U16 = struct.Struct("<H")
_U32 = struct.Struct("<I")


def _unpack(fmt: struct.Struct, body: bytes, what: str) -> tuple[int | bytes, ...]:
    if len(body) != fmt.size:
        raise LengthError(f"{what} body must be {fmt.size} bytes, got {len(body)}")
    return fmt.unpack(body)


@dataclass(frozen=True, slots=True)
class Hello:
    major: int = PROTOCOL_MAJOR
    minor: int = PROTOCOL_MINOR
    nonce: int = 0

    def encode(self) -> bytes:
        return _HELLO.pack(self.major, self.minor, self.nonce)

    @classmethod
    def decode(cls, body: bytes) -> Hello:
        # Only the first four bytes are frozen across versions; a longer HELLO
        # from a newer host is still understood.
        if len(body) < _HELLO.size:
            raise LengthError(f"HELLO body must be at least {_HELLO.size} bytes, got {len(body)}")
        major, minor, nonce = _HELLO.unpack_from(body)
        return cls(major, minor, nonce)


@dataclass(frozen=True, slots=True)
class HelloReply:
    major: int
    minor: int
    kind: int
    seat: int
    firmware: tuple[int, int, int]
    hardware_rev: int
    unique_id: bytes
    boot_id: int
    capabilities: int
    last_event_no: int
    nonce: int

    def encode(self) -> bytes:
        return _HELLO_REPLY.pack(
            self.major,
            self.minor,
            self.kind,
            self.seat,
            *self.firmware,
            self.hardware_rev,
            self.unique_id,
            self.boot_id,
            self.capabilities,
            self.last_event_no,
            self.nonce,
        )

    @classmethod
    def decode(cls, body: bytes) -> HelloReply:
        if len(body) < _HELLO_REPLY.size:
            raise LengthError(
                f"HELLO_REPLY body must be at least {_HELLO_REPLY.size} bytes, got {len(body)}"
            )
        f = _HELLO_REPLY.unpack_from(body)
        return cls(
            major=f[0],
            minor=f[1],
            kind=f[2],
            seat=f[3],
            firmware=(f[4], f[5], f[6]),
            hardware_rev=f[7],
            unique_id=f[8],
            boot_id=f[9],
            capabilities=f[10],
            last_event_no=f[11],
            nonce=f[12],
        )


@dataclass(frozen=True, slots=True)
class Ping:
    token: int

    def encode(self) -> bytes:
        return _PING.pack(self.token)

    @classmethod
    def decode(cls, body: bytes) -> Ping:
        (token,) = _unpack(_PING, body, "PING")
        assert isinstance(token, int)
        return cls(token)


class DeviceStatus(IntFlag):
    """PONG ``status`` bits.  Bit 0 (0x01, once ``FAIL_SAFE``) is reserved: a
    device in fail-safe has no session and answers PING with NO_SESSION, so
    the bit could never be sent (docs/protocol.md section 3)."""

    GATE_LOCKED = 0x02
    JAMMED = 0x04
    EMPTY = 0x08


@dataclass(frozen=True, slots=True)
class Pong:
    token: int
    last_event_no: int
    uptime_ms: int
    status: int

    def encode(self) -> bytes:
        return _PONG.pack(self.token, self.last_event_no, self.uptime_ms, self.status)

    @classmethod
    def decode(cls, body: bytes) -> Pong:
        token, last, uptime, status = _unpack(_PONG, body, "PONG")
        assert isinstance(token, int) and isinstance(last, int)
        assert isinstance(uptime, int) and isinstance(status, int)
        return cls(token, last, uptime, status)


@dataclass(frozen=True, slots=True)
class SyncEvents:
    boot_id: int
    after_event_no: int

    def encode(self) -> bytes:
        return _SYNC.pack(self.boot_id, self.after_event_no)

    @classmethod
    def decode(cls, body: bytes) -> SyncEvents:
        boot, after = _unpack(_SYNC, body, "SYNC_EVENTS")
        assert isinstance(boot, int) and isinstance(after, int)
        return cls(boot, after)


@dataclass(frozen=True, slots=True)
class SetGate:
    locked: bool

    def encode(self) -> bytes:
        return _U8.pack(1 if self.locked else 0)

    @classmethod
    def decode(cls, body: bytes) -> SetGate:
        (value,) = _unpack(_U8, body, "SET_GATE")
        if value not in (0, 1):
            raise BodyError(f"SET_GATE value must be 0 or 1, got {value!r}")
        return cls(bool(value))


@dataclass(frozen=True, slots=True)
class SetLights:
    mask: int

    def encode(self) -> bytes:
        return _U32.pack(self.mask)

    @classmethod
    def decode(cls, body: bytes) -> SetLights:
        (mask,) = _unpack(_U32, body, "SET_LIGHTS")
        assert isinstance(mask, int)
        return cls(mask)


def check_text(text: str) -> None:
    """Panel text is printable ASCII plus line feeds, at most :data:`MAX_TEXT` bytes."""
    if len(text) > MAX_TEXT:
        # a length fault, answered BAD_LENGTH (docs/protocol.md section 3)
        raise LengthError(f"panel text is {len(text)} characters, at most {MAX_TEXT} fit")
    bad = [c for c in text if not (c == "\n" or " " <= c <= "~")]
    if bad:
        raise BodyError(f"panel text can only hold plain ASCII; cannot show {bad[0]!r}")


@dataclass(frozen=True, slots=True)
class SetText:
    text: str

    def encode(self) -> bytes:
        check_text(self.text)
        return self.text.encode("ascii")

    @classmethod
    def decode(cls, body: bytes) -> SetText:
        text = body.decode("latin-1")
        check_text(text)
        return cls(text)


@dataclass(frozen=True, slots=True)
class Dispense:
    dispense_no: int

    def encode(self) -> bytes:
        return _U16.pack(self.dispense_no)

    @classmethod
    def decode(cls, body: bytes) -> Dispense:
        (number,) = _unpack(_U16, body, "DISPENSE")
        assert isinstance(number, int)
        return cls(number)


Command = SyncEvents | SetGate | SetLights | SetText | Dispense

COMMAND_CLASSES: dict[MsgType, type[SyncEvents | SetGate | SetLights | SetText | Dispense]] = {
    MsgType.SYNC_EVENTS: SyncEvents,
    MsgType.SET_GATE: SetGate,
    MsgType.SET_LIGHTS: SetLights,
    MsgType.SET_TEXT: SetText,
    MsgType.DISPENSE: Dispense,
}
COMMAND_TYPE: dict[type, MsgType] = {cls: t for t, cls in COMMAND_CLASSES.items()}


def decode_command(mtype: int, body: bytes) -> Command:
    cls = COMMAND_CLASSES.get(MsgType(mtype)) if mtype in COMMAND_TYPES else None
    if cls is None:
        raise BodyError(f"message type 0x{mtype:02x} is not a command")
    return cls.decode(body)


@dataclass(frozen=True, slots=True)
class Result:
    ref_seq: int
    command: int
    code: int
    data: bytes = b""

    def encode(self) -> bytes:
        return _RESULT_HEAD.pack(self.ref_seq, self.command, self.code) + self.data

    @classmethod
    def decode(cls, body: bytes) -> Result:
        if len(body) < _RESULT_HEAD.size:
            raise LengthError(f"RESULT body must be at least 3 bytes, got {len(body)}")
        ref, command, code = _RESULT_HEAD.unpack_from(body)
        return cls(ref, command, code, body[_RESULT_HEAD.size :])


@dataclass(frozen=True, slots=True)
class SyncResult:
    """The data of a RESULT to SYNC_EVENTS."""

    oldest_event_no: int
    last_event_no: int

    def encode(self) -> bytes:
        return _SYNC_RESULT.pack(self.oldest_event_no, self.last_event_no)

    @classmethod
    def decode(cls, data: bytes) -> SyncResult:
        oldest, last = _unpack(_SYNC_RESULT, data, "SYNC_EVENTS result")
        assert isinstance(oldest, int) and isinstance(last, int)
        return cls(oldest, last)


@dataclass(frozen=True, slots=True)
class Event:
    event_no: int
    device_ms: int
    kind: int
    arg: int = 0

    def encode(self) -> bytes:
        return _EVENT.pack(self.event_no, self.device_ms & 0xFFFFFFFF, self.kind, self.arg)

    @classmethod
    def decode(cls, body: bytes) -> Event:
        number, ms, kind, arg = _unpack(_EVENT, body, "EVENT")
        assert isinstance(number, int) and isinstance(ms, int)
        assert isinstance(kind, int) and isinstance(arg, int)
        return cls(number, ms, kind, arg)
