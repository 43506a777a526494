"""A whole scenario played with the MicroPython reference firmware as the shoe.

The firmware (``firmware_bridge/firmware/``) runs under real MicroPython in
Node behind the shoe's pty (``SimRig(firmware_shoe=True)``); the simulated
dealer's hand pulls each card through the firmware's simulated HAL, so every
CARD_OUT the table hears comes from the firmware's own exit beam and every
refused pull from its own gate. With ``firmware_panels`` the firmware is
behind the panel bus as well: every press is a firmware button, every prompt
a person reads is the firmware's display.

Expected results are not taken from the run: the result JSON must equal what
``pontoon-table replay`` prints for the same file (the rules engine alone, no
hardware) and the scenario's hand-checked ``.expected.json``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main as cli_main
from hardware_sim.devices.firmware_panels import FirmwarePanel, FirmwarePanels
from hardware_sim.devices.firmware_shoe import FirmwareShoe
from hardware_sim.table.scenario_run import ScenarioRun, play_scenario

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

SCENARIOS = Path(__file__).parents[1] / "scenarios"
#: two deals, 26 cards, the cards gathered back into the shoe between them
SCENARIO = SCENARIOS / "house-split-transfer.json"


def replay(path: Path) -> Any:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli_main(["replay", str(path)]) == 0
    return json.loads(out.getvalue())


def cards_in(result: Any) -> int:
    return sum(len(h["cards"]) for d in result["deals"] for h in d["hands"]) + sum(
        len(d["bank"]["cards"]) for d in result["deals"] if d.get("bank"))


def test_a_scenario_runs_to_its_end_with_the_firmware_shoe_and_panels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four players, two deals; shoe and every panel are the firmware."""
    seen: dict[str, Any] = {}
    stop = FirmwareShoe.stop

    def stop_and_count(shoe: FirmwareShoe) -> None:
        if shoe.device is not None:  # what the firmware recorded, before it powers off
            seen["firmware"] = shoe.device.stats()
            seen["world"] = shoe.device.control("world")
            seen["cards_out"] = shoe.world.shoe.cards_out
        stop(shoe)

    async def hook(run: ScenarioRun) -> None:
        seen["emulator_events"] = run.rig.shoe.core.last_event_no

    monkeypatch.setattr(FirmwareShoe, "stop", stop_and_count)
    result = asyncio.run(play_scenario(SCENARIO, firmware=True, firmware_panels=True, hook=hook))

    assert result == replay(SCENARIO)
    assert result == json.loads(SCENARIO.with_suffix(".expected.json").read_text())
    dealt = cards_in(result)
    assert len(result["deals"]) == 2 and dealt == 26
    # every card went through the firmware: one CARD_OUT per card, none forced
    assert seen["cards_out"] == dealt
    assert seen["firmware"]["last_event_no"] == dealt
    assert seen["world"]["pulls_left"] == 0
    assert seen["emulator_events"] == 0  # the emulated shoe never saw a card


def test_sim_scenario_with_the_firmware_shoe_prints_the_replay_json() -> None:
    """The CLI path with the firmware shoe and the emulated panels:
    ``pontoon-table sim --scenario FILE --json --firmware``."""
    path = SCENARIOS / "house-bank-five-card.json"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli_main(["sim", "--scenario", str(path), "--json", "--firmware"])
    assert status == 0
    assert json.loads(out.getvalue()) == replay(path)


def test_sim_scenario_with_firmware_shoe_and_panels_prints_the_replay_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The CLI path: ``pontoon-table sim --scenario FILE --json --firmware
    --firmware-panels``; the presses counted are the firmware's own."""
    path = SCENARIOS / "house-buy-example.json"
    presses: dict[str, int] = {}
    stop = FirmwarePanels.stop

    def stop_and_count(panels: FirmwarePanels) -> None:
        if panels.device is not None:
            for panel in panels.panels.values():
                assert isinstance(panel, FirmwarePanel)
                presses[panel.name] = panels.device.stats(dev=panel.index)["last_event_no"]
        stop(panels)

    monkeypatch.setattr(FirmwarePanels, "stop", stop_and_count)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli_main(["sim", "--scenario", str(path), "--json", "--firmware",
                           "--firmware-panels"])
    assert status == 0
    assert json.loads(out.getvalue()) == replay(path)
    # the dealer's NEXT started the deal, each player pressed at least once:
    # every action went through a firmware panel's buttons
    assert set(presses) == {"Ann", "Ben", "dealer"}
    assert all(n >= 1 for n in presses.values())
