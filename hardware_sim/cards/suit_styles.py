"""Suit signs drawn in many styles, from a seed, for training the glyph classifier.

Decks print the four French suits in very different hands: a club's trefoil
lobes big or small, overlapping or apart, on a straight, flared, curved or
footed stem; spades broad or narrow, sharp or blunt, with curled shoulders;
hearts and diamonds fat or thin, with bulging or hollow sides; filled or in
outline only.  The classifier had seen a few dozen such hands and read unseen
clubs as spades.  :func:`draw_sign` draws one sign with every such choice
drawn from a generator, so a training set can show it thousands of hands; the
same generator and seed give the same pixels.  :data:`FOREIGN_SHAPES` are signs
of other suit systems (German leaves, acorns and bells, Swiss shields and
roses, Italian coins and cups) that must never pass for a French suit.

Shapes are built in a unit canvas (y down) from circles and polygons, drawn
supersampled with anti-aliasing, cropped to their ink and fitted into the
caller's box keeping their own aspect, so a sign never leaves its box.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware_sim.cards._img import f32, u8

Mask = NDArray[np.float32]
FRENCH = "CDHS"
FOREIGN_SHAPES = ("leaf", "acorn", "bell", "shield", "rose", "coin", "cup")
_S = 192  # supersampled canvas side, px
_SHIFT = 4


def _pts(p: NDArray[np.float64]) -> NDArray[np.int32]:
    return np.round(p * _S * (1 << _SHIFT)).astype(np.int32)


def _poly(img: NDArray[np.uint8], p: NDArray[np.float64], v: int = 255) -> None:
    cv2.fillPoly(img, [_pts(p)], v, cv2.LINE_AA, _SHIFT)


def _disc(img: NDArray[np.uint8], cx: float, cy: float, r: float, v: int = 255) -> None:
    c = (round(cx * _S * 16), round(cy * _S * 16))
    cv2.circle(img, c, max(1, round(r * _S * 16)), v, -1, cv2.LINE_AA, _SHIFT)


def _bezier(a: tuple[float, float], c: tuple[float, float], b: tuple[float, float],
            n: int = 24) -> NDArray[np.float64]:
    t = np.linspace(0, 1, n)[:, None]
    pa, pc, pb = np.array(a), np.array(c), np.array(b)
    out: NDArray[np.float64] = (1 - t) ** 2 * pa + 2 * (1 - t) * t * pc + t**2 * pb
    return out


def _side(a: tuple[float, float], b: tuple[float, float], bulge: float
          ) -> NDArray[np.float64]:
    """A curve from a to b bowed outwards (bulge > 0, away from x = 0.5) or inwards."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = np.hypot(dx, dy) or 1.0
    nx, ny = -dy / n, dx / n
    if (mx - 0.5) * nx < 0 or (mx == 0.5 and nx < 0):
        nx, ny = -nx, -ny
    return _bezier(a, (mx + bulge * n * nx, my + bulge * n * ny), b)


def _stem(img: NDArray[np.uint8], top: float, bottom: float, rng: np.random.Generator) -> None:
    """A club's or spade's stem, in one of four hands."""
    kind = int(rng.integers(0, 4))
    half = float(rng.uniform(0.025, 0.06))
    foot = float(rng.uniform(0.1, 0.22))
    if kind == 0:  # straight
        _poly(img, np.array([[0.5 - half, top], [0.5 + half, top], [0.5 + half, bottom],
                             [0.5 - half, bottom]]))
    elif kind == 1:  # flared: a triangle widening to the foot
        _poly(img, np.array([[0.5 - half / 2, top], [0.5 + half / 2, top], [0.5 + foot, bottom],
                             [0.5 - foot, bottom]]))
    elif kind == 2:  # curved: hollow sides sweeping out to the foot
        left = _bezier((0.5 - half / 2, top), (0.5 - half / 2, bottom), (0.5 - foot, bottom))
        right = _bezier((0.5 + foot, bottom), (0.5 + half / 2, bottom), (0.5 + half / 2, top))
        _poly(img, np.concatenate([left, right]))
    else:  # footed: a straight stem on a bar
        _poly(img, np.array([[0.5 - half, top], [0.5 + half, top], [0.5 + half, bottom],
                             [0.5 - half, bottom]]))
        bar = float(rng.uniform(0.03, 0.06))
        _poly(img, np.array([[0.5 - foot, bottom - bar], [0.5 + foot, bottom - bar],
                             [0.5 + foot, bottom], [0.5 - foot, bottom]]))


