"""The device core's rules one by one, against docs/protocol.md sections 3-5 and 9.

A ``DeviceCore`` is driven directly with hand-made host frames (``encode_frame``
of a header and body laid out as section 3 says) at chosen times, and its
replies and hardware calls are read back.  Expected values are the document's:
the fail-safe state (gate locked, lamps exactly OFFLINE, text OFFLINE), the
2 s silence, sessions keyed by the HELLO nonce, SYNC_EVENTS' result and
replay, one RESULT per command with the documented codes, PONG's fields.
"""

from __future__ import annotations

import pytest
from cobs import cobs

from firmware_bridge.device import (
    BusEndpoint,
    DeviceCore,
    RecordingHardware,
    dealer_identity,
    seat_identity,
    shoe_identity,
)
from firmware_bridge.link import LinkConfig
from firmware_bridge.wire import (
    FLAG_FROM_DEVICE,
    FLAG_SEQ,
    PROTOCOL_MAJOR,
    Button,
    Capability,
    DeviceKind,
    DeviceStatus,
    Dispense,
    Event,
    EventKind,
    Frame,
    FrameDecoder,
    Header,
    Hello,
    HelloReply,
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
    encode_frame,
)

BOOT = 0x11223344


class Host:
    """The host's end, written by hand: numbers its commands, acks what it gets."""

    def __init__(self, address: int = 0) -> None:
        self.address = address
        self.seq = 0
        self.expected = 0

    def frame(self, mtype: int, body: bytes = b"", seq: int | None = None,
              version: int = PROTOCOL_MAJOR) -> bytes:
        flags = 0
        if seq is not None:
            flags = FLAG_SEQ
        return encode_frame(
            Header(self.address, mtype, self.seq if seq is None else seq, self.expected, flags,
                   version),
            body,
        )

    def command(self, mtype: int, body: bytes) -> bytes:
        data = self.frame(mtype, body, seq=self.seq)
        self.seq = (self.seq + 1) & 0xFF
        return data


def frames(data: bytes) -> list[Frame]:
    out = FrameDecoder().feed(data)
    assert all(isinstance(f, Frame) for f in out), out
    return [f for f in out if isinstance(f, Frame)]


def talk(dev: DeviceCore, host: Host, data: bytes, now: float) -> list[Frame]:
    """Give the device bytes; the frames it answers (the host acks what is in order)."""
    dev.receive_bytes(data, now)
    got = frames(dev.data_to_send())
    for f in got:
        assert f.header.from_device
        if f.header.sequenced and f.header.seq == host.expected:
            host.expected = (host.expected + 1) & 0xFF
    return got


def results(got: list[Frame]) -> list[Result]:
    return [Result.decode(f.body) for f in got if f.header.type == MsgType.RESULT]


def events(got: list[Frame]) -> list[Event]:
    return [Event.decode(f.body) for f in got if f.header.type == MsgType.EVENT]


def shoe(motor: bool = True, now: float = 0.0) -> tuple[DeviceCore, RecordingHardware]:
    hw = RecordingHardware()
    return DeviceCore(shoe_identity(motor=motor), hw, boot_id=BOOT, now=now), hw


def connected(dev: DeviceCore, now: float = 0.0, nonce: int = 77) -> Host:
    host = Host(dev.address)
    got = talk(dev, host, host.frame(MsgType.HELLO, Hello(1, 0, nonce).encode()), now)
    assert [f.header.type for f in got] == [MsgType.HELLO_REPLY]
    return host


# ----------------------------------------------------------------------------- fail-safe
def test_power_up_is_fail_safe_gate_locked_lamps_offline_text_offline() -> None:
    hw = RecordingHardware()
    DeviceCore(seat_identity(3), hw, address=3, boot_id=BOOT)
    assert ("lights", int(Light.OFFLINE)) in hw.calls
    assert ("text", "OFFLINE") in hw.calls
    shoe_hw = RecordingHardware()
    DeviceCore(shoe_identity(), shoe_hw, boot_id=BOOT)
    assert ("gate", True) in shoe_hw.calls
    assert not any(c[0] == "text" for c in shoe_hw.calls)  # a shoe has no text


def test_before_a_session_every_frame_but_hello_gets_no_session() -> None:
    dev, _ = shoe()
    host = Host()
    got = talk(dev, host, host.frame(MsgType.PING, Ping(5).encode()), 0.1)
    assert [f.header.type for f in got] == [MsgType.NO_SESSION]
    got = talk(dev, host, host.command(MsgType.SET_GATE, b"\x00"), 0.2)
    assert [f.header.type for f in got] == [MsgType.NO_SESSION]


