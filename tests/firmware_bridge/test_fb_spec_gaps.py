"""The sentences docs/protocol.md gained after an outside implementer's
questions (issue 17), each checked against the reference host or device.

Expected values are read off the spec's own sentences (cited per test), not
taken from the code under test.
"""

from __future__ import annotations

import logging

import pytest

from firmware_bridge.device import (
    DeviceCore,
    RecordingHardware,
    seat_identity,
    shoe_identity,
)
from firmware_bridge.host import CardOut, EventCursor, EventsLost, HostSession, State
from firmware_bridge.wire import (
    FLAG_FROM_DEVICE,
    FLAG_SEQ,
    PROTOCOL_MAJOR,
    DeviceKind,
    Event,
    EventKind,
    Frame,
    FrameDecoder,
    Header,
    Hello,
    HelloReply,
    Light,
    MsgType,
    Result,
    ResultCode,
    SetGate,
    SetLights,
    SyncResult,
    encode_frame,
)

_DEV = FLAG_SEQ | FLAG_FROM_DEVICE


def _frames(data: bytes) -> list[Frame]:
    out = [f for f in FrameDecoder().feed(data) if isinstance(f, Frame)]
    return out


# --- the host ----------------------------------------------------------------------


def _first_nonce(session: HostSession) -> int:
    session.connection_made(0.0)
    session.tick(0.0)
    (hello,) = _frames(session.data_to_send())
    return Hello.decode(hello.body).nonce


def test_the_host_picks_its_first_nonce_at_random() -> None:
    """Section 4: "A host picks its first nonce at random, not 1" (and never 0).
    Eight hosts all starting at the same nonce would happen by chance with
    odds of 1 in 65535**7."""
    nonces = [_first_nonce(HostSession(expect_kind=DeviceKind.SHOE)) for _ in range(8)]
    assert 0 not in nonces
    assert len(set(nonces)) > 1


class _Scripted:
    """The device side by hand: a HELLO_REPLY and a SYNC_EVENTS result."""

    def __init__(self, host: HostSession, boot_id: int, sync: SyncResult) -> None:
        self.host = host
        self.now = 0.0
        self.seq = 0
        host.connection_made(self.now)
        host.tick(self.now)
        (hello,) = _frames(host.data_to_send())
        reply = HelloReply(
            PROTOCOL_MAJOR, 0, DeviceKind.SHOE, 0, (1, 0, 0), 1, b"SHOE0001", boot_id,
            shoe_identity().capabilities, sync.last_event_no, Hello.decode(hello.body).nonce,
        )
        self.send(Header(0, MsgType.HELLO_REPLY, 0, 0, FLAG_FROM_DEVICE), reply.encode())
        self.sequenced(MsgType.RESULT,
                       Result(0, MsgType.SYNC_EVENTS, ResultCode.OK, sync.encode()).encode())

    def send(self, header: Header, body: bytes, dt: float = 0.001) -> None:
        self.now += dt
        self.host.receive_bytes(encode_frame(header, body), self.now)

    def sequenced(self, mtype: int, body: bytes) -> None:
        self.send(Header(0, mtype, self.seq, self.host.link.next_seq, _DEV), body)
        self.seq = (self.seq + 1) & 0xFF


def test_event_numbers_that_went_back_raise_an_alarm_and_move_the_cursor() -> None:
    """Section 5.3: a host that reads a ``last_event_no`` below the
    ``after_event_no`` it asked for (same boot) raises an alarm and moves its
    cursor to ``last_event_no``, so the events that follow are delivered.
    Here the host resumes after event 10 of boot 5, the device says its last
    is 3: the alarm names 4..10, and the device's next event, 4, is delivered
    (it used to be dropped as a duplicate, as was every event up to 10)."""
    host = HostSession(expect_kind=DeviceKind.SHOE, resume=EventCursor(5, 10))
    shoe = _Scripted(host, boot_id=5, sync=SyncResult(1, 3))
    assert host.is_up
    (lost,) = [e for e in host.events() if isinstance(e, EventsLost)]
    assert (lost.first_event_no, lost.last_event_no) == (4, 10)
    assert "went back" in lost.reason
    assert host.cursor == EventCursor(5, 3)
    shoe.sequenced(MsgType.EVENT, Event(4, 400, EventKind.CARD_OUT).encode())
    assert host.events() == [CardOut(4, 400, 5)]


def test_no_session_acknowledges_nothing_and_gives_no_round_trip_sample() -> None:
    """Section 2: in NO_SESSION a receiver ignores ``seq`` and ``ack``.  A
    NO_SESSION whose ``ack`` would cover the host's command must not be
    taken as its acknowledgement (nor timed as a round trip)."""
    host = HostSession(expect_kind=DeviceKind.SHOE)
    shoe = _Scripted(host, boot_id=5, sync=SyncResult(1, 0))
    rtt_before = host.counters.rtt_last
    host.command(SetGate(True))
    host.tick(shoe.now)  # the command goes out as seq 1
    host.data_to_send()
    assert host.link.in_flight == 1
    # 40 ms later the device has lost the session; its header says ack 2
    shoe.send(Header(0, MsgType.NO_SESSION, 0, 2, FLAG_FROM_DEVICE), b"", dt=0.04)
    assert host.counters.rtt_last == rtt_before
    assert host.state is State.HELLO
    assert host.wanted(MsgType.SET_GATE) == SetGate(True)  # still to be sent


