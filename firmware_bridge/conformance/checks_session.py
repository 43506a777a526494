"""Sections 3, 4 and 7: the link-control messages, identify, sessions, versions,
device kinds and capabilities."""

from __future__ import annotations

import time
from collections.abc import Callable

from firmware_bridge.conformance.checks_framing import harmless_command
from firmware_bridge.conformance.probe import Fail, Probe, Received, name_of, reply_nonce
from firmware_bridge.conformance.registry import SHOE, check
from firmware_bridge.wire import (
    ADDRESS_DEALER,
    ADDRESS_DIRECT,
    PROTOCOL_MAJOR,
    Button,
    DeviceKind,
    Hello,
    MsgType,
    Ping,
    buttons_in,
)

SEAT_MINIMUM = frozenset(Button(b) for b in range(1, 8))
SEAT_BUTTONS = frozenset(Button(b) for b in range(1, 12))
DEALER_MINIMUM = frozenset({Button.CONFIRM, Button.DRAW, Button.STAY, Button.NEXT, Button.PAUSE})


def expected_kind(address: int) -> tuple[DeviceKind, int]:
    """What section 2's address map says must answer at an address: (kind, seat)."""
    if address == ADDRESS_DIRECT:
        return DeviceKind.SHOE, 0
    if address == ADDRESS_DEALER:
        return DeviceKind.DEALER_PANEL, 0
    return DeviceKind.SEAT_PANEL, address


@check("4", "hello.reply", "HELLO is answered by a 30-byte HELLO_REPLY echoing the nonce")
def hello_reply(p: Probe) -> None:
    p.drain(0.02)
    nonce = p.new_nonce()
    p.send(MsgType.HELLO, bytes([PROTOCOL_MAJOR, 0]) + nonce.to_bytes(2, "little"),
           seq=0, ack=0, flags=0)
    r = p.expect(lambda r: r.type == MsgType.HELLO_REPLY, "HELLO_REPLY", poll=False)
    if len(r.body) < 30:
        raise Fail(f"HELLO_REPLY body is {len(r.body)} bytes, at least 30 are required")
    got = int.from_bytes(r.body[28:30], "little")
    if got != nonce:
        raise Fail(f"HELLO_REPLY echoes nonce {got}, the HELLO carried {nonce}")
    if r.body[0] != PROTOCOL_MAJOR or r.header.version != PROTOCOL_MAJOR:
        raise Fail(f"the device speaks protocol {r.body[0]}.{r.body[1]}, this suite 1.x")


@check("4", "hello.kind", "the device's kind and seat are the ones its port or address calls for")
def hello_kind(p: Probe) -> None:
    reply = p.hello()
    kind, seat = expected_kind(p.address)
    if reply.kind != kind or reply.seat != seat:
        raise Fail(
            f"address {p.address} should hold a {kind.name.lower().replace('_', ' ')}"
            f" (seat {seat}), the device says kind {reply.kind} seat {reply.seat}"
        )


@check("7", "hello.capabilities", "the capabilities fit the device's kind (buttons of section 7)")
def hello_capabilities(p: Probe) -> None:
    reply = p.hello()
    buttons = buttons_in(reply.capabilities)
    names = ", ".join(sorted(b.name for b in buttons))
    if reply.kind == DeviceKind.SHOE:
        if buttons:
            raise Fail(f"a shoe announces buttons ({names})")
    elif reply.kind == DeviceKind.SEAT_PANEL:
        if not buttons >= SEAT_MINIMUM or not buttons <= SEAT_BUTTONS:
            raise Fail(f"a seat panel needs buttons 1-7 and at most 1-11, it has {names}")
    elif reply.kind == DeviceKind.DEALER_PANEL and not buttons >= DEALER_MINIMUM:
        raise Fail(f"the dealer panel needs buttons 7 and 12-15, it has {names}")


@check("4", "hello.header-version", "a HELLO is answered whatever the header's version byte")
def hello_header_version(p: Probe) -> None:
    p.drain(0.02)
    reply = p.hello(version=PROTOCOL_MAJOR + 1)
    if reply.major != PROTOCOL_MAJOR:
        raise Fail(f"HELLO_REPLY says major {reply.major}")


@check("4", "hello.other-major",
       "a HELLO of another major version is answered with the device's own version")
def hello_other_major(p: Probe) -> None:
    p.drain(0.02)
    reply = p.hello(major=PROTOCOL_MAJOR + 1)
    if reply.major != PROTOCOL_MAJOR:
        raise Fail(f"to a HELLO of major 2 the device answers major {reply.major}, not its own 1")


@check("4", "hello.other-major-session",
       "a HELLO of another major version neither ends nor starts a session")
def hello_other_major_session(p: Probe) -> None:
    p.open_session()
    p.call(*harmless_command(p))
    p.settle()
    p.hello(major=PROTOCOL_MAJOR + 1)
    try:
        r, _ = p.ping()
    except Fail:
        raise Fail("after a HELLO of major 2 a PING got no PONG: the session ended") from None
    if r.header.ack != p.next_seq:
        raise Fail(f"after a HELLO of major 2 the device acks {r.header.ack}, not"
                   f" {p.next_seq}: it started a new session")
    p.call(*harmless_command(p))


