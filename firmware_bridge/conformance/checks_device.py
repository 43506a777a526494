"""Sections 8 and 9 and what the host can see of the shoe's mechanics: the gate
as PONG reports it, no card through a locked gate, fail-safe after silence,
and the bus's polling and addressing."""

from __future__ import annotations

import time

from firmware_bridge.conformance.checks_framing import harmless_command
from firmware_bridge.conformance.checks_session import expected_kind
from firmware_bridge.conformance.probe import (
    BUS_REPLY_TIMEOUT,
    Fail,
    Probe,
    Received,
    Skip,
    name_of,
)
from firmware_bridge.conformance.registry import BUS, SHOE, check
from firmware_bridge.wire import (
    PROTOCOL_MAJOR,
    Capability,
    DeviceStatus,
    Event,
    EventKind,
    Hello,
    HelloReply,
    MsgType,
    Ping,
    ResultCode,
    SetGate,
)

#: docs/protocol.md section 9: fail-safe after 2 s without a valid frame
FAIL_SAFE_AFTER = 2.0
#: how long the suite watches a locked gate for a card that must not come
LOCKED_WATCH = 0.5
#: docs/protocol.md sections 5.4 and 11.4: SET_GATE's RESULT once the gate is there, <= 300 ms
GATE_TRAVEL = 0.3


def set_gate(p: Probe, locked: bool) -> None:
    result = p.call(MsgType.SET_GATE, SetGate(locked).encode())
    if result.code != ResultCode.OK:
        raise Fail(f"SET_GATE {int(locked)} answered code {result.code}")


def gate_locked(p: Probe) -> bool:
    _, pong = p.ping()
    return bool(pong.status & DeviceStatus.GATE_LOCKED)


def need_gate(p: Probe) -> None:
    if not p.info.capabilities & Capability.GATE:
        raise Skip("the device has no lockable gate")


@check("3", "shoe.gate-status", "PONG's GATE_LOCKED follows SET_GATE", devices=frozenset({SHOE}))
def gate_status(p: Probe) -> None:
    p.open_session()
    need_gate(p)
    set_gate(p, False)
    if gate_locked(p):
        raise Fail("after SET_GATE 0 the PONG still says GATE_LOCKED")
    set_gate(p, True)
    if not gate_locked(p):
        raise Fail("after SET_GATE 1 the PONG does not say GATE_LOCKED")


@check("11.4", "shoe.gate-result-time",
       "SET_GATE's RESULT(OK) comes within 300 ms, each way", devices=frozenset({SHOE}))
def gate_result_time(p: Probe) -> None:
    p.open_session()
    need_gate(p)
    for locked in (False, True):
        sent = time.monotonic()
        result = p.result(p.command(MsgType.SET_GATE, SetGate(locked).encode()), timeout=2.0)
        took = time.monotonic() - sent
        if result.code != ResultCode.OK:
            raise Fail(f"SET_GATE {int(locked)} answered code {result.code}")
        if took > GATE_TRAVEL + p.slack:
            raise Fail(f"SET_GATE {int(locked)}'s RESULT took {took * 1000:.0f} ms,"
                       f" more than 300 ms (+{p.slack * 1000:.0f} ms slack)")


@check("4", "session.new-locks", "a new session starts with the gate locked, even with no"
       " fail-safe between", devices=frozenset({SHOE}))
def session_new_locks(p: Probe) -> None:
    p.open_session()
    need_gate(p)
    set_gate(p, False)
    p.settle()
    p.open_session()
    if not gate_locked(p):
        raise Fail("a new HELLO left the gate open: a new session must start locked")


@check("3", "shoe.locked-no-card",
       "no CARD_OUT while the gate is locked (watched for 0.5 s, nobody at the shoe)",
       devices=frozenset({SHOE}))
def locked_no_card(p: Probe) -> None:
    p.open_session()
    need_gate(p)
    start = len(p.log)  # from the SET_GATE on: a card slipping out as it locks counts
    set_gate(p, True)
    p.collect(LOCKED_WATCH)
    cards = [
        r for r in p.log[start:]
        if r.fresh and r.type == MsgType.EVENT and Event.decode(r.body).kind == EventKind.CARD_OUT
    ]
    if cards:
        raise Fail(f"{len(cards)} CARD_OUT event(s) while the gate was locked")
    _, pong = p.ping()
    if not pong.status & DeviceStatus.GATE_LOCKED:
        raise Fail("the PONG does not say GATE_LOCKED after SET_GATE 1")


def quiet_for(p: Probe, seconds: float) -> None:
    """Say nothing at all for ``seconds``: not even an ack to a card that a
    person (or a simulated dealer) pulls meanwhile, which would keep the
    session alive."""
    p.auto_ack = False
    try:
        p.collect(seconds)
    finally:
        p.auto_ack = True


def no_session_answer(p: Probe, mtype: int, body: bytes, **header: int) -> Received:
    p.inbox.clear()
    p.send(mtype, body, **header)
    r = p.expect(lambda r: True, f"an answer to {name_of(mtype)}", poll=False)
    if r.type != MsgType.NO_SESSION:
        raise Fail(f"after {FAIL_SAFE_AFTER:g} s of silence {name_of(mtype)} got"
                   f" {name_of(r.type)}, not NO_SESSION")
    if (r.header.seq, r.header.ack) != (0, 0):
        raise Fail(f"NO_SESSION carries seq {r.header.seq} ack {r.header.ack}, not 0 and 0")
    return r


@check("9", "failsafe.timing",
       "still in session after 1.6 s of silence; NO_SESSION to everything after 2.4 s",
       slow=True)