def test_hello_starts_a_session_and_the_reply_says_who_the_device_is() -> None:
    hw = RecordingHardware()
    dev = DeviceCore(seat_identity(9), hw, address=9, boot_id=BOOT)
    dev.emit(EventKind.BUTTON, 0.0, 1)  # in fail-safe: recorded all the same by emit
    host = Host(9)
    got = talk(dev, host, host.frame(MsgType.HELLO, Hello(1, 0, 0xBEEF).encode()), 0.5)
    (frame,) = got
    assert frame.header.address == 9 and frame.header.version == PROTOCOL_MAJOR
    assert not frame.header.sequenced
    reply = HelloReply.decode(frame.body)
    assert reply.kind == DeviceKind.SEAT_PANEL and reply.seat == 9
    assert reply.boot_id == BOOT and reply.nonce == 0xBEEF and reply.last_event_no == 1
    assert reply.unique_id == b"SEAT0009"
    assert reply.capabilities & Capability.TEXT and reply.capabilities & Capability.LIGHTS
    assert reply.capabilities & 0x7F == 0x7F  # buttons 1-7 (section 7)
    # leaving fail-safe: lamps off, text empty (section 9)
    assert hw.calls[-2:] == [("lights", 0), ("text", "")]
    assert not dev.fail_safe


def test_a_repeated_hello_changes_nothing_and_a_new_nonce_starts_over() -> None:
    dev, _ = shoe()
    host = connected(dev, nonce=5)
    talk(dev, host, host.command(MsgType.SET_GATE, b"\x00"), 0.1)
    assert dev.link.expected == 1
    talk(dev, host, host.frame(MsgType.HELLO, Hello(1, 0, 5).encode()), 0.2)
    assert dev.link.expected == 1 and dev.session == 5
    talk(dev, host, host.frame(MsgType.HELLO, Hello(1, 0, 6).encode()), 0.3)
    assert dev.link.expected == 0 and dev.session == 6 and not dev.streaming


def test_a_hello_of_another_major_version_is_answered_but_starts_no_session() -> None:
    dev, _ = shoe()
    host = Host()
    (frame,) = talk(dev, host, host.frame(MsgType.HELLO, Hello(2, 0, 9).encode(), version=2),
                    0.1)
    assert HelloReply.decode(frame.body).major == PROTOCOL_MAJOR
    assert dev.session == 0 and dev.fail_safe


def test_a_device_of_another_major_version_says_so_in_its_header() -> None:
    from dataclasses import replace

    ident = replace(shoe_identity(), protocol=(2, 1))
    dev = DeviceCore(ident, RecordingHardware(), boot_id=BOOT)
    host = Host()
    (frame,) = talk(dev, host, host.frame(MsgType.HELLO, Hello(1, 0, 9).encode()), 0.1)
    assert frame.header.version == 2
    reply = HelloReply.decode(frame.body)
    assert (reply.major, reply.minor) == (2, 1)
    assert dev.session == 0


def test_a_short_hello_is_counted_and_unanswered() -> None:
    dev, _ = shoe()
    host = Host()
    assert talk(dev, host, host.frame(MsgType.HELLO, b"\x01"), 0.1) == []
    assert dev.counters.bad_bodies == 1


def test_two_seconds_of_silence_mean_fail_safe_and_no_session() -> None:
    dev, hw = shoe()
    host = connected(dev, now=1.0)
    talk(dev, host, host.command(MsgType.SET_GATE, b"\x00"), 1.0)
    assert dev.next_deadline() is not None
    dev.tick(3.0)
    assert not dev.fail_safe
    dev.tick(3.0001)
    dev.data_to_send()  # the unacknowledged RESULT, sent again on the way
    assert dev.fail_safe and dev.session == 0
    assert hw.calls[-2:] == [("gate", True), ("lights", int(Light.OFFLINE))]
    assert dev.next_deadline() is None  # nothing to wait for but a HELLO
    got = talk(dev, host, host.frame(MsgType.PING, Ping(1).encode()), 3.1)
    assert [f.header.type for f in got] == [MsgType.NO_SESSION]


def test_button_presses_are_ignored_in_fail_safe_but_physical_facts_are_kept() -> None:
    dev = DeviceCore(seat_identity(2), RecordingHardware(), address=2, boot_id=BOOT)
    assert dev.emit_button(Button.TWIST, 0.1) is None
    assert dev.last_event_no == 0
    shoe_dev, _ = shoe()
    assert shoe_dev.emit_card_out(0.1) == 1
    assert shoe_dev.emit_gate_forced(0.2) == 2
    assert shoe_dev.emit_gate_jammed(0.3) == 3
    assert shoe_dev.emit_shoe_empty(0.4) == 4
    kinds = [e.kind for e in shoe_dev.log]
    assert kinds == [EventKind.CARD_OUT, EventKind.GATE_FORCED, EventKind.GATE_JAMMED,
                     EventKind.SHOE_EMPTY]


def test_a_button_the_panel_lacks_is_refused() -> None:
    dev = DeviceCore(seat_identity(2), RecordingHardware(), address=2, boot_id=BOOT)
    connected(dev)
    with pytest.raises(ValueError, match="no DRAW button"):
        dev.emit_button(Button.DRAW, 0.1)
    assert dev.emit_button(Button.STICK, 0.1) == 1
    assert dev.log[-1].arg == Button.STICK


