"""Sections 5.1 and 5.2: sequence numbers, acknowledgements, the window and
retransmission, seen from the host's side of the line."""

from __future__ import annotations

import itertools

from firmware_bridge.conformance.checks_framing import harmless_command
from firmware_bridge.conformance.probe import (
    BUS_REPLY_TIMEOUT,
    QUIET_WAIT,
    Fail,
    Probe,
    Received,
    Skip,
    result_ref,
)
from firmware_bridge.conformance.registry import SHOE, check
from firmware_bridge.wire import MsgType, Ping, Result, SyncEvents

USB = frozenset({SHOE})
#: the spec's limits (docs/protocol.md sections 5.1, 5.2)
ACK_DELAY_MAX = 0.020
RTO = 0.050
WINDOW = 4


def results_for(got: list[Received], ref: int) -> list[Received]:
    return [r for r in got if r.fresh and r.type == MsgType.RESULT and result_ref(r) == ref]


@check("5.1", "seq.results", "one RESULT per command, in order, ref_seq and command named")
def seq_results(p: Probe) -> None:
    p.open_session()
    mtype, body = harmless_command(p)

    def next_result() -> Received:
        return p.expect(lambda r: r.fresh and r.type == MsgType.RESULT, "RESULT")

    if p.bus:  # a window of 1: one command per turn
        sent, frames = [], []
        for _ in range(3):
            sent.append(p.command(mtype, body))
            frames.append(next_result())
    else:
        sent = [p.command(mtype, body) for _ in range(3)]
        frames = [next_result() for _ in sent]
    got = [Result.decode(r.body) for r in frames]
    seqs = [r.header.seq for r in frames]
    if [g.ref_seq for g in got] != sent:
        raise Fail(f"RESULTs name ref_seq {[g.ref_seq for g in got]}, the commands were {sent}")
    if any(g.command != mtype for g in got):
        raise Fail(f"the RESULTs name commands {[g.command for g in got]}, not {mtype}")
    if any((b - a) & 0xFF != 1 for a, b in itertools.pairwise(seqs)):
        raise Fail(f"the device's RESULTs carry seq {seqs}: not consecutive")


@check("5.1", "seq.ack", "a command is acknowledged (ack = seq + 1) within 20 ms")
def seq_ack(p: Probe) -> None:
    p.open_session()
    p.inbox.clear()
    mtype, body = harmless_command(p)
    seq = p.next_seq
    sent_at = p.send(mtype, body, seq=seq)
    p.next_seq = (seq + 1) & 0xFF
    r = p.expect(lambda r: r.header.ack == (seq + 1) & 0xFF,
                 f"frame acknowledging seq {seq}", 0.3, poll=False)
    took = r.at - sent_at
    if took > ACK_DELAY_MAX + p.slack:
        raise Fail(f"the ack came {took * 1000:.1f} ms after the command (at most 20 ms)")
    if not (r.type == MsgType.RESULT and result_ref(r) == seq):
        p.result(seq)


@check("5.1", "seq.duplicate", "a repeated frame is acknowledged again but not executed again")
def seq_duplicate(p: Probe) -> None:
    p.open_session()
    mtype, body = harmless_command(p)
    seq = p.command(mtype, body)
    p.result(seq)
    p.settle()
    p.send(mtype, body, seq=seq)
    got = p.collect(QUIET_WAIT) if not p.bus else p.collect(BUS_REPLY_TIMEOUT + p.slack)
    if results_for(got, seq):
        raise Fail(f"the repeated command (seq {seq}) was executed twice")
    if not any(r.header.ack == (seq + 1) & 0xFF for r in got):
        raise Fail(f"the repeated frame was not acknowledged (ack {(seq + 1) & 0xFF})")


@check("5.1", "seq.out-of-window",
       "a frame a window or more ahead is never delivered, even after the gap fills")
