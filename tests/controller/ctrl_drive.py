"""Drive a TableCore through a scenario with device events only (no ports).

The scripted people behave as in the simulator: cards are card-out events plus
camera readings of the pack's next card, decisions are panel button presses
worked out with ``PanelUx.plan`` from what the panel shows.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.core import CardRead, GameSetup, TableCore
from controller.journal import Journal
from controller.rules import (
    BankDecide,
    CardNeed,
    SellBank,
    StackTop,
    StartDeal,
)
from controller.scenario import ScenarioScript, load_scenario, result_json
from firmware_bridge.host import ButtonPressed, CardOut
from firmware_bridge.wire import ADDRESS_DEALER, Button

SCENARIOS = sorted(
    p for p in (Path(__file__).parent.parent / "scenarios").glob("*.json")
    if not p.name.endswith(".expected.json")
)
#: the rules review's own scenarios (``tests/scenarios/own``), many and small
OWN_SCENARIOS = sorted(
    p for p in (Path(__file__).parent.parent / "scenarios" / "own").glob("*.json")
    if not p.name.endswith(".expected.json")
)


def expected(path: Path) -> dict[str, Any]:
    return json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())


def setup_for(path: Path) -> GameSetup:
    sc = load_scenario(path)
    raw = json.loads(path.read_text())
    return GameSetup(sc.preset, tuple(sc.players), sc.banker, sc.seed, raw.get("options") or {})


class Refused(Exception):
    pass


def drive(core: TableCore, path: Path, *, stop_after: int | None = None) -> dict[str, Any]:
    """Play the scenario on ``core``; ``stop_after`` journal rows, stop early."""
    return Driver(core, path).run(stop_after)


class Driver:
    """A resumable scripted table: ``run(rows)`` plays until the journal has ``rows`` rows."""

    def __init__(self, core: TableCore, path: Path) -> None:
        self.core = core
        sc = load_scenario(path)
        self.script = ScenarioScript(sc)
        if sc.cut:
            assert core.stack_top([str(c) for c in sc.cut]).ok
        self.event_no = 0
        self.seen = 0

    def until(self, predicate: Callable[[TableCore], bool]) -> None:
        while not predicate(self.core):
            self.run(self.core.journal.head + 1)

    def run(self, stop_after: int | None = None) -> dict[str, Any]:
        core = self.core
        while stop_after is None or core.journal.head < stop_after:
            if not self.step():
                break
        return result_json(core.state)

    def step(self) -> bool:
        core, script = self.core, self.script
        state = core.state
        if len(state.results) > self.seen:
            self.seen = len(state.results)
            script.finish_deal(state, void=bool(state.results[-1]["void"]))
        need = core.need()
        action = script.answer(state, need)
        if action is None:
            if not isinstance(need, CardNeed):
                return False
            assert not core.gate_locked(), "the gate must be open while a card is due"
            self.event_no += 1
            core.handle(CardOut(self.event_no, 0))
            assert core.gate_locked(), "the gate locks while a card is being read"
            core.handle(CardRead(self.event_no, str(state.pack.peek())))
            return True
        before = core.journal.head
        if isinstance(action, StackTop):
            assert core.stack_top([str(c) for c in action.cards]).ok
        elif isinstance(action, SellBank):
            assert core.sell_bank(action.to, action.price).ok
        elif isinstance(action, StartDeal):
            core.handle(ButtonPressed(Button.NEXT, address=ADDRESS_DEALER))
        elif isinstance(action, BankDecide):
            button = Button.DRAW if action.word == "draw" else Button.STAY
            core.handle(ButtonPressed(button, address=ADDRESS_DEALER))
        else:
            person = getattr(action, "player", None) or state.banker
            assert person is not None
            address = core.addresses[person]
            plan = core.ux.plan(person, action, need, core.legal(), banker=state.banker)
            for button in plan:
                core.handle(ButtonPressed(button, address=address))
        if core.journal.head == before:
            raise Refused(f"{action}: {core.notice}")
        return True


def new_core(path: Path, journal: Journal | None = None) -> TableCore:
    return TableCore(setup_for(path), journal or Journal(":memory:"))
