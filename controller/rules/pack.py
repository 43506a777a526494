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

from .cards import CARDS, NAMES, Card, CardSet


class PackError(ValueError):
    """A card asked of the pack that cannot be in it."""


class Pack:
    """Cards still in the shoe, top first; ``packs`` decks of 52 in total."""

    __slots__ = ("_cards", "_counts", "_mask", "packs", "seed", "shuffles")

    def __init__(self, packs: int = 1, seed: int = 0) -> None:
        self.packs = packs
        self.seed = seed
        self.shuffles = 0
        self._cards: deque[int] = deque(c for _ in range(packs) for c in range(52))
        #: copies of each card code in the pack, and bit ``c`` set while any is
        #: left: kept as cards come and go so "is it here" and "which cards may be
        #: dealt" never scan the pack
        self._counts = [packs] * 52
        self._mask = _FULL

    def _recount(self) -> None:
        counts = [0] * 52
        for c in self._cards:
            counts[c] += 1
        self._counts = counts
        self._mask = _mask_of(counts)

    # -- reading -----------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, card: object) -> bool:
        if type(card) is Card or type(card) is int:
            code = int(card)
            return 0 <= code < 52 and self._counts[code] > 0
        return card in self._cards  # what the deque would say (bool, float...)

    def count(self, card: int) -> int:
        """Copies of ``card`` still in the pack."""
        return self._counts[card]

    def present(self) -> CardSet:
        """The distinct cards still in the pack (what may be dealt now)."""
        return CardSet(self._mask)

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
        return self.take(self._cards[0])

    def take(self, card: int) -> Card:
        """Take ``card`` out of wherever it is (the physical order may differ)."""
        cards = self._cards
        counts = self._counts
        if cards and cards[0] == card:
            cards.popleft()
        elif counts[card]:
            cards.remove(card)
        else:
            raise PackError(
                f"{NAMES[card]} is not in the pack (all {self.packs} are already out)"
                if self.packs > 1
                else f"{NAMES[card]} is not in the pack (it is already out)"
            )
        left = counts[card] = counts[card] - 1
        if not left:
            self._mask ^= 1 << card
        return CARDS[card]

    def stack_top(self, cards: Iterable[int]) -> None:
        """Put ``cards`` on top, in the order they will be drawn, taken from anywhere."""
        wanted = list(cards)
        have = self._counts
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
        self._add(cards)

    def _add(self, cards: Iterable[int]) -> None:
        counts = self._counts
        mask = self._mask
        add = self._cards.append
        for c in cards:
            add(c)
            counts[c] += 1
            mask |= 1 << c
        self._mask = mask

    def shuffle(self, extra: Iterable[int] = ()) -> None:
        """Gather ``extra`` cards back and shuffle, reproducibly from seed and counter."""
        self._add(extra)
        order = list(self._cards)
        self.shuffles += 1
        shuffle_like_random(random.Random(f"pontoon-table:{self.seed}:{self.shuffles}"), order)
        self._cards = deque(order)

    def copy(self) -> Pack:
        other = Pack.__new__(Pack)
        other.packs = self.packs
        other.seed = self.seed
        other.shuffles = self.shuffles
        other._cards = deque(self._cards)
        other._counts = list(self._counts)
        other._mask = self._mask
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
        pack._recount()
        return pack


_FULL = (1 << 52) - 1


def _mask_of(counts: list[int]) -> int:
    mask = 0
    for c, n in enumerate(counts):
        if n:
            mask |= 1 << c
    return mask


def shuffle_like_random(rng: random.Random, order: list[int]) -> None:
    """Exactly ``rng.shuffle(order)``, about twice as fast.

    The shuffled order is part of the game (scenarios, the simulated shoe and a
    replayed journal must deal the same cards), so this is CPython's own
    Fisher-Yates with ``_randbelow_with_getrandbits`` inlined rather than any
    other algorithm; ``tests/rules/test_fast_paths.py`` checks it against
    ``random.Random.shuffle`` so a Python that changes its shuffle is caught.
    """
    getrandbits = rng.getrandbits
    for i in range(len(order) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
