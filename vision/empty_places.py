"""Where a deck's calibrated layout prints a pip that the frame shows as
clean paper (profile mode), where a 3 would print its middle pip between
a two's pair, and where a 6 to 10 prints pips between a 4's (both modes).

Layouts as evidence (``vision.pips.rule_out_by_layout``) rule out the number
cards whose layout cannot hold the array seen.  They cannot rule out a card
with more pips whose layout holds it (a 9 holds a 5's four corners and its
middle): glare and fingers take pips away, so fewer pips than a card prints
say nothing by their count.  Where that card would print its other pips,
though, the frame may show what is there: clean paper, inside the camera's
picture, with no ink and no glare, is no hidden pip.  A glare spot is too
bright, a finger or a shadow is darker than paper, and a place outside the
picture is not looked at, so only paper that is plainly there speaks.  On
development data (902 arrays of hard frames) no card was ruled out by its
own layout so, and a card with more pips was in 58 % of the frames
(docs/vision.md, "Twenty-third pass").

Pure: a frame and numbers in, numbers out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import CARD_CODES
from vision.detect import Quad
from vision.index import flatten, ink_levels
from vision.pips import (
    _PAPER_KERNEL,
    BODY_H,
    BODY_W,
    PIPS_OF_RANK,
    RULED_OUT,
    BodyReading,
    Pip,
    body_image,
    body_transform,
    unfilled_places,
)

#: the window looked at, per place: this share of the array's median pip
#: size on each side of the place's centre
WINDOW = 0.6
#: the most of the window that may be ink for it to be paper
MOST_INK = 0.02
#: the window's darkest pixel must be above paper - this share of the
#: paper-to-ink contrast (no stroke, however thin, crosses it)
FAINTEST_MARK = 0.35
#: a window with a patch this bright (least of B, G, R, averaged over
#: ``GLARE_PATCH``) may be glare over a pip.  Glare hides a pip only by
#: lifting its ink near the paper's level, and glare that strong saturates
#: the paper around the pip: a patch of clipped pixels, whose noise can only
#: pull it down (to about 252 on average).  A single pixel would not do:
#: sensor noise lifts a few pixels of bright, unglared paper past 250, and
#: such a frame looked like glare everywhere (docs/vision.md, thirty-second
#: pass)
GLARE = 250
#: the side (px) of the neighbourhood whose mean ``GLARE`` is judged on: it
#: divides the noise by three and still fits the clipped ring around a pip
GLARE_PATCH = 3
#: ... or a patch this many times the body's paper (``PaperView.raw_paper``),
#: clipped or not: on a dim frame glare that hides a pip lifts the paper
#: around it far above the card's paper without reaching the clip.  The
#: largest of 1.1, 1.15, 1.2 and 1.3 under which no pip lost under glare was
#: taken for paper on development data (``benchmarks/empty_places_safety.py``,
#: seed 32; judged afresh on seed 33)
GLARE_LIFT = 1.3
#: a window whose darkest channel averages under this share of the body's
#: typical paper (``PaperView.raw_typical``) is not paper: a finger or a
#: shadow, which the flattening (a closing wider than a pip) would take for
#: paper when wide
DIMMEST_PAPER = 0.85
#: the body's edge (px): a window touching it is not looked at
EDGE = 3


@dataclass(frozen=True)
class PaperView:
    """The body of one frame as :func:`blank_at` looks at it."""

    #: darkest channel, divided by the paper's local brightness (paper 255)
    flat: npt.NDArray[np.uint8]
    #: darkest channel as the camera gave it (glare is near its top)
    raw: npt.NDArray[np.uint8]
    #: which body pixels come from inside the camera's picture
    inside: npt.NDArray[np.bool_]
    paper: float
    contrast: float
    threshold: float
    #: the paper's level in ``raw`` (its 90th percentile), which glare is
    #: judged against
    raw_paper: float
    #: the paper's typical level in ``raw`` (the median inside the picture),
    #: which a finger's or a shadow's dimness is judged against.  The body is
    #: mostly paper, so the median is paper's; the 90th percentile is not,
    #: when a glare spot covers a tenth of the body and lifts it, and clean
    #: paper beside the spot then looked like a shadow (docs/vision.md,
    #: fifty-first pass)
    raw_typical: float


def paper_view(frame: npt.NDArray[np.uint8], quad: Quad) -> PaperView | None:
    """The body of the card outlined by ``quad`` in ``frame`` (BGR or BGRA),
    ready for :func:`blank_at`; None when it shows no clear ink and paper."""
    body = body_image(frame, quad)
    b, g, r = cv2.split(body)[:3]
    raw = np.asarray(cv2.min(cv2.min(b, g), r), np.uint8)
    flat = flatten(raw, _PAPER_KERNEL)
    levels = ink_levels(flat, 0.90)
    if levels is None:
        return None
    paper, dark, threshold = levels
    ones = np.ones(frame.shape[:2], np.uint8)
    inside = cv2.warpPerspective(ones, body_transform(quad), (BODY_W, BODY_H),
                                 flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0) > 0
    raw_paper = float(np.percentile(raw, 90))
    raw_typical = float(np.median(raw[inside])) if inside.any() else raw_paper
    return PaperView(flat, raw, inside, paper, paper - dark, threshold, raw_paper, raw_typical)


def blank_at(view: PaperView, x: float, y: float, size: float) -> bool:
    """Whether the window of a pip of ``size`` px centred on ``(x, y)`` (body
    px) is plainly clean paper: inside the picture and the body, no glare, no
    ink."""
    half = max(3, int(WINDOW * size))
    x0, x1, y0, y1 = int(x - half), int(x + half + 1), int(y - half), int(y + half + 1)
    if x0 < EDGE or y0 < EDGE or x1 > BODY_W - EDGE or y1 > BODY_H - EDGE:
        return False
    if not view.inside[y0:y1, x0:x1].all():
        return False
    raw = view.raw[y0:y1, x0:x1]
    if glare_in(raw, view.raw_paper) or float(raw.mean()) < DIMMEST_PAPER * view.raw_typical:
        return False
    window = view.flat[y0:y1, x0:x1]
    ink = float(np.mean(window < view.threshold))
    return ink <= MOST_INK and float(window.min()) >= view.paper - FAINTEST_MARK * view.contrast


def glare_in(raw: npt.NDArray[np.uint8], paper: float) -> bool:
    """Whether the window ``raw`` (darkest channel, as the camera gave it)
    holds a ``GLARE_PATCH``-wide patch averaging ``GLARE`` or more, or
    ``GLARE_LIFT`` times the body's ``paper``: clipped or lifted paper that
    may hide a pip, and not the noise of bright paper."""
    bright = min(float(GLARE), GLARE_LIFT * paper)
    if float(raw.max()) < bright:
        return False  # (no pixel there: no patch either, the common case)
    patch = cv2.blur(raw, (GLARE_PATCH, GLARE_PATCH), borderType=cv2.BORDER_REFLECT)
    return float(patch.max()) >= bright


def rule_out_by_empty_places(
    body: BodyReading, layouts: Mapping[str, Sequence[tuple[float, float]]],
    look: Callable[[], PaperView | None],
) -> BodyReading:
    """``body`` with every number card of the deck that prints more pips than
    were seen ruled out of its evidence (``RULED_OUT``) when, in every way up
    its calibrated layout holds the array, some place of the layout with no
    pip seen is clean paper (:func:`blank_at`; ``look`` gives the frame's
    :class:`PaperView`, asked only when some card has such places)."""
    if body.kind != "array" or not layouts or not body.candidates:
        return body
    size = float(np.median([p.size for p in body.candidates]))
    ruled = np.zeros(len(CARD_CODES), bool)
    view: PaperView | None = None
    for i, code in enumerate(CARD_CODES):
        if code not in layouts or body.evidence[i] <= RULED_OUT:
            continue
        if PIPS_OF_RANK.get(code[0], 0) <= body.pips:
            continue
        ways = unfilled_places(layouts[code], body.candidates)
        if not ways:
            continue
        view = view or look()
        if view is None:
            return body
        ruled[i] = all(any(blank_at(view, x, y, size) for x, y in places) for places in ways)
    if not ruled.any():
        return body
    return replace(body, evidence=np.where(ruled, RULED_OUT, body.evidence))


#: the 3s, which a two's pair cannot tell from a 2 by its pips alone
_THREES = np.array([code[0] == "3" for code in CARD_CODES])


def rule_out_three_by_empty_middle(
    body: BodyReading, look: Callable[[], PaperView | None],
) -> BodyReading:
    """``body`` with the 3s ruled out of its evidence (``RULED_OUT``) when it
    is a two's pair (``kind == "two"``) and the place between its two pips,
    where a 3 prints its third, is clean paper (:func:`blank_at`).

    A pair cannot tell a 2 from a 3 whose middle pip glare or a finger took
    (``PAIR_VETO`` keeps both); paper plainly there can, and it needs no
    profile: a 3's pips are each other's half turns about the card's centre,
    so its middle pip lies halfway between the end ones in every deck.  On
    development data no 3 read as a pair showed its middle so, and 2s did
    in about two frames of five (docs/vision.md, twenty-fourth pass)."""
    if body.kind != "two" or len(body.candidates) != 2:
        return body
    first, second = body.candidates
    view = look()
    size = float(np.median([first.size, second.size]))
    if view is None or not blank_at(view, (first.x + second.x) / 2,
                                    (first.y + second.y) / 2, size):
        return body
    return replace(body, evidence=np.where(_THREES, RULED_OUT, body.evidence))


#: the number cards that print pips in a side column between its end pips
#: (a 6's, 7's and 8's middle one, a 9's and 10's two), and a 4 none
SIDE_COLUMN_CARDS = frozenset(c for c in CARD_CODES if c[0] in "6789T")
#: where down a side column, between its end pips, those pips lie: a third,
#: a half and two thirds of the way (8-pip and 10-pip layouts alike)
SIDE_PLACES = (1 / 3, 1 / 2, 2 / 3)
#: the 9s and 10s, which print a pip a third and two thirds of the way down
#: each side column in every deck calibrated (33 designs, docs/vision.md,
#: fifty-first pass), where an 8 may print its middle pips instead
NINE_TEN_CARDS = frozenset(c for c in CARD_CODES if c[0] in "9T")
#: a 4's array: its two columns this many pip sizes apart at least, its two
#: rows this many (the fortieth pass's probe, docs/vision.md)
COLUMN_GAP, ROW_GAP = 1.2, 3.0
#: the fusion's reason for a card a 4's clean side columns withhold
SIDE_COLUMNS_WHY = "a 4's clean side columns withhold"


def four_columns(pips: Sequence[Pip]) -> tuple[tuple[Pip, Pip], tuple[Pip, Pip]] | None:
    """The two columns (each top pip first) of four pips laid out as a 4's
    array, two columns of two; None for any other four."""
    if len(pips) != 4:
        return None
    size = float(np.median([p.size for p in pips]))
    by_x = sorted(pips, key=lambda p: p.x)
    left = sorted(by_x[:2], key=lambda p: p.y)
    right = sorted(by_x[2:], key=lambda p: p.y)
    columns_apart = min(p.x for p in right) - max(p.x for p in left) > COLUMN_GAP * size
    rows_apart = min(left[1].y, right[1].y) - max(left[0].y, right[0].y) > ROW_GAP * size
    if not (columns_apart and rows_apart):
        return None
    return (left[0], left[1]), (right[0], right[1])


def withhold_by_clean_side_columns(
    body: BodyReading, look: Callable[[], PaperView | None],
) -> BodyReading:
    """``body`` withholding the 6s to 10s (``SIDE_COLUMN_CARDS``) when it is
    a 4's array (:func:`four_columns`) and, down either side column, the
    places between its pips where those cards print theirs
    (``SIDE_PLACES``) are clean paper (:func:`blank_at`); withholding the 9s
    and 10s (``NINE_TEN_CARDS``) when the place a third or two thirds of the
    way down either column is.

    An array of four rules out only the ranks with fewer pips: glare takes
    pips away, so a 9 may show its four corners alone.  The places between
    them say more, in every deck, since every 6 to 10 prints pips there
    (bellot's 9 too, whose odd pip is off the middle: a clean middle cannot
    rule a 9 out).  On development data (docs/vision.md, fortieth pass's
    probe) 301 of 708 4s' arrays showed one column so, and none of 145 such
    arrays of a 6 to 10.  A 9 and a 10 print a pip at each of those two
    places, so either one clean is enough for them: glare over a third of a
    column no longer keeps a 4 from withholding the 9 its index leans to
    (fifty-first pass).  Withheld, not ruled out: the card stays a rival,
    so a wrong index is left unsure rather than moved to another card."""
    if body.kind != "array":
        return body
    columns = four_columns(body.candidates)
    if columns is None:
        return body
    view = look()
    if view is None:
        return body
    size = float(np.median([p.size for p in body.candidates]))
    withheld: frozenset[str] = frozenset()
    for top, bottom in columns:
        clean = [blank_at(view, top.x + t * (bottom.x - top.x), top.y + t * (bottom.y - top.y),
                          size) for t in SIDE_PLACES]
        if all(clean):
            withheld = SIDE_COLUMN_CARDS
            break
        if clean[0] or clean[-1]:
            withheld = NINE_TEN_CARDS
    if not withheld:
        return body
    return replace(body, withholds=body.withholds | withheld, withheld_why=SIDE_COLUMNS_WHY)
