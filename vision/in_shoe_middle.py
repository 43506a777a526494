"""In the shoe, the card's middle: is there ink on the card's long axis?

A frame of the card's middle (no short edge in view: ``vision.in_shoe_pose``)
shows no index, but it shows the pips between the indices.  Every common
layout of a 3, a 5, a 7, a 9 and a 10 prints pips on the card's axis there,
and so does every ace (its big pip) and every court (its picture); a 4 and a
6 print theirs in two side columns only, with paper between.  So a pass
whose middle frames never showed ink on the axis is not of those cards,
however its index reads (a stencilled "4" the rank networks read as a "7";
docs/vision.md, forty-third pass).  An 8 is not among them: the anglo-style
designs print its axis pips where a middle frame does not see them.

The same marks say more in the frame that sees the card's centre: a 6 to a
10 print side pips within a few millimetres of the centre row (the 6's,
7's and 8's middle row, the 9's and 10's inner rows), and an ace to a 5
print none there (their side pips, if any, stand near the ends).  Which
frame sees the centre is not known from one frame (no short edge is in
view), but the middle frames of a pass are taken at a steady pace as the
card slides, so the central ones of the run see it (``centre_side_ink``;
the fusion picks them: ``vision.in_shoe.PassFusion``; forty-fifth pass).

Pure: a frame and the window in; a verdict out.  Measured at a third of the
frame's resolution (about 3 px/mm), where a pip is tens of pixels and the
cost is a fraction of a millisecond.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import CARD_CODES
from vision.in_shoe_body import paper_level

#: the cards whose middle always shows ink on the axis (development data:
#: every middle frame of the aces, 3s, 5s, 9s, 10s and courts of 43 designs,
#: and a middle frame of every pass of their 7s; docs/vision.md, forty-third
#: pass)
AXIS_WITHHOLD = frozenset(c for c in CARD_CODES if c[0] in "A3579TJQK")
#: the fusion's reason when a clean axis withholds the card
AXIS_WHY = "the card's middle showed no pip on its axis"
#: the frame is looked at this much smaller (a pip stays tens of pixels)
SHRINK = 3
#: the card is the run of columns brighter than this share of the paper's
#: level, and must span this share of the window's width (63.5 of ~70 mm)
_BRIGHT = 0.6
_SPAN = (0.7, 1.0)
#: darker than the paper by this share of its level is ink (as the band's)
INK_CONTRAST = 0.35
#: a mark is ink of at least this many square millimetres (dust is less)
MARK_MM2 = 4.0
#: a mark on the axis: its centre within this share of the card's width of it
AXIS_SHARE = 0.08
#: the card's long edges are left out by this share of its width
_EDGE = 0.06
#: pixels kept clear of the window's rim
_RIM = 4
#: the centre row's strip: marks reaching within this many millimetres of
#: the window's middle row, along the slide (a 9's inner side pips reach
#: within about 4 mm of the card's centre, a 4's pips stay about 18 mm away)
CENTRE_MM = 10.0
#: a side pip: its centre further than this share of the card's width from
#: the axis (side columns stand at about 0.2; the axis' own marks within 0.08)
SIDE_SHARE = 0.12


@dataclass(frozen=True)
class MiddleLook:
    """What one frame of the card's middle showed."""

    #: ink on the card's long axis, anywhere in the window
    axis_ink: bool
    #: side pips reaching the window's centre row strip (``CENTRE_MM``)
    centre_side_ink: bool


def axis_ink(
    frame: npt.NDArray[np.uint8], window: tuple[float, float, float, float],
) -> bool | None:
    """Whether this frame of the card's middle shows ink on the card's long
    axis; None when the card's width across the window is not clear."""
    look = look_at_middle(frame, window)
    return None if look is None else look.axis_ink


def look_at_middle(
    frame: npt.NDArray[np.uint8], window: tuple[float, float, float, float],
) -> MiddleLook | None:
    """What this frame of the card's middle shows on the axis and beside the
    centre row; None when the card's width across the window is not clear."""
    x0, y0, x1, y1 = (round(v) for v in window)
    view = frame[y0 + _RIM:y1 - _RIM, x0 + _RIM:x1 - _RIM]
    # (cut to whole multiples of SHRINK: OpenCV's area resize then takes its
    # fast path, a third of the time of the general one)
    h, w = view.shape[0] // SHRINK, view.shape[1] // SHRINK
    if h == 0 or w == 0:
        return None
    small = cv2.resize(view[:h * SHRINK, :w * SHRINK], (w, h), interpolation=cv2.INTER_AREA)
    b, g, r = cv2.split(small)
    grey = np.asarray(cv2.min(cv2.min(b, g), r), np.uint8)
    paper = paper_level(grey)
    if paper <= 0:
        return None
    # (a column is the card's where most of its pixels are paper-bright: the
    # median's test, without a sort per column)
    bright = np.flatnonzero(
        np.count_nonzero(grey > _BRIGHT * paper, axis=0) * 2 > grey.shape[0])
    if bright.size == 0:
        return None
    left, right = int(bright[0]), int(bright[-1])
    width = right - left
    if not (_SPAN[0] * grey.shape[1] < width <= _SPAN[1] * grey.shape[1]):
        return None
    if left == 0 and right == grey.shape[1] - 1:
        # (no roof beside the bright run: the window's roof itself, lit, or
        # a card whose sides are both out of view; nothing is said)
        return None
    ink = ((paper - grey.astype(np.float32)) / paper > INK_CONTRAST).astype(np.uint8)
    edge = round(_EDGE * width)
    ink[:, :left + edge] = 0
    ink[:, right - edge:] = 0
    n, _, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    px_per_mm = width / 63.5
    least = MARK_MM2 * px_per_mm * px_per_mm
    centre = (left + right) / 2
    marks = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= least]
    on_axis = any(abs(centroids[k][0] - centre) <= AXIS_SHARE * width for k in marks)
    # (rows run along the slide: the strip is the window's middle rows)
    row = grey.shape[0] / 2
    reach = CENTRE_MM * px_per_mm
    beside = any(
        abs(centroids[k][0] - centre) > SIDE_SHARE * width
        and stats[k, cv2.CC_STAT_TOP] <= row + reach
        and stats[k, cv2.CC_STAT_TOP] + stats[k, cv2.CC_STAT_HEIGHT] >= row - reach
        for k in marks)
    return MiddleLook(on_axis, beside)
