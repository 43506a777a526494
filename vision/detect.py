"""Find the one card in a frame and return its four corners.

Detection runs on a small copy of the frame (a card is a big, plain object, so
a few hundred pixels across are plenty) and only the corner regions are later
warped from the full-resolution frame.  The card is the largest bright,
unsaturated blob; its outline is fitted with four straight sides taken from the
convex hull, so a finger or a glare spot that bites off one corner moves only
that corner's neighbours' intersection, not the whole quad.  An outline is
checked against the picture: each side of a card's is a step down from paper
to table (see ``find_card`` for what is tried when it is not).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

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


#: How many of the longest sides of an outline :func:`_paired_quads` chooses from.
PAIRED_SIDES = 6
#: Opposite sides of a card's outline are parallel but for perspective: at
#: most this far from it (radians; 25 degrees).
PARALLEL = math.radians(25.0)


def _paired_quads(hull: npt.NDArray[Any]) -> list[npt.NDArray[np.float64]]:
    """Quads made of four of a convex hull's longest sides whose opposite sides
    are nearly parallel, the longest four first.

    A finger over a card's corner leaves a notch that the hull bridges with a
    slanted side, sometimes longer than what is left of the card's side it
    bit into: the four longest sides are then not the card's (the slanted
    side stands where a card's side would be parallel to another).  The hull
    lies inside the half-plane of each of its sides, so four of them whose
    directions turn by less than half a turn from one to the next close
    around it: their lines, met in turn, make a quad that contains it."""
    peri = cv2.arcLength(hull, True)
    poly = cv2.approxPolyDP(hull, 0.004 * peri, True).reshape(-1, 2).astype(np.float64)
    n = len(poly)
    if n < 4:
        return []
    step = np.roll(poly, -1, axis=0) - poly
    lengths = np.hypot(step[:, 0], step[:, 1])
    # direction of each side, unwrapped so it grows (or, for a hull that
    # runs the other way, falls) steadily around the hull
    angle = np.unwrap(np.arctan2(step[:, 1], step[:, 0]))
    if angle[-1] < angle[0]:
        angle = -angle
    sides = sorted(np.argsort(lengths)[-PAIRED_SIDES:].tolist())
    pts = poly.tolist()
    found: list[tuple[float, npt.NDArray[np.float64]]] = []
    for keep in itertools.combinations(sides, 4):
        turns = [float(angle[keep[k + 1]] - angle[keep[k]]) for k in range(3)]
        turns.append(2 * math.pi - float(angle[keep[3]] - angle[keep[0]]))
        if max(turns) >= math.pi - 1e-6:
            continue  # the lines do not close around the hull
        if (abs(turns[0] + turns[1] - math.pi) > PARALLEL
                or abs(turns[1] + turns[2] - math.pi) > PARALLEL):
            continue  # opposite sides far from parallel: not a card's outline
        corners = []
        for k in range(4):
            i, j = keep[k], keep[(k + 1) % 4]
            p = _intersect(*pts[i], *pts[(i + 1) % n], *pts[j], *pts[(j + 1) % n])
            if p is None:
                break
            corners.append(p)
        if len(corners) == 4:
            found.append((float(sum(lengths[list(keep)])), np.array(corners, dtype=np.float64)))
    found.sort(key=lambda t: -t[0])
    return [q for _, q in found]


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
    to BGRA once and hands that to both this and the corner warps.

    The largest bright blob is taken first, as before.  When its outline fills
    less than ``GOOD_FILL`` of the fitted quad (a finger or a bright patch of
    the table joined to the card, or the card is not the largest blob), two
    other outlines are tried: the blob with its narrow parts cut off
    (:func:`_cut_necks`) and the next largest blobs on their own.  The one that
    fills its quad best is taken when it fills at least ``GOOD_FILL``;
    otherwise the first outline stands.

    Then the outline's sides are checked (:func:`_looks_like_card`): a
    card's paper is much brighter than what lies just beyond each of its
    sides.  When the first cut let a bright cloth through with the card, the
    outline runs through the cloth, along the picture's edge or off it; then
    the next largest blobs alone and a second cut among the pixels the first
    let through (:func:`_sharper`) give other outlines, and the one whose
    every side is a card's edge is taken."""
    h, w = frame.shape[:2]
    scale = min(1.0, DETECT_SIZE / max(h, w))
    small = frame if scale == 1.0 else cv2.resize(
        frame, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA
    )
    b, g, r = cv2.split(small)[:3]
    # Paper is bright in every channel; felt, wood and skin are not.  The cut
    # is chosen on the picture alone: the dark frame added below used to be
    # counted too, and its zeros pulled Otsu's cut down until a bright cloth
    # (or its lit half) passed as paper and swallowed the card.
    white = cv2.GaussianBlur(cv2.min(cv2.min(b, g), r), (3, 3), 0)
    cut, mask = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    blobs = _blobs(mask)
    found = _card_in_mask(blobs, repair=False)
    if found is None or found[1] < GOOD_FILL:
        found = _card_in_mask(blobs)  # the repairs, when it fits poorly
    if not _looks_like_card(white, found):
        found = _sharper(white, cut, blobs) or found
    if found is None:
        return None
    ordered, fill = found
    full = ordered / scale
    return Detection(quad=full.astype(np.float32), fill=fill)


