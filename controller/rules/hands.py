"""One hand: its cards, stake and story, and the hand arithmetic (RULES.md §1).

The arithmetic lives here once.  ``Hand`` keeps the hard count (every ace as 1)
and whether it holds an ace as cards arrive, so a total is two comparisons,
not a walk over the cards; the functions on plain card lists (``hand_total``,
``is_pontoon``...) measure a throwaway ``Hand`` rather than repeat the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import IS_ACE, NAMES, VALUES, Card, is_ace

#: a two-card hand with an ace and this hard count holds a ten-card: a pontoon
_ACE_AND_TEN = 11


class Hand:
    """One hand: its cards (codes), which are face up, its stake and its story."""

    __slots__ = (
        "ace",
        "bust",
        "cards",
        "declared",
        "done",
        "doubled",
        "hard",
        "last_buy",
        "must_draw",
        "net",
        "original",
        "paid",
        "seqs",
        "shoot",
        "shoot4",
        "shoot_start",
        "split_ace",
        "split_new",
        "stake",
        "twisted",
        "up",
        "words",
    )

    def __init__(self, stake: int = 0) -> None:
        self.cards: list[int] = []
        self.up: list[bool] = []
        self.seqs: list[int] = []
        self.hard = 0
        self.ace = False
        self.stake = stake
        self.original = stake
        self.last_buy = 0
        self.twisted = False
        self.doubled = False
        self.split_new = False
        self.split_ace = False
        self.shoot = 0
        self.shoot4 = False
        self.shoot_start = False
        self.must_draw = False
        self.words = 0
        self.done = False
        self.bust = False
        self.paid = False
        self.declared = False
        self.net = 0

    @classmethod
    def of(cls, cards: Sequence[int]) -> Hand:
        """A hand holding ``cards`` (to measure them)."""
        h = cls()
        h.cards = list(cards)
        h.recount()
        return h

    def add(self, card: int, up: bool, seq: int) -> None:
        self.cards.append(card)
        self.up.append(up)
        self.seqs.append(seq)
        self.hard += VALUES[card]
        if IS_ACE[card]:
            self.ace = True

    def recount(self) -> None:
        self.hard = sum(VALUES[c] for c in self.cards)
        self.ace = any(is_ace(c) for c in self.cards)

    @property
    def total(self) -> int:
        """Best total not over 21; for a bust hand, the count with every ace as 1."""
        hard = self.hard
        return hard + 10 if self.ace and hard <= 11 else hard

    @property
    def soft(self) -> bool:
        """An ace counts as 11."""
        return self.ace and self.hard <= 11

    @property
    def pontoon(self) -> bool:
        """Two cards, an ace and a ten-card (a hand only ever has its first two here)."""
        return len(self.cards) == 2 and self.ace and self.hard == _ACE_AND_TEN

    @property
    def five(self) -> bool:
        """A five-card trick: five cards, not bust."""
        return len(self.cards) == 5 and self.hard <= 21

    def show(self) -> None:
        self.up = [True] * len(self.cards)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {k: getattr(self, k) for k in self.__slots__}
        d["cards"] = [NAMES[c] for c in self.cards]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Hand:
        h = cls()
        for k in cls.__slots__:
            setattr(h, k, d[k])
        h.cards = [int(Card.parse(c)) for c in d["cards"]]
        h.up = list(d["up"])
        h.seqs = list(d["seqs"])
        return h


def hand_total(cards: Sequence[int]) -> int:
    """Best total not over 21; for a bust hand, the count with every ace as 1."""
    return Hand.of(cards).total


def is_soft(cards: Sequence[int]) -> bool:
    return Hand.of(cards).soft


def is_bust(cards: Sequence[int]) -> bool:
    return Hand.of(cards).hard > 21


def is_pontoon(cards: Sequence[int]) -> bool:
    """Two cards, an ace and a ten-card (a hand only ever has its first two here)."""
    return Hand.of(cards).pontoon


def is_five_card_trick(cards: Sequence[int]) -> bool:
    return Hand.of(cards).five
