"""Clean an index corner's ink mask of what is printed round the index: the
card's border, a printed outline and a court frame, and body art (a pip
printed against the index).  A glyph touching any of them is one blob with
it, which the splitter (``vision.index``) drops as a frame line or as art
running off the patch; these blank them, in place, so the glyph is read.
Each is tried only after the tries before it failed, so what was read
before is read the same way."""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

#: Corner patch, in card units (``vision.index`` reads patches this size).
CROP_W, CROP_H = 64, 150


#: Card units (about 3 mm) from the patch's card edges (left, top) within
#: which a long straight line of ink is the card's printed border: no glyph
#: is a straight stroke as long as ``_LINE_V`` or ``_LINE_H``.
BORDER_BAND = 9
#: the shortest straight run (card units, inside the patch) taken for a border
#: line: down the patch 60, one and a half times the tallest rank of the
#: validation designs (`tango`'s "10", 40 units; 75, half the patch, missed
#: borders that glare broke at 65-69 units), and across half the patch's
#: width, 32 (the top border is shortened by the card's rounded corner)
_LINE_V, _LINE_H = 60, CROP_W // 2
_V_KERNEL = np.ones((_LINE_V, 1), np.uint8)
_H_KERNEL = np.ones((1, _LINE_H), np.uint8)


def strip_border(mask: npt.NDArray[np.uint8]) -> tuple[int, int] | None:
    """Blank the card's printed border in an ink mask, in place: a straight
    line of ink at least ``_LINE_V`` long down the patch within
    ``BORDER_BAND`` of its left (card) edge, or ``_LINE_H`` across within the
    band of its top edge, is blanked with everything between it and the edge,
    plus one unit for its blurred inner rim.  A glyph printed against such a
    border (a large "10" whose "1" touches it) is otherwise one blob with it,
    which the splitter drops as a frame line.  Returns the columns and rows
    blanked (left, top), or None when no border line was found."""
    band = BORDER_BAND
    left = top = 0
    cols = _opened(mask[:, :band], _V_KERNEL).any(axis=0)
    if cols.any():
        left = int(np.flatnonzero(cols)[-1]) + 2
        mask[:, :left] = 0
    rows = _opened(mask[:band, :], _H_KERNEL).any(axis=1)
    if rows.any():
        top = int(np.flatnonzero(rows)[-1]) + 2
        mask[:top, :] = 0
    return (left, top) if left or top else None


#: Card units from the patch's card edges (left, top) within which a printed
#: outline is looked for when nothing else let the index be read
#: (``strip_outline``): many decks print a frame line 3-7 mm in, beyond
#: ``BORDER_BAND``, and a large index touches it.
OUTLINE_BAND = 24
#: Card units: a blob touching both blanked bands is the table or the
#: outline's rounded corner only when it fits in a square this size; a larger
#: one is a glyph that the line cut (jumbo ranks are 30-45 units tall).
ROOF = 12


#: Card units: the widest a printed line may be (lines are under 1.5 mm, 5
#: units; a dark area's straight side is not a line)
_LINE_WIDTH = 8


