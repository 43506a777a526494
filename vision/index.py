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

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property

import cv2
import numpy as np
import numpy.typing as npt

from vision.detect import Quad
from vision.index_loop import loop_height as loop_height
from vision.index_marks import rank_tail, wide_ten
from vision.index_mask import CROP_H as CROP_H
from vision.index_mask import CROP_W as CROP_W
from vision.index_mask import ROOF, cut_body_art, red_ink, strip_border, strip_outline
from vision.index_stacked import SUIT_OVER_RANK, cut_stacked, may_part

CARD_W, CARD_H = 200, 300
# (Corner patch, in card units: CROP_W x CROP_H; the index of every design we know fits.)
#: Side of the square a glyph is resized to before matching.
GLYPH = 20
#: ink plus its x and y gradients: outlines tell a club's lobes from a spade's point
FEATURE_LEN = 3 * GLYPH * GLYPH

FloatArray = npt.NDArray[np.float32]

_CANON = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], dtype=np.float32)
_HALF_TURN = np.array([[-1, 0, CARD_W], [0, -1, CARD_H], [0, 0, 1]], dtype=np.float64)
#: the patch at the card's top-right corner (upright) instead of its top-left
_TO_RIGHT = np.array([[1, 0, CARD_W - CROP_W], [0, 1, 0], [0, 0, 1]], dtype=np.float64)
#: corners a card may carry an index in, in the order they are read: top-left,
#: bottom-right (turned), then, for decks with an index there (a single index
#: at the top-right, or four), top-right and bottom-left (turned)
CORNERS = (0, 1, 2, 3)


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
    #: the index's box (rank and suit together) in the patch it was read from,
    #: ``(x0, y0, x1, y1)`` px, end exclusive: where its ink lies, so a reader
    #: that painted part of the patch can tell a glyph cut by that paint
    box: tuple[int, int, int, int] | None = field(default=None, compare=False)
    #: the corner patch it was read from and its number, so that a corner
    #: whose read makes no sense can be read again the other way up
    #: (:func:`read_other_way`: a deck that prints the index upright at both ends)
    patch: npt.NDArray[np.uint8] | None = field(default=None, compare=False, repr=False)
    corner: int = field(default=0, compare=False)
    #: read with the rank and suit each taken as turned half a turn
    turned: bool = field(default=False, compare=False)
    #: where the in-shoe camera's window is in ``patch`` (1 inside; None: all
    #: of it): a reading the other way up must not take a mark cut by it
    inside: npt.NDArray[np.uint8] | None = field(default=None, compare=False, repr=False)
    #: found only by a last try (``LAST_TRIES``): a split guessed from a blob
    #: no ordinary try could part, so weaker evidence than a read index
    #: (``Recognizer.decide`` never names a card from it alone)
    last_try: bool = field(default=False, compare=False)

    @cached_property
    def rank(self) -> FloatArray:
        """The rank as a template vector for a deck profile's correlation; made
        only when asked for, since generic reading never needs it."""
        return _feature(self.rank_ink)[0]

    @cached_property
    def suit(self) -> FloatArray:
        return _feature(self.suit_ink)[0]

    def turned_in_place(self) -> IndexGlyphs:
        """The same index with each glyph turned half a turn where it stands.

        Some decks print the bottom index upright, the top one's mirror image
        (suit sign over rank): once the card is turned to read that corner,
        its marks sit where an index's do but stand upside down, a 6 over a
        heart showing as a "9" over a stemless "spade".  Read turned, such a
        corner names the card the other corner names."""
        return replace(self, rank_ink=np.ascontiguousarray(self.rank_ink[::-1, ::-1]),
                       suit_ink=np.ascontiguousarray(self.suit_ink[::-1, ::-1]))

    @property
    def redness(self) -> float:
        b, g, r = self.colour
        return r - max(b, g)