# --- the device ----------------------------------------------------------------------


def _to(core: DeviceCore, mtype: int, body: bytes, *, seq: int = 0, ack: int = 0,
        flags: int = 0, version: int = PROTOCOL_MAJOR, now: float = 0.0) -> list[Frame]:
    """A host frame to the device; what it answers (stream or bus)."""
    header = Header(core.address, mtype, seq, ack, flags, version)
    reply = core.receive_frame(Frame(header, body), now)
    core.link.write(reply)
    return _frames(core.data_to_send())


def _session(core: DeviceCore, nonce: int) -> None:
    (reply,) = _to(core, MsgType.HELLO, Hello(nonce=nonce).encode())
    assert reply.header.type == MsgType.HELLO_REPLY


def test_a_repeated_hello_reply_mid_session_carries_seq_and_ack_zero() -> None:
    """Section 2: HELLO_REPLY is sent with ``seq`` = 0 and ``ack`` = 0, "even
    when a device repeats a HELLO_REPLY in the middle of a session".  Two
    commands move both counters to 2 first."""
    core = DeviceCore(shoe_identity(), RecordingHardware(), boot_id=1)
    _session(core, 77)
    for seq in (0, 1):
        _to(core, MsgType.SET_GATE, SetGate(True).encode(), seq=seq, flags=FLAG_SEQ)
    core.link.flush(0.0)
    core.data_to_send()
    assert (core.link.next_seq, core.link.expected) == (2, 2)
    (reply,) = _to(core, MsgType.HELLO, Hello(nonce=77).encode())
    assert reply.header.type == MsgType.HELLO_REPLY
    assert (reply.header.seq, reply.header.ack) == (0, 0)
    assert (core.link.next_seq, core.link.expected) == (2, 2)  # a repeat changes nothing


def test_no_session_on_the_bus_carries_seq_and_ack_zero() -> None:
    """Section 2: NO_SESSION carries ``seq`` 0 and ``ack`` 0.  A panel in a
    session answers a frame of another major version with NO_SESSION (bus:
    one reply per frame); its counters stand at 1 by then."""
    core = DeviceCore(seat_identity(2), RecordingHardware(), address=2, polled=True)
    _session(core, 5)
    (result,) = _to(core, MsgType.SET_LIGHTS, SetLights(0).encode(), flags=FLAG_SEQ)
    assert result.header.type == MsgType.RESULT and result.header.seq == 0
    (reply,) = _to(core, MsgType.PING, b"\x01\x00", ack=1, version=PROTOCOL_MAJOR + 1)
    assert reply.header.type == MsgType.NO_SESSION
    assert (reply.header.seq, reply.header.ack) == (0, 0)


def test_every_new_session_starts_locked_dark_and_blank_even_outside_fail_safe() -> None:
    """Section 4: "Whether or not it was in fail-safe, a new session starts
    from the same outputs: gate locked, every lamp off, text empty"."""
    shoe_hw = RecordingHardware()
    shoe = DeviceCore(shoe_identity(), shoe_hw, boot_id=1)
    _session(shoe, 10)
    _to(shoe, MsgType.SET_GATE, SetGate(False).encode(), flags=FLAG_SEQ)
    _to(shoe, MsgType.SET_LIGHTS, SetLights(int(Light.READY)).encode(), seq=1, flags=FLAG_SEQ)
    assert not shoe_hw.gate_locked and shoe_hw.lights == Light.READY and not shoe.fail_safe
    _session(shoe, 11)  # a new host's HELLO, while the shoe is not in fail-safe
    assert shoe_hw.gate_locked and shoe.gate_locked and shoe_hw.lights == 0

    panel_hw = RecordingHardware()
    panel = DeviceCore(seat_identity(1), panel_hw, address=1, boot_id=2)
    _session(panel, 20)
    _to(panel, MsgType.SET_TEXT, b"Ann\nStake 5", flags=FLAG_SEQ)
    assert panel_hw.text == "Ann\nStake 5"
    _session(panel, 21)
    assert panel_hw.text == "" and panel_hw.lights == 0


def _result(frames: list[Frame]) -> Result:
    (result,) = [Result.decode(f.body) for f in frames if f.header.type == MsgType.RESULT]
    return result


