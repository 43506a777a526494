"""A deck whose art was printed from a small bitmap: each face of another deck
shrunk to a few dozen pixels wide (``INTER_AREA``, as a bitmap deck's artist
would have drawn it) and blown back up to the camera's width, nearest-neighbour
(hard pixel blocks), bilinear (soft blur) or bicubic (soft, with a little
ringing: how ``gnome.one_size`` scales a small bitmap deck up).

The fifth held-out group's bitmap decks (48 x 76 px art scaled about 5x) were
unsure in the shoe far more often than sharper art; this is their synthetic
analogue built from tuning designs, so the cause can be studied without
looking at a held-out face.  ``lowres:<design>:<width>[:nearest|:linear|:cubic]``, e.g.
``lowres:tango:48`` or ``lowres:builtin:duplex:48:linear``; the card's alpha is
resampled the same way, so the corners are as blocky as the art.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import cv2

from hardware_sim.cards._img import Image, u8

PREFIX = "lowres:"
INTERPOLATIONS = {
    "nearest": cv2.INTER_NEAREST, "linear": cv2.INTER_LINEAR, "cubic": cv2.INTER_CUBIC,
}


@dataclass(frozen=True)
class LowResName:
    inner: str
    source_width: int
    interpolation: str


def parse_name(name: str) -> LowResName:
    """``lowres:<design>:<width>[:nearest|:linear|:cubic]`` split; the design may hold colons."""
    if not name.startswith(PREFIX):
        raise ValueError(f"not a low-resolution deck: {name!r}")
    parts = name[len(PREFIX):].split(":")
    interp = parts.pop() if parts and parts[-1] in INTERPOLATIONS else "nearest"
    if len(parts) < 2 or not parts[-1].isdigit() or int(parts[-1]) < 8:
        raise ValueError(f"not a low-resolution deck: {name!r}; "
                         "lowres:<design>:<width>[:nearest|:linear|:cubic], width >= 8")
    width = int(parts.pop())
    return LowResName(":".join(parts), width, interp)


def degrade(img: Image, source_width: int, interpolation: str) -> Image:
    """``img`` as if printed from a ``source_width``-pixel-wide bitmap of it."""
    h, w = img.shape[:2]
    sh = max(1, round(source_width * h / w))
    small = cv2.resize(img, (source_width, sh), interpolation=cv2.INTER_AREA)
    return u8(cv2.resize(small, (w, h), interpolation=INTERPOLATIONS[interpolation]))


class _Faces(Protocol):
    """What is taken from the inner deck (``hardware_sim.cards.Deck``)."""

    def face(self, code: str) -> Image: ...

    def back(self) -> Image: ...

    def mask(self, code: str | None) -> Image: ...


class LowResDeck:
    """Another deck's faces, back and alpha through :func:`degrade`
    (``inner``: that deck, opened by ``open_deck`` from ``name``'s design)."""

    def __init__(self, name: str, inner: _Faces) -> None:
        self.spec = parse_name(name)
        self.name = name
        self._inner = inner
        self._faces: dict[str | None, Image] = {}
        self._masks: dict[str | None, Image] = {}

    def _degrade(self, img: Image) -> Image:
        return degrade(img, self.spec.source_width, self.spec.interpolation)

    def face(self, code: str) -> Image:
        if code not in self._faces:
            self._faces[code] = self._degrade(self._inner.face(code))
        return self._faces[code]

    def back(self) -> Image:
        if None not in self._faces:
            self._faces[None] = self._degrade(self._inner.back())
        return self._faces[None]

    def mask(self, code: str | None) -> Image:
        if code not in self._masks:
            self._masks[code] = self._degrade(self._inner.mask(code))
        return self._masks[code]
