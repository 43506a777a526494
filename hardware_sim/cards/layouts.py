"""Built-in faces with the index laid out as other decks print it: a single
index in the top-right corner only, indices in all four corners, a jumbo
index, an index touching the card's edge, a large index touching a dark
outline printed a little inside the card's edge (``outline*``, see
:data:`OUTLINES`; its court frames and a ten's top pips touch the index too),
body pips printed close against the index (``tight*``, see :data:`PIP_AREAS`).

The recogniser's calibration must accept all of these (issue 18); they are the
built-in renderer's faces with only the corner index drawn differently.

Example::

    from hardware_sim.cards.layouts import LayoutDeck
    deck = LayoutDeck("classic", "top_right")      # one upright index, top-right
    face = deck.face("QH")
    LayoutDeck("modern", "jumbo").face("TD")        # a big index, as on casino decks
"""

from __future__ import annotations

import numpy as np

import hardware_sim.cards.builtin as b
from hardware_sim.cards._img import Image
from hardware_sim.cards.shapes import Color, draw_shape

#: layout -> (style changes, corners drawn); corners: "tl", "br" (turned),
#: "tr" (upright, against the right edge), "bl" (turned), "br_up" (upright,
#: against the right edge, its suit sign's bottom ``index_y`` above the bottom
#: edge: a deck that prints the same index at both ends without turning it),
#: "br_mirror" (where "br" is, suit over rank, upright: the top-left's mirror
#: image top to bottom)
LAYOUTS: dict[str, tuple[dict[str, float], tuple[str, ...]]] = {
    "standard": ({}, ("tl", "br")),
    "top_right": ({}, ("tr",)),
    "four": ({}, ("tl", "br", "tr", "bl")),
    # (body pips smaller, as on jumbo decks, so the big index never touches them)
    "jumbo": ({"index_height": 0.2, "index_pip": 0.1, "index_max_width": 0.17,
               "index_x": 0.02, "index_y": 0.025, "pip": 0.13}, ("tl", "br")),
    "edge": ({"index_height": 0.2, "index_pip": 0.12, "index_max_width": 0.22,
              "index_x": 0.0, "index_y": 0.03}, ("tl", "br")),
    "edge_top_right": ({"index_height": 0.2, "index_pip": 0.12, "index_max_width": 0.22,
                        "index_x": 0.0, "index_y": 0.03}, ("tr",)),
    "upright_bottom": ({}, ("tl", "br_up")),
    # the bottom-right index the top-left's mirror image top to bottom: suit
    # sign over rank, both upright (turned with the card, it looks like an
    # index in its usual place with both glyphs upside down: a 6 over a heart
    # becomes a "9" over a stemless "spade")
    "mirrored_bottom": ({}, ("tl", "br_mirror")),
    # a large index over a printed outline (OUTLINES); the court frame (at 0.22
    # of the width) and a ten's top-left pip (from about 0.245) reach the index
    "outline": ({"index_height": 0.2, "index_pip": 0.11, "index_max_width": 0.2,
                 "index_x": 0.043, "index_y": 0.043}, ("tl", "br")),
    "outline_thick": ({"index_height": 0.2, "index_pip": 0.11, "index_max_width": 0.2,
                       "index_x": 0.055, "index_y": 0.055}, ("tl", "br")),
    "outline_inset": ({"index_height": 0.18, "index_pip": 0.1, "index_max_width": 0.18,
                       "index_x": 0.068, "index_y": 0.068}, ("tl", "br")),
    # the style's own index, the body pips moved in against it (PIP_AREAS)
    "tight": ({}, ("tl", "br")),
    # the jumbo index with full-size body pips moved in against it (PIP_AREAS)
    "tight_jumbo": ({"index_height": 0.2, "index_pip": 0.1, "index_max_width": 0.17,
                     "index_x": 0.02, "index_y": 0.025}, ("tl", "br")),
}

#: layout -> (x, y) of the number cards' top-left body pip's centre, as
#: fractions of the card's width and height (the built-in faces: 0.33, 0.2);
#: the other columns and rows are placed symmetrically (middle column 0.5,
#: right column 1 - x, bottom row 1 - y).  Decks print pips this close: a
#: ten's top pips may sit a pixel from the index.  At 250 px, ``tight``'s
#: top-left heart comes within 2 px of the classic 4, 5, 6, 8 and 10's
#: index (into the 4's and 10's), of duplex's 10 only, and runs into the
#: heavier modern index of every heart 4-6, 8, 10 and every ten;
#: ``tight_jumbo``'s touches or overlaps the big index on every heart 4, 5,
#: 6, 8 and 10 (the other number cards stay 3 px or more away), in all
#: three styles.  tests/vision/test_vision_index_tight.py measures the gaps
#: on the drawing.
PIP_AREAS: dict[str, tuple[float, float]] = {
    "tight": (0.25, 0.15),
    "tight_jumbo": (0.27, 0.16),
}

