"""Cut the index corners out of a found card and split them into rank and suit glyphs.

Every card prints its index (rank above suit) in the top-left corner and, turned
half a turn, in the bottom-right one.  Both corners are warped straight from the
full-resolution frame into an upright ``CROP_W`` x ``CROP_H`` patch in *card
units* (the card is ``CARD_W`` x ``CARD_H``), so the rest of the pipeline never
sees rotation, tilt or the frame's resolution.

Glyphs are found as connected blobs of ink rather than at fixed positions,
because index layouts differ from one deck design to the next; what is shared is
"the rank is the topmost mark near the corner, the suit is the next mark below
it".  Each glyph becomes a small, size-normalised, zero-mean unit vector so that a
dot product is a normalised correlation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np
import numpy.typing as npt

from vision.detect import Quad

CARD_W, CARD_H = 200, 300
#: Corner patch, in card units (the index of every design we know fits).
CROP_W, CROP_H = 64, 150
#: Side of the square a glyph is resized to before matching.
GLYPH = 20
#: ink plus its x and y gradients: outlines tell a club's lobes from a spade's point
FEATURE_LEN = 3 * GLYPH * GLYPH

FloatArray = npt.NDArray[np.float32]

_CANON = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], dtype=np.float32)
_HALF_TURN = np.array([[-1, 0, CARD_W], [0, -1, CARD_H], [0, 0, 1]], dtype=np.float64)


@dataclass(frozen=True)
class IndexGlyphs:
    """What one index corner shows: normalised rank and suit glyphs and the ink colour."""

    #: height / width of the rank mark ("1" and "10" differ a lot here)
    rank_aspect: float
    #: rank height in card units; lets a profile reject marks of the wrong size
    rank_height: float
    suit_height: float
    #: ink colour relative to the paper, per channel (B, G, R); white balance cancels out
    colour: tuple[float, float, float]
    #: the rank's and suit's own ink (0..1), cropped to their boxes, for the generic
    #: classifier (``vision.glyph_model``), which normalises size itself
    rank_ink: FloatArray
    suit_ink: FloatArray

    @cached_property
    def rank(self) -> FloatArray:
        """The rank as a template vector for a deck profile's correlation; made
        only when asked for, since generic reading never needs it."""
        return _feature(self.rank_ink)[0]

    @cached_property
    def suit(self) -> FloatArray:
        return _feature(self.suit_ink)[0]

    @property
    def redness(self) -> float:
        b, g, r = self.colour
        return r - max(b, g)


def corner_patch(frame: npt.NDArray[np.uint8], quad: Quad, corner: int) -> npt.NDArray[np.uint8]:
    """Index patch ``corner`` of the card: 0 the top-left, 1 the bottom-right
    turned upright (so the recogniser can stop after one)."""
    h = cv2.getPerspectiveTransform(_CANON, quad).astype(np.float64)
    m = h if corner == 0 else h @ _HALF_TURN
    patch = cv2.warpPerspective(
        frame, m, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(patch, dtype=np.uint8)


def corner_patches(frame: npt.NDArray[np.uint8], quad: Quad) -> list[npt.NDArray[np.uint8]]:
    """The top-left and (turned upright) bottom-right index patches of the card."""
    return [corner_patch(frame, quad, k) for k in (0, 1)]


def _crop(ink: FloatArray, keep: npt.NDArray[np.bool_]) -> FloatArray:
    """The glyph's own ink inside its bounding box (other marks blanked)."""
    ys, xs = np.nonzero(keep)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    return np.where(keep[y0:y1, x0:x1], ink[y0:y1, x0:x1], 0.0).astype(np.float32)