def replying_to(nonce: int) -> Callable[[Received], bool]:
    return lambda r: r.type == MsgType.HELLO_REPLY and reply_nonce(r) == nonce


@check("4", "hello.zero-seq", "HELLO_REPLY carries seq 0 and ack 0, also within a session")
def hello_zero_seq(p: Probe) -> None:
    p.open_session()
    for _ in range(2):
        p.call(*harmless_command(p))
    p.settle()
    nonce = p.new_nonce()
    for hello_nonce in (p.info.nonce, nonce):  # a retransmission, then a new session
        p.inbox.clear()
        p.send(MsgType.HELLO, Hello(PROTOCOL_MAJOR, 0, hello_nonce).encode(),
               seq=0, ack=0, flags=0)
        r = p.expect(replying_to(hello_nonce), "HELLO_REPLY", poll=False)
        if (r.header.seq, r.header.ack) != (0, 0):
            raise Fail(f"HELLO_REPLY carries seq {r.header.seq} ack {r.header.ack}, not 0 and 0")


@check("4", "session.new", "a HELLO with a new nonce starts sequence numbers at 0 on both sides")
def session_new(p: Probe) -> None:
    p.open_session()
    for _ in range(2):
        p.call(*harmless_command(p))
    p.settle()
    p.hello()
    mtype, body = harmless_command(p)
    p.send(mtype, body, seq=0, ack=0)
    r = p.expect(lambda r: r.type == MsgType.RESULT, "RESULT to seq 0 of the new session")
    if r.header.seq != 0:
        raise Fail(f"the first sequenced frame of a new session has seq {r.header.seq}, not 0")
    if r.body[0] != 0:
        raise Fail(f"RESULT names ref_seq {r.body[0]}, not 0")


@check("4", "session.new-discards",
       "a new session discards the old session's unacknowledged frames")
def session_new_discards(p: Probe) -> None:
    p.open_session()
    p.auto_ack = False
    try:
        seq = p.command(*harmless_command(p))
        p.result(seq)  # received, never acknowledged: the device keeps it for resending
        p.hello()
        got = p.collect(0.15)
        if p.bus:
            got += p.turn(MsgType.PING, Ping(p.new_token()).encode())
        old = [r for r in got if r.type == MsgType.RESULT]
        if old:
            raise Fail("after a new HELLO the device still sent the old session's RESULT")
    finally:
        p.auto_ack = True
        p.settle()


@check("3", "hello.longer", "a HELLO with trailing bytes of a later version is answered as usual")
def hello_longer(p: Probe) -> None:
    p.drain(0.02)
    nonce = p.new_nonce()
    body = Hello(PROTOCOL_MAJOR, 0, nonce).encode() + b"\x01\x02\x03\x04"
    for _ in range(3):
        p.send(MsgType.HELLO, body, seq=0, ack=0, flags=0)
        got = [r for r in p.collect(0.2) if r.type == MsgType.HELLO_REPLY]
        if got:
            break
    else:
        raise Fail("a HELLO of 8 bytes (4 more than version 1.0's) got no HELLO_REPLY")
    if reply_nonce(got[0]) != nonce:
        raise Fail("the HELLO_REPLY to a longer HELLO does not echo its nonce")


@check("4", "session.hello-repeat", "a repeated HELLO (same nonce) changes nothing")
def hello_repeat(p: Probe) -> None:
    p.open_session()
    p.call(*harmless_command(p))
    p.settle()
    nonce = p.info.nonce
    before = (p.next_seq, p.expected)
    p.hello(nonce)
    p.next_seq, p.expected = before  # a retransmitted HELLO keeps the session
    seq = p.command(*harmless_command(p))
    p.result(seq)


@check("3", "ping.pong", "PING is answered by PONG with the token, a moving uptime and the events")
def ping_pong(p: Probe) -> None:
    p.open_session()
    _, first = p.ping()
    time.sleep(0.3)
    _, second = p.ping()
    advanced = (second.uptime_ms - first.uptime_ms) & 0xFFFFFFFF
    if not 100 <= advanced <= 10_000:
        raise Fail(f"uptime_ms moved {advanced} ms in 300 ms")
    if second.last_event_no < p.info.last_event_no:
        raise Fail(
            f"PONG says last event {second.last_event_no}, HELLO_REPLY said"
            f" {p.info.last_event_no}"
        )


@check("3", "ack.silent", "an ACK frame is taken without an answer (USB)",
       devices=frozenset({SHOE}))
def ack_silent(p: Probe) -> None:
    p.open_session()
    p.send(MsgType.ACK)
    got = p.collect(0.15)
    if got:
        raise Fail(f"the device answered an ACK with {name_of(got[0].type)}")
    p.ping()


@check("5.4", "unsequenced.unknown", "an unknown unsequenced type is dropped, nothing executed")
def unknown_unsequenced(p: Probe) -> None:
    p.open_session()
    p.send(0x0E, b"\x01\x02")
    got = p.collect(0.15)
    if any(r.type == MsgType.RESULT for r in got):
        raise Fail("the device answered an unknown unsequenced type with a RESULT")
    if not p.bus and got:
        raise Fail(f"the device answered an unknown unsequenced type with {name_of(got[0].type)}")
    r, _ = p.ping()
    if r.header.ack != p.next_seq:
        raise Fail("an unknown unsequenced frame moved the device's ack")
