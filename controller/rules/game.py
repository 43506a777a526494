"""The game as the table holds it: ``GameState`` and how a game starts.

``GameState`` is the state's data (``state.State``) with the views the table,
the panels and the display read: what it waits for, whose turn it is, and the
hands.  ``new_game`` checks the table against the rules and starts the game.
"""

from __future__ import annotations

from .actions import IllegalAction, Need
from .outcomes import HandOutcome, outcomes
from .pending import pending
from .ruleset import Ruleset
from .state import HOUSE, Phase, State
from .views import HandView, bank_view, hand_views, turn


class GameState(State):
    """The whole game.  Read it through ``pending``, ``legal_actions`` and the
    view methods; change it only with ``apply``."""

    __slots__ = ()

    @property
    def need(self) -> Need:
        return pending(self)

    def turn(self) -> tuple[str, int] | None:
        """Whose hand is being played (player, hand number; 0 for the bank), or None."""
        return turn(self)

    def hand_views(self) -> list[HandView]:
        return hand_views(self)

    def bank_view(self) -> HandView | None:
        return bank_view(self)

    def outcomes(self) -> list[HandOutcome]:
        """Each hand of the deal just settled, with the rule that settled it."""
        return outcomes(self)


def check_players(ruleset: Ruleset, players: list[str]) -> None:
    """Refuse a table these rules cannot seat, with one sentence (``IllegalAction``)."""
    if len(players) < 1 or len(set(players)) != len(players):
        raise IllegalAction("players must be distinct names, at least one")
    if any(not isinstance(p, str) or not p or p == HOUSE for p in players):
        raise IllegalAction(f"player names must be non-empty and not {HOUSE!r}")
    if not ruleset.house_dealer and len(players) < 2:
        raise IllegalAction("a player-banked game needs at least two people")
    limit = ruleset.max_people
    if limit is not None and len(players) > limit:
        who = "people, the banker included" if not ruleset.house_dealer else "players"
        raise IllegalAction(
            f"the {ruleset.preset} rules seat at most {limit} {who}, not {len(players)}"
        )


def new_game(
    ruleset: Ruleset,
    players: list[str],
    *,
    banker: str | None = None,
    seed: int = 0,
) -> GameState:
    """A fresh game; with no ``banker`` (player-banked rules) it starts with the cut."""
    check_players(ruleset, players)
    s = GameState(ruleset, players, seed)
    s.pack.shuffle()
    if ruleset.house_dealer:
        if banker not in (None, HOUSE):
            raise IllegalAction(f"the {ruleset.preset} dealer is the house, not {banker}")
    elif banker is None:
        s.phase = Phase.CUT
        s.cut = {"contenders": list(players), "cards": [], "out": []}
    else:
        if banker not in players:
            raise IllegalAction(f"the banker {banker} is not at the table")
        s.banker = banker
    return s