def _feature(g: FloatArray) -> tuple[FloatArray, int, int]:
    gh, gw = g.shape
    side = max(gh, gw)
    sq = np.zeros((side, side), np.float32)
    oy, ox = (side - gh) // 2, (side - gw) // 2
    sq[oy : oy + gh, ox : ox + gw] = g
    small = cv2.resize(sq, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0.6)
    gx = cv2.Sobel(small, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(small, cv2.CV_32F, 0, 1, ksize=3)
    parts = []
    for part in (small, gx, gy):
        v = part.reshape(-1)
        v = v - v.mean()
        n = float(np.linalg.norm(v))
        if n < 1e-6:
            return np.zeros(FEATURE_LEN, np.float32), gh, gw
        parts.append(v / n)
    return (np.concatenate(parts) / np.sqrt(3.0)).astype(np.float32), gh, gw


def _percentiles(grey: npt.NDArray[np.uint8], *qs: float) -> tuple[float, ...]:
    """Percentiles of a uint8 image from its histogram: a sort per corner showed up
    in the frame time's tail."""
    cdf = np.cumsum(np.bincount(grey.reshape(-1), minlength=256))
    n = float(cdf[-1])
    return tuple(float(np.searchsorted(cdf, q * (n - 1), side="right")) for q in qs)


#: Side, in card units, of the closing that estimates the paper's local brightness:
#: wider than any index stroke or suit sign, narrower than a glare spot's falloff.
BACKGROUND_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (25, 25))
#: Where between the darkest ink and the paper the ink mask is cut, tried in
#: turn until the corner splits into a rank above a suit: Otsu's level first,
#: then a darker cut (blur has joined the suit to a pip) and a lighter one
#: (faint, blurred or small ink broke apart).
_RETRY_LEVELS = (0.35, 0.55)
#: Join a squat rank mark to the mark right under it (see ``_split``).
JOIN_STACKED = True

_Box = tuple[int, int, int, int, int]  # x, y, w, h, label


