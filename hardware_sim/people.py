"""Simulated people: players, bots, the banker and the dealer.

People act only on what a real person could observe and only with their
hands: a player reads their own panel's lamps and text and presses its
buttons; the dealer watches the shoe's gate and lamps (and, when given one,
the dealer display's snapshot), pulls cards and presses the dealer panel.
Nobody here decides a rule: the lamps show exactly the legal decisions
(``controller.panel_ux``), bots choose among the lit buttons, and scripted
players are told the engine action to make (by the controller's
``ScenarioScript``) and only work out the presses.

How a decision becomes presses, in one place (the panel UX of
``controller/panel_ux.py``; :func:`controller.panel_ux.presses_for` computes it):

=====================  ===============================================  ==================
engine action          presses on the person's seat panel               waits for lamp
=====================  ===============================================  ==================
PlaceStake(p, n)       STAKE_UP/STAKE_DOWN from the shown amount, CONFIRM  CONFIRM ("Stake")
PlaceShoot(p, n)       STAKE_UP/STAKE_DOWN, CONFIRM (0 = no bet)        CONFIRM ("Shoot")
PutKitty(n)            banker: STAKE_UP/STAKE_DOWN, CONFIRM             CONFIRM ("Kitty")
Decide twist/stick/    one press of TWIST/STICK/SPLIT/DOUBLE/INSURE/    that button
split/double/...       EVEN_MONEY
Decide buy n/shoot n   the word's button first if the dial shows the    BUY / SHOOT
                       other word (``Buy 3? BUY`` while shooting), then
                       STAKE_UP/STAKE_DOWN, then BUY or SHOOT
BankDecide draw/stay   banker's TWIST / STICK (dealer panel DRAW/STAY)  TWIST / STICK
StartDeal              dealer panel NEXT                                NEXT
=====================  ===============================================  ==================

The shown amount is read from the panel's text (``"Stake 2? CONFIRM"``,
``"Buy 3? BUY"``...), as a person reads it, and read again after every
press: :func:`perform_on_panel` is closed loop (one press, then look), so a
press lost on an offline or rebooting panel, or refused while the table was
paused, is made again, and a slow one is never doubled.

Example (inside a started :class:`~hardware_sim.rig.SimRig`)::

    rig.perform("Ann", PlaceStake("Ann", 3))        # scripted: waits for the prompt, presses
    rig.start_bots({"Ben": "stick17", "Cat": "random"})
    rig.start_dealer(mistakes=DealerMistakes(wrong_seat=0.05))
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from controller.panel_ux import presses_for
from controller.rules import (
    Action,
    Amount,
    BankDecide,
    Decide,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    StartDeal,
)
from firmware_bridge.wire import Button
from hardware_sim.clock import Clock
from hardware_sim.devices.panels import Panel, PanelBus
from hardware_sim.devices.shoe import ShoeEmulator
from hardware_sim.world import World


class Premises(Protocol):
    """What the simulated people touch: the table, its devices and the time.

    A :class:`hardware_sim.rig.SimRig` is one; naming only these keeps the
    people below the rig that starts them (the rig imports this module, never
    the other way round).
    """

    @property
    def clock(self) -> Clock: ...

    @property
    def panels(self) -> PanelBus: ...

    @property
    def shoe(self) -> ShoeEmulator: ...

    @property
    def world(self) -> World: ...

    @property
    def seats(self) -> dict[str, int]: ...

#: debug lines say what each person saw and did: a stalled soak game's story
log = logging.getLogger(__name__)

#: the prompt words a panel's text uses for an amount being chosen
_AMOUNT = re.compile(r"\b(Stake|Shoot|Kitty|Buy)\s+(\d+(?:\.\d+)?)")
#: a refused step names the amount it stopped at (line 2 holds 16 characters)
_TOTAL = re.compile(r"\bH(\d+)\s+(\d+)\s*$", re.MULTILINE)

DECISION_BUTTONS = frozenset(
    {
        Button.TWIST,
        Button.BUY,
        Button.STICK,
        Button.SPLIT,
        Button.DOUBLE,
        Button.SHOOT,
        Button.INSURE,
        Button.EVEN_MONEY,
    }
)


def _number(text: str) -> Amount:
    value = Fraction(text)
    return int(value) if value.denominator == 1 else value


def shown_amount(text: str) -> tuple[str, Amount] | None:
    """The amount a panel shows and what it is for: ``("stake", 2)``."""
    m = _AMOUNT.search(text)
    if m is None:
        return None
    return m.group(1).lower(), _number(m.group(2))


def shown_total(text: str) -> int | None:
    """The hand total on a panel's first line (``"Ann H1 18"``), if shown."""
    m = _TOTAL.search(text.split("\n")[0])
    return int(m.group(2)) if m else None


