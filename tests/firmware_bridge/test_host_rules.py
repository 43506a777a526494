"""The host session's rules one by one, against docs/protocol.md sections 4-6.

A ``HostSession`` is driven directly at chosen times with device frames made
by hand (``FakeDevice`` numbers its sequenced frames and answers HELLO with a
HELLO_REPLY laid out as section 3 says), so each rule is met alone: HELLO
retransmission (50 ms doubling to 1 s; 1 s after a refusal), the version and
kind refusals in plain words, SYNC_EVENTS from the right cursor, events
delivered exactly once with gaps reported (section 5.3), the wanted state
pushed again after every HELLO, DISPENSE numbering, PING every 250 ms and the
link going down after 1.5 s of silence.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from cobs import cobs

from firmware_bridge.host import (
    CATCH_UP_LIMIT,
    ButtonPressed,
    CardOut,
    CommandDone,
    CommandFailed,
    EventCursor,
    EventsLost,
    GateForced,
    GateJammed,
    HostSession,
    LinkDown,
    LinkUp,
    ShoeEmpty,
    State,
    UnknownEvent,
    kind_name,
)
from firmware_bridge.wire import (
    FLAG_FROM_DEVICE,
    FLAG_SEQ,
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    DeviceKind,
    Dispense,
    Event,
    Frame,
    FrameDecoder,
    Header,
    Hello,
    HelloReply,
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
    encode_frame,
)

BOOT = 0xABCD0001


class FakeDevice:
    """The device's end, by hand: numbers its sequenced frames, acks the host's."""

    def __init__(self, kind: int = DeviceKind.SHOE, boot_id: int = BOOT, address: int = 0,
                 major: int = PROTOCOL_MAJOR, minor: int = 0) -> None:
        self.kind, self.boot_id, self.address = kind, boot_id, address
        self.major, self.minor = major, minor
        self.seq = 0
        self.expected = 0
        self.last_event_no = 0

    def frame(self, mtype: int, body: bytes = b"", sequenced: bool = False,
              version: int = PROTOCOL_MAJOR, seq: int | None = None) -> bytes:
        flags = FLAG_FROM_DEVICE | (FLAG_SEQ if sequenced else 0)
        if sequenced and seq is None:
            seq = self.seq
            self.seq = (self.seq + 1) & 0xFF
        return encode_frame(
            Header(self.address, mtype, self.seq if seq is None else seq, self.expected, flags,
                   version),
            body,
        )

    def hello_reply(self, nonce: int, last_event_no: int | None = None) -> bytes:
        reply = HelloReply(
            self.major, self.minor, self.kind, 0, (1, 2, 3), 4, b"DEVICE01", self.boot_id,
            0x1F0000, self.last_event_no if last_event_no is None else last_event_no, nonce,
        )
        return self.frame(MsgType.HELLO_REPLY, reply.encode(), version=self.major)

    def take(self, frames: list[Frame]) -> None:
        """Acknowledge what the host sent, in order."""
        for f in frames:
            if f.header.sequenced and f.header.seq == self.expected:
                self.expected = (self.expected + 1) & 0xFF

    def result(self, ref_seq: int, command: int, code: int = ResultCode.OK,
               data: bytes = b"") -> bytes:
        return self.frame(MsgType.RESULT, Result(ref_seq, command, code, data).encode(), True)

    def event(self, event_no: int, kind: int = 1, arg: int = 0, ms: int = 0) -> bytes:
        return self.frame(MsgType.EVENT, Event(event_no, ms, kind, arg).encode(), True)


def sent(host: HostSession) -> list[Frame]:
    out = FrameDecoder().feed(host.data_to_send())
    assert all(isinstance(f, Frame) for f in out)
    return [f for f in out if isinstance(f, Frame)]


def of(frames: list[Frame], mtype: int) -> list[Frame]:
    return [f for f in frames if f.header.type == mtype]


def hello(host: HostSession, now: float) -> int:
    """Open the connection; the nonce of the HELLO it sends at once."""
    host.connection_made(now)
    host.tick(now)
    (h,) = of(sent(host), MsgType.HELLO)
    return Hello.decode(h.body).nonce


def up(host: HostSession, dev: FakeDevice, now: float = 0.0, oldest: int | None = None,
       last: int | None = None, resend: bool = True) -> list[Frame]:
    """HELLO, HELLO_REPLY, SYNC_EVENTS and its RESULT (with ``resend``, the
    events after the host's cursor up to ``last`` right behind it, in the same
    read, as a device resends them): the link is up; the host's frames after
    the HELLO_REPLY are returned."""
    nonce = hello(host, now)
    host.receive_bytes(dev.hello_reply(nonce), now)
    frames = sent(host)
    dev.take(frames)
    (sync,) = of(frames, MsgType.SYNC_EVENTS)
    last = dev.last_event_no if last is None else last
    oldest = last + 1 if oldest is None else oldest
    data = dev.result(sync.header.seq, MsgType.SYNC_EVENTS, data=SyncResult(oldest, last).encode())
    assert host.cursor is not None
    if resend:
        first = max(host.cursor.event_no + 1, oldest)
        data += b"".join(dev.event(n, ms=n * 10) for n in range(first, last + 1))
    host.receive_bytes(data, now)
    if not resend:
        return frames
    assert host.is_up
    assert [f.header.type for f in sent(host)] == [MsgType.ACK]  # for the RESULT
    return frames


# ----------------------------------------------------------------------------- hello
def test_hello_goes_at_once_then_every_50_ms_doubling_to_one_second() -> None:
    host = HostSession()
    host.connection_made(10.0)
    assert host.next_deadline() == 10.0
    times = []
    now = 10.0
    for _ in range(8):
        host.tick(now)
        assert len(of(sent(host), MsgType.HELLO)) == 1
        times.append(now)
        nxt = host.next_deadline()
        assert nxt is not None
        host.tick(nxt - 0.0001)
        assert sent(host) == []
        now = nxt
    gaps = [round(b - a, 6) for a, b in pairwise(times)]
    assert gaps == [0.05, 0.1, 0.2, 0.4, 0.8, 1.0, 1.0]


def test_every_connection_attempt_gets_a_new_nonce_never_0() -> None:
    host = HostSession()
    first = hello(host, 0.0)
    host.connection_lost(0.1, "unplugged")
    second = hello(host, 0.2)
    assert first != 0 and second != 0 and first != second
    host._nonce = 0xFFFF  # the 16-bit nonce wraps past 0 to 1
    assert hello(host, 0.3) == 1


def test_a_reply_to_an_old_hello_is_ignored() -> None:
    host, dev = HostSession(), FakeDevice()
    nonce = hello(host, 0.0)
    host.receive_bytes(dev.hello_reply(nonce + 1), 0.01)
    assert host.state is State.HELLO and sent(host) == []


def test_a_device_of_another_major_version_is_refused_in_plain_words() -> None:
    host, dev = HostSession(expect_kind=DeviceKind.SHOE), FakeDevice(major=2)
    nonce = hello(host, 0.0)
    host.receive_bytes(dev.hello_reply(nonce), 0.01)
    (down,) = host.events()
    assert isinstance(down, LinkDown)
    assert down.reason == (
        f"the shoe speaks protocol 2.0 but this host speaks {PROTOCOL_MAJOR}.{PROTOCOL_MINOR}:"
        " update the host software"
    )
    assert host.counters.version_errors == 1
    assert host.next_deadline() == pytest.approx(1.01)  # asked again only once a second
    host.tick(1.01)
    nonce = Hello.decode(of(sent(host), MsgType.HELLO)[0].body).nonce
    host.receive_bytes(dev.hello_reply(nonce), 1.02)
    assert host.events() == []  # the same refusal is not reported twice


def test_an_older_device_is_told_to_update_its_firmware() -> None:
    host = HostSession()
    host.connection_made(0.0)
    host.tick(0.0)
    nonce = Hello.decode(sent(host)[0].body).nonce
    dev = FakeDevice(kind=DeviceKind.SEAT_PANEL, major=0)
    host.receive_bytes(dev.hello_reply(nonce), 0.01)
    (down,) = host.events()
    assert isinstance(down, LinkDown)
    assert down.reason.endswith("update the seat panel's firmware")


def test_a_device_of_the_wrong_kind_is_refused() -> None:
    host = HostSession(address=3, expect_kind=DeviceKind.SEAT_PANEL, polled=False)
    dev = FakeDevice(kind=DeviceKind.DEALER_PANEL, address=3)
    nonce = hello(host, 0.0)
    host.receive_bytes(dev.hello_reply(nonce), 0.01)
    (down,) = host.events()
    assert isinstance(down, LinkDown)
    assert down.reason == (
        "expected a seat panel at device @3 but a dealer panel answered: "
        "check the cabling and configuration"
    )
    assert host.counters.version_errors == 0
    assert not host.is_up


def test_a_newer_minor_version_is_accepted() -> None:
    host, dev = HostSession(), FakeDevice(minor=7)
    up(host, dev)
    (link_up,) = host.events()
    assert isinstance(link_up, LinkUp) and link_up.info is not None
    assert link_up.info.protocol == (1, 7)
    assert link_up.info.unique_id == b"DEVICE01".hex()
    assert link_up.info.firmware == (1, 2, 3) and link_up.info.hardware_rev == 4


def test_kind_names() -> None:
    assert kind_name(DeviceKind.SHOE) == "shoe"
    assert kind_name(DeviceKind.SEAT_PANEL) == "seat panel"
    assert kind_name(DeviceKind.DEALER_PANEL) == "dealer panel"
    assert kind_name(9) == "kind 9"


# ----------------------------------------------------------------------------- events
def test_a_first_connection_syncs_from_the_devices_last_event() -> None:
    host, dev = HostSession(), FakeDevice()
    dev.last_event_no = 12
    frames = up(host, dev)
    (sync,) = of(frames, MsgType.SYNC_EVENTS)
    assert SyncEvents.decode(sync.body) == SyncEvents(BOOT, 12)
    assert sync.header.seq == 0  # the first sequenced frame of the session
    (link_up,) = host.events()
    assert link_up == LinkUp(BOOT, False, 0, link_up.info)  # type: ignore[union-attr]


def test_a_kept_cursor_resumes_on_the_same_boot() -> None:
    host = HostSession(resume=EventCursor(BOOT, 5))
    dev = FakeDevice()
    dev.last_event_no = 9
    frames = up(host, dev, oldest=1, last=9, resend=False)
    assert SyncEvents.decode(of(frames, MsgType.SYNC_EVENTS)[0].body) == SyncEvents(BOOT, 5)
    # not up before the events up to the RESULT's last_event_no are in (5.3)
    assert not host.is_up and host.events() == []
    for n in range(6, 10):
        host.receive_bytes(dev.event(n, ms=n * 10), 0.1)
        assert host.is_up == (n == 9)
    got = host.events()
    assert got[0] == LinkUp(BOOT, False, 0, got[0].info)  # type: ignore[union-attr]
    assert got[1:] == [CardOut(n, n * 10, BOOT) for n in range(6, 10)]
    assert host.cursor == EventCursor(BOOT, 9)


def test_announced_events_that_never_come_are_reported_lost_and_the_link_comes_up() -> None:
    """A device that does not resend what its RESULT announced: after
    CATCH_UP_LIMIT the host reports the rest lost (an alarm) and comes up."""
    host = HostSession(resume=EventCursor(BOOT, 5))
    dev = FakeDevice()
    up(host, dev, oldest=1, last=9, resend=False)
    host.receive_bytes(dev.event(6), 0.1)
    host.receive_bytes(dev.frame(MsgType.PONG, Pong(0, 9, 100, 0).encode()), 4.9)
    host.tick(4.9)
    assert not host.is_up
    deadline = host.next_deadline()
    assert deadline is not None and deadline <= CATCH_UP_LIMIT
    host.tick(CATCH_UP_LIMIT)
    got = host.events()
    assert isinstance(got[0], LinkUp) and got[1] == CardOut(6, 0, BOOT)
    assert got[2] == EventsLost(BOOT, 7, 9, got[2].reason)  # type: ignore[union-attr]
    assert host.is_up and host.cursor == EventCursor(BOOT, 9)


def test_events_that_left_the_device_log_are_reported_lost() -> None:
    host = HostSession(resume=EventCursor(BOOT, 5))
    dev = FakeDevice()
    up(host, dev, oldest=9, last=20)
    lost, link_up, *resent = host.events()
    assert resent == [CardOut(n, n * 10, BOOT) for n in range(9, 21)]
    assert lost == EventsLost(BOOT, 6, 8, lost.reason)  # type: ignore[union-attr]
    assert "3 event(s) left the shoe's memory" in lost.reason  # type: ignore[union-attr]
    assert isinstance(link_up, LinkUp) and link_up.events_lost == 3
    assert host.cursor == EventCursor(BOOT, 20)  # 9..20 resent behind the RESULT
    assert host.counters.events_lost == 3


def test_a_duplicate_event_is_dropped_and_a_gap_is_an_alarm() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    host.receive_bytes(dev.event(1), 0.1)
    host.receive_bytes(dev.event(1), 0.1)  # same number again (a new frame): a duplicate
    assert host.counters.duplicate_events == 1
    host.receive_bytes(dev.event(4, kind=2, arg=3, ms=77), 0.2)
    got = host.events()
    assert got[0] == CardOut(1, 0, BOOT)
    assert got[1] == EventsLost(BOOT, 2, 3, "2 event(s) from the shoe never arrived")
    assert got[2] == ButtonPressed(3, 4, 77, BOOT)
    assert host.counters.events_lost == 2 and host.counters.events_delivered == 2


def test_each_event_kind_becomes_its_own_report() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    for n, kind in enumerate((3, 4, 5, 9), start=1):
        host.receive_bytes(dev.event(n, kind=kind, arg=n, ms=n), 0.1)
    assert host.events() == [
        GateForced(1, 1, BOOT), GateJammed(2, 2, BOOT), ShoeEmpty(3, 3, BOOT),
        UnknownEvent(9, 4, 4, 4, BOOT),
    ]


def test_a_reboot_starts_from_event_0_and_counts_the_announced_events_lost() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    host.receive_bytes(dev.event(1), 0.1)
    host.receive_bytes(dev.frame(MsgType.PONG, Pong(0, 3, 100, 0).encode()), 0.2)  # 3 announced
    host.receive_bytes(dev.frame(MsgType.NO_SESSION), 0.3)
    down = [e for e in host.events() if isinstance(e, LinkDown)]
    assert down and "lost the session" in down[0].reason
    nonce = Hello.decode(of(sent(host), MsgType.HELLO)[0].body).nonce
    rebooted = FakeDevice(boot_id=BOOT + 1)
    host.receive_bytes(rebooted.hello_reply(nonce, last_event_no=1), 0.4)
    frames = sent(host)
    rebooted.take(frames)
    (sync,) = of(frames, MsgType.SYNC_EVENTS)
    assert SyncEvents.decode(sync.body) == SyncEvents(BOOT + 1, 0)
    host.receive_bytes(rebooted.result(sync.header.seq, MsgType.SYNC_EVENTS,
                                       data=SyncResult(1, 1).encode()), 0.4)
    assert host.events() == []  # up once the new boot's event 1 is in (5.3)
    host.receive_bytes(rebooted.event(1), 0.5)
    link_up, card = host.events()
    assert link_up == LinkUp(BOOT + 1, True, 2, link_up.info)  # type: ignore[union-attr]
    assert card == CardOut(1, 0, BOOT + 1)


def test_a_refused_sync_still_brings_the_link_up() -> None:
    host, dev = HostSession(), FakeDevice()
    nonce = hello(host, 0.0)
    host.receive_bytes(dev.hello_reply(nonce), 0.0)
    frames = sent(host)
    dev.take(frames)
    (sync,) = of(frames, MsgType.SYNC_EVENTS)
    host.receive_bytes(dev.result(sync.header.seq, MsgType.SYNC_EVENTS, ResultCode.FAILED), 0.0)
    assert host.is_up
    (link_up,) = host.events()
    assert isinstance(link_up, LinkUp) and link_up.events_lost == 0


# ----------------------------------------------------------------------------- commands
def test_the_wanted_state_waits_for_the_link_and_follows_sync_events() -> None:
    host, dev = HostSession(), FakeDevice()
    h_gate = host.command(SetGate(False))
    h_old = host.command(SetLights(1))
    h_new = host.command(SetLights(2))  # replaces the older, still waiting
    h_text = host.command(SetText("hi"))
    assert host.wanted(MsgType.SET_LIGHTS) == SetLights(2)
    frames = up(host, dev)
    types = [f.header.type for f in frames if f.header.sequenced]
    assert types == [MsgType.SYNC_EVENTS, MsgType.SET_GATE, MsgType.SET_LIGHTS, MsgType.SET_TEXT]
    assert SetLights.decode(of(frames, MsgType.SET_LIGHTS)[0].body) == SetLights(2)
    # protocol 5.4: the session never opens a gate by itself; a new session
    # pushes it locked, and whoever asked for the opening is told it did not happen
    assert SetGate.decode(of(frames, MsgType.SET_GATE)[0].body) == SetGate(True)
    early = host.events()
    assert [e.handle for e in early if isinstance(e, CommandFailed)] == [h_gate]
    for f in frames[1:]:
        if f.header.sequenced:
            host.receive_bytes(dev.result(f.header.seq, f.header.type), 0.1)
    done = host.events()
    assert [e.handle for e in done if isinstance(e, CommandDone)] == [h_old, h_new, h_text]
    assert all(isinstance(e, CommandDone) and e.ok and e.message == "done" for e in done)


def test_a_command_while_up_goes_at_once_and_its_result_names_it() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    handle = host.command(SetGate(True))
    host.tick(0.05)  # the driver's next turn of the loop sends it
    (frame,) = sent(host)
    assert frame.header.type == MsgType.SET_GATE and frame.header.sequenced
    host.receive_bytes(dev.result(frame.header.seq, MsgType.SET_GATE, ResultCode.JAMMED), 0.1)
    (done,) = host.events()
    assert done == CommandDone(handle, ResultCode.JAMMED, "the shoe is jammed")
    assert not done.ok  # type: ignore[union-attr]


def test_dispense_numbers_count_up_from_a_random_start_and_already_done_is_ok() -> None:
    """Section 5.4: a host's first ``dispense_no`` is random (a restarted host
    must not repeat the last one the shoe carried out), then +1 each."""
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    h1 = host.command(Dispense(0))
    h2 = host.command(Dispense(0))
    host.tick(0.05)
    frames = of(sent(host), MsgType.DISPENSE)
    first, second = (Dispense.decode(f.body).dispense_no for f in frames)
    assert first != 0 and second == first % 0xFFFF + 1
    starts = {HostSession()._dispense_no for _ in range(20)}
    assert len(starts) > 10  # random, not 0 in every process
    host.receive_bytes(dev.result(frames[0].header.seq, MsgType.DISPENSE), 0.1)
    host.receive_bytes(dev.result(frames[1].header.seq, MsgType.DISPENSE,
                                  ResultCode.ALREADY_DONE), 0.1)
    done = host.events()
    assert [(e.handle, e.ok) for e in done if isinstance(e, CommandDone)] == [(h1, True),
                                                                             (h2, True)]


def test_dispense_numbers_wrap_past_0() -> None:
    host = HostSession()
    host._dispense_no = 0xFFFF
    host.command(Dispense(0))
    assert host._dispenses[0][1] == Dispense(1)


def test_a_dispense_waiting_for_a_rebooted_shoe_fails_rather_than_repeat() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    host.connection_lost(0.2, "unplugged")
    handle = host.command(Dispense(0))
    host.events()
    up(host, FakeDevice(boot_id=BOOT + 1), now=0.5)
    failed = [e for e in host.events() if isinstance(e, CommandFailed)]
    assert failed == [CommandFailed(handle, "the shoe restarted; the card was not dispensed")]


def test_a_dispense_waiting_for_the_same_boot_is_sent_when_the_link_returns() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.connection_lost(0.2, "unplugged")
    host.command(Dispense(0))
    frames = up(host, FakeDevice(), now=0.5)
    numbers = [Dispense.decode(f.body).dispense_no for f in of(frames, MsgType.DISPENSE)]
    assert numbers == [host._dispense_no]


def test_commands_without_a_result_are_sent_again_in_the_next_session() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    host.command(SetText("Ann"))
    host.command(Dispense(0))
    host.tick(0.05)
    sent(host)
    host.connection_lost(0.2, "unplugged")
    frames = up(host, FakeDevice(), now=0.5)
    assert [f.header.type for f in frames if f.header.sequenced] == [
        MsgType.SYNC_EVENTS, MsgType.SET_TEXT, MsgType.DISPENSE]


def test_closing_fails_every_pending_command() -> None:
    host = HostSession()
    a = host.command(SetGate(True))
    b = host.command(Dispense(0))
    host.close()
    assert host.events() == [CommandFailed(a, "the link was closed"),
                             CommandFailed(b, "the link was closed")]
    assert host.state is State.CLOSED and host.next_deadline() is None


def test_only_the_table_commands_are_accepted() -> None:
    with pytest.raises(ValueError, match="SyncEvents is sent by the session itself"):
        HostSession().command(SyncEvents(1, 0))


# ----------------------------------------------------------------------------- heartbeat
def test_ping_every_250_ms_and_the_pong_gives_a_round_trip() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev, now=1.0)
    host.events()
    host.tick(1.2499)
    assert of(sent(host), MsgType.PING) == []
    host.tick(1.25)
    (ping,) = of(sent(host), MsgType.PING)
    token = Ping.decode(ping.body).token
    host.receive_bytes(dev.frame(MsgType.PONG, Pong(token, 0, 1, 0).encode()), 1.26)
    assert host.counters.rtt_last == pytest.approx(0.01)
    host.receive_bytes(dev.frame(MsgType.PONG, Pong(token, 0, 1, 0).encode()), 1.3)
    assert host.counters.rtt_last == pytest.approx(0.01)  # one sample per PING
    assert host.next_deadline() == pytest.approx(1.5)


def test_one_and_a_half_seconds_of_silence_take_the_link_down_and_hello_starts_again() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev, now=0.0)
    host.events()
    host.tick(1.5)
    assert host.is_up
    host.tick(1.5001)
    (down,) = host.events()
    assert down == LinkDown("no answer from the shoe for 1.5 s")
    assert host.state is State.HELLO
    assert of(sent(host), MsgType.HELLO)  # the first HELLO of the next attempt went at once
    assert host.counters.link_downs == 1


def test_frames_of_the_wrong_direction_version_or_address_are_dropped() -> None:
    host, dev = HostSession(address=2), FakeDevice(address=2)
    up(host, dev)
    host.events()
    echo = encode_frame(Header(2, MsgType.PING, 0, 0, 0), Ping(1).encode())
    host.receive_bytes(echo, 0.1)
    assert host.counters.wrong_direction == 1
    host.receive_bytes(dev.frame(MsgType.PONG, Pong(0, 0, 0, 0).encode(), version=3), 0.1)
    assert host.counters.version_errors == 1
    other = FakeDevice(address=5)
    host.receive_bytes(other.event(1), 0.1)
    assert host.events() == [] and host.cursor == EventCursor(BOOT, 0)


def test_a_sequenced_event_whose_body_does_not_parse_is_not_acknowledged() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    sent(host)
    host.receive_bytes(dev.frame(MsgType.EVENT, b"\x01\x02", sequenced=True), 0.1)
    assert host.counters.bad_bodies == 1
    assert host.link.expected == 1  # only the SYNC result was taken
    host.receive_bytes(dev.frame(MsgType.EVENT, Event(1, 0, 1).encode(), sequenced=True, seq=1),
                       0.2)
    assert host.events() == [CardOut(1, 0, BOOT)]


def test_damaged_bytes_are_counted_by_kind() -> None:
    host = HostSession()
    host.connection_made(0.0)
    host.receive_bytes(b"\x05\x01\x00", 0.0)  # bad COBS
    assert host.counters.bad_frames == 1 and host.counters.crc_errors == 0
    assert host.counters.bytes_received == 3


def test_an_unknown_unsequenced_type_is_counted() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.receive_bytes(dev.frame(0x0D), 0.1)
    assert host.counters.unknown_types == 1


# ----------------------------------------------------------------------------- the bus
def test_a_polled_session_speaks_only_in_its_turn() -> None:
    host = HostSession(address=4, polled=True)
    assert not host.wants_turn(0.0)
    host.connection_made(0.0)
    assert host.wants_turn(0.0)
    (frame,) = FrameDecoder().feed(host.turn(0.0))
    assert isinstance(frame, Frame) and frame.header.type == MsgType.HELLO
    assert not host.wants_turn(0.04) and host.wants_turn(0.05)
    host.tick(0.05)
    assert host.data_to_send() == b""  # on the bus a HELLO goes only in a turn
    host.turn_missed(0.06)
    assert host.counters.missed_turns == 1


# ----------------------------------------------------------------------------- details
def test_counters_add_up_over_many_frames() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    payload = bytes([1, 0, 2, 0, 0, MsgType.PONG]) + Pong(0, 0, 0, 0).encode()
    bad_crc = cobs.encode(payload + b"\x00\x00") + b"\x00"
    echo = encode_frame(Header(0, MsgType.PING, 0, 0, 0), Ping(1).encode())
    for t in (0.1, 0.2):
        host.receive_bytes(bad_crc + b"\x05\x01\x00", t)
        host.receive_bytes(bad_crc, t)
        host.receive_bytes(echo, t)
        host.receive_bytes(dev.frame(MsgType.PONG, b"", version=3), t)
        host.receive_bytes(dev.frame(0x0D), t)
        host.receive_bytes(dev.frame(MsgType.PONG, b"\x01"), t)  # a PONG too short
        host.receive_bytes(dev.frame(MsgType.RESULT, b"\x01", sequenced=True, seq=dev.seq), t)
    c = host.counters
    assert (c.crc_errors, c.bad_frames, c.wrong_direction) == (4, 2, 2)
    assert (c.version_errors, c.unknown_types, c.bad_bodies) == (2, 2, 4)


def test_a_bad_hello_reply_is_counted_each_time() -> None:
    host, dev = HostSession(), FakeDevice()
    hello(host, 0.0)
    host.receive_bytes(dev.frame(MsgType.HELLO_REPLY, b"\x01\x00"), 0.01)
    host.receive_bytes(dev.frame(MsgType.HELLO_REPLY, b"\x01\x00"), 0.02)
    assert host.counters.bad_bodies == 2 and host.state is State.HELLO


def test_refusals_are_counted_each_time_the_device_answers() -> None:
    host, dev = HostSession(), FakeDevice(major=2)
    for t in (0.0, 1.5):
        host.connection_made(t)
        host.tick(t)
        nonce = Hello.decode(of(sent(host), MsgType.HELLO)[0].body).nonce
        host.receive_bytes(dev.hello_reply(nonce), t + 0.01)
    assert host.counters.version_errors == 2


def test_a_result_that_skips_a_command_fails_the_skipped_one() -> None:
    """Cannot happen on an ordered link, but if it did the command is not left waiting."""
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    first = host.command(SetGate(True))
    second = host.command(SetText("x"))
    host.tick(0.05)
    frames = sent(host)
    host.receive_bytes(dev.result(frames[1].header.seq, MsgType.SET_TEXT), 0.1)
    assert host.events() == [CommandFailed(first, "the device gave no result"),
                             CommandDone(second, ResultCode.OK, "done")]
    host.receive_bytes(dev.result(99, MsgType.SET_GATE), 0.2)  # a result for no command
    assert host.events() == []


def test_closing_fails_commands_in_flight_too() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    gate = host.command(SetGate(True))
    card = host.command(Dispense(0))
    host.close()
    assert host.events() == [CommandFailed(gate, "the link was closed"),
                             CommandFailed(card, "the link was closed")]


def test_handles_are_all_different() -> None:
    host = HostSession()
    handles = [host.command(SetText(str(i))) for i in range(3)]
    assert len(set(handles)) == 3


def test_the_retransmission_timer_is_part_of_the_hosts_deadline() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev, now=1.0)
    host.command(SetGate(True))
    host.tick(1.01)
    assert host.next_deadline() == pytest.approx(1.06)  # before the PING at 1.25


def test_a_lost_connection_is_reported_once_with_its_reason() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    host.connection_lost(0.5, "the cable was pulled")
    assert host.events() == [LinkDown("the cable was pulled")]
    assert host.state is State.CLOSED and host.next_deadline() is None
    host.tick(5.0)
    assert sent(host) == [] and host.events() == []


def test_device_info_keeps_seat_and_capabilities() -> None:
    host = HostSession(address=6)
    dev = FakeDevice(kind=DeviceKind.SEAT_PANEL, address=6)
    up(host, dev)
    (link_up,) = host.events()
    assert isinstance(link_up, LinkUp) and link_up.info is not None
    assert link_up.info.capabilities == 0x1F0000 and link_up.info.seat == 0
    assert link_up.info.kind == DeviceKind.SEAT_PANEL and link_up.info.boot_id == BOOT


def test_a_reboot_with_events_aged_out_counts_both_losses() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    host.receive_bytes(dev.frame(MsgType.PONG, Pong(0, 4, 100, 0).encode()), 0.1)  # 4 announced
    host.connection_lost(0.2, "unplugged")
    # the new boot already dropped its first 2 events from its log
    rebooted = FakeDevice(boot_id=BOOT + 1)
    up(host, rebooted, now=0.3, oldest=3, last=5)
    got = host.events()
    lost = [e for e in got if isinstance(e, EventsLost)]
    assert lost == [EventsLost(BOOT + 1, 1, 2, lost[0].reason)]
    link_up = [e for e in got if isinstance(e, LinkUp)]
    assert link_up[0].rebooted and link_up[0].events_lost == 4 + 2
    assert host.counters.events_lost == 6


def test_lost_and_duplicate_event_counters_add_up() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.receive_bytes(dev.event(2), 0.1)  # 1 missing
    host.receive_bytes(dev.event(2), 0.1)
    host.receive_bytes(dev.event(5), 0.1)  # 3 and 4 missing
    host.receive_bytes(dev.event(5), 0.1)
    assert host.counters.events_lost == 3 and host.counters.duplicate_events == 2


def test_a_result_whose_body_does_not_parse_is_not_acknowledged() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.command(SetGate(True))
    host.tick(0.05)
    (cmd,) = of(sent(host), MsgType.SET_GATE)
    host.receive_bytes(dev.frame(MsgType.RESULT, b"\x01", sequenced=True, seq=1), 0.1)
    assert host.counters.bad_bodies == 1 and host.link.expected == 1
    host.receive_bytes(dev.result(cmd.header.seq, MsgType.SET_GATE), 0.1)
    assert host.link.expected == 2


# ----------------------------------------------------------------------------- bus turns
def test_a_polled_session_pings_in_its_turns_with_new_tokens_and_syncs_after_hello() -> None:
    host, dev = HostSession(address=4, polled=True), FakeDevice(address=4)
    host.connection_made(0.0)
    (h,) = FrameDecoder().feed(host.turn(0.0))
    assert isinstance(h, Frame)
    host.receive_frame(FrameDecoder().feed(dev.hello_reply(Hello.decode(h.body).nonce))[0],
                       0.001)  # type: ignore[arg-type]
    assert host.state is State.SYNCING and host.data_to_send() == b""
    (sync,) = FrameDecoder().feed(host.turn(0.01))
    assert isinstance(sync, Frame) and sync.header.type == MsgType.SYNC_EVENTS
    dev.take([sync])
    reply = FrameDecoder().feed(dev.result(0, MsgType.SYNC_EVENTS,
                                           data=SyncResult(1, 0).encode()))[0]
    host.receive_frame(reply, 0.011)  # type: ignore[arg-type]
    assert host.is_up
    tokens = []
    for t in (0.02, 0.03, 0.04):
        (ping,) = FrameDecoder().feed(host.turn(t))
        assert isinstance(ping, Frame) and ping.header.type == MsgType.PING
        assert ping.header.ack == 1  # the turn carries the ack for the RESULT
        tokens.append(Ping.decode(ping.body).token)
    assert tokens[1] == tokens[0] + 1 and tokens[2] == tokens[1] + 1  # a new token each turn
    assert host.next_deadline() == pytest.approx(0.011 + 1.5)  # no PING timer on a bus


def test_a_polled_command_unanswered_32_times_takes_the_link_down() -> None:
    host, dev = HostSession(address=4, polled=True), FakeDevice(address=4)
    host.connection_made(0.0)
    (h,) = FrameDecoder().feed(host.turn(0.0))
    assert isinstance(h, Frame)
    host.receive_frame(FrameDecoder().feed(dev.hello_reply(Hello.decode(h.body).nonce))[0],
                       0.001)  # type: ignore[arg-type]
    host.events()
    for i in range(32):
        (f,) = FrameDecoder().feed(host.turn(0.01 + i / 100))
        assert isinstance(f, Frame) and f.header.type == MsgType.SYNC_EVENTS, i
        host.turn_missed(0.015 + i / 100)
    assert host.counters.missed_turns == 32
    host.turn(0.5)
    assert host.events() == []  # never up, so no LinkDown to report
    assert host.counters.link_downs == 1 and host.state is State.HELLO
    assert not host.wants_turn(0.5) and not host.wants_turn(1.49) and host.wants_turn(1.5)


def test_a_polled_link_that_was_up_reports_why_it_went_down() -> None:
    host, dev = HostSession(address=4, polled=True), FakeDevice(address=4)
    host.connection_made(0.0)
    (h,) = FrameDecoder().feed(host.turn(0.0))
    assert isinstance(h, Frame)
    host.receive_frame(FrameDecoder().feed(dev.hello_reply(Hello.decode(h.body).nonce))[0],
                       0.001)  # type: ignore[arg-type]
    (sync,) = FrameDecoder().feed(host.turn(0.01))
    dev.take([sync])  # type: ignore[list-item]
    host.receive_frame(FrameDecoder().feed(dev.result(0, MsgType.SYNC_EVENTS,
                                                      data=SyncResult(1, 0).encode()))[0],
                       0.011)  # type: ignore[arg-type]
    host.events()
    host.command(SetGate(True))
    for i in range(33):
        host.turn(0.02 + i / 100)
    assert host.events() == [LinkDown("a frame was sent 32 times without an ack")]


# ----------------------------------------------------------------------------- more details
def test_bytes_and_link_downs_add_up() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.receive_bytes(b"\x00", 0.1)
    host.receive_bytes(b"\x00\x00", 0.1)
    before = host.counters.bytes_received
    host.receive_bytes(b"\x00\x00\x00", 0.1)
    assert host.counters.bytes_received == before + 3
    host.connection_lost(0.2, "unplugged")
    up(host, FakeDevice(), now=0.3)
    host.connection_lost(0.4, "unplugged")
    assert host.counters.link_downs == 2


def test_a_link_down_is_reported_once_until_the_link_is_up_again() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    host.tick(2.0)  # 1.5 s of silence
    host.connection_lost(2.1, "unplugged")
    assert [type(e) for e in host.events()] == [LinkDown]


def test_lost_events_are_counted_across_sessions() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.receive_bytes(dev.event(2), 0.1)  # event 1 missing
    host.connection_lost(0.2, "unplugged")
    up(host, FakeDevice(), now=0.3, oldest=5, last=6)  # 3 and 4 aged out
    assert host.counters.events_lost == 1 + 2


def test_a_stale_pong_gives_no_round_trip() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev, now=0.0)
    host.tick(0.25)
    first = Ping.decode(of(sent(host), MsgType.PING)[0].body).token
    host.tick(0.5)
    second = Ping.decode(of(sent(host), MsgType.PING)[0].body).token
    assert first != second
    samples = host.counters.rtt_last  # from the SYNC_EVENTS exchange
    host.receive_bytes(dev.frame(MsgType.PONG, Pong(first, 0, 0, 0).encode()), 0.6)
    assert host.counters.rtt_last == samples  # it answers the PING before the last
    host.receive_bytes(dev.frame(MsgType.PONG, Pong(second, 0, 0, 0).encode()), 0.61)
    assert host.counters.rtt_last == pytest.approx(0.11)


def test_a_command_cut_off_by_a_lost_link_is_answered_under_its_own_handle() -> None:
    host, dev = HostSession(), FakeDevice()
    up(host, dev)
    host.events()
    handle = host.command(SetText("Ann"))
    cards = [host.command(Dispense(0)), host.command(Dispense(0))]
    host.tick(0.05)
    sent(host)
    host.connection_lost(0.2, "unplugged")
    again = FakeDevice()
    frames = up(host, again, now=0.5)
    host.events()
    resent = [f for f in frames if f.header.sequenced][1:]
    assert [f.header.type for f in resent] == [MsgType.SET_TEXT, MsgType.DISPENSE,
                                               MsgType.DISPENSE]
    for f in resent:
        host.receive_bytes(again.result(f.header.seq, f.header.type), 0.6)
    assert [e.handle for e in host.events() if isinstance(e, CommandDone)] == [handle, *cards]


def test_closing_while_syncing_fails_only_the_tables_commands() -> None:
    host, dev = HostSession(), FakeDevice()
    handle = host.command(SetGate(True))
    nonce = hello(host, 0.0)
    host.receive_bytes(dev.hello_reply(nonce), 0.0)
    assert host.state is State.SYNCING
    host.close()
    assert host.events() == [CommandFailed(handle, "the link was closed")]


def test_a_device_that_gives_no_kind_is_called_a_device() -> None:
    host, dev = HostSession(), FakeDevice(kind=0, major=2)
    nonce = hello(host, 0.0)
    host.receive_bytes(dev.hello_reply(nonce), 0.01)
    (down,) = host.events()
    assert isinstance(down, LinkDown)
    assert down.reason.startswith("the device speaks protocol 2.0")


def test_a_restarted_host_whose_device_also_rebooted_knows_of_no_lost_event() -> None:
    """It kept a cursor but heard no announcement in this process: nothing to count."""
    host = HostSession(resume=EventCursor(BOOT, 0))
    host.connection_made(0.0)
    host.connection_lost(0.1, "the port went away")  # a first attempt that failed
    up(host, FakeDevice(boot_id=BOOT + 1), now=0.2)
    (link_up,) = [e for e in host.events() if isinstance(e, LinkUp)]
    assert link_up.rebooted and link_up.events_lost == 0


def test_the_same_boot_again_is_no_reboot() -> None:
    host = HostSession(resume=EventCursor(BOOT, 0))
    up(host, FakeDevice())
    (link_up,) = host.events()
    assert link_up == LinkUp(BOOT, False, 0, link_up.info)  # type: ignore[union-attr]


def test_a_stream_link_that_stops_answering_says_so() -> None:
    # six timeouts take 2.55 s: longer than the 1.5 s silence, so that is stretched here
    from firmware_bridge.link import LinkConfig

    host, dev = HostSession(config=LinkConfig(host_silence=10.0)), FakeDevice()
    up(host, dev)
    host.events()
    host.command(SetGate(True))
    now = 0.0
    while host.is_up and now < 9.0:
        deadline = host.next_deadline()
        assert deadline is not None
        now = deadline
        host.tick(now)
    assert host.events() == [LinkDown("no answer to 6 retransmissions in a row")]


def test_a_refused_device_is_reported_down_once() -> None:
    host, dev = HostSession(), FakeDevice(major=2)
    nonce = hello(host, 0.0)
    host.receive_bytes(dev.hello_reply(nonce), 0.01)
    host.connection_lost(0.5, "unplugged")
    assert [type(e) for e in host.events()] == [LinkDown]


def test_a_restarted_host_meeting_a_rebooted_device_at_once_knows_of_no_lost_event() -> None:
    host = HostSession(resume=EventCursor(BOOT, 0))
    up(host, FakeDevice(boot_id=BOOT + 1))
    (link_up,) = [e for e in host.events() if isinstance(e, LinkUp)]
    assert link_up.rebooted and link_up.events_lost == 0


# ----------------------------------------------------------------------------- found by mutation
def test_events_given_up_on_are_counted_and_the_alarm_says_how_many_and_how_long() -> None:
    """Protocol §5.3: events SYNC_EVENTS announced (7, 8 and 9 after the cursor
    at 6) that are not resent within CATCH_UP_LIMIT (5 s) are reported lost:
    three of them, counted as lost, in words a dealer reads."""
    host = HostSession(resume=EventCursor(BOOT, 5))
    dev = FakeDevice()
    up(host, dev, oldest=1, last=9, resend=False)
    host.receive_bytes(dev.event(6), 0.1)
    # a PONG keeps the link from timing out while the host waits
    host.receive_bytes(dev.frame(MsgType.PONG, Pong(0, 9, 100, 0).encode()), 4.9)
    host.tick(4.9)
    host.tick(CATCH_UP_LIMIT)
    lost = [e for e in host.events() if isinstance(e, EventsLost)]
    reason = "3 event(s) the shoe announced were not resent within 5 s"
    assert lost == [EventsLost(BOOT, 7, 9, reason)]
    assert host.counters.events_lost == 3


def test_an_opening_the_reconnect_cancelled_is_refused_in_plain_words() -> None:
    host, dev = HostSession(), FakeDevice()
    handle = host.command(SetGate(False))
    up(host, dev)
    failed = [e for e in host.events() if isinstance(e, CommandFailed)]
    reason = ("the shoe reconnected with its gate locked; "
              "it is not reopened until the table asks again")
    assert failed == [CommandFailed(handle, reason)]


def test_device_time_maps_to_host_time_through_the_clock_offset() -> None:
    """§3: offset = (t_ping_sent + t_pong_received) / 2 - uptime; PING at 1.25 s,
    PONG at 1.26 s saying uptime 1 ms: offset 1.254 s, so device ms 2500 is host
    time 3.754 s. Before the first PONG there is no offset and no host time."""
    host, dev = HostSession(), FakeDevice()
    up(host, dev, now=1.0)
    assert host.host_time(2500) is None
    host.tick(1.25)
    (ping,) = of(sent(host), MsgType.PING)
    pong = Pong(Ping.decode(ping.body).token, 0, 1, 0)
    host.receive_bytes(dev.frame(MsgType.PONG, pong.encode()), 1.26)
    assert host.host_time(2500) == pytest.approx(3.754, abs=1e-9)
    assert host.host_time(0) == pytest.approx(1.254, abs=1e-9)


# ----------------------------------------------------------------------------- gaps mutation found
def one(data: bytes) -> Frame:
    """The one frame in ``data`` (a bus turn or reply is a single frame)."""
    (frame,) = FrameDecoder().feed(data)
    assert isinstance(frame, Frame)
    return frame


def bus_up(host: HostSession, dev: FakeDevice) -> None:
    """A polled session through its bus turns, frames handed to
    ``receive_frame`` one by one as the bus driver does: HELLO, HELLO_REPLY,
    SYNC_EVENTS and its RESULT (the device holds no event: oldest 1, last 0)."""
    host.connection_made(0.0)
    nonce = Hello.decode(one(host.turn(0.0)).body).nonce
    host.receive_frame(one(dev.hello_reply(nonce)), 0.001)
    sync = one(host.turn(0.01))
    assert sync.header.type == MsgType.SYNC_EVENTS
    dev.take([sync])
    host.receive_frame(one(dev.result(sync.header.seq, MsgType.SYNC_EVENTS,
                                      data=SyncResult(1, 0).encode())), 0.011)
    assert host.is_up


def test_on_the_bus_every_frame_counts_once_no_session_too() -> None:
    """On the bus the driver hands each reply to ``receive_frame`` itself.
    ``frames_received`` counts every frame from the panel once: the PONG
    answering a turn's PING is one more, and the NO_SESSION answering the
    next turn (section 4: a device without a session answers NO_SESSION to
    anything but HELLO) one more again, though it belongs to no session and
    takes the link down: before + 1, then before + 2.  The words are the
    session's own for a lost session, with the kind the panel gave."""
    host = HostSession(address=4, polled=True, expect_kind=DeviceKind.SEAT_PANEL)
    dev = FakeDevice(kind=DeviceKind.SEAT_PANEL, address=4)
    bus_up(host, dev)
    host.events()
    before = host.counters.frames_received
    ping = one(host.turn(0.03))
    assert ping.header.type == MsgType.PING
    pong = Pong(Ping.decode(ping.body).token, 0, 30, 0)
    host.receive_frame(one(dev.frame(MsgType.PONG, pong.encode())), 0.032)
    assert host.counters.frames_received == before + 1
    host.turn(0.05)
    host.receive_frame(one(dev.frame(MsgType.NO_SESSION)), 0.052)
    assert host.counters.frames_received == before + 2
    assert host.events() == [
        LinkDown("the seat panel has lost the session (it restarted or reset)")
    ]
    assert host.state is State.HELLO


