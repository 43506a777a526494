"""A table run by hand: the live table's core, with cards entered by the dealer.

This is the "training / manual table" mode: the dealer types each card that
leaves the shoe (``confirm_card``) and enters the players' decisions.  It is
not a second implementation: :class:`ManualTable` is the live
:class:`controller.table.Table` around a :class:`controller.core.TableCore`
built with ``manual=True`` and no devices, so it publishes exactly the
snapshots the live table publishes (same builder, same phases, same words)
and accepts exactly the same dealer commands.  The display, its tests, its
fuzzing and its benchmark therefore run against the shape the live table sends.

The game is journalled like a live one, in memory by default or in a file
(``journal=PATH``) so a hand-run game survives a restart too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from controller.core import GameSetup, TableCore
from controller.journal import Journal
from controller.rules import Card, GameState
from controller.table import Table


def money(value: Any) -> Any:
    """Engine amounts (int or Fraction) as JSON numbers."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


class ManualTable(Table):
    """A ``TableLink`` with no devices: every card is entered by the dealer."""

    def __init__(
        self,
        *,
        rules: str = "house",
        players: Sequence[str] = ("Ann", "Bob", "Cat", "Dan"),
        banker: str | None = None,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        name: str = "Manual table",
        journal: str | Path = ":memory:",
    ) -> None:
        setup = GameSetup(
            preset=rules,
            players=tuple(players),
            banker=banker,
            seed=seed,
            options=dict(options or {}),
            table=name,
        )
        core = TableCore(setup, Journal(journal, durable=False), manual=True)
        super().__init__(core)
        self.refresh()

    @property
    def state(self) -> GameState:
        """The engine's game (tests and simulated people peek at the pack through it)."""
        return self.core.state

    def next_card(self) -> Card:
        """The card the engine's pack gives next (what a simulated dealer deals)."""
        return self.state.pack.peek()
