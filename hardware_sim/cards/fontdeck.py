"""Built-in faces whose index is set in an installed TrueType / OpenType font.

Printed decks set their indices in many typefaces; the built-in renderer only
has OpenCV's Hershey fonts, and every installed design has been read while
tuning the recogniser.  A *font deck* is the built-in ``classic`` face (size,
paper, inks, pip layouts, courts, the small suit pip under the rank, the
bottom index turned half a turn) with the rank of both indices, and the big
court letter, set in a font family from the system (``font:C059``,
``font:Open Sans/bold``), so a new font package gives a deck nobody tuned on.

The suit sign stays the built-in drawn pip: printers draw suit signs as
artwork, and most text fonts have none (fontconfig would borrow them from
another font).  The rank keeps the font's own proportions: every label is
scaled by one factor, chosen so that the cap height (the ink height of "H")
is the built-in index height, and stands on a common baseline; a "10" wider
than the index column is condensed, as printers do.  A tail below the baseline
(a "Q", a "J") moves that card's index pip down to clear it.

The labels are drawn by ``rsvg-convert`` under a fontconfig that knows only
the chosen font file (:mod:`hardware_sim.cards.truetype`), so a missing family
raises :class:`~hardware_sim.cards.truetype.FontMissing`, naming the Debian
package, instead of being drawn in a substitute.  Faces are cached on disk
like the gnome designs' (``PONTOON_CACHE_DIR``), keyed by the font file and the
drawing code's source.

Example::

    from hardware_sim.cards import open_deck
    deck = open_deck("font:DejaVu Serif/bold")
    face = deck.face("TD")             # 250 x 350 BGR uint8, like open_deck("builtin")
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

import cv2
import numpy as np

import hardware_sim.cards.builtin as b
import hardware_sim.cards.shapes as shapes
import hardware_sim.cards.truetype as truetype
from hardware_sim.cards._img import Image, u8
from hardware_sim.cards.gnome import _write_atomic, cache_dir
from hardware_sim.cards.shapes import Color, draw_shape
from hardware_sim.cards.truetype import FontFile, find_font, isolated_fonts, render_svg

PREFIX = "font:"
#: the code that decides what a face looks like: the disk cache is keyed by its
#: source, so a change to any of it redraws the faces instead of reusing stale ones
_DRAWING_MODULES = (b, shapes, truetype)
#: the labels drawn from the font; "H" only measures the cap height
_REFERENCE = "H"
_LABELS = (*sorted(set(b.RANK_LABELS.values())), _REFERENCE)
#: court letter height as a fraction of the card height (as the built-in court)
COURT_LETTER = 0.22


def parse_name(name: str) -> tuple[str, bool]:
    """``"font:Open Sans/bold"`` -> ``("Open Sans", True)``."""
    if not name.startswith(PREFIX):
        raise ValueError(f"not a font deck name: {name!r} (expected 'font:<Family>[/bold]')")
    family = name[len(PREFIX):]
    bold = False
    if family.endswith("/bold"):
        family, bold = family[: -len("/bold")], True
    elif family.endswith("/regular"):
        family = family[: -len("/regular")]
    if not family or "/" in family:
        raise ValueError(f"not a font deck name: {name!r} (expected 'font:<Family>[/bold]')")
    return family, bold


def deck_name(family: str, bold: bool = False) -> str:
    return f"{PREFIX}{family}{'/bold' if bold else ''}"


@dataclass(frozen=True)
class _Ink:
    """A label's ink as drawn on the sheet: alpha, and its top and bottom
    relative to the baseline (px, y down)."""

    alpha: Image
    top: int
    bottom: int


def _sheet_ink(font: FontFile, size: float) -> dict[str, _Ink]:
    """Every label drawn at font size ``size`` px, one per row of one SVG."""
    cell_w, cell_h, base = 3.0 * size, 1.75 * size, 1.25 * size
    weight = "bold" if font.weight >= 180 else "normal"
    texts = "".join(
        f'<text x="{cell_w / 2:.1f}" y="{i * cell_h + base:.1f}" text-anchor="middle">{t}</text>'
        for i, t in enumerate(_LABELS)
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{cell_w:.0f}" '
        f'height="{cell_h * len(_LABELS):.0f}"><g font-family="{escape(font.family)}" '
        f'font-weight="{weight}" font-style="normal" font-size="{size:.1f}" fill="#000">'
        f"{texts}</g></svg>"
    )
    with isolated_fonts([font.file]) as env:
        alpha = render_svg(svg, env)[..., 3]
    out = {}
    for i, t in enumerate(_LABELS):
        y0 = round(i * cell_h)
        cell = alpha[y0 : round((i + 1) * cell_h)]
        ys, xs = np.nonzero(cell > 0)
        if not len(ys):
            raise RuntimeError(f"{font.file} drew nothing for {t!r}")
        ink = cell[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        baseline = i * cell_h + base - y0  # within the cell
        out[t] = _Ink(np.ascontiguousarray(ink), round(int(ys.min()) - baseline),
                      round(int(ys.max()) + 1 - baseline))
    return out


def undrawn_label(font: FontFile) -> str | None:
    """The first index label ``font`` draws nothing for (None: it draws them
    all): a face that lacks them, or that the renderer cannot use, makes no
    deck, and a benchmark should say so before it reads anything.  A label
    with a character the font does not map counts too: it would be drawn as
    an empty box (TypoScript, the thirteenth group's script face, has no
    digits)."""
    charset = truetype.font_charset(font.file)
    missing = [t for t in _LABELS if any(ord(ch) not in charset for ch in t)]
    if missing:
        return missing[0]
    try:
        _sheet_ink(font, 24.0)
    except RuntimeError as exc:
        return str(exc).rsplit(" for ", 1)[-1].strip("'")
    return None


def _scaled(ink: Image, scale: float, max_width: int | None = None) -> Image:
    h = max(1, round(ink.shape[0] * scale))
    w = max(1, round(ink.shape[1] * scale))
    if max_width is not None:
        w = min(w, max_width)  # condensed, as printers set a wide "10"
    return u8(cv2.resize(ink, (w, h), interpolation=cv2.INTER_AREA))


@dataclass(frozen=True)
class _Glyphs:
    """Labels sized for one card width (drawn at twice the size, as built-in faces)."""

    #: label -> (alpha, top offset from the index top, px its ink reaches below the baseline)
    index: dict[str, tuple[Image, int, int]]
    court: dict[str, Image]  # J / Q / K, the big letter


def _glyphs(font: FontFile, width2: int, height2: int, st: b.CardStyle) -> _Glyphs:
    gh = round(st.index_height * width2)
    court_h = COURT_LETTER * height2
    size = 3 * max(gh, court_h / 3) / 0.7  # cap height ~0.7 em: ink drawn >= 3x larger
    inks = _sheet_ink(font, size)
    cap = -inks[_REFERENCE].top
    scale = gh / cap
    index = {}
    for label in set(b.RANK_LABELS.values()):
        ink = inks[label]
        index[label] = (_scaled(ink.alpha, scale, round(st.index_max_width * width2)),
                        gh + round(ink.top * scale), max(0, round(ink.bottom * scale)))
    cs = court_h / cap
    court = {r: _scaled(inks[r].alpha, cs, round(0.4 * width2)) for r in "JQK"}
    return _Glyphs(index, court)


@cache
def _code_digest() -> str:
    h = hashlib.sha1()
    for mod in (*_DRAWING_MODULES, sys.modules[__name__]):
        h.update(Path(str(mod.__file__)).read_bytes())
    return h.hexdigest()[:10]


class FontDeck:
    """The built-in ``classic`` deck with its indices set in font ``family``."""

    def __init__(self, family: str, *, bold: bool = False, width: int = 250) -> None:
        self.font = find_font(family, bold=bold)  # FontMissing: not installed
        self.family = family
        self.bold = bold
        self.width = width
        self.name = deck_name(family, bold)
        self.style = b.STYLES["classic"]
        w, h = b._size(width)
        self._mask = b.card_mask(w, h, self.style.corner_radius * w)
        self._mask.setflags(write=False)
        self._faces: dict[str, Image] = {}
        self._glyphs: _Glyphs | None = None

    @property
    def cache_folder(self) -> Path:
        src = Path(self.font.file).resolve()
        st = src.stat()
        key = hashlib.sha1(
            f"{src}|{st.st_size}|{st.st_mtime_ns}|{self.bold}|{_code_digest()}".encode()
        ).hexdigest()[:10]
        return cache_dir() / f"font-{src.stem}-{key}" / str(self.width)

    def face(self, code: str) -> Image:
        code = b.parse_code(code)
        if code not in self._faces:
            path = self.cache_folder / f"{code}.png"
            img = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
            if img is None or img.shape[:2] != self._mask.shape:
                img = self._render(code)
                path.parent.mkdir(parents=True, exist_ok=True)
                _write_atomic(path, img)
            img = u8(img)
            img.setflags(write=False)
            self._faces[code] = img
        return self._faces[code]

    def _render(self, code: str) -> Image:
        st, (w, h) = self.style, b._size(self.width)
        if self._glyphs is None:
            self._glyphs = _glyphs(self.font, 2 * w, 2 * h, st)
        g = self._glyphs
        rank, suit = code[0], code[1]
        img = b._blank(2 * w, 2 * h, st)
        color = st.suit_color(suit)
        colors = {"main": color}
        shape = b.SUIT_SHAPES[suit]
        _draw_index(img, g, b.RANK_LABELS[rank], shape, color, st)
        if rank == "A":
            draw_shape(img, shape, (w, h), st.ace_pip * 2 * w, colors)
        elif rank in "JQK":
            b._draw_court(img, rank, shape, color, colors, st, g.court[rank])
        else:
            b._draw_pips(img, b.RANK_LABELS[rank], shape, colors, st)
        return b._finish(img, w, h)

    def back(self) -> Image:
        return b.render_back(width=self.width, style=self.style)

    def mask(self, code: str | None) -> Image:
        return self._mask


def _draw_index(img: Image, g: _Glyphs, label: str, shape: str, color: Color,
                st: b.CardStyle) -> None:
    """Rank over small pip at the top-left, and the same turned 180 degrees at
    the bottom-right (drawn on the turned image, so the two are exact turns)."""
    w = img.shape[1]
    gh = round(st.index_height * w)
    glyph, top, drop = g.index[label]
    ph = st.index_pip * w
    col_w = max(glyph.shape[1], round(ph * 0.9))
    x0, y0 = round(st.index_x * w), round(st.index_y * w)
    pip_y = y0 + gh + drop + 0.12 * gh + ph / 2  # below a tail (a "Q") that the rank has
    for turn in (False, True):
        view = np.ascontiguousarray(img[::-1, ::-1]) if turn else img
        b._blend(view, glyph, x0 + (col_w - glyph.shape[1]) // 2, max(0, y0 + top), color)
        draw_shape(view, shape, (x0 + col_w / 2, pip_y), ph, {"main": color})
        if turn:
            img[:] = view[::-1, ::-1]


__all__ = ["FontDeck", "deck_name", "parse_name"]