def test_a_panel_press_carries_the_panels_address() -> None:
    """The dealer panel sits at address 15 (section 2: 0x0F the dealer panel);
    its press of NEXT (section 7: button code 14, the dealer's) sent as event
    1, kind 2 BUTTON with arg 14 (section 3), at device time 1234 ms is
    ``ButtonPressed(button=14, event_no=1, device_ms=1234, boot_id=BOOT,
    address=15)``: the address says whose press it was."""
    host = HostSession(address=15, polled=True, expect_kind=DeviceKind.DEALER_PANEL)
    dev = FakeDevice(kind=DeviceKind.DEALER_PANEL, address=15)
    bus_up(host, dev)
    host.events()
    host.turn(0.03)
    host.receive_frame(one(dev.event(1, kind=2, arg=14, ms=1234)), 0.032)
    assert host.events() == [ButtonPressed(14, 1, 1234, BOOT, 15)]


def test_the_clock_offset_comes_from_the_fastest_round_trip() -> None:
    """§3: offset = (t_ping_sent + t_pong_received) / 2 - uptime, keeping the
    estimate of the fastest recent round trip.  Up at 1.0 s, PINGs go at
    1.25, 1.5 and 1.75 s (every 250 ms); the PONGs:

    * at 1.29 s, uptime 1000 ms: round trip 0.04 s, offset 1.27 - 1.0 = 0.27 s
    * at 1.51 s, uptime 1250 ms: round trip 0.01 s, offset 1.505 - 1.25 = 0.255 s
    * at 1.78 s, uptime 1500 ms: round trip 0.03 s, offset 1.765 - 1.5 = 0.265 s

    The fastest is the second (neither the first nor the newest): offset
    0.255 s, so device time 2000 ms is host time 2.255 s."""
    host, dev = HostSession(), FakeDevice()
    up(host, dev, now=1.0)
    for ping_at, pong_at, uptime_ms in ((1.25, 1.29, 1000), (1.5, 1.51, 1250),
                                        (1.75, 1.78, 1500)):
        host.tick(ping_at)
        (ping,) = of(sent(host), MsgType.PING)
        pong = Pong(Ping.decode(ping.body).token, 0, uptime_ms, 0)
        host.receive_bytes(dev.frame(MsgType.PONG, pong.encode()), pong_at)
    assert host.clock_offset == pytest.approx(0.255, abs=1e-9)
    assert host.host_time(2000) == pytest.approx(2.255, abs=1e-9)


