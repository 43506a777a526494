"""Host and device cores over an in-memory line with simulated time and faults.

Property: whatever the loss, corruption, duplication, reordering and chunking
of frames, every device event reaches the host exactly once, in order, and
every command is carried out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.device import (
    DeviceCore,
    DeviceIdentity,
    RecordingHardware,
    seat_identity,
    shoe_identity,
)
from firmware_bridge.host import (
    ButtonPressed,
    CardOut,
    CommandDone,
    CommandFailed,
    EventCursor,
    EventsLost,
    HostEvent,
    HostSession,
    LinkDown,
    LinkUp,
    State,
)
from firmware_bridge.link import Link, LinkConfig
from firmware_bridge.wire import (
    FLAG_FROM_DEVICE,
    FLAG_SEQ,
    PROTOCOL_MAJOR,
    Button,
    DeviceKind,
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
    Result,
    ResultCode,
    SetGate,
    SetLights,
    SetText,
    SyncResult,
    encode_frame,
)


@dataclass
class Faults:
    loss: float = 0.0
    corrupt: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0


@dataclass
class Line:
    """One direction: frames are damaged, delayed and chunked on the way."""

    faults: Faults
    rng: random.Random
    in_flight: list[tuple[float, int, bytes]] = field(default_factory=list)
    _n: int = 0

    def send(self, data: bytes, now: float) -> None:
        for part in data.split(b"\x00")[:-1]:
            frame = bytearray(part + b"\x00")
            f = self.faults
            if self.rng.random() < f.loss:
                continue
            if self.rng.random() < f.corrupt:
                i = self.rng.randrange(len(frame))
                frame[i] ^= self.rng.randrange(1, 256)
            copies = 2 if self.rng.random() < f.duplicate else 1
            for _ in range(copies):
                delay = 0.001 + (self.rng.random() * 0.08 if self.rng.random() < f.reorder else 0)
                # arbitrary chunking: the frame arrives in random pieces
                inner = self.rng.sample(range(1, len(frame)), min(2, len(frame) - 1))
                cuts = [*sorted(inner), len(frame)]
                last = 0
                for cut in cuts:
                    self._n += 1
                    self.in_flight.append((now + delay, self._n, bytes(frame[last:cut])))
                    last = cut

    def due(self, now: float) -> bytes:
        ready = sorted(x for x in self.in_flight if x[0] <= now)
        self.in_flight = [x for x in self.in_flight if x[0] > now]
        return b"".join(x[2] for x in ready)


class Net:
    def __init__(
        self,
        device: DeviceCore,
        host: HostSession | None = None,
        faults: Faults | None = None,
        seed: int = 0,
    ) -> None:
        self.rng = random.Random(seed)
        self.device = device
        self.host = host or HostSession(expect_kind=DeviceKind(device.identity.kind))
        f = faults or Faults()
        self.to_device = Line(f, self.rng)
        self.to_host = Line(f, self.rng)
        self.now = 0.0
        self.events: list[HostEvent] = []
        self.connected = True
        self.host.connection_made(self.now)

    def step(self, dt: float = 0.002) -> None:
        self.now += dt
        now = self.now
        if self.connected:
            data = self.to_device.due(now)
            if data:
                self.device.receive_bytes(data, now)
            data = self.to_host.due(now)
            if data:
                self.host.receive_bytes(data, now)
        self.host.tick(now)
        self.device.tick(now)
        out_h, out_d = self.host.data_to_send(), self.device.data_to_send()
        if self.connected:
            self.to_device.send(out_h, now)
            self.to_host.send(out_d, now)
        self.events += self.host.events()

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.step()

    def run_until(self, predicate: object, limit: float = 30.0) -> None:
        end = self.now + limit
        while not predicate():  # type: ignore[operator]
            assert self.now < end, f"condition not met in {limit} s; events: {self.events[-5:]}"
            self.step()

    def of(self, kind: type) -> list:  # type: ignore[type-arg]
        return [e for e in self.events if isinstance(e, kind)]


def new_shoe(now: float = 0.0, boot_id: int = 1, motor: bool = True) -> DeviceCore:
    return DeviceCore(shoe_identity(motor=motor), RecordingHardware(), now=now, boot_id=boot_id)


def test_identify_then_card_events_and_a_command() -> None:
    net = Net(new_shoe())
    net.run_until(lambda: net.host.is_up)
    (up,) = net.of(LinkUp)
    assert up.boot_id == 1 and not up.rebooted and up.info.kind == DeviceKind.SHOE
    handle = net.host.command(SetGate(False))
    for _ in range(3):
        net.device.emit_card_out(net.now)
    net.run(0.05)
    assert [e.event_no for e in net.of(CardOut)] == [1, 2, 3]
    assert CommandDone(handle, ResultCode.OK, "done") in net.events
    assert net.device.hardware.gate_locked is False  # type: ignore[attr-defined]


fault_rates = st.floats(0.0, 0.3)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    loss=fault_rates,
    corrupt=fault_rates,
    duplicate=fault_rates,
    reorder=fault_rates,
    seed=st.integers(0, 2**32 - 1),
    n_events=st.integers(1, 40),
    ack_delay=st.sampled_from([0.0, 0.02]),
)
def test_every_event_arrives_exactly_once_in_order_despite_faults(
    loss: float, corrupt: float, duplicate: float, reorder: float, seed: int, n_events: int,
    ack_delay: float,
) -> None:
    host = HostSession(expect_kind=DeviceKind.SHOE, config=LinkConfig(ack_delay=ack_delay))
    net = Net(new_shoe(), host, faults=Faults(loss, corrupt, duplicate, reorder), seed=seed)
    rng = random.Random(seed)
    lights = [net.host.command(SetLights(i)) for i in range(3)]
    # a host's first connection starts from the device's current event
    net.run_until(lambda: net.host.cursor is not None, limit=120)
    emitted = 0
    while emitted < n_events:
        if rng.random() < 0.3:
            net.device.emit_card_out(net.now)
            emitted += 1
        net.step()

    def finished() -> bool:
        done = {e.handle for e in net.of(CommandDone)}
        return len(net.of(CardOut)) >= n_events and set(lights) <= done

    net.run_until(finished, limit=120)
    net.run(0.3)  # nothing more may arrive: no duplicate
    assert [e.event_no for e in net.of(CardOut)] == list(range(1, n_events + 1))
    assert not net.of(EventsLost)
    assert all(up.boot_id == 1 and not up.rebooted for up in net.of(LinkUp))
    assert net.device.hardware.lights == 2  # type: ignore[attr-defined]


def test_commands_are_idempotent_and_dispense_happens_once_across_a_reconnect() -> None:
    net = Net(new_shoe())
    net.run_until(lambda: net.host.is_up)
    handle = net.host.command(Dispense(0))
    # the command reaches the device, but the line dies before its result returns
    net.step()
    net.step()
    net.to_host.in_flight.clear()
    net.connected = False
    net.run(0.05)
    assert net.device.hardware.dispensed == 1  # type: ignore[attr-defined]
    net.host.connection_lost(net.now, "cable pulled")
    net.connected = True
    net.host.connection_made(net.now)
    net.run_until(lambda: any(getattr(e, "handle", None) == handle for e in net.events))
    done = next(e for e in net.events if isinstance(e, CommandDone) and e.handle == handle)
    assert done.code == ResultCode.ALREADY_DONE and done.ok
    assert net.device.hardware.dispensed == 1  # type: ignore[attr-defined]


def test_events_during_an_outage_arrive_after_the_reconnect() -> None:
    net = Net(new_shoe())
    net.run_until(lambda: net.host.is_up)
    net.device.emit_card_out(net.now)
    net.run(0.05)
    net.connected = False
    for _ in range(4):
        net.device.emit_card_out(net.now)
        net.run(0.1)
    net.host.connection_lost(net.now, "cable pulled")
    net.connected = True
    net.host.connection_made(net.now)
    net.run_until(lambda: len(net.of(CardOut)) == 5)
    assert [e.event_no for e in net.of(CardOut)] == [1, 2, 3, 4, 5]
    assert [type(e) for e in net.events if isinstance(e, LinkUp | LinkDown)] == [
        LinkUp, LinkDown, LinkUp
    ]


def test_a_reboot_mid_deal_is_reported_with_the_events_lost() -> None:
    net = Net(new_shoe(boot_id=1))
    net.run_until(lambda: net.host.is_up)
    net.host.command(SetGate(False))
    net.host.command(SetText("ignored: no text on a shoe"[:20]))
    net.run(0.3)  # a PONG tells the host the device's last event number
    # two cards leave; the line is cut before they are sent, and the shoe reboots
    net.connected = False
    net.device.emit_card_out(net.now)
    net.device.emit_card_out(net.now)
    net.run(0.3)  # a heartbeat happens on the device side with the line down
    rebooted = new_shoe(now=net.now, boot_id=2)
    rebooted.emit_card_out(net.now + 0.01)  # a card drawn right after power-up
    net.device = rebooted
    net.connected = True
    net.run_until(lambda: net.host.is_up and len(net.of(LinkUp)) == 2 and net.of(CardOut))
    up = net.of(LinkUp)[-1]
    assert up.rebooted and up.boot_id == 2
    # the lost cards were never announced to the host (the line was cut first),
    # so it cannot count them, but it knows it rebooted
    assert up.events_lost == 0
    assert net.of(CardOut) == [CardOut(1, 10, 2)]
    # the wanted open gate is not pushed again: only the table may reopen it,
    # once it has heard of the reboot (docs/protocol.md section 5.4)
    assert rebooted.hardware.gate_locked is True  # type: ignore[attr-defined]
    assert net.host.wanted(MsgType.SET_GATE) == SetGate(True)


def test_a_reboot_after_events_were_announced_counts_them_as_lost() -> None:
    net = Net(new_shoe(boot_id=1))
    net.run_until(lambda: net.host.is_up)
    net.device.emit_card_out(net.now)
    net.run(0.1)
    # two cards leave but their EVENT frames never make it (modelled by the
    # device not streaming them); its PONGs still announce event 3
    net.device.streaming = False
    net.device.emit_card_out(net.now)
    net.device.emit_card_out(net.now)
    net.run(0.3)
    assert net.host.device_last_event_no == 3
    net.device = new_shoe(now=net.now, boot_id=9)
    net.run_until(lambda: len(net.of(LinkUp)) == 2)
    up = net.of(LinkUp)[-1]
    assert up.rebooted and up.events_lost == 2


def test_device_fails_safe_after_two_seconds_of_silence_and_recovers() -> None:
    net = Net(new_shoe())
    net.run_until(lambda: net.host.is_up)
    net.host.command(SetGate(False))
    net.host.command(SetLights(int(Light.READY)))
    net.run(0.1)
    hw: RecordingHardware = net.device.hardware  # type: ignore[assignment]
    assert not hw.gate_locked and hw.lights == Light.READY
    net.connected = False
    net.run(1.9)
    assert not net.device.fail_safe
    net.run(0.2)
    assert net.device.fail_safe and hw.gate_locked and hw.lights == Light.OFFLINE
    assert any(isinstance(e, LinkDown) and "no answer" in e.reason for e in net.events)
    net.connected = True
    net.run_until(lambda: net.host.is_up and not net.device.fail_safe)
    net.run(0.1)
    # the lamps are pushed again, the gate is not reopened (docs/protocol.md 5.4)
    assert hw.gate_locked and hw.lights == Light.READY


def test_buttons_are_ignored_while_a_panel_is_offline() -> None:
    panel = DeviceCore(seat_identity(3), RecordingHardware(), address=3, now=0.0)
    assert panel.fail_safe and panel.emit_button(Button.TWIST, 0.0) is None
    net = Net(panel, HostSession(3, DeviceKind.SEAT_PANEL))
    net.run_until(lambda: net.host.is_up)
    assert panel.emit_button(Button.TWIST, net.now) == 1
    net.run(0.05)
    assert net.of(ButtonPressed)[0].button == Button.TWIST
    with pytest.raises(ValueError, match="no PAUSE button"):
        panel.emit_button(Button.PAUSE, net.now)


def test_a_major_version_mismatch_is_refused_with_a_clear_message() -> None:
    ident = DeviceIdentity(DeviceKind.SHOE, shoe_identity().capabilities, protocol=(2, 0))
    net = Net(DeviceCore(ident, RecordingHardware()))
    net.run(1.0)
    assert net.host.state is State.HELLO
    (down,) = net.of(LinkDown)
    assert "speaks protocol 2.0" in down.reason and "update the host software" in down.reason
    assert net.host.counters.version_errors >= 1


def test_a_minor_version_difference_is_accepted() -> None:
    ident = DeviceIdentity(DeviceKind.SHOE, shoe_identity().capabilities, protocol=(1, 7))
    net = Net(DeviceCore(ident, RecordingHardware()))
    net.run_until(lambda: net.host.is_up)
    assert net.of(LinkUp)[0].info.protocol == (1, 7)


def test_the_wrong_kind_of_device_is_refused() -> None:
    panel = DeviceCore(seat_identity(1), RecordingHardware(), address=0)
    net = Net(panel, HostSession(0, DeviceKind.SHOE, name="shoe port"))
    net.run(0.5)
    (down,) = net.of(LinkDown)
    assert "expected a shoe at shoe port but a seat panel answered" in down.reason


def test_unknown_and_malformed_commands_get_result_codes_and_the_link_goes_on() -> None:
    net = Net(new_shoe(motor=False))
    net.run_until(lambda: net.host.is_up)
    h = net.host
    seq = h.link.queue(0x1F, b"")  # a command from a future version
    from firmware_bridge.host import _Inflight

    h._inflight.append(_Inflight(seq, 0x1F, None, [99]))
    seq = h.link.queue(MsgType.SET_GATE, b"\x01\x02")
    h._inflight.append(_Inflight(seq, MsgType.SET_GATE, None, [100]))
    no_motor = h.command(Dispense(0))
    no_text = h.command(SetText("hello"))
    net.device.emit_card_out(net.now)
    net.run(0.1)
    codes = {e.handle: e.code for e in net.of(CommandDone)}
    assert codes[99] == ResultCode.UNKNOWN_TYPE
    assert codes[100] == ResultCode.BAD_LENGTH
    assert codes[no_motor] == ResultCode.NOT_SUPPORTED
    assert codes[no_text] == ResultCode.NOT_SUPPORTED
    assert net.of(CardOut)  # still working


def test_unknown_unsequenced_types_and_wrong_versions_are_counted_and_dropped() -> None:
    net = Net(new_shoe())
    net.run_until(lambda: net.host.is_up)
    junk = encode_frame(Header(0, 0x0E, flags=0), b"??")
    old = encode_frame(Header(0, MsgType.PING, version=PROTOCOL_MAJOR + 1), b"\x01\x00")
    net.device.receive_bytes(junk + old, net.now)
    assert net.device.counters.unknown_types == 1
    assert net.device.counters.version_errors == 1
    net.host.receive_bytes(encode_frame(Header(0, 0x2E, flags=2), b""), net.now)
    assert net.host.counters.unknown_types == 1
    net.run(0.1)
    assert net.host.is_up


def test_a_device_that_reboots_silently_answers_no_session_and_the_host_reconnects() -> None:
    net = Net(new_shoe(boot_id=5))
    net.run_until(lambda: net.host.is_up)
    net.device = new_shoe(now=net.now, boot_id=6)
    net.run_until(lambda: len(net.of(LinkUp)) == 2, limit=1.0)  # well before the 1.5 s silence
    assert any("lost the session" in e.reason for e in net.of(LinkDown))
    assert net.of(LinkUp)[-1].rebooted


def test_events_that_left_the_device_log_are_reported_lost() -> None:
    shoe = DeviceCore(shoe_identity(), RecordingHardware(), boot_id=3, log_capacity=4)
    net = Net(shoe)
    net.run_until(lambda: net.host.is_up)
    net.connected = False
    for _ in range(10):
        shoe.emit_card_out(net.now)
    net.host.connection_lost(net.now, "unplugged")
    net.connected = True
    net.host.connection_made(net.now)
    net.run_until(lambda: len(net.of(CardOut)) == 4)
    (lost,) = net.of(EventsLost)
    assert (lost.first_event_no, lost.last_event_no) == (1, 6)
    assert [e.event_no for e in net.of(CardOut)] == [7, 8, 9, 10]
    assert net.of(LinkUp)[-1].events_lost == 6


def test_a_resumed_host_gets_the_events_after_its_cursor() -> None:
    shoe = new_shoe(boot_id=4)
    for _ in range(5):
        shoe.emit_card_out(0.0)
    net = Net(shoe, HostSession(resume=EventCursor(4, 2)))
    net.run_until(lambda: len(net.of(CardOut)) == 3)
    assert [e.event_no for e in net.of(CardOut)] == [3, 4, 5]
    fresh = Net(new_shoe(boot_id=4))  # no cursor: history before the host is skipped
    fresh.device.emit_card_out(0.0)
    fresh.run(0.2)
    assert fresh.host.is_up and fresh.of(CardOut) == []
    fresh.device.emit_card_out(fresh.now)  # what comes after the host came is delivered
    fresh.run(0.1)
    assert [e.event_no for e in fresh.of(CardOut)] == [2]


def test_closing_fails_pending_commands() -> None:
    net = Net(new_shoe())
    handle = net.host.command(SetGate(False))
    net.host.close()
    assert CommandFailed(handle, "the link was closed") in net.host.events()


def test_a_command_issued_while_the_link_resynchronises_is_sent_and_answered() -> None:
    """After HELLO the wanted state is pushed at once; a command that arrives
    while the event resync is still in flight must not be parked for a push
    that already happened (it used to hang its caller for ever)."""
    net = Net(new_shoe())
    net.run_until(lambda: net.host.state is State.SYNCING)
    handle = net.host.command(SetLights(5))
    net.run_until(lambda: any(getattr(e, "handle", None) == handle for e in net.events), limit=2)
    assert CommandDone(handle, ResultCode.OK, "done") in net.events
    assert net.device.hardware.lights == 5  # type: ignore[attr-defined]


def _sequenced(link: Link, seq: int) -> Header:
    return Header(link.address, MsgType.RESULT, seq, 0, 0x03)


def test_a_delayed_ack_rides_on_the_next_frame_or_goes_alone_when_due() -> None:
    """With ``ack_delay`` an acknowledgement owed waits for a frame of ours to
    carry it; alone, it goes when the delay is up (and the owner is told when
    that is), or at once when the peer's window may be about to fill."""
    host = Link(0, from_device=False, config=LinkConfig(ack_delay=0.02))
    host.on_frame(_sequenced(host, 0), b"", 1.0)
    host.flush(1.001)
    assert host.take_output() == b"" and host.ack_owed
    assert host.next_deadline() == pytest.approx(1.02)
    host.queue(MsgType.SET_GATE, SetGate(True).encode())
    host.flush(1.005)
    (sent,) = FrameDecoder().feed(host.take_output())
    assert isinstance(sent, Frame) and sent.header.type == MsgType.SET_GATE
    assert sent.header.ack == 1 and not host.ack_owed  # the command carried the ack
    assert host.next_deadline() == pytest.approx(1.005 + host.rto())  # its own timer only
    host.on_frame(Header(0, MsgType.RESULT, 1, 1, 0x03), b"", 1.010)
    host.flush(1.029)
    assert host.take_output() == b""
    host.flush(1.0301)
    (ack,) = FrameDecoder().feed(host.take_output())
    assert isinstance(ack, Frame) and ack.header.type == MsgType.ACK  # due: on its own
    assert ack.header.ack == 2 and not host.ack_owed
    for seq in (2, 3, 4):  # window 4: a third frame unacknowledged is acked at once
        host.on_frame(Header(0, MsgType.EVENT, seq, 1, 0x03), b"", 1.04)
        host.flush(1.04)
        assert bool(host.take_output()) is (seq == 4)


