"""Card faces for the simulator: a built-in OpenCV renderer (no extra packages)
the Debian ``gnome-cards-data`` designs (rendered with ``rsvg-convert``), and
built-in faces with the index set in an installed TrueType font.

A *deck* hands out faces by card code; the simulated camera only needs this::

    from hardware_sim.cards import open_deck, CARD_CODES
    deck = open_deck("builtin")            # or "builtin:modern", "paris" (gnome design),
                                           # "font:DejaVu Serif/bold" (index in that font)
    face = deck.face("TD")                 # BGR uint8, height = 1.4 x width
    alpha = deck.mask("TD")                # 255 on the card, 0 outside its rounded corners
    back = deck.back()

Names: ``builtin`` / ``builtin:<style>`` (styles in
:data:`hardware_sim.cards.builtin.STYLES`), ``font:<Family>`` or
``font:<Family>/bold`` (:mod:`hardware_sim.cards.fontdeck`; the family must be
installed, else :class:`~hardware_sim.cards.truetype.FontMissing` names its
Debian package), ``layout:<style>:<layout>`` (a built-in style with the index
laid out as :data:`hardware_sim.cards.layouts.LAYOUTS` says),
``lowres:<design>:<width>[:nearest|:linear]`` (another deck's art printed from a
small bitmap, :mod:`hardware_sim.cards.lowres`), ``kde:<design>``
(KDE's decks, :mod:`hardware_sim.cards.kdedeck`;
:class:`~hardware_sim.cards.kdedeck.KdeDecksMissing` names the package if they
are not installed), ``npm:<design>`` (card art from npm packages,
:mod:`hardware_sim.cards.npmdeck`; :class:`~hardware_sim.cards.npmdeck.NpmDecksMissing`
gives the ``npm install`` line), ``pypi:<design>`` / ``deb:<design>`` (bitmap decks
from a PyPI wheel or a Debian package, :mod:`hardware_sim.cards.bitmapdeck`) or any
name from :func:`hardware_sim.cards.gnome.list_designs`.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from hardware_sim.cards.builtin import (
    CARD_CODES,
    STYLES,
    CardStyle,
    card_mask,
    parse_code,
    render_back,
    render_card,
)

Image = NDArray[np.uint8]

__all__ = [
    "CARD_CODES",
    "STYLES",
    "BuiltinDeck",
    "Deck",
    "LooseFace",
    "open_deck",
    "parse_code",
]


class Deck(Protocol):
    """What the camera needs from a deck design."""

    name: str

    def face(self, code: str) -> Image: ...

    def back(self) -> Image: ...

    def mask(self, code: str | None) -> Image:
        """Alpha of the face of ``code`` (of the back if None)."""
        ...


class BuiltinDeck:
    """The OpenCV-drawn deck in one :class:`CardStyle`."""

    def __init__(self, style: str | CardStyle = "classic", *, width: int = 250) -> None:
        self.style = STYLES[style] if isinstance(style, str) else style
        self.width = width
        self.name = f"builtin:{self.style.name}"
        w = width
        h = round(width * 1.4)
        self._mask = card_mask(w, h, self.style.corner_radius * w)
        self._mask.setflags(write=False)

    def face(self, code: str) -> Image:
        return render_card(code, width=self.width, style=self.style)

    def back(self) -> Image:
        return render_back(width=self.width, style=self.style)

    def mask(self, code: str | None) -> Image:
        return self._mask


class LooseFace:
    """One face that belongs to no deck (a German 7 of bells, a test card)
    dressed as a deck, so the camera can show it: every code, and the back,
    show that face.  ``mask``: its alpha (default: opaque)."""

    name = "loose"

    def __init__(self, face: Image, mask: Image | None = None) -> None:
        self._face = face
        self._mask = mask if mask is not None else np.full(face.shape[:2], 255, np.uint8)

    def face(self, code: str) -> Image:
        return self._face

    def back(self) -> Image:
        return self._face

    def mask(self, code: str | None) -> Image:
        return self._mask


def open_deck(name: str = "builtin", *, width: int = 250) -> Deck:
    """A deck by name: ``builtin``, ``builtin:<style>``, ``layout:<style>:<layout>``
    (:mod:`hardware_sim.cards.layouts`: a built-in style with its index laid out
    as other decks print it), ``lowres:<design>:<width>[:nearest|:linear]`` (its art
    from a bitmap that wide), ``font:<Family>[/bold]``, ``kde:<design>``
    (kdegames-card-data-kf5), ``npm:<design>`` (card art from npm packages),
    ``pypi:<design>`` / ``deb:<design>`` (bitmap decks unpacked from a PyPI wheel or a
    Debian package) or a gnome-cards-data design."""
    if name == "builtin":
        return BuiltinDeck(width=width)
    if name.startswith("builtin:"):
        style = name.split(":", 1)[1]
        if style not in STYLES:
            raise ValueError(f"unknown built-in style {style!r}; choose from {sorted(STYLES)}")
        return BuiltinDeck(style, width=width)
    if name.startswith("layout:"):
        from hardware_sim.cards.layouts import LAYOUTS, LayoutDeck

        style, _, layout = name.split(":", 1)[1].partition(":")
        if style not in STYLES or layout not in LAYOUTS:
            raise ValueError(f"not a layout deck: {name!r}; layout:<style>:<layout>, styles "
                             f"{sorted(STYLES)}, layouts {sorted(LAYOUTS)}")
        return LayoutDeck(style, layout, width=width)
    if name.startswith("lowres:"):
        from hardware_sim.cards.lowres import LowResDeck
        from hardware_sim.cards.lowres import parse_name as lowres_name

        return LowResDeck(name, open_deck(lowres_name(name).inner, width=width))
    if name.startswith("font:"):
        from hardware_sim.cards.fontdeck import FontDeck, parse_name  # runs fc-list, rsvg-convert

        family, bold = parse_name(name)
        return FontDeck(family, bold=bold, width=width)
    if name.startswith("kde:"):
        from hardware_sim.cards.kdedeck import KdeDeck  # runs rsvg-convert

        return KdeDeck(name, width=width)
    if name.startswith("npm:"):
        from hardware_sim.cards.npmdeck import NpmDeck  # runs rsvg-convert

        return NpmDeck(name, width=width)
    if name.startswith(("pypi:", "deb:")):
        from hardware_sim.cards.bitmapdeck import BitmapDeck

        return BitmapDeck(name, width=width)
    from hardware_sim.cards.gnome import GnomeDeck  # only when asked: runs rsvg-convert

    return GnomeDeck(name, width=width)