def corner_patch(frame: npt.NDArray[np.uint8], quad: Quad, corner: int) -> npt.NDArray[np.uint8]:
    """Index patch ``corner`` of the card: 0 the top-left, 1 the bottom-right
    turned upright (so the recogniser can stop after one), 2 the top-right and
    3 the bottom-left turned upright.  Patches 2 and 3 have the card's corner at
    their top-right: :func:`read_corner` reads them mirrored."""
    h = cv2.getPerspectiveTransform(_CANON, quad).astype(np.float64)
    m = h if corner in (0, 2) else h @ _HALF_TURN
    if corner >= 2:
        m = m @ _TO_RIGHT
    patch = cv2.warpPerspective(
        frame, m, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(patch, dtype=np.uint8)


def corner_patches(frame: npt.NDArray[np.uint8], quad: Quad) -> list[npt.NDArray[np.uint8]]:
    """The top-left and (turned upright) bottom-right index patches of the card."""
    return [corner_patch(frame, quad, k) for k in (0, 1)]


def read_corner(
    patch: npt.NDArray[np.uint8], corner: int, *, turned: bool = False, clean_scan: bool = False
) -> IndexGlyphs | None:
    """:func:`read_patch` of corner patch ``corner``.  A right-hand corner (2, 3)
    is searched mirrored, so the index is looked for against the card's edge
    as on the left, and its glyphs are turned back the right way round.
    ``turned``: read the index as printed the other way up (see ``read_patch``)."""
    if corner < 2:
        g = read_patch(patch, turned=turned, clean_scan=clean_scan)
        return None if g is None else replace(g, corner=corner)
    g = read_patch(np.ascontiguousarray(patch[:, ::-1]), turned=turned, clean_scan=clean_scan)
    if g is None:
        return None
    box = g.box
    if box is not None:
        width = patch.shape[1]
        box = (width - box[2], box[1], width - box[0], box[3])
    return replace(g, rank_ink=np.ascontiguousarray(g.rank_ink[:, ::-1]),
                   suit_ink=np.ascontiguousarray(g.suit_ink[:, ::-1]), box=box,
                   patch=patch, corner=corner)


def read_other_way(g: IndexGlyphs) -> IndexGlyphs | None:
    """The corner ``g`` was read from, read again the other way up: its
    topmost mark taken as a suit sign turned half a turn and the mark below
    as the rank, turned too.  A deck that prints the index upright at the
    bottom-right (rank above suit against the bottom edge) shows it so in
    the turned corner patch; read the usual way, its suit sign passes for the
    rank.  None when ``g`` keeps no patch or the patch splits no such way."""
    if g.patch is None:
        return None
    other = read_corner(g.patch, g.corner, turned=not g.turned)
    if other is None or g.inside is None:
        return other
    if runs_outside(other.box, g.inside):
        return None
    return replace(other, inside=g.inside)


def runs_outside(
    box: tuple[int, int, int, int] | None, inside: npt.NDArray[np.uint8]
) -> bool:
    """Whether an index's box, one pixel wider all round, reaches the part of
    the patch outside the window (``inside`` 0): its ink may go on there."""
    if box is None:
        return False
    x0, y0, x1, y1 = box
    h, w = inside.shape
    area = inside[max(y0 - 1, 0) : min(y1 + 1, h), max(x0 - 1, 0) : min(x1 + 1, w)]
    return bool(area.size) and int(area.min()) == 0


def card_corners(
    frame: npt.NDArray[np.uint8], quad: Quad, *, clean_scan: bool = False
) -> Iterator[IndexGlyphs | None]:
    """The card's index corners, read lazily: the top-left and the turned
    bottom-right first; only when neither shows an index, the top-right and the
    turned bottom-left (a deck with a single index at the top-right).  A deck
    with four indices is read from the first two like any other.
    ``clean_scan``: calibration's clean images only (see :func:`read_patch`)."""
    found = False
    for corner in CORNERS:
        if corner == 2 and found:
            return
        g = read_corner(corner_patch(frame, quad, corner), corner, clean_scan=clean_scan)
        # (a last try's corner is no index found: the other pair is read as before)
        found = found or (g is not None and not g.last_try)
        yield g


def _feature(g: FloatArray) -> tuple[FloatArray, int, int]:
    gh, gw = g.shape
    side = max(gh, gw)
    sq = np.zeros((side, side), np.float32)
    oy, ox = (side - gh) // 2, (side - gw) // 2
    sq[oy : oy + gh, ox : ox + gw] = g
    small = cv2.resize(sq, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0.6)
    parts = np.empty((3, GLYPH * GLYPH), np.float32)
    parts[0] = small.reshape(-1)
    parts[1] = cv2.Sobel(small, cv2.CV_32F, 1, 0, ksize=3).reshape(-1)
    parts[2] = cv2.Sobel(small, cv2.CV_32F, 0, 1, ksize=3).reshape(-1)
    # Each part zero-mean and unit-length; row by row this is what ``v - v.mean()``
    # and ``np.linalg.norm(v)`` (a dot product, then a float32 square root) give.
    parts -= parts.mean(axis=1, keepdims=True)
    norms = np.sqrt(np.array([row.dot(row) for row in parts], np.float32))
    if float(norms.min()) < 1e-6:
        return np.zeros(FEATURE_LEN, np.float32), gh, gw
    parts /= norms[:, None]
    return (parts.reshape(-1) / np.sqrt(3.0)).astype(np.float32), gh, gw


def percentiles(grey: npt.NDArray[np.uint8], *qs: float) -> tuple[float, ...]:
    """Percentiles of a uint8 image from its histogram: a sort per corner showed up
    in the frame time's tail.  ``cv2.calcHist`` counts faster than ``np.bincount``
    and its float32 counts are exact (a corner has far fewer than 2**24 pixels)."""
    hist = cv2.calcHist([grey], [0], None, [256], [0, 256])
    cdf = np.cumsum(hist.reshape(-1).astype(np.int64))
    n = float(cdf[-1])
    at = np.searchsorted(cdf, [q * (n - 1) for q in qs], side="right")
    return tuple(float(v) for v in at.tolist())


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
#: Try, when nothing else found an index, a tall rank joined to its sign by
#: blur (``_split_stacked``) and a rank too faint for the corner's levels
#: (``_split_faint``).  Trusted like any index they named two stress-deck
#: cards wrong (docs/vision.md, twelfth pass); on since the thirteenth pass
#: because a corner they find is marked (``IndexGlyphs.last_try``) and is
#: only half a witness that never names a frame's card alone
#: (``vision.recognizer.LAST_TRY_WEIGHT``), which passed the ship rule
#: written before it was measured.
LAST_TRIES = True
#: Eighteenth pass: join an old-style "10" and a queen's flat tail
#: (``vision.index_marks``).  Off: the seventeenth pass's cuts, bit for bit.
ODD_MARKS = True

_Box = tuple[int, int, int, int, int]  # x, y, w, h, label
#: ``_boxes``'s ``edge`` for the last try: the body art cut away
BODY_CUT = -3


def flatten(
    minch: npt.NDArray[np.uint8], kernel: npt.NDArray[np.uint8] | None = None
) -> npt.NDArray[np.uint8]:
    """``minch`` divided by the paper's local brightness (paper 255).

    A glare spot, a shadow or a lighting gradient across the corner made one
    global threshold call half the paper "ink" (a third of the corners of hard
    frames were lost that way); a morphological closing bigger than any glyph
    follows the paper and not the ink, and dividing by it flattens the light.
    ``kernel``: the closing's shape (default ``BACKGROUND_KERNEL``, sized for
    an index corner).
    """
    closing = BACKGROUND_KERNEL if kernel is None else kernel
    bg = cv2.morphologyEx(minch, cv2.MORPH_CLOSE, closing)
    return np.asarray(cv2.divide(minch, np.maximum(bg, 1), scale=255), np.uint8)


#: Card units along the patch's card edges (left, top) left out of the ink
#: mask when the index was not found otherwise: table showing along an
#: imprecise outline joins an index printed against the edge into one blob
#: running the patch's length.  (Tried only after the whole mask failed, so an
#: index clear of the edge is read exactly as before.)
EDGE = 2


def _boxes(
    mask: npt.NDArray[np.uint8], edge: int = 0, joined: list[_Box] | None = None,
    *, clean_scan: bool = False,
) -> tuple[npt.NDArray[np.int32], list[_Box]] | None:
    """The mask's blobs that may be glyphs.  ``edge``: card units along the
    left and top edges blanked first (``EDGE``); -1: the card's printed
    border blanked instead (``strip_border``; None when there is none), its
    inner side then taken as the card's edge (the roof showing through the
    rounded corner inside the border's arc touches both); -2: a printed
    outline and a court frame blanked (``strip_outline``), and only a small
    blob touching both blanked edges taken for the roof (the outline's line
    may cut a large glyph printed across it); ``BODY_CUT`` (-3): the same,
    outline or not, and then the body art cut away (``cut_body_art``; None
    when there is none).  ``joined``: collects every blob that may be a rank
    and sign joined (``vision.index_stacked.may_part``), kept or not.
    ``clean_scan``: a calibration image, where a sliver of table along the
    top is wide and one along the left tall, so a "1" printed against the top
    side stands; on a camera frame any thin mark along an edge is dropped
    (the live reader as it was judged)."""
    left = top = edge
    roof = CROP_H  # anything touching both edges is the roof
    if edge == BODY_CUT:
        if not cut_body_art(mask):
            return None
        # (an outline is too thin to be taken for body art, so it may go after)
        stripped = strip_outline(mask)
        if stripped is not None:
            left, top = stripped
            roof = ROOF
        else:
            left = top = 0
    elif edge < 0:
        stripped = strip_border(mask) if edge == -1 else strip_outline(mask)
        if stripped is None:
            return None
        left, top = stripped
        roof = CROP_H if edge == -1 else ROOF
    elif edge:
        mask[:, :edge] = 0
        mask[:edge, :] = 0
    # Grana's block-based labelling numbers blobs exactly as OpenCV's default
    # (Spaghetti, the same block scan) does, and is about 2.5 times faster with stats.
    n, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_GRANA
    )
    min_area = 6
    boxes: list[_Box] = []
    rows = stats.tolist()
    for i in range(1, n):
        x, y, w, h, area = rows[i]
        if area < min_area:
            continue
        if joined is not None and may_part(x, y, w, h):
            joined.append((x, y, w, h, i))
        if x + w >= CROP_W or y + h >= CROP_H:
            continue  # runs off the patch: a pip of the card body, court art
        if h > 0.5 * CROP_H or w > 0.8 * CROP_W:
            continue  # frame lines
        at_left, at_top = x <= left, y <= top
        if at_left and at_top and w <= roof and h <= roof:
            continue  # table showing through the rounded corner
        if clean_scan:
            if (at_left and h > 4 * w) or (at_top and w > 4 * h):
                continue  # a sliver of table along the edge (a "1" stands across it)
        elif (at_left or at_top) and max(w, h) > 4 * min(w, h):
            continue  # a sliver of table along the edge
        if area < 0.12 * w * h and max(w, h) > 20:
            continue  # thin decorative lines
        boxes.append((x, y, w, h, i))
    return np.asarray(labels, np.int32), boxes