def test_event_numbers_that_went_back_are_lost_events_of_the_cursors_boot() -> None:
    """§5.3: a host that resumes after event 9 of BOOT and reads, in the RESULT
    of SYNC_EVENTS, last_event_no 4 (same boot) raises the alarm that the
    shoe's event numbers went back, for events 5..9 of BOOT, and moves its
    cursor to 4, so the device's next event, 5, is delivered."""
    host = HostSession(resume=EventCursor(BOOT, 9))
    dev = FakeDevice()
    dev.last_event_no = 4
    up(host, dev, oldest=1, last=4)
    lost = [e for e in host.events() if isinstance(e, EventsLost)]
    reason = "the shoe's event numbers went back from 9 to 4: check the cards on the table"
    assert lost == [EventsLost(BOOT, 5, 9, reason)]
    assert host.cursor == EventCursor(BOOT, 4)
    host.receive_bytes(dev.event(5, ms=50), 0.1)
    assert host.events() == [CardOut(5, 50, BOOT)]


def test_events_given_up_on_add_to_those_already_lost() -> None:
    """§5.3: the host resumes after event 5; the RESULT of SYNC_EVENTS says
    oldest 7, last 9.  Event 6 left the device's log: 1 lost at once.  7..9
    were announced but never resent: after CATCH_UP_LIMIT (5 s) 3 more are
    lost, so the counter reads 1 + 3 = 4, and the two alarms name 6..6 and
    7..9 of BOOT in the session's own words."""
    host = HostSession(resume=EventCursor(BOOT, 5))
    dev = FakeDevice()
    up(host, dev, oldest=7, last=9, resend=False)
    assert host.counters.events_lost == 1
    # a PONG keeps the link from timing out while the host waits
    host.receive_bytes(dev.frame(MsgType.PONG, Pong(0, 9, 100, 0).encode()), 4.9)
    host.tick(4.9)
    host.tick(CATCH_UP_LIMIT)
    assert host.is_up
    lost = [e for e in host.events() if isinstance(e, EventsLost)]
    assert lost == [
        EventsLost(BOOT, 6, 6, "1 event(s) left the shoe's memory before they were sent"),
        EventsLost(BOOT, 7, 9, "3 event(s) the shoe announced were not resent within 5 s"),
    ]
    assert host.counters.events_lost == 4


