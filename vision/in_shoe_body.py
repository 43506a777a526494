"""In the shoe, the body just below the index: a court's picture, or paper.

The in-shoe camera never sees the whole card, so the overhead reader's pips
(``vision.pips``) are out of reach; but every frame that reads an index also
sees the body right below it.  Between the two index columns and from 15 %
to 32 % of the card's length from its end (``BAND``), every court of every
design on hand prints its picture, and every common ace prints nothing: its
one pip sits in the card's middle.  So a frame whose band is blank paper is
not of a court, however sure its index is of a queen (a display face's "A"
that the classifier takes for a "Q"; docs/vision.md, nineteenth pass).

A 2's and a 3's top pip stand in that band, so their band is not blank; but
it holds that one pip and paper: one compact mark on the card's long axis,
clear of the band's sides (``band_holds_a_lone_pip``), which no court's
picture is (a GFS Theokritos "2" that the classifier takes for a "Q";
docs/vision.md, twenty-sixth pass), nor a 4's to a 10's top row, whose
pips stand at the band's sides (``LONE_PIP_RULES_OUT``, twenty-seventh
pass).

That top row is a pip cut by each side of the band with paper between
(``band_holds_pips_at_its_sides``), which no court's picture is either: it
spans the card's axis.  So it vetoes the courts too (a tall, thin hand's
"7" that the classifier takes for a "J"; docs/vision.md, thirtieth pass),
and it withholds the aces, 2s and 3s, whose top pip stands on the axis
(``SIDE_PIPS_WITHHOLD``: a shadowed "8" read as a "3"; forty-second pass).

What the band shows of each card (``band_kind``) is also the body's word on
a pass whose frames the recogniser each refused: their sum is believed only
when some band showed its card's kind (a calligraphic "J" whose frames sum
to a "7"; docs/vision.md, thirty-fourth pass).

A court's picture is, besides, one mark across the band, which a 4's to a
10's top row never is (``band_layout``): a pass named a 4 to a 10 whose
band showed the picture on most frames and the top row on none is not
named, however many frames chose it (a brushed "J" every frame reads as a
"7"; docs/vision.md, thirty-seventh pass).  That mark is read against the
paper's level, which the window's glare must not lift (``PAPER_PERCENTILE``,
thirty-sixth pass).

Pure: a frame, the card's pose and the window in; a verdict out.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import CARD_CODES
from vision.index import CARD_H, CARD_W

#: the band, in card units (``CARD_W`` x ``CARD_H``, the visible end at the
#: top): x0, y0, x1, y1
BAND = (0.30 * CARD_W, 0.15 * CARD_H, 0.70 * CARD_W, 0.32 * CARD_H)
#: the card's end down to the band's foot, where the paper's level is taken
#: (its margins and index columns are paper on every design)
_END = (0.0, 0.0, float(CARD_W), 0.32 * CARD_H)
#: half a card unit per pixel is plenty for "any ink at all"
_SCALE = 0.5
#: darker than the paper by this share of its level is ink
INK_CONTRAST = 0.35
#: a band with ink on less than this share of it is blank paper (courts: 13 %
#: and more on clean faces)
BLANK_SHARE = 0.005
#: pixels kept clear of the window's rim
_RIM = 3.0

COURTS = frozenset(c for c in CARD_CODES if c[0] in "JQK")
#: what a lone pip in the band rules out (``band_holds_a_lone_pip``): the
#: courts, and every number card from 4 to 10, whose top row prints two pips
#: at the band's sides (a 7's or a 10's odd pip on the axis has them beside
#: it).  An ace's lone mark is left possible: its big pip, or a small pip
#: that the blur carries into the band, is seen there now and then
#: (docs/vision.md, twenty-seventh pass)
LONE_PIP_RULES_OUT = frozenset(c for c in CARD_CODES if c[0] not in "A23")
#: what side pips in the band withhold (``vision.in_shoe.withhold_by_side_pips``):
#: the cards whose top pip stands on the axis, or that print none there.  Only
#: withheld, not ruled out, and only over two frames: an ace's big pip shows
#: its flanks at the band's sides now and then, never twice in a pass (42 of
#: 16,941 band frames of aces, 2s and 3s, all aces, one frame a pass;
#: docs/vision.md, forty-second pass)
SIDE_PIPS_WITHHOLD = frozenset(c for c in CARD_CODES if c[0] in "A23")
#: the fusion's reason when side pips withheld the card (``Reading.withheld_why``)
SIDE_PIPS_WHY = "the side pips of a 4 to a 10 below the index withhold"


def _card_to_frame(quad: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    canon = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(canon, quad), np.float64)


def _in_window(points: npt.NDArray[np.float64], window: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = window
    return bool((points[:, 0] >= x0 + _RIM).all() and (points[:, 0] <= x1 - _RIM).all()
                and (points[:, 1] >= y0 + _RIM).all() and (points[:, 1] <= y1 - _RIM).all())


def band_is_blank(
    frame: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32],
    window: tuple[float, float, float, float],
) -> bool | None:
    """Whether the band below the visible end's index is blank paper; None
    when the card's end down to the band's foot is not wholly in the window
    (nothing is said of a band half in view)."""
    share = band_ink(frame, quad, window)
    return None if share is None else share < BLANK_SHARE


def band_ink(
    frame: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32],
    window: tuple[float, float, float, float],
) -> float | None:
    """The share of the band that is ink (None: the band not wholly in view)."""
    ink = _band_ink_mask(frame, quad, window, _SCALE)
    return None if ink is None else float(ink.mean())


def _band_ink_mask(
    frame: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32],
    window: tuple[float, float, float, float], scale: float,
) -> npt.NDArray[np.bool_] | None:
    """Which pixels of the band, at ``scale`` px per card unit, are ink (None:
    the band not wholly in view)."""
    strip = end_strip(frame, quad, window, scale)
    return None if strip is None else band_ink_of(strip, scale)


def end_strip(
    frame: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32],
    window: tuple[float, float, float, float], scale: float,
) -> npt.NDArray[np.uint8] | None:
    """The card's end down to the band's foot, upright, at ``scale`` px per
    card unit (None: the band not wholly in view)."""
    h = _card_to_frame(quad)
    bx0, by0, bx1, by1 = BAND
    band_pts = np.array([[[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]]], np.float64)
    if not _in_window(cv2.perspectiveTransform(band_pts, h)[0], window):
        return None
    x0, y0, x1, y1 = _END
    w, ht = round((x1 - x0) * scale), round((y1 - y0) * scale)
    to_card = np.array([[1 / scale, 0, x0], [0, 1 / scale, y0], [0, 0, 1]], np.float64)
    return np.asarray(cv2.warpPerspective(frame, h @ to_card, (w, ht),
                                          flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                                          borderMode=cv2.BORDER_REPLICATE), np.uint8)


def band_ink_of(strip: npt.NDArray[np.uint8], scale: float) -> npt.NDArray[np.bool_] | None:
    """Which pixels of ``end_strip``'s band are ink: darker than the paper by
    ``INK_CONTRAST`` of its level in their darkest channel (None: no paper)."""
    b, g, r = cv2.split(strip)
    grey = np.asarray(cv2.min(cv2.min(b, g), r), np.uint8)
    # (the strip's part outside the window is the shoe's dark floor or the
    # replicated border: the paper's level is the brightest of what is seen)
    paper = paper_level(grey)
    if paper <= 0:
        return None
    c0, r0, c1, r1 = (round(v * scale) for v in BAND)
    band = grey[r0:r1, c0:c1].astype(np.float32)
    out: npt.NDArray[np.bool_] = (paper - band) / paper > INK_CONTRAST
    return out


#: the paper's level: this percentile of the darkest channel.  Not a higher
#: one: the window's glare on the card's end lifts the top percentiles, and
#: the paper itself then reads as ink (docs/vision.md, thirty-sixth pass)
PAPER_PERCENTILE = 80


def paper_level(grey: npt.NDArray[np.uint8]) -> float:
    """``np.percentile(grey.astype(np.float32), PAPER_PERCENTILE)``, to the
    bit, without its sort: a sort per band, and numpy's reduction over the
    three colour channels before it, were a millisecond of the slowest
    frames (docs/vision.md, thirty-first pass).  The two order statistics
    numpy interpolates between come from the histogram; the interpolation is
    numpy's own (``numpy.lib._function_base_impl._lerp`` for an integer
    percentile of a float32 array: the weight a Python float, so each
    product rounded to float32; from its far end when the weight is half or
    more), which ``tests/vision`` holds to ``np.percentile`` itself."""
    hist = cv2.calcHist([grey], [0], None, [256], [0, 256])
    cdf = np.cumsum(hist.reshape(-1).astype(np.int64))
    n = int(cdf[-1])
    at = (n - 1) * (PAPER_PERCENTILE / 100)
    below = min(math.floor(at), n - 1)
    # (the j-th smallest value, from 0, is the first level whose count passes j)
    low, high = (np.float32(v) for v in np.searchsorted(
        cdf, [below, min(below + 1, n - 1)], side="right"))
    weight = at - below
    step = high - low
    if weight >= 0.5:
        return float(high - step * np.float32(1 - weight))
    return float(low + step * np.float32(weight))


#: a lone pip in the band (card units at one px each): marks smaller than
#: ``SPECK`` px are dust; the pip's centre within ``AXIS`` of the card's long
#: axis, its width at most ``PIP_W``, ink on at least ``PIP_FILL`` of its box
SPECK = 6
AXIS = 0.08 * CARD_W
PIP_W = 0.25 * CARD_W
PIP_FILL = 0.35


def band_holds_a_lone_pip(
    frame: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32],
    window: tuple[float, float, float, float],
) -> bool | None:
    """Whether the band's only mark is a pip on the card's long axis, clear
    of the band's sides: a 2's or a 3's top pip, never a court's picture (on
    development data's in-shoe frames, 0 of 4,935 courts' bands, and about
    four in five of the 2s' and 3s'); None when the band is not wholly in
    view."""
    layout = band_pips(frame, quad, window)
    return None if layout is None else layout == LONE


def band_holds_pips_at_its_sides(
    frame: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32],
    window: tuple[float, float, float, float],
) -> bool | None:
    """Whether the band shows a 4's to a 10's top row: a pip cut by each of
    its sides and, between them, paper (a 7's or an 8's middle pip may rise
    into the band's lower half); a court's picture spans the card's axis
    (docs/vision.md, thirtieth pass).  None when the band is not wholly in
    view."""
    layout = band_pips(frame, quad, window)
    return None if layout is None else layout == SIDES


#: what ``band_pips`` sees: one pip on the axis (a 2's or a 3's top pip), a
#: pip at each side (a 4's to a 10's top row), or neither
LONE, SIDES, NEITHER = "lone", "sides", "neither"
#: a band of paper only (``band_is_blank``), as a reading records it
BLANK = "blank"

#: a side pip lies within this share of the band's width from its side
SIDE_SHARE = 0.45
#: between the side pips, marks may stand only below this share of the
#: band's height (a 7's or an 8's middle pip reaching up into it)
BETWEEN_BELOW = 0.5


def band_pips(
    frame: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32],
    window: tuple[float, float, float, float],
) -> str | None:
    """Which pips the band shows (``LONE``, ``SIDES`` or ``NEITHER``), from
    one warp and one labelling for both rules; None when the band is not
    wholly in view."""
    seen = band_layout(frame, quad, window)
    return None if seen is None else seen[0]


#: a court's picture in the band: one mark across at least this share of its
#: width and down at least this share of its height (a 4's to a 10's top
#: row is two pips with paper between; docs/vision.md, thirty-seventh pass)
PICTURE_W = 0.8
PICTURE_H = 0.5


def band_layout(
    frame: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32],
    window: tuple[float, float, float, float],
) -> tuple[str, bool] | None:
    """``band_pips``'s kind, and whether a band of neither kind shows a
    court's picture: one mark across it (``PICTURE_W``, ``PICTURE_H``).
    None when the band is not wholly in view."""
    ink = _band_ink_mask(frame, quad, window, 1.0)
    if ink is None:
        return None
    n, _, stats, centroids = cv2.connectedComponentsWithStats(
        ink.astype(np.uint8), connectivity=8)
    marks = [(tuple(int(v) for v in stats[k]), float(centroids[k][0]))
             for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= SPECK]
    height, width = ink.shape
    if len(marks) == 1:
        (x, _, w, h, area), cx = marks[0]
        if (x > 0 and x + w < width and w <= PIP_W and area >= PIP_FILL * w * h
                and abs(cx - width / 2) <= AXIS):
            return LONE, False
    if _pips_at_the_sides([m for m, _ in marks], width, height):
        return SIDES, False
    picture = any(w >= PICTURE_W * width and h >= PICTURE_H * height
                  for (_, _, w, h, _), _ in marks)
    return NEITHER, picture


def _pips_at_the_sides(marks: list[tuple[int, ...]], width: int, height: int) -> bool:
    reach = SIDE_SHARE * width
    at_left = [x == 0 and x + w <= reach for x, _, w, _, _ in marks]
    at_right = [x + w == width and x >= width - reach for x, _, w, _, _ in marks]
    if not any(at_left) or not any(at_right):
        return False
    between = (m for m, lt, rt in zip(marks, at_left, at_right, strict=True) if not (lt or rt))
    return all(x > 0 and x + w < width and y >= BETWEEN_BELOW * height
               for x, y, w, _, _ in between)


def band_kind(card: str) -> str:
    """What the band of ``card`` shows in the common layouts: pips at its
    sides (a 4 to a 10), a lone pip (a 2 or a 3), blank paper (an ace), or a
    picture that is none of those (a court).  Some designs show less (tango's
    top pips sit inward: its 4s to 10s show "neither"), so this is asked
    only of a pass that few frames named, whose sum is then believed only
    when some band showed its card's kind (docs/vision.md, thirty-fourth and
    thirty-fifth passes)."""
    rank = card[0]
    if rank in "456789T":
        return SIDES
    if rank in "23":
        return LONE
    return BLANK if rank == "A" else NEITHER
