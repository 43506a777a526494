"""Cards and hand values for the test-only reference, from RULES.md §1.

Written from the rule book alone (see ``engine.py`` for why): plain strings
for cards, plain functions for totals, nothing clever.
"""

from __future__ import annotations

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
SUITS = ["C", "D", "H", "S"]
ALL_CARDS = [rank + suit for suit in SUITS for rank in RANKS]

# For cutting, A is high, then K Q J 10 9 ... 2 (RULES.md §1).
CUT_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


def parse_card(text: object) -> str | None:
    """The two-character form of a card (``T`` for ten), or None if it is not one."""
    if not isinstance(text, str):
        return None
    text = text.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        return None
    return text


def rank(card: str) -> str:
    return card[0]


def value(card: str) -> int:
    """A counts 1 here; the soft total adds 10 for one ace where that fits."""
    r = rank(card)
    if r == "A":
        return 1
    if r in ("T", "J", "Q", "K"):
        return 10
    return int(r)


def hard_total(cards: list[str]) -> int:
    return sum(value(c) for c in cards)


def best_total(cards: list[str]) -> int:
    """The best total not over 21; for a bust hand, the count with aces as 1."""
    total = hard_total(cards)
    if any(rank(c) == "A" for c in cards) and total + 10 <= 21:
        return total + 10
    return total


def is_soft(cards: list[str]) -> bool:
    total = hard_total(cards)
    return any(rank(c) == "A" for c in cards) and total + 10 <= 21


def is_bust(cards: list[str]) -> bool:
    return hard_total(cards) > 21


def is_pontoon(cards: list[str]) -> bool:
    """Two cards, an ace and a ten-card. A hand's two cards are always its first two."""
    if len(cards) != 2:
        return False
    ranks = sorted(rank(c) for c in cards)
    return ranks[0] == "A" and ranks[1] in ("J", "K", "Q", "T")


def is_five_card_trick(cards: list[str]) -> bool:
    return len(cards) == 5 and not is_bust(cards)


def ranking(cards: list[str]) -> tuple[int, int]:
    """Bigger is better: pontoon, five-card trick, then totals; bust lowest.

    Two, three or four card hands compare by total only, so 21 with three
    cards equals 21 with four.
    """
    if is_bust(cards):
        return (0, 0)
    if is_pontoon(cards):
        return (3, 0)
    if is_five_card_trick(cards):
        return (2, 0)
    return (1, best_total(cards))