# ----------------------------------------------------------------------------- events
def test_sync_events_answers_oldest_and_last_then_replays_after_the_cursor() -> None:
    dev, _ = shoe()
    for t in (0.1, 0.2, 0.3):
        dev.emit_card_out(t)
    host = connected(dev, now=0.5)
    got = talk(dev, host, host.command(MsgType.SYNC_EVENTS, SyncEvents(BOOT, 1).encode()), 0.6)
    (res,) = results(got)
    assert (res.ref_seq, res.command, res.code) == (0, MsgType.SYNC_EVENTS, ResultCode.OK)
    assert SyncResult.decode(res.data) == SyncResult(1, 3)
    assert got[0].header.type == MsgType.RESULT  # the RESULT first, then the events
    assert [e.event_no for e in events(got)] == [2, 3]
    assert [e.device_ms for e in events(got)] == [200, 300]
    # a new event now goes out at once
    dev.emit_card_out(0.7)
    assert [e.event_no for e in events(frames(dev.data_to_send()))] == [4]


def test_sync_events_of_another_boot_replays_everything_held() -> None:
    dev, _ = shoe()
    dev.emit_card_out(0.1)
    dev.emit_card_out(0.2)
    host = connected(dev)
    got = talk(dev, host, host.command(MsgType.SYNC_EVENTS, SyncEvents(BOOT + 1, 1).encode()),
               0.3)
    assert [e.event_no for e in events(got)] == [1, 2]


def test_with_no_event_the_oldest_is_last_plus_one() -> None:
    dev, _ = shoe()
    host = connected(dev)
    got = talk(dev, host, host.command(MsgType.SYNC_EVENTS, SyncEvents(BOOT, 0).encode()), 0.1)
    assert SyncResult.decode(results(got)[0].data) == SyncResult(1, 0)


def test_the_log_keeps_the_last_64_events_and_counts_what_it_dropped() -> None:
    dev, _ = shoe()
    for i in range(70):
        dev.emit_card_out(i / 100)
    assert [e.event_no for e in dev.log][:1] == [7] and len(dev.log) == 64
    assert dev.events_dropped == 6
    host = connected(dev)
    got = talk(dev, host, host.command(MsgType.SYNC_EVENTS, SyncEvents(BOOT, 0).encode()), 1.0)
    assert SyncResult.decode(results(got)[0].data) == SyncResult(7, 70)


def test_device_ms_is_milliseconds_since_power_up_wrapping_at_2_32() -> None:
    dev, _ = shoe(now=10.0)
    assert dev.device_ms(10.0) == 0
    assert dev.device_ms(10.0016) == 2  # rounded to the nearest millisecond
    assert dev.device_ms(10.0 + 2**32 / 1000 + 0.005) == 5


# ----------------------------------------------------------------------------- commands
@pytest.mark.parametrize(
    ("mtype", "body", "call", "code"),
    [
        (MsgType.SET_GATE, SetGate(False).encode(), ("gate", False), ResultCode.OK),
        (MsgType.SET_LIGHTS, SetLights(0x01000004).encode(), ("lights", 0x01000004),
         ResultCode.OK),
        (MsgType.DISPENSE, Dispense(1).encode(), ("dispense", None), ResultCode.OK),
        (MsgType.SET_TEXT, SetText("hi").encode(), None, ResultCode.NOT_SUPPORTED),
        (MsgType.SET_GATE, b"\x02", None, ResultCode.BAD_VALUE),
        (MsgType.SET_GATE, b"", None, ResultCode.BAD_LENGTH),
        (MsgType.DISPENSE, b"\x01", None, ResultCode.BAD_LENGTH),
        (0x1E, b"", None, ResultCode.UNKNOWN_TYPE),
    ],
)
def test_each_command_gets_one_result_with_the_documented_code(
    mtype: int, body: bytes, call: tuple[str, object] | None, code: ResultCode
) -> None:
    dev, hw = shoe(motor=True)
    host = connected(dev)
    talk(dev, host, host.command(MsgType.SET_LIGHTS, SetLights(0).encode()), 0.05)
    before = len(hw.calls)
    got = talk(dev, host, host.command(mtype, body), 0.1)
    (res,) = results(got)
    assert (res.ref_seq, res.command, res.code, res.data) == (1, mtype, code, b"")
    assert hw.calls[before:] == ([call] if call else [])


def test_a_gate_command_sets_what_pong_reports() -> None:
    dev, _ = shoe()
    host = connected(dev)
    talk(dev, host, host.command(MsgType.SET_GATE, SetGate(False).encode()), 0.1)
    (pong,) = talk(dev, host, host.frame(MsgType.PING, Ping(0x1234).encode()), 0.25)
    assert pong.header.type == MsgType.PONG
    p = Pong.decode(pong.body)
    assert p.token == 0x1234 and p.uptime_ms == 250 and p.status == 0
    talk(dev, host, host.command(MsgType.SET_GATE, SetGate(True).encode()), 0.3)
    dev.emit_gate_jammed(0.35)
    dev.emit_shoe_empty(0.36)
    (pong,) = [f for f in talk(dev, host, host.frame(MsgType.PING, Ping(1).encode()), 0.4)
               if f.header.type == MsgType.PONG]
    p = Pong.decode(pong.body)
    assert p.last_event_no == 2
    assert p.status == DeviceStatus.GATE_LOCKED | DeviceStatus.JAMMED | DeviceStatus.EMPTY


