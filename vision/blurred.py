"""A calibration face seen as a soft, small, compressed camera would see it.

A deck profile learned from clean faces only holds sharp glyphs: a glyph
thickened by defocus and JPEG correlates badly with every one of them, so
the templates abstained ("rank unlike any known", "suit ambiguous") on just
the frames where a second witness beside the classifier was most wanted.
At calibration each face is therefore also read after it has been made
small, blurred and compressed at a few levels spanning the overhead
camera's range (a card 180 to 300 px tall, lens blur sigma 1.0 to 2.2 px,
JPEG quality 35 to 60), and those glyphs join the profile as extra
templates, marked as blurred (``docs/vision.md``, "Eleventh pass").

A blurred glyph is kept only when it still looks like the clean glyph of the
same corner (a correlation of ``MIN_LIKENESS``): a level that breaks the
index apart would otherwise teach a fragment as a rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.detect import Quad
from vision.index import IndexGlyphs, card_corners, read_other_way

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class BlurLevel:
    """How a camera degrades a face: the card's long side in pixels, the
    lens blur's Gaussian sigma at that size, and a JPEG quality (0: none)."""

    card_px: int
    sigma: float
    jpeg: int


#: Chosen on the validation designs' glyphs (hard and harsh presets, seed 20:
#: not a reported seed): two or five levels read no better than three, and a
#: level under 180 px only adds blobs that match any blob.
BLUR_LEVELS: tuple[BlurLevel, ...] = (
    BlurLevel(300, 1.0, 60),
    BlurLevel(230, 1.6, 45),
    BlurLevel(180, 2.2, 35),
)
#: how much a blurred glyph must still correlate with the same corner's clean
#: glyph (rank and suit) to be kept, as the generic model's training admits
#: camera glyphs (``benchmarks/build_generic_profile.py``)
MIN_LIKENESS = 0.5


def degrade(image: Image, quad: Quad, level: BlurLevel) -> tuple[Image, Quad]:
    """``image`` scaled so the card in ``quad`` has ``level.card_px`` as its
    long side, blurred and JPEG-compressed; and the card's quad in it."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    long_side = max(float(np.linalg.norm(q[i] - q[(i + 1) % 4])) for i in range(4))
    scale = level.card_px / max(long_side, 1.0)
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    out = cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    if level.sigma > 0:
        out = cv2.GaussianBlur(out, (0, 0), level.sigma)
    if level.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, level.jpeg])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return np.ascontiguousarray(out, np.uint8), (q * scale).astype(np.float32)


def likeness(a: IndexGlyphs, b: IndexGlyphs) -> float:
    """The lower of the rank's and the suit's template correlation."""
    return min(float(a.rank @ b.rank), float(a.suit @ b.suit))


def blurred_glyphs(
    image: Image,
    quad: Quad,
    read: Sequence[IndexGlyphs],
    printed: Sequence[IndexGlyphs],
    levels: Sequence[BlurLevel] = BLUR_LEVELS,
) -> list[IndexGlyphs]:
    """The corners of the card in ``image`` read at every blur level, each
    turned the way its clean corner was (``read``: the clean corners as first
    read; ``printed``: the same, the way up their index is printed), and kept
    when still like the clean glyph."""
    out: list[IndexGlyphs] = []
    for level in levels:
        small, q = degrade(image, quad, level)
        found = {g.corner: g for g in card_corners(small, q)
                 if g is not None and not g.last_try}
        for first, clean in zip(read, printed, strict=True):
            g: IndexGlyphs | None = found.get(first.corner)
            if g is None:
                continue
            if clean.turned != first.turned:
                g = read_other_way(g)
            elif not np.array_equal(clean.rank_ink, first.rank_ink):
                g = g.turned_in_place()
            if g is not None and likeness(g, clean) >= MIN_LIKENESS:
                out.append(g)
    return out
