"""The rig with the project's own host drivers, the simulated people and faults."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.rules import Decide, PlaceStake
from controller.scenario import load_scenario
from firmware_bridge.drivers import CommandError, PanelBus, Shoe
from firmware_bridge.host import ButtonPressed, CardOut, LinkUp
from firmware_bridge.wire import Button, Light, button_light
from hardware_sim.rig import SimRig
from hardware_sim.scenario_deck import scenario_cards

SCENARIOS = Path(__file__).parent.parent / "scenarios"


def _mask(*buttons: Button) -> int:
    m = int(Light.READY)
    for b in buttons:
        m |= button_light(b)
    return m


async def _next(device: object, kind: type, timeout: float = 5.0) -> object:
    while True:
        event = await asyncio.wait_for(device.next_event(), timeout)  # type: ignore[attr-defined]
        if isinstance(event, kind):
            return event


def test_dealer_deals_one_card_per_opening_of_the_gate_and_the_camera_sees_it() -> None:
    async def host(rig: SimRig) -> list[str]:
        seen: list[str] = []
        async with Shoe.open(rig.shoe_url) as shoe:
            await _next(shoe, LinkUp)
            rig.start_dealer()
            for _ in range(3):
                await shoe.set_gate(False)
                await _next(shoe, CardOut)
                # The card is already under the camera when the event arrives.
                frame = rig.camera.grab()
                assert frame is not None and frame.shape == (480, 640, 3)
                seen.append(rig.camera.truth.code)
                await asyncio.sleep(0.05)  # the gate stays open: no second card
                assert rig.world.shoe.cards_out == len(seen)
                await shoe.set_gate(True)
        return seen

    with SimRig({"Ann": 1}, seed=3, camera_preset="clean", camera_mode="overhead") as rig:
        seen = asyncio.run(host(rig))
        assert seen == [p.code for p in rig.world.on_table]
        assert len(set(seen)) == 3


async def _serve_amount(
    panel: object, word: str, amount: int, final: Button, *, ignore_final: int = 0,
    slow: float = 0.0,
) -> list[Button]:
    """A minimal host for one amount prompt: steps move the amount, ``final`` ends it.

    ``ignore_final``: that many final presses are answered as a paused table
    would (the press is refused, the prompt comes back unchanged); ``slow``:
    seconds the host takes to answer the final press (a slow link).
    """
    presses: list[Button] = []
    prompt = f"Ann\n{word} {{}}? {final.name}"
    while True:
        button = Button((await _next(panel, ButtonPressed, 30)).button)  # type: ignore[attr-defined]
        presses.append(button)
        if button in (Button.STAKE_UP, Button.STAKE_DOWN):
            amount += 1 if button == Button.STAKE_UP else -1
            await panel.set_text(prompt.format(amount))  # type: ignore[attr-defined]
        elif button == final and ignore_final:
            ignore_final -= 1
            await panel.set_text("Ann\nTable paused")  # type: ignore[attr-defined]
            await asyncio.sleep(0.5)
            await panel.set_text(prompt.format(amount))  # type: ignore[attr-defined]
        elif button == final:
            await asyncio.sleep(slow)
            await panel.set_lights(int(Light.WAIT))  # type: ignore[attr-defined]
            await panel.set_text("Ann\nCard coming")  # type: ignore[attr-defined]
            # anything pressed within the next moments would be a doubled press
            with contextlib.suppress(TimeoutError):
                late = await _next(panel, ButtonPressed, 3)
                presses.append(Button(late.button))  # type: ignore[attr-defined]
            return presses


def test_scripted_player_presses_what_the_panel_ux_says() -> None:
    """Closed loop: each step is seen on the panel before the next; the final ends it."""

    async def host(rig: SimRig) -> list[Button]:
        async with PanelBus.open(rig.bus_url, seats=[1, 2]) as bus:
            ann = bus.seat(1)
            await _next(ann, LinkUp)
            await ann.set_text("Ann\nStake 1? CONFIRM")
            await ann.set_lights(_mask(Button.STAKE_UP, Button.STAKE_DOWN, Button.CONFIRM))
            done = asyncio.get_running_loop().run_in_executor(
                None, rig.perform, "Ann", PlaceStake("Ann", 3)
            )
            presses = await _serve_amount(ann, "Stake", 1, Button.CONFIRM)
            await done
            await ann.set_text("Ann H1 9\nBuy 3? BUY")
            await ann.set_lights(_mask(Button.TWIST, Button.BUY, Button.STICK, Button.STAKE_UP,
                                       Button.STAKE_DOWN))
            done = asyncio.get_running_loop().run_in_executor(
                None, rig.perform, "Ann", Decide("Ann", "buy", 2)
            )
            presses += await _serve_amount(ann, "Buy", 3, Button.BUY)
            await done
            return presses

    with SimRig({"Ann": 1, "Ben": 2}, camera=None) as rig:
        presses = asyncio.run(host(rig))
    assert presses == [Button.STAKE_UP, Button.STAKE_UP, Button.CONFIRM,
                       Button.STAKE_DOWN, Button.BUY]


@pytest.mark.slow
def test_a_refused_final_press_is_made_again_and_a_slow_one_is_not_doubled() -> None:
    async def host(rig: SimRig) -> tuple[list[Button], list[Button]]:
        async with PanelBus.open(rig.bus_url, seats=[1, 2]) as bus:
            ann = bus.seat(1)
            await _next(ann, LinkUp)
            lamps = _mask(Button.STAKE_UP, Button.STAKE_DOWN, Button.CONFIRM)
            await ann.set_text("Ann\nStake 2? CONFIRM")
            await ann.set_lights(lamps)
            done = asyncio.get_running_loop().run_in_executor(
                None, rig.perform, "Ann", PlaceStake("Ann", 2)
            )
            refused = await _serve_amount(ann, "Stake", 2, Button.CONFIRM, ignore_final=1)
            await done
            await ann.set_text("Ann\nStake 2? CONFIRM")
            await ann.set_lights(lamps)
            done = asyncio.get_running_loop().run_in_executor(
                None, rig.perform, "Ann", PlaceStake("Ann", 2)
            )
            slow = await _serve_amount(ann, "Stake", 2, Button.CONFIRM, slow=5.0)
            await done
            return refused, slow

    with SimRig({"Ann": 1, "Ben": 2}, camera=None) as rig:
        refused, slow = asyncio.run(host(rig))
    assert refused == [Button.CONFIRM, Button.CONFIRM]  # paused: pressed again, once
    assert slow == [Button.CONFIRM]  # 5 s without an answer: waited, not pressed twice


def test_bots_choose_among_the_lit_buttons_by_strategy() -> None:
    async def host(rig: SimRig) -> tuple[int, int]:
        async with PanelBus.open(rig.bus_url, seats=[1, 2]) as bus:
            ann, ben = bus.seat(1), bus.seat(2)
            await _next(ann, LinkUp)
            await _next(ben, LinkUp)
            rig.start_bots({"Ann": "stick17", "Ben": "stick17"}, think=0.0)
            await ann.set_text("Ann H1 12\nYour turn")
            await ann.set_lights(_mask(Button.TWIST, Button.STICK))
            await ben.set_text("Ben H1 19\nYour turn")
            await ben.set_lights(_mask(Button.TWIST, Button.STICK))
            a = await _next(ann, ButtonPressed)
            b = await _next(ben, ButtonPressed)
            return a.button, b.button  # type: ignore[attr-defined]

    with SimRig({"Ann": 1, "Ben": 2}, camera=None) as rig:
        assert asyncio.run(host(rig)) == (Button.TWIST, Button.STICK)


@pytest.mark.slow
def test_every_card_arrives_exactly_once_through_heavy_faults() -> None:
    """Corruption, drops, duplicates, stalls, unplugs and (safe) reboots on the shoe link."""
    n = 40

    async def host(rig: SimRig) -> list[tuple[int, int]]:
        got: list[tuple[int, int]] = []
        async with Shoe.open(rig.shoe_url) as shoe:
            await _next(shoe, LinkUp, 10)
            rig.start_dealer()
            while len(got) < n:
                try:
                    await shoe.set_gate(False)
                except CommandError:
                    # The link went down in the middle of the command: the gate
                    # may have opened and a card left before it did.  A new
                    # session locks the gate and the shoe resends its card-outs
                    # right behind the next LinkUp (docs/protocol.md 4, 5.3), so
                    # look there before opening again, as the table does:
                    # opening blind would let a second card out for one wanted.
                    if not shoe.is_up:
                        await _next(shoe, LinkUp, 15)
                    try:
                        event = await _next(shoe, CardOut, 0.5)
                    except TimeoutError:
                        continue  # no card left: ask again
                else:
                    event = await _next(shoe, CardOut, 15)
                got.append((event.boot_id, event.event_no))  # type: ignore[attr-defined]
                with contextlib.suppress(CommandError):  # a new session locks it anyway
                    await shoe.set_gate(True)
        return got

    faults = "heavy,unplug=0.08,reboot=0.08,unplug_for=0.3,blackout=0"
    with SimRig({"Ann": 1}, seed=11, faults=faults, camera=None) as rig:
        got = asyncio.run(asyncio.wait_for(host(rig), 120))
        report = rig.report()
    assert len(got) == len(set(got)) == n
    assert report["cards_out"] == n  # nothing dealt twice, nothing missed
    injected = report["faults"]
    assert injected["bytes_corrupted"] and injected["frames_duplicated"] and injected["unplugs"]
    assert injected["reboots"] and injected["lost_reboots"] == 0


def test_scenario_rig_deals_exactly_the_replay_cards() -> None:
    scenario = load_scenario(SCENARIOS / "house-split-transfer.json")
    expected = scenario_cards(scenario)
    assert expected[:4] == ["AC", "8S", "9D", "6H"]  # the scenario's own stacking
    with SimRig.for_scenario(scenario, camera=None) as rig:
        assert rig.seats == {name: i + 1 for i, name in enumerate(scenario.players)}

        def pull_all() -> list[str]:
            rig.world.shoe.gate_locked = False
            return [rig.shoe.pull().card or "" for _ in expected]

        assert rig.call(pull_all) == expected


@pytest.mark.parametrize("folder", [".", "not/made/yet"])
def test_sim_hw_command_prints_ports_a_host_can_open(tmp_path: Path, folder: str) -> None:
    """``--link-dir`` may name a folder that does not exist yet (it used to
    crash with FileNotFoundError): it is made, like ``mkdir -p``."""
    link_dir = tmp_path / folder
    proc = subprocess.Popen(
        [sys.executable, "-m", "hardware_sim", "--seats", "Ann,Ben", "--camera", "none",
         "--clock", "fast", "--link-dir", str(link_dir), "--duration", "20"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert proc.stdout is not None
        ports = json.loads(proc.stdout.readline())
        assert ports["shoe"] == str(link_dir / "shoe") and ports["seats"] == {"Ann": 1, "Ben": 2}

        async def host() -> LinkUp:
            async with Shoe.open(ports["shoe"]) as shoe:
                return await _next(shoe, LinkUp)  # type: ignore[return-value]

        assert asyncio.run(host()).info.kind == 1
    finally:
        proc.terminate()
        proc.wait(10)
    assert proc.returncode == 0


@pytest.mark.slow
def test_cards_leaving_the_shoe_are_read_by_the_recognizer() -> None:
    """The camera at the shoe's exit shows each dealt card; vision reads it for real."""
    from vision import Recognizer

    recognizer = Recognizer()
    answered = wrong = 0
    with SimRig({"Ann": 1}, seed=5, camera_preset="normal", camera_mode="overhead") as rig:
        rig.call(lambda: setattr(rig.world.shoe, "gate_locked", False))
        for _ in range(52):
            card = rig.pull_card().card
            reading = recognizer.read(rig.camera.grab())
            if reading.card is not None:
                answered += 1
                wrong += reading.card != card
    assert wrong == 0  # a wrong read corrupts a game: never acceptable here
    assert answered >= 51  # the generic mode promises at least 98 % accuracy


def test_the_simulated_shoe_reports_a_loaded_pack_over_its_pty() -> None:
    """docs/protocol.md section 12: the reference (simulated) shoe has the lid
    switch; the dealer putting the cards back records PACK_LOADED, which the
    host receives after the link is up, and status EMPTY is cleared."""
    from firmware_bridge.host import PackLoaded
    from firmware_bridge.wire import Capability, DeviceStatus

    async def host(rig: SimRig) -> tuple[object, object]:
        async with Shoe.open(rig.shoe_url) as shoe:
            up = await _next(shoe, LinkUp, 10)
            await asyncio.to_thread(rig.collect_cards, shuffle=False)
            return up, await _next(shoe, PackLoaded, 10)

    with SimRig({"Ann": 1}, seed=5, camera=None) as rig:
        up, loaded = asyncio.run(host(rig))
        status = rig.call(lambda: rig.shoe.core.status)
    assert up.info.capabilities & Capability.PACK_SWITCH  # type: ignore[attr-defined]
    assert isinstance(loaded, PackLoaded) and loaded.event_no >= 1
    assert not status & DeviceStatus.EMPTY
