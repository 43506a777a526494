"""End to end through the simulator: emulated shoe and panels over real ptys, the
simulated camera read by the recogniser, the table core and its journal."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ctrl_drive import OWN_SCENARIOS, SCENARIOS, expected

from controller.rules import DecisionNeed
from controller.scenario import ScenarioError
from controller.simulate import ScenarioRun, play_scenario

ROOT = Path(__file__).parent.parent.parent
GOOD = [p for p in SCENARIOS if "exit" not in expected(p)]
HOUSE = ROOT / "tests" / "scenarios" / "house-split-transfer.json"


def play(path: Path, **kwargs: Any) -> dict[str, Any]:
    return asyncio.run(play_scenario(path, **kwargs))


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_scenarios_through_the_full_stack(path: Path) -> None:
    assert play(path) == expected(path)


#: ``shoot-cap-split-fourth-transfer-sale`` caught a SHOOT press beside an open
#: BUY placing the shoot minimum instead of the amount shown
OWN_GOOD = [p for p in OWN_SCENARIOS if "exit" not in expected(p)]


@pytest.mark.slow
@pytest.mark.parametrize("path", OWN_GOOD, ids=lambda p: p.stem)
def test_own_scenarios_through_the_full_stack(path: Path) -> None:
    """The rules review's scenarios, without faults (the shared ones cover faults)."""
    assert play(path) == expected(path)


@pytest.mark.slow
@pytest.mark.parametrize("faults", ["light", "heavy"])
@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_scenarios_survive_faults(path: Path, faults: str) -> None:
    assert play(path, faults=faults) == expected(path)


def test_cli_prints_replays_json_and_replays_errors() -> None:
    error = next(p for p in SCENARIOS if "exit" in expected(p))
    for path in (HOUSE, error):
        replay = _cli("replay", str(path), "--compact")
        sim = _cli("sim", "--scenario", str(path), "--json", "--compact", "--faults", "light")
        assert sim.returncode == replay.returncode
        if replay.returncode == 0:
            assert json.loads(sim.stdout) == json.loads(replay.stdout) == expected(path)
        else:
            assert sim.returncode == 2 and sim.stdout == ""
            assert sim.stderr.strip().splitlines()[-1] == replay.stderr.strip()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )


class Once:
    """A hook that acts once, at the first step where ``when(run)`` holds."""

    def __init__(self, when: Any, act: Any) -> None:
        self.when, self.act = when, act
        self.done = False
        self.seen: list[str] = []

    async def __call__(self, run: ScenarioRun) -> None:
        self.run = run
        hold = run.core.machine.top_hold()
        if hold is not None:
            self.seen.append(hold.reason)
        if not self.done and self.when(run):
            self.done = True
            await self.act(run)


def _deciding(run: ScenarioRun) -> bool:
    return isinstance(run.core.need(), DecisionNeed) and not run.core.in_flight


def test_misdeal_a_card_pulled_past_the_gate_is_put_back() -> None:
    async def force(run: ScenarioRun) -> None:
        outcome = await asyncio.to_thread(run.rig.pull_card, force=True)
        assert outcome.forced and outcome.card
        # generous: on a loaded CI machine the camera read behind the alarm can take seconds
        for _ in range(2000):
            if run.core.alarms:
                break
            await asyncio.sleep(0.01)
        assert run.core.alarms, "no misdeal alarm 20 s after a card was pulled past the gate"
        alarm = next(iter(run.core.alarms.values()))
        assert alarm.kind == "misdeal" and alarm.card == outcome.card
        assert {c["id"] for c in alarm.choices} == {"return", "void"}
        # The dealer puts the card back on top of the shoe, then answers the alarm.
        run.rig.call(lambda: run.rig.world.shoe.source.cards.appendleft(outcome.card))
        result = await run.table.misdeal("return")
        assert result.ok, result.message

    hook = Once(_deciding, force)
    assert play(HOUSE, hook=hook) == expected(HOUSE)
    assert hook.done and hook.run.core.counters["misdeals"] == 1


def test_unsure_card_is_confirmed_by_the_dealer_not_guessed() -> None:
    async def blind(run: ScenarioRun) -> None:
        run.rig.blackout(40)

    hook = Once(lambda run: run.core.phase() == "second_card", blind)
    assert play(HOUSE, hook=hook) == expected(HOUSE)
    assert hook.done and hook.run.core.counters["unsure"] >= 1


def test_shoe_reboot_mid_deal_pauses_and_resumes_with_nothing_lost() -> None:
    async def reboot(run: ScenarioRun) -> None:
        for _ in range(1000):
            if run.rig.reboot("shoe", lossy=False):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the shoe never became safe to reboot")

    hook = Once(_deciding, reboot)
    result = play(HOUSE, hook=hook)
    assert result == expected(HOUSE)
    assert hook.done and hook.run.core.counters["reboots"] == 1


def test_unplugged_panels_pause_the_table_until_they_are_back() -> None:
    async def unplug(run: ScenarioRun) -> None:
        run.rig.unplug("panels", seconds=2.0)
        for _ in range(400):
            if "link_down" in run.core.machine.holds:
                break
            await asyncio.sleep(0.01)
        assert "link_down" in run.core.machine.holds
        assert run.core.gate_locked()

    hook = Once(_deciding, unplug)
    assert play(HOUSE, hook=hook) == expected(HOUSE)
    assert "link_down" in hook.seen


def test_illegal_decision_ends_with_replays_error() -> None:
    error = next(p for p in SCENARIOS if "exit" in expected(p))
    with pytest.raises(ScenarioError) as caught:
        play(error)
    for word in expected(error)["stderr_mentions"]:
        assert word in str(caught.value)
