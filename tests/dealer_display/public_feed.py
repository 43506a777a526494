"""Random legal games on the live table's core, published as the display publishes them.

Imported as a plain module by ``test_public_feed_property.py`` (pytest puts
this directory on sys.path).  The pieces:

- :class:`Feed` is the real dealer display (``create_app``) started without a
  server: a snapshot put on its table's publisher goes through the app's own
  listener into the hub's public channel, the object ``/api/public`` returns
  and ``/ws/public`` sends.  Nothing here calls the redaction function itself,
  so whatever the app publishes is what is checked.
- :class:`RandomTable` drives a :class:`controller.core.TableCore` (the core of
  the live table: its snapshot builder, its phases and holds) with random legal
  engine actions, cards arriving as card-out events plus camera readings, the
  dealer pausing now and then, voiding a deal now and then.  It keeps the
  engine state at the start of the current deal and every action since, so a
  face-down card can be swapped for another one and the deal replayed.
"""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import json
import random
import sys
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from controller.core import CardRead, GameSetup, TableCore
from controller.journal import Journal
from controller.publish import CommandResult, Listener, Publisher, TableSnapshot
from controller.rules import (
    CARDS,
    Action,
    DealCard,
    GameState,
    IllegalAction,
    StartDeal,
    apply,
)
from controller.snapshot import build_snapshot
from dealer_display.app import create_app
from firmware_bridge.host import CardOut


def _randomplay() -> ModuleType:
    """``tests/rules/randomplay.py``, the rules tests' random legal player."""
    name = "public_feed_randomplay"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "rules" / "randomplay.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


random_action = _randomplay().random_action
is_over = _randomplay().is_over

PEOPLE = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")

#: The fields in which a hand holding a face-down card may differ from another
#: such hand: which hand it is (hand 2 exists after a split, done in the open),
#: its stake and shoot bet (announced aloud), its cards (face-up codes are
#: public; each face-down card's own entry is checked separately).  Everything
#: else in the hand, whatever its name, must be the same for every such hand.
#: Whose turn it is stays public through the view's top-level ``turn``, not
#: through a per-hand field.  (The seat around the hand, its name, number and
#: balance, is outside the hand and covered by the swap check.)
HAND_MAY_DIFFER = frozenset({"hand", "stake", "shoot", "cards"})
#: The bank's fields that are public before its reveal: who banks, the kitty,
#: its cards (face-up codes only).
BANK_MAY_DIFFER = frozenset({"name", "kitty", "cards"})


def canonical(value: Any) -> str:
    """The bytes ``/api/public`` would serve for a value, keys sorted to compare."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class CoreLink:
    """The ``TableLink`` seam over a bare core: what ``controller.table.Table``
    publishes, without devices (the display sees the same snapshots)."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.publisher = Publisher()

    def snapshot(self) -> TableSnapshot:
        return self.publisher.latest or build_snapshot(self.core)

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        return self.publisher.add_listener(listener)

    async def command(self, name: str, args: Mapping[str, Any] | None = None) -> CommandResult:
        return self.core.command(name, args)


class Feed:
    """One running dealer display app; ``view(snapshot)`` is what its public feed holds."""

    def __init__(self, link: Any) -> None:
        self.link = link
        self.app = create_app(link, token="public-feed-property")

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Feed]:
        async with self.app.router.lifespan_context(self.app):
            yield self

    def view(self, snapshot: TableSnapshot) -> dict[str, Any]:
        """Publish ``snapshot`` as the table does and read the public channel back.

        Called inside the app's event loop, so the app's listener publishes at
        once (as it does for the live table, whose loop it shares).
        """
        self.link.publisher.publish(snapshot)
        view: dict[str, Any] = self.app.state.hub["public"].view
        return view


def fork(state: GameState) -> GameState:
    """An independent copy of ``state`` (the ruleset, frozen, is shared).

    ``GameState.copy`` goes through JSON and parses the ruleset again; a deep
    copy gives the same state in half the time, and replays run once per swap.
    """
    return copy.deepcopy(state, {id(state.rules): state.rules})


def table_look(state: GameState) -> tuple[Any, ...]:
    """What anyone at the table sees of a deal: phase, whose turn, every hand's
    cards as face-up codes or backs, every stake and shoot bet."""
    d = state.deal
    if d is None:
        return (state.phase, None)
    hands = [h for hs in d.hands for h in hs] + [d.bank]
    return (
        state.phase,
        state.turn() if state.phase == "deal" else None,
        tuple(
            (tuple(c if u else -1 for c, u in zip(h.cards, h.up, strict=True)), h.stake, h.shoot)
            for h in hands
        ),
    )


