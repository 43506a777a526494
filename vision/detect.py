"""Find the one card in a frame and return its four corners.

Detection runs on a small copy of the frame (a card is a big, plain object, so
a few hundred pixels across are plenty) and only the corner regions are later
warped from the full-resolution frame.  The card is the largest bright,
unsaturated blob; its outline is fitted with four straight sides taken from the
convex hull, so a finger or a glare spot that bites off one corner moves only
that corner's neighbours' intersection, not the whole quad.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

#: Longest side of the image used for detection.
DETECT_SIZE = 320
#: Dark frame added around the image so a card filling the whole picture
#: (a clean scan) still has an outline.
PAD = 6
#: Long side / short side of a card's outline that we accept; real cards are
#: 1.33 to 1.67 and a 30 degree tilt stretches that by about 15 %.
MIN_ASPECT, MAX_ASPECT = 1.08, 2.1
#: The card must cover at least this share of the detection image.
MIN_AREA_SHARE = 0.015

Quad = npt.NDArray[np.float32]  # shape (4, 2): top-left, top-right, bottom-right, bottom-left


@dataclass(frozen=True)
class Detection:
    """A card outline in full-frame pixels, ordered clockwise from a short side."""

    quad: Quad
    #: area of the blob / area of the fitted quad: low when the card is partly hidden
    fill: float


def _intersect(
    p1x: float, p1y: float, p2x: float, p2y: float,
    q1x: float, q1y: float, q2x: float, q2y: float,
) -> tuple[float, float] | None:
    """Where line p1-p2 meets line q1-q2 (None: parallel).  Plain floats, not
    two-element arrays: the same IEEE operations without NumPy's call overhead."""
    d1x, d1y = p2x - p1x, p2y - p1y
    d2x, d2y = q2x - q1x, q2y - q1y
    den = d1x * d2y - d1y * d2x
    if abs(den) < 1e-9:
        return None
    t = ((q1x - p1x) * d2y - (q1y - p1y) * d2x) / den
    return p1x + t * d1x, p1y + t * d1y


def _fit_quad(hull: npt.NDArray[Any]) -> npt.NDArray[np.float64] | None:
    """Four corners from a convex hull: intersect its four longest sides."""
    peri = cv2.arcLength(hull, True)
    # A fine approximation keeps rounded corners as several short sides, so the
    # four longest sides are the card's straight edges.
    poly = cv2.approxPolyDP(hull, 0.004 * peri, True).reshape(-1, 2).astype(np.float64)
    n = len(poly)
    if n < 4:
        return None
    pts = poly.tolist()
    # Side lengths as ``np.linalg.norm(..., axis=1)`` computes them: sqrt(dx*dx + dy*dy).
    lengths = np.array([
        math.sqrt(dx * dx + dy * dy)
        for dx, dy in (
            (pts[(i + 1) % n][0] - pts[i][0], pts[(i + 1) % n][1] - pts[i][1]) for i in range(n)
        )
    ])
    keep = sorted(np.argsort(lengths)[-4:].tolist())
    corners = []
    for k in range(4):
        i, j = keep[k], keep[(k + 1) % 4]
        p = _intersect(*pts[i], *pts[(i + 1) % n], *pts[j], *pts[(j + 1) % n])
        if p is None:
            return None
        corners.append(p)
    return np.array(corners, dtype=np.float64)


#: index of each corner's successor: ``a[_NEXT]`` is ``np.roll(a, -1, axis=0)`` for four rows
_NEXT = np.array([1, 2, 3, 0])


def order_quad(quad: npt.NDArray[np.float64]) -> Quad:
    """Clockwise (on screen) from the first corner of a short side.

    The card's upright orientation is unknown (0 or 180 degrees); both index
    corners are read later, so either choice works.
    """
    q = quad.astype(np.float64)
    if q.shape != (4, 2):
        return _order_any(q)
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = q.tolist()
    # Signed area; on screen (y down) a positive shoelace sum is clockwise.
    # (Summed left to right, as ``np.sum`` adds four numbers.)
    area = 0.5 * ((ax * by - bx * ay) + (bx * cy - cx * by) + (cx * dy - dx * cy)
                  + (dx * ay - ax * dy))
    pts = [(ax, ay), (bx, by), (cx, cy), (dx, dy)]
    if area < 0:
        pts.reverse()
    sides = [
        math.sqrt((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0))
        for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True)
    ]
    if sides[0] + sides[2] > sides[1] + sides[3]:
        pts = pts[1:] + pts[:1]
    return np.array(pts, dtype=np.float64).astype(np.float32)


def _order_any(q: npt.NDArray[np.float64]) -> Quad:
    """``order_quad`` for an array that is not four points (kept as it was)."""
    area = 0.5 * float(np.sum(q[:, 0] * np.roll(q[:, 1], -1) - np.roll(q[:, 0], -1) * q[:, 1]))
    if area < 0:
        q = q[::-1]
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        q = np.roll(q, -1, axis=0)
    return q.astype(np.float32)


def find_card(frame: npt.NDArray[np.uint8]) -> Detection | None:
    """The card's outline in ``frame`` (BGR, or BGRA: the alpha is ignored), or None
    when no card-like blob is seen.

    OpenCV shrinks a four-channel image about twice as fast as a three-channel
    one, with the same values in B, G and R, so the recogniser converts a frame
    to BGRA once and hands that to both this and the corner warps."""
    h, w = frame.shape[:2]
    scale = min(1.0, DETECT_SIZE / max(h, w))
    small = frame if scale == 1.0 else cv2.resize(
        frame, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA
    )
    b, g, r = cv2.split(small)[:3]
    # Paper is bright in every channel; felt, wood and skin are not.
    white = cv2.min(cv2.min(b, g), r)
    white = cv2.copyMakeBorder(white, PAD, PAD, PAD, PAD, cv2.BORDER_CONSTANT, value=0)
    white = cv2.GaussianBlur(white, (3, 3), 0)
    _, mask = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    sh, sw = mask.shape
    areas = [cv2.contourArea(c) for c in contours]
    k = max(range(len(areas)), key=areas.__getitem__)  # the first largest, as np.argmax
    best = contours[k]
    blob_area = areas[k]
    if blob_area < MIN_AREA_SHARE * sh * sw:
        return None
    # Court art that reaches the card's edge cuts the paper into several pieces:
    # gather the big pieces that touch the largest one's box.
    bx, by, bw, bh = cv2.boundingRect(best)
    mx, my = 0.08 * bw, 0.08 * bh
    pieces = [best]
    for c, a in zip(contours, areas, strict=True):
        if c is best or a < 0.03 * blob_area:
            continue
        x, y, w, h = cv2.boundingRect(c)
        if x >= bx - mx and y >= by - my and x + w <= bx + bw + mx and y + h <= by + bh + my:
            pieces.append(c)
            blob_area += a
    hull = cv2.convexHull(np.concatenate(pieces) if len(pieces) > 1 else best)
    quad = _fit_quad(hull)
    if quad is None:
        return None
    quad_area = abs(cv2.contourArea(quad.astype(np.float32)))
    if quad_area <= 0:
        return None
    ordered = order_quad(quad)
    step = ordered[_NEXT] - ordered  # float32, as ``np.linalg.norm`` would square it
    sides = np.sqrt((step * step).sum(axis=1))
    short = (sides[0] + sides[2]) / 2
    long = (sides[1] + sides[3]) / 2
    if short <= 1 or not MIN_ASPECT <= long / short <= MAX_ASPECT:
        return None
    full = (ordered - PAD) / scale
    return Detection(quad=full.astype(np.float32), fill=float(blob_area / quad_area))
