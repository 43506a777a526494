"""The card's body as a second witness: its pips (overhead camera).

The index corner of a card seen from above is small: on a cheap webcam
mounted high it is 15-30 px tall, blurred and compressed, and the wrong
cards the overhead reader named were of two kinds that the body of the card
settles at a glance: a club read as a spade (or a heart as a diamond), whose
pips in the middle of the card are twice the index's suit sign; and a 9, 7
or 5 read as a court, whose body is an array of pips and not a picture.

So the body is read too, independently of the index:

* the card is warped upright to ``BODY_W`` x ``BODY_H`` (half a card unit
  per pixel), its light flattened as the index's is, and its ink split into
  blobs; the index marks (where the corners were read, and their half-turned
  twins) and whatever touches the card's edge are left out;
* the compact marks are looked at as a layout first: an *array* is
  ``MIN_PIPS`` to 10 marks of one size whose layout is symmetric under a
  half turn about the card's centre, as every number card's is (a 7's odd
  pip aside);
* only a group laid out so (or as an ace's or a two's pips, below) is then
  classified, each mark turned upright (a pip below the card's middle is
  printed upside down) and named by the same suit classifier that reads the
  index's suit sign; an array's marks must all be named the same suit.

From an array the body says: this is a number card of at least that many
pips (not an ace, not a court), of that suit when the pips' ink fits it.
Two more shapes say the suit alone: one big pip in the card's middle that
the classifier is very sure of (an ace), and two pips of one size on the
card's long axis, each the other's half turn (a two).  A court's picture,
one mark across the card's middle that no number card prints, is looked
for before all these and withholds the 2s to 10s (``PICTURE_WITHHOLDS``:
never named, still rivals; with a profile, the deck's own pip cards).
From anything else (a picture that glare broke up, pips lost under glare
or a finger) it says nothing.
An ace's sure pip also vetoes every other rank over the card's frames
(``ACE_VETO``; with a profile the deck's own pip and picture cards instead),
and a layout only a 2 or a 3 prints vetoes the rest (``PAIR_VETO``,
``THREE_VETO``), as an array's middle pip vetoes the cards with an even
number of pips (``MIDDLE_VETO``).
The evidence is deliberately bounded (``BODY_CAP`` nats per frame, against
the fusion's 20-nat margin), so the body can never name a card the index
does not lean to; it can only take a lead away from a card it rules out,
or give a leaning index the last few nats.

Pure: a frame and numbers in, numbers out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import CARD_CODES, SUITS
from vision.detect import Quad
from vision.glyph_model import GlyphModel, features_of
from vision.index import CARD_H, CARD_W, CROP_W, flatten, ink_levels

FloatArray = npt.NDArray[np.float32]

#: the body image: half a card unit per pixel (a pip of a common design is
#: 8-12 px across, twice an index's suit sign at the same scale)
SCALE = 0.5
BODY_W, BODY_H = int(CARD_W * SCALE), int(CARD_H * SCALE)
#: the paper's local brightness, as the index's (``vision.index.flatten``),
#: from a closing wider than the largest pip of a number card
_PAPER_KERNEL = np.asarray(cv2.getStructuringElement(cv2.MORPH_RECT, (35, 35)), np.uint8)
#: a blob this close to the body's edge (px) is table, border or shadow
EDGE_PX = 3
#: the longest side of a mark that may be a pip at all (an ace's big pip),
#: and of one that may be an array's pip (shares of the card's width)
BIG_PIP, ARRAY_PIP = 0.7, 0.4
#: the least side of an ace's lone pip (an array's pips are smaller in the
#: common designs, but not in every one: a lone pip says only its suit)
ACE_PIP = 0.22
#: probability the suit classifier must give a two's pips, and an ace's one
#: pip (an ace's big pip is often ornate: at 0.8 three of 106 aces of the
#: training designs, hard and harsh presets, were given another suit; at 0.93
#: none of 97; twos: none wrong of 205 at 0.8)
SURE_SUIT, SURE_ACE = 0.8, 0.93
#: half the height (share of the card's length) of the band of middle pips
MIDDLE = 0.04
#: pips fewer than this are no array (an ace's one pip, two court symbols)
MIN_PIPS = 3
#: a lone mark this many times the deck's largest number-card pip is no
#: number card of that deck (``rule_out_pip_cards``): the least ratio that
#: keeps out a deck whose aces are its pips' size (``paris``), not tuned
LONE_MARK = 1.5
#: a candidate's area may differ from the group's median by this factor
AREA_SPREAD = 1.9
#: the suit classifier must give the array's suit at least this probability,
#: averaged over the pips, and each pip must rank that suit first
MIN_SUIT_PROB = 0.6
#: a pip and its half-turned twin may lie this far apart (share of the
#: card's width), for the layout to count as symmetric
TWIN_TOLERANCE = 0.09
#: most nats the body may take from a card in one frame
BODY_CAP = 3.0
#: log-likelihood of a card the array rules out (a court, an ace, a rank
#: with fewer pips than were seen, another suit, ink of the other colour)
RULED_OUT = -BODY_CAP
#: what an ace's sure lone pip vetoes without a profile: every card not an ace.
#: On hard overhead frames of the 16 training and validation designs (2,962
#: frames of courts and number cards) no body but an ace's read as one; a deck
#: that prints one big sign on other cards loses those cards to "unsure",
#: never to another card (a veto, not evidence: no lead moves)
ACE_VETO = frozenset(c for c in CARD_CODES if c[0] != "A")
#: what a number card's layout vetoes whatever the deck: glare and a finger
#: take pips away but never move them, and only a 2 and a 3 print their pips
#: on the card's long axis alone.  A two's pair rules out all but the 2s and
#: 3s (a 3 whose middle pip is lost shows a pair); three pips on the axis all
#: but the 3s.  (On the 16 tuning designs' hard frames no other card showed
#: either: docs/vision.md, "Twenty-first pass".)
PAIR_VETO = frozenset(c for c in CARD_CODES if c[0] not in "23")
THREE_VETO = frozenset(c for c in CARD_CODES if c[0] != "3")
#: what a pip in the middle of an array vetoes: the cards with an even number
#: of pips.  A layout that is its own half turn prints a middle pip only with
#: an odd count: that pip is its own twin and the rest pair off.  The even
#: cards' layouts are (a 7's is not, nor some decks' 9s, whose odd pip stands
#: above the middle, as bellot's).  On development data's hard frames
#: none of 1,170 arrays of 4s to 10s showed one (docs/vision.md,
#: twenty-fourth pass).
MIDDLE_VETO = frozenset(c for c in CARD_CODES if c[0] in "2468T")
#: a court's picture: one mark, clear of the card's edge, whose centre lies
#: within ``PICTURE_CENTRE`` of the card's (shares of its width and length)
#: and whose box spans at least ``PICTURE_W`` of the width and ``PICTURE_H``
#: of the length, between the index corners read (``is_picture``).  On
#: development data's hard overhead frames (43 designs and eight outline,
#: jumbo and edge test layouts) none of 10,692 frames of 2s to 10s showed
#: one, nor of 1,209 aces' (the biggest ace's pip: 0.43 x 0.39), and 1,562
#: of 3,429 courts' did (docs/vision.md, thirty-eighth pass).  Since the
#: fiftieth pass a picture need span only 0.4 of the width: on hard frames
#: the thin frame round a court's panel breaks, and what is left whole is
#: the figure (0.41 to 0.43 of the width in the built-in renderer's courts,
#: plastic's frameless king 0.46 on its clean face), so a jack read as a 7
#: showed no picture.  On development data (hard overhead frames, seeds 18
#: and 46 of the judge sets, seed 18 of the training, read held-out and KDE
#: designs) none of 23,619 frames of 2s to 10s showed a mark 0.4 wide and
#: 0.5 long, nor of 2,699 aces' (an ace's pip is too short); courts' showed
#: one on 5,084 frames of 7,796, not 4,695
PICTURE_W, PICTURE_H = 0.4, 0.5
PICTURE_CENTRE = 0.2
#: what a court's picture withholds without a profile: every 2 to 10 (not the
#: aces: a deck's ace of spades may be as big); with a profile, the deck's
#: own pip cards (``rule_out_pip_cards``).  Withheld, not vetoed: a vetoed
#: card is no rival, so a veto may move a wrong index to another wrong card
#: (Homemade Apple's QC named 8C became AC: docs/vision.md, thirty-ninth
#: pass); a withheld card stays a rival and is only never named
PICTURE_WITHHOLDS = frozenset(c for c in CARD_CODES if c[0] in "23456789T")
#: the fusion's reason for a card a court's picture withholds
PICTURE_WITHHOLDS_WHY = "a court's picture withholds"

_BATCH = 12
_CANON = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
_SCALED = np.diag([1 / SCALE, 1 / SCALE, 1.0])
_SUIT_OF = np.array([SUITS.index(c[1]) for c in CARD_CODES])
#: the number of pips each rank prints (courts and the ace: not an array)
PIPS_OF_RANK = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}

#: a box in card units, ``(x0, y0, x1, y1)``
CardBox = tuple[float, float, float, float]
#: which suits ink of this colour may be (``colour -> suit -> fits``)
ColourCheck = Callable[[tuple[float, float, float], str], bool]


@dataclass(frozen=True)
class Pip:
    """One pip candidate: its centre (body px), area (px) and suit probabilities
    (turned upright by where it lies; a middle pip has both ways round)."""

    x: float
    y: float
    area: int
    suit_probs: FloatArray
    #: a middle pip's probabilities turned half a turn (None: not a middle pip)
    turned_probs: FloatArray | None = None
    #: its longer side (px)
    size: int = 0
    #: its ink's colour relative to the paper (B, G, R)
    colour: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def probs_for(self, suit: int) -> FloatArray:
        """The probabilities the right way up for ``suit``: a middle pip's
        orientation is the one that gives ``suit`` more."""
        t = self.turned_probs
        return self.suit_probs if t is None or self.suit_probs[suit] >= t[suit] else t


@dataclass(frozen=True)
class BodyReading:
    """What the body showed: ``pips`` in the array (0: no array), its suit
    (``""``: none), and the evidence per card (zeros: the body says nothing)."""

    pips: int
    suit: str
    evidence: npt.NDArray[np.float64]
    #: every candidate looked at, for benchmarks and tests
    candidates: tuple[Pip, ...] = ()
    #: what was seen: "array" (a number card's pips), "ace" (one big pip),
    #: "two" (a pair of pips on the long axis), "three" (a three's middle
    #: pip and an end one, ``three_by_its_axis``), "" (nothing it can use);
    #: "picture" (a court's picture across the card's middle, ``is_picture``);
    #: "mark" once a deck's profile has ruled by ``lone_mark`` alone
    kind: str = ""
    #: the size (px) of the body's only mark when it lies in the card's middle
    #: (an ace's layout), whether or not its suit is sure; 0 otherwise
    lone_mark: int = 0
    #: cards ruled out for the card's frames' veto (``Reading.ruled_out``) but
    #: not in ``evidence``: without a deck profile, an ace's sure pip vetoes
    #: every other rank (``ACE_VETO``); in both modes a two's pair and three
    #: pips on the long axis veto what cannot print them (``PAIR_VETO``,
    #: ``THREE_VETO``), and an array's middle pip the even cards
    #: (``MIDDLE_VETO``).  A veto moves no lead
    vetoes: frozenset[str] = frozenset()
    #: cards the fusion never names once two frames withhold them, but which
    #: stay rivals of the others (``Reading.withheld``): a court's picture
    #: withholds the 2s to 10s (``PICTURE_WITHHOLDS``), a 4's clean side
    #: columns the 6s to 10s (``vision.empty_places``)
    withholds: frozenset[str] = frozenset()
    #: what withholds them, as the fusion's reason begins when it will not
    #: name one (``PICTURE_WITHHOLDS_WHY``, ``empty_places.SIDE_COLUMNS_WHY``)
    withheld_why: str = ""

    @property
    def says_anything(self) -> bool:
        return bool(self.kind)


SILENT = BodyReading(0, "", np.zeros(len(CARD_CODES)))


def body_transform(quad: Quad) -> npt.NDArray[np.float64]:
    """The map from body px to frame px of the card outlined by ``quad``."""
    h = cv2.getPerspectiveTransform(_CANON, np.asarray(quad, np.float32).reshape(4, 2))
    out: npt.NDArray[np.float64] = h.astype(np.float64) @ _SCALED
    return out


def body_image(frame: npt.NDArray[np.uint8], quad: Quad) -> npt.NDArray[np.uint8]:
    """The card upright, ``BODY_W`` x ``BODY_H``, from a BGR or BGRA frame."""
    m = body_transform(quad)
    out = cv2.warpPerspective(frame, m, (BODY_W, BODY_H),
                              flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, np.uint8)


def index_box_in_card(box: tuple[int, int, int, int], corner: int) -> CardBox:
    """An index box read in corner patch ``corner`` (``vision.index``), in card
    units: patch 0 is the card's top-left, 1 the bottom-right turned, 2 the
    top-right, 3 the bottom-left turned."""
    x0, y0, x1, y1 = (float(v) for v in box)
    if corner >= 2:
        x0, x1 = x0 + CARD_W - CROP_W, x1 + CARD_W - CROP_W
    if corner in (1, 3):
        x0, y0, x1, y1 = CARD_W - x1, CARD_H - y1, CARD_W - x0, CARD_H - y0
    return x0, y0, x1, y1


def _half_turn(b: CardBox) -> CardBox:
    return CARD_W - b[2], CARD_H - b[3], CARD_W - b[0], CARD_H - b[1]


#: where an index (or a corner's suit sign, as ``tango`` prints at its top
#: right) may be, left out whatever was read: each corner's first 22 % of the
#: width and 35 % of the length (every design's index fits; no number card's
#: pip sits there)
_DEFAULT_INDEX: tuple[CardBox, ...] = (
    (0, 0, 0.22 * CARD_W, 0.35 * CARD_H),
    (0.78 * CARD_W, 0, CARD_W, 0.35 * CARD_H),
)


def _excluded(index_boxes: Sequence[CardBox]) -> list[CardBox]:
    """Index boxes, grown by 4 units, with their half-turned twins (a card
    prints its index at both ends, so one read corner tells where the other is),
    and the four corners' default zones."""
    boxes = [*index_boxes, *_DEFAULT_INDEX]
    grown = [(b[0] - 4, b[1] - 4, b[2] + 4, b[3] + 4) for b in boxes]
    return grown + [_half_turn(b) for b in grown]