class JammedGate(RecordingHardware):
    def set_gate(self, locked: bool) -> ResultCode:
        super().set_gate(locked)
        return ResultCode.JAMMED


def test_a_refused_gate_command_is_reported_and_the_gate_still_counts_as_locked() -> None:
    dev = DeviceCore(shoe_identity(), JammedGate(), boot_id=BOOT)
    host = connected(dev)
    got = talk(dev, host, host.command(MsgType.SET_GATE, SetGate(False).encode()), 0.1)
    assert results(got)[0].code == ResultCode.JAMMED
    (pong,) = talk(dev, host, host.frame(MsgType.PING, Ping(1).encode()), 0.2)
    assert Pong.decode(pong.body).status & DeviceStatus.GATE_LOCKED


def test_a_repeated_dispense_number_is_already_done_and_not_dispensed_again() -> None:
    dev, hw = shoe(motor=True)
    host = connected(dev)
    got = talk(dev, host, host.command(MsgType.DISPENSE, Dispense(7).encode()), 0.1)
    got += talk(dev, host, host.command(MsgType.DISPENSE, Dispense(7).encode()), 0.2)
    got += talk(dev, host, host.command(MsgType.DISPENSE, Dispense(8).encode()), 0.3)
    assert [r.code for r in results(got)] == [ResultCode.OK, ResultCode.ALREADY_DONE,
                                               ResultCode.OK]
    assert hw.dispensed == 2


def test_a_failed_dispense_is_not_remembered_so_it_can_be_tried_again() -> None:
    dev, hw = shoe(motor=True)
    hw.dispense_result = ResultCode.EMPTY
    host = connected(dev)
    got = talk(dev, host, host.command(MsgType.DISPENSE, Dispense(3).encode()), 0.1)
    hw.dispense_result = ResultCode.OK
    got += talk(dev, host, host.command(MsgType.DISPENSE, Dispense(3).encode()), 0.2)
    assert [r.code for r in results(got)] == [ResultCode.EMPTY, ResultCode.OK]


def test_features_the_device_lacks_are_not_supported() -> None:
    dev, _ = shoe(motor=False)
    host = connected(dev)
    got = talk(dev, host, host.command(MsgType.DISPENSE, Dispense(1).encode()), 0.1)
    assert results(got)[0].code == ResultCode.NOT_SUPPORTED
    panel = DeviceCore(seat_identity(1), RecordingHardware(), address=1, boot_id=BOOT)
    host = connected(panel)
    got = talk(panel, host, host.command(MsgType.SET_GATE, SetGate(True).encode()), 0.1)
    assert results(got)[0].code == ResultCode.NOT_SUPPORTED
    got = talk(panel, host, host.command(MsgType.SET_TEXT, SetText("Ann").encode()), 0.2)
    assert results(got)[0].code == ResultCode.OK
    lightless = DeviceCore(
        shoe_identity().__class__(DeviceKind.SHOE, int(Capability.GATE)), RecordingHardware(),
        boot_id=BOOT,
    )
    host = connected(lightless)
    got = talk(lightless, host, host.command(MsgType.SET_LIGHTS, SetLights(1).encode()), 0.1)
    assert results(got)[0].code == ResultCode.NOT_SUPPORTED


# ----------------------------------------------------------------------------- frames
def test_frames_from_a_device_or_for_another_address_are_ignored() -> None:
    dev = DeviceCore(seat_identity(4), RecordingHardware(), address=4, boot_id=BOOT)
    echo = encode_frame(Header(4, MsgType.HELLO, 0, 0, FLAG_FROM_DEVICE), Hello().encode())
    other = encode_frame(Header(5, MsgType.HELLO, 0, 0, 0), Hello().encode())
    dev.receive_bytes(echo + other, 0.1)
    assert dev.data_to_send() == b"" and dev.session == 0
    assert dev.last_heard == 0.0


def test_another_header_version_is_dropped_and_counted() -> None:
    dev, _ = shoe()
    host = connected(dev)
    got = talk(dev, host, host.frame(MsgType.PING, Ping(1).encode(), version=2), 0.1)
    assert got == [] and dev.counters.version_errors == 1


def test_damaged_bytes_are_counted_as_crc_errors_or_bad_frames() -> None:
    dev, _ = shoe()
    payload = bytes([1, 0, 0, 0, 0, MsgType.PING]) + Ping(1).encode()
    bad_crc = cobs.encode(payload + b"\x00\x00") + b"\x00"  # CRC 0x0000 is wrong here
    dev.receive_bytes(bad_crc + b"\x01\x00", 0.1)
    assert dev.counters.crc_errors == 1 and dev.counters.bad_frames == 1
    assert dev.counters.bytes_received == len(bad_crc) + 2