def failsafe_timing(p: Probe) -> None:
    p.open_session()
    p.settle()
    quiet_for(p, 1.6)
    try:
        p.ping()
    except Fail:
        raise Fail("the device dropped its session after only 1.6 s of silence") from None
    quiet_for(p, FAIL_SAFE_AFTER + 0.4)
    no_session_answer(p, MsgType.PING, Ping(p.new_token()).encode())
    mtype, body = harmless_command(p)
    no_session_answer(p, mtype, body, seq=p.next_seq)
    try:
        p.open_session()
    except Fail as exc:
        raise Fail(f"a HELLO with a new nonce did not end fail-safe: {exc}") from None


@check("9", "failsafe.gate", "fail-safe locks the gate, and it stays locked after a new HELLO",
       devices=frozenset({SHOE}), slow=True)
def failsafe_gate(p: Probe) -> None:
    p.open_session()
    need_gate(p)
    set_gate(p, False)
    p.settle()
    quiet_for(p, FAIL_SAFE_AFTER + 0.4)
    no_session_answer(p, MsgType.SET_GATE, SetGate(False).encode(), seq=p.next_seq)
    p.open_session()
    if not gate_locked(p):
        raise Fail("after fail-safe and a new HELLO the gate is not locked")


# --- the bus ----------------------------------------------------------------------


def window(p: Probe) -> float:
    return BUS_REPLY_TIMEOUT + p.slack


@check("8", "bus.addresses",
       "each configured address answers HELLO as its kind and seat; no other address answers",
       devices=frozenset({BUS}))
def bus_addresses(p: Probe) -> None:
    home = p.address
    try:
        for address in range(1, 16):
            p.address = address
            nonce = p.new_nonce()
            got = p.turn(MsgType.HELLO, Hello(PROTOCOL_MAJOR, 0, nonce).encode(), seq=0, ack=0,
                         flags=0)
            if address not in p.addresses:
                if got:
                    raise Fail(f"something answered at address {address}, which is not configured")
                continue
            replies = [r for r in got if r.type == MsgType.HELLO_REPLY and r.address == address]
            if not replies:
                raise Fail(f"no HELLO_REPLY from address {address}")
            reply = HelloReply.decode(replies[0].body)
            kind, seat = expected_kind(address)
            if (reply.kind, reply.seat) != (kind, seat):
                raise Fail(f"address {address} answers as kind {reply.kind} seat {reply.seat},"
                           f" expected kind {int(kind)} seat {seat}")
    finally:
        p.address = home


@check("8", "bus.one-reply", "every frame to an address gets exactly one reply, within 20 ms",
       devices=frozenset({BUS}))
def bus_one_reply(p: Probe) -> None:
    p.open_session()
    mtype, body = harmless_command(p)
    turns: list[tuple[str, int, bytes, dict[str, int]]] = [
        ("PING", MsgType.PING, Ping(p.new_token()).encode(), {}),
        ("a command", mtype, body, {"seq": p.next_seq}),
        ("ACK", MsgType.ACK, b"", {}),
        ("PING", MsgType.PING, Ping(p.new_token()).encode(), {}),
    ]
    for what, t, b, header in turns:
        p.inbox.clear()
        sent = p.send(t, b, **header)
        got = p.collect(max(0.1, window(p)))
        if len(got) != 1:
            raise Fail(f"{what} got {len(got)} replies, not exactly 1")
        took = got[0].at - sent
        if took > window(p):
            raise Fail(f"{what} was answered after {took * 1000:.1f} ms (reply timeout 20 ms)")
        if got[0].address != p.address:
            raise Fail(f"{what} to address {p.address} answered from {got[0].address}")
        if "seq" in header:
            p.next_seq = (p.next_seq + 1) & 0xFF


@check("8", "bus.only-when-polled",
       "a panel never speaks unasked, not even to resend an unacknowledged frame",
       devices=frozenset({BUS}))
def bus_only_when_polled(p: Probe) -> None:
    p.open_session()
    p.send(*harmless_command(p), seq=p.next_seq, ack=p.expected)
    p.next_seq = (p.next_seq + 1) & 0xFF
    first = p.collect(window(p))
    if not any(r.type == MsgType.RESULT for r in first):
        raise Fail("a command's turn was not answered by its RESULT")
    unasked = p.collect(0.3)  # its RESULT is not acknowledged: only a poll may bring it again
    if unasked:
        raise Fail(f"the panel sent {name_of(unasked[0].type)} without being polled")
    p.settle()


@check("8", "bus.window",
       "one sequenced frame at a time: an unacknowledged one is sent again on the next turn",
       devices=frozenset({BUS}))
def bus_window(p: Probe) -> None:
    p.open_session()
    mtype, body = harmless_command(p)
    first = p.turn(mtype, body, seq=p.next_seq)
    results = [r for r in first if r.type == MsgType.RESULT]
    if not results:
        raise Fail("a command's turn was not answered by its RESULT")
    dev_seq = results[0].header.seq
    stale = dev_seq  # "I still expect your dev_seq": not acknowledged
    again = p.turn(mtype, body, seq=p.next_seq + 1, ack=stale)
    if not again or again[0].type != MsgType.RESULT or again[0].header.seq != dev_seq:
        shown = name_of(again[0].type) if again else "nothing"
        raise Fail(f"an unacknowledged RESULT was not sent again on the next turn ({shown})")
    p.expected = (dev_seq + 1) & 0xFF
    p.next_seq = (p.next_seq + 2) & 0xFF
    p.result((p.next_seq - 1) & 0xFF)

