"""The pack model shared by the rules engine and the simulated shoe.

The pack is canonical on purpose: ``replay``, the simulator's shoe and the live
table all order cards with this class, so a scenario's seed and ``top`` stacking
give the same cards everywhere.  A shuffle's randomness comes from the game seed
and a shuffle counter, never from global state, so the pack serialises as plain
data and a replayed journal reshuffles identically.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Iterable

from .cards import CARDS, NAMES, Card


class PackError(ValueError):
    """A card asked of the pack that cannot be in it."""


class Pack:
    """Cards still in the shoe, top first; ``packs`` decks of 52 in total."""

    __slots__ = ("_cards", "packs", "seed", "shuffles")

    def __init__(self, packs: int = 1, seed: int = 0) -> None:
        self.packs = packs
        self.seed = seed
        self.shuffles = 0
        self._cards: deque[int] = deque(c for _ in range(packs) for c in range(52))

    # -- reading -----------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, card: object) -> bool:
        return card in self._cards

    def cards(self) -> list[Card]:
        """Top first."""
        return [CARDS[c] for c in self._cards]

    def peek(self) -> Card:
        if not self._cards:
            raise PackError("the pack is empty")
        return CARDS[self._cards[0]]

    # -- changing ----------------------------------------------------------------
    def draw(self) -> Card:
        if not self._cards:
            raise PackError("the pack is empty")
        return CARDS[self._cards.popleft()]

    def take(self, card: int) -> Card:
        """Take ``card`` out of wherever it is (the physical order may differ)."""
        cards = self._cards
        if cards and cards[0] == card:
            cards.popleft()
            return CARDS[card]
        try:
            cards.remove(card)
        except ValueError:
            raise PackError(
                f"{NAMES[card]} is not in the pack (all {self.packs} are already out)"
                if self.packs > 1
                else f"{NAMES[card]} is not in the pack (it is already out)"
            ) from None
        return CARDS[card]

    def stack_top(self, cards: Iterable[int]) -> None:
        """Put ``cards`` on top, in the order they will be drawn, taken from anywhere."""
        wanted = list(cards)
        have = Counter(self._cards)
        need = Counter(wanted)
        for card, count in need.items():
            if have[card] < count:
                many = f"{count} times" if count > 1 else "once"
                raise PackError(
                    f"{NAMES[card]} cannot be stacked {many}: "
                    f"{have[card]} left in the pack of {self.packs} deck(s)"
                    if have[card]
                    else f"{NAMES[card]} is not in the pack (it is already out)"
                )
        for card in wanted:
            self._cards.remove(card)
        self._cards.extendleft(reversed(wanted))

    def to_bottom(self, cards: Iterable[int]) -> None:
        """Used cards go under the pack in the order given."""
        self._cards.extend(cards)

    def shuffle(self, extra: Iterable[int] = ()) -> None:
        """Gather ``extra`` cards back and shuffle, reproducibly from seed and counter."""
        self._cards.extend(extra)
        order = list(self._cards)
        self.shuffles += 1
        random.Random(f"pontoon-table:{self.seed}:{self.shuffles}").shuffle(order)
        self._cards = deque(order)

    def copy(self) -> Pack:
        other = Pack.__new__(Pack)
        other.packs = self.packs
        other.seed = self.seed
        other.shuffles = self.shuffles
        other._cards = deque(self._cards)
        return other

    # -- JSON --------------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        return {
            "packs": self.packs,
            "seed": self.seed,
            "shuffles": self.shuffles,
            "cards": [NAMES[c] for c in self._cards],
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Pack:
        pack = cls.__new__(cls)
        pack.packs = int(data["packs"])  # type: ignore[call-overload]
        pack.seed = int(data["seed"])  # type: ignore[call-overload]
        pack.shuffles = int(data["shuffles"])  # type: ignore[call-overload]
        names = data["cards"]
        assert isinstance(names, list)
        pack._cards = deque(int(Card.parse(n)) for n in names)
        return pack