def test_an_unknown_unsequenced_type_is_counted_and_a_bad_ping_still_pongs() -> None:
    dev, _ = shoe()
    host = connected(dev)
    talk(dev, host, host.frame(0x0E), 0.1)
    assert dev.counters.unknown_types == 1
    (pong,) = talk(dev, host, host.frame(MsgType.PING, b"\x01"), 0.2)
    assert Pong.decode(pong.body).token == 0
    assert dev.counters.bad_bodies == 1


# ----------------------------------------------------------------------------- the bus
def test_a_bus_answers_each_poll_with_exactly_one_frame_from_that_panel() -> None:
    seat = DeviceCore(seat_identity(1), RecordingHardware(), address=1, polled=True, boot_id=1)
    dealer = DeviceCore(dealer_identity(), RecordingHardware(), address=0x0F, polled=True,
                        boot_id=2)
    bus = BusEndpoint([seat, dealer])
    h1, h15 = Host(1), Host(0x0F)
    bus.receive_bytes(h1.frame(MsgType.HELLO, Hello(1, 0, 3).encode()), 0.0)
    (reply,) = frames(bus.data_to_send())
    assert reply.header.address == 1 and reply.header.type == MsgType.HELLO_REPLY
    bus.receive_bytes(h15.frame(MsgType.PING, Ping(1).encode()), 0.1)
    (reply,) = frames(bus.data_to_send())
    assert reply.header.address == 0x0F and reply.header.type == MsgType.NO_SESSION
    bus.receive_bytes(h1.frame(MsgType.PING, Ping(9).encode()), 0.2)
    (reply,) = frames(bus.data_to_send())
    assert reply.header.type == MsgType.PONG and Pong.decode(reply.body).token == 9
    bus.receive_bytes(b"\x03\xff\xff\xff\x00", 0.3)  # bad COBS: damage, not a CRC mismatch
    assert (bus.bad_frames, bus.crc_errors) == (1, 0) and bus.data_to_send() == b""
    assert bus.next_deadline() == 2.2  # the seat's silence deadline (the dealer's: none)
    bus.tick(2.3)
    assert seat.fail_safe


def test_a_polled_panel_answers_a_sequenced_command_with_its_result_in_the_same_turn() -> None:
    seat = DeviceCore(seat_identity(1), RecordingHardware(), address=1, polled=True, boot_id=1)
    host = Host(1)
    seat.receive_frame(frames(host.frame(MsgType.HELLO, Hello(1, 0, 3).encode()))[0], 0.0)
    frame = frames(host.command(MsgType.SET_TEXT, SetText("Bob").encode()))[0]
    (reply,) = frames(seat.receive_frame(frame, 0.1))
    assert reply.header.type == MsgType.RESULT and reply.header.ack == 1
    assert Result.decode(reply.body).code == ResultCode.OK
    # a version it does not speak: NO_SESSION on the bus (one reply per poll)
    old = frames(host.frame(MsgType.PING, Ping(1).encode(), version=3))[0]
    (reply,) = frames(seat.receive_frame(old, 0.2))
    assert reply.header.type == MsgType.NO_SESSION


def test_a_bus_takes_only_polled_panels() -> None:
    with pytest.raises(ValueError, match="must be polled"):
        BusEndpoint([DeviceCore(seat_identity(1), RecordingHardware(), address=1)])


# ----------------------------------------------------------------------------- details
def test_identities_say_what_section_7_gives_each_kind() -> None:
    plain, motor = shoe_identity(), shoe_identity(motor=True)
    assert plain.kind == DeviceKind.SHOE and plain.unique_id == b"SHOE0001"
    assert plain.capabilities == Capability.GATE | Capability.EXIT_SENSOR | Capability.LIGHTS
    assert motor.capabilities == plain.capabilities | Capability.MOTOR
    dealer = dealer_identity()
    assert dealer.kind == DeviceKind.DEALER_PANEL and dealer.unique_id == b"DEALER01"
    buttons = {b for b in Button if dealer.capabilities & (1 << (b - 1))}
    assert buttons == {Button.CONFIRM, Button.DRAW, Button.STAY, Button.NEXT, Button.PAUSE}


def test_boot_ids_are_random_and_never_0() -> None:
    ids = {DeviceCore(shoe_identity(), RecordingHardware()).boot_id for _ in range(5)}
    assert len(ids) == 5 and 0 not in ids


def test_events_carry_arg_0_unless_a_button_and_the_sensor_time_when_given() -> None:
    dev, _ = shoe()
    dev.emit_card_out(0.5, device_ms=480)  # the sensor saw the trailing edge at 480 ms
    dev.emit_gate_forced(0.6)
    assert [(e.device_ms, e.arg) for e in dev.log] == [(480, 0), (600, 0)]


