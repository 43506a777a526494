"""Suit symbols as filled polygons in a unit box, drawn with anti-aliasing.

Hershey fonts have no suit glyphs, and a glyph from a system font would tie
the renderer to whatever fonts a machine has; polygons built from simple
curves look like printed pips and draw identically everywhere.

Each shape is a list of ``(polygon, role)``; polygons are ``N x 2`` float
arrays with y pointing down, spanning y in [-1, 1]. ``role`` picks the colour:
``"main"`` is the suit colour, ``"dark"`` and ``"light"`` are details (the
slit of a bell, the cap of an acorn).

Example::

    import numpy as np
    from hardware_sim.cards.shapes import draw_shape
    img = np.full((100, 100, 3), 255, np.uint8)
    draw_shape(img, "heart", (50, 50), 40, {"main": (40, 30, 200)})
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import cv2
import numpy as np
from numpy.typing import NDArray

Poly = NDArray[np.float64]
Shape = list[tuple[Poly, str]]
Color = tuple[int, int, int]

_SHIFT = 4  # fixed-point bits for sub-pixel polygon vertices


def _circle(cx: float, cy: float, r: float, n: int = 48) -> Poly:
    t = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


def _fit(poly: Poly, top: float, bottom: float) -> Poly:
    """Scale ``poly`` uniformly so it spans ``top..bottom`` vertically, centred on x = 0."""
    y0, y1 = poly[:, 1].min(), poly[:, 1].max()
    x_mid = (poly[:, 0].min() + poly[:, 0].max()) / 2
    k = (bottom - top) / (y1 - y0)
    out = np.empty_like(poly)
    out[:, 0] = (poly[:, 0] - x_mid) * k
    out[:, 1] = (poly[:, 1] - y0) * k + top
    return out


def _heart_curve() -> Poly:
    t = np.linspace(0.0, 2 * np.pi, 96, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    return np.stack([x, y], axis=1)


def _stem(top: float, half_width: float) -> Poly:
    """Flared foot of a spade or club: concave sides down to a flat base."""
    s = np.linspace(0.0, 1.0, 12)
    y = top + (1.0 - top) * s
    x = 0.06 + (half_width - 0.06) * s**2.2
    left = np.stack([-x, y], axis=1)
    right = np.stack([x, y], axis=1)[::-1]
    return np.concatenate([left, right])


def _diamond() -> Poly:
    pts = []
    corners = [(0.0, -1.0), (0.74, 0.0), (0.0, 1.0), (-0.74, 0.0)]
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        # slightly concave sides, like printed diamonds
        s = np.linspace(0.0, 1.0, 12, endpoint=False)
        bulge = -0.07 * np.sin(np.pi * s)
        nx, ny = -(y1 - y0), x1 - x0
        norm = np.hypot(nx, ny)
        px = x0 + (x1 - x0) * s + bulge * nx / norm
        py = y0 + (y1 - y0) * s + bulge * ny / norm
        pts.append(np.stack([px, py], 1))
    return np.concatenate(pts)


@cache
def shape(name: str) -> Shape:
    """Polygons of a suit symbol by name (French: heart, diamond, club, spade;
    German/Swiss: bell, leaf, acorn, rose, shield)."""
    heart = _fit(_heart_curve(), -1.0, 1.0)
    if name == "heart":
        return [(heart, "main")]
    if name == "diamond":
        return [(_diamond(), "main")]
    if name == "spade":
        body = _fit(_heart_curve() * np.array([1.0, -1.0]), -1.0, 0.45)
        return [(body, "main"), (_stem(0.1, 0.38), "main")]
    if name == "club":
        r = 0.36
        return [
            (_circle(0.0, -0.62, r), "main"),
            (_circle(-0.42, 0.02, r), "main"),
            (_circle(0.42, 0.02, r), "main"),
            (np.array([[0.0, -0.5], [-0.35, 0.05], [0.35, 0.05]]), "main"),
            (_stem(0.0, 0.38), "main"),
        ]
    if name == "bell":
        body = _circle(0.0, 0.12, 0.72)
        return [
            (_circle(0.0, -0.78, 0.2), "main"),
            (body, "main"),
            (np.array([[-0.5, 0.2], [0.5, 0.2], [0.5, 0.3], [-0.5, 0.3]]), "dark"),
            (np.array([[-0.06, 0.3], [0.06, 0.3], [0.06, 0.84], [-0.06, 0.84]]), "dark"),
            (_circle(0.0, 0.84, 0.1), "dark"),
        ]
    if name == "leaf":
        s = np.linspace(0.0, 1.0, 24)
        y = -1.0 + 1.65 * s
        x = 0.62 * np.sin(np.pi * s) ** 0.8
        blade = np.concatenate([np.stack([x, y], 1), np.stack([-x, y], 1)[::-1]])
        return [
            (blade, "main"),
            (np.array([[-0.05, 0.5], [0.05, 0.5], [0.07, 1.0], [-0.07, 1.0]]), "main"),
            (np.array([[-0.025, -0.75], [0.025, -0.75], [0.025, 0.6], [-0.025, 0.6]]), "dark"),
        ]
    if name == "acorn":
        nut = _circle(0.0, 0.3, 0.5) * np.array([1.0, 1.35]) + np.array([0.0, -0.1])
        cap = np.concatenate(
            [_circle(0.0, -0.15, 0.58)[24:], np.array([[0.58, -0.15], [-0.58, -0.15]])]
        )
        cap = cap * np.array([1.0, 0.9]) + np.array([0.0, -0.1])
        return [
            (nut, "light"),
            (cap, "main"),
            (np.array([[-0.05, -0.75], [0.05, -0.75], [0.05, -1.0], [-0.05, -1.0]]), "main"),
        ]
    if name == "rose":
        petals: Shape = [(_circle(0.55 * np.sin(a), 0.55 * -np.cos(a), 0.42), "main")
                         for a in np.linspace(0, 2 * np.pi, 5, endpoint=False)]
        return [*petals, (_circle(0.0, 0.0, 0.3), "light")]
    if name == "shield":
        s = np.linspace(0.0, 1.0, 16)
        side = np.stack([0.75 * np.cos(s * np.pi / 2) ** 0.6, 0.1 + 0.9 * s], 1)
        poly = np.concatenate(
            [np.array([[-0.75, -1.0], [0.75, -1.0]]), side, (side * np.array([-1, 1]))[::-1]]
        )
        band = np.array([[-0.75, -0.35], [0.75, -0.35], [0.75, -0.1], [-0.75, -0.1]])
        return [(poly, "main"), (band, "light")]
    raise ValueError(f"unknown suit shape {name!r}")


def draw_shape(
    img: NDArray[np.uint8],
    name: str,
    center: tuple[float, float],
    height: float,
    colors: Mapping[str, Color],
    *,
    upside_down: bool = False,
) -> None:
    """Draw shape ``name`` ``height`` pixels tall centred on ``center`` (in place)."""
    cx, cy = center
    k = height / 2.0
    flip = -1.0 if upside_down else 1.0
    for poly, role in shape(name):
        pts = np.empty_like(poly)
        pts[:, 0] = cx + poly[:, 0] * k * flip
        pts[:, 1] = cy + poly[:, 1] * k * flip
        fixed = np.round(pts * (1 << _SHIFT)).astype(np.int32)
        color = colors.get(role, colors["main"])
        cv2.fillPoly(img, [fixed], color, cv2.LINE_AA, _SHIFT)
