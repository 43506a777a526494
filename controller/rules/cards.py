"""Cards as small interned integers.

A card is an ``int`` subclass (``rank * 4 + suit``) so the engine can index
precomputed tables (value, name) without attribute look-ups or hashing objects;
the same 52 instances are reused everywhere, which keeps a pack of several decks
cheap to copy and compare.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from typing import Any

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")

#: Pontoon value of each rank index with the ace counted as 1.
_RANK_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
#: Cutting order: ace high, then K Q J 10 ... 2.
_CUT_ORDER = (14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)


def rank_of(card: int) -> int:
    """The rank index of a card code: 0 ace, 1-8 two to nine, 9-12 ten to king."""
    return card >> 2


def suit_of(card: int) -> int:
    """The suit index of a card code (``SUITS``)."""
    return card & 3


def is_ace(card: int) -> bool:
    """Aces are the first rank, so their codes are 0-3."""
    return card < 4


def is_ten_card(card: int) -> bool:
    """Ten, jack, queen and king: ranks 9-12, codes from 36."""
    return card >= _FIRST_TEN_CARD


def same_rank(a: int, b: int) -> bool:
    return a >> 2 == b >> 2


#: the first ten-card code (the ten of clubs)
_FIRST_TEN_CARD = 9 * 4


class Card(int):
    """One playing card; immutable, hashable, ``str(card)`` is the two-letter form."""

    __slots__ = ()

    @property
    def rank(self) -> str:
        return RANKS[rank_of(self)]

    @property
    def suit(self) -> str:
        return SUITS[suit_of(self)]

    @property
    def rank_index(self) -> int:
        return rank_of(self)

    @property
    def value(self) -> int:
        """Value with an ace counted as 1 (the hand decides whether it is 11)."""
        return _RANK_VALUE[rank_of(self)]

    @property
    def cut_rank(self) -> int:
        return _CUT_ORDER[rank_of(self)]

    @property
    def is_ace(self) -> bool:
        return is_ace(self)

    @property
    def is_ten_card(self) -> bool:
        return is_ten_card(self)

    @staticmethod
    def parse(text: str | Card) -> Card:
        """Read ``"10H"``, ``"TH"``, ``"th"`` or ``"AS"``; raise ``ValueError`` otherwise."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise ValueError(f"not a card: {text!r}")
        s = text.strip().upper()
        if s.startswith("10"):
            s = "T" + s[2:]
        card = _BY_NAME.get(s)
        if card is None:
            raise ValueError(
                f"unknown card {text!r} (write rank A 2-10 J Q K, T for 10, then suit C D H S)"
            )
        return card

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"Card({NAMES[self]!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (NAMES[self],))


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
NAMES: tuple[str, ...] = tuple(RANKS[rank_of(i)] + SUITS[suit_of(i)] for i in range(52))
VALUES: tuple[int, ...] = tuple(_RANK_VALUE[rank_of(i)] for i in range(52))
#: ``is_ace`` of each code, for the hot path (an index is cheaper than a call)
IS_ACE: tuple[bool, ...] = tuple(is_ace(i) for i in range(52))
_BY_NAME: dict[str, Card] = {NAMES[i]: CARDS[i] for i in range(52)}


class CardSet(AbstractSet[Card]):
    """An immutable set of distinct cards kept as a 52-bit mask.

    ``legal_actions`` offers "any card still in the pack" at every card need;
    building a ``frozenset`` of up to 52 ``Card`` objects each time cost more
    than dealing the card.  The pack keeps this mask up to date as cards come
    and go, so offering the set is one object; it compares equal to (and hashes
    like) the ``frozenset`` of the same cards.
    """

    __slots__ = ("_mask",)

    def __init__(self, mask: int = 0) -> None:
        self._mask = mask

    @classmethod
    def of(cls, cards: Iterable[int]) -> CardSet:
        mask = 0
        for c in cards:
            mask |= 1 << CARDS[c]
        return cls(mask)

    @property
    def mask(self) -> int:
        return self._mask

    def __contains__(self, card: object) -> bool:
        t = type(card)
        if t is Card or t is int:
            return 0 <= card < 52 and (self._mask >> card) & 1 == 1  # type: ignore[operator]
        return card in frozenset(self)  # what a frozenset would say (bool, float...)

    def __iter__(self) -> Iterator[Card]:
        mask = self._mask
        return (CARDS[i] for i in range(52) if (mask >> i) & 1)

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self._mask == other._mask
        if isinstance(other, AbstractSet):
            return len(self) == len(other) and all(c in other for c in self)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self))

    @classmethod
    def _from_iterable(cls, it: Iterable[Any]) -> frozenset[Any]:
        return frozenset(it)

    def __repr__(self) -> str:
        return f"CardSet({[NAMES[c] for c in self]!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (CardSet, (self._mask,))
