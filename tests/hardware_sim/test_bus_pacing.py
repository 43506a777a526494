"""How the host's RS-485 poll loop paces itself against the emulated panels (real ptys).

A quiet panel is polled every ``cycle_min`` (every ``dark_poll`` while none of
its button lamps is lit); a command is sent at once, and an address that just
carried something is polled every ``hot_poll`` for a moment, so a press
answering a lamp that just lit is collected without a poll interval.

Real time is the point here, so the windows are real; a loaded machine can
only stretch them (a poll never comes early), so every count is bounded by
the window's measured length rather than its nominal one, and an interval
is checked as a lower bound (never polled faster than it) and, with wide
margin, against the next slower pace (lit against dark).
"""

from __future__ import annotations

import asyncio
import time

import pytest

from firmware_bridge.drivers import PanelBus
from firmware_bridge.host import ButtonPressed, LinkUp
from firmware_bridge.wire import Button, Light, button_light
from hardware_sim.rig import SimRig

#: timing: poll intervals on real time, run alone (tests/conftest.py, docs/testing.md)
pytestmark = pytest.mark.timing

CYCLE = 0.25  # slow enough that "at once" and "next cycle" are far apart


async def _up(bus: PanelBus) -> None:
    for panel in bus.seats.values():
        while not isinstance(await asyncio.wait_for(panel.next_event(), 5), LinkUp):
            pass


def _polls(rig: SimRig, seat: str) -> int:
    """Frames the panel has sent: exactly one answer per poll of its address."""
    return rig.call(lambda: rig.panel(seat).core.counters.frames_sent)


async def _window(rig: SimRig, seats: list[str], seconds: float) -> tuple[list[int], float]:
    """Polls of each seat over at least ``seconds``, and the window's real length."""
    start = time.monotonic()
    before = [_polls(rig, seat) for seat in seats]
    await asyncio.sleep(seconds)
    after = [_polls(rig, seat) for seat in seats]
    return [a - b for a, b in zip(after, before, strict=True)], time.monotonic() - start


async def _until_polled(rig: SimRig, seat: str, count: int, timeout: float = 10.0) -> float:
    """Wait (checking every few ms) until the panel has answered ``count`` polls in all."""
    end = time.monotonic() + timeout
    while _polls(rig, seat) < count:
        assert time.monotonic() < end, f"{seat} not polled {count} times in {timeout:g} s"
        await asyncio.sleep(0.003)
    return time.monotonic()


def test_a_quiet_bus_is_polled_at_the_cycle_and_a_command_goes_at_once() -> None:
    async def host(rig: SimRig) -> tuple[int, float, float]:
        async with PanelBus.open(rig.bus_url, seats=[1], dealer=False, cycle_min=CYCLE) as bus:
            await _up(bus)
            await bus.seat(1).set_lights(button_light(Button.STICK))  # a lamp lit: not dark
            await asyncio.sleep(2 * CYCLE + 0.1)  # at least: the command's busy spell is over
            (quiet,), elapsed = await _window(rig, ["Ann"], 1.0)
            # right after a routine poll, so a command held for the next one waits a cycle
            await _until_polled(rig, "Ann", _polls(rig, "Ann") + 1)
            start = time.monotonic()
            await bus.seat(1).set_text("Ann\nStake 2?")
            return quiet, elapsed, time.monotonic() - start

    with SimRig({"Ann": 1}, seed=1, camera=None) as rig:
        quiet, elapsed, command = asyncio.run(host(rig))
        assert rig.call(lambda: rig.panel("Ann").text) == "Ann\nStake 2?"
    # one poll per 0.25 s at most (a back-to-back loop would make hundreds), and
    # still polled (about 4 a second when nothing is late)
    assert 2 <= quiet <= elapsed / CYCLE + 1, (quiet, elapsed)
    assert command < CYCLE / 2  # not held back to the next cycle


def test_a_panel_with_every_button_lamp_dark_is_polled_less_often() -> None:
    dark = 0.2

    async def host(rig: SimRig) -> tuple[list[int], float]:
        async with PanelBus.open(
            rig.bus_url, seats=[1, 2], dealer=False, cycle_min=0.02, dark_poll=dark
        ) as bus:
            await _up(bus)
            await bus.seat(1).set_lights(int(Light.READY) | button_light(Button.TWIST))
            await bus.seat(2).set_lights(int(Light.READY))  # a status lamp only: dark
            await asyncio.sleep(0.3)  # at least: the commands' busy spells are over
            return await _window(rig, ["Ann", "Ben"], 1.0)

    with SimRig({"Ann": 1, "Ben": 2}, seed=3, camera=None) as rig:
        (lit, dark_polls), elapsed = asyncio.run(host(rig))
    # 1 s: about 50 polls of the lit panel, about 5 of the dark one (still well
    # inside the panels' 2 s fail-safe); never more than one per dark interval
    assert 2 <= dark_polls <= elapsed / dark + 1, (dark_polls, elapsed)
    assert lit >= 4 * dark_polls and lit >= 10, (lit, dark_polls, elapsed)


