"""Built-in card renderer: standard French-suited faces drawn with OpenCV alone.

The default deck of the simulator must work on a machine with no extra
packages, and the recogniser has to be tested against more than one design, so
the look is parameterised by a :class:`CardStyle` (font, index size and place,
colours, paper). Everything is drawn at twice the asked size and shrunk with
area averaging, which gives print-like anti-aliased edges.

It also draws what a recogniser must *not* read as a standard card: a card
back, and non-standard decks (German suits with U/O/K, French suits with
German B/D/K court letters, an A-less Swiss-style deck).

Example::

    from hardware_sim.cards.builtin import render_card, render_back, STYLES
    face = render_card("TD")                    # 250 x 350 BGR uint8, style "classic"
    big = render_card("AS", width=500, style="modern")
    back = render_back(width=250)
    for name, img, unsure in nonstandard_cards("german"):
        ...                                     # unsure: a reader must not name a card

Card codes are rank ``A23456789TJQK`` + suit ``CDHS``; the printed index of a
ten is "10", as on real cards.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from hardware_sim.cards._img import Image, u8
from hardware_sim.cards.shapes import Color, draw_shape

RANKS = "A23456789TJQK"
SUITS = "CDHS"
CARD_CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
ASPECT = 3.5 / 2.5  # height / width of a poker-size card

SUIT_SHAPES = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
RANK_LABELS = {"T": "10"} | {r: r for r in RANKS if r != "T"}


@dataclass(frozen=True)
class CardStyle:
    """Look of a built-in design; sizes are fractions of the card width."""

    name: str
    font: int = cv2.FONT_HERSHEY_TRIPLEX
    stroke: float = 0.035  # glyph stroke as a fraction of the glyph height
    index_height: float = 0.13  # rank glyph height
    index_x: float = 0.045  # left edge of the index column
    index_y: float = 0.045  # top edge of the rank glyph
    index_pip: float = 0.085  # height of the small suit pip below the rank
    index_max_width: float = 0.13  # "10" is condensed to fit this
    pip: float = 0.17  # height of a body pip
    ace_pip: float = 0.42
    paper: Color = (243, 247, 250)
    border: Color = (90, 90, 90)
    corner_radius: float = 0.055
    colors: tuple[Color, Color, Color, Color] = (  # C D H S, BGR
        (25, 25, 25),
        (40, 30, 200),
        (40, 30, 200),
        (25, 25, 25),
    )
    court_fill: Color = (170, 225, 245)

    def suit_color(self, suit: str) -> Color:
        return self.colors[SUITS.index(suit)]


STYLES: dict[str, CardStyle] = {
    "classic": CardStyle("classic"),
    "modern": CardStyle(
        "modern",
        font=cv2.FONT_HERSHEY_SIMPLEX,
        stroke=0.11,
        index_height=0.15,
        index_x=0.05,
        index_y=0.05,
        index_pip=0.09,
        index_max_width=0.16,
        pip=0.18,
        paper=(250, 250, 250),
        colors=((30, 30, 30), (30, 20, 215), (30, 20, 215), (30, 30, 30)),
        court_fill=(235, 200, 160),
    ),
    "duplex": CardStyle(
        "duplex",
        font=cv2.FONT_HERSHEY_DUPLEX,
        stroke=0.07,
        index_height=0.11,
        index_x=0.04,
        index_y=0.06,
        index_pip=0.075,
        index_max_width=0.12,
        pip=0.16,
        paper=(225, 240, 246),
        border=(60, 70, 80),
        colors=((40, 30, 20), (50, 20, 160), (50, 20, 160), (40, 30, 20)),
        court_fill=(160, 200, 225),
    ),
    "four_color": CardStyle(
        "four_color",
        font=cv2.FONT_HERSHEY_COMPLEX,
        stroke=0.06,
        index_height=0.14,
        colors=((40, 130, 20), (190, 90, 20), (40, 30, 200), (25, 25, 25)),
    ),
}


def _style(style: str | CardStyle) -> CardStyle:
    if isinstance(style, CardStyle):
        return style
    try:
        return STYLES[style]
    except KeyError:
        raise ValueError(f"unknown card style {style!r}; choose from {sorted(STYLES)}") from None


def card_mask(width: int, height: int, radius: float) -> Image:
    """255 inside a rounded rectangle of the card's size, 0 outside (anti-aliased)."""
    k = 2
    m = np.zeros((height * k, width * k), np.uint8)
    r = max(1, round(radius * k))
    w, h = width * k - 1, height * k - 1
    cv2.rectangle(m, (r, 0), (w - r, h), 255, -1)
    cv2.rectangle(m, (0, r), (w, h - r), 255, -1)
    for cx, cy in ((r, r), (w - r, r), (r, h - r), (w - r, h - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return u8(cv2.resize(m, (width, height), interpolation=cv2.INTER_AREA))


def _glyph(text: str, font: int, stroke: float, height: int, max_width: int) -> Image:
    """Alpha mask of ``text`` cropped to its ink, scaled to ``height`` px tall
    (narrowed to ``max_width`` if wider, as printers condense a "10")."""
    scale = 4.0
    thick = max(1, round(stroke * 30 * scale))
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    pad = thick + 4
    canvas = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(canvas, text, (pad, pad + th), font, scale, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    ink = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    w = max(1, round(ink.shape[1] * height / ink.shape[0]))
    w = min(w, max_width)
    return u8(cv2.resize(ink, (w, height), interpolation=cv2.INTER_AREA))


def _blend(img: Image, alpha: Image, x: int, y: int, color: Color) -> None:
    """Paint ``color`` into ``img`` through mask ``alpha`` placed at (x, y)."""
    h, w = alpha.shape
    roi = img[y : y + h, x : x + w]
    a = (alpha[: roi.shape[0], : roi.shape[1]].astype(np.float32) / 255.0)[..., None]
    roi[:] = (roi * (1 - a) + np.array(color, np.float32) * a).astype(np.uint8)


def _draw_index(
    img: Image, label: str, suit_shape: str | None, color: Color, colors: dict[str, Color],
    st: CardStyle,
) -> None:
    """Draw the corner index (rank over small pip) at the top-left, and the same
    turned 180 degrees at the bottom-right, as printed cards do."""
    w = img.shape[1]
    gh = round(st.index_height * w)
    glyph = _glyph(label, st.font, st.stroke, gh, round(st.index_max_width * w))
    col_w = max(glyph.shape[1], round(st.index_pip * w * 0.9))
    x0 = round(st.index_x * w)
    y0 = round(st.index_y * w)
    for turn in (False, True):
        view = img[::-1, ::-1] if turn else img  # a view: drawing on it draws turned
        view = np.ascontiguousarray(view) if turn else view
        gx = x0 + (col_w - glyph.shape[1]) // 2
        _blend(view, glyph, gx, y0, color)
        if suit_shape is not None:
            ph = st.index_pip * w
            draw_shape(view, suit_shape, (x0 + col_w / 2, y0 + gh + 0.12 * gh + ph / 2), ph, colors)
        if turn:
            img[:] = view[::-1, ::-1]


# pip centres as (column, row): column in {0: left, 1: middle, 2: right},
# row from 0 (top) to 1 (bottom) of the pip area
_PIPS: dict[str, list[tuple[int, float]]] = {
    "2": [(1, 0.0), (1, 1.0)],
    "3": [(1, 0.0), (1, 0.5), (1, 1.0)],
    "4": [(0, 0.0), (2, 0.0), (0, 1.0), (2, 1.0)],
    "5": [(0, 0.0), (2, 0.0), (1, 0.5), (0, 1.0), (2, 1.0)],
    "6": [(c, r) for r in (0.0, 0.5, 1.0) for c in (0, 2)],
    "7": [(c, r) for r in (0.0, 0.5, 1.0) for c in (0, 2)] + [(1, 0.25)],
    "8": [(c, r) for r in (0.0, 0.5, 1.0) for c in (0, 2)] + [(1, 0.25), (1, 0.75)],
    "9": [(c, r) for r in (0.0, 1 / 3, 2 / 3, 1.0) for c in (0, 2)] + [(1, 0.5)],
    "10": [(c, r) for r in (0.0, 1 / 3, 2 / 3, 1.0) for c in (0, 2)] + [(1, 1 / 6), (1, 5 / 6)],
}


def _draw_pips(
    img: Image, n: str, suit_shape: str, colors: dict[str, Color], st: CardStyle
) -> None:
    h, w = img.shape[:2]
    xs = (0.33 * w, 0.5 * w, 0.67 * w)
    top, bottom = 0.2 * h, 0.8 * h
    for col, row in _PIPS[n]:
        y = top + (bottom - top) * row
        draw_shape(img, suit_shape, (xs[col], y), st.pip * w, colors, upside_down=row > 0.5)


def _draw_court(
    img: Image, letter: str, suit_shape: str, color: Color, colors: dict[str, Color],
    st: CardStyle, letter_glyph: Image | None = None,
) -> None:
    """A framed court panel: a simple bust, mirrored top and bottom as on real
    court cards, with a large letter across the middle (``letter_glyph``: that
    letter's alpha mask, already sized, when the deck sets it in another font)."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = round(0.22 * w), round(0.13 * h), round(0.78 * w), round(0.87 * h)
    cv2.rectangle(img, (x0, y0), (x1, y1), st.court_fill, -1)
    cv2.rectangle(img, (x0, y0), (x1, y1), color, max(1, round(0.012 * w)), cv2.LINE_AA)
    cx = w / 2
    for turn in (False, True):
        view = np.ascontiguousarray(img[::-1, ::-1]) if turn else img
        head_y = y0 + 0.16 * (y1 - y0)
        r = 0.085 * w
        cv2.ellipse(
            view, (round(cx), round(head_y + 0.22 * h * 0.5)), (round(0.2 * w), round(0.09 * h)),
            0, 180, 360, color, -1, cv2.LINE_AA,
        )
        cv2.circle(view, (round(cx), round(head_y)), round(r), (190, 215, 240), -1, cv2.LINE_AA)
        cv2.circle(view, (round(cx), round(head_y)), round(r), color, max(1, round(0.008 * w)),
                   cv2.LINE_AA)
        draw_shape(view, suit_shape, (x0 + 0.1 * w, y0 + 0.08 * w), 0.1 * w, colors)
        if turn:
            img[:] = view[::-1, ::-1]
    glyph = (letter_glyph if letter_glyph is not None
             else _glyph(letter, st.font, st.stroke, round(0.22 * h), round(0.4 * w)))
    _blend(img, glyph, round(cx - glyph.shape[1] / 2), round(h / 2 - glyph.shape[0] / 2), color)


def _blank(w: int, h: int, st: CardStyle) -> Image:
    img = np.empty((h, w, 3), np.uint8)
    img[:] = st.paper
    r = round(st.corner_radius * w)
    mask = card_mask(w, h, r)
    img[mask == 0] = (255, 255, 255)
    inner = card_mask(w - 2, h - 2, max(1, r - 1))
    ring = mask.astype(np.int16) - np.pad(inner, 1).astype(np.int16)
    a = np.clip(ring, 0, 255).astype(np.uint8)
    _blend(img, a, 0, 0, st.border)
    return img


def _finish(img2x: Image, width: int, height: int) -> Image:
    return u8(cv2.resize(img2x, (width, height), interpolation=cv2.INTER_AREA))


def _size(width: int) -> tuple[int, int]:
    if width < 40:
        raise ValueError("card width must be at least 40 px")
    return width, round(width * ASPECT)


@lru_cache(maxsize=512)
def _render_card_cached(code: str, width: int, st: CardStyle) -> Image:
    rank, suit = code[0], code[1]
    w, h = _size(width)
    img = _blank(2 * w, 2 * h, st)
    color = st.suit_color(suit)
    colors = {"main": color}
    suit_shape = SUIT_SHAPES[suit]
    _draw_index(img, RANK_LABELS[rank], suit_shape, color, colors, st)
    if rank == "A":
        draw_shape(img, suit_shape, (w, h), st.ace_pip * 2 * w, colors)
    elif rank in "JQK":
        _draw_court(img, rank, suit_shape, color, colors, st)
    else:
        _draw_pips(img, RANK_LABELS[rank], suit_shape, colors, st)
    out = _finish(img, w, h)
    out.setflags(write=False)
    return out


def parse_code(code: str) -> str:
    """Normalise a card code ("10h", "TH", "th") to the two-letter form "TH"."""
    c = code.strip().upper()
    if c.startswith("10"):
        c = "T" + c[2:]
    if len(c) != 2 or c[0] not in RANKS or c[1] not in SUITS:
        raise ValueError(f"not a card code: {code!r} (expected rank {RANKS} + suit {SUITS})")
    return c


def render_card(code: str, *, width: int = 250, style: str | CardStyle = "classic") -> Image:
    """Face of card ``code`` as a ``(round(width * 1.4), width, 3)`` BGR uint8 image.

    Pixels outside the rounded corners are white; :func:`card_mask` gives the
    card's outline for compositing. The result is cached and read-only; copy it
    before drawing on it.
    """
    return _render_card_cached(parse_code(code), width, _style(style))


BACK_COLORS: dict[str, Color] = {"blue": (150, 70, 20), "red": (40, 30, 170)}


@lru_cache(maxsize=16)
def render_back(
    *, width: int = 250, color: str = "blue", style: str | CardStyle = "classic"
) -> Image:
    """A card back: a white margin around a cross-hatched coloured panel."""
    st = _style(style)
    w, h = _size(width)
    img = _blank(2 * w, 2 * h, st)
    ink = BACK_COLORS[color]
    m = round(0.07 * 2 * w)
    panel = img[m : 2 * h - m, m : 2 * w - m]
    panel[:] = ink
    ph, pw = panel.shape[:2]
    step = max(6, round(0.045 * 2 * w))
    light = tuple(min(255, c + 90) for c in ink)
    for d in range(-ph, pw + ph, step):
        cv2.line(panel, (d, 0), (d + ph, ph), light, max(1, step // 6), cv2.LINE_AA)
        cv2.line(panel, (d, ph), (d + ph, 0), light, max(1, step // 6), cv2.LINE_AA)
    cv2.rectangle(panel, (0, 0), (pw - 1, ph - 1), (255, 255, 255), max(2, step // 4))
    out = _finish(img, w, h)
    out.setflags(write=False)
    return out


# --- non-standard decks (negatives for the recogniser) -------------------------

NONSTANDARD_DECKS: dict[str, dict[str, object]] = {
    # German suits: hearts, bells, leaves, acorns; Unter / Ober / Konig; Daus "D"
    "german": {
        "suits": {"hearts": ("heart", (40, 30, 200)), "bells": ("bell", (20, 160, 225)),
                  "leaves": ("leaf", (40, 140, 30)), "acorns": ("acorn", (30, 70, 130))},
        "labels": ["7", "8", "9", "10", "U", "O", "K", "D"],
    },
    # French suits, German court letters Bube / Dame / Konig
    "bdk": {
        "suits": {"hearts": ("heart", (40, 30, 200)), "diamonds": ("diamond", (40, 30, 200)),
                  "clubs": ("club", (25, 25, 25)), "spades": ("spade", (25, 25, 25))},
        "labels": ["B", "D"],
    },
    # Swiss-style: roses, bells, shields, acorns; banner "X", U / O / K; no "A" at all
    "swiss": {
        "suits": {"roses": ("rose", (40, 30, 200)), "bells": ("bell", (20, 160, 225)),
                  "shields": ("shield", (30, 30, 30)), "acorns": ("acorn", (30, 70, 130))},
        "labels": ["6", "7", "8", "9", "X", "U", "O", "K"],
    },
}


@lru_cache(maxsize=256)
def render_nonstandard(
    deck: str, label: str, suit: str, *, width: int = 250, style: str | CardStyle = "classic"
) -> Image:
    """A face of a non-standard deck (see :data:`NONSTANDARD_DECKS`), index
    ``label`` over a ``suit`` pip, e.g. ``render_nonstandard("german", "U", "bells")``."""
    st = _style(style)
    spec = NONSTANDARD_DECKS[deck]
    suits = spec["suits"]
    assert isinstance(suits, dict)
    shape_name, color = suits[suit]
    w, h = _size(width)
    img = _blank(2 * w, 2 * h, st)
    colors: dict[str, Color] = {"main": color, "dark": (30, 40, 60), "light": (90, 190, 230)}
    _draw_index(img, label, shape_name, color, colors, st)
    if label.isdigit():
        _draw_pips(img, label, shape_name, colors, st)
    elif label == "X":
        _draw_pips(img, "9", shape_name, colors, st)
    else:
        _draw_court(img, label, shape_name, color, colors, st)
    out = _finish(img, w, h)
    out.setflags(write=False)
    return out


def nonstandard_cards(
    deck: str, *, width: int = 250, style: str | CardStyle = "classic"
) -> list[tuple[str, Image, bool]]:
    """Every face of a non-standard deck as ``(name, image, must_be_unsure)``.

    ``must_be_unsure`` is False only where the face really does look like a
    standard card (a German heart "7".."10" or "K" reads fairly as a French
    one); everything else must come back unsure from a recogniser.
    """
    spec = NONSTANDARD_DECKS[deck]
    suits = spec["suits"]
    labels = spec["labels"]
    assert isinstance(suits, dict) and isinstance(labels, list)
    out = []
    for suit, (shape_name, _) in suits.items():
        for label in labels:
            french_suit = shape_name in ("heart", "diamond", "club", "spade")
            french_rank = label in ("7", "8", "9", "10", "K", "6")
            out.append(
                (
                    f"{deck}:{label}-{suit}",
                    render_nonstandard(deck, label, suit, width=width, style=style),
                    not (french_suit and french_rank),
                )
            )
    return out


def with_changes(style: str | CardStyle, **changes: object) -> CardStyle:
    """A copy of a style with some fields changed, e.g. a larger index."""
    return replace(_style(style), **changes)  # type: ignore[arg-type]