def seq_out_of_window(p: Probe) -> None:
    p.open_session()
    mtype, body = harmless_command(p)
    distance = 1 if p.bus else WINDOW
    first = p.next_seq
    far = (first + distance) & 0xFF
    p.send(mtype, body, seq=far)
    if results_for(p.collect(QUIET_WAIT), far):
        raise Fail(f"a frame {distance} ahead of the expected seq was executed at once")
    for _ in range(distance):
        p.result(p.command(mtype, body))
    got = p.collect(QUIET_WAIT)
    if p.bus:
        got += p.turn(MsgType.PING, Ping(p.new_token()).encode())
    if results_for(got, far):
        raise Fail(f"a frame {distance} ahead was held and executed when the gap filled")


@check("5.1", "seq.ahead", "a frame 1 ahead is held back or dropped, never delivered early",
       devices=USB)
def seq_ahead(p: Probe) -> None:
    p.open_session()
    mtype, body = harmless_command(p)
    first = p.next_seq
    second = (first + 1) & 0xFF
    p.send(mtype, body, seq=second)
    early = p.collect(QUIET_WAIT)
    if any(r.type == MsgType.RESULT for r in early):
        raise Fail("a frame 1 ahead was executed before the frame it follows")
    p.send(mtype, body, seq=first)
    p.result(first)
    got = p.collect(QUIET_WAIT)
    if not results_for(got, second):
        p.send(mtype, body, seq=second)  # the device dropped it: resend, as a host would
        got += p.collect(QUIET_WAIT)
    if len(results_for(got, second)) != 1:
        raise Fail(f"the frame 1 ahead got {len(results_for(got, second))} RESULTs, not 1")


@check("5.1", "seq.stale-ack", "an ack that acknowledges nothing is no error and acks nothing")
def seq_stale_ack(p: Probe) -> None:
    p.open_session()
    p.auto_ack = False
    try:
        mtype, body = harmless_command(p)
        p.command(mtype, body)
        r = p.expect(lambda r: r.fresh and r.type == MsgType.RESULT, "RESULT", poll=False)
        dev_seq = r.header.seq
        stale = (dev_seq + 100) & 0xFF
        p.send(MsgType.PING, Ping(p.new_token()).encode(), ack=stale)
        if p.bus:
            got = p.collect(BUS_REPLY_TIMEOUT + p.slack)
            if not any(g.type == MsgType.RESULT and g.header.seq == dev_seq for g in got):
                raise Fail("after a stale ack the device did not send its RESULT again")
        else:
            p.expect(lambda g: g.type == MsgType.PONG, "PONG to a PING with a stale ack",
                     poll=False)
            p.expect(lambda g: g.type == MsgType.RESULT and g.header.seq == dev_seq,
                     "retransmission of the RESULT the stale ack did not cover", 1.0, poll=False)
    finally:
        p.auto_ack = True
        p.settle()


@check("5.1", "seq.window", "at most 4 sequenced frames are unacknowledged at once", devices=USB)
def seq_window(p: Probe) -> None:
    reply = p.hello()
    if reply.last_event_no < WINDOW:
        raise Skip(f"needs at least {WINDOW} events in the device's log, it has"
                   f" {reply.last_event_no}")
    p.auto_ack = False
    try:
        p.command(MsgType.SYNC_EVENTS, SyncEvents(reply.boot_id, 0).encode())
        got = p.collect(0.2)
        seqs = {r.header.seq for r in got if r.header.sequenced}
        if len(seqs) > WINDOW:
            raise Fail(f"{len(seqs)} sequenced frames were sent without an ack (window 4)")
        if len(seqs) < WINDOW:
            raise Fail(f"only {len(seqs)} frames came before the window filled; expected 4")
    finally:
        p.auto_ack = True
        p.settle()


@check("5.2", "retransmit.timer",
       "an unacknowledged frame is resent after 50 ms, then after 100 ms (doubling)", devices=USB)