@dataclass(frozen=True)
class Blob:
    """A mark of the body that might be a pip, before it is classified."""

    x: float
    y: float
    area: int
    size: int
    #: its own ink (0..1), cropped to its box, as printed (not turned)
    ink: FloatArray
    #: its ink's colour relative to the paper (B, G, R)
    colour: tuple[float, float, float]

    @property
    def middle(self) -> bool:
        return abs(self.y - BODY_H / 2) <= MIDDLE * BODY_H


@dataclass(frozen=True)
class BodyMarks:
    """The body's ink as ``read_body`` looks at it: the marks that might be
    pips, and whether one mark is a court's picture."""

    blobs: list[Blob]
    picture: bool


def is_picture(x: int, y: int, w: int, h: int, cx: float, cy: float,
               index_centres: Sequence[tuple[float, float]]) -> bool:
    """Whether a mark (box and centre, body px) is a court's picture: across
    the card's middle (``PICTURE_W``, ``PICTURE_H``, ``PICTURE_CENTRE``),
    clear of its edge, where a badly fitted outline shows the table, and
    between the index corners read (``index_centres``, body px), not round
    them: a deck may print a border line round every face, and that line
    is one mark across the middle too.  With no index read, no picture."""
    clear = (x >= EDGE_PX and y >= EDGE_PX and x + w <= BODY_W - EDGE_PX
             and y + h <= BODY_H - EDGE_PX)
    round_an_index = any(x <= ix <= x + w and y <= iy <= y + h for ix, iy in index_centres)
    return (clear and bool(index_centres) and not round_an_index
            and w >= PICTURE_W * BODY_W and h >= PICTURE_H * BODY_H
            and abs(cx / BODY_W - 0.5) < PICTURE_CENTRE
            and abs(cy / BODY_H - 0.5) < PICTURE_CENTRE)