def _heart(img: NDArray[np.uint8], rng: np.random.Generator, *, point_up: bool = False) -> None:
    """Two lobes side by side over a point (upside down: a spade's body)."""
    r = float(rng.uniform(0.16, 0.24))
    d = float(rng.uniform(0.55, 0.95)) * r  # lobe centres from the middle
    cy = 0.1 + r
    tip = cy + float(rng.uniform(1.5, 2.6)) * r
    bulge = float(rng.uniform(-0.12, 0.2))
    lo, ro = (0.5 - d - r * 0.98, cy + r * 0.2), (0.5 + d + r * 0.98, cy + r * 0.2)
    body = np.concatenate([[[0.5 - d, cy], [0.5 + d, cy]], [ro],
                           _side(ro, (0.5, tip), bulge), _side((0.5, tip), lo, bulge)])
    canvas = np.zeros_like(img)
    _poly(canvas, body)
    _disc(canvas, 0.5 - d, cy, r)
    _disc(canvas, 0.5 + d, cy, r)
    if point_up:
        canvas = np.ascontiguousarray(canvas[::-1])
    np.maximum(img, canvas, out=img)


def _spade(img: NDArray[np.uint8], rng: np.random.Generator) -> None:
    body = np.zeros_like(img)
    _heart(body, rng, point_up=True)
    if rng.random() < 0.3:  # curled shoulders: the lobes' ends turned in, two notches
        ys, xs = np.nonzero(body > 127)
        y1, x0, x1 = ys.max() / _S, xs.min() / _S, xs.max() / _S
        r = float(rng.uniform(0.04, 0.07))
        for cx in (x0 + 2.2 * r, x1 - 2.2 * r):
            _disc(body, cx, y1 - 0.2 * r, r, 0)
    ys, _ = np.nonzero(body > 127)
    np.maximum(img, body, out=img)
    bottom_body = ys.max() / _S
    _stem(img, bottom_body - 0.12, bottom_body + float(rng.uniform(0.12, 0.25)), rng)


def _club(img: NDArray[np.uint8], rng: np.random.Generator) -> None:
    r = float(rng.uniform(0.13, 0.2))
    rs = r * float(rng.uniform(0.85, 1.15))  # side lobes may differ from the top one
    gap = float(rng.uniform(1.2, 1.9))  # spacing in radii: overlapping ... just touching
    top = (0.5, 0.08 + r)
    side_y = top[1] + gap * r * float(rng.uniform(0.75, 1.0))
    dx = gap * rs * float(rng.uniform(0.8, 1.05))
    for cx, cy, rr in ((top[0], top[1], r), (0.5 - dx, side_y, rs), (0.5 + dx, side_y, rs)):
        _disc(img, cx, cy, rr)
    _poly(img, np.array([[0.5, top[1]], [0.5 - dx, side_y], [0.5, side_y + 0.3 * rs],
                         [0.5 + dx, side_y]]))
    _stem(img, side_y, side_y + rs + float(rng.uniform(0.12, 0.3)), rng)