def test_without_a_delay_every_ack_owed_goes_at_once() -> None:
    device = Link(0, from_device=True)
    device.on_frame(Header(0, MsgType.SET_GATE, 0, 0, 0x01), b"", 0.0)
    device.flush(0.0)
    assert device.take_output() and not device.ack_owed
    assert device.next_deadline() is None


def test_a_damaged_event_that_passes_the_crc_is_dropped_unacknowledged_and_sent_again() -> None:
    """One damaged frame in 65,536 passes a CRC-16.  An EVENT whose body then does
    not parse must not be taken into the sequence: acknowledged, the device
    would never send it again and the card-out would be lost (a soak at heavy
    faults met this).  Dropped, it comes again intact."""
    net = Net(new_shoe())
    net.run_until(lambda: net.host.is_up and net.host.cursor is not None)
    net.run(0.1)
    expected = net.host.link.expected
    forged = encode_frame(
        Header(0, MsgType.EVENT, net.device.link.next_seq, expected, 0x03), b"\x01" * 9
    )
    net.host.receive_bytes(forged, net.now)
    assert net.host.link.expected == expected and not net.host.link.ack_owed
    assert net.host.counters.bad_bodies == 1
    net.device.emit_card_out(net.now)
    net.run(0.2)
    assert [e.event_no for e in net.of(CardOut)] == [1]