def index_centres(index_boxes: Sequence[CardBox]) -> list[tuple[float, float]]:
    """The centres (body px) of the index boxes read and of their half-turned
    twins: where the card prints its indices."""
    boxes = [*index_boxes, *(_half_turn(b) for b in index_boxes)]
    return [((b[0] + b[2]) / 2 * SCALE, (b[1] + b[3]) / 2 * SCALE) for b in boxes]


def blobs_of(body: npt.NDArray[np.uint8], index_boxes: Sequence[CardBox]) -> list[Blob] | None:
    """The body's marks that might be pips (compact, not thin, off the edge and
    the index corners); None when the body shows no clear ink."""
    marks = body_marks(body, index_boxes)
    return None if marks is None else marks.blobs


def body_marks(body: npt.NDArray[np.uint8], index_boxes: Sequence[CardBox]) -> BodyMarks | None:
    """The body's marks that might be pips (``blobs_of``) and whether it shows
    a court's picture (``is_picture``); None when it shows no clear ink."""
    b, g, r = cv2.split(body)[:3]
    flat = flatten(np.asarray(cv2.min(cv2.min(b, g), r), np.uint8), _PAPER_KERNEL)
    levels = ink_levels(flat, 0.90)
    if levels is None:
        return None
    paper, dark, thr = levels
    contrast = paper - dark
    mask = np.asarray(flat < thr, np.uint8)
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(
        mask, connectivity=8, ltype=cv2.CV_32S
    )
    skip = [tuple(v * SCALE for v in box) for box in _excluded(index_boxes)]
    indices = index_centres(index_boxes)
    paper_bgr: tuple[float, ...] | None = None
    out: list[Blob] = []
    picture = False
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < 12 or w < 4 or h < 4:
            continue
        cx, cy = (float(v) for v in centroids[i])
        picture = picture or is_picture(x, y, w, h, cx, cy, indices)
        if x < EDGE_PX or y < EDGE_PX or x + w > BODY_W - EDGE_PX or y + h > BODY_H - EDGE_PX:
            continue
        if max(w, h) > 2.2 * min(w, h) or area < 0.35 * w * h:
            continue  # a line, a frame, a thin ornament
        if max(w, h) > BIG_PIP * BODY_W:
            continue  # court art
        if any(s[0] <= cx <= s[2] and s[1] <= cy <= s[3] for s in skip):
            continue
        if paper_bgr is None:
            paper_bgr = cv2.mean(body[:, :, :3], mask=np.asarray(flat >= paper, np.uint8))[:3]
        own = labels[y:y + h, x:x + w] == i
        ink = np.clip((paper - flat[y:y + h, x:x + w].astype(np.float32)) / max(contrast, 1.0),
                      0.0, 1.0)
        solid = own & (ink > 0.6)
        ink_bgr = cv2.mean(body[y:y + h, x:x + w, :3],
                           mask=(solid if solid.any() else own).astype(np.uint8))[:3]
        colour = (ink_bgr[0] / max(paper_bgr[0], 1.0), ink_bgr[1] / max(paper_bgr[1], 1.0),
                  ink_bgr[2] / max(paper_bgr[2], 1.0))
        out.append(Blob(cx, cy, area, max(w, h),
                        np.where(own, ink, 0.0).astype(np.float32), colour))
    return BodyMarks(out, picture)


