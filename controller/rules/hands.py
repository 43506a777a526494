"""Hand arithmetic on card codes: totals, soft/hard, pontoon, five-card trick."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import VALUES


def _hard(cards: Sequence[int]) -> tuple[int, bool]:
    hard = 0
    ace = False
    for c in cards:
        hard += VALUES[c]
        if c < 4:
            ace = True
    return hard, ace


def hand_total(cards: Sequence[int]) -> int:
    """Best total not over 21; for a bust hand, the count with every ace as 1."""
    hard, ace = _hard(cards)
    return hard + 10 if ace and hard <= 11 else hard


def is_soft(cards: Sequence[int]) -> bool:
    hard, ace = _hard(cards)
    return ace and hard <= 11


def is_bust(cards: Sequence[int]) -> bool:
    return _hard(cards)[0] > 21


def is_pontoon(cards: Sequence[int]) -> bool:
    """Two cards, an ace and a ten-card (a hand only ever has its first two here)."""
    if len(cards) != 2:
        return False
    a, b = cards[0] >> 2, cards[1] >> 2
    return (a == 0 and b >= 9) or (b == 0 and a >= 9)


def is_five_card_trick(cards: Sequence[int]) -> bool:
    return len(cards) == 5 and not is_bust(cards)