def _looks_like_card(white: npt.NDArray[Any], found: _Outline | None) -> bool:
    """Whether an outline may be the card's: its sides are a card's edges
    (``WEAK_SIDE``, :func:`_card_edges`), or it spans the picture (a clean
    scan, :func:`_scan`)."""
    return found is not None and (_card_edges(white, found[0], WEAK_SIDE)
                                  or _scan(white, found[0]))


def _sharper(white: npt.NDArray[Any], cut: float, blobs: _Blobs) -> _Outline | None:
    """An outline every side of which is a card's edge (``STRONG_SIDE``), the
    strongest, when the first one is not: a bright cloth passed Otsu's cut,
    and the card is another blob, or is joined to the cloth, whose paper is
    brighter still: cut again among the pixels the first cut let through.
    None when there is none."""
    candidates = list(_lone_blobs(blobs))
    tighter = _tighter_cut(white, cut)
    if tighter is not None:
        _, mask = cv2.threshold(white, tighter, 255, cv2.THRESH_BINARY)
        tight = _blobs(mask)
        again = _card_in_mask(tight, repair=False)
        if again is not None:
            candidates.append(again)
        candidates += _lone_blobs(tight)
    found, best = None, STRONG_SIDE
    for candidate in candidates:
        strength = _edge_strength(white, candidate[0])
        if strength is not None and strength >= best:
            found, best = candidate, strength
    return found


class _Blobs(NamedTuple):
    """The bright blobs of a mask (padded by ``PAD``): outlines and areas."""

    contours: Sequence[npt.NDArray[Any]]
    areas: list[float]
    #: the least area of a card
    min_area: float