def classify(blobs: Sequence[Blob], model: GlyphModel) -> list[Pip]:
    """Name each blob's suit with the index's suit classifier, turned upright
    by where it lies: a pip is printed upright above the card's middle and
    upside down below it; on the middle line it is upright from whichever end
    is the card's top, which the outline cannot tell, so it is read both ways."""
    inks: list[FloatArray] = []
    for bl in blobs:
        turned = np.ascontiguousarray(bl.ink[::-1, ::-1])
        if bl.middle:
            inks += [bl.ink, turned]
        else:
            inks.append(bl.ink if bl.y < BODY_H / 2 else turned)
    # The gradient histograms of at most ``_BATCH`` glyphs go through one
    # OpenCV call (its blur takes at most 128 channels, 9 per glyph); the
    # perceptron then reads one glyph at a time, as the index's glyphs are
    # read: a batch is a matrix product that BLAS may spread over threads,
    # which on a busy table computer cost more than it saved (1.5 ms a call).
    feats = np.concatenate([features_of(inks[k:k + _BATCH])
                            for k in range(0, len(inks), _BATCH)])
    probs = iter([model.suit.probs(row) for row in feats])
    out = []
    for bl in blobs:
        first = next(probs)
        turned_probs = next(probs) if bl.middle else None
        out.append(Pip(bl.x, bl.y, bl.area, first, turned_probs, bl.size, bl.colour))
    return out