# --- the host's event bookkeeping, driven frame by frame ----------------------------------
#
# A real device never sends an event twice nor skips one, so the branches that
# catch a firmware doing so are reached here with hand-made frames: the host
# is brought up by a scripted HELLO_REPLY and SYNC result, then fed EVENT
# frames in link order (so the link layer passes each one on) carrying the
# event numbers under test.

_DEV = FLAG_SEQ | FLAG_FROM_DEVICE


class ScriptedShoe:
    """The device side written out by hand: just enough frames to reach UP."""

    def __init__(self, boot_id: int = 7, last_event_no: int = 0) -> None:
        self.host = HostSession(expect_kind=DeviceKind.SHOE)
        self.now = 0.0
        self.seq = 0
        self.host.connection_made(self.now)
        self.host.tick(self.now)
        (hello,) = FrameDecoder().feed(self.host.data_to_send())
        assert isinstance(hello, Frame) and hello.header.type == MsgType.HELLO
        reply = HelloReply(
            PROTOCOL_MAJOR, 0, DeviceKind.SHOE, 0, (1, 0, 0), 1, b"SHOE0001", boot_id,
            shoe_identity().capabilities, last_event_no, Hello.decode(hello.body).nonce,
        )
        self.send(Header(0, MsgType.HELLO_REPLY, 0, 0, FLAG_FROM_DEVICE), reply.encode())
        assert self.host.state is State.SYNCING
        sync = SyncResult(last_event_no + 1, last_event_no).encode()
        self.sequenced(MsgType.RESULT, Result(0, MsgType.SYNC_EVENTS, ResultCode.OK, sync).encode())
        assert self.host.is_up

    def send(self, header: Header, body: bytes) -> None:
        self.now += 0.001
        self.host.receive_bytes(encode_frame(header, body), self.now)

    def sequenced(self, mtype: int, body: bytes) -> None:
        self.send(Header(0, mtype, self.seq, self.host.link.next_seq, _DEV), body)
        self.seq = (self.seq + 1) & 0xFF

    def event(self, event_no: int) -> list[HostEvent]:
        self.sequenced(MsgType.EVENT, Event(event_no, 100 * event_no, EventKind.CARD_OUT).encode())
        return self.host.events()