def _down_lines(mask: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The mask's straight runs down at least ``_LINE_V`` long, at most
    ``_LINE_WIDTH`` thick and clear of the patch's left side (paper between
    them and the card's edge): a shadow or a glare spot's dark side reaches
    the card's edge or is thick.  (The line need not reach the patch's foot:
    the in-shoe reader paints what lies outside its window as paper; no
    glyph's stroke is 60 long.)"""
    runs = _opened(mask, _V_KERNEL)
    if not cv2.countNonZero(runs):
        return runs  # no run that long (most corners): no labelling
    n, labels, stats, _ = cv2.connectedComponentsWithStats(runs, connectivity=8,
                                                           ltype=cv2.CV_32S)
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, _, w, _, _ = stats[i].tolist()
        keep[i] = x > 0 and w <= _LINE_WIDTH
    return np.asarray(keep[labels], np.uint8)


def _top_line(band: npt.NDArray[np.uint8]) -> int:
    """Rows blanked for a line across the top of ``band`` (0: none): the
    lowest group of at most ``_LINE_WIDTH`` rows, clear of the top, whose
    straight run of ``_LINE_H`` or more reaches the patch's right side, plus
    one row for its blurred inner rim.  A jumbo "7"'s bar is as long, but
    stops short of the right side; a dark area is thicker."""
    reach = _opened(band, _H_KERNEL)[:, -1] > 0
    top = 0
    y = 0
    while y < reach.size:
        if not reach[y]:
            y += 1
            continue
        end = y
        while end < reach.size and reach[end]:
            end += 1
        if y > 0 and end - y <= _LINE_WIDTH:
            top = end + 1
        y = end
    return top


def strip_outline(mask: npt.NDArray[np.uint8]) -> tuple[int, int] | None:
    """Blank a printed outline, and a court frame inside it, in an ink mask,
    in place.

    The outline: the innermost thin straight line down the patch within
    ``OUTLINE_BAND`` of its left (card) edge, and across to its right side
    within the band of its top (``_down_lines``, ``_top_line``), blanked with everything
    between it and the edge (as :func:`strip_border`, which looks only 9
    units in).  A court frame: such a line down the patch further in; the
    court picture right of it and below its top is blanked, only on a card
    with an outline (a court frame alone, in a corner without an index, left
    ink that read as one).  A large index touching either is otherwise one
    blob with it, dropped as a frame line or as running off the patch.
    Returns the columns and rows blanked along the card's edges, or None
    when no outline was found (the mask is then left as it was)."""
    band = OUTLINE_BAND
    down = _down_lines(mask)
    cols: npt.NDArray[np.bool_] = np.asarray(down.any(axis=0), bool)
    edge_cols = np.flatnonzero(cols[:band])
    # the innermost line, plus one unit for its blurred inner rim
    left = int(edge_cols[-1]) + 2 if edge_cols.size else 0
    top = _top_line(mask[:band, left:])
    if not (left or top):
        return None
    inner = np.flatnonzero(cols[left + 4:])
    if inner.size:
        xc = left + 4 + int(inner[0])
        yc = int(np.flatnonzero(down[:, xc])[0])  # the court frame's top
        mask[max(yc - 1, 0):, max(xc - 1, 0):] = 0
    mask[:, :left] = 0
    mask[:top, :] = 0
    return left, top


#: Card units: the diameter of a disk that fits inside a body pip (25-36
#: units tall on the decks we know) or solid court art, and inside no
#: index stroke (at most about 18 units thick where strokes cross, jumbo
#: included); an index's own suit sign (15-20 units) may hold one, but it
#: never runs off the patch as the body art does.
BODY_DISK = 15
#: Card units: the rim blanked round the body art (its blurred edge, where
#: it met the index's ink), and the reach from it within which a piece
#: left over is the art's own fringe (a heart's point, a club's stem)
#: rather than a glyph that touched it
BODY_RIM, BODY_FRINGE = 2, 7
#: Card units taken off the art's solid part before grouping it, so that a
#: glyph's thick part (the crossing of a jumbo "4") is not joined to a pip
#: through a pinch where the two meet
BODY_PINCH = 2
#: ink deeper than this (card units from the paper) is the solid part of
#: some art, grouped; the art is then what lies within this of its group
_DEEP = BODY_DISK / 2 + BODY_PINCH


def cut_body_art(mask: npt.NDArray[np.uint8]) -> bool:
    """Blank, in place, the solid body art that runs off the patch (a body
    pip printed against the index, court art) and cut it from any index
    glyph it touches.

    Decks print body pips close to the index (a ten's top pips may sit a
    pixel from it); blur then joins a glyph to a pip as one blob running
    off the patch, which the splitter drops as body art, losing the glyph
    with it (a "4" whose bar meets the top-left heart) or half of it (the
    "0" of a "10").  A pip is solid where no glyph stroke is: ink deeper
    than ``_DEEP`` from the paper (a ``BODY_DISK`` disk with ``BODY_PINCH``
    to spare fits round it), grouped, is body art where a group reaches
    within that depth of the patch's right side or foot (outside the patch
    counts as ink, as the art goes on there).  Ink within ``_DEEP`` of
    such a group is the art, blanked with a ``BODY_RIM`` rim; pieces left
    wholly within ``BODY_FRINGE`` of it are its fringe and are blanked
    too.  What a glyph lost where it met the pip is at most the rim.
    Returns whether any body art was found (the mask is then changed).
    Distance transforms, not openings with the disk: this try runs on every
    corner that nothing else read (card backs, covered corners)."""
    if not (cv2.countNonZero(mask[:, -1]) or cv2.countNonZero(mask[-1, :])):
        return False  # no ink leaves the patch: no body art runs off it
    deep = np.asarray(cv2.distanceTransform(mask, cv2.DIST_L2, 3) > _DEEP, np.uint8)
    reach = math.ceil(_DEEP)
    if not (cv2.countNonZero(deep[:, -reach:]) or cv2.countNonZero(deep[-reach:, :])):
        return False  # no solid ink near the right side or the foot
    n, labels, stats, _ = cv2.connectedComponentsWithStats(deep, connectivity=8,
                                                           ltype=cv2.CV_32S)
    body = np.zeros(n, bool)
    for i in range(1, n):
        x, y, w, h, _ = stats[i].tolist()
        body[i] = x + w > CROP_W - reach or y + h > CROP_H - reach
    if not body.any():
        return False
    away = cv2.distanceTransform(np.asarray(~body[labels], np.uint8), cv2.DIST_L2, 3)
    mask[away <= _DEEP + BODY_RIM] = 0
    # pieces lying wholly within the fringe's reach are the art's own
    n, labels = cv2.connectedComponents(mask, connectivity=8, ltype=cv2.CV_32S)
    beyond = np.zeros(n, bool)
    beyond[np.unique(labels[(mask > 0) & (away > _DEEP + BODY_FRINGE)])] = True
    mask[~beyond[labels]] = 0
    return True


def _opened(mask: npt.NDArray[np.uint8], kernel: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The mask's runs at least as long as ``kernel`` (a line of ones down or
    across), counted inside the mask only (OpenCV's default border would let
    a stroke that reaches the patch's side count as running on beyond it).

    A run that long needs a column (row) with that much ink: most corners
    have none, and the count is a tenth of the opening's time (thirty-third
    pass), so the opening is made only where it may find one."""
    axis = 0 if kernel.shape[0] > 1 else 1
    if not mask.size or cv2.reduce(mask, axis, cv2.REDUCE_SUM, dtype=cv2.CV_32S).max() < (
            kernel.shape[axis]):
        return np.zeros_like(mask)
    return np.asarray(
        cv2.morphologyEx(
            mask, cv2.MORPH_OPEN, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0
        ),
        np.uint8,
    )


#: red ink: red over green and blue by this share of the paper's level (as
#: ``vision.recognizer.RED_INK`` tells a red suit's ink)
RED_OVER = 0.22


def red_ink(patch: npt.NDArray[np.uint8], lit: float) -> npt.NDArray[np.uint8] | None:
    """The corner's red ink as a 0/1 mask (None: none), ``lit`` its paper's level.
    A red index whose sign touches black art (a Paris king's heart on the
    outline of his sword) is one blob with the art in the ink mask, running
    off the patch, and every other try drops it; the art's black and the
    index's red are apart in colour.  Only on calibration's clean images
    (``index.read_patch``'s ``red_apart``): on a camera frame a red cast or a
    red cloth would make red ink of anything, and the live reader stays as it
    was judged."""
    b, g, r = (c.astype(np.int16) for c in cv2.split(patch)[:3])
    red = np.asarray((r - np.maximum(b, g)) > RED_OVER * lit, np.uint8)
    return red if cv2.countNonZero(red) else None