def _join_line(boxes: list[_Box], rank: _Box) -> tuple[list[int], tuple[int, int, int, int]]:
    """The rank's blob labels and box: ``rank`` joined with the other halves of
    "10" and any broken strokes sharing its line."""
    rx0, ry0, rx1, ry1 = rank[0], rank[1], rank[0] + rank[2], rank[1] + rank[3]
    rank_labels = [rank[4]]
    # (The tests are the same as ``overlap >= 0.6 * min(rh, bh) and gap <= 0.5 * rh
    # and 0.4 * rh <= bh <= 1.25 * rh and width <= 1.45 * max(rh, bh)``, cheapest
    # first, with conditional expressions for min and max: this loop runs for
    # every blob of every corner.)
    for _ in range(2):
        for b in boxes:
            bx0, by0, bw, bh, label = b
            rh = ry1 - ry0
            if not 0.4 * rh <= bh <= 1.25 * rh or label in rank_labels:
                continue
            bx1, by1 = bx0 + bw, by0 + bh
            overlap = (ry1 if ry1 < by1 else by1) - (ry0 if ry0 > by0 else by0)
            if overlap < 0.6 * (rh if rh < bh else bh):
                continue
            gap = bx0 - rx1 if bx0 - rx1 > rx0 - bx1 else rx0 - bx1
            if gap > 0.5 * rh and gap > 0:  # max(gap, 0) <= 0.5 * rh, rh >= 0
                continue
            width = (rx1 if rx1 > bx1 else bx1) - (rx0 if rx0 < bx0 else bx0)
            if width > 1.45 * (rh if rh > bh else bh) and not (
                ODD_MARKS and len(rank_labels) == 1 and wide_ten(width, rx1 - rx0, rh, bw, bh)
            ):
                continue
            rank_labels.append(label)
            rx0, ry0, rx1, ry1 = min(rx0, bx0), min(ry0, by0), max(rx1, bx1), max(ry1, by1)
    return rank_labels, (rx0, ry0, rx1, ry1)


