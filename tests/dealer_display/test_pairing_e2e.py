"""Pairing the dealer's tablet end to end, through the simulated dealer panel.

A real simulated table over pty serial ports (``SimRig``: the emulated shoe
and panel bus, the controller's drivers, ``controller.table.Table``), the
display served by uvicorn on a local port, and an HTTP client as the tablet.
The dealer presses CONFIRM on the emulated dealer panel; the code is read from
the panel's own text, as a person would read it.  The pairing clock is the
test's own (``Table(clock=...)``), so a code expires when the test says so,
without waiting 60 s.

Expected results are the issue's rules (one-time code, 60 s, revocable from
the panel, every dealer route needs a session or the token), checked by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from controller.core import GameSetup, TableCore
from controller.journal import Journal
from controller.pairing import CODE_TTL_S, COMBO_GAP_MS
from controller.shoe_feed import JournalledShoe
from controller.table import Table
from dealer_display.app import create_app
from dealer_display.auth import SESSION_COOKIE
from firmware_bridge.drivers import PanelBus, Shoe
from firmware_bridge.wire import Button
from hardware_sim.rig import SimRig

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

TOKEN = "pairing-e2e-token-0123456"
CODE = re.compile(r"Tablet code\n(\d{6}) ")


class FakeClock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def until(check: Callable[[], Any], what: str, timeout: float = 15.0) -> Any:
    """Wait for ``check()`` to be truthy (polling; the bus is polled too)."""
    async with asyncio.timeout(timeout):
        while True:
            value = check()
            if value:
                return value
            await asyncio.sleep(0.02)
    raise AssertionError(what)  # pragma: no cover


def dealer_text(rig: SimRig) -> str:
    return str(rig.call(lambda: rig.panel("dealer").text))


async def press_confirm(rig: SimRig, times: int) -> None:
    """CONFIRM ``times`` times in one run.

    A pause first, longer than the longest gap within a run: presses right
    after an earlier run would continue it (three then three more: unpair)."""
    await asyncio.sleep(COMBO_GAP_MS / 1000 + 0.1)
    for _ in range(times):
        assert rig.press("dealer", Button.CONFIRM)
        # a quick hand: well inside the 1.2 s allowed between presses, and long enough
        # for a real button (the firmware holds each press 60 ms, debounces 20 ms)
        await asyncio.sleep(0.25)


async def show_code(rig: SimRig) -> str:
    """CONFIRM three times on the dealer panel; the code it then shows."""
    before = dealer_text(rig)
    await press_confirm(rig, 3)
    match = await until(
        lambda: (m := CODE.match(dealer_text(rig))) and m.group(0) != before and m,
        "the dealer panel never showed a code",
    )
    return str(match.group(1))


@pytest.mark.parametrize("panels", ["emulated", "firmware"])
def test_a_tablet_pairs_with_the_panels_code_and_the_panel_unpairs_it(
    tmp_path: Path, panels: str
) -> None:
    """``firmware``: the MicroPython reference firmware behind the bus (its own
    debounced buttons, its own millisecond clock in the button events)."""
    clock = FakeClock()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    journal = Journal(str(tmp_path / "table.sqlite"), durable=False)
    setup = GameSetup("house", ("Ann", "Ben"), "Ben", 3, table="Table 7")
    core = TableCore(setup, journal)

    async def main(rig: SimRig) -> None:
        async with Shoe.open(rig.shoe_url) as shoe, PanelBus.open(rig.bus_url, seats=[1, 2]) as bus:
            table = Table(core, shoe=JournalledShoe(shoe, core, None), bus=bus, clock=clock)
            async with table:
                app = create_app(table, token=TOKEN)
                config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
                uv = uvicorn.Server(config)
                server = asyncio.ensure_future(uv.serve())
                try:
                    await scenario(rig, table, server)
                finally:
                    uv.should_exit = True  # a clean stop: open sockets closed, lifespan ended
                    await asyncio.wait_for(server, 15)

    async def scenario(rig: SimRig, table: Table, server: asyncio.Future[None]) -> None:
        async with (
            httpx.AsyncClient(base_url=base) as tablet,
            httpx.AsyncClient(base_url=base) as stranger,
        ):

            async def up() -> bool:
                with contextlib.suppress(httpx.TransportError):
                    return (await stranger.get("/api/session")).status_code == 200
                return False

            async with asyncio.timeout(15):
                while not await up():
                    await asyncio.sleep(0.05)
            await until(
                lambda: "NEXT" in dealer_text(rig) or dealer_text(rig),
                "the dealer panel never got its text",
            )
            # without a session or the token, nothing dealer-side opens
            assert (await tablet.post("/api/pause")).status_code == 401
            assert (await tablet.get("/api/dealer")).status_code == 401
            assert (await tablet.get("/api/session")).json()["paired"] is False

            code = await show_code(rig)
            # the code is on the panel only: never in a view, public or dealer's
            for path, headers in (
                ("/api/public", {}),
                ("/api/dealer", {"Authorization": f"Bearer {TOKEN}"}),
            ):
                assert code not in (await stranger.get(path, headers=headers)).text
            assert code not in json.dumps(table.snapshot())

            wrong = f"{(int(code) + 1) % 10**6:06d}"
            r = await tablet.post("/api/pair", json={"code": wrong})
            assert r.status_code == 403 and r.json()["reason"] == "wrong"
            assert SESSION_COOKIE not in tablet.cookies

            r = await tablet.post("/api/pair", json={"code": code})
            assert r.status_code == 200, r.text
            cookie = r.headers["set-cookie"]
            assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
            assert (await tablet.get("/api/session")).json()["via"] == "session"
            await until(lambda: dealer_text(rig) == "Tablet paired", "no paired notice")

            # reused: the same code from another device is refused
            r = await stranger.post("/api/pair", json={"code": code})
            assert r.status_code == 403 and r.json()["reason"] == "used"
            assert (await stranger.post("/api/pause")).status_code == 401

            # the session commands the table (HTTP and the dealer socket)
            r = await tablet.post("/api/pause")
            assert r.status_code == 200 and r.json()["ok"], r.text
            assert table.snapshot()["paused"] is True
            assert (await tablet.post("/api/resume")).json()["ok"]
            listed = (await tablet.get("/api/sessions")).json()["sessions"]
            assert len(listed) == 1 and listed[0]["client"] == "127.0.0.1"
            jar = f"{SESSION_COOKIE}={tablet.cookies[SESSION_COOKIE]}"
            ws_url = f"ws://127.0.0.1:{port}/ws/dealer"
            async with websockets.connect(ws_url, additional_headers={"Cookie": jar}) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert first["type"] == "snapshot"
                # a cross-site page cannot ride on the cookie
                async with websockets.connect(
                    ws_url, additional_headers={"Cookie": jar, "Origin": "http://evil.example"}
                ) as foreign:
                    reply = json.loads(await asyncio.wait_for(foreign.recv(), 15))
                    assert reply["type"] == "error"

                # the dealer panel unpairs every tablet: CONFIRM six times
                await press_confirm(rig, 6)
                await until(
                    lambda: dealer_text(rig).startswith("Tablets unpaired"),
                    "the panel never said the tablets were unpaired",
                )
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    async with asyncio.timeout(10):
                        while True:
                            await ws.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
            assert (await tablet.post("/api/pause")).status_code == 401
            assert (await tablet.get("/api/session")).json()["paired"] is False

            # expired: a fresh code, the clock moved on past its 60 s
            code = await show_code(rig)
            clock.now += CODE_TTL_S + 1
            r = await tablet.post("/api/pair", json={"code": code})
            assert r.status_code == 403 and r.json()["reason"] == "expired"
            table.refresh()
            await until(
                lambda: not dealer_text(rig).startswith("Tablet code"),
                "the expired code stayed on the panel",
            )

            # guessing: three wrong tries lock this device out, even for the right code
            code = await show_code(rig)
            for i in range(3):
                guess = f"{(int(code) + 1 + i) % 10**6:06d}"
                assert (await stranger.post("/api/pair", json={"code": guess})).status_code == 403
            r = await stranger.post("/api/pair", json={"code": code})
            assert r.status_code == 429 and int(r.headers["retry-after"]) >= 59
            assert not server.done()

    firmware = panels == "firmware"
    with SimRig({"Ann": 1, "Ben": 2}, seed=3, camera=None, firmware_panels=firmware) as rig:
        asyncio.run(main(rig))

    events = [row.body for row in journal.rows() if row.kind == "table"]
    names = [e["event"] for e in events if "pair" in e["event"]]
    # six presses pass through three (a code) on their way to unpairing (which cancels it)
    assert names == [
        "pairing_code",
        "tablet_paired",
        "pairing_code",
        "tablets_unpaired",
        "pairing_code",
        "pairing_code",
    ], names
    assert {"event": "tablets_unpaired", "sessions": 1, "by": "dealer panel"} in events
    journal.close()