def _blobs(mask: npt.NDArray[Any]) -> _Blobs:
    """The blobs of a mask of the detection image, the mask padded first so
    a card filling the picture still has an outline."""
    padded = cv2.copyMakeBorder(mask, PAD, PAD, PAD, PAD, cv2.BORDER_CONSTANT, value=0)
    contours, _ = cv2.findContours(padded, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    sh, sw = padded.shape
    return _Blobs(contours, [cv2.contourArea(c) for c in contours], MIN_AREA_SHARE * sh * sw)


def _card_in_mask(blobs: _Blobs, *, repair: bool = True) -> _Outline | None:
    """The card's outline among a mask's blobs (detection-image pixels), or
    None: the largest blob's, or (with ``repair``) another when that one
    fits poorly."""
    contours, areas, min_area = blobs
    if not contours:
        return None
    k = max(range(len(areas)), key=areas.__getitem__)  # the first largest, as np.argmax
    if areas[k] < min_area:
        return None
    pieces, blob_area = _pieces(contours, areas, k)
    first = _outline(pieces, blob_area)
    if repair and (first is None or first[1] < GOOD_FILL):
        best = first if first is not None and first[1] >= GOOD_FILL else None
        plausible = first is not None and first[1] >= PLAUSIBLE_FILL
        for alt in _alternatives(contours, areas, k, pieces, min_area, plausible,
                                 first is None):
            if alt[1] >= GOOD_FILL and (best is None or alt[1] > best[1]):
                best = alt
        if best is not None:
            first = best
    if first is None:
        return None
    return first[0] - PAD, first[1]


def _lone_blobs(blobs: _Blobs) -> Iterator[_Outline]:
    """The outlines of the next ``OTHER_BLOBS`` largest blobs after the
    largest, each alone, that fill ``PLAUSIBLE_FILL`` of their quads: the
    card apart from a larger bright cloth whose outline has a card's
    proportions (:func:`_card_in_mask` then tries no other blob).  Pips or
    a finger at its edge may leave it filling less than ``GOOD_FILL``: its
    edges, not its fill, decide."""
    contours, areas, min_area = blobs
    order = sorted(range(len(areas)), key=lambda i: -areas[i])
    for i in order[1:1 + OTHER_BLOBS]:
        if areas[i] < min_area:
            break
        outline = _outline([contours[i]], areas[i])
        if outline is not None and outline[1] >= PLAUSIBLE_FILL:
            yield outline[0] - PAD, outline[1]


#: A side of the outline whose paper, just inside, is less than this much
#: brighter than what lies just outside is no card's edge (grey levels of the
#: detection image).  A card's sides measure 60 or more in 99 % of frames.
WEAK_SIDE = 25.0
#: Another outline (another blob, or the tighter cut's) is taken instead when
#: each of its sides steps down at least this much.
STRONG_SIDE = 40.0
#: An outline whose corners lie this near (a share of the picture's long
#: side) to the picture's four corners is a clean scan, a card filling the
#: picture as calibration reads it: there is no table to cut away.
SCAN_CORNER = 0.05
#: How far (detection pixels) a corner of a card's outline may lie outside
#: the picture: the outline runs about a pixel inside the card's edge.
OFF_PICTURE = 3.0
#: Where the sides are sampled: the paper is the brightest of what lies 1 to
#: 4 detection pixels inside (the printed frame of a court's picture or an
#: index can come that near the edge), what lies beyond the brightest at 3, 6
#: and 9 pixels outside (a row of pips along a cut through the paper is not
#: the table: there is paper beyond it); at these shares of each side's
#: length (its ends are the card's rounded corners).
_INSIDE = np.array([-1.0, -2.0, -3.0, -4.0])
_BEYOND = np.array([3.0, 6.0, 9.0])
_ACROSS = np.concatenate([_INSIDE, _BEYOND])
_SIDE_AT = np.linspace(0.2, 0.8, 9)
_NO_STEP = 999


def _card_edges(white: npt.NDArray[Any], quad: Quad, least: float) -> bool:
    """Whether each side of ``quad`` steps down by at least ``least`` from the
    paper inside to what lies beyond, and the quad lies in the picture.

    A card must be whole in view to be read: an outline with a corner more
    than ``OFF_PICTURE`` outside the picture, or with two or three of its
    sides along the picture's edge, is a bright cloth that runs off the
    picture.  (A clean scan has the card fill the picture, all four sides or
    one along its edge, a scan cropped tight on one side.)"""
    if _off_picture(white, quad):
        return False
    steps = [step for step in _side_steps(white, quad) if step is not None]
    if len(steps) < 3:
        return not steps
    return min(steps) >= least


def _edge_strength(white: npt.NDArray[Any], quad: Quad) -> float | None:
    """The weakest step of the outline's four sides, or None when the outline
    is not whole in the picture (a corner out of it, a side along its edge)."""
    if _off_picture(white, quad):
        return None
    steps = _side_steps(white, quad)
    if None in steps:
        return None
    return min(step for step in steps if step is not None)


def _off_picture(white: npt.NDArray[Any], quad: Quad) -> bool:
    """Whether a corner of ``quad`` lies more than ``OFF_PICTURE`` outside the picture."""
    h, w = white.shape
    return bool((quad < -OFF_PICTURE).any() or (quad[:, 0] > w - 1 + OFF_PICTURE).any()
                or (quad[:, 1] > h - 1 + OFF_PICTURE).any())


def _side_steps(white: npt.NDArray[Any], quad: Quad) -> list[float | None]:
    """For each side of the outline, the median step in brightness across it:
    the paper just inside less the brightest of what lies beyond it (a row of
    pips along a cut through the paper is not the table: there is paper
    beyond it).  None for a side that runs along the picture's edge."""
    h, w = white.shape
    q = quad.astype(np.float64)
    along = q[_NEXT] - q  # (4, 2): each side, clockwise on screen
    # The outward normal of a clockwise (on screen, y down) side is (dy, -dx).
    normal = np.stack([along[:, 1], -along[:, 0]], axis=1)
    normal /= np.maximum(np.hypot(normal[:, 0], normal[:, 1]), 1e-9)[:, None]
    pts = q[:, None, :] + _SIDE_AT[None, :, None] * along[:, None, :]  # (4, n, 2)
    # (offsets, 4 sides, n points): the first ``len(_INSIDE)`` inside, the rest beyond
    at = np.rint(pts[None] + _ACROSS[:, None, None, None] * normal[None, :, None, :])
    x, y = at[..., 0].astype(np.int64), at[..., 1].astype(np.int64)
    seen = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    value = np.where(seen, white[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)].astype(np.int16),
                     np.int16(-1))
    paper = value[:len(_INSIDE)].max(axis=0)
    beyond = value[len(_INSIDE):].max(axis=0)
    ok = (paper >= 0) & (beyond >= 0)
    # invalid points sort last; each side's median is the middle of its valid ones
    diff = np.sort(np.where(ok, paper - beyond, np.int16(_NO_STEP)), axis=1)
    counts = ok.sum(axis=1)
    # fewer than half the points seen: the side runs along the picture's edge
    return [float(diff[i, c // 2]) if 2 * c > len(_SIDE_AT) else None
            for i, c in enumerate(counts.tolist())]


def _scan(white: npt.NDArray[Any], quad: Quad) -> bool:
    """Whether the outline spans the picture (:func:`spans_picture`): a clean
    scan of a card, not a card on a table."""
    return spans_picture(quad, white.shape[:2])


def spans_picture(quad: Quad, shape: tuple[int, ...]) -> bool:
    """Whether ``quad`` spans a picture of ``shape`` (height, width), each of
    its corners within ``SCAN_CORNER`` of the picture's long side from one of
    the picture's corners."""
    h, w = shape[:2]
    corners = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)
    d = np.linalg.norm(quad.astype(np.float64)[:, None, :] - corners[None, :, :], axis=2)
    return bool((d.min(axis=0) <= SCAN_CORNER * max(h, w)).all())


def _tighter_cut(white: npt.NDArray[Any], cut: float) -> float | None:
    """Otsu's cut among the pixels brighter than ``cut``; None when too few."""
    above = white[white > cut]
    if above.size < 16:
        return None
    t, _ = cv2.threshold(above.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(t)


#: An outline that fills at least this share of its fitted quad is taken as
#: found; below it, other outlines are tried (see :func:`find_card`).  A card
#: found right fills 0.99 or more of its quad in most frames; a finger or a
#: patch of cloth joined to it leaves 0.55 to 0.9.
GOOD_FILL = 0.9
#: Narrow parts cut off by :func:`_cut_necks`: those thinner than this share
#: of the blob's widest part.  A finger is 0.26 to 0.34 of a card's width and
#: the widest part of a card is its width, so 0.4 cuts a finger off and rounds
#: the card's corners by 0.2 of its width, leaving most of each side straight.
NECK = 0.4
#: What is left after cutting the necks must be at least this share of the
#: blob: a finger is a small part of it, while a court's framed picture left
#: alone after its thin paper border was cut away is not the card.
CUT_KEEP = 0.5
#: Slits up to this many detection pixels wide are closed before necks are cut.
SEAL = 5
_SEAL_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (SEAL, SEAL))
#: A first outline filling at least this share of its quad is nearly the
#: card's: an outline found again in the same blob then keeps at least
#: ``SHARED_CORNERS`` of its corners, each within ``CORNER_TOLERANCE`` of the
#: card's width.
PLAUSIBLE_FILL = 0.75
SHARED_CORNERS = 2
CORNER_TOLERANCE = 0.12
#: How many of the next largest blobs are tried as the card.
OTHER_BLOBS = 3

_Outline = tuple[Quad, float]  # ordered quad in detection-image pixels, fill


def _pieces(
    contours: Sequence[npt.NDArray[Any]], areas: list[float], k: int
) -> tuple[list[npt.NDArray[Any]], float]:
    """Blob ``k`` and the big pieces in its box: court art that reaches the
    card's edge cuts the paper into several pieces."""
    best = contours[k]
    blob_area = areas[k]
    bx, by, bw, bh = cv2.boundingRect(best)
    mx, my = 0.08 * bw, 0.08 * bh
    pieces = [best]
    for c, a in zip(contours, areas, strict=True):
        if c is best or a < 0.03 * areas[k]:
            continue
        x, y, w, h = cv2.boundingRect(c)
        if x >= bx - mx and y >= by - my and x + w <= bx + bw + mx and y + h <= by + bh + my:
            pieces.append(c)
            blob_area += a
    return pieces, blob_area


def _outline(
    pieces: list[npt.NDArray[Any]], blob_area: float, *, paired: bool = False
) -> _Outline | None:
    """The card-shaped quad around ``pieces`` and the share of it they fill, or
    None when no quad of a card's proportions fits.  The quad is made of the
    hull's four longest sides, or with ``paired`` of the longest four that
    pair up as a card's (:func:`_paired_quads`)."""
    hull = cv2.convexHull(np.concatenate(pieces) if len(pieces) > 1 else pieces[0])
    if paired:
        for candidate in _paired_quads(hull):
            found = _shaped(candidate, blob_area)
            if found is not None:
                return found
        return None
    quad = _fit_quad(hull)
    if quad is None:
        return None
    return _shaped(quad, blob_area)


def _shaped(quad: npt.NDArray[np.float64], blob_area: float) -> _Outline | None:
    """``quad`` ordered, with the share of it the blob fills; None when it does
    not have a card's proportions."""
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
    return ordered, float(blob_area / quad_area)


def _alternatives(
    contours: Sequence[npt.NDArray[Any]], areas: list[float], k: int,
    pieces: list[npt.NDArray[Any]], min_area: float, plausible: bool, shapeless: bool,
) -> Iterator[_Outline]:
    """Other outlines for a card whose first outline did not fit well: the
    first blob's paired quad, the blob with its necks cut, then each next
    largest blob alone.

    When the first outline was ``plausible`` (it filled ``PLAUSIBLE_FILL``
    of its quad), an outline of the same blob must keep at least
    ``SHARED_CORNERS`` of its corners: a finger bends the sides at its own
    corner, the rest of the card's outline stays where it was.  One that
    keeps fewer is a part of the card (a court's picture, whose thin paper
    border the opening took away).  A first outline that filled less was
    not the card's (a bright cloth joined to it): nothing of it is kept."""
    hull = cv2.convexHull(np.concatenate(pieces) if len(pieces) > 1 else pieces[0])
    first = _fit_quad(hull) if plausible else None
    same_blob = [_outline(pieces, sum(cv2.contourArea(c) for c in pieces), paired=True),
                 *_cut_necks(pieces, min_area, shapeless)]
    for alt in same_blob:
        if alt is not None and (first is None or _shared_corners(alt[0], first) >= SHARED_CORNERS):
            yield alt
    others = sorted((i for i in range(len(areas)) if i != k and areas[i] >= min_area),
                    key=lambda i: -areas[i])[:OTHER_BLOBS]
    # A blob inside the first one's hull is part of that card (a court's
    # framed picture, cut off from the paper around it by a finger): never a
    # card of its own.
    for i in others:
        x, y, w, h = cv2.boundingRect(contours[i])
        if cv2.pointPolygonTest(hull, (x + w / 2, y + h / 2), False) >= 0:
            continue
        alt = _outline([contours[i]], areas[i])
        if alt is not None:
            yield alt


def _shared_corners(quad: Quad, other: npt.NDArray[np.float64]) -> int:
    """How many corners of ``quad`` have a corner of ``other`` within
    ``CORNER_TOLERANCE`` of the quad's shorter side length."""
    q = quad.astype(np.float64)
    side = min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1]))
    d = np.linalg.norm(q[:, None, :] - other[None, :, :], axis=2)
    return int((d.min(axis=1) <= CORNER_TOLERANCE * side).sum())


