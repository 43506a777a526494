"""The emulated shoe and panels, checked frame by frame against docs/protocol.md.

A bare host written here from the specification (the wire codec only, no
HostSession) talks to the emulators over real pseudo-terminals, so these tests
check the devices against the spec, not against our own host.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import pytest
import serial

from firmware_bridge.wire import (
    FLAG_FROM_DEVICE,
    FLAG_SEQ,
    PROTOCOL_MAJOR,
    Button,
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
from hardware_sim.rig import SimRig
from hardware_sim.world import ScriptedSource


class RawHost:
    """A minimal host straight from the spec: frames in, frames out, nothing hidden."""

    def __init__(self, url: str, address: int = 0) -> None:
        self.port = serial.serial_for_url(url, baudrate=115200, timeout=0.05)
        self.address = address
        self.decoder = FrameDecoder()
        self.seq = 0
        self.expected = 0  # next device seq we expect
        self.inbox: list[Frame] = []

    def close(self) -> None:
        self.port.close()

    def send(self, mtype: MsgType, body: bytes = b"", *, sequenced: bool = False,
             address: int | None = None) -> int:
        flags = FLAG_SEQ if sequenced else 0
        seq = self.seq
        if sequenced:
            self.seq = (self.seq + 1) & 0xFF
        addr = self.address if address is None else address
        self.port.write(encode_frame(Header(addr, mtype, seq, self.expected, flags), body))
        return seq

    def frames(self, timeout: float = 1.0, want: int = 1) -> list[Frame]:
        """Raw frames as they come (duplicates included), at least ``want`` or until timeout."""
        deadline = time.monotonic() + timeout
        while len(self.inbox) < want and time.monotonic() < deadline:
            for item in self.decoder.feed(self.port.read(512)):
                assert isinstance(item, Frame), f"the device sent a damaged frame: {item}"
                self.inbox.append(item)
        out, self.inbox = self.inbox, []
        return out

    def expect(self, mtype: MsgType, timeout: float = 1.0) -> Frame:
        """The next new frame of ``mtype``; sequenced frames are taken in order and
        acknowledged at once, duplicates (retransmissions) skipped, as a host does."""
        deadline = time.monotonic() + timeout
        while True:
            while self.inbox:
                f = self.inbox.pop(0)
                if f.header.sequenced:
                    if f.header.seq != self.expected:
                        continue  # a retransmission we already have
                    self.expected = (self.expected + 1) & 0xFF
                    self.ack()
                if f.header.type == mtype:
                    return f
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {mtype.name} within {timeout} s")
            self.inbox = self.frames(left, want=1)

    def hello(self, nonce: int = 0x1234) -> HelloReply:
        self.send(MsgType.HELLO, Hello(PROTOCOL_MAJOR, 0, nonce).encode())
        f = self.expect(MsgType.HELLO_REPLY)
        assert f.header.flags & FLAG_FROM_DEVICE and not f.header.sequenced
        self.seq = self.expected = 0
        return HelloReply.decode(f.body)

    def ack(self) -> None:
        self.send(MsgType.ACK)

    def command(self, mtype: MsgType, body: bytes) -> Result:
        seq = self.send(mtype, body, sequenced=True)
        result = Result.decode(self.expect(MsgType.RESULT).body)
        assert (result.ref_seq, result.command) == (seq, mtype)
        return result


@pytest.fixture
def rig() -> Iterator[SimRig]:
    cards = ScriptedSource(["AS", "KD", "7C", "2H", "3S"])
    r = SimRig({"Ann": 1, "Ben": 2}, cards=cards, camera=None)
    with r:
        yield r


@pytest.fixture
def shoe_host(rig: SimRig) -> Iterator[RawHost]:
    host = RawHost(rig.shoe_url)
    yield host
    host.close()


def _events_after_sync(host: RawHost, boot_id: int, after: int) -> tuple[SyncResult, list[Event]]:
    seq = host.send(MsgType.SYNC_EVENTS, SyncEvents(boot_id, after).encode(), sequenced=True)
    result = Result.decode(host.expect(MsgType.RESULT).body)
    assert result.ref_seq == seq and result.code == ResultCode.OK
    sync = SyncResult.decode(result.data)
    events = []
    with contextlib.suppress(AssertionError):
        while True:
            events.append(Event.decode(host.expect(MsgType.EVENT, timeout=0.3).body))
    return sync, events


def test_identify_answers_hello_with_the_spec_fields(rig: SimRig, shoe_host: RawHost) -> None:
    reply = shoe_host.hello(nonce=0xBEEF)
    assert reply.nonce == 0xBEEF
    assert (reply.major, reply.kind, reply.seat) == (PROTOCOL_MAJOR, DeviceKind.SHOE, 0)
    assert reply.boot_id != 0 and reply.last_event_no == 0
    assert reply.capabilities & (1 << 16) and reply.capabilities & (1 << 19)  # GATE, EXIT_SENSOR


def test_commands_set_absolute_state_and_card_out_is_an_event(
    rig: SimRig, shoe_host: RawHost
) -> None:
    reply = shoe_host.hello()
    sync, events = _events_after_sync(shoe_host, reply.boot_id, reply.last_event_no)
    assert events == [] and sync.last_event_no == 0
    # Powered up in fail-safe: the gate is locked; a hand is refused, nothing is sent.
    assert rig.world.shoe.gate_locked
    assert rig.pull_card().refused
    assert shoe_host.command(MsgType.SET_GATE, SetGate(False).encode()).code == ResultCode.OK
    assert not rig.world.shoe.gate_locked
    # Sent twice (a retransmitted absolute command): harmless.
    assert shoe_host.command(MsgType.SET_GATE, SetGate(False).encode()).code == ResultCode.OK
    assert shoe_host.command(MsgType.SET_LIGHTS, SetLights(int(Light.READY)).encode()).code == 0
    assert rig.world.shoe.lights == Light.READY
    pull = rig.pull_card()
    assert pull.card == "AS"
    event = Event.decode(shoe_host.expect(MsgType.EVENT).body)
    assert (event.event_no, event.kind) == (1, EventKind.CARD_OUT)
    # The shoe has no text display and no motor here.
    assert shoe_host.command(MsgType.SET_TEXT, SetText("hi").encode()).code == (
        ResultCode.NOT_SUPPORTED
    )
    assert shoe_host.command(MsgType.DISPENSE, b"\x01\x00").code == ResultCode.NOT_SUPPORTED
    # A bad value is refused with BAD_VALUE.
    assert shoe_host.command(MsgType.SET_GATE, b"\x02").code == ResultCode.BAD_VALUE


def test_forcing_the_locked_gate_reports_gate_forced_then_the_card(
    rig: SimRig, shoe_host: RawHost
) -> None:
    reply = shoe_host.hello()
    _events_after_sync(shoe_host, reply.boot_id, 0)
    assert shoe_host.command(MsgType.SET_GATE, SetGate(True).encode()).code == ResultCode.OK
    assert rig.pull_card(force=True).card == "AS"
    kinds = [Event.decode(shoe_host.expect(MsgType.EVENT).body).kind for _ in range(2)]
    assert kinds == [EventKind.GATE_FORCED, EventKind.CARD_OUT]


def test_events_are_replayed_after_reconnect_from_the_last_acknowledged(
    rig: SimRig, shoe_host: RawHost
) -> None:
    reply = shoe_host.hello(nonce=1)
    _events_after_sync(shoe_host, reply.boot_id, 0)
    shoe_host.command(MsgType.SET_GATE, SetGate(False).encode())
    for _ in range(3):
        rig.pull_card()
    # The cable is pulled before the host saw anything; the shoe keeps its log.
    rig.unplug("shoe", seconds=0.1)
    shoe_host.close()
    time.sleep(0.3)
    host = RawHost(rig.shoe_url)
    try:
        again = host.hello(nonce=2)
        assert again.boot_id == reply.boot_id and again.last_event_no == 3
        sync, events = _events_after_sync(host, again.boot_id, 1)  # host had event 1
        assert (sync.oldest_event_no, sync.last_event_no) == (1, 3)
        assert [e.event_no for e in events] == [2, 3]
        assert all(e.kind == EventKind.CARD_OUT for e in events)
    finally:
        host.close()


def test_reboot_changes_boot_id_and_restarts_event_numbers(
    rig: SimRig, shoe_host: RawHost
) -> None:
    reply = shoe_host.hello(nonce=5)
    _events_after_sync(shoe_host, reply.boot_id, 0)
    shoe_host.command(MsgType.SET_GATE, SetGate(False).encode())
    rig.pull_card()
    shoe_host.expect(MsgType.EVENT)
    time.sleep(0.05)  # our ACK reaches the shoe
    assert rig.reboot("shoe", lossy=False)  # everything acknowledged: allowed
    assert rig.world.shoe.gate_locked  # firmware powers up in fail-safe
    # The old session is gone: a command is answered NO_SESSION.
    shoe_host.send(MsgType.PING, Ping(1).encode())
    assert shoe_host.expect(MsgType.NO_SESSION)
    after = shoe_host.hello(nonce=6)
    assert after.boot_id != reply.boot_id and after.last_event_no == 0
    # Asked with the old boot id, the device sends every event of the new boot (none).
    sync, events = _events_after_sync(shoe_host, reply.boot_id, 1)
    assert events == [] and sync.last_event_no == 0


@pytest.mark.slow
def test_fail_safe_locks_the_gate_and_shows_offline_after_two_silent_seconds(
    rig: SimRig, shoe_host: RawHost
) -> None:
    reply = shoe_host.hello()
    _events_after_sync(shoe_host, reply.boot_id, 0)
    shoe_host.command(MsgType.SET_GATE, SetGate(False).encode())
    shoe_host.command(MsgType.SET_LIGHTS, SetLights(int(Light.READY)).encode())
    for _ in range(6):  # heartbeats keep it alive
        time.sleep(0.3)
        shoe_host.send(MsgType.PING, Ping(7).encode())
        Pong.decode(shoe_host.expect(MsgType.PONG).body)
    assert not rig.world.shoe.gate_locked
    time.sleep(2.3)  # silence
    assert rig.world.shoe.gate_locked
    assert rig.world.shoe.lights & Light.OFFLINE
    # A card pulled in fail-safe is refused by the locked gate; forced, it is still recorded.
    assert rig.pull_card().refused
    assert rig.pull_card(force=True).card == "AS"
    shoe_host.send(MsgType.PING, Ping(8).encode())
    assert shoe_host.expect(MsgType.NO_SESSION)
    again = shoe_host.hello(nonce=0x4321)
    assert again.boot_id == reply.boot_id and again.last_event_no == 2  # GATE_FORCED, CARD_OUT
    assert rig.world.shoe.gate_locked  # still locked until the host says otherwise
    assert rig.world.shoe.lights == 0


def test_bus_panels_answer_only_when_addressed(rig: SimRig) -> None:
    host = RawHost(rig.bus_url, address=2)
    try:
        reply = host.hello(nonce=9)
        assert (reply.kind, reply.seat) == (DeviceKind.SEAT_PANEL, 2)
        assert reply.capabilities & (1 << (Button.CONFIRM - 1))
        # Polled: a press waits in the panel until the host's next frame to it.
        rig.press("Ben", Button.STAKE_UP)
        assert host.frames(0.2, want=1) == []
        # Nobody at address 3: silence. The dealer panel is at 15.
        host.send(MsgType.HELLO, Hello(PROTOCOL_MAJOR, 0, 3).encode(), address=3)
        assert host.frames(0.2, want=1) == []
        host.send(MsgType.HELLO, Hello(PROTOCOL_MAJOR, 0, 3).encode(), address=15)
        dealer = HelloReply.decode(host.expect(MsgType.HELLO_REPLY).body)
        assert dealer.kind == DeviceKind.DEALER_PANEL
        # Seat 2: SYNC; exactly one reply per host frame; the press arrives as an event.
        seq = host.send(MsgType.SYNC_EVENTS, SyncEvents(reply.boot_id, 0).encode(), sequenced=True)
        frames = host.frames(0.3, want=2)
        assert len(frames) == 1 and frames[0].header.type == MsgType.RESULT
        assert Result.decode(frames[0].body).ref_seq == seq
        host.expected = 1
        host.send(MsgType.PING, Ping(1).encode())
        frames = host.frames(0.3, want=2)
        assert len(frames) == 1 and frames[0].header.type == MsgType.EVENT
        event = Event.decode(frames[0].body)
        assert (event.kind, event.arg) == (EventKind.BUTTON, Button.STAKE_UP)
        host.expected = 2
        host.send(MsgType.ACK)
        assert [f.header.type for f in host.frames(0.3, want=2)] == [MsgType.ACK]
        assert host.command(MsgType.SET_TEXT, SetText("Ben\nStake 1? CONFIRM").encode()).code == 0
        assert rig.panel("Ben").text == "Ben\nStake 1? CONFIRM"
    finally:
        host.close()