def _split_turned(boxes: list[_Box]) -> tuple[list[int], _Box] | None:
    """``_split`` for an index printed the other way up in the patch: the suit
    sign is the topmost mark near the corner and the rank is the next mark
    below it (with the marks sharing its line), no further below it than
    ``_split`` allows between a rank and its suit sign."""
    cands = [b for b in boxes if b[3] >= 5 and b[0] < 0.45 * CROP_W and b[1] < 0.4 * CROP_H]
    if not cands:
        return None
    suit = min(cands, key=lambda b: b[1])
    sx0, sy0, sx1, sy1 = suit[0], suit[1], suit[0] + suit[2], suit[1] + suit[3]
    for b in sorted(boxes, key=lambda b: b[1]):
        if b[4] == suit[4]:
            continue
        bx0, by0, bx1 = b[0], b[1], b[0] + b[2]
        if by0 < sy1 - 0.2 * (sy1 - sy0) or min(bx1, sx1) - max(bx0, sx0) <= 0:
            continue
        if b[3] < 8 or by0 - sy1 > 1.2 * b[3]:
            continue
        rank_labels, _ = _join_line([x for x in boxes if x[4] != suit[4]], b)
        return rank_labels, suit
    return None


def _split(boxes: list[_Box]) -> tuple[list[int], _Box] | None:
    """The rank's blob labels and the suit's box: the topmost mark near the corner,
    and the next mark below it."""
    cands = [b for b in boxes if b[3] >= 8 and b[0] < 0.45 * CROP_W and b[1] < 0.4 * CROP_H]
    if not cands:
        return None
    rank = min(cands, key=lambda b: b[1])
    rank_labels, (rx0, ry0, rx1, ry1) = _join_line(boxes, rank)
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
        if ODD_MARKS and rank_tail((rx0, ry0, rx1, ry1), b[:4]):
            # a queen's tail set apart from its bowl: part of the rank; the sign
            # is further down
            rank_labels = [*rank_labels, b[4]]
            ry1 = max(ry1, by0 + b[3])
            continue
        return rank_labels, b
    return None