def test_status_bits_add_up_whatever_the_order() -> None:
    dev, _ = shoe()
    host = connected(dev)
    dev.emit_shoe_empty(0.1)
    dev.emit_gate_jammed(0.2)
    pongs = of_type(talk(dev, host, host.frame(MsgType.PING, Ping(1).encode()), 0.3),
                    MsgType.PONG)
    status = Pong.decode(pongs[0].body).status
    assert status & DeviceStatus.EMPTY and status & DeviceStatus.JAMMED


def of_type(got: list[Frame], mtype: int) -> list[Frame]:
    return [f for f in got if f.header.type == mtype]


def test_losing_the_host_is_logged_as_a_warning_with_the_reason(
    caplog: pytest.LogCaptureFixture,
) -> None:
    dev, _ = shoe()
    connected(dev, now=0.0)
    with caplog.at_level("INFO", logger="firmware_bridge.device"):
        dev.tick(2.5)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("fail-safe (nothing heard for 2 s)" in m for m in warnings), warnings
    assert any("session dropped: nothing heard for 2 s" in m for m in warnings), warnings


def test_power_up_fail_safe_is_no_news(caplog: pytest.LogCaptureFixture) -> None:
    """Every power-up starts fail-safe by design: logged, but not as a warning."""
    with caplog.at_level("INFO", logger="firmware_bridge.device"):
        shoe()
    assert [r.levelname for r in caplog.records] == ["INFO"]
    assert "fail-safe (power-up)" in caplog.records[0].getMessage()