def test_a_press_answering_a_lamp_is_collected_without_waiting_a_cycle() -> None:
    slow = 1.0  # a quiet bus would take up to a second to see the press

    async def host(rig: SimRig) -> float:
        async with PanelBus.open(rig.bus_url, seats=[1], dealer=False, cycle_min=slow) as bus:
            await _up(bus)
            panel = rig.panel("Ann")
            pressed = asyncio.Event()

            def press_when_lit(p: object) -> None:
                if panel.lights & button_light(Button.TWIST) and not pressed.is_set():
                    pressed.set()
                    panel.press(Button.TWIST)  # the person reacts to the lamp at once

            rig.call(lambda: panel.listeners.append(press_when_lit))
            await bus.seat(1).set_lights(int(Light.READY) | button_light(Button.TWIST))
            start = time.monotonic()
            while True:
                event = await asyncio.wait_for(bus.seat(1).next_event(), 5)
                if isinstance(event, ButtonPressed):
                    return time.monotonic() - start

    with SimRig({"Ann": 1}, seed=2, camera=None) as rig:
        waited = asyncio.run(host(rig))
    assert waited < slow / 2


def test_a_dealer_panel_offering_only_pause_is_polled_like_a_dark_one() -> None:
    """PAUSE is always lit on the dealer panel; it asks nothing, and a pause can
    wait a dark poll: only a lamp that asks a question makes a panel lit."""
    dark = 0.2

    async def host(rig: SimRig) -> tuple[list[int], float]:
        async with PanelBus.open(
            rig.bus_url, seats=[1], dealer=True, cycle_min=0.02, dark_poll=dark
        ) as bus:
            await _up(bus)
            assert bus.dealer is not None
            await bus.seat(1).set_lights(int(Light.READY) | button_light(Button.STICK))
            await bus.dealer.set_lights(int(Light.READY) | button_light(Button.PAUSE))
            await asyncio.sleep(0.3)  # at least: the commands' busy spells are over
            return await _window(rig, ["Ann", "dealer"], 1.0)

    with SimRig({"Ann": 1}, seed=4, camera=None) as rig:
        (lit, pause_only), elapsed = asyncio.run(host(rig))
    assert 2 <= pause_only <= elapsed / dark + 1, (pause_only, elapsed)
    assert lit >= 4 * pause_only and lit >= 10, (lit, pause_only, elapsed)


def test_an_ack_owed_to_a_panel_that_asks_nothing_rides_on_its_next_frame() -> None:
    """A panel whose text changes with every card but asks nothing: each command
    costs one frame pair (its ack travels with the next command or poll), not
    a second pair for a bare acknowledgement.  A lamp that asks something
    still gets its ack at once, so the answer is collected without a poll."""
    commands = 12
    dark = 1.0

    async def host(rig: SimRig) -> tuple[int, float, float]:
        async with PanelBus.open(
            rig.bus_url, seats=[1], dealer=False, cycle_min=0.02, dark_poll=dark
        ) as bus:
            await _up(bus)
            seat = bus.seat(1)
            await seat.set_lights(int(Light.WAIT))
            await asyncio.sleep(0.1)
            start = time.monotonic()
            before = _polls(rig, "Ann")
            for i in range(commands):
                await seat.set_text(f"Card {i}")
                await asyncio.sleep(0.03)  # a card's time: nothing else to carry the ack
            quiet = _polls(rig, "Ann") - before
            elapsed = time.monotonic() - start
            await seat.set_lights(int(Light.READY) | button_light(Button.TWIST))
            lit_at = time.monotonic()
            # the lit lamp command's reply, then a routine poll at the lit pace
            await _until_polled(rig, "Ann", _polls(rig, "Ann") + 2)
            return quiet, elapsed, time.monotonic() - lit_at

    with SimRig({"Ann": 1}, seed=5, camera=None) as rig:
        quiet, elapsed, asking = asyncio.run(host(rig))
        assert rig.call(lambda: rig.panel("Ann").text) == f"Card {commands - 1}"
    # one reply per command and no ack-only turns; the only extra frames are the
    # dark polls the window's real length allows (one, when nothing is late)
    assert commands <= quiet <= commands + 1 + elapsed // dark, (quiet, elapsed)
    assert asking < dark / 2  # lit: acked at once, then polled every cycle
