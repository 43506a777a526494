"""Card codes as the rest of the table writes them: two characters, ``T`` for ten.

Vision keeps its own tiny list of the 52 codes (rather than importing the rules
engine) so that the package can be used, tested and benchmarked on its own; the
codes are the same strings ``controller.rules.Card`` prints.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RED_SUITS = "DH"
#: Class of index glyphs that are *not* standard (German B/D, Swiss suits...):
#: the generic profile carries templates of them so such a card matches
#: "foreign" rather than the nearest standard glyph.
FOREIGN = "?"
CARD_CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def normalise_code(text: str) -> str | None:
    """Accept ``AS``, ``as``, ``10S`` or ``TS``; return ``TS`` style, or None."""
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) == 2 and t[0] in RANKS and t[1] in SUITS:
        return t
    return None


def is_red(suit: str) -> bool:
    return suit in RED_SUITS