def test_an_event_number_already_delivered_is_counted_and_not_delivered_again() -> None:
    shoe = ScriptedShoe(boot_id=7)
    shoe.host.events()
    assert shoe.event(1) == [CardOut(1, 100, 7)]
    assert shoe.event(2) == [CardOut(2, 200, 7)]
    # a firmware resending event 2 (and then an older one) in new link frames
    assert shoe.event(2) == []
    assert shoe.event(1) == []
    counters = shoe.host.counters
    assert (counters.duplicate_events, counters.events_delivered, counters.events_lost) == (2, 2, 0)
    assert shoe.host.cursor == EventCursor(7, 2)
    assert shoe.event(3) == [CardOut(3, 300, 7)]  # the next one still comes through
    assert counters.duplicate_events == 2


def test_a_gap_in_event_numbers_is_reported_lost_before_the_event_after_it() -> None:
    shoe = ScriptedShoe(boot_id=9, last_event_no=4)  # the host starts after event 4
    shoe.host.events()
    assert shoe.event(5) == [CardOut(5, 500, 9)]
    # events 6, 7 and 8 never come: the host says so, then delivers 9
    got = shoe.event(9)
    assert got == [
        EventsLost(9, 6, 8, "3 event(s) from the shoe never arrived"),
        CardOut(9, 900, 9),
    ]
    counters = shoe.host.counters
    assert (counters.events_lost, counters.events_delivered, counters.duplicate_events) == (3, 2, 0)
    assert shoe.host.cursor == EventCursor(9, 9)
    # a late copy of a skipped number is not taken for new: it is behind the cursor
    assert shoe.event(7) == []
    assert counters.duplicate_events == 1
    assert shoe.event(10) == [CardOut(10, 1000, 9)]  # no gap: nothing more reported
    assert counters.events_lost == 3
    assert shoe.event(12) == [  # the smallest gap: one event
        EventsLost(9, 11, 11, "1 event(s) from the shoe never arrived"),
        CardOut(12, 1200, 9),
    ]
    assert counters.events_lost == 4


def test_the_host_maps_the_device_clock_from_its_pongs() -> None:
    """docs/protocol.md section 3: offset = (t_ping_sent + t_pong_received) / 2
    − uptime_ms, from the fastest recent round trip.  The shoe powered up at
    host time 0.7 s, so host = device + 0.7 s; the estimate may be off by at
    most half the round trip it came from, plus 0.5 ms of uptime_ms rounding."""
    net = Net(new_shoe(now=0.7))
    net.now = 0.7
    assert net.host.clock_offset is None
    net.run_until(lambda: net.host.is_up)
    net.run(1.0)  # four PINGs
    offset = net.host.clock_offset
    assert offset is not None
    fastest = min(rtt for rtt, _ in net.host._clock_samples)
    assert abs(offset - 0.7) <= fastest / 2 + 0.0005
    pulled_at = net.now  # host time of the card-out
    net.device.emit_card_out(pulled_at)
    net.run(0.05)
    (card,) = net.of(CardOut)
    when = net.host.host_time(card.device_ms)
    assert when is not None and abs(when - pulled_at) <= fastest / 2 + 0.001