def test_the_clock_offset_forgets_pongs_older_than_the_last_eight() -> None:
    """§3 keeps the estimate of the fastest *recent* round trip; the session
    keeps the last ``clock_samples`` = 8 PONGs (a device clock drifting by
    0.1 % makes an old sample stale).  Up at 0 s, PING k goes at 0.25·k s and
    its PONG comes back rtt_k later saying uptime 250·k ms, so its offset is
    (0.25k + 0.25k + rtt_k) / 2 - 0.25k = rtt_k / 2.  rtt_1 = 0.002 s (offset
    0.001), rtt_5 = 0.004 s (offset 0.002), every other 0.01 s (offset
    0.005).  After 8 PONGs the fastest is PONG 1: 0.001 s; the 9th pushes
    PONG 1 out, and the fastest of PONGs 2..9 is PONG 5: 0.002 s."""
    host, dev = HostSession(), FakeDevice()
    up(host, dev, now=0.0)
    rtts = {1: 0.002, 5: 0.004}
    for k in range(1, 10):
        host.tick(0.25 * k)
        (ping,) = of(sent(host), MsgType.PING)
        pong = Pong(Ping.decode(ping.body).token, 0, 250 * k, 0)
        host.receive_bytes(dev.frame(MsgType.PONG, pong.encode()), 0.25 * k + rtts.get(k, 0.01))
        if k == 8:
            assert host.clock_offset == pytest.approx(0.001, abs=1e-9)
    assert host.clock_offset == pytest.approx(0.002, abs=1e-9)


