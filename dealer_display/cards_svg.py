"""The project's own card images, drawn as SVG from code.

The display must work at a venue with no internet, and the card faces must be
ours to ship, so every face (and the back) is built here from a handful of
paths rather than fetched or copied from a deck design.  The design favours
reading from two metres over ornament: a large corner index, plain pips, and a
framed letter for the court cards.
"""

from __future__ import annotations

from functools import cache, lru_cache

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
RED = "#c8102e"
BLACK = "#1a1a1a"

#: Each suit drawn in a 100 x 100 box.
_SUIT_PATHS: dict[str, str] = {
    "H": (
        "M50 92 C20 66 0 48 0 28 C0 11 13 0 28 0 C38 0 46 6 50 16 "
        "C54 6 62 0 72 0 C87 0 100 11 100 28 C100 48 80 66 50 92 Z"
    ),
    "D": "M50 0 L86 50 L50 100 L14 50 Z",
    "S": (
        "M50 0 C78 28 100 44 100 62 C100 78 88 88 74 88 C64 88 57 84 53 77 "
        "C54 88 58 95 68 100 L32 100 C42 95 46 88 47 77 C43 84 36 88 26 88 "
        "C12 88 0 78 0 62 C0 44 22 28 50 0 Z"
    ),
    "C": (
        "M50 4 A22 22 0 0 1 68 40 A22 22 0 1 1 55 70 C56 84 60 93 68 100 L32 100 "
        "C40 93 44 84 45 70 A22 22 0 1 1 32 40 A22 22 0 0 1 50 4 Z"
    ),
}

W, H = 250, 350
_COLS = (80.0, 125.0, 170.0)
_ROWS4 = (92.0, 148.0, 204.0, 260.0)
_ROWS3 = (92.0, 176.0, 260.0)


def _pip_layout(rank: str) -> list[tuple[float, float]]:
    """Centre points of the pips of a number card, in the usual arrangement."""
    left, mid, right = _COLS
    top, centre, bottom = _ROWS3
    n = 10 if rank == "T" else int(rank)
    sides: list[float]
    extra: list[float] = []
    if n == 2:
        return [(mid, top), (mid, bottom)]
    if n == 3:
        return [(mid, top), (mid, centre), (mid, bottom)]
    if n in (4, 5):
        sides = [top, bottom]
        extra = [centre] if n == 5 else []
    elif n in (6, 7, 8):
        sides = [top, centre, bottom]
        extra = {6: [], 7: [134.0], 8: [134.0, 218.0]}[n]
    else:
        sides = list(_ROWS4)
        extra = [176.0] if n == 9 else [120.0, 232.0]
    points = [(x, y) for y in sides for x in (left, right)]
    points += [(mid, y) for y in extra]
    return points


def _use(suit: str, x: float, y: float, size: float, flip: bool = False) -> str:
    scale = size / 100
    transform = f"translate({x - size / 2:.1f} {y - size / 2:.1f}) scale({scale:.3f})"
    if flip:
        transform = f"rotate(180 {x:.1f} {y:.1f}) " + transform
    return f'<use href="#s" transform="{transform}"/>'


@cache
def card_svg(name: str) -> str:
    """The SVG document for a card named like ``"TH"`` or ``"AS"``; ``ValueError`` otherwise."""
    if len(name) != 2 or name[0] not in RANKS or name[1] not in SUITS:
        raise ValueError(f"no card image for {name!r}")
    rank, suit = name[0], name[1]
    colour = RED if suit in "HD" else BLACK
    label = "10" if rank == "T" else rank
    index_size = 46 if rank == "T" else 52
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
        f'width="{W}" height="{H}" role="img" aria-label="{label}{suit}">',
        f'<defs><path id="s" d="{_SUIT_PATHS[suit]}"/></defs>',
        f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="18" fill="#fff" '
        'stroke="#777" stroke-width="3"/>',
        f'<g fill="{colour}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" '
        'font-weight="700">',
        f'<text x="34" y="58" font-size="{index_size}" text-anchor="middle">{label}</text>',
        _use(suit, 34, 86, 34),
        f'<g transform="rotate(180 {W / 2} {H / 2})">'
        f'<text x="34" y="58" font-size="{index_size}" text-anchor="middle">{label}</text>'
        f"{_use(suit, 34, 86, 34)}</g>",
    ]
    if rank == "A":
        parts.append(_use(suit, W / 2, H / 2, 120))
    elif rank in "JQK":
        parts.append(
            f'<rect x="62" y="62" width="{W - 124}" height="{H - 124}" rx="10" '
            f'fill="none" stroke="{colour}" stroke-width="4"/>'
        )
        parts.append(
            f'<text x="{W / 2}" y="{H / 2 + 10}" font-size="110" text-anchor="middle">{rank}</text>'
        )
        parts.append(_use(suit, W / 2, H / 2 + 62, 44))
    else:
        for x, y in _pip_layout(rank):
            parts.append(_use(suit, x, y, 40, flip=y > H / 2 + 1))
    parts.append("</g></svg>")
    return "".join(parts)


@lru_cache(maxsize=1)
def back_svg() -> str:
    """The back every face-down card shows: a calm two-tone lattice."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
        f'height="{H}" role="img" aria-label="face-down card">'
        '<defs><pattern id="p" width="20" height="20" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="20" height="20" fill="#1d4e89"/>'
        '<rect width="10" height="20" fill="#2a64a8"/></pattern></defs>'
        f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="18" fill="#fff" '
        'stroke="#777" stroke-width="3"/>'
        f'<rect x="16" y="16" width="{W - 32}" height="{H - 32}" rx="10" fill="url(#p)"/>'
        f'<rect x="16" y="16" width="{W - 32}" height="{H - 32}" rx="10" fill="none" '
        'stroke="#fff" stroke-width="4"/></svg>'
    )


ALL_CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
