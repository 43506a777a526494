"""The drivers over real pseudo-terminals and socket://, the device in a thread."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest

from firmware_bridge.device import (
    BusEndpoint,
    DeviceCore,
    RecordingHardware,
    dealer_identity,
    seat_identity,
    shoe_identity,
)
from firmware_bridge.device_runner import DeviceRunner, PtyPort, TcpPort
from firmware_bridge.drivers import CommandError, PanelBus, Shoe
from firmware_bridge.host import ButtonPressed, CardOut, HostEvent, LinkDown, LinkUp
from firmware_bridge.wire import Button, Light

T = TypeVar("T")
pytestmark = pytest.mark.timeout(60)


def run(coro: Awaitable[T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 30))  # type: ignore[arg-type]


async def next_of(device: Shoe | object, kind: type, timeout: float = 5.0) -> HostEvent:
    """The next event of a kind, skipping others."""
    end = time.monotonic() + timeout
    while True:
        event = await asyncio.wait_for(device.next_event(), end - time.monotonic())  # type: ignore[attr-defined]
        if isinstance(event, kind):
            return event


def shoe_core(boot_id: int = 1, motor: bool = False) -> DeviceCore:
    return DeviceCore(
        shoe_identity(motor=motor), RecordingHardware(), now=time.monotonic(), boot_id=boot_id
    )


async def until(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Wait for ``condition`` (checked every few ms) rather than sleep a guess."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"{what}: not within {timeout:g} s"
        await asyncio.sleep(0.005)


def emit_cards(runner: DeviceRunner, n: int) -> None:
    for _ in range(n):
        runner.call(lambda core, now: core.emit_card_out(now))  # type: ignore[union-attr]


def test_shoe_over_a_pty_identifies_reports_cards_and_takes_gate_commands(tmp_path: Path) -> None:
    core = shoe_core(motor=True)
    hw: RecordingHardware = core.hardware  # type: ignore[assignment]

    async def main() -> None:
        with DeviceRunner(core, PtyPort(str(tmp_path / "shoe"))) as runner:
            async with Shoe.open(runner.url) as shoe:
                up = await next_of(shoe, LinkUp)
                assert isinstance(up, LinkUp) and up.info and up.info.unique_id == b"SHOE0001".hex()
                await shoe.set_gate(False)
                assert hw.gate_locked is False
                await shoe.set_lights(int(Light.READY))
                assert hw.lights == Light.READY
                await shoe.dispense()
                assert hw.dispensed == 1
                await shoe.dispense()  # a second card: a new dispense_no (5.4)
                assert hw.dispensed == 2
                emit_cards(runner, 20)
                got = [await next_of(shoe, CardOut) for _ in range(20)]
                assert [e.event_no for e in got] == list(range(1, 21))  # type: ignore[union-attr]
                assert shoe.counters.rtt_avg is not None and shoe.counters.crc_errors == 0
        assert runner.error is None

    run(main())


def test_a_refused_command_raises_a_clear_error(tmp_path: Path) -> None:
    async def main() -> None:
        with DeviceRunner(shoe_core(motor=False), PtyPort()) as runner:
            async with Shoe.open(runner.url) as shoe:
                with pytest.raises(CommandError, match="no such feature"):
                    await shoe.dispense()

    run(main())


def test_unplug_and_replug_loses_no_card(tmp_path: Path) -> None:
    core = shoe_core()

    async def main() -> None:
        with DeviceRunner(core, PtyPort(str(tmp_path / "by-id-shoe"))) as runner:
            async with Shoe.open(runner.url) as shoe:
                await next_of(shoe, LinkUp)
                await shoe.set_gate(False)
                emit_cards(runner, 2)
                await asyncio.sleep(0.05)
                runner.unplug()
                emit_cards(runner, 3)  # drawn while the cable is out
                seen: list[HostEvent] = []
                while not any(isinstance(e, LinkDown) for e in seen):
                    seen.append(await asyncio.wait_for(shoe.next_event(), 5))
                down = seen[-1]
                assert isinstance(down, LinkDown) and "disconnected" in down.reason
                await asyncio.sleep(0.3)
                runner.replug()
                emit_cards(runner, 1)
                while sum(isinstance(e, CardOut) for e in seen) < 6:
                    seen.append(await asyncio.wait_for(shoe.next_event(), 5))
                ups = [e for e in seen if isinstance(e, LinkUp)]
                assert len(ups) == 1 and not ups[0].rebooted
                cards = [e.event_no for e in seen if isinstance(e, CardOut)]
                assert cards == [1, 2, 3, 4, 5, 6]

    run(main())


def test_a_reboot_is_reported_the_wanted_state_pushed_again_but_never_an_open_gate(
    tmp_path: Path,
) -> None:
    """After a reboot the host pushes its wanted lamps again, but not an open
    gate (docs/protocol.md section 5.4): the rebooted shoe stays locked, and an
    opening asked for while the shoe was away fails with a reason, so the
    table (which must first hear of the reboot) opens it again itself.

    The shoe is reached through a stable path, as a real one is through
    /dev/serial/by-id: a replugged pty gets a new /dev/pts number, and the old
    one may by then belong to another test's device on the other worker."""

    async def main() -> None:
        with DeviceRunner(shoe_core(boot_id=11), PtyPort(str(tmp_path / "shoe"))) as runner:
            async with Shoe.open(runner.url) as shoe:
                await next_of(shoe, LinkUp)
                await shoe.set_lights(int(Light.READY))
                await shoe.set_gate(False)
                runner.unplug()
                await next_of(shoe, LinkDown)
                parked = asyncio.create_task(shoe.set_gate(False))  # waits for the link
                await asyncio.sleep(0.05)
                fresh = shoe_core(boot_id=12)
                hw: RecordingHardware = fresh.hardware  # type: ignore[assignment]
                assert hw.gate_locked is True  # power-up
                runner.replace(fresh)
                runner.replug()
                up = await next_of(shoe, LinkUp)
                assert up.rebooted and up.boot_id == 12  # type: ignore[union-attr]
                with pytest.raises(CommandError, match="not reopened"):
                    await parked
                await until(lambda: hw.lights == Light.READY,
                            "the wanted lamps pushed to the rebooted shoe")
                assert hw.gate_locked is True
                assert ("gate", False) not in hw.calls
                await shoe.set_gate(False)  # the table's own decision, after the reboot
                assert hw.gate_locked is False

    run(main())