def _diamond(img: NDArray[np.uint8], rng: np.random.Generator) -> None:
    half = float(rng.uniform(0.26, 0.42))
    bulge = float(rng.uniform(-0.18, 0.14))
    n, e, s, w = (0.5, 0.1), (0.5 + half, 0.5), (0.5, 0.9), (0.5 - half, 0.5)
    _poly(img, np.concatenate([_side(n, e, bulge), _side(e, s, bulge), _side(s, w, bulge),
                               _side(w, n, bulge)]))


def _foreign(img: NDArray[np.uint8], shape: str, rng: np.random.Generator) -> None:
    if shape == "leaf":  # German Grün: a pointed leaf, veins, a thin curved stem
        _heart(img, rng, point_up=True)
        ys = np.nonzero(img > 127)[0]
        y1 = ys.max() / _S
        cv2.line(img, (_S // 2, int(ys.min() + 0.15 * _S)), (_S // 2, int(y1 * _S)), 0,
                 max(2, _S // 40))
        for k in range(int(rng.integers(2, 4))):
            y = ys.min() / _S + (k + 1) * (y1 - ys.min() / _S) / 4
            for sgn in (-1, 1):
                cv2.line(img, (_S // 2, int(y * _S)), (int(_S * (0.5 + sgn * 0.18)),
                                                        int((y - 0.1) * _S)), 0, max(2, _S // 50))
        stem = _bezier((0.5, y1 - 0.02), (0.5 + float(rng.uniform(-0.2, 0.2)), y1 + 0.1),
                       (0.5 + float(rng.uniform(-0.15, 0.15)), y1 + 0.2))
        cv2.polylines(img, [_pts(stem)], False, 255, max(2, _S // 35), cv2.LINE_AA, _SHIFT)
    elif shape == "acorn":  # German Eichel: a nut in a hatched cup on a stalk
        w = float(rng.uniform(0.18, 0.26))
        _poly(img, np.concatenate([_bezier((0.5 - w, 0.45), (0.5 - w, 0.95), (0.5, 0.95)),
                                   _bezier((0.5, 0.95), (0.5 + w, 0.95), (0.5 + w, 0.45))]))
        cup = np.array([[0.5 - w - 0.04, 0.25], [0.5 + w + 0.04, 0.25], [0.5 + w, 0.5],
                        [0.5 - w, 0.5]])
        _poly(img, cup)
        for k in range(4):
            x = 0.5 - w + (k + 0.5) * 2 * w / 4
            cv2.line(img, (int(x * _S), int(0.28 * _S)), (int(x * _S), int(0.47 * _S)), 0, 2)
        _poly(img, np.array([[0.48, 0.05], [0.52, 0.05], [0.52, 0.26], [0.48, 0.26]]))
        if rng.random() < 0.5:  # standing (nut up) or hanging
            img[:] = img[::-1].copy()
    elif shape == "bell":  # German Schellen: a ball, a band, a slit, a loop on top
        r = float(rng.uniform(0.3, 0.38))
        _disc(img, 0.5, 0.55, r)
        cv2.circle(img, (_S // 2, int(0.55 * _S - r * _S)), int(0.07 * _S), 255,
                   max(2, _S // 40), cv2.LINE_AA)
        cv2.line(img, (int((0.5 - r) * _S), int(0.5 * _S)), (int((0.5 + r) * _S),
                                                              int(0.5 * _S)), 0, _S // 30)
        _disc(img, 0.5, 0.72, 0.05, 0)
        _poly(img, np.array([[0.49, 0.72], [0.51, 0.72], [0.51, 0.55 + r], [0.49, 0.55 + r]]),
              0)
    elif shape == "shield":  # Swiss Schilten
        w = float(rng.uniform(0.28, 0.4))
        _poly(img, np.concatenate([[[0.5 - w, 0.1], [0.5 + w, 0.1]],
                                   _bezier((0.5 + w, 0.1), (0.5 + w, 0.8), (0.5, 0.92)),
                                   _bezier((0.5, 0.92), (0.5 - w, 0.8), (0.5 - w, 0.1))]))
        cv2.line(img, (_S // 2, int(0.1 * _S)), (_S // 2, int(0.9 * _S)), 0, _S // 40)
        cv2.line(img, (int((0.5 - w) * _S), int(0.4 * _S)), (int((0.5 + w) * _S),
                                                              int(0.4 * _S)), 0, _S // 40)
    elif shape == "rose":  # Swiss Rosen: petals round a disc
        n = int(rng.integers(5, 8))
        pr = float(rng.uniform(0.12, 0.17))
        for k in range(n):
            a = 2 * np.pi * k / n
            _disc(img, 0.5 + 0.25 * np.cos(a), 0.5 + 0.25 * np.sin(a), pr)
        _disc(img, 0.5, 0.5, 0.12, 0)
        _disc(img, 0.5, 0.5, 0.07)
    elif shape == "coin":  # Italian denari: rings
        _disc(img, 0.5, 0.5, 0.4)
        _disc(img, 0.5, 0.5, 0.3, 0)
        _disc(img, 0.5, 0.5, float(rng.uniform(0.1, 0.22)))
    elif shape == "cup":  # Italian coppe: a chalice
        w = float(rng.uniform(0.25, 0.35))
        _poly(img, np.concatenate([[[0.5 - w, 0.1], [0.5 + w, 0.1]],
                                   _bezier((0.5 + w, 0.1), (0.5 + w, 0.5), (0.53, 0.55)),
                                   [[0.53, 0.8], [0.7, 0.9], [0.3, 0.9], [0.47, 0.8]],
                                   _bezier((0.47, 0.55), (0.5 - w, 0.5), (0.5 - w, 0.1))]))
    else:
        raise ValueError(f"unknown shape {shape!r}")


def sign_mask(kind: str, rng: np.random.Generator) -> Mask:
    """One sign as ink coverage in [0, 1], cropped to its ink.

    ``kind``: a French suit letter (``C``, ``D``, ``H``, ``S``) or one of
    :data:`FOREIGN_SHAPES`.  Every choice of hand comes from ``rng``."""
    img = np.zeros((_S, _S), np.uint8)
    draw = {"C": _club, "D": _diamond, "H": _heart, "S": _spade}.get(kind)
    if draw is not None:
        draw(img, rng)
    else:
        _foreign(img, kind, rng)
    if rng.random() < 0.2:  # outline only
        k = max(3, int(_S * float(rng.uniform(0.05, 0.09))))
        img = np.asarray(cv2.subtract(img, cv2.erode(img, np.ones((k, k), np.uint8))), np.uint8)
    ys, xs = np.nonzero(img > 40)
    if len(ys) == 0:
        raise ValueError(f"{kind}: nothing drawn")
    crop = img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    # a sign drawn a little wider or narrower than its hand (printing, typeface)
    sx = float(rng.uniform(0.85, 1.15))
    h, w = crop.shape
    wide = u8(cv2.resize(crop, (max(2, round(w * sx)), h), interpolation=cv2.INTER_AREA))
    return f32(f32(wide) / 255)


def draw_sign(canvas: NDArray[np.float32], box: tuple[int, int, int, int], kind: str,
              rng: np.random.Generator) -> None:
    """Ink one sign into ``canvas`` (coverage, modified in place) inside ``box``
    ``(x, y, w, h)``, fitted keeping its aspect, centred; never outside the box."""
    x, y, w, h = box
    m = sign_mask(kind, rng)
    mh, mw = m.shape
    s = min(w / mw, h / mh)
    tw, th = max(1, min(w, int(mw * s))), max(1, min(h, int(mh * s)))
    small = f32(cv2.resize(m, (tw, th), interpolation=cv2.INTER_AREA))
    ox, oy = x + (w - tw) // 2, y + (h - th) // 2
    region = canvas[oy : oy + th, ox : ox + tw]
    np.maximum(region, np.clip(small, 0, 1), out=region)