def pip_candidates(
    body: npt.NDArray[np.uint8], index_boxes: Sequence[CardBox], model: GlyphModel
) -> list[Pip] | None:
    """Every mark of the body that might be a pip, classified (for benchmarks
    and tests; :func:`read_body` classifies only what it needs)."""
    blobs = blobs_of(body, index_boxes)
    return None if blobs is None else classify(blobs, model) if blobs else []


class _Placed(Protocol):
    """A mark with a place and a size: a :class:`Blob` or a :class:`Pip`."""

    @property
    def x(self) -> float: ...

    @property
    def y(self) -> float: ...

    @property
    def area(self) -> int: ...

    @property
    def size(self) -> int: ...


_P = TypeVar("_P", bound=_Placed)


def _symmetric(pips: Sequence[_Placed]) -> bool:
    """Whether the pips' layout is its own half turn about the card's centre:
    every pip but at most one (a 7's odd pip) has a twin there (a centre pip
    is its own twin)."""
    tol = TWIN_TOLERANCE * BODY_W
    alone = 0
    for p in pips:
        tx, ty = BODY_W - p.x, BODY_H - p.y
        if not any(abs(q.x - tx) <= tol and abs(q.y - ty) <= tol for q in pips):
            alone += 1
    return alone <= (1 if len(pips) % 2 else 0)


def _same_size(items: Sequence[_P]) -> list[_P]:
    """The marks of the group's own size (within ``AREA_SPREAD`` of the median),
    among those small enough to be an array's pips."""
    small = [p for p in items if p.size <= ARRAY_PIP * BODY_W]
    if len(small) < MIN_PIPS:
        return []
    median = float(np.median([p.area for p in small]))
    return [p for p in small if median / AREA_SPREAD <= p.area <= median * AREA_SPREAD]


def _twinned(pips: Sequence[_P]) -> list[_P]:
    """The pips that have their half-turned twin among ``pips`` (a centre pip
    is its own): what stays of an array whose other pips glare paled or a
    finger covered.  A pip is lost with its twin standing, never moved."""
    tol = TWIN_TOLERANCE * BODY_W
    return [p for p in pips
            if any(abs(q.x - (BODY_W - p.x)) <= tol and abs(q.y - (BODY_H - p.y)) <= tol
                   for q in pips)]


def array_shape(items: Sequence[_P]) -> list[_P]:
    """The marks laid out as a number card's pips: at least ``MIN_PIPS`` and at
    most 10 of one size, symmetric under a half turn; [] if none.  Geometry
    alone, so the classifier reads only a group that could be an array.  A
    group that is not symmetric keeps its twinned pips (``_twinned``): the
    array then counts fewer pips than the card prints, which is all an
    array claims (at least that many)."""
    group = _same_size(items)
    if len(group) > 10:
        return []
    if not _symmetric(group):
        group = _twinned(group)
    return group if len(group) >= MIN_PIPS else []