def test_a_reconnect_to_the_same_boot_does_not_reopen_the_gate_either(tmp_path: Path) -> None:
    """Same boot, new session (the cable was out): the device starts the new
    session locked, lamps off (docs/protocol.md section 4), and the host does
    not reopen the gate by itself."""
    core = shoe_core(boot_id=21)
    hw: RecordingHardware = core.hardware  # type: ignore[assignment]

    async def main() -> None:
        # a stable path, as in the reboot test above
        with DeviceRunner(core, PtyPort(str(tmp_path / "shoe"))) as runner:
            async with Shoe.open(runner.url) as shoe:
                await next_of(shoe, LinkUp)
                await shoe.set_gate(False)
                await shoe.set_lights(int(Light.READY))
                runner.unplug()
                await next_of(shoe, LinkDown)
                runner.replug()
                up = await next_of(shoe, LinkUp)
                assert not up.rebooted  # type: ignore[union-attr]
                await until(lambda: hw.lights == Light.READY, "the lamps pushed again")
                assert hw.gate_locked is True and not core.fail_safe

    run(main())


def test_the_shoe_fails_safe_when_the_host_goes_away() -> None:
    """The device's time is passed in by its runner, so the 2 s of silence are
    stepped over rather than slept through: 1 s after the host went away
    the gate stays as the host left it, past 2 s it is locked and the lamps
    say offline (docs/protocol.md section 6)."""
    core = shoe_core()
    skipped = [0.0]  # seconds the device's clock is ahead of the wall clock

    async def main(runner: DeviceRunner) -> None:
        async with Shoe.open(runner.url) as shoe:
            await next_of(shoe, LinkUp)
            await shoe.set_gate(False)
            assert not core.fail_safe

    def tick() -> None:
        runner.call(lambda target, now: target.tick(now))

    with DeviceRunner(core, PtyPort(), clock=lambda: time.monotonic() + skipped[0]) as runner:
        run(main(runner))
        assert core.hardware.gate_locked is False  # type: ignore[attr-defined]
        skipped[0] = 1.0
        tick()
        assert not core.fail_safe and core.hardware.gate_locked is False  # type: ignore[attr-defined]
        skipped[0] = 2.5
        tick()
        assert core.fail_safe and core.hardware.gate_locked  # type: ignore[attr-defined]
        assert core.hardware.lights == Light.OFFLINE  # type: ignore[attr-defined]


