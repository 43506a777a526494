"""The tester's end of the line: a serial port and just enough of a host.

A conformance check must be free to break the rules on purpose (a wrong CRC, a
sequence number out of the window, a frame repeated), so the probe is not
:class:`~firmware_bridge.host.HostSession`: it keeps only the two counters a
host needs to talk to a device at all (its own next ``seq`` and the device's
expected one, i.e. its ``ack``) and lets a check put any byte on the wire.
Frames are built and read with the project's sans-I/O codec
(:mod:`firmware_bridge.wire`); :func:`raw_frame` builds the ones the codec
refuses to (bad CRC, oversized).

USB (``bus=False``): the device may speak at any time; the probe acknowledges
every new sequenced frame at once unless a check turns ``auto_ack`` off.
Bus (``bus=True``): the device speaks only when spoken to, one frame per host
frame; :meth:`Probe.expect` polls with PING (which carries the ack) while it
waits.
"""

from __future__ import annotations

import random
import struct
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import serial
from cobs import cobs

from firmware_bridge.wire import (
    FLAG_SEQ,
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    BodyError,
    Event,
    Frame,
    FrameDecoder,
    FrameError,
    Header,
    Hello,
    HelloReply,
    MsgType,
    Ping,
    Pong,
    Result,
    ResultCode,
    SyncEvents,
    SyncResult,
    crc16_mcrf4xx,
    encode_frame,
)

#: how long a reply that must come may take on a USB link before the check fails
REPLY_WAIT = 0.5
#: how long the probe listens to be sure that something does NOT come
QUIET_WAIT = 0.10
#: the bus's host reply timeout (docs/protocol.md section 6)
BUS_REPLY_TIMEOUT = 0.020


class Fail(Exception):
    """A check failed; the message is the one-line reason printed beside it."""


class Skip(Exception):
    """A check cannot run against this device (e.g. it lacks the feature)."""


@dataclass(slots=True)
class Received:
    """One valid frame from the device, when it arrived and whether it was new."""

    at: float
    frame: Frame
    #: a sequenced frame that was the very next one expected (not a resend)
    fresh: bool = False

    @property
    def type(self) -> int:
        return self.frame.header.type

    @property
    def header(self) -> Header:
        return self.frame.header

    @property
    def body(self) -> bytes:
        return self.frame.body

    @property
    def address(self) -> int:
        return self.frame.header.address


def raw_frame(header: Header, body: bytes, *, crc: int | None = None) -> bytes:
    """A frame with any body size and any CRC (the codec refuses both)."""
    raw = (
        struct.pack(
            "<BBBBBB", header.version, header.address, header.flags, header.seq, header.ack,
            header.type,
        )
        + body
    )
    value = crc16_mcrf4xx(raw) if crc is None else crc
    return bytes(cobs.encode(raw + struct.pack("<H", value))) + b"\x00"


def name_of(mtype: int) -> str:
    try:
        return MsgType(mtype).name
    except ValueError:
        return f"type 0x{mtype:02x}"


def code_name(code: int) -> str:
    try:
        return ResultCode(code).name
    except ValueError:
        return f"code {code}"