def pip_array(pips: Sequence[Pip], classes: str) -> tuple[list[Pip], str] | None:
    """The array among the candidates: the largest group of one size that the
    classifier calls one suit, symmetric under a half turn; None if none."""
    same_size = array_shape(pips)
    if not same_size:
        return None
    # the suit from the pips whose orientation the layout fixes; a middle pip
    # is then read the way round that suit's sign would be printed
    fixed = [p for p in same_size if p.turned_probs is None] or same_size
    firsts = [classes[int(np.argmax(p.suit_probs))] for p in fixed]
    suit = max(set(firsts), key=firsts.count)
    if suit not in SUITS:
        return None
    k = classes.index(suit)
    probs = [p.probs_for(k) for p in same_size]
    if any(int(np.argmax(q)) != k for q in probs):
        return None  # not all one suit: art, or a pip the classifier doubts
    if float(np.mean([q[k] for q in probs])) < MIN_SUIT_PROB:
        return None
    return list(same_size), suit


def _mean_colour(pips: Sequence[Pip]) -> tuple[float, float, float]:
    b, g, r = (float(np.mean([p.colour[c] for p in pips])) for c in range(3))
    return b, g, r


def _sure_suits(p: Pip, classes: str, sure: float = SURE_SUIT) -> set[str]:
    """The suits the classifier gives ``p`` at least ``sure``, either way up
    when its orientation is open."""
    out = set()
    for probs in (p.suit_probs, p.turned_probs):
        if probs is None:
            continue
        k = int(np.argmax(probs))
        if classes[k] in SUITS and float(probs[k]) >= sure:
            out.add(classes[k])
    return out


def lone_pip(pips: Sequence[Pip], classes: str, colour_fits: ColourCheck) -> str | None:
    """An ace's suit: the one big mark, in the middle of the card, that the
    classifier is sure of (either way up, since the ace's top end is unknown)
    and whose ink fits it; None if the body is not that."""
    big = [p for p in pips if p.size >= ACE_PIP * BODY_W]
    if len(big) != 1:
        return None
    p = big[0]
    if not in_the_middle(p):
        return None
    suits = {s for s in _sure_suits(p, classes, SURE_ACE) if colour_fits(p.colour, s)}
    return suits.pop() if len(suits) == 1 else None


def in_the_middle(mark: _Placed) -> bool:
    """Whether a mark lies where an ace's pip does: at the card's centre."""
    return on_the_axis(mark) and abs(mark.y - BODY_H / 2) <= 0.08 * BODY_H


def on_the_axis(mark: _Placed) -> bool:
    """Whether a mark lies on the card's long axis, where a 2's and a 3's
    pips are (and no other number card's only pips)."""
    return abs(mark.x - BODY_W / 2) <= 0.08 * BODY_W


def pip_pair(pips: Sequence[Pip], classes: str, colour_fits: ColourCheck) -> str | None:
    """A two's suit: exactly two marks of one size, each the other's half
    turn, on the card's long axis, both sure of the same suit in ink that
    fits it; None if the body is not that."""
    if len(pips) != 2:
        return None
    a, b = pips
    if not 1 / AREA_SPREAD <= a.area / max(b.area, 1) <= AREA_SPREAD:
        return None
    if not all(map(on_the_axis, pips)) or not _symmetric(pips):
        return None
    suits = _sure_suits(a, classes) & _sure_suits(b, classes)
    suits = {s for s in suits if colour_fits(_mean_colour(pips), s)}
    return suits.pop() if len(suits) == 1 else None


#: a three's end pip lies at least this share of the card's length from its
#: middle one (a 3's top pip stands at 0.15-0.2 of the length, 0.3-0.35 from
#: the middle; a 7's, an 8's and a 10's axis pips, nearer, are not the pair)
THREE_REACH = 0.25


def three_by_its_axis(
    blobs: Sequence[Blob], pips: Sequence[Pip], classes: str, colour_fits: ColourCheck,
) -> str | None:
    """A three's suit from two of its pips: every mark on the card's long
    axis, two sure pips of one suit and size, one in the middle and one
    ``THREE_REACH`` from it.  Only a 3 prints so (a 2 has no middle pip, a
    5's and a 9's middle pip stands alone on the axis); glare that pales its
    third pip leaves it so.  None if the body is not that."""
    if not 2 <= len(blobs) <= 3 or not all(map(on_the_axis, blobs)):
        return None
    middle = [p for b, p in zip(blobs, pips, strict=True) if b.middle]
    ends = [p for b, p in zip(blobs, pips, strict=True)
            if abs(b.y - BODY_H / 2) >= THREE_REACH * BODY_H]
    for m in middle:
        for e in ends:
            if not 1 / AREA_SPREAD <= m.area / max(e.area, 1) <= AREA_SPREAD:
                continue
            suits = _sure_suits(m, classes) & _sure_suits(e, classes)
            suits = {s for s in suits if colour_fits(_mean_colour((m, e)), s)}
            if len(suits) == 1:
                return suits.pop()
    return None