def _rank_box(boxes: list[_Box], rank_labels: list[int]) -> tuple[int, int, int, int]:
    got = [b for b in boxes if b[4] in rank_labels]
    return (min(b[0] for b in got), min(b[1] for b in got),
            max(b[0] + b[2] for b in got), max(b[1] + b[3] for b in got))


def _touches_cut(
    minch: npt.NDArray[np.uint8], thr: float, labels: npt.NDArray[np.int32],
    boxes: list[_Box], found: tuple[list[int], _Box],
) -> bool:
    """Whether the rank or the suit sign of a split made with the body art
    cut away touches ink that was cut (8-connected): only then did the art
    keep the index unread.  An index clear of the cut failed every earlier
    try for another reason (blur, a card back's pattern), and the cut is no
    cause to read it now.  Nor is a "rank" reaching the patch's top or left
    side (a finger over the corner, freed from the pip it covered too) or a
    "suit sign" taller than it (court art): an index has neither."""
    rank_labels, suit = found
    rx0, ry0, _, ry1 = _rank_box(boxes, rank_labels)
    if rx0 == 0 or ry0 == 0 or suit[3] > ry1 - ry0:
        return False
    glyphs = np.isin(labels, [*rank_labels, suit[4]]).astype(np.uint8)
    cut = (_ink_mask(minch, thr) > 0) & (labels == 0)
    return bool((cv2.dilate(glyphs, np.ones((3, 3), np.uint8)) > 0)[cut].any())


def _rank_freed(
    minch: npt.NDArray[np.uint8], thr: float, labels: npt.NDArray[np.int32],
    boxes: list[_Box], found: tuple[list[int], _Box],
) -> tuple[npt.NDArray[np.int32], list[_Box], tuple[list[int], _Box]] | None:
    """The split with the body art cut away (``BODY_CUT``, same level) when
    ink the splitter dropped (body art) lies on the rank's line right next
    to it, and cutting it away frees more rank there: the "0" of a "10"
    that touches a pip, dropped with it, left a "1" (not a standard index,
    or worse).  Taken only when the freed rank holds the old one and
    reaches further right, and the suit sign is the same mark; None
    otherwise (the split stands as read)."""
    rank_labels, suit = found
    rx0, ry0, rx1, ry1 = _rank_box(boxes, rank_labels)
    reach = min(rx1 + max(math.ceil(0.5 * (ry1 - ry0)), 1), CROP_W)
    beside = labels[ry0:ry1, rx1:reach]
    if not beside.size:
        return None
    kept = {b[4] for b in boxes}
    if not any(lb and lb not in kept for lb in np.unique(beside).tolist()):
        return None
    got = _boxes(_ink_mask(minch, thr), BODY_CUT)
    if got is None:
        return None
    new_labels, new_boxes = got
    freed = _split(new_boxes)
    if freed is None:
        return None
    nx0, ny0, nx1, ny1 = _rank_box(new_boxes, freed[0])
    if not (nx0 <= rx0 + 1 and ny0 <= ry0 + 1 and ny1 >= ry1 - 1 and nx1 > rx1 + 1):
        return None
    s, t = suit, freed[1]
    if abs(s[0] - t[0]) > 2 or abs(s[1] - t[1]) > 2 or abs(s[2] - t[2]) > 2 or abs(
            s[3] - t[3]) > 2:
        return None
    return new_labels, new_boxes, freed


