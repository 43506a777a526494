"""Sections 1 and 2: framing, COBS, CRC, sizes, and the header's fields.

A damaged frame must be dropped without an answer (the sender's
retransmission repairs it), so most checks here send one, listen for
silence, and then show the device still talks (a PING answered).
"""

from __future__ import annotations

import os

from cobs import cobs

from firmware_bridge.conformance.probe import (
    QUIET_WAIT,
    Fail,
    Probe,
    Received,
    name_of,
    raw_frame,
)
from firmware_bridge.conformance.registry import check
from firmware_bridge.wire import (
    FLAG_FROM_DEVICE,
    FLAG_SEQ,
    MAX_ENCODED,
    PROTOCOL_MAJOR,
    SEQUENCED_TYPES,
    Capability,
    Hello,
    MsgType,
    Ping,
    SetLights,
    encode_frame,
)


def silence(p: Probe, what: str, duration: float = QUIET_WAIT) -> None:
    """Nothing may come back (a damaged or foreign frame) but a retransmission
    of a frame sent before (an ack that crossed the frame on the line)."""
    got = [r for r in p.collect(duration) if r.fresh or not r.header.sequenced]
    if got:
        raise Fail(f"the device answered {what} with {name_of(got[0].type)}")


def still_alive(p: Probe, after: str) -> None:
    try:
        p.ping()
    except Fail:
        raise Fail(f"the device stopped answering PING after {after}") from None


def ping_frame(p: Probe, **header: int) -> bytes:
    return encode_frame(p.header(MsgType.PING, **header), Ping(p.new_token()).encode())


def nonzero_noise(n: int) -> bytes:
    return bytes(b or 0x5A for b in os.urandom(n))


def harmless_command(p: Probe) -> tuple[int, bytes]:
    """A command any device answers without moving anything: lamps off, or an
    unknown type (answered UNKNOWN_TYPE) on a device without lamps."""
    if p.info.capabilities & Capability.LIGHTS:
        return MsgType.SET_LIGHTS, SetLights(0).encode()
    return 0x1F, b""


@check("1", "framing.device-frames", "every frame the device sends is valid COBS with a good CRC")
def device_frames(p: Probe) -> None:
    p.damaged = 0
    p.open_session()
    for _ in range(3):
        p.ping()
    p.call(*harmless_command(p))
    p.settle()
    if p.damaged:
        raise Fail(f"{p.damaged} frame(s) from the device failed COBS, length or CRC checks")


@check("1", "framing.extra-zeros", "extra 0x00 bytes and empty frames are ignored")
def extra_zeros(p: Probe) -> None:
    p.open_session()
    p.write(b"\x00\x00\x00")
    silence(p, "empty frames")
    p.inbox.clear()
    p.write(b"\x00\x00" + ping_frame(p) + b"\x00\x00")
    got = [r for r in p.collect(QUIET_WAIT + p.slack) if r.type == MsgType.PONG]
    if len(got) != 1:
        raise Fail(f"a PING wrapped in extra 0x00 bytes got {len(got)} PONGs, not 1")


@check("1", "framing.noise", "noise is discarded up to the next 0x00, and the next frame works")
def noise(p: Probe) -> None:
    p.open_session()
    p.write(nonzero_noise(40) + b"\x00")
    silence(p, "40 bytes of noise")
    still_alive(p, "40 bytes of noise")


@check("1", "framing.bad-crc", "a frame with a wrong CRC is dropped, unanswered and not executed")
def bad_crc(p: Probe) -> None:
    p.open_session()
    h = p.header(MsgType.PING)
    good = encode_frame(h, Ping(1).encode())
    p.write(raw_frame(h, Ping(1).encode(), crc=_crc_of(good) ^ 0x0101))
    silence(p, "a PING with a wrong CRC")
    mtype, body = harmless_command(p)
    seq = p.next_seq
    p.write(raw_frame(p.header(mtype, seq=seq), body, crc=0))
    if p.bus:
        silence(p, "a command with a wrong CRC")
    else:
        got = [r for r in p.collect(QUIET_WAIT) if r.type == MsgType.RESULT]
        if got:
            raise Fail("the device executed a command whose CRC was wrong")
    r, _ = p.ping()
    if r.header.ack != seq:
        raise Fail(f"after a command with a bad CRC the device's ack is {r.header.ack}, not {seq}")


def _crc_of(frame: bytes) -> int:
    raw = cobs.decode(frame[:-1])
    return int.from_bytes(raw[-2:], "little")


