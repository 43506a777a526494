"""A simulated table for the event floor: the real table core and journal, bots for people.

The floor sees a table only through its journal and status, so a simulated
table here is the controller's own :class:`~controller.core.TableCore` writing
its own :class:`~controller.journal.Journal`, with the people replaced by a
seeded random player: at each step it asks the rules engine what is legal and
picks one (as ``benchmarks/rules_bench.py`` does), every card is the top of the
engine's pack, and the dealer's NEXT is pressed between deals.  No serial
ports, no camera: twenty of these fit on a laptop beside the broker and the
floor (``pontoon-table floor sim``), which the full hardware simulation of
``pontoon-table sim`` would not.
"""

from __future__ import annotations

import random
import threading
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from controller.core import GameSetup, TableCore
from controller.journal import Journal
from controller.rules import (
    DealCard,
    Decide,
    LegalAction,
    SellBank,
    StackTop,
    StartDeal,
    VoidDeal,
)
from controller.snapshot import build_snapshot

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
#: table management, not play: a bot never picks these
NOT_PLAY = (VoidDeal, StackTop, SellBank, StartDeal)


def _amount(rng: random.Random, la: LegalAction) -> int | Fraction:
    low, high = la.minimum, la.maximum
    assert low is not None and high is not None
    if low == high:
        return low
    if la.halves:
        h = rng.randint(int(low * 2), int(high * 2))
        return h // 2 if h % 2 == 0 else Fraction(h, 2)
    return rng.randint(int(low), int(high))


def _action(rng: random.Random, la: LegalAction) -> Any:
    kind = la.kind
    if kind is Decide:
        if la.minimum is None:
            return Decide(la.player, la.word)  # type: ignore[arg-type]
        return Decide(la.player, la.word, _amount(rng, la))  # type: ignore[arg-type]
    if la.word is not None:
        return kind(la.word)
    if la.player is not None:
        return kind(la.player, _amount(rng, la))
    if la.minimum is not None:
        return kind(_amount(rng, la))
    return kind()


class BotTable:
    """One simulated table: ``step()`` makes one move, ``play()`` whole games."""

    def __init__(
        self,
        journal: str | Path,
        *,
        name: str = "Simulated table",
        seed: int = 1,
        deals: int = 0,
        players: tuple[str, ...] = PLAYERS,
        durable: bool = False,
    ) -> None:
        options = {"counted_deals": deals} if deals else {}
        self.setup = GameSetup("house", players, None, seed, options, table=name)
        self.journal = Journal(journal, durable=durable)  # a real table's: durable
        self.core = TableCore(self.setup, self.journal, new_game_if_over=False)
        self.rng = random.Random(seed)
        self.games_done = 0

    def step(self) -> bool:
        """One move; False once the current game is over."""
        core = self.core
        phase = core.phase()
        if phase == "game_over":
            return False
        if phase in ("settlement", "void_deal", "between_deals"):
            result = core.next_deal()
            if not result.ok:
                raise RuntimeError(f"the simulated dealer's NEXT was refused: {result.message}")
            return True
        legal = [la for la in core.legal() if la.kind not in NOT_PLAY]
        la = legal[int(self.rng.random() * len(legal))]
        if la.kind is DealCard:
            action: Any = DealCard(core.state.pack.peek())
        else:
            action = _action(self.rng, la)
        result = core.try_action(action, {"source": "bot"})
        if not result.ok:
            raise RuntimeError(f"a bot's legal move was refused: {action}: {result.message}")
        return True

    def snapshot(self) -> dict[str, Any]:
        return dict(build_snapshot(self.core))

    def play(
        self,
        games: int,
        *,
        pace: float = 0.0,
        stop: threading.Event | None = None,
        on_move: Any = None,
    ) -> int:
        """Play until ``games`` games are over (0: until ``stop``); ``pace`` s between moves."""
        while not (stop is not None and stop.is_set()):
            if not self.step():
                self.games_done += 1
                if games and self.games_done >= games:
                    break
                self.core.new_game()
            if on_move is not None:
                on_move(self)
            if pace > 0:
                if stop is not None:
                    stop.wait(pace)
                else:
                    time.sleep(pace)
        return self.games_done

    def close(self) -> None:
        self.journal.close()
