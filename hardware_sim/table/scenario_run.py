"""A scenario played through the whole stack: the simulated hardware, the real
drivers, the camera and recogniser, the table core and the journal.

The scripted people act only through the hardware: the dealer pulls a card
from the emulated shoe when the table wants one and the gate is open (the
simulated camera sees it, the recogniser reads it), players press their
emulated panel's buttons (``hardware_sim.people.perform_on_panel``, which
reads the shown amount from the panel text), the dealer presses NEXT on the
dealer panel.  What they *want* to do comes from the controller's
``ScenarioScript``, the same script ``replay`` follows, so the result JSON is
the same.  A decision the rules refuse stops the run with replay's one-line
error (:class:`controller.scenario.ScenarioError`).

Crash recovery: with a journal that already holds this game, the table is
rebuilt from it, the script is fast-forwarded over the journalled actions and
the emulated shoe is rebuilt from the journal too (the cards already dealt are
taken out of it; a card pulled but never journalled is back in the shoe).
The simulated hardware lives in the controller's process, so it dies with it
and is rebuilt: the shoe's pack position is physical state that the journal
records card by card.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from controller.core import GameSetup, TableCore
from controller.diagnostics import install_state_dump
from controller.journal import Journal
from controller.rules import (
    Action,
    BankDecide,
    CardNeed,
    DealCard,
    GameState,
    IllegalAction,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    SellBank,
    StackTop,
    StartDeal,
    action_from_dict,
    apply,
    pending,
)
from controller.scenario import (
    Scenario,
    ScenarioError,
    ScenarioScript,
    error_line,
    load_scenario,
    result_json,
)
from controller.shoe_feed import JournalledShoe
from controller.snapshot import build_snapshot
from controller.table import Table

#: debug lines follow the scripted people's steps: a stalled soak game's story
log = logging.getLogger(__name__)

STEP_TIMEOUT = 30.0
#: a person whose action the table has not taken after this long looks again
PRESS_AGAIN_AFTER = 10.0
#: called before every step of a run (tests inject faults and mistakes with it)
Hook = Callable[["ScenarioRun"], Awaitable[None]]


def scenario_setup(path: str | Path, scenario: Scenario) -> GameSetup:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    return GameSetup(
        preset=scenario.preset,
        players=tuple(scenario.players),
        banker=scenario.banker,
        seed=scenario.seed,
        options=dict(raw.get("options") or {}),
        table=Path(path).stem,
    )


def fast_forward(script: ScenarioScript, setup: GameSetup, actions: list[dict[str, Any]]) -> int:
    """Advance the script over journalled actions; returns how many results it has seen."""
    state = setup.start()
    seen = 0
    for body in actions:
        action = action_from_dict(body)
        if not isinstance(action, DealCard):
            need = pending(state)
            script.answer(state, need)
        apply(state, action)
        if len(state.results) > seen:
            seen = len(state.results)
            script.finish_deal(state, void=bool(state.results[-1]["void"]))
    return seen


class ScenarioRun:
    """Drives one scenario through a started :class:`Table` and ``SimRig``."""

    def __init__(self, scenario: Scenario, table: Table, rig: Any, script: ScenarioScript,
                 seen: int, hook: Hook | None = None) -> None:
        self.hook = hook
        self.sc = scenario
        self.table = table
        self.core = table.core
        self.rig = rig
        self.script = script
        self.seen = seen
        #: cards this dealer pulled; one more only once the table has seen them all
        self.pulled = 0

    async def _wait(self, generation: int, timeout: float = 0.05) -> int:
        try:
            return await self.table.wait_change(generation, timeout)
        except TimeoutError:
            return self.table.generation

    def _state(self) -> GameState:
        return self.core.state

    async def run(self) -> dict[str, Any]:
        gen = self.table.generation
        deadline = time.monotonic() + STEP_TIMEOUT
        while True:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the table made no progress for {STEP_TIMEOUT:.0f} s at "
                    f"{self.core.phase()} ({build_snapshot(self.core)['next']})"
                )
            if self.hook is not None:
                await self.hook(self)
            state = self._state()
            if len(state.results) > self.seen:
                self.seen = len(state.results)
                self.script.finish_deal(state, void=bool(state.results[-1]["void"]))
            if not await self._resolve_holds():
                gen = await self._wait(gen)
                continue
            if self.core.in_flight:
                gen = await self._wait(gen)
                continue
            need = self.core.need()
            if isinstance(need, CardNeed):
                if await self._deal():
                    deadline = time.monotonic() + STEP_TIMEOUT
                gen = await self._wait(gen)
                continue
            action = self.script.answer(state, need)
            if action is None:
                return result_json(state)
            head = self.core.journal.head
            log.debug("script: %s (journal head %d)", action, head)
            await self._perform(action)
            again_at = time.monotonic() + PRESS_AGAIN_AFTER
            while self.core.journal.head == head:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{action} was never taken by the table")
                await self._resolve_holds()
                if time.monotonic() > again_at and self._nothing_happened(action):
                    # The person looks up: the same prompt, nothing on its way;
                    # a last look a moment later (a press the host has just
                    # acknowledged is still being handled), then again.
                    again_at = time.monotonic() + PRESS_AGAIN_AFTER
                    await asyncio.sleep(0.5)
                    if self.core.journal.head == head and self._nothing_happened(action):
                        log.debug("script: %s not taken after %.0f s; again",
                                  action, PRESS_AGAIN_AFTER)
                        await self._perform(action, again=True)
                    continue
                gen = await self._wait(gen)
            deadline = time.monotonic() + STEP_TIMEOUT

    async def _resolve_holds(self) -> bool:
        """What the simulated dealer does when the table holds; True when it runs."""
        core = self.core
        if core.machine.running:
            return True
        if core.unsure is not None and "link_down" not in core.machine.holds:
            card = self.rig.call(lambda: self.rig.world.under_camera)
            if card is not None:
                await self.table.command("confirm_card", {"code": str(card)})
        await self._answer_reboot()
        return core.machine.running

    async def _answer_reboot(self) -> None:
        """The dealer answers a shoe-reboot alarm: the rig reboots a shoe only
        when nothing is unacknowledged (unless ``lossy_reboot``), so the dealer
        who checks the cards on the table finds the display right."""
        core = self.core
        first = next(iter(core.alarms.values()), None)
        if (first is not None and first.kind == "reboot" and not self.rig.faults.lossy_reboot
                and "link_down" not in core.machine.holds):
            await self.table.command("misdeal", {"choice": "continue"})

    async def _deal(self) -> bool:
        """Pull a card when the table wants one and the physical gate is open."""
        if self.core.gate_locked() or self.core.cards_out_seen < self.pulled:
            return False
        if await asyncio.to_thread(self.rig.shoe_gate_locked):
            return False
        outcome = await asyncio.to_thread(self.rig.pull_card)
        log.debug("dealer pulls a card: %s", outcome)
        if outcome.card is not None:
            self.pulled += 1
        return outcome.card is not None

    def _nothing_happened(self, action: Action) -> bool:
        """The table runs, still wants ``action`` and its panel holds no press
        on its way: what the person did was lost (e.g. refused in a pause the
        panel never showed), so doing it again cannot count twice."""
        from hardware_sim.people import panel_holds_events

        core = self.core
        if not core.machine.running or core.in_flight or not core.is_legal(action):
            return False
        if isinstance(action, StackTop | SellBank):
            return False  # display commands: answered at once, never lost
        if isinstance(action, StartDeal):
            panel = self.rig.panels.dealer
        else:
            panel = self.rig.panels.seat(_person(action, self._state()))
        return not self.rig.call(lambda: panel is None or panel.offline
                                 or panel_holds_events(panel))

    async def _perform(self, action: Action, *, again: bool = False) -> None:
        state = self._state()
        if not self.core.is_legal(action):
            try:
                apply(state.copy(), action)
            except IllegalAction as exc:
                raise ScenarioError(error_line(self.script, state, action, exc)) from None
            raise ScenarioError(f"{action} is not possible now")
        if isinstance(action, StackTop):
            cards = [str(c) for c in action.cards]
            result = await self.table.command("stack_top", {"cards": cards})
        elif isinstance(action, SellBank):
            result = await self.table.command(
                "sell_bank", {"to": action.to, "price": str(action.price)}
            )
        elif isinstance(action, StartDeal):
            last = state.results[-1] if state.results else {}
            if not again:  # the cards were gathered the first time
                await asyncio.to_thread(self.rig.collect_cards,
                                        shuffle=bool(last.get("shuffle")))
            await asyncio.to_thread(self.rig.perform, "dealer", action)
            return
        else:
            person = _person(action, state)
            try:
                # the person waits for the prompt; a reboot alarm meanwhile holds
                # the table until the dealer answers it, so the dealer looks on
                pressing = asyncio.ensure_future(
                    asyncio.to_thread(self.rig.perform, person, action))
                while not pressing.done():
                    await asyncio.wait({pressing}, timeout=0.05)
                    await self._answer_reboot()
                await pressing
            except TimeoutError as exc:
                raise TimeoutError(f"{exc}; {self._table_side(person, action)}") from None
            return
        if not result.ok:
            raise ScenarioError(result.message)


    def _table_side(self, person: str, action: Action) -> str:
        """What the table wanted while ``person`` waited in vain: was the prompt
        never asked for, asked for but not sent, or sent but not shown?"""
        core = self.core
        address = core.addresses.get(person)
        wanted, sent = self.table.pushed().get(f"panel {address}", (None, None))
        bus = self.table.bus
        link = None if address is None or bus is None else bus.seats.get(address)
        session = getattr(link, "session", None)
        return (
            f"the table: {core.phase()}, running {core.machine.running}, "
            f"holds {sorted(core.machine.holds)}, in flight {list(core.in_flight)}, "
            f"{action} legal {core.is_legal(action)}, panel {address} wanted "
            f"{wanted!r}, sent {sent!r}, "
            f"link {getattr(getattr(session, 'state', None), 'name', None)}"
        )


def _person(action: Action, state: GameState) -> str:
    if isinstance(action, PlaceStake | PlaceShoot):
        return action.player
    if isinstance(action, PutKitty | BankDecide):
        assert state.banker is not None
        return state.banker
    player = getattr(action, "player", None)
    assert isinstance(player, str)
    return player


async def play_scenario(
    path: str | Path,
    *,
    faults: str = "none",
    journal_path: str | Path | None = None,
    recover: bool = False,
    frames: int = 3,
    hook: Hook | None = None,
    rig_options: dict[str, Any] | None = None,
    firmware: bool = False,
    firmware_panels: bool = False,
) -> dict[str, Any]:
    """Play ``path`` through the full simulated stack; the result JSON (or ScenarioError).

    ``firmware``: the MicroPython reference firmware is the shoe
    (``SimRig(firmware_shoe=True)``) instead of the emulator; ``firmware_panels``:
    the panels too."""
    from firmware_bridge.drivers import PanelBus, Shoe
    from hardware_sim.camera.profile_cache import camera_reader
    from hardware_sim.rig import SimRig

    scenario = load_scenario(path)
    setup = scenario_setup(path, scenario)
    journal = Journal(journal_path or ":memory:", durable=journal_path is not None, check=False)
    if recover:
        from controller.journal import JournalBroken

        try:
            journal.verify()
        except JournalBroken as exc:
            journal.recover(exc.last_good)
    journal.verify()
    core = TableCore(setup, journal)
    script = ScenarioScript(scenario)
    actions = journal.actions() if journal.game else []
    seen = fast_forward(script, setup, actions) if actions else 0
    dealt = sum(1 for a in actions if a.get("type") == "DealCard")
    options = dict(rig_options or {})
    if firmware:
        options["firmware_shoe"] = True
    if firmware_panels:
        options["firmware_panels"] = True
    rig = SimRig.for_scenario(scenario, faults=faults, **options)
    source = rig.world.shoe.source
    for _ in range(dealt):
        source.draw()
    if scenario.cut and not actions:
        core.stack_top([str(c) for c in scenario.cut])
    with rig:
        seats = list(range(1, len(scenario.players) + 1))
        async with Shoe.open(rig.shoe_url) as shoe, PanelBus.open(
            rig.bus_url, seats=seats, reply_timeout=0.005
        ) as bus:
            table = Table(
                core, shoe=JournalledShoe(shoe, core, None), bus=bus, camera=rig.camera,
                recognizer=camera_reader(rig.camera), frames=frames,
            )
            async with table:
                install_state_dump(table)
                run = ScenarioRun(scenario, table, rig, script, seen, hook)
                try:
                    return await run.run()
                finally:
                    journal.close()