def _cut_necks(
    pieces: list[npt.NDArray[Any]], min_area: float, shapeless: bool
) -> list[_Outline]:
    """The blob without its narrow parts: a finger lying on the card, or a strip
    of bright cloth touching it, joins the card through a part much narrower
    than the card.  An opening with a disc (points farther than ``r`` from the
    background, grown back by ``r``) removes every part narrower than ``2r``
    and leaves the card's body, its corners rounded, whose four straight sides
    still give the quad.  ``2r`` is ``NECK`` of the blob's widest part (twice
    the largest distance from its inside to the background).

    When the blob has an outline of a card's proportions, only the largest
    part left counts, and only if it is ``CUT_KEEP`` of the blob: a court
    card whose paper border a finger broke has a card-shaped but poorly
    filled first outline, and its picture, or a piece of the card, left by
    the opening is smaller and fills its own quad well.  When it has none
    (``shapeless``: a bright cloth joined to the card, often larger than the
    card), the largest of the ``OTHER_BLOBS`` largest parts left whose
    outline fills ``GOOD_FILL`` of its quad is the card."""
    # All the work in the blob's box (with a rim of background), not the frame.
    x, y, w, h = cv2.boundingRect(np.concatenate(pieces) if len(pieces) > 1 else pieces[0])
    rim = SEAL // 2 + 1
    shift = (rim - x, rim - y)
    drawn = np.zeros((h + 2 * rim, w + 2 * rim), np.uint8)
    cv2.drawContours(drawn, pieces, -1, 255, cv2.FILLED, offset=shift)
    # A finger across a court card's paper border lets the outline run in
    # along the thin dark line framing the picture: a slit the opening would
    # widen into a cut between the border and the picture.  Seal it first.
    filled = np.asarray(cv2.morphologyEx(drawn, cv2.MORPH_CLOSE, _SEAL_DISC), np.uint8)
    dist = cv2.distanceTransform(filled, cv2.DIST_L2, 3)
    widest = float(dist.max())
    radius = NECK * widest  # 2r = NECK * (2 * widest): NECK of the widest part
    if radius < 2:
        return []
    # Grown back by a distance transform rather than a dilation with a disc:
    # the same shape, at a cost that does not grow with the disc.
    outside_core = np.where(dist > radius, 0, 255).astype(np.uint8)
    opened = (cv2.distanceTransform(outside_core, cv2.DIST_L2, 3) <= radius).astype(np.uint8)
    found, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    parts = sorted(((cv2.contourArea(c), c) for c in found), key=lambda t: -t[0])
    if not shapeless:
        parts = [t for t in parts[:1] if t[0] >= CUT_KEEP * cv2.countNonZero(filled)]
    outlines = []
    for area, body in parts[:OTHER_BLOBS]:
        if area < min_area:
            break
        outline = _outline([body], area, paired=True)
        if outline is None:
            continue
        # How much of the quad the blob itself covers (the opening rounded the
        # card's corners off; the blob did not), the finger cut away.  (The
        # part of the quad outside the box is not blob either.)
        quad = np.zeros_like(filled)
        cv2.fillConvexPoly(quad, np.round(outline[0]).astype(np.int32), 255)
        inside = cv2.countNonZero(cv2.bitwise_and(quad, filled))
        area_quad = abs(cv2.contourArea(outline[0]))
        fill = inside / max(1.0, area_quad)
        if fill >= GOOD_FILL:
            # the largest part that is card-like: a court's picture, also
            # left whole, is smaller than its card
            return [(outline[0] - np.array(shift, np.float32), fill)]
        outlines.append((outline[0] - np.array(shift, np.float32), fill))
    return outlines[:1]