class Probe:
    """One serial port, one device address at a time (``address`` may change)."""

    def __init__(
        self,
        port: serial.SerialBase,
        *,
        address: int = 0,
        bus: bool = False,
        slack: float = 0.03,
        addresses: tuple[int, ...] = (0,),
    ) -> None:
        self.port = port
        self.address = address
        self.bus = bus
        self.slack = slack
        self.addresses = addresses
        self.decoder = FrameDecoder()
        self.inbox: deque[Received] = deque()
        self.log: list[Received] = []
        self.damaged = 0
        self.auto_ack = True
        self.next_seq = 0
        self.expected = 0
        self.hello_reply: HelloReply | None = None
        #: what the probe wrote last: an RS-485 adapter may echo it back, and a
        #: frame the probe marked FROM_DEVICE on purpose must not come back as
        #: the device's
        self._sent: deque[bytes] = deque(maxlen=64)
        self._nonce = random.randrange(1, 0xFFFF)
        self._token = random.randrange(0, 0xFFFF)

    @classmethod
    def open(
        cls,
        url: str,
        *,
        baudrate: int = 115200,
        address: int = 0,
        bus: bool = False,
        slack: float = 0.03,
        addresses: tuple[int, ...] = (0,),
    ) -> Probe:
        """Open any pyserial URL; raises ``serial.SerialException`` or ``OSError``.

        A short read timeout: the probe polls, so a reply is seen within ~2 ms.
        """
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=0.002, write_timeout=1.0)
        return cls(port, address=address, bus=bus, slack=slack, addresses=addresses)

    def close(self) -> None:
        self.port.close()

    # --- writing ---------------------------------------------------------------

    def new_nonce(self) -> int:
        self._nonce = self._nonce % 0xFFFF + 1
        return self._nonce

    def new_token(self) -> int:
        self._token = (self._token + 1) & 0xFFFF
        return self._token

    def header(
        self,
        mtype: int,
        *,
        seq: int | None = None,
        ack: int | None = None,
        flags: int | None = None,
        version: int = PROTOCOL_MAJOR,
        address: int | None = None,
    ) -> Header:
        """A host header: sequenced iff ``seq`` is given (unless ``flags`` says)."""
        if flags is None:
            flags = FLAG_SEQ if seq is not None else 0
        return Header(
            self.address if address is None else address,
            mtype,
            (self.next_seq if seq is None else seq) & 0xFF,
            (self.expected if ack is None else ack) & 0xFF,
            flags,
            version,
        )

    def write(self, data: bytes) -> float:
        self._sent.extend(chunk for chunk in data.split(b"\x00") if chunk)
        self.port.write(data)
        self.port.flush()
        return time.monotonic()

    def send(
        self,
        mtype: int,
        body: bytes = b"",
        *,
        seq: int | None = None,
        ack: int | None = None,
        flags: int | None = None,
        version: int = PROTOCOL_MAJOR,
        address: int | None = None,
    ) -> float:
        """Send one frame built by the codec; returns when it left."""
        h = self.header(mtype, seq=seq, ack=ack, flags=flags, version=version, address=address)
        return self.write(encode_frame(h, body))

    # --- reading -----------------------------------------------------------------

    def _pump(self, until: float) -> bool:
        """Read what arrives before ``until``; returns at the first bytes."""
        while True:
            data = self.port.read(max(1, self.port.in_waiting))
            if data:
                break
            if time.monotonic() >= until:
                return False
        at = time.monotonic()
        for item in self.decoder.feed(data):
            if isinstance(item, FrameError):
                self.damaged += 1
            elif item.header.from_device and not self._is_echo(item):
                self._account(Received(at, item))
        return True

    def _is_echo(self, frame: Frame) -> bool:
        return encode_frame(frame.header, frame.body)[:-1] in self._sent

    def _account(self, r: Received) -> None:
        h = r.header
        self.log.append(r)
        if h.sequenced and h.address == self.address and h.seq == self.expected:
            self.expected = (self.expected + 1) & 0xFF
            r.fresh = True
            if self.auto_ack and not self.bus:
                self.send(MsgType.ACK)
        self.inbox.append(r)

    def drain(self, quiet: float = 0.05) -> None:
        """Forget everything until the line has been quiet for ``quiet`` s."""
        while self._pump(time.monotonic() + quiet):
            pass
        self.inbox.clear()

    def next(self, timeout: float) -> Received | None:
        """The next frame from the device within ``timeout``, or None."""
        end = time.monotonic() + timeout
        while not self.inbox:
            if not self._pump(end):
                return None
        return self.inbox.popleft()

    def collect(self, duration: float) -> list[Received]:
        """Every frame that arrives in the next ``duration`` seconds."""
        end = time.monotonic() + duration
        out: list[Received] = []
        while True:
            while self.inbox:
                out.append(self.inbox.popleft())
            if not self._pump(end):
                return out

    def expect(
        self,
        pred: Callable[[Received], bool],
        what: str,
        timeout: float = REPLY_WAIT,
        *,
        poll: bool = True,
    ) -> Received:
        """The first frame matching ``pred`` (others are passed over), or :class:`Fail`.

        On the bus, a turn without a reply is followed by a PING (the device
        only speaks when spoken to), unless ``poll`` is off.
        """
        end = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            if now >= end:
                raise Fail(f"no {what} within {timeout * 1000:.0f} ms")
            turn_end = min(end, now + BUS_REPLY_TIMEOUT + self.slack) if self.bus else end
            r = self.next(max(0.0, turn_end - now))
            if r is not None:
                if pred(r):
                    return r
                continue
            if self.bus and poll:
                self.send(MsgType.PING, Ping(self.new_token()).encode())

    def turn(
        self,
        mtype: int,
        body: bytes = b"",
        *,
        seq: int | None = None,
        ack: int | None = None,
        flags: int | None = None,
    ) -> list[Received]:
        """Bus: send one frame and return what came back in the reply window."""
        self.inbox.clear()
        self.send(mtype, body, seq=seq, ack=ack, flags=flags)
        return self.collect(BUS_REPLY_TIMEOUT + self.slack)

    # --- the protocol's common steps -------------------------------------------------

    def hello(
        self,
        nonce: int | None = None,
        *,
        major: int = PROTOCOL_MAJOR,
        version: int = PROTOCOL_MAJOR,
        tries: int = 3,
    ) -> HelloReply:
        """HELLO until the HELLO_REPLY with this nonce; a new nonce starts a session."""
        nonce = self.new_nonce() if nonce is None else nonce
        hello = Hello(major, PROTOCOL_MINOR, nonce).encode()
        for _ in range(tries):
            self.inbox.clear()
            self.send(MsgType.HELLO, hello, seq=0, ack=0, flags=0, version=version)
            try:
                r = self.expect(
                    lambda r: r.type == MsgType.HELLO_REPLY and reply_nonce(r) == nonce,
                    "HELLO_REPLY",
                    0.25 if not self.bus else BUS_REPLY_TIMEOUT + self.slack,
                    poll=False,
                )
            except Fail:
                continue
            reply = HelloReply.decode(r.body)
            if major == PROTOCOL_MAJOR and reply.major == PROTOCOL_MAJOR:
                self.next_seq = 0
                self.expected = 0
                self.hello_reply = reply
            return reply
        raise Fail(f"no HELLO_REPLY to HELLO (nonce {nonce}) at address {self.address}")

    @property
    def info(self) -> HelloReply:
        if self.hello_reply is None:
            raise Fail("no session")
        return self.hello_reply

    def command(self, mtype: int, body: bytes = b"") -> int:
        """Send a sequenced frame with the next ``seq``; returns that seq."""
        seq = self.next_seq
        self.send(mtype, body, seq=seq)
        self.next_seq = (seq + 1) & 0xFF
        return seq

    def result(self, seq: int, timeout: float = REPLY_WAIT) -> Result:
        """The RESULT to the command of sequence number ``seq`` (a new one)."""
        r = self.expect(
            lambda r: r.fresh and r.type == MsgType.RESULT and result_ref(r) == seq,
            f"RESULT to the command of seq {seq}",
            timeout,
        )
        return Result.decode(r.body)

    def call(self, mtype: int, body: bytes = b"") -> Result:
        return self.result(self.command(mtype, body))

    def ping(self, timeout: float = REPLY_WAIT) -> tuple[Received, Pong]:
        token = self.new_token()
        self.inbox.clear()
        self.send(MsgType.PING, Ping(token).encode())
        r = self.expect(
            lambda r: r.type == MsgType.PONG and pong_token(r) == token,
            f"PONG to PING {token}",
            timeout,
            poll=False,
        )
        return r, Pong.decode(r.body)

    def open_session(self, after: int | None = None) -> tuple[SyncResult, list[Event]]:
        """HELLO (new nonce), then SYNC_EVENTS; returns its data and the events resent.

        ``after`` defaults to the HELLO_REPLY's ``last_event_no``: no old event
        comes back (and none is waited for).  Events asked for are collected
        until the line is quiet.
        """
        self.drain(0.02)
        reply = self.hello()
        after = reply.last_event_no if after is None else after
        result = self.call(MsgType.SYNC_EVENTS, SyncEvents(reply.boot_id, after).encode())
        if result.code != ResultCode.OK:
            raise Fail(f"SYNC_EVENTS answered {code_name(result.code)}, not OK")
        try:
            sync = SyncResult.decode(result.data)
        except BodyError as exc:
            raise Fail(f"RESULT of SYNC_EVENTS: {exc}") from None
        events = self.events_until_quiet() if after < reply.last_event_no else []
        return sync, events

    def events_until_quiet(self, quiet: float = QUIET_WAIT) -> list[Event]:
        events: list[Event] = []
        while True:
            if self.bus:
                got = self.turn(MsgType.PING, Ping(self.new_token()).encode())
                new = [r for r in got if r.fresh and r.type == MsgType.EVENT]
                if not new:
                    return events
            else:
                new = [r for r in self.collect(quiet) if r.fresh and r.type == MsgType.EVENT]
                if not new:
                    return events
            events += [Event.decode(r.body) for r in new]

    def settle(self) -> None:
        """Acknowledge everything received and let the line go quiet."""
        if self.bus:
            self.turn(MsgType.PING, Ping(self.new_token()).encode())
        else:
            self.send(MsgType.ACK)
        self.drain(0.03)


def reply_nonce(r: Received) -> int | None:
    try:
        return HelloReply.decode(r.body).nonce
    except BodyError:
        return None


def pong_token(r: Received) -> int | None:
    try:
        return Pong.decode(r.body).token
    except BodyError:
        return None


def result_ref(r: Received) -> int | None:
    try:
        return Result.decode(r.body).ref_seq
    except BodyError:
        return None