def _topic(action: Action) -> str | None:
    if isinstance(action, PlaceStake):
        return "stake"
    if isinstance(action, PlaceShoot):
        return "shoot"
    if isinstance(action, PutKitty):
        return "kitty"
    if isinstance(action, Decide) and action.word in ("buy", "shoot"):
        return action.word
    return None


async def _changed(panel: Panel, timeout: float) -> None:
    """Wait until the host changes ``panel``'s lamps or text."""
    event = asyncio.Event()

    def _set(_: Panel) -> None:
        event.set()

    panel.listeners.append(_set)
    try:
        async with asyncio.timeout(timeout):
            await event.wait()
    finally:
        panel.listeners.remove(_set)


async def wait_for_prompt(
    panel: Panel, ready: Callable[[Panel], bool], timeout: float = 10.0
) -> None:
    """Wait until ``ready(panel)`` (e.g. the CONFIRM lamp lit); TimeoutError otherwise."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not ready(panel):
        left = deadline - loop.time()
        if left <= 0:
            raise TimeoutError(
                f"{panel.name}'s panel never showed the prompt (lamps "
                f"{sorted(b.name for b in panel.lit_buttons())}, text {panel.text!r})"
            )
        try:
            await _changed(panel, left)
        except TimeoutError:
            continue


#: a person presses again when a press shows no effect for this long (seconds)
EFFECT_TIMEOUT = 2.5
#: after the panel was offline or the table paused, how long the panel must show
#: the same thing before a person trusts it (the host refreshes a panel that comes
#: back before the events it kept are delivered: the first view can be stale)
SETTLE = 1.5
#: a committing press is repeated without any sign of loss only after this long
LOST_TIMEOUT = 8.0
#: an amount step that shows nothing (e.g. the same refusal again) is retried sooner:
#: a late step only moves the amount, which is read again before committing
STEP_LOST_TIMEOUT = 4.0


class _Watch:
    """What a person notices on a panel: every change, and any sign of trouble.

    A sign of trouble is the panel's offline pattern, the "Table paused" text
    (shown while the table holds) or a blank panel (just back, not yet
    refreshed): while one shows, a press may have been ignored or refused.
    """

    def __init__(self, panel: Panel) -> None:
        self.panel = panel
        self.changes = 0
        self.troubled = False
        self._event = asyncio.Event()
        panel.listeners.append(self._seen)
        self._seen(panel)

    def close(self) -> None:
        with contextlib.suppress(ValueError):
            self.panel.listeners.remove(self._seen)

    def _seen(self, panel: Panel) -> None:
        self.changes += 1
        if _troubled(panel):
            self.troubled = True
        self._event.set()

    def view(self) -> tuple[int, str]:
        return self.panel.lights, self.panel.text

    async def change(self, timeout: float) -> bool:
        """Wait for the next change of the panel; False on timeout."""
        self._event.clear()
        try:
            async with asyncio.timeout(max(timeout, 0.0)):
                await self._event.wait()
        except TimeoutError:
            return False
        return True

    async def quiet(self, period: float, deadline: float) -> None:
        """Wait until the panel has shown the same thing for ``period`` (or deadline)."""
        loop = asyncio.get_running_loop()
        while loop.time() < deadline:
            if not await self.change(min(period, deadline - loop.time())):
                return


def _troubled(panel: Panel) -> bool:
    text = panel.text
    return (
        panel.offline
        or "Table paused" in text
        or "Table held" in text
        or (not panel.lights and not text)
    )


def _step_towards(shown: Amount, target: Amount) -> Button:
    return Button.STAKE_UP if target > shown else Button.STAKE_DOWN


async def perform_on_panel(
    rig: Premises,
    person: str,
    action: Action,
    budget: float = 60.0,  # patient: outages last seconds
) -> list[Button]:
    """``person`` makes ``action`` by pressing buttons, once their panel asks for it.

    Closed loop, as a person at a table: one press, then look at the panel
    until it shows the effect (amount changed, the table moved on, or a
    refusal); an amount is corrected with STAKE_UP / STAKE_DOWN until the
    panel shows the wanted amount for the wanted word, and only then comes
    the committing press (CONFIRM, BUY, SHOOT, TWIST...).  A committing press
    is made again only when the panel went offline or the table paused after
    it and the panel, once refreshed and settled, shows exactly what it showed
    when it was pressed (the press died with a rebooted panel or was refused
    while paused); a press that is merely slow is never doubled.

    Returns the presses made. ``StartDeal`` is the dealer panel's NEXT; a
    ``BankDecide`` uses the banker's own seat panel (TWIST = draw, STICK = stay),
    or the dealer panel's DRAW / STAY when ``person`` is ``"dealer"``.
    TimeoutError when nothing worked within ``budget`` seconds.
    """
    target: Amount | None = None
    if isinstance(action, StartDeal):
        panel = rig.panels.seat("dealer")
        final = Button.NEXT
    elif isinstance(action, BankDecide) and person == "dealer":
        panel = rig.panels.seat("dealer")
        final = Button.DRAW if action.word == "draw" else Button.STAY
    else:
        panel = rig.panels.seat(person)
        final = presses_for(action, None)[-1]
        if _topic(action) is not None:
            target = getattr(action, "amount", None)
    topic = _topic(action)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + budget
    made: list[Button] = []
    watch = _Watch(panel)

    def ready(p: Panel) -> bool:
        if p.offline or final not in p.lit_buttons():
            return False
        if topic is None or isinstance(action, Decide):
            return True
        shown = shown_amount(p.text)
        return shown is None or shown[0] == topic  # None: a refusal covers the amount

    def press(button: Button) -> None:
        log.debug("%s presses %s for %s", person, button.name, action)
        panel.press(button)  # the event waits in the panel for the host's next poll
        made.append(button)

    try:
        while True:
            if loop.time() > deadline:
                raise TimeoutError(
                    f"{person} could not make {action} on the panel (lamps "
                    f"{sorted(b.name for b in panel.lit_buttons())}, text {panel.text!r})"
                )
            try:
                await wait_for_prompt(panel, ready, max(deadline - loop.time(), 0.0))
            except TimeoutError as exc:
                raise TimeoutError(f"{person} could not make {action}: {exc}") from None
            if watch.troubled:
                # Back from offline or a pause: let the host refresh the panel and
                # deliver what it kept before believing what it shows.
                log.debug("%s waits for the panel to settle", person)
                watch.troubled = False
                await watch.quiet(SETTLE, deadline)
                continue
            await rig.clock.pause(0.3)  # a person's reaction time
            if not ready(panel) or watch.troubled:
                continue
            shown = shown_amount(panel.text)
            if topic is not None and target is not None and panel.name != "dealer":
                if shown is None and isinstance(action, Decide) and not _covered(panel.text):
                    pass  # no dial for this decision: the rules fix the amount
                elif shown is None:
                    # A refusal covers the amount: a step (never a commit) shows the
                    # amount and its word again.
                    before = watch.view()
                    press(_reveal_step(panel.text, target, made))
                    await _await_effect(watch, before, deadline, STEP_LOST_TIMEOUT)
                    continue
                elif shown[0] != topic:
                    # The dial shows the other word (Buy while we shoot): move it.
                    before = watch.view()
                    press(final)
                    await _await_effect(watch, before, deadline)
                    continue
                elif shown[1] != target:
                    # One step at a time, each seen on the panel before the next: a
                    # slow step is waited for, not doubled, so the amount never
                    # overshoots behind the person's back.
                    before = watch.view()
                    press(_step_towards(shown[1], target))
                    await _await_effect(watch, before, deadline, STEP_LOST_TIMEOUT)
                    continue
            # The committing press.
            before = watch.view()
            press(final)
            if await _await_effect(watch, before, deadline):
                log.debug("%s sees %s taken", person, action)
                return made
            log.debug("%s sees no effect of %s: looks again", person, final.name)
    finally:
        watch.close()


def _reveal_step(text: str, target: Amount, made: list[Button]) -> Button:
    """A step to bring the dial back from under a message (a refusal at the
    dial's limit names its amount, ``Buy 2: min``, so it never hides it):
    alternate, so one of two presses is allowed."""
    return Button.STAKE_DOWN if made[-1:] == [Button.STAKE_UP] else Button.STAKE_UP


def _covered(text: str) -> bool:
    """True when line 2 is a message rather than a prompt (the amount is hidden)."""
    line2 = text.split("\n", 1)[1] if "\n" in text else ""
    return bool(line2) and "?" not in line2 and line2 not in ("Your turn",)


async def _await_effect(
    watch: _Watch, before: tuple[int, str], deadline: float, lost_after: float = LOST_TIMEOUT
) -> bool:
    """After a committing press: True once the panel shows the table took it.

    False when the press must be made again: the panel went offline or the
    table paused and, refreshed and settled, the panel shows exactly what it
    showed before the press; or nothing at all happened for LOST_TIMEOUT; or
    the table refused (line 1 and lamps unchanged, a message on line 2).
    """
    loop = asyncio.get_running_loop()
    watch.troubled = False
    pressed_at = loop.time()
    while loop.time() < deadline:
        changed = await watch.change(min(EFFECT_TIMEOUT, deadline - loop.time()))
        now_view = watch.view()
        if watch.troubled:
            if _troubled(watch.panel):
                continue  # still offline or paused: keep looking
            await watch.quiet(SETTLE, deadline)
            if _troubled(watch.panel):
                continue
            watch.troubled = False
            if watch.view() == before:
                if await _press_in_flight(watch, deadline):
                    continue  # the panel kept it and just handed it over: look again
                log.debug("%s panel back, the press left no trace", watch.panel.name)
                return False  # back, and the press left no trace: press again
            return not _refused(before, watch.view())
        if not changed:
            if now_view == before and loop.time() - pressed_at > lost_after:
                if await _press_in_flight(watch, deadline):
                    continue
                log.debug("%s panel: nothing for %.1f s after the press",
                          watch.panel.name, loop.time() - pressed_at)
                return False
            continue
        if now_view == before:
            continue
        await watch.quiet(0.2, deadline)
        if watch.troubled:
            continue
        if _refused(before, watch.view()):
            # Text and lamps are separate commands: new text under the old lamps
            # looks like a refusal for a moment.  Believe it once it has settled.
            await watch.quiet(SETTLE, deadline)
            if watch.troubled:
                continue
        if _refused(before, watch.view()):
            log.debug("%s panel refused: %r", watch.panel.name, watch.panel.text)
            return False
        return True
    return False


def panel_holds_events(panel: Any) -> bool:
    """The panel still holds an event (a press) the host has not acknowledged:
    it is on its way, and pressing again would count twice.  (A person sees
    this as the panel's busy light; the emulator knows it exactly.)"""
    holds = getattr(panel, "safe_to_reboot", True)
    return not holds


async def _press_in_flight(watch: _Watch, deadline: float) -> bool:
    """Wait while the panel still holds an unacknowledged press; True when it
    held one (the caller looks at the panel again instead of pressing)."""
    loop = asyncio.get_running_loop()
    held = False
    while panel_holds_events(watch.panel) and loop.time() < deadline:
        held = True
        await asyncio.sleep(0.05)
    if held:
        await watch.quiet(SETTLE, deadline)
    return held


def _refused(before: tuple[int, str], after: tuple[int, str]) -> bool:
    """The same prompt with a message in place of the amount: the table said no."""
    if before[0] != after[0]:
        return False
    line1 = before[1].split("\n", 1)[0]
    return after[1].split("\n", 1)[0] == line1 and _covered(after[1])


# -- bots --------------------------------------------------------------------------------

STRATEGIES = ("stick16", "stick17", "buy11", "random")


@dataclass
class Bot:
    """A player (or player-banker) who presses lit buttons by a simple strategy.

    ``stick16`` / ``stick17``: twist (or buy, if twisting is not lit) below
    the number, stick from it; ``buy11``: buy whenever the hand makes 11 or
    less, else as stick17; ``random``: any lit decision. Stakes, shoot bets
    and kitties are confirmed at the shown amount (``random`` moves it a
    little first); between deals a banker adds one step to the kitty now and
    then. As banker, draws below 17.
    """

    rig: Premises
    seat: str
    strategy: str = "stick17"
    seed: int = 0
    think: float = 1.0
    stats: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ValueError(f"unknown bot strategy {self.strategy!r}; choose {STRATEGIES}")
        self.rng = random.Random(f"{self.seed}:{self.seat}")
        self.panel = self.rig.panels.seat(self.seat)

    def _count(self, what: str) -> None:
        self.stats[what] = self.stats.get(what, 0) + 1

    def choose(self, lit: frozenset[Button], text: str) -> list[Button]:
        """The presses for what the panel shows now (empty: nothing to do)."""
        if not lit:
            return []
        decisions = lit & DECISION_BUTTONS
        if Button.CONFIRM in lit and not decisions - {Button.SHOOT}:
            presses: list[Button] = []
            if self.strategy == "random" and self.rng.random() < 0.5:
                presses.append(Button.STAKE_UP if self.rng.random() < 0.7 else Button.STAKE_DOWN)
            shown = shown_amount(text)
            if shown is not None and shown[0] == "shoot":
                presses = []  # no shoot bet: confirm the 0 shown
            if shown is not None and shown[0] == "kitty" and shown[1] == 0:
                # Between deals the banker *may* add to the kitty; the dial
                # starts at 0, which CONFIRM cannot put.  Now and then a
                # banker tops it up by one step.
                return [Button.STAKE_UP, Button.CONFIRM] if self.rng.random() < 0.25 else []
            return [*presses, Button.CONFIRM]
        if not decisions:
            return []
        if self.strategy == "random":
            return [self.rng.choice(sorted(decisions))]
        total = shown_total(text)
        banker = "Bank" in text
        target = 17 if self.strategy in ("stick17", "buy11") or banker else 16
        if total is None:
            total = target  # cannot read a total: be careful
        if self.strategy == "buy11" and total <= 11 and Button.BUY in lit:
            return [Button.BUY]
        if total < target:
            for b in (Button.TWIST, Button.BUY, Button.STICK):
                if b in lit:
                    return [b]
        for b in (Button.STICK, Button.TWIST, Button.BUY):
            if b in lit:
                return [b]
        return [sorted(decisions)[0]]

    async def run(self) -> None:
        acted = -1
        while True:
            if self.panel.version != acted and not self.panel.offline:
                presses = self.choose(self.panel.lit_buttons(), self.panel.text)
                if presses:
                    acted = self.panel.version
                    await self.rig.clock.pause(self.think * (0.5 + self.rng.random()))
                    for button in presses:
                        self.panel.press(button)
                        self._count(button.name.lower())
                    # wait for the table to move on before acting again
                    await _wait_quiet(self.panel, acted)
                    continue
            with contextlib.suppress(TimeoutError):
                await _changed(self.panel, 3600)


async def _wait_quiet(panel: Panel, acted: int, settle: float = 0.02) -> None:
    """Wait for the lamps to change after our presses (the table took them)."""
    lamps = panel.lights
    while panel.lights == lamps:
        try:
            await _changed(panel, 2.0)
        except TimeoutError:
            return  # refused, or the same prompt again: look once more
    await asyncio.sleep(0)


# -- the dealer ------------------------------------------------------------------------------


@dataclass
class DealerMistakes:
    """Probabilities of a trainee dealer's mistakes; all zero by default."""

    wrong_seat: float = 0.0
    draw_while_locked: float = 0.0
    force_gate: float = 0.5
    """when drawing while locked: chance the card is pulled past the gate"""
    forget_pontoon: float = 0.0
    wrong_payout: float = 0.0

    @classmethod
    def parse(cls, text: str) -> DealerMistakes:
        """``"wrong_seat=0.05,draw_while_locked=0.01"``."""
        values: dict[str, float] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, _, raw = part.partition("=")
            if key not in cls.__dataclass_fields__:
                raise ValueError(f"unknown dealer mistake {key!r}; known: "
                                 f"{', '.join(cls.__dataclass_fields__)}")
            values[key] = float(raw)
        return cls(**values)


#: how long a NEXT lamp left lit after a card was pulled is taken as stale (seconds)
STALE_NEXT = 3.0


@dataclass
class SimDealer:
    """Deals the card the table asks for, whenever the shoe's gate lets it.

    One card per opening of the gate: after pulling, the dealer waits until
    the controller has taken the card (the gate locks, or, with a dealer
    display ``view``, its card count catches up) before pulling again, as a
    dealer waits for the shoe's green lamp. With ``view`` (a callable returning
    the latest ``TableSnapshot``) the dealer also knows the seat each card is
    for, the pontoons to expose and the payouts, so those mistakes can be made.
    Between deals (NEXT lit on the dealer panel) it gathers the cards back
    into the shoe and, with ``press_next``, presses NEXT.
    """

    rig: Premises
    mistakes: DealerMistakes = field(default_factory=DealerMistakes)
    view: Callable[[], dict[str, Any]] | None = None
    press_next: bool = False
    pace: float = 1.5
    seed: int = 0
    stats: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = random.Random(f"dealer:{self.seed}")
        self._wake = asyncio.Event()
        self.pulled = 0
        self._locks_at_pull = -1  # the shoe's gate_locks when the last card was pulled
        #: the dealer panel's version when NEXT was last pressed: until the table
        #: answers (its lamps change), the NEXT still lit is the old one
        self._next_pressed_at = -1
        #: cards pulled when NEXT last lit up, and when: a card pulled since means
        #: the next deal has begun and the lamp is stale (text and lamps reach the
        #: panel as separate commands, the lamps a poll or two later)
        self._next_lit: tuple[int, float] | None = None

    def _dealer_panel_changed(self, panel: Panel) -> None:
        lit = Button.NEXT in panel.lit_buttons()
        if not lit:
            self._next_lit = None
        elif self._next_lit is None:
            self._next_lit = (self.pulled, self.rig.clock.now())
        self._wake.set()

    def _next_is_stale(self) -> bool:
        """NEXT still lit from before a card this dealer has since pulled: the
        table is dealing already.  (After a while a dealer believes the lamp:
        e.g. a card forced out during the settlement.)"""
        if self._next_lit is None:
            return False
        pulled, since = self._next_lit
        return self.pulled != pulled and self.rig.clock.now() - since < STALE_NEXT

    def _count(self, what: str) -> None:
        self.stats[what] = self.stats.get(what, 0) + 1

    def _poke(self, *_: object) -> None:
        self._wake.set()

    async def run(self) -> None:
        shoe = self.rig.shoe
        shoe.listeners.append(self._poke)
        dealer_panel = self.rig.panels.dealer
        if dealer_panel is not None:
            dealer_panel.listeners.append(self._dealer_panel_changed)
            self._dealer_panel_changed(dealer_panel)
        try:
            while True:
                locked = shoe.gate_locked
                # armed: the gate has closed since the last card (the controller took it)
                armed = shoe.gate_locks > self._locks_at_pull
                if not locked and armed and self._card_wanted():
                    await self._deal()
                    continue
                impatient = self.mistakes.draw_while_locked
                if locked and impatient and self.rng.random() < impatient:
                    await self._deal(against_gate=True)
                if self._between_deals():
                    await self._next_deal()
                self._wake.clear()
                # an impatient dealer keeps reaching for the shoe; a patient one waits
                patience = 0.2 if self.mistakes.draw_while_locked else 3.0
                try:
                    async with asyncio.timeout(patience):
                        await self._wake.wait()
                except TimeoutError:
                    if not shoe.gate_locked:
                        # The lamp stayed green a long while: the table wants another card.
                        self._locks_at_pull = -1
        finally:
            shoe.listeners.remove(self._poke)
            if dealer_panel is not None:
                dealer_panel.listeners.remove(self._dealer_panel_changed)

    def _snapshot(self) -> dict[str, Any]:
        if self.view is None:
            return {}
        try:
            return self.view() or {}
        except Exception:  # a display that is not up yet
            return {}

    def _card_wanted(self) -> bool:
        snap = self._snapshot()
        if not snap:
            return True  # no display: the open gate is the only sign
        pending = snap.get("pending") or {}
        if pending.get("kind") != "card":
            return False
        taken = (snap.get("counters") or {}).get("cards")
        return taken is None or taken >= self.pulled

    def _between_deals(self) -> bool:
        """NEXT is lit for a deal this dealer has not yet asked for: after a
        deal (cards to gather first) or before a game's first one (``shoot``
        puts the kitty before it, so nobody else opens that game)."""
        panel = self.rig.panels.dealer
        if (
            panel is None
            or panel.version == self._next_pressed_at
            or Button.NEXT not in panel.lit_buttons()
            or self._next_is_stale()
        ):
            return False
        if self.rig.world.on_table:
            return True
        pending = self._snapshot().get("pending") or {}
        return pending.get("kind") == "between_deals" and pending.get("next_deal") == 1

    async def _deal(self, against_gate: bool = False) -> None:
        await self.rig.clock.pause(self.pace * (0.5 + self.rng.random()))
        force = against_gate and self.rng.random() < self.mistakes.force_gate
        outcome = self.rig.shoe.pull(force=force)
        if outcome.refused:
            self._count("refused_by_gate")
            return
        if outcome.card is None:
            self._count("shoe_empty" if outcome.empty else "jammed")
            return
        self.pulled += 1
        self._locks_at_pull = self.rig.shoe.gate_locks
        self._count("forced" if outcome.forced else "dealt")
        pending = self._snapshot().get("pending") or {}
        wanted = pending.get("to")
        hand = int(pending.get("hand") or 1)
        face_up = bool(pending.get("face_up", False))
        seat = wanted
        if wanted is not None and self.rng.random() < self.mistakes.wrong_seat:
            others = [s for s in self.rig.seats if s != wanted]
            if others:
                seat = self.rng.choice(others)
        self.rig.world.place(outcome.card, seat=seat, hand=hand, face_up=face_up,
                             wanted_seat=wanted)

    async def _next_deal(self) -> None:
        await self.rig.clock.pause(self.pace * 2)
        snap = self._snapshot()
        settlement = snap.get("settlement") or {}
        if settlement and self.rng.random() < self.mistakes.wrong_payout:
            self.rig.world.mistakes["wrong_payout"] += 1
        forget = self.mistakes.forget_pontoon
        if forget and _pontoons(snap) and self.rng.random() < forget:
            self.rig.world.mistakes["forgot_pontoon"] += 1
        shuffle = bool(settlement.get("shuffle", False))
        self.rig.world.collect(shuffle=shuffle)
        self.rig.shoe.refilled()
        self._count("collected")
        if self.press_next and self.rig.panels.dealer is not None:
            self._next_pressed_at = self.rig.panels.dealer.version
            self.rig.panels.dealer.press(Button.NEXT)
            if self.rig.panels.dealer.wire is not None:
                self.rig.panels.dealer.wire.kick()

    def report(self) -> dict[str, Any]:
        return {"stats": dict(self.stats), "mistakes": asdict(self.mistakes)}


def _pontoons(snap: dict[str, Any]) -> int:
    count = 0
    for seat in snap.get("seats") or []:
        for hand in seat.get("hands") or []:
            if hand.get("status") == "pontoon":
                count += 1
    return count


__all__ = [
    "STRATEGIES",
    "Bot",
    "DealerMistakes",
    "SimDealer",
    "perform_on_panel",
    "shown_amount",
    "shown_total",
    "wait_for_prompt",
]
