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

    rank: FloatArray
    suit: FloatArray
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

    @property
    def redness(self) -> float:
        b, g, r = self.colour
        return r - max(b, g)


def corner_patches(frame: npt.NDArray[np.uint8], quad: Quad) -> list[npt.NDArray[np.uint8]]:
    """The top-left and (turned upright) bottom-right index patches of the card."""
    h = cv2.getPerspectiveTransform(_CANON, quad).astype(np.float64)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    out = []
    for m in (h, h @ _HALF_TURN):
        patch = cv2.warpPerspective(
            frame, m, (CROP_W, CROP_H), flags=flags, borderMode=cv2.BORDER_REPLICATE
        )
        out.append(np.asarray(patch, dtype=np.uint8))
    return out


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


def read_patch(patch: npt.NDArray[np.uint8]) -> IndexGlyphs | None:
    """Split one upright index patch into glyphs; None when it shows no index."""
    minch = cv2.min(cv2.min(patch[:, :, 0], patch[:, :, 1]), patch[:, :, 2])
    paper, dark = _percentiles(np.asarray(minch, np.uint8), 0.92, 0.01)
    contrast = paper - dark
    if paper < 40 or contrast < 0.25 * paper:
        return None
    otsu, _ = cv2.threshold(minch, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr = min(max(otsu, dark + 0.3 * contrast), dark + 0.7 * contrast)
    mask = (minch < thr).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    min_area = 6
    boxes: list[tuple[int, int, int, int, int]] = []  # x, y, w, h, label
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
    suit = None
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
        suit = b
        break
    if suit is None:
        return None
    ink = np.clip((paper - minch.astype(np.float32)) / max(contrast, 1.0), 0.0, 1.0)
    rank_mask = np.isin(labels, rank_labels)
    suit_mask = labels == suit[4]
    rank_ink, suit_ink = _crop(ink, rank_mask), _crop(ink, suit_mask)
    rank_f, rh, rw = _feature(rank_ink)
    suit_f, sh, _ = _feature(suit_ink)
    # Ink colour relative to the paper's own colour.
    paper_px = patch[minch >= paper]
    paper_bgr = paper_px.reshape(-1, 3).mean(axis=0) if len(paper_px) else np.full(3, paper)
    ink_px = patch[(rank_mask | suit_mask) & (ink > 0.6)]
    if len(ink_px) == 0:
        ink_px = patch[rank_mask | suit_mask]
    rel = ink_px.reshape(-1, 3).mean(axis=0) / np.maximum(paper_bgr, 1.0)
    colour = (float(rel[0]), float(rel[1]), float(rel[2]))
    return IndexGlyphs(
        rank=rank_f,
        suit=suit_f,
        rank_aspect=rh / max(rw, 1),
        rank_height=float(rh),
        suit_height=float(sh),
        colour=colour,
        rank_ink=rank_ink,
        suit_ink=suit_ink,
    )