def ink_levels(
    flat: npt.NDArray[np.uint8], paper_share: float = 0.92
) -> tuple[float, float, float] | None:
    """The paper's level (the ``paper_share`` percentile of a flattened image),
    the darkest ink's (the 1st), and the first cut between them: Otsu's,
    kept between 30 % and 70 % of the way from ink to paper.  None when the
    two are too close to tell ink from paper (a blank or washed-out patch)."""
    paper, dark = percentiles(flat, paper_share, 0.01)
    contrast = paper - dark
    if contrast < 0.25 * paper:
        return None
    otsu, _ = cv2.threshold(flat, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return paper, dark, min(max(otsu, dark + 0.3 * contrast), dark + 0.7 * contrast)


def _ink_mask(minch: npt.NDArray[np.uint8], thr: float) -> npt.NDArray[np.uint8]:
    """``(minch < thr)`` as 0/1 uint8: for integer pixels that is ``<= ceil(thr) - 1``."""
    return np.asarray(
        cv2.threshold(minch, math.ceil(thr) - 1, 1, cv2.THRESH_BINARY_INV)[1], np.uint8
    )


def _split_stacked(
    minch: npt.NDArray[np.uint8], levels: list[float], contrast: float
) -> tuple[npt.NDArray[np.int32], list[_Box], tuple[list[int], _Box]] | None:
    """The last try but one: a rank and the suit sign under it that blur joined into
    one tall blob, parted along the light row between them
    (``vision.index_stacked``), at the first level that parts one.  Taken only
    when the suit sign the split finds is the part under a cut (its top is
    the row after it): nothing else in the corner is read by this try."""
    for thr in levels:
        mask = _ink_mask(minch, thr)
        cuts = cut_stacked(mask, minch, contrast)
        if not cuts:
            continue
        got = _boxes(mask, 0)
        if got is None:
            continue
        labels, boxes = got
        found = _split(boxes)
        if found is not None and found[1][1] - 1 in cuts:
            return labels, boxes, found
    return None


#: the share of the corner's contrast (from its darkest ink) within which a
#: mark's darkest ink must lie for ``_split_faint`` to take it for the solid
#: suit sign that set the corner's levels (a thin glyph's bowl, a piece of a
#: rank, is lighter)
SOLID_SIGN = 0.25


def _split_faint(
    minch: npt.NDArray[np.uint8], dark: float, contrast: float,
    first: tuple[float, npt.NDArray[np.int32], list[_Box]],
) -> tuple[npt.NDArray[np.int32], list[_Box], tuple[list[int], _Box]] | None:
    """The last try: a rank too light for any of the corner's levels
    above a dark suit sign.  A light face's thin strokes, blurred, are far
    lighter than its solid suit sign, which sets the corner's darkest ink
    and so every level (``ink_levels``): the sign stands alone, and the rank
    is gone or in specks.  The paper above the topmost sign-shaped mark (as
    tall as a rank at least, about as tall as wide, and holding ink as dark
    as the corner's darkest: ``SOLID_SIGN``) gets a level of its own
    (``ink_levels`` of that area: None, and no try, when it is only paper
    and noise).  Taken only when the split finds that mark as the suit sign
    under a rank as much taller than it as a rank is (``SUIT_OVER_RANK``).
    ``first``: the level, labels and blobs of the corner's whole mask at its
    first level."""
    thr, labels, whole = first
    solid = dark + SOLID_SIGN * contrast
    signs = [b for b in whole if b[3] >= 8 and b[0] < 0.45 * CROP_W and b[1] < 0.4 * CROP_H
             and 0.6 * b[2] <= b[3] <= 1.5 * b[2]]
    if not signs:
        return None
    sign = min(signs, key=lambda b: b[1])
    bx, by, bw, bh, lb = sign
    own_ink = minch[by : by + bh, bx : bx + bw][labels[by : by + bh, bx : bx + bw] == lb]
    if float(own_ink.min()) > solid:
        return None
    # half a sign's width either side; the sign's blurred rim left out
    x0, x1, y1 = max(bx - bw // 2, 0), min(bx + bw + bw // 2, CROP_W), by - 2
    if y1 < 10:
        return None
    above = minch[:y1, x0:x1]
    own = ink_levels(above)
    if own is None or own[2] <= thr:
        return None
    mask = _ink_mask(minch, thr)
    mask[:y1, x0:x1] = _ink_mask(above, own[2])
    got = _boxes(mask, 0)
    if got is None:
        return None
    labels, boxes = got
    found = _split(boxes)
    if found is None or found[1][:4] != sign[:4]:
        return None
    _, ry0, _, ry1 = _rank_box(boxes, found[0])
    low, high = SUIT_OVER_RANK
    if not low * (ry1 - ry0) <= bh <= high * (ry1 - ry0):
        return None  # no rank is shorter than its sign: a piece of one, or noise
    return labels, boxes, found


def read_patch(
    patch: npt.NDArray[np.uint8], *, turned: bool = False, clean_scan: bool = False
) -> IndexGlyphs | None:
    """Split one upright index patch (BGR, or BGRA: alpha ignored) into glyphs;
    None when it shows no index.  ``turned``: the index in the patch is taken
    as printed the other way up (``_split_turned``), and its glyphs are
    turned half a turn back upright.  ``clean_scan``: a calibration image,
    where a thin mark against the top side may be a "1" (``_boxes``) and,
    when nothing else found an index, a red one is split from the corner's
    red ink alone (:func:`_red_only`); the live reader never asks for it."""
    b, g, r = cv2.split(patch)[:3]
    raw = np.asarray(cv2.min(cv2.min(b, g), r), np.uint8)
    if _too_dark(raw):
        return None  # too dark to see ink on
    minch = flatten(raw)
    levels_found = ink_levels(minch)
    if levels_found is None:
        return None
    paper, dark, first = levels_found
    contrast = paper - dark
    found = None
    by_last_try = False
    levels = (first, *(dark + f * contrast for f in _RETRY_LEVELS))
    # the whole mask; then with the card's edge left out; then with the
    # card's printed border left out; then with a printed outline and a court
    # frame left out (each tried only when the one before failed at every
    # level, so what was read before is read the same way); and last with
    # the body art cut from the index (a pip printed against it).  A rank
    # with dropped body art right beside it on its line is read again with
    # that art cut away (``_rank_freed``).  When all of these fail: a tall
    # rank joined to its sign parted (``_split_stacked``), then a rank too
    # faint for these levels over a dark sign (``_split_faint``).
    # (the body art cut at the first level only: it runs on every corner
    # nothing else read, card backs and covered corners, and the other two
    # levels added a third of a millisecond per frame for a card or two)
    tries = [(e, t) for e in (0, EDGE, -1, -2) for t in levels] + [(BODY_CUT, first)]
    # the whole mask's blobs at each level, for the last tries (below)
    whole: list[tuple[float, npt.NDArray[np.int32], list[_Box]]] = []
    joined: list[float] = []  # the levels with a blob that may be rank and sign joined
    for edge, thr in tries:
        tall: list[_Box] | None = [] if LAST_TRIES and edge == 0 and not turned else None
        got = _boxes(_ink_mask(minch, thr), edge, tall, clean_scan=clean_scan)
        if got is None:
            continue
        labels, boxes = got
        if tall is not None:
            whole.append((thr, labels, boxes))
            if tall:
                joined.append(thr)
        found = _split_turned(boxes) if turned else _split(boxes)
        if found is not None and edge == BODY_CUT and not _touches_cut(minch, thr, labels,
                                                                       boxes, found):
            found = None  # the index did not touch the art: not what kept it unread
        if found is not None:
            if not turned and edge != BODY_CUT:
                cut = _rank_freed(minch, thr, labels, boxes, found)
                if cut is not None:
                    labels, boxes, found = cut
            break
    if found is None and clean_scan and not turned:
        red = _red_only(patch, raw, minch, first)
        if red is not None:
            labels, boxes, found = red
    if found is None and whole:
        # (each only where the whole mask has a blob it could take: most
        # corners that reach here, card backs and covered ones, have none)
        last = (_split_stacked(minch, joined, contrast) if joined else None) or _split_faint(
            minch, dark, contrast, whole[0])
        if last is not None:
            labels, boxes, found = last
            by_last_try = True
    if found is None:
        return None
    rank_labels, suit = found
    # Everything below happens inside the index's own box: a blob's box is its
    # stats row, so the rank's box is the union of its blobs' boxes.
    by_label = {bx[4]: bx for bx in boxes}
    rank_boxes = [by_label[lb] for lb in rank_labels]
    rx0 = min(bx[0] for bx in rank_boxes)
    ry0 = min(bx[1] for bx in rank_boxes)
    rx1 = max(bx[0] + bx[2] for bx in rank_boxes)
    ry1 = max(bx[1] + bx[3] for bx in rank_boxes)
    sx0, sy0, sx1, sy1 = suit[0], suit[1], suit[0] + suit[2], suit[1] + suit[3]
    ux0, uy0, ux1, uy1 = min(rx0, sx0), min(ry0, sy0), max(rx1, sx1), max(ry1, sy1)
    lab = labels[uy0:uy1, ux0:ux1]
    rank_mask = lab == rank_labels[0]
    for lb in rank_labels[1:]:
        rank_mask |= lab == lb
    suit_mask = lab == suit[4]
    ink = np.clip(
        (paper - minch[uy0:uy1, ux0:ux1].astype(np.float32)) / max(contrast, 1.0), 0.0, 1.0
    )
    rank_ink = _masked(ink, rank_mask, ry0 - uy0, ry1 - uy0, rx0 - ux0, rx1 - ux0)
    suit_ink = _masked(ink, suit_mask, sy0 - uy0, sy1 - uy0, sx0 - ux0, sx1 - ux0)
    if turned:
        rank_ink = np.ascontiguousarray(rank_ink[::-1, ::-1])
        suit_ink = np.ascontiguousarray(suit_ink[::-1, ::-1])
    (rh, rw), sh = rank_ink.shape, suit_ink.shape[0]
    # Ink colour relative to the paper's own colour right around the index, under
    # the same light (a glare spot elsewhere in the corner would tint it).
    y0, y1 = max(uy0 - 4, 0), uy1 + 4
    x0, x1 = max(ux0 - 4, 0), ux1 + 4
    paper_bgr = _mean_bgr(patch[y0:y1, x0:x1], minch[y0:y1, x0:x1] >= paper)
    if paper_bgr is None:
        (lit,) = percentiles(raw, 0.92)
        paper_bgr = (lit, lit, lit)
    glyphs = rank_mask | suit_mask
    inside = patch[uy0:uy1, ux0:ux1]
    ink_bgr = _mean_bgr(inside, glyphs & (ink > 0.6)) or _mean_bgr(inside, glyphs)
    assert ink_bgr is not None  # the glyphs have pixels
    colour = (
        ink_bgr[0] / max(paper_bgr[0], 1.0),
        ink_bgr[1] / max(paper_bgr[1], 1.0),
        ink_bgr[2] / max(paper_bgr[2], 1.0),
    )
    return IndexGlyphs(
        rank_aspect=rh / max(rw, 1),
        rank_height=float(rh),
        suit_height=float(sh),
        colour=colour,
        rank_ink=rank_ink,
        suit_ink=suit_ink,
        box=(ux0, uy0, ux1, uy1),
        patch=patch,
        turned=turned,
        last_try=by_last_try,
    )


def _red_only(
    patch: npt.NDArray[np.uint8], raw: npt.NDArray[np.uint8], minch: npt.NDArray[np.uint8],
    thr: float,
) -> tuple[npt.NDArray[np.int32], list[_Box], tuple[list[int], _Box]] | None:
    """The index split from the corner's red ink alone (``index_mask.red_ink``),
    at level ``thr``: calibration's clean images only."""
    red = red_ink(patch, percentiles(raw, 0.92)[0])
    got = None if red is None else _boxes(_ink_mask(minch, thr) & red, 0)
    found = None if got is None else _split(got[1])
    return None if got is None or found is None else (got[0], got[1], found)


#: ``raw`` is too dark to read when its 92nd percentile is below this level
_DARK_LEVEL, _LIT_SHARE = 40, 0.92


def _too_dark(raw: npt.NDArray[np.uint8]) -> bool:
    """``percentiles(raw, 0.92)[0] < 40`` without the histogram: that percentile
    is below 40 exactly when more than 0.92 * (n - 1) pixels are at most 39."""
    dark = cv2.countNonZero(
        cv2.threshold(raw, _DARK_LEVEL - 1, 1, cv2.THRESH_BINARY_INV)[1]
    )
    return bool(dark > _LIT_SHARE * (raw.size - 1))


def _mean_bgr(
    pixels: npt.NDArray[np.uint8], keep: npt.NDArray[np.bool_]
) -> tuple[float, float, float] | None:
    """Mean B, G, R of ``pixels`` where ``keep`` (None if nowhere), bit for bit what
    ``pixels[keep].mean(axis=0)`` gives: the channel sums are exact integers that
    ``cv2.mean`` returns divided by the count, recovered and divided again."""
    n = int(np.count_nonzero(keep))
    if n == 0:
        return None
    m = cv2.mean(pixels, mask=keep.view(np.uint8))
    return round(m[0] * n) / n, round(m[1] * n) / n, round(m[2] * n) / n


def _masked(
    ink: FloatArray, keep: npt.NDArray[np.bool_], y0: int, y1: int, x0: int, x1: int
) -> FloatArray:
    """The glyph's own ink inside its box ``[y0:y1, x0:x1]`` (other marks blanked)."""
    return np.where(keep[y0:y1, x0:x1], ink[y0:y1, x0:x1], 0.0).astype(np.float32)