@check("1", "framing.truncated", "a frame shorter than 8 decoded bytes is dropped")
def truncated(p: Probe) -> None:
    p.open_session()
    p.write(b"\x00" + bytes(cobs.encode(bytes([1, p.address, 0, 0, 0, 3, 1]))) + b"\x00")
    silence(p, "a truncated frame")
    still_alive(p, "a truncated frame")


@check("1", "framing.bad-cobs", "a frame that is not valid COBS is dropped")
def bad_cobs(p: Probe) -> None:
    p.open_session()
    p.write(b"\x00\x09\x01\x02\x03\x00")  # the code byte points past the frame's end
    silence(p, "a frame of bad COBS")
    still_alive(p, "a frame of bad COBS")


@check("1", "framing.oversized", "a frame over 249 encoded bytes is dropped, even with a good CRC")
def oversized(p: Probe) -> None:
    p.open_session()
    nonce = p.new_nonce()
    body = Hello(PROTOCOL_MAJOR, 0, nonce).encode() + bytes(range(1, 251)) + bytes(range(1, 51))
    frame = raw_frame(p.header(MsgType.HELLO, seq=0, ack=0, flags=0), body)
    assert len(frame) - 1 > MAX_ENCODED
    p.write(b"\x00" + frame)
    got = [r for r in p.collect(QUIET_WAIT) if r.type == MsgType.HELLO_REPLY]
    if got:
        raise Fail(f"the device answered a HELLO of {len(frame) - 1} encoded bytes")
    p.write(nonzero_noise(600) + b"\x00")
    silence(p, "600 bytes without a delimiter")
    still_alive(p, "an oversized frame")


@check("2", "header.device-frames",
       "the device's frames: version 1, its address, FROM_DEVICE set, spare bits 0, SEQ right")
def device_headers(p: Probe) -> None:
    start = len(p.log)
    p.open_session()
    p.ping()
    p.call(*harmless_command(p))
    p.settle()
    seen: list[Received] = p.log[start:]
    for r in seen:
        h = r.header
        what = name_of(h.type)
        if h.version != PROTOCOL_MAJOR:
            raise Fail(f"{what} carries version {h.version}, not {PROTOCOL_MAJOR}")
        if h.address != p.address:
            raise Fail(f"{what} carries address {h.address}, not {p.address}")
        if h.flags & ~(FLAG_SEQ | FLAG_FROM_DEVICE):
            raise Fail(f"{what} has spare flag bits set (flags 0x{h.flags:02x})")
        if bool(h.flags & FLAG_SEQ) != (h.type in SEQUENCED_TYPES):
            raise Fail(f"{what} has SEQ {'set' if h.sequenced else 'clear'}")
    if not seen:
        raise Fail("no frame from the device to look at")


@check("2", "header.version", "a frame of another major version is dropped, not executed")
def version(p: Probe) -> None:
    p.open_session()
    mtype, body = harmless_command(p)
    seq = p.next_seq
    p.send(mtype, body, seq=seq, version=PROTOCOL_MAJOR + 1)
    got = p.collect(QUIET_WAIT)
    if any(r.type == MsgType.RESULT for r in got):
        raise Fail("the device executed a command of protocol version 2")
    if not p.bus and got:
        raise Fail(f"the device answered a frame of version 2 with {name_of(got[0].type)}")
    r, _ = p.ping()
    if r.header.ack != seq:
        raise Fail(f"after a version-2 command the device's ack is {r.header.ack}, not {seq}")


@check("2", "header.address", "a frame for another address is not answered")
def address(p: Probe) -> None:
    p.open_session()
    others = [a for a in range(16) if a not in p.addresses]
    for other in others[:3]:
        p.write(ping_frame(p, address=other))
        silence(p, f"a PING for address {other}")
    still_alive(p, "frames for other addresses")


@check("2", "header.direction", "a frame with FROM_DEVICE set (an echo) is ignored")
def direction(p: Probe) -> None:
    p.open_session()
    p.write(ping_frame(p, flags=FLAG_FROM_DEVICE))
    silence(p, "a PING marked FROM_DEVICE")
    nonce = p.new_nonce()
    p.send(MsgType.HELLO, Hello(PROTOCOL_MAJOR, 0, nonce).encode(), seq=0, ack=0,
           flags=FLAG_FROM_DEVICE)
    silence(p, "a HELLO marked FROM_DEVICE")
    still_alive(p, "frames marked FROM_DEVICE")
