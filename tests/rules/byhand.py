"""Small builders for tests that stop a table at one situation, by hand.

Every card is dealt by name (``DealCard`` takes it from wherever it is in the
pack), so a test reads as the deal it plays: no stacking, no seed to trust.
Draw order (SCENARIO.md): player-banked, first card to each player from the
banker's left then the banker, stakes (and shoot bets), second card in the
same order; house dealer, stakes first, then the same two rounds (``ponton``:
the dealer's one card face up in the first round only).
"""

from __future__ import annotations

import importlib
from typing import Any

from controller.rules import (
    Amount,
    Card,
    DealCard,
    Decide,
    GameState,
    LegalAction,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    StartDeal,
    VoidDeal,
    apply,
    load_ruleset,
    new_game,
)

#: the void-deal family, legal at every point of a deal
VOID = LegalAction(VoidDeal)


def deal(state: GameState, *cards: str) -> GameState:
    for c in cards:
        apply(state, DealCard(Card.parse(c)))
    return state


def say(state: GameState, player: str, word: str, amount: Amount | None = None) -> GameState:
    return apply(state, Decide(player, word, amount))


def word(
    player: str, w: str, lo: Amount | None = None, hi: Amount | None = None, halves: bool = False
) -> LegalAction:
    """The family of ``Decide(player, w[, amount])`` the engine should list."""
    return LegalAction(Decide, player, w, lo, hi, halves)


def banked(
    preset: str,
    first: list[str],
    stakes: dict[str, int],
    second: list[str],
    *,
    players: tuple[str, ...] = ("Ann", "Dan"),
    kitty: int | None = None,
    shoots: dict[str, int] | None = None,
    **options: Any,
) -> GameState:
    """A player-banked deal (the last player banks) up to its first decision."""
    rules = load_ruleset(preset, options)
    state = new_game(rules, list(players), banker=players[-1], seed=1)
    if kitty is not None:
        apply(state, PutKitty(kitty))
    apply(state, StartDeal())
    deal(state, *first)
    for p, amount in stakes.items():
        apply(state, PlaceStake(p, amount))
    for p, amount in (shoots or {}).items():
        apply(state, PlaceShoot(p, amount))
    return deal(state, *second)


def dealt(preset: str, stakes: dict[str, int], cards: list[str], **options: Any) -> GameState:
    """A house-dealer deal (``casino``, ``ponton``) up to its first decision."""
    state = new_game(load_ruleset(preset, options), list(stakes), seed=1)
    apply(state, StartDeal())
    for p, amount in stakes.items():
        apply(state, PlaceStake(p, amount))
    return deal(state, *cards)


def forget_made_answers() -> None:
    """Empty the engine's shared caches of needs, families and word rules, so
    a test makes them itself instead of reusing those of earlier tests (a
    table process starts with them empty)."""
    made = importlib.import_module("controller.rules.pending")  # the name is also a function
    made._MADE.clear()
    made._DEAL_FAMILIES.clear()
    importlib.import_module("controller.rules.legality")._PAIRS.clear()