def read_body(
    frame: npt.NDArray[np.uint8], quad: Quad, index_boxes: Sequence[CardBox],
    model: GlyphModel, colour_fits: ColourCheck,
) -> BodyReading:
    """What the card's body says about which card it is (see the module's text).
    The marks' layout is looked at first, and only a group laid out as an
    array, an ace or a two is classified: a court's picture usually costs
    no classification at all."""
    marks = body_marks(body_image(frame, quad), index_boxes)
    if marks is None:
        return SILENT
    if marks.picture:
        return replace(SILENT, kind="picture", withholds=PICTURE_WITHHOLDS,
                       withheld_why=PICTURE_WITHHOLDS_WHY)
    blobs = marks.blobs
    if not blobs:
        return SILENT
    classes = model.suit.classes
    lone = blobs[0].size if len(blobs) == 1 and in_the_middle(blobs[0]) else 0
    group = array_shape(blobs)
    if group:
        array = pip_array(classify(group, model), classes)
        if array is not None:
            members, suit = array
            fits = colour_fits(_mean_colour(members), suit)
            three = len(members) == 3 and all(map(on_the_axis, members))
            middle = any(map(in_the_middle, members))
            vetoes = (THREE_VETO if three else frozenset()) | (
                MIDDLE_VETO if middle else frozenset())
            return BodyReading(len(members), suit, array_evidence(len(members), suit, fits),
                               tuple(members), "array", vetoes=vetoes)
    big = [b for b in blobs if b.size >= ACE_PIP * BODY_W]
    if len(big) == 1:
        pips = classify(big, model)
        ace = lone_pip(pips, classes, colour_fits)
        if ace is not None:
            return BodyReading(0, ace, suit_evidence(ace), tuple(pips), "ace", lone,
                               vetoes=ACE_VETO)
    if len(blobs) == 2:
        pips = classify(blobs, model)
        two = pip_pair(pips, classes, colour_fits)
        if two is not None:
            return BodyReading(0, two, suit_evidence(two), tuple(pips), "two",
                               vetoes=PAIR_VETO)
    if 2 <= len(blobs) <= 3 and all(map(on_the_axis, blobs)):
        pips = classify(blobs, model)
        axis_suit = three_by_its_axis(blobs, pips, classes, colour_fits)
        if axis_suit is not None:
            return BodyReading(0, axis_suit, suit_evidence(axis_suit), tuple(pips), "three",
                               vetoes=THREE_VETO)
    return replace(SILENT, lone_mark=lone) if lone else SILENT


def pip_card(code: str, body: BodyReading) -> bool:
    """Whether ``body``, read off the clean face of ``code`` at calibration,
    shows the number card's own layout: an array of at least ``MIN_PIPS`` and
    at most its rank's pips on a 3 to 10, the pair of a two on a 2.  Anything
    else (a deck printing one big sign on each card, a face whose pips the
    reader missed) teaches nothing, so no card is ruled out by it."""
    pips = PIPS_OF_RANK.get(code[0], 0)
    if body.kind == "array":
        return MIN_PIPS <= body.pips <= pips
    return body.kind == "two" and pips == 2


def picture_card(code: str, body: BodyReading) -> bool:
    """Whether ``body``, read off the clean face of court ``code`` at
    calibration, is a picture: no ace's pip, no lone mark, no number card's
    layout.  A court whose clean face shows one big mark (a design with a
    big suit sign on its courts) is not one, so no ace's pip rules it out."""
    return code[0] in "JQK" and body.kind in ("", "picture") and not body.lone_mark


#: how far (a share of the body's width, along each axis) a pip seen may lie
#: from its place in a card's calibrated layout (``holds_layout``): the
#: tolerance the half-turn symmetry of an array is judged by
LAYOUT_TOLERANCE = TWIN_TOLERANCE


def layout_of(body: BodyReading) -> tuple[tuple[float, float], ...]:
    """The centres of an array's pips as fractions of the card's width and
    height (what a profile keeps of a number card's clean face); () when
    ``body`` shows no array."""
    if body.kind != "array":
        return ()
    return tuple((p.x / BODY_W, p.y / BODY_H) for p in body.candidates)


def holds_layout(layout: Sequence[tuple[float, float]], pips: Sequence[_Placed]) -> bool:
    """Whether every pip seen lies where ``layout`` (a card's clean pips, as
    :func:`layout_of` gives them) has one, either way up: glare and fingers
    take pips away but never add one where the card prints none."""
    return bool(unfilled_places(layout, pips))