def test_a_dispense_asked_before_the_first_connection_goes_when_the_shoe_answers() -> None:
    """§5.4: after the HELLO_REPLY the host sends SYNC_EVENTS, then what waited.
    A dispense asked before this host ever reached the shoe waited for no
    earlier boot, so it is no card a restart could have forgotten: it is sent
    (SYNC_EVENTS, then DISPENSE) and its RESULT OK answers its handle,
    "done" (section 3: code 0 OK)."""
    host, dev = HostSession(), FakeDevice()
    handle = host.command(Dispense(0))
    frames = up(host, dev)
    assert [f.header.type for f in frames if f.header.sequenced] == [
        MsgType.SYNC_EVENTS, MsgType.DISPENSE]
    assert [e for e in host.events() if isinstance(e, CommandFailed)] == []
    (card,) = of(frames, MsgType.DISPENSE)
    host.receive_bytes(dev.result(card.header.seq, MsgType.DISPENSE), 0.1)
    assert host.events() == [CommandDone(handle, ResultCode.OK, "done")]


def test_a_panels_clock_offset_comes_from_the_pings_of_its_bus_turns() -> None:
    """§8: on the bus the polls are the PINGs (section 9), so a panel's PONGs
    give clock samples too (§3: offset = (t_ping_sent + t_pong_received) / 2
    - uptime).  The turn's PING at 0.03 s, its PONG at 0.034 s saying uptime
    20 ms: offset 0.032 - 0.020 = 0.012 s; device time 1000 ms is host time
    1.012 s."""
    host = HostSession(address=3, polled=True, expect_kind=DeviceKind.SEAT_PANEL)
    dev = FakeDevice(kind=DeviceKind.SEAT_PANEL, address=3)
    bus_up(host, dev)
    assert host.clock_offset is None
    ping = one(host.turn(0.03))
    assert ping.header.type == MsgType.PING
    pong = Pong(Ping.decode(ping.body).token, 0, 20, 0)
    host.receive_frame(one(dev.frame(MsgType.PONG, pong.encode())), 0.034)
    assert host.clock_offset == pytest.approx(0.012, abs=1e-9)
    assert host.host_time(1000) == pytest.approx(1.012, abs=1e-9)
