"""Deck-contents sanity: a card that cannot still be in the shoe is a conflict.

With ``packs`` packs shuffled together each card exists ``packs`` times; a
reading of a card already dealt that often is a misread (or a card from
another deck on the table) and must stop the game for the dealer, never slip
into it.  The ledger knows card codes only, not the game: the controller asks
it before journaling a deal and tells it about corrections and new shoes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from vision.cards import CARD_CODES, normalise_code


class CardConflict(ValueError):
    """The message is meant for the dealer."""


@dataclass(frozen=True)
class Conflict:
    card: str
    dealt: int
    packs: int

    @property
    def message(self) -> str:
        times = "once" if self.dealt == 1 else f"{self.dealt} times"
        packs = "one pack" if self.packs == 1 else f"{self.packs} packs"
        return (f"{self.card} was read, but it has already been dealt {times} from this "
                f"shoe of {packs}: check the card and confirm it on the display")


class DealtCardLedger:
    def __init__(self, packs: int = 1) -> None:
        if packs < 1:
            raise ValueError("a shoe holds at least one pack")
        self.packs = packs
        self._dealt: Counter[str] = Counter()

    @staticmethod
    def _code(card: str) -> str:
        code = normalise_code(str(card))
        if code is None:
            raise ValueError(f"{card!r} is not a card code (like AS, TD, 7H)")
        return code

    def dealt(self, card: str) -> int:
        return self._dealt[self._code(card)]

    def remaining(self, card: str) -> int:
        return self.packs - self.dealt(card)

    def conflict(self, card: str) -> Conflict | None:
        """A Conflict if ``card`` cannot be in the shoe any more, else None."""
        code = self._code(card)
        n = self._dealt[code]
        return Conflict(code, n, self.packs) if n >= self.packs else None

    def record(self, card: str) -> None:
        """Count ``card`` as dealt; CardConflict (and nothing recorded) if impossible."""
        c = self.conflict(card)
        if c is not None:
            raise CardConflict(c.message)
        self._dealt[self._code(card)] += 1

    def undo(self, card: str) -> None:
        """Take back a dealt card (the dealer corrected a reading)."""
        code = self._code(card)
        if self._dealt[code] == 0:
            raise ValueError(f"{code} has not been dealt from this shoe")
        self._dealt[code] -= 1

    def new_shoe(self) -> None:
        self._dealt.clear()

    @property
    def cards_left(self) -> int:
        return self.packs * len(CARD_CODES) - sum(self._dealt.values())