def test_a_link_that_stops_answering_drops_the_session_with_the_reason(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # six timeouts take 2.55 s: longer than the 2 s silence, so that is stretched here
    dev = DeviceCore(shoe_identity(), RecordingHardware(), boot_id=BOOT,
                     config=LinkConfig(device_silence=10.0))
    host = connected(dev, now=0.0)
    talk(dev, host, host.command(MsgType.SYNC_EVENTS, SyncEvents(BOOT, 0).encode()), 0.0)
    with caplog.at_level("WARNING", logger="firmware_bridge.device"):
        now = 0.0
        while dev.session and now < 9.0:
            deadline = dev.next_deadline()
            assert deadline is not None
            now = deadline
            dev.tick(now)
    assert dev.session == 0 and not dev.fail_safe  # the host may still say HELLO
    assert any("session dropped: no answer to 6 retransmissions" in r.getMessage()
               for r in caplog.records)


def test_the_retransmission_timer_is_part_of_the_devices_deadline() -> None:
    dev, _ = shoe()
    host = connected(dev, now=1.0)
    # the RESULT goes at 1.0 and is never acknowledged: resent 50 ms later,
    # long before the 2 s silence
    talk(dev, host, host.command(MsgType.SYNC_EVENTS, SyncEvents(BOOT, 0).encode()), 1.0)
    assert dev.next_deadline() == pytest.approx(1.05)


def test_counters_add_up_over_many_calls() -> None:
    dev, _ = shoe()
    payload = bytes([1, 0, 0, 0, 0, MsgType.PING]) + Ping(1).encode()
    bad_crc = cobs.encode(payload + b"\x00\x00") + b"\x00"
    dev.receive_bytes(bad_crc, 0.1)
    dev.receive_bytes(bad_crc + b"\x01\x00", 0.1)
    dev.receive_bytes(bad_crc + b"\x01\x00", 0.1)
    assert dev.counters.crc_errors == 3 and dev.counters.bad_frames == 2
    assert dev.counters.bytes_received == 3 * len(bad_crc) + 4
    host = connected(dev)
    for t in (0.2, 0.3):
        talk(dev, host, host.frame(MsgType.PING, Ping(1).encode(), version=2), t)
        talk(dev, host, host.frame(0x0E), t)
        talk(dev, host, host.frame(MsgType.PING, b"\x01"), t)
        talk(dev, host, host.frame(MsgType.HELLO, b"\x01"), t)
    assert dev.counters.version_errors == 2 and dev.counters.unknown_types == 2
    assert dev.counters.bad_bodies == 4


def test_a_frame_it_drops_gets_no_bytes_at_all_in_stream_mode() -> None:
    dev, _ = shoe()
    host = connected(dev)
    dev.receive_bytes(host.frame(MsgType.PING, Ping(1).encode(), version=2), 0.1)
    assert dev.data_to_send() == b""
    dev.receive_bytes(host.frame(MsgType.HELLO, b"\x01"), 0.2)
    assert dev.data_to_send() == b""


def test_results_other_than_sync_carry_no_data() -> None:
    """Section 3: the RESULT of SYNC_EVENTS carries 8 bytes; other results none."""
    dev, _ = shoe(motor=True)
    host = connected(dev)
    cmds = [(MsgType.DISPENSE, Dispense(1).encode()), (MsgType.DISPENSE, Dispense(1).encode()),
            (MsgType.SET_TEXT, SetText("x").encode()), (0x1F, b"")]
    got: list[Frame] = []
    for mtype, body in cmds:
        got += talk(dev, host, host.command(mtype, body), 0.1)
    assert [r.code for r in results(got)] == [ResultCode.OK, ResultCode.ALREADY_DONE,
                                              ResultCode.NOT_SUPPORTED, ResultCode.UNKNOWN_TYPE]
    assert all(r.data == b"" for r in results(got))
    panel_hw = RecordingHardware()
    panel = DeviceCore(seat_identity(1), panel_hw, address=1, boot_id=BOOT)
    host = connected(panel)
    got = talk(panel, host, host.command(MsgType.SET_TEXT, SetText("Ann 18").encode()), 0.1)
    got += talk(panel, host, host.command(MsgType.SET_GATE, SetGate(True).encode()), 0.1)
    got += talk(panel, host, host.command(MsgType.DISPENSE, Dispense(1).encode()), 0.1)
    assert [r.code for r in results(got)] == [ResultCode.OK, ResultCode.NOT_SUPPORTED,
                                              ResultCode.NOT_SUPPORTED]
    assert all(r.data == b"" for r in results(got))
    assert panel_hw.text == "Ann 18"


def test_a_device_without_lamps_or_text_is_not_told_to_clear_them() -> None:
    from firmware_bridge.device import DeviceIdentity

    hw = RecordingHardware()
    dev = DeviceCore(DeviceIdentity(DeviceKind.SHOE, int(Capability.GATE)), hw, boot_id=BOOT)
    host = connected(dev)
    assert all(c[0] == "gate" for c in hw.calls)
    got = talk(dev, host, host.command(MsgType.SET_LIGHTS, SetLights(1).encode()), 0.1)
    assert [(r.code, r.data) for r in results(got)] == [(ResultCode.NOT_SUPPORTED, b"")]


def test_a_panel_has_no_gate_to_lock() -> None:
    hw = RecordingHardware()
    DeviceCore(seat_identity(2), hw, address=2, boot_id=BOOT)
    assert not any(c[0] == "gate" for c in hw.calls)


def test_a_polled_panel_never_sends_on_its_own() -> None:
    seat = DeviceCore(seat_identity(1), RecordingHardware(), address=1, polled=True, boot_id=1)
    host = Host(1)
    seat.receive_frame(frames(host.frame(MsgType.HELLO, Hello(1, 0, 3).encode()))[0], 0.0)
    seat.receive_frame(frames(host.command(MsgType.SYNC_EVENTS,
                                           SyncEvents(1, 0).encode()))[0], 0.1)
    assert seat.next_deadline() == pytest.approx(2.1)  # the RESULT has no timer on a bus
    host.expected = 1  # the RESULT came in that turn; the next poll acknowledges it
    seat.receive_frame(frames(host.frame(MsgType.PING, Ping(1).encode()))[0], 0.15)
    assert seat.link.idle
    seat.emit_button(Button.TWIST, 0.2)
    assert seat.next_deadline() == pytest.approx(2.15)  # only the silence: no timer on a bus
    seat.tick(0.3)
    assert seat.data_to_send() == b""


def test_a_polled_panel_answers_a_plain_ack_with_an_empty_ack() -> None:
    seat = DeviceCore(seat_identity(1), RecordingHardware(), address=1, polled=True, boot_id=1)
    host = Host(1)
    seat.receive_frame(frames(host.frame(MsgType.HELLO, Hello(1, 0, 3).encode()))[0], 0.0)
    (reply,) = frames(seat.receive_frame(frames(host.frame(MsgType.ACK))[0], 0.1))
    assert reply.header.type == MsgType.ACK and reply.body == b""


def test_a_polled_panel_takes_the_hosts_ack_for_its_result() -> None:
    seat = DeviceCore(seat_identity(1), RecordingHardware(), address=1, polled=True, boot_id=1)
    host = Host(1)
    seat.receive_frame(frames(host.frame(MsgType.HELLO, Hello(1, 0, 3).encode()))[0], 0.0)
    (res,) = frames(seat.receive_frame(
        frames(host.command(MsgType.SET_TEXT, SetText("a").encode()))[0], 0.1))
    assert res.header.type == MsgType.RESULT
    host.expected = 1  # the host took the RESULT
    (idle,) = frames(seat.receive_frame(frames(host.frame(MsgType.PING, Ping(4).encode()))[0],
                                        0.2))
    assert idle.header.type == MsgType.PONG
    assert seat.link.idle  # the RESULT is acknowledged, nothing is sent again
    assert seat.counters.rtt_last == pytest.approx(0.1)


def test_a_polled_panel_whose_frame_went_32_times_unanswered_drops_the_session(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seat = DeviceCore(seat_identity(1), RecordingHardware(), address=1, polled=True, boot_id=1)
    host = Host(1)
    seat.receive_frame(frames(host.frame(MsgType.HELLO, Hello(1, 0, 3).encode()))[0], 0.0)
    command = frames(host.command(MsgType.SET_TEXT, SetText("a").encode()))[0]
    seat.receive_frame(command, 0.01)
    poll = frames(host.frame(MsgType.PING, Ping(1).encode()))[0]  # never acks the RESULT
    # sent with the command's turn, then again in 32 polls: the 33rd send finds
    # it 32 times unanswered, and the next poll learns the session is gone
    for i in range(32):
        (reply,) = frames(seat.receive_frame(poll, 0.02 + i / 1000))
        assert reply.header.type == MsgType.RESULT, i
    with caplog.at_level("WARNING", logger="firmware_bridge.device"):
        (reply,) = frames(seat.receive_frame(poll, 0.1))
    assert reply.header.type == MsgType.NO_SESSION
    assert seat.session == 0
    assert any("session dropped: a frame was sent 32 times" in r.getMessage()
               for r in caplog.records)


def test_the_bus_goes_on_after_damage_and_has_no_deadline_while_all_are_fail_safe() -> None:
    seat = DeviceCore(seat_identity(1), RecordingHardware(), address=1, polled=True, boot_id=1)
    bus = BusEndpoint([seat])
    assert bus.next_deadline() is None
    hello_frame = Host(1).frame(MsgType.HELLO, Hello(1, 0, 3).encode())
    bus.receive_bytes(b"\x03\xff\xff\xff\x00\x05\x01\x00" + hello_frame, 0.0)
    assert (bus.bad_frames, bus.crc_errors) == (2, 0)  # two runs of bad COBS
    (reply,) = frames(bus.data_to_send())
    assert reply.header.type == MsgType.HELLO_REPLY


# ----------------------------------------------------------------------------- found by mutation
# (docs/mutation/device.md) expected values from docs/protocol.md: section 3 (PONG
# status bits, PACK_LOADED of protocol 1.1, NO_SESSION), section 4 (a new session
# locks the gate, on a device that has one), and the counters a technician reads.

def test_a_pack_loaded_clears_empty_and_no_other_status_bit() -> None:
    """§3: PACK_LOADED means the shoe is no longer empty; it says nothing of a
    jam, so the PONG after it carries GATE_LOCKED (the gate starts locked) only."""
    dev = DeviceCore(shoe_identity(pack_switch=True), RecordingHardware(), boot_id=BOOT)
    dev.status |= DeviceStatus.EMPTY
    host = connected(dev)
    dev.emit_pack_loaded(0.1)
    dev.data_to_send()
    got = talk(dev, host, host.frame(MsgType.PING, Ping(9).encode()), 0.2)
    (pong,) = [Pong.decode(f.body) for f in got if f.header.type == MsgType.PONG]
    assert DeviceStatus(pong.status) == DeviceStatus.GATE_LOCKED


def test_a_shoe_without_the_lid_switch_refuses_to_report_a_pack() -> None:
    dev = DeviceCore(shoe_identity(pack_switch=False), RecordingHardware(), boot_id=BOOT)
    with pytest.raises(ValueError) as err:
        dev.emit_pack_loaded(0.1)
    assert str(err.value) == "this shoe has no pack switch"


def test_frames_sent_outside_a_session_are_counted_with_their_bytes() -> None:
    """NO_SESSION answers belong to no session but still go on the wire: the
    counters count each frame and every byte of it."""
    dev = DeviceCore(shoe_identity(), RecordingHardware(), boot_id=BOOT)
    host = Host()
    sent = 0
    for n in range(3):
        dev.receive_bytes(host.frame(MsgType.PING, Ping(n).encode()), 0.1 * n)
        data = dev.data_to_send()
        sent += len(data)
    assert dev.counters.frames_sent == 3
    assert dev.counters.bytes_sent == sent > 0


def test_a_panel_never_drives_a_gate_it_does_not_have() -> None:
    """§4: a new session locks the gate only on a device with a gate."""
    hw = RecordingHardware()
    dev = DeviceCore(seat_identity(2), hw, address=2, boot_id=BOOT)
    connected(dev)
    assert not any(call[0] == "gate" for call in hw.calls)


def test_a_bus_counts_every_crc_error() -> None:
    panel = DeviceCore(seat_identity(1), RecordingHardware(), address=1, boot_id=BOOT, polled=True)
    bus = BusEndpoint([panel])
    frame = encode_frame(Header(1, MsgType.PING, 0, 0, 0), Ping(1).encode())
    raw = bytearray(cobs.decode(frame[:-1]))
    raw[-1] ^= 0x40  # one flipped bit in the CRC: well framed, but it no longer matches
    damaged = cobs.encode(bytes(raw)) + b"\0"
    bus.receive_bytes(damaged, 0.0)
    bus.receive_bytes(damaged, 0.1)
    assert bus.crc_errors == 2
    assert bus.bad_frames == 0


def test_no_session_is_an_empty_frame_with_seq_and_ack_0() -> None:
    """§2 and the message table: NO_SESSION is "empty", and like HELLO_REPLY it
    belongs to no session (seq 0, ack 0), even to a host that numbers its frames."""
    dev, _ = shoe()
    host = Host()
    host.seq, host.expected = 5, 9
    (answer,) = talk(dev, host, host.command(MsgType.SET_GATE, SetGate(False).encode()), 0.1)
    assert answer.header.type == MsgType.NO_SESSION
    assert answer.body == b""
    assert (answer.header.seq, answer.header.ack, answer.header.sequenced) == (0, 0, False)