@dataclass
class Step:
    """One engine action of the current deal and how the table looked after it."""

    action: Action
    look: tuple[Any, ...]


@dataclass
class RandomTable:
    """A random legal game on a live table core (see the module docstring)."""

    preset: str
    players: tuple[str, ...]
    seed: int
    rng: random.Random
    core: TableCore = field(init=False)
    deal_start: GameState | None = field(init=False, default=None)
    steps: list[Step] = field(init=False, default_factory=list)
    event_no: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        banker = None
        if self.preset in ("house", "traditional", "shoot") and self.rng.random() < 0.5:
            banker = self.rng.choice(self.players)  # else the game starts with the cut
        setup = GameSetup(self.preset, self.players, banker, self.seed, {}, table="Property")
        self.core = TableCore(setup, Journal(":memory:"))

    @property
    def state(self) -> GameState:
        return self.core.state

    def snapshot(self, state: GameState | None = None) -> TableSnapshot:
        """The snapshot of the table now, or of the same table holding ``state``."""
        real = self.core.state
        if state is not None:
            self.core.state = state
        try:
            return build_snapshot(self.core)
        finally:
            self.core.state = real

    def over(self) -> bool:
        return self.core.phase() == "game_over"

    def move(self) -> Iterator[str]:
        """Play one move; yield after every change the live table would publish."""
        core, rng = self.core, self.rng
        if core.phase() in ("settlement", "void_deal") and (
            is_over(self.state) or rng.random() < 0.7
        ):
            result = core.next_deal()  # the dealer's NEXT: payouts done (and deal on)
            assert result.ok, result.message
            self._started()
            yield "next"
            return
        if rng.random() < 0.02:
            assert core.pause().ok
            yield "paused"
            assert core.resume().ok
            yield "resumed"
            return
        if self.state.phase == "deal" and rng.random() < 0.004:
            assert core.void_deal().ok
            self.deal_start = None
            yield "void"
            return
        action = random_action(rng, self.state)
        head = core.journal.head
        if isinstance(action, DealCard):
            self.event_no += 1
            core.handle(CardOut(self.event_no, 0))
            yield "card out"
            core.handle(CardRead(self.event_no, str(action.card)))
        elif isinstance(action, StartDeal):
            result = core.next_deal()
            assert result.ok, result.message
            self._started()
            yield "next"
            return
        else:
            result = core.try_action(action)
            assert result.ok, result.message
        assert core.journal.head > head, f"{action} was not taken"
        if self.deal_start is not None and self.state.phase == "deal":
            self.steps.append(Step(action, table_look(self.state)))
        else:
            self.deal_start = None
        word = getattr(action, "word", None)
        yield type(action).__name__ + (f" {word}" if word else "")

    def _started(self) -> None:
        if self.state.phase == "deal":
            self.deal_start = fork(self.state)
            assert self.deal_start == self.state  # the engine's own comparison
            self.steps = []

    # -- swapping a face-down card -------------------------------------------------
    def face_down(self) -> list[int]:
        """Deal positions (order dealt) of the cards face down now."""
        d = self.state.deal
        if d is None or self.state.phase != "deal" or self.deal_start is None:
            return []
        hands = [h for hs in d.hands for h in hs] + [d.bank]
        return [seq for h in hands for seq, up in zip(h.seqs, h.up, strict=True) if not up]

    def swapped(self, seq: int, rng: random.Random) -> GameState | None:
        """The deal replayed with its ``seq``-th card swapped for another one.

        None when that other world does not look the same at the table after
        every action: an action refused there, a turn that moved differently
        (the engine ends a hand by itself at 21, which everyone sees), a card
        turned up there and not here (a bust is shown).  Those differences are
        the rules' business and public; the display's is that two worlds that
        look the same at the table publish the same bytes.
        """
        assert self.deal_start is not None
        d = self.state.deal
        assert d is not None
        original = d.dealt[seq]
        candidates = sorted({int(c) for c in self.state.pack.cards()} - {original})
        if not candidates:
            return None
        other = rng.choice(candidates)
        alt = fork(self.deal_start)
        dealt = -1
        for step in self.steps:
            action = step.action
            if isinstance(action, DealCard):
                dealt += 1
                if dealt == seq:
                    action = DealCard(CARDS[other])
            try:
                apply(alt, action)
            except IllegalAction:
                return None
            if table_look(alt) != step.look:
                return None
        return alt