def retransmit_timer(p: Probe) -> None:
    p.open_session()
    p.auto_ack = False
    try:
        seq = p.command(*harmless_command(p))
        first = p.expect(lambda r: r.fresh and r.type == MsgType.RESULT and result_ref(r) == seq,
                         "RESULT", poll=False)
        again = [r for r in p.collect(0.4)
                 if r.type == MsgType.RESULT and r.header.seq == first.header.seq]
        if len(again) < 2:
            raise Fail(f"an unacknowledged RESULT was resent {len(again)} time(s) in 400 ms")
        gaps = [again[0].at - first.at, again[1].at - again[0].at]
        for gap, want in zip(gaps, (RTO, 2 * RTO), strict=True):
            # the lower bound is loose: a resend a little early is harmless, and
            # a late wake-up of this process shortens the first gap it measures
            if not want * 0.7 <= gap <= want + p.slack:
                shown = ", ".join(f"{g * 1000:.0f}" for g in gaps)
                raise Fail(f"resent after {shown} ms; the spec says 50 then 100 ms")
        if any(r.body != first.body for r in again):
            raise Fail("a retransmission carries a different body")
        p.send(MsgType.ACK)
        late = [r for r in p.collect(0.3) if r.type == MsgType.RESULT]
        if late:
            raise Fail("the device kept resending after the ack")
    finally:
        p.auto_ack = True
        p.settle()


@check("5.2", "retransmit.go-back-n", "on a timeout every unacknowledged frame is resent in order",
       devices=USB)
def retransmit_go_back_n(p: Probe) -> None:
    p.open_session()
    p.auto_ack = False
    try:
        mtype, body = harmless_command(p)
        p.command(mtype, body)
        p.command(mtype, body)
        firsts = [
            p.expect(lambda r: r.fresh and r.type == MsgType.RESULT, "RESULT", poll=False)
            .header.seq
            for _ in range(2)
        ]
        again = [r.header.seq for r in p.collect(0.12) if r.type == MsgType.RESULT]
        if again[:2] != firsts:
            raise Fail(f"after a timeout the device resent seq {again[:2]}, expected {firsts}")
    finally:
        p.auto_ack = True
        p.settle()


#: a frame sent this many times without an ack brings the link down (section 5.2)
MAX_SENDS = 32


@check("5.2", "retransmit.give-up",
       "a frame never acknowledged is sent at most 32 times, then the session is dropped",
       devices=USB)
def retransmit_give_up(p: Probe) -> None:
    """PINGs every 40 ms keep the device hearing its peer (so neither its 2 s
    fail-safe nor its 6 silent timeouts apply) but never acknowledge its
    RESULT: after at most 32 sends (about 1.6 s at 50 ms) the device declares
    the link down and answers NO_SESSION."""
    p.open_session()
    p.auto_ack = False
    try:
        seq = p.command(*harmless_command(p))
        first = p.expect(lambda r: r.fresh and r.type == MsgType.RESULT and result_ref(r) == seq,
                         "RESULT", poll=False)
        stale = first.header.seq  # an ack that leaves the RESULT unacknowledged
        copies, dropped = 1, False
        for _ in range(100):  # 4 s at most
            p.send(MsgType.PING, Ping(p.new_token()).encode(), ack=stale)
            for r in p.collect(0.04):
                if r.type == MsgType.RESULT and r.header.seq == stale:
                    copies += 1
                dropped = dropped or r.type == MsgType.NO_SESSION
            if dropped or copies > MAX_SENDS:
                break
        if copies > MAX_SENDS:
            raise Fail(f"an unacknowledged RESULT was sent {copies} times; at most {MAX_SENDS}, "
                       "then the link is down")
        if not dropped:
            raise Fail(f"the RESULT was sent {copies} times unacknowledged and the device "
                       "still kept its session (no NO_SESSION within 4 s)")
    finally:
        p.auto_ack = True
        p.settle()