#: layout -> (inset, thickness) of a dark outline printed round the face, as
#: fractions of the card width (inset: card edge to the line's outer side);
#: the index starts on the line's inner side ("outline"), across the line
#: ("outline_thick") or just inside a line further in ("outline_inset")
OUTLINES: dict[str, tuple[float, float]] = {
    "outline": (0.035, 0.008),
    "outline_thick": (0.045, 0.016),
    "outline_inset": (0.06, 0.01),
}
#: the outline's ink
OUTLINE_INK: Color = (45, 40, 35)


def _draw_outline(img: Image, inset: float, thickness: float) -> None:
    """A dark rectangle ``inset`` inside the card's edge, ``thickness`` wide."""
    h, w = img.shape[:2]
    a, t = round(inset * w), max(1, round(thickness * w))
    img[a : h - a, a : a + t] = OUTLINE_INK
    img[a : h - a, w - a - t : w - a] = OUTLINE_INK
    img[a : a + t, a : w - a] = OUTLINE_INK
    img[h - a - t : h - a, a : w - a] = OUTLINE_INK


def _draw_pips_at(img: Image, label: str, shape: str, color: Color, st: b.CardStyle,
                  x: float, y: float) -> None:
    """The built-in pip pattern of ``label`` with its top-left pip centred at
    (``x`` of the width, ``y`` of the height), as ``builtin._draw_pips`` draws
    it from (0.33, 0.2)."""
    h, w = img.shape[:2]
    xs = (x * w, 0.5 * w, (1 - x) * w)
    top, bottom = y * h, (1 - y) * h
    for col, row in b._PIPS[label]:
        draw_shape(img, shape, (xs[col], top + (bottom - top) * row), st.pip * w,
                   {"main": color}, upside_down=row > 0.5)


def _draw_index(img: Image, label: str, suit: str, color: Color, st: b.CardStyle,
                corners: tuple[str, ...]) -> None:
    w = img.shape[1]
    gh = round(st.index_height * w)
    glyph = b._glyph(label, st.font, st.stroke, gh, round(st.index_max_width * w))
    col_w = max(glyph.shape[1], round(st.index_pip * w * 0.9))
    ph = st.index_pip * w
    for corner in corners:
        turn = corner in ("br", "bl", "br_mirror")
        # ("bl" turned is the top-right of the turned card)
        right = corner in ("tr", "bl", "br_up")
        # "br_mirror": placed as "br", each glyph turned back upright on the card
        upright = corner == "br_mirror"
        view = np.ascontiguousarray(img[::-1, ::-1]) if turn else img
        x0 = w - round(st.index_x * w) - col_w if right else round(st.index_x * w)
        y0 = round(st.index_y * w)
        if corner == "br_up":  # rank, gap and suit sign end index_y above the bottom
            y0 = round(img.shape[0] - st.index_y * w - 1.12 * gh - ph)
        b._blend(view, glyph[::-1, ::-1] if upright else glyph,
                 x0 + (col_w - glyph.shape[1]) // 2, y0, color)
        draw_shape(view, suit, (x0 + col_w / 2, y0 + gh + 0.12 * gh + ph / 2), ph,
                   {"main": color}, upside_down=upright)
        if turn:
            img[:] = view[::-1, ::-1]


class LayoutDeck:
    """A built-in style with the index drawn in ``layout`` (see :data:`LAYOUTS`)."""

    def __init__(self, style: str = "classic", layout: str = "standard", *,
                 width: int = 250) -> None:
        changes, self.corners = LAYOUTS[layout]
        self.layout = layout
        self.style = b.with_changes(style, **changes)
        self.width = width
        self.name = f"layout:{style}:{layout}"
        w, h = b._size(width)
        self._mask = b.card_mask(w, h, self.style.corner_radius * w)
        self._faces: dict[str, Image] = {}

    def face(self, code: str) -> Image:
        code = b.parse_code(code)
        if code not in self._faces:
            self._faces[code] = self._render(code)
        return self._faces[code]

    def _render(self, code: str) -> Image:
        st, (w, h) = self.style, b._size(self.width)
        rank, suit = code[0], code[1]
        img = b._blank(2 * w, 2 * h, st)
        if self.layout in OUTLINES:
            _draw_outline(img, *OUTLINES[self.layout])
        color = st.suit_color(suit)
        shape = b.SUIT_SHAPES[suit]
        _draw_index(img, b.RANK_LABELS[rank], shape, color, st, self.corners)
        if rank == "A":
            draw_shape(img, shape, (w, h), st.ace_pip * 2 * w, {"main": color})
        elif rank in "JQK":
            b._draw_court(img, rank, shape, color, {"main": color}, st)
        elif self.layout in PIP_AREAS:
            _draw_pips_at(img, b.RANK_LABELS[rank], shape, color, st, *PIP_AREAS[self.layout])
        else:
            b._draw_pips(img, b.RANK_LABELS[rank], shape, {"main": color}, st)
        return b._finish(img, w, h)

    def back(self) -> Image:
        return b.render_back(width=self.width, style=self.style)

    def mask(self, code: str | None) -> Image:
        return self._mask
