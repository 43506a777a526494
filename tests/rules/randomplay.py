"""A random but legal player for the property tests: answers every need with a
choice drawn from ``legal_actions``, so it explores what the engine offers."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from controller.rules import (
    CARDS,
    Action,
    BetweenDeals,
    CardNeed,
    DealCard,
    GameOver,
    GameState,
    LegalAction,
    PutKitty,
    SellBank,
    StackTop,
    StartDeal,
    VoidDeal,
    legal_actions,
    pending,
)


def pick_amount(rng: random.Random, la: LegalAction) -> int | Fraction:
    assert la.minimum is not None
    low = Fraction(la.minimum)
    high = Fraction(la.maximum) if la.maximum is not None else low + 20
    step = Fraction(1, 2) if la.halves else Fraction(1)
    steps = int((high - low) / step)
    value = low + step * rng.randint(0, max(steps, 0))
    return int(value) if value.denominator == 1 else value


def random_action(rng: random.Random, state: GameState) -> Action:
    need = pending(state)
    options = [la for la in legal_actions(state) if la.kind not in (VoidDeal, StackTop)]
    if isinstance(need, BetweenDeals) and rng.random() < 0.8:
        options = [la for la in options if la.kind is StartDeal]
    la = rng.choice(options)
    if la.kind is DealCard:
        assert isinstance(need, CardNeed)
        if rng.random() < 0.8:
            return DealCard(state.pack.peek())
        assert la.cards is not None
        return DealCard(rng.choice(sorted(la.cards)))
    if la.kind is StartDeal:
        return StartDeal()
    if la.kind is SellBank:
        assert la.names is not None
        return SellBank(rng.choice(la.names), pick_amount(rng, la))
    if la.kind is PutKitty:
        return PutKitty(pick_amount(rng, la))
    kwargs: dict[str, object] = {}
    if la.player is not None:
        kwargs["player"] = la.player
    if la.word is not None:
        kwargs["word"] = la.word
    if la.minimum is not None:
        kwargs["amount"] = pick_amount(rng, la)
    elif la.kind.__name__ == "Decide":
        kwargs["amount"] = None
    return la.kind(**kwargs)  # type: ignore[no-any-return]


def cards_out(state: GameState) -> Counter[int]:
    """Every card not in the pack: in hands of the deal in progress (not returned)."""
    out: Counter[int] = Counter()
    d = state.deal
    if state.phase == "cut" and state.cut:
        out.update(state.cut["out"])
    if d is not None and state.phase == "deal":
        gone = set(d.returned)
        for i, c in enumerate(d.dealt):
            if i not in gone:
                out[c] += 1
    return out


def check_cards(state: GameState) -> None:
    """No card in two places, none lost: pack + cards out = the full decks."""
    total = Counter(int(c) for c in state.pack.cards()) + cards_out(state)
    assert total == Counter({i: state.pack.packs for i in range(52)}), "cards lost or doubled"
    held: Counter[int] = Counter()
    d = state.deal
    if d is not None and state.phase == "deal":
        for hs in d.hands:
            for h in hs:
                if not h.bust:
                    held.update(h.cards)
        held.update(d.bank.cards)
        assert held == cards_out(state)


def is_over(state: GameState) -> bool:
    return isinstance(pending(state), GameOver)


__all__ = ["CARDS", "check_cards", "is_over", "random_action"]