def test_shoe_over_socket_url_and_reconnect() -> None:
    async def main() -> None:
        with DeviceRunner(shoe_core(), TcpPort()) as runner:
            assert runner.url.startswith("socket://127.0.0.1:")
            async with Shoe.open(runner.url) as shoe:
                await next_of(shoe, LinkUp)
                emit_cards(runner, 3)
                for n in (1, 2, 3):
                    assert (await next_of(shoe, CardOut)).event_no == n  # type: ignore[union-attr]
                runner.unplug()  # the TCP connection drops
                await next_of(shoe, LinkDown)
                await next_of(shoe, LinkUp)
                emit_cards(runner, 1)
                assert (await next_of(shoe, CardOut)).event_no == 4  # type: ignore[union-attr]

    run(main())


def test_panels_on_one_bus_pty_report_buttons_and_take_text() -> None:
    now = time.monotonic()
    seats = {n: DeviceCore(seat_identity(n), RecordingHardware(), address=n, polled=True, now=now)
             for n in (1, 2, 5)}
    dealer = DeviceCore(dealer_identity(), RecordingHardware(), address=15, polled=True, now=now)
    bus_end = BusEndpoint([*seats.values(), dealer])

    async def main() -> None:
        with DeviceRunner(bus_end, PtyPort()) as runner:
            async with PanelBus.open(runner.url, seats=[1, 2, 5, 6]) as bus:
                for n in (1, 2, 5):
                    await next_of(bus.seat(n), LinkUp)
                assert bus.dealer is not None
                await next_of(bus.dealer, LinkUp)
                await bus.seat(2).set_text("Total 15\nStake 10")
                assert seats[2].hardware.text == "Total 15\nStake 10"  # type: ignore[attr-defined]
                runner.call(lambda b, t: b.devices[5].emit_button(Button.STICK, t))  # type: ignore[union-attr]
                runner.call(lambda b, t: b.devices[15].emit_button(Button.PAUSE, t))  # type: ignore[union-attr]
                press = await next_of(bus.seat(5), ButtonPressed)
                assert press.button == Button.STICK  # type: ignore[union-attr]
                press = await next_of(bus.dealer, ButtonPressed)
                assert press.button == Button.PAUSE  # type: ignore[union-attr]
                assert not bus.seat(6).is_up  # nobody at address 6
                assert bus.seat(6).counters.missed_turns >= 1
        assert runner.error is None

    run(main())


def test_the_pty_symlink_follows_replugs(tmp_path: Path) -> None:
    """A host still holding the old port (as after a pulled cable) keeps the
    old pty's number taken, so the replugged one is a new pty; the same path
    then leads to it and carries bytes to the device's end."""
    port = PtyPort(str(tmp_path / "dev"))
    first = os.readlink(port.url)
    old_host = os.open(port.url, os.O_RDWR | os.O_NOCTTY)
    try:
        port.replug()
        assert os.readlink(port.url) != first
        host = os.open(port.url, os.O_RDWR | os.O_NOCTTY)
        try:
            os.write(host, b"after the replug\x00")
            got = b""
            end = time.monotonic() + 5
            while len(got) < 17 and time.monotonic() < end:
                got += port.read()
            assert got == b"after the replug\x00"
        finally:
            os.close(host)
    finally:
        os.close(old_host)
    port.close()
    assert not os.path.exists(port.url)


def test_an_unplugged_pty_takes_its_link_with_it(tmp_path: Path) -> None:
    """Pulling the cable removes the by-id link, as udev does; replugging makes
    it again, to a new terminal.  A link left naming the old /dev/pts/N would
    let a host reconnecting meanwhile open whatever terminal another process
    got that number for (a parallel test's device: seen as a shoe "restart")."""
    link = tmp_path / "by-id-shoe"
    port = PtyPort(str(link))
    try:
        first = os.path.realpath(link)
        assert link.is_symlink() and first.startswith("/dev/pts/")
        port.unplug()
        assert not os.path.lexists(link)
        port.replug()
        assert link.is_symlink() and os.path.realpath(link).startswith("/dev/pts/")
    finally:
        port.close()
    assert not os.path.lexists(link)