def unfilled_places(
    layout: Sequence[tuple[float, float]], pips: Sequence[_Placed]
) -> list[list[tuple[float, float]]]:
    """For each way up in which ``layout`` holds every pip seen, the places
    (body px, as the frame shows the body) where it prints a pip none of
    ``pips`` lies on; [] when it holds them neither way up."""
    tol = LAYOUT_TOLERANCE * BODY_W
    places = [(x * BODY_W, y * BODY_H) for x, y in layout]
    out = []
    for turned in (False, True):
        seen = [(BODY_W - p.x, BODY_H - p.y) if turned else (p.x, p.y) for p in pips]
        if not all(any(abs(x - a) <= tol and abs(y - b) <= tol for a, b in places)
                   for x, y in seen):
            continue
        empty = [(a, b) for a, b in places
                 if not any(abs(x - a) <= tol and abs(y - b) <= tol for x, y in seen)]
        out.append([(BODY_W - a, BODY_H - b) if turned else (a, b) for a, b in empty])
    return out


def rule_out_by_layout(
    body: BodyReading, layouts: Mapping[str, Sequence[tuple[float, float]]]
) -> BodyReading:
    """``body`` with every number card of the deck whose calibrated layout
    (``layouts``) cannot hold the array seen ruled out of its evidence
    (``RULED_OUT``, as an array rules out the ranks with fewer pips).  A
    5's middle pip is in no 6's or 8's layout, a 6's middle row in no 9's or
    10's: the ranks an array's count leaves open, its places close."""
    if body.kind != "array" or not layouts:
        return body
    ruled = np.array([c in layouts and not holds_layout(layouts[c], body.candidates)
                      for c in CARD_CODES])
    if not ruled.any():
        return body
    return replace(body, evidence=np.where(ruled, RULED_OUT, body.evidence))


def rule_out_pip_cards(
    body: BodyReading, pip_cards: frozenset[str], pip_size: int = 0,
    picture_cards: frozenset[str] = frozenset(),
) -> BodyReading:
    """``body`` with the deck's ``pip_cards`` ruled out when it shows an ace's
    lone big pip, or (``pip_size``: the largest pip the deck's number cards
    showed at calibration) a single mark in the card's middle ``LONE_MARK``
    times that size, whatever its suit.  Blur and glare take marks away and
    never turn a clean array of small pips into one big mark in the card's
    middle, so a deck whose clean 6 is an array does not show its 6 so; only
    its calibration can know that (a generic reader would wrongly rule out the
    cards of decks that print one big sign on every card).  An ace's pip,
    sure of its suit, also rules out the deck's ``picture_cards``; the
    suit-blind lone mark only vetoes them (``BodyReading.vetoes``: glare may
    wash a picture out to one blob, in 2 of 608 frames of the tuning decks'
    pictures, so it moves no evidence and needs two frames)."""
    # (the deck's own calibration replaces the generic ``ACE_VETO``: it knows
    # which of its cards print pips and pictures; a layout's veto stays)
    if body.kind == "picture":
        # (a deck that prints art on a number card showed it no array at
        # calibration: its pip cards are the ones a picture withholds)
        return replace(body, withholds=frozenset(pip_cards))
    body = replace(body, vetoes=frozenset()) if body.kind == "ace" and body.vetoes else body
    lone = pip_size > 0 and body.lone_mark >= LONE_MARK * pip_size
    ruled_out = pip_cards | picture_cards if body.kind == "ace" else pip_cards if lone else None
    if not ruled_out:
        return body
    ruled = np.array([c in ruled_out for c in CARD_CODES])
    # (a suit-blind lone mark only vetoes the pictures: glare that washes a
    # picture out to one blob is rare, twice rarer, and costs an unsure card)
    pictures = picture_cards if lone and body.kind != "ace" else frozenset()
    return replace(body, evidence=np.where(ruled, RULED_OUT, body.evidence),
                   kind=body.kind or "mark", vetoes=body.vetoes | pictures)


def suit_evidence(suit: str) -> npt.NDArray[np.float64]:
    """Log-likelihood per card of a body that shows only its suit."""
    out = np.full(len(CARD_CODES), RULED_OUT)
    own = SUITS.index(suit)
    out[np.equal(_SUIT_OF, own)] = 0.0
    return out


def array_evidence(pips: int, suit: str, colour_fits: bool) -> npt.NDArray[np.float64]:
    """Log-likelihood per card of an array of ``pips`` pips of ``suit``: cards
    it rules out (a court, an ace, fewer pips, another suit) get ``RULED_OUT``,
    the rest nothing.  Ink that does not fit the suit's colour makes the array
    say nothing about the suit (glare, a tinted light)."""
    out = np.zeros(len(CARD_CODES))
    for i, code in enumerate(CARD_CODES):
        needed = PIPS_OF_RANK.get(code[0], 0)
        if needed < pips or (colour_fits and code[1] != suit):
            out[i] = RULED_OUT
    return out
