"""Where the card lies in one frame of the in-shoe camera, and which of its
ends is in view (``docs/hardware.md`` section 2, :data:`vision.geometry.IN_SHOE`).

The in-shoe camera never sees a whole card: the window shows the card's full
width and a 50 mm strip of its 88.9 mm length, against the tunnel's matte
black roof.  So instead of looking for a four-sided outline (the overhead
reader's ``vision.detect``), this finds the card's *short edge* that is in view
(the leading one, the card's lower boundary in the frame, or the trailing one,
its upper boundary) and its long side edges, and rebuilds the whole card's
outline from the known card size.  That outline is given with the visible end
as the face's "top": the index at that end, at the left as seen with that end
up, is then the overhead reader's top-left corner patch, turned upright by
construction.  Orientation is thus decided by the card's edges before any
glyph is looked at (an index's top always faces its nearer short edge).

The long sides are placed together (:func:`side_intercept`): they are square
to the visible end edge and the card's width apart, so every side sample, left
or right, estimates the same one number, and the sides go where most samples
agree among the places the guides' play allows.  A side out of the window, or
an LED's glare lighting the roof beside a side, leaves the rest to decide.

Everything is measured on a quarter-resolution view of the max channel (paper
is bright in every channel, red ink too; the roof is dark): an edge is a
*sharp* step from paper to roof, which the LEDs' glare spots (smooth, several
mm across) and dust (small, dim) are not, and each edge is a robust straight
line through many such steps.  A frame where sharp steps place no card is
looked at once more for soft ones (a fall over up to three samples, about
1.3 mm): art scaled up from a small bitmap blurs the card's printed outline
and its alpha (docs/vision.md, "Eleventh pass: low-resolution bitmap art").
Pure NumPy and OpenCV; about 0.5 ms of CPU a frame (docs/vision.md, fourteenth pass).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import IN_SHOE, InShoeGeometry

#: the frame is looked at every STEP-th pixel for the card's edges
STEP = 4
#: the aperture's rim is left out (it has its own bright and dark lines)
_RIM = 3
#: an edge step must be at least this share of paper minus roof
_STEP_SHARE = 0.45
#: samples an edge's fall may spread over (a blurred outline: about 1.3 mm)
_SPAN = 3
#: an edge's crossing from card to roof, as a share of paper minus roof above the roof
_RIM_SHARE = 0.25
#: millimetres kept clear of the card's rounded corners when fitting edges
_CORNER_MM = 6.0
#: samples beyond a short edge that must show the dark roof
_ROOF = 4
#: a fitted edge needs this many inlying samples
_MIN_SAMPLES = 8
#: how far (samples) a sample may be from its line and still count
_INLIER = 1.5
#: side samples (both sides together) that must agree on where the card's
#: sides are, as a share of the body rows looked at: one side's worth of rows
#: with a third of it spoiled by glare still counts
_SIDE_SHARE = 0.3
#: millimetres beyond the guides' sideways play the card's centre may lie
#: (the camera's mounting off the guides' centre line)
_PLAY_SLACK_MM = 1.0


@dataclass(frozen=True)
class Pose:
    """The card's outline in the frame, the visible end as the face's top."""

    quad: npt.NDArray[np.float32]
    """4 x 2: the outline's top-left, top-right, bottom-right, bottom-left, in
    frame px (the card's far end lies outside the frame)"""
    end: str
    """"leading" (the card's lower boundary in the frame: its index passes
    upside down) or "trailing" (its upper boundary: upright)"""
    angle_deg: float
    """the card's turn from straight along the motion"""
    sides: int
    """how many long side edges were seen (the other is placed from the width)"""


@dataclass(frozen=True)
class NoPose:
    """Why no card end was found: ``reason`` is one of :data:`POSE_REASONS`."""

    reason: str


EMPTY = "the window is empty"
MIDDLE = "the card's middle: no short edge in view"
UNCLEAR = "the card's edges are unclear"
POSE_REASONS = (EMPTY, MIDDLE, UNCLEAR)


def _mean(x: npt.NDArray[np.float64]) -> float:
    """``float(x.mean())`` of a non-empty float64 array, bit for bit: the same
    sum (``np.add.reduce``, which ``mean`` calls) divided by the count, without
    ``mean``'s Python wrapper, a good part of this module's time on arrays of
    a hundred numbers."""
    return float(np.add.reduce(x, axis=None)) / x.size


def _share(mask: npt.NDArray[np.bool_]) -> float:
    """``float(mask.mean())`` of a non-empty boolean array: ``mean`` sums it
    as float64, exactly the count of True."""
    return np.count_nonzero(mask) / mask.size


def _median(x: npt.NDArray[np.float64]) -> float:
    """``float(np.median(x))`` of a non-empty float64 array without NaN: the
    middle element, or the mean of the two middle ones (which ``np.median``
    takes as their sum halved), picked from a sort instead of ``np.median``'s
    slower partition and checks."""
    srt = np.sort(x)
    n = srt.size
    if n % 2:
        return float(srt[n // 2])
    return (float(srt[n // 2 - 1]) + float(srt[n // 2])) / 2


def _line(t: npt.NDArray[np.float64], v: npt.NDArray[np.float64]) -> tuple[float, float]:
    """Least-squares ``v = a t + b`` (plain sums: ``np.polyfit`` costs ten times more)."""
    mt, mv = _mean(t), _mean(v)
    dt = t - mt
    den = float(dt @ dt)
    a = float(dt @ (v - mv)) / den if den > 0 else 0.0
    return a, mv - a * mt


def _fit(t: npt.NDArray[np.float64], v: npt.NDArray[np.float64]) -> tuple[float, float, int] | None:
    """Robust straight line ``v = a t + b`` through samples: least squares, then
    again on the samples near the line; None with too few inliers."""
    if t.size < _MIN_SAMPLES:
        return None
    a, b = _line(t, v)
    for _ in range(2):
        res = np.abs(v - (a * t + b))
        keep = res <= max(_INLIER, _median(res) * 2.0)
        if int(np.count_nonzero(keep)) < _MIN_SAMPLES:
            return None
        a, b = _line(t[keep], v[keep])
    res = np.abs(v - (a * t + b))
    n = int(np.count_nonzero(res <= _INLIER))
    if n < max(_MIN_SAMPLES, 0.5 * t.size):
        return None
    return a, b, n


def _first(mask: npt.NDArray[np.bool_], axis: int) -> npt.NDArray[np.int64]:
    """Index of the first True along ``axis`` (-1 where none)."""
    idx = np.argmax(mask, axis=axis)
    return np.where(mask.any(axis=axis), idx, -1)


def _last(mask: npt.NDArray[np.bool_], axis: int) -> npt.NDArray[np.int64]:
    n = mask.shape[axis]
    rev = _first(np.flip(mask, axis=axis), axis)
    return np.where(rev >= 0, n - 1 - rev, -1)


def side_intercept(
    from_left: npt.NDArray[np.float64],
    from_right: npt.NDArray[np.float64],
    centre_of: Callable[[float], float],
    centre_col: float,
    reach: float,
) -> tuple[float, int, int] | None:
    """Where the card's left side line crosses row 0 (``x = slope y + d``: its
    ``d``), from every side sample's own estimate of it (``from_left``: left
    edge samples; ``from_right``: right edge samples minus the card's width),
    and how many samples of each side agree.  The estimate is the densest
    cluster (samples within ``_INLIER`` of one another), among the positions
    that put the card's centre (``centre_of(d)``) within ``reach`` of
    ``centre_col``; then the mean of that cluster.  None: no sample there."""
    both = np.concatenate([from_left, from_right])
    if both.size == 0:
        return None
    order = np.sort(both)
    lo = np.searchsorted(order, order - _INLIER, side="left")
    hi = np.searchsorted(order, order + _INLIER, side="right")
    counts = hi - lo
    best_d: float | None = None
    best_n = 0
    for i in np.argsort(-counts, kind="stable").tolist():
        if counts[i] <= best_n:
            break
        d = _mean(order[lo[i] : hi[i]])
        if abs(centre_of(d) - centre_col) <= reach:
            best_d, best_n = d, int(counts[i])
            break
    if best_d is None:
        return None
    n_left = int(np.count_nonzero(np.abs(from_left - best_d) <= _INLIER))
    n_right = int(np.count_nonzero(np.abs(from_right - best_d) <= _INLIER))
    keep = np.abs(both - best_d) <= _INLIER
    return _mean(both[keep]), n_left, n_right


def _card_centre_x(
    a: float, b: float, slope: float, width_x: float, length: float, end: str
) -> Callable[[float], float]:
    """The card's centre's column (in samples) as a function of its left side's
    ``d``: the middle of the visible end edge ``y = a x + b``, then half the
    card's length along the card, away from that end."""
    norm = math.sqrt(1 + slope * slope)
    ux = slope / norm
    along = length / 2 if end == "trailing" else -length / 2

    def centre(d_left: float) -> float:
        d = d_left + width_x / 2  # the centre line x = slope y + d
        y = (a * d + b) / (1 - a * slope)
        return slope * y + d + ux * along

    return centre


def _steps(
    si: npt.NDArray[np.int16], axis: int, span: int
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The fall and the rise across each boundary between neighbouring samples
    along ``axis`` (0: going +y, 1: going +x), each the largest over any run of
    up to ``span`` samples that holds the boundary: a card whose art (its
    outline and alpha too) was scaled up from a small bitmap has an edge that
    falls over a millimetre or so, not one sample, while a glare spot still
    falls over several millimetres."""
    if span <= 1:
        # (a sharp look: one subtraction along the axis, no axes moved)
        step = si[:-1] - si[1:] if axis == 0 else si[:, :-1] - si[:, 1:]
        return step, -step
    a = np.moveaxis(si, axis, 0).astype(np.int16, copy=False)  # (never written)
    fall = a[:-1] - a[1:]
    rise = -fall
    for k in range(2, min(span, a.shape[0] - 1) + 1):
        wide = a[:-k] - a[k:]  # window j covers boundaries j .. j + k - 1
        for off in range(k):
            fall[off : off + wide.shape[0]] = np.maximum(fall[off : off + wide.shape[0]], wide)
            rise[off : off + wide.shape[0]] = np.maximum(rise[off : off + wide.shape[0]], -wide)
    return np.moveaxis(fall, 0, axis), np.moveaxis(rise, 0, axis)


def find_pose(frame: npt.NDArray[np.uint8], geometry: InShoeGeometry = IN_SHOE) -> Pose | NoPose:
    """The card's pose in one in-shoe frame (BGR), or why there is none.

    Edges are first sought as sharp steps; only when that finds no pose in a
    window that is not empty are they sought again as soft ones (a fall over up
    to :data:`_SPAN` samples, crossing nearer the roof): a card printed from a
    small bitmap scaled up has a blurred outline and alpha, and a sharp card's
    pose stays exactly what the sharp search gives."""
    seen = _look(frame, geometry)
    pose = _find_pose(frame, geometry, soft=False, seen=seen)
    if isinstance(pose, NoPose) and pose.reason != EMPTY:
        again = _find_pose(frame, geometry, soft=True, seen=seen)
        if isinstance(again, Pose):
            return again
    return pose


@dataclass(frozen=True)
class _Seen:
    """What both looks at a frame (sharp edges, then soft ones) start from:
    the window in frame px, its sampled max channel, and the paper's and the
    roof's levels in it.  Taken once per frame: sampling the frame's
    channels (a strided read of most of it) was a tenth of the pose's time,
    twice over on a frame looked at again for soft edges."""

    wx0: int
    wx1: int
    ox: int
    oy: int
    ppm: float
    s: npt.NDArray[np.uint8]
    si: npt.NDArray[np.int16]
    lit: npt.NDArray[np.bool_]
    share: float
    paper: float
    roof: float


def _look(frame: npt.NDArray[np.uint8], geometry: InShoeGeometry) -> _Seen | NoPose:
    """The frame's :class:`_Seen`, or NoPose(EMPTY) when no card is in view."""
    wx0, wy0, wx1, wy1 = geometry.window_rect_px
    h, w = frame.shape[:2]
    if (w, h) != geometry.frame_px:
        # another size: scale the geometry's window to this frame
        sx, sy = w / geometry.frame_px[0], h / geometry.frame_px[1]
        wx0, wx1, wy0, wy1 = round(wx0 * sx), round(wx1 * sx), round(wy0 * sy), round(wy1 * sy)
        ppm = geometry.px_per_mm * sx
    else:
        ppm = geometry.px_per_mm
    ox, oy = wx0 + _RIM, wy0 + _RIM
    view = frame[oy : wy1 - _RIM : STEP, ox : wx1 - _RIM : STEP]
    s = np.asarray(cv2.max(cv2.max(view[..., 0], view[..., 1]), view[..., 2]), np.uint8)
    thr, _ = cv2.threshold(s, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = s > thr
    share = _share(bright)
    if share < 0.08:
        return NoPose(EMPTY)
    # (uint8 sums are whole numbers, exact in any order: what ``mean`` gives)
    n_bright = np.count_nonzero(bright)
    paper = int(np.add.reduce(s[bright], dtype=np.int64)) / n_bright
    roof = (int(np.add.reduce(s[~bright], dtype=np.int64)) / (bright.size - n_bright)
            if share < 1.0 else 0.0)
    if paper < 1.8 * max(roof, 8.0):
        return NoPose(EMPTY)
    si = s.astype(np.int16)
    lit = si > 0.5 * (paper + roof)
    return _Seen(wx0, wx1, ox, oy, ppm, s, si, lit, share, paper, roof)


def _find_pose(
    frame: npt.NDArray[np.uint8], geometry: InShoeGeometry, *, soft: bool,
    seen: _Seen | NoPose | None = None,
) -> Pose | NoPose:
    """:func:`find_pose` with sharp edges only, or (``soft``) blurred ones too;
    ``seen``: the frame's :func:`_look`, when already taken."""
    if seen is None:
        seen = _look(frame, geometry)
    if isinstance(seen, NoPose):
        return seen
    wx0, wx1, ox, oy, ppm = seen.wx0, seen.wx1, seen.ox, seen.oy, seen.ppm
    s, si, lit, share, paper, roof = seen.s, seen.si, seen.lit, seen.share, seen.paper, seen.roof
    jump = _STEP_SHARE * (paper - roof)
    span = _SPAN if soft else 1
    # where an edge crosses from card to roof; soft: nearer the roof than
    # ``lit``, so a card whose printed border was blurred (art scaled up from a
    # small bitmap, ``hardware_sim.cards.lowres``) is still as wide as a card
    rim = si > roof + _RIM_SHARE * (paper - roof) if soft else lit
    rows, cols = s.shape
    card_w = geometry.card_width_mm * ppm / STEP
    card_l = geometry.card_length_mm * ppm / STEP
    # The middle of the window across is always over the card when one is there.
    mid = np.arange(round(cols * 0.2), round(cols * 0.8))
    across = slice(round(cols * 0.2), round(cols * 0.8))  # ``mid`` as a slice: views
    # drop and rise going down the frame (+y), in those columns only (each
    # column's steps are its own: the same numbers as over the whole view)
    down, up = _steps(si[:, across], 0, span)
    lead_edge = (down >= jump) & rim[:-1, across] & ~rim[1:, across]
    trail_edge = (up >= jump) & ~rim[:-1, across] & rim[1:, across]
    candidates: list[tuple[str, float, float, int]] = []
    for end, edge, pick in (("leading", lead_edge, _last), ("trailing", trail_edge, _first)):
        ys = pick(edge, 0)
        ok = ys >= 0
        fit = _fit(mid[ok].astype(np.float64), ys[ok].astype(np.float64) + 0.5)
        if fit is not None:
            a, b, n = fit
            # the card's body must lie beyond the edge: paper on its far side
            yc = a * (cols / 2) + b
            body = slice(0, max(int(yc) - 1, 0)) if end == "leading" else slice(int(yc) + 2, rows)
            band = lit[body, across]
            # and the roof on its near side: a band of dark, not a line printed
            # across the face (a court card's frame)
            e = np.floor(a * mid + b).astype(np.int64)  # the last row before the edge
            steps = np.arange(_ROOF)[:, None]
            rows_out = e + 2 + steps if end == "leading" else e - 1 - steps
            inside = (rows_out >= 0) & (rows_out < rows)
            looked = lit[np.clip(rows_out, 0, rows - 1), mid][inside]
            dark = looked.size < 2 * mid.size or _share(looked) < 0.25
            if band.size and _share(band) > 0.6 and abs(a) < 0.15 and dark:
                candidates.append((end, a, b, n))
    if not candidates:
        if share > 0.5 and _share(lit[:, across]) > 0.5:
            return NoPose(MIDDLE)
        return NoPose(EMPTY if share < 0.3 else UNCLEAR)
    end, a, b, _ = max(candidates, key=lambda c: c[3])
    # Side edges, on the rows of the card's body clear of its rounded corners.
    clear = _CORNER_MM * ppm / STEP
    y_end = a * np.arange(cols) + b
    r = np.arange(rows)
    if end == "leading":
        body_rows = r[r < float(y_end.min()) - clear]
    else:
        body_rows = r[r > float(y_end.max()) + clear]
    # (``body_rows`` is a run of rows: as a slice, the side steps are found
    # in those rows only, each row's the same as over the whole view)
    side_rows = slice(int(body_rows[0]), int(body_rows[-1]) + 1) if body_rows.size else slice(0, 0)
    right, rise_x = _steps(si[side_rows], 1, span)  # drop and rise going right (+x)
    rim_b = rim[side_rows]
    left_edge = (rise_x >= jump) & ~rim_b[:, :-1] & rim_b[:, 1:]
    right_edge = (right >= jump) & rim_b[:, :-1] & ~rim_b[:, 1:]
    half = cols // 2
    lx = _first(left_edge[:, :half], 1)
    rx = _last(right_edge[:, half:], 1)
    # The side edges are square to the end edge (slope -a), and the card's
    # width is known: every side sample, left or right, says where the left
    # side lies.  The side is where most of them agree (one line, found as the
    # densest cluster of those intercepts): glare on the roof beside one side,
    # or a side run out of the window, leaves the other's samples to decide,
    # and a glyph's edge found in a row where the side was not seen is an
    # outlier, not a pull on a least-squares line.
    slope = -a
    width_x = card_w * math.sqrt(1 + slope * slope)
    yy = body_rows.astype(np.float64)
    okl, okr = lx >= 0, rx >= 0
    from_left = lx[okl] + 0.5 - slope * yy[okl]
    from_right = rx[okr] + half + 0.5 - slope * yy[okr] - width_x
    # where the card's centre may lie across: the guides' play around the
    # window's centre line (plus a millimetre for the camera's mounting)
    centre_col = ((wx0 + wx1) / 2 - ox) / STEP
    reach = (geometry.sideways_play_mm + _PLAY_SLACK_MM) * ppm / STEP
    found = side_intercept(
        from_left, from_right, _card_centre_x(a, b, slope, width_x, card_l, end), centre_col, reach
    )
    if found is None or found[1] + found[2] < max(_MIN_SAMPLES, _SIDE_SHARE * body_rows.size):
        return NoPose(UNCLEAR)
    d_left, n_left, n_right = found
    d_right = d_left + width_x
    sides = int(n_left >= _MIN_SAMPLES) + int(n_right >= _MIN_SAMPLES)

    def meet(d: float) -> tuple[float, float]:
        # x = slope * y + d and y = a x + b
        y = (a * d + b) / (1 - a * slope)
        return slope * y + d, y

    (lxe, lye), (rxe, rye) = meet(d_left), meet(d_right)
    norm = math.sqrt(1 + slope * slope)
    ux, uy = slope / norm, 1.0 / norm  # along +y of the frame, along the card
    length = card_l
    if end == "trailing":
        tl, tr = (lxe, lye), (rxe, rye)
        br = (rxe + ux * length, rye + uy * length)
        bl = (lxe + ux * length, lye + uy * length)
    else:
        tl, tr = (rxe, rye), (lxe, lye)
        br = (lxe - ux * length, lye - uy * length)
        bl = (rxe - ux * length, rye - uy * length)
    quad = np.array([tl, tr, br, bl], np.float64)
    # back to frame px: sample k covers frame px [o + k STEP, o + (k+1) STEP)
    quad = quad * STEP + np.array([ox, oy], np.float64)
    return Pose(quad.astype(np.float32), end, math.degrees(math.atan(slope)), sides)
