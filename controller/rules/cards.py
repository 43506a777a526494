"""Cards as small interned integers.

A card is an ``int`` subclass (``rank * 4 + suit``) so the engine can index
precomputed tables (value, name) without attribute look-ups or hashing objects;
the same 52 instances are reused everywhere, which keeps a pack of several decks
cheap to copy and compare.
"""

from __future__ import annotations

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")

#: Pontoon value of each rank index with the ace counted as 1.
_RANK_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
#: Cutting order: ace high, then K Q J 10 ... 2.
_CUT_ORDER = (14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)


class Card(int):
    """One playing card; immutable, hashable, ``str(card)`` is the two-letter form."""

    __slots__ = ()

    @property
    def rank(self) -> str:
        return RANKS[self >> 2]

    @property
    def suit(self) -> str:
        return SUITS[self & 3]

    @property
    def rank_index(self) -> int:
        return self >> 2

    @property
    def value(self) -> int:
        """Value with an ace counted as 1 (the hand decides whether it is 11)."""
        return _RANK_VALUE[self >> 2]

    @property
    def cut_rank(self) -> int:
        return _CUT_ORDER[self >> 2]

    @property
    def is_ace(self) -> bool:
        return self >> 2 == 0

    @property
    def is_ten_card(self) -> bool:
        return self >> 2 >= 9

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
NAMES: tuple[str, ...] = tuple(RANKS[i >> 2] + SUITS[i & 3] for i in range(52))
VALUES: tuple[int, ...] = tuple(_RANK_VALUE[i >> 2] for i in range(52))
_BY_NAME: dict[str, Card] = {NAMES[i]: CARDS[i] for i in range(52)}