def test_set_lights_ignores_the_offline_bit() -> None:
    """Section 7: a device ignores bit 27 in SET_LIGHTS (takes it as 0; still
    RESULT OK).  READY | OFFLINE = 0x09000000 becomes READY = 0x01000000."""
    hw = RecordingHardware()
    core = DeviceCore(seat_identity(1), hw, address=1, boot_id=1)
    _session(core, 3)
    mask = int(Light.READY) | int(Light.OFFLINE)
    assert mask == 0x0900_0000
    _to(core, MsgType.SET_LIGHTS, SetLights(mask).encode(), flags=FLAG_SEQ)
    core.link.flush(0.0)
    assert _result(_frames(core.data_to_send())).code == ResultCode.OK
    assert hw.lights == 0x0100_0000


def test_set_text_over_32_bytes_is_bad_length() -> None:
    """Section 3: SET_TEXT "when it is over 32 bytes (BAD_LENGTH, not
    BAD_VALUE)"; a byte outside 0x20-0x7E and 0x0A is BAD_VALUE."""
    core = DeviceCore(seat_identity(1), RecordingHardware(), address=1, boot_id=1)
    _session(core, 3)
    _to(core, MsgType.SET_TEXT, b"x" * 33, flags=FLAG_SEQ)
    core.link.flush(0.0)
    assert _result(_frames(core.data_to_send())).code == ResultCode.BAD_LENGTH
    _to(core, MsgType.SET_TEXT, b"\x07", seq=1, flags=FLAG_SEQ)
    core.link.flush(0.0)
    assert _result(_frames(core.data_to_send())).code == ResultCode.BAD_VALUE


def test_the_drop_counters_reach_the_log_at_link_down_now_and_then_and_at_close(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 17, finding 3: "dropped and counted" must be visible.  One frame
    with a flipped CRC byte is one CRC error; the link-down line, the periodic
    summary (once the interval has passed and the figures moved) and the
    closing line all say so."""
    host = HostSession(expect_kind=DeviceKind.SHOE, name="shoe", summary_interval=60.0)
    shoe = _Scripted(host, boot_id=5, sync=SyncResult(1, 0))
    frame = bytearray(encode_frame(Header(0, MsgType.ACK, 0, 0, FLAG_FROM_DEVICE)))
    frame[-2] ^= 0x01  # a CRC byte: the frame is still sound COBS
    caplog.set_level(logging.INFO, logger="firmware_bridge.host")
    host.tick(shoe.now)
    host.receive_bytes(bytes(frame), shoe.now)
    assert host.counters.crc_errors == 1
    host.tick(shoe.now + 61.0)  # 61 s on: the summary is due, and the silent shoe is down
    messages = [r.message for r in caplog.records]
    assert "shoe: link figures: crc errors 1" in messages
    (down,) = [m for m in messages if "link down" in m]
    assert "crc errors 1" in down
    caplog.clear()
    host.close()
    assert any("closed" in r.message and "crc errors 1" in r.message for r in caplog.records)


# --- version 1.1 (section 12) ----------------------------------------------------------


def test_a_1_0_shoe_and_this_1_1_host_work_together() -> None:
    """Section 12: "a 1.1 device answers a 1.0 host and the other way round".
    A shoe that says 1.0 is accepted and its card-outs delivered."""
    from firmware_bridge.device import DeviceIdentity

    old = shoe_identity()
    identity = DeviceIdentity(old.kind, old.capabilities, unique_id=old.unique_id,
                              protocol=(PROTOCOL_MAJOR, 0))
    core = DeviceCore(identity, RecordingHardware(), boot_id=4)
    host = HostSession(expect_kind=DeviceKind.SHOE)
    host.connection_made(0.0)
    now = 0.0
    for _ in range(200):
        now += 0.002
        host.tick(now)
        core.receive_bytes(host.data_to_send(), now)
        host.receive_bytes(core.data_to_send(), now)
        if host.is_up:
            break
    assert host.is_up and host.info is not None and host.info.protocol == (PROTOCOL_MAJOR, 0)
    core.emit_card_out(now)
    host.receive_bytes(core.data_to_send(), now)
    (card,) = [e for e in host.events() if isinstance(e, CardOut)]
    assert (card.event_no, card.boot_id) == (1, 4)


def test_pack_loaded_clears_empty_and_needs_the_lid_switch() -> None:
    """Section 12: PACK_LOADED "clears status EMPTY"; capability bit 21
    PACK_SWITCH says the shoe records it."""
    from firmware_bridge.wire import DeviceStatus

    core = DeviceCore(shoe_identity(pack_switch=True), RecordingHardware(), boot_id=1)
    core.emit_shoe_empty(0.0)
    assert core.status & DeviceStatus.EMPTY
    assert core.emit_pack_loaded(0.5) == 2
    assert not core.status & DeviceStatus.EMPTY
    assert core.log[-1] == Event(2, 500, EventKind.PACK_LOADED, 0)
    plain = DeviceCore(shoe_identity(), RecordingHardware(), boot_id=1)
    with pytest.raises(ValueError, match="no pack switch"):
        plain.emit_pack_loaded(0.0)