def flatten(minch: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``minch`` divided by the paper's local brightness (paper 255).

    A glare spot, a shadow or a lighting gradient across the corner made one
    global threshold call half the paper "ink" (a third of the corners of hard
    frames were lost that way); a morphological closing bigger than any glyph
    follows the paper and not the ink, and dividing by it flattens the light.
    """
    bg = cv2.morphologyEx(minch, cv2.MORPH_CLOSE, BACKGROUND_KERNEL)
    return np.asarray(cv2.divide(minch, np.maximum(bg, 1), scale=255), np.uint8)


def _boxes(mask: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.int32], list[_Box]]:
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    min_area = 6
    boxes: list[_Box] = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < min_area:
            continue
        if x + w >= CROP_W or y + h >= CROP_H:
            continue  # runs off the patch: a pip of the card body, court art
        if h > 0.5 * CROP_H or w > 0.8 * CROP_W:
            continue  # frame lines
        at_left, at_top = x == 0, y == 0
        if at_left and at_top:
            continue  # table showing through the rounded corner
        if (at_left or at_top) and max(w, h) > 4 * min(w, h):
            continue  # a sliver of table along the edge
        if area < 0.12 * w * h and max(w, h) > 20:
            continue  # thin decorative lines
        boxes.append((x, y, w, h, i))
    return np.asarray(labels, np.int32), boxes


def _split(boxes: list[_Box]) -> tuple[list[int], _Box] | None:
    """The rank's blob labels and the suit's box: the topmost mark near the corner,
    and the next mark below it."""
    cands = [b for b in boxes if b[3] >= 8 and b[0] < 0.45 * CROP_W and b[1] < 0.4 * CROP_H]
    if not cands:
        return None
    rank = min(cands, key=lambda b: b[1])
    rx0, ry0, rx1, ry1 = rank[0], rank[1], rank[0] + rank[2], rank[1] + rank[3]
    rank_labels = [rank[4]]
    # Join the other halves of "10" and any broken strokes sharing the rank's line.
    for _ in range(2):
        for b in boxes:
            if b[4] in rank_labels:
                continue
            bx0, by0, bx1, by1 = b[0], b[1], b[0] + b[2], b[1] + b[3]
            overlap = min(ry1, by1) - max(ry0, by0)
            gap = max(bx0 - rx1, rx0 - bx1, 0)
            rh = ry1 - ry0
            bh = by1 - by0
            width = max(rx1, bx1) - min(rx0, bx0)
            if (
                overlap >= 0.6 * min(rh, bh)
                and gap <= 0.5 * rh
                and 0.4 * rh <= bh <= 1.25 * rh
                and width <= 1.45 * max(rh, bh)
            ):
                rank_labels.append(b[4])
                rx0, ry0, rx1, ry1 = min(rx0, bx0), min(ry0, by0), max(rx1, bx1), max(ry1, by1)
    if JOIN_STACKED and len(rank_labels) == 1 and ry1 - ry0 < 0.8 * (rx1 - rx0):
        # No rank is wider than tall on its own: a squat top mark is the bar of a
        # "5" or "7" that blur or a thin typeface broke off its body, and the body
        # is the mark right under it, overlapping it across.
        for b in sorted(boxes, key=lambda b: b[1]):
            bx0, by0, bx1, by1 = b[0], b[1], b[0] + b[2], b[1] + b[3]
            if b[4] in rank_labels or by0 < ry0 + 2:
                continue
            across = min(bx1, rx1) - max(bx0, rx0)
            if by0 - ry1 <= 3 and across >= 0.4 * min(bx1 - bx0, rx1 - rx0):
                rank_labels.append(b[4])
                rx0, ry0, rx1, ry1 = min(rx0, bx0), min(ry0, by0), max(rx1, bx1), max(ry1, by1)
            break
    for b in sorted(boxes, key=lambda b: b[1]):
        if b[4] in rank_labels:
            continue
        bx0, by0, bx1 = b[0], b[1], b[0] + b[2]
        if by0 < ry1 - 0.2 * (ry1 - ry0):
            continue
        if min(bx1, rx1) - max(bx0, rx0) <= 0:
            continue
        if b[3] < 5 or by0 - ry1 > 1.2 * (ry1 - ry0):
            continue
        return rank_labels, b
    return None


def read_patch(patch: npt.NDArray[np.uint8]) -> IndexGlyphs | None:
    """Split one upright index patch into glyphs; None when it shows no index."""
    raw = np.asarray(cv2.min(cv2.min(patch[:, :, 0], patch[:, :, 1]), patch[:, :, 2]), np.uint8)
    (lit,) = _percentiles(raw, 0.92)
    if lit < 40:
        return None  # too dark to see ink on
    minch = flatten(raw)
    paper, dark = _percentiles(minch, 0.92, 0.01)
    contrast = paper - dark
    if contrast < 0.25 * paper:
        return None
    otsu, _ = cv2.threshold(minch, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    first = min(max(otsu, dark + 0.3 * contrast), dark + 0.7 * contrast)
    found = None
    for thr in (first, *(dark + f * contrast for f in _RETRY_LEVELS)):
        labels, boxes = _boxes((minch < thr).astype(np.uint8))
        found = _split(boxes)
        if found is not None:
            break
    if found is None:
        return None
    rank_labels, suit = found
    ink = np.clip((paper - minch.astype(np.float32)) / max(contrast, 1.0), 0.0, 1.0)
    rank_mask = np.isin(labels, rank_labels)
    suit_mask = labels == suit[4]
    rank_ink, suit_ink = _crop(ink, rank_mask), _crop(ink, suit_mask)
    (rh, rw), sh = rank_ink.shape, suit_ink.shape[0]
    # Ink colour relative to the paper's own colour right around the index, under
    # the same light (a glare spot elsewhere in the corner would tint it).
    ys, xs = np.nonzero(rank_mask | suit_mask)
    y0, y1 = max(int(ys.min()) - 4, 0), int(ys.max()) + 5
    x0, x1 = max(int(xs.min()) - 4, 0), int(xs.max()) + 5
    near = patch[y0:y1, x0:x1]
    paper_px = near[minch[y0:y1, x0:x1] >= paper]
    paper_bgr = paper_px.reshape(-1, 3).mean(axis=0) if len(paper_px) else np.full(3, lit)
    ink_px = patch[(rank_mask | suit_mask) & (ink > 0.6)]
    if len(ink_px) == 0:
        ink_px = patch[rank_mask | suit_mask]
    rel = ink_px.reshape(-1, 3).mean(axis=0) / np.maximum(paper_bgr, 1.0)
    colour = (float(rel[0]), float(rel[1]), float(rel[2]))
    return IndexGlyphs(
        rank_aspect=rh / max(rw, 1),
        rank_height=float(rh),
        suit_height=float(sh),
        colour=colour,
        rank_ink=rank_ink,
        suit_ink=suit_ink,
    )
