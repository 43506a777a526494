"""The in-shoe reader: names the card sliding face down over the shoe's window
from the frames of its pass (``docs/vision.md``, "In-shoe reader").

One frame (:meth:`InShoeReader.read`): find the card's visible short edge and
its side edges (:mod:`vision.in_shoe_pose`); with that end as the face's top,
cut the index corner at its left (and, when that one shows no index, the one
at its right: a deck with a single top-right index) into the same upright
patch the overhead reader cuts, paint what lies outside the window as paper,
and read it with the overhead reader's own corner reading, classifier, colour
check and 6-or-9 check (``Recognizer.decide``).  A frame answers a card only
when that frame alone is sure; a frame of the card's middle, of the empty
window, or of an index corner only partly in view (or whose glyphs run into
the part of the patch outside the window: a cut glyph) answers None with a
reason.

A pass (:meth:`InShoeReader.read_pass`, :class:`PassFusion`): every frame's
per-card evidence (both corners of the pass, leading and trailing, over every
frame that showed one) is summed, and the card is named when it leads the
runner-up by ``PASS_MARGIN`` nats (chosen on validation designs only:
``benchmarks/in_shoe_bench.py --sweep``) and at least two frames put it first
on their own (one frame's word is not enough), and some frame's recogniser
chose it when another frame's recogniser named a card on its own (the sum
may not overrule a frame's own word with none of its own: ``READ_ANOTHER``).
When no frame was sure of the
card on its own (a pass of weak frames only), the frames of one index end
count as correlated (``vision.evidence.tempered``): the card must lead by
``PASS_MARGIN`` in that tempered evidence too, over the cards still possible
(a card whose rank the pips in the band or the card's middle rule out is no
rival there: ``vision.in_shoe_rivals``), or the pass is unsure ("only weak
frames: ..."), unless ``UNANIMOUS_FRAMES`` or more frames' recognisers chose
it and none chose another, the body allows it, and both index ends put it
first.

Example::

    from vision.in_shoe import InShoeReader
    reader = InShoeReader()                    # or InShoeReader("deck.npz")
    reader.read(frame).card                    # one frame: "QH" only when sure
    reading = reader.read_pass(frames)         # PassReading(card, confidence, ...)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import CARD_CODES
from vision.evidence import (
    FRAME_CORRELATION,
    TEMPLATES_READ_ANOTHER,
    VETO_FRAMES,
    FrameFusion,
    FusedDecision,
    margin,
    over_the_possible,
    reason_code,
    tempered,
    templates_read_instead,
    top_guesses,
)
from vision.geometry import IN_SHOE, InShoeGeometry
from vision.in_shoe_body import (
    BLANK,
    COURTS,
    LONE,
    LONE_PIP_RULES_OUT,
    NEITHER,
    SIDE_PIPS_WHY,
    SIDE_PIPS_WITHHOLD,
    SIDES,
    band_is_blank,
    band_kind,
    band_layout,
)
from vision.in_shoe_middle import AXIS_WHY, AXIS_WITHHOLD, look_at_middle
from vision.in_shoe_pose import EMPTY, MIDDLE, Pose, find_pose
from vision.in_shoe_rivals import BodySeen, central_looks, ranks_allowed, ruled_out_by_body
from vision.index import (
    CARD_H,
    CARD_W,
    CROP_H,
    CROP_W,
    IndexGlyphs,
    read_corner,
    runs_outside,
)
from vision.profile import DeckProfile
from vision.recognizer import TURNS_INTO_ANOTHER, Reading, Recognizer

#: lead in nats the pass's summed evidence needs over the runner-up.  Chosen
#: on validation designs only (builtin:modern, builtin:duplex, tango, plastic,
#: anglo; normal and hard shoes; 240 passes; ``benchmarks/in_shoe_bench.py
#: --sweep``): no pass was wrong at any margin of 4, 6, 8, 12, 16, 20, and
#: the passes left unsure were the same from 4 to 8 (2.1 %), 4.6 % at 20;
#: the largest margin that cost nothing was taken.
PASS_MARGIN = 8.0
#: frames showing an index a pass needs before it is named; and frames whose
#: own evidence puts the named card first (witnesses): the sum may not rest on
#: one frame, since one frame can be wrong (the table, stopping as soon as the
#: card is decided, named an 8D a 3D on a frame that read 3D and a second
#: that leaned, weakly, to 9D)
PASS_MIN_FRAMES = 2
#: at most this many frames are read for one pass (a slow slide at 300 mm/s
#: and 120 fps is 55 frames)
PASS_MAX_FRAMES = 80
#: empty frames after the card that end a pass
PASS_TAIL = 2

#: lead in nats one frame's own evidence needs for that frame alone to name
#: its card (``vision read`` of one in-shoe frame).  Chosen on the same
#: validation passes (7841 frames): 7.0 named one frame wrongly (KC as KS),
#: 7.25 none (6.6 % of frames named alone); one step of that grid is kept as a
#: safety margin: 7.5 names 3.0 % of all frames alone, none wrongly.
FRAME_MARGIN = 7.5

PARTIAL = "an index corner only partly in view"
#: a frame whose index names a court over a blank band (``vision.in_shoe_body``)
NO_PICTURE = "no court picture where the index says a court"
#: a frame whose index names a card that a lone pip in the band rules out
LONE_PIP = "a lone pip below the index: a 2 or a 3, not what the index says"
#: a frame whose index names a court over a band showing a number card's top
#: row of pips (``vision.in_shoe_body``)
SIDE_PIPS = "pips below the index where a court prints its picture"
ONE_FRAME = "not sure enough from one frame"
#: a frame whose index names an ace, a 2 or a 3 over a band showing a 4's to
#: a 10's top row (``withhold_by_side_pips``)
SIDE_PIPS_WITHHELD = "the side pips of a 4 to a 10 below the index, not an ace, a 2 or a 3"
#: a pass whose frames the recogniser mostly refused, summed to a card whose
#: kind the band never showed (``vision.in_shoe_body.band_kind``): frames that
#: each lean a little are believed only with the body's word (a calligraphic J
#: whose frames sum to a 7 over a band that never shows a 7's side pips;
#: docs/vision.md, thirty-fourth and thirty-fifth passes)
BODY_UNHEARD = "few frames named the card and the band did not show it"
#: "few": no more than this share of the frames that read an index chose the
#: card (choosing data: the wrong passes' shares at most 0.25, the right
#: passes' with a silent band at least 0.29; docs/vision.md, thirty-fifth pass)
NAMED_SHARE = 0.25
#: a pass named a 4 to a 10 whose band showed a court's picture on at least
#: ``PICTURE_SHARE`` of the frames that saw it (and ``PICTURE_FRAMES``), and
#: never that card's top row: an unknown script "J" that every frame reads as
#: a "7" (development data: no 4's to 10's band frame of 14,173 showed one
#: mark across it; docs/vision.md, thirty-seventh pass)
BODY_PICTURE = "the band showed a court's picture, not the card's top row"
PICTURE_SHARE = 0.5
PICTURE_FRAMES = 2
#: a pass whose frames' summed evidence leads a card no frame's recogniser
#: chose, while a frame's recogniser named another card on its own.  Under a
#: profile a corner's evidence is the deck's own output layers' and its card
#: the templates' with the shipped classifier's word; on a handwritten 9 the
#: layers lean to a 7 on every frame while both other witnesses name the 9,
#: and the sum named a 7 (docs/vision.md, forty-sixth pass)
READ_ANOTHER = "the frames read another card on their own"
#: frames whose recognisers chose a weak pass's card, with none choosing any
#: other, that name it once it leads the tempered sum at all, when the body
#: allows it and both index ends put it first: frames alike in their own
#: word, not only in a sum of leanings (development data, the weak passes
#: of four seeds: 896 named, none wrong; two frames alike were once a wrong
#: glyph's; docs/vision.md, forty-seventh and forty-eighth passes)
UNANIMOUS_FRAMES = 3
#: the reasons of a frame whose recogniser chose a card it did not name: the
#: card counts as that frame's choice (``PassFusion.named``)
_CHOSE_BUT_UNSURE = frozenset({ONE_FRAME, SIDE_PIPS_WITHHELD})
#: frames of the card's middle a pass needs before a clean axis withholds
#: (``PassFusion._axis_clean_withholds``): one frame's analysis can be wrong
AXIS_FRAMES = 2
#: how the reason names each kind of card
_KIND_WORDS = {SIDES: "the side pips of a 4 to a 10", LONE: "the lone pip of a 2 or a 3",
               BLANK: "the blank paper of an ace", NEITHER: "the picture of a court"}
#: an index must be in view this far (mm) from the card's short edge
_ZONE_MM = 20.5
#: and across, from this far to this far in from the card's long edge (mm)
_ACROSS_MM = (3.0, 13.0)

#: the patch's own corners (for a test whether all of it is in the window)
_PATCH_CORNERS = np.array([[[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]]], np.float64)
_CANON = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
#: the patch at the visible end's right corner instead of its left
_TO_RIGHT = np.array([[1, 0, CARD_W - CROP_W], [0, 1, 0], [0, 0, 1]], np.float64)


@dataclass(frozen=True)
class PassReading:
    """One card's pass, fused: ``card is None`` means unsure."""

    card: str | None
    confidence: float
    #: frames given, and frames whose index was read (evidence added)
    frames: int
    used: int
    ms: float
    #: why unsure, in words (empty when named)
    reason: str = ""
    guesses: tuple[tuple[str, float], ...] = ()

    @property
    def code(self) -> str:
        return "" if self.card is not None else reason_code(self.reason)


class InShoeReader:
    """Reads frames of the in-shoe camera (see the module).  ``profile``: as
    for :class:`~vision.recognizer.Recognizer` (None: the generic classifier)."""

    #: the table reads a whole pass per card-out with this reader
    reads_passes = True

    def __init__(
        self,
        profile: Recognizer | DeckProfile | str | Path | None = None,
        *,
        geometry: InShoeGeometry = IN_SHOE,
        margin: float = PASS_MARGIN,
        frame_margin: float = FRAME_MARGIN,
        correlation: float = FRAME_CORRELATION,
    ) -> None:
        self.recognizer = profile if isinstance(profile, Recognizer) else Recognizer(profile)
        self.geometry = geometry
        self.margin = margin
        self.frame_margin = frame_margin
        #: of a pass of weak frames only: how much the frames of one index end
        #: share their evidence (``vision.evidence.tempered``; 0: independent)
        self.correlation = correlation

    @property
    def profile(self) -> DeckProfile | None:
        return self.recognizer.profile

    # -- one frame -----------------------------------------------------------------
    def read(self, frame: npt.NDArray[np.uint8], *, look_at: object = None) -> Reading:
        """One frame: a card only when this frame alone is sure of it.
        ``look_at`` is accepted for the table's reader protocol and ignored."""
        start = time.perf_counter()
        reading = self._read(frame)
        return replace(reading, ms=(time.perf_counter() - start) * 1000)

    def _read(self, frame: npt.NDArray[np.uint8]) -> Reading:
        return withhold_by_side_pips(self._read_index_and_band(frame))

    def _read_index_and_band(self, frame: npt.NDArray[np.uint8]) -> Reading:
        if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
            return Reading(None, 0.0, "not a colour image")
        pose = find_pose(frame, self.geometry)
        if not isinstance(pose, Pose):
            if pose.reason == MIDDLE:
                look = look_at_middle(frame, self._window(frame))
                if look is None:
                    return Reading(None, 0.0, MIDDLE)
                return Reading(None, 0.0, MIDDLE, axis_ink=look.axis_ink,
                               centre_side_ink=look.centre_side_ink)
            return Reading(None, 0.0, pose.reason)
        window = self._window(frame)
        band = band_is_blank(frame, pose.quad, window)
        seen = band_layout(frame, pose.quad, window) if band is False else None
        pips, picture = (None, False) if seen is None else seen
        lone_pip = pips == LONE
        vetoed = (LONE_PIP_RULES_OUT if lone_pip else COURTS if band is True or pips == SIDES
                  else frozenset())
        layout = None if band is None else BLANK if band else pips
        try:
            reading = self.recognizer.decide(self._corners(frame, pose))
        except _Partial:
            return Reading(None, 0.0, PARTIAL, ruled_out=vetoed, body_seen=band is not None,
                           band=layout, band_picture=picture)
        if band is not None:
            reading = replace(reading, body_seen=True, band=layout, band_picture=picture)
        if vetoed:
            # (veto only: the evidence stays, so no lead moves to another card)
            reading = replace(reading, ruled_out=reading.ruled_out | vetoed)
            if reading.card in vetoed:
                reading = replace(reading, card=None, confidence=0.0,
                                  reason=(LONE_PIP if lone_pip else SIDE_PIPS
                                          if pips == SIDES else NO_PICTURE),
                                  guess=reading.card, guesses=top_guesses(reading.evidence))
        ev = reading.evidence
        if reading.card is not None and ev is not None and margin(ev)[1] < self.frame_margin:
            return replace(
                reading,
                card=None,
                confidence=0.0,
                reason=ONE_FRAME,
                guess=reading.card,
                guesses=top_guesses(reading.evidence),
            )
        return reading

    def _window(self, frame: npt.NDArray[np.uint8]) -> tuple[float, float, float, float]:
        """The window's aperture in ``frame``'s pixels (x0, y0, x1, y1)."""
        x0, y0, x1, y1 = (float(v) for v in self.geometry.window_rect_px)
        fh, fw = frame.shape[:2]
        if (fw, fh) != self.geometry.frame_px:
            sx, sy = fw / self.geometry.frame_px[0], fh / self.geometry.frame_px[1]
            x0, x1, y0, y1 = x0 * sx, x1 * sx, y0 * sy, y1 * sy
        return x0, y0, x1, y1

    def _corners(self, frame: npt.NDArray[np.uint8], pose: Pose) -> Iterator[IndexGlyphs | None]:
        """The visible end's index corners, lazily: its left one (the common
        layout's), then its right one only when the left shows no index.  A
        corner whose index runs into what lies outside the window (painted as
        paper) is cut, not read: a club whose lower lobes are outside looks like
        a spade, a pip cut to its top like a suit sign (raises ``_Partial`` when
        nothing else was read)."""
        found = False
        partial = False
        read = False
        for corner in (0, 2):
            if corner == 2 and found:
                break
            cut = self._patch(frame, pose, corner)
            if cut is None:
                partial = True
                continue
            patch, inside = cut
            g = read_corner(patch, corner)
            # (a last try's corner is no index found: the right one is read too)
            found = found or (g is not None and not g.last_try)
            if g is not None and inside is not None and _runs_outside(g, inside):
                partial = True
                continue
            read = read or g is not None
            # (the window goes with the glyphs: a reading the other way up
            # must not take a mark it cuts either)
            yield g if g is None or inside is None else replace(g, inside=inside)
        if partial and not read:
            raise _Partial

    def _patch(
        self, frame: npt.NDArray[np.uint8], pose: Pose, corner: int
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8] | None] | None:
        """The upright index patch of ``corner`` (0: left, 2: right of the
        visible end) with what lies outside the window painted as paper, and
        where the window is in it (1 inside; None: all of it); None when the
        index area is not wholly in view."""
        h = cv2.getPerspectiveTransform(_CANON, pose.quad).astype(np.float64)
        m = h @ _TO_RIGHT if corner == 2 else h
        patch = np.asarray(
            cv2.warpPerspective(
                frame,
                m,
                (CROP_W, CROP_H),
                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_REPLICATE,
            ),
            np.uint8,
        )
        # the window in the patch's units
        x0, y0, x1, y1 = self._window(frame)
        rim = 2.0
        x0, y0, x1, y1 = x0 + rim, y0 + rim, x1 - rim, y1 - rim
        corners = cv2.perspectiveTransform(_PATCH_CORNERS, m)[0]
        if (
            corners[:, 0].min() >= x0
            and corners[:, 0].max() <= x1
            and corners[:, 1].min() >= y0
            and corners[:, 1].max() <= y1
        ):
            return patch, None  # all of the patch is in the window
        win = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
        pts = cv2.perspectiveTransform(win, np.linalg.inv(m))[0]
        inside = np.zeros((CROP_H, CROP_W), np.uint8)
        cv2.fillConvexPoly(inside, np.round(pts * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        rows = int(_ZONE_MM * CARD_H / self.geometry.card_length_mm)
        across = CARD_W / self.geometry.card_width_mm
        a0, a1 = int(_ACROSS_MM[0] * across), int(_ACROSS_MM[1] * across)
        if corner == 2:
            a0, a1 = CROP_W - a1, CROP_W - a0
        if inside[:rows, a0:a1].min() == 0:
            return None
        # outside the window: paper, the colour of the brighter half of what is seen
        grey = cv2.max(cv2.max(patch[..., 0], patch[..., 1]), patch[..., 2])
        level = cv2.mean(grey, mask=inside)[0]
        brighter = cv2.bitwise_and(inside, (grey > level).astype(np.uint8))
        b, g, r, _ = cv2.mean(patch, mask=brighter)
        return _paint_outside(patch, inside, (round(b), round(g), round(r))), inside

    # -- a pass --------------------------------------------------------------------
    def fusion(self) -> PassFusion:
        return PassFusion(self)

    def read_pass(self, frames: Iterable[npt.NDArray[np.uint8] | None]) -> PassReading:
        """Every frame of one card's pass, in order (None: a frame that never came)."""
        fusion = self.fusion()
        for frame in frames:
            fusion.push(frame)
        return fusion.result()

    def read_live(self, grab: Callable[[], npt.NDArray[np.uint8] | None]) -> PassReading:
        """Grab and read the frames of the pass now passing until the card has
        left the window (``PASS_TAIL`` empty frames after it), at most
        ``PASS_MAX_FRAMES`` frames, and decide as :meth:`read_pass` does.

        It does not stop once the card looks decided (``PassFusion.ready``):
        ``pontoon-table run`` reads the whole pass paired with each CARD_OUT,
        and the live path must name the same frames alike; stopping early
        named more wrong cards (docs/vision.md, twentieth pass, third change)
        for a fraction of a second saved while the card still slides out."""
        fusion = self.fusion()
        while fusion.frames < PASS_MAX_FRAMES and not fusion.over:
            fusion.push(grab())
        return fusion.result()


def looks_in_shoe(frame: npt.NDArray[np.uint8], geometry: InShoeGeometry = IN_SHOE) -> bool:
    """Whether ``frame`` is the in-shoe camera's: its size is the geometry's,
    the floor around the window (the bands above and below it) is dark, and
    the window (the lit roof, or a card) is clearly brighter than that floor
    (a dark table cloth under an overhead camera is dark everywhere)."""
    if frame is None or frame.ndim != 3 or (frame.shape[1], frame.shape[0]) != geometry.frame_px:
        return False
    x0, y0, x1, y1 = geometry.window_rect_px
    grey = cv2.max(cv2.max(frame[..., 0], frame[..., 1]), frame[..., 2])
    bands = (grey[: max(y0 - 4, 1)], grey[y1 + 4 :])
    if not all(b.size for b in bands):
        return False
    floor = max(float(b.mean()) for b in bands)
    window = float(grey[y0 + 4 : y1 - 4 : 4, x0 + 4 : x1 - 4 : 4].mean())
    return floor < 30.0 and window > 1.5 * floor + 8.0


def _paint_outside(
    patch: npt.NDArray[np.uint8], inside: npt.NDArray[np.uint8], colour: tuple[int, int, int]
) -> npt.NDArray[np.uint8]:
    """``patch`` (BGR) with ``colour`` where ``inside`` is 0, in place: what
    ``patch[inside == 0] = colour`` does, painted by OpenCV (that masked
    NumPy assignment of a colour cost a fifth of a partly seen patch's time)."""
    h, w = inside.shape
    paper = np.empty_like(patch)
    cv2.rectangle(paper, (0, 0), (w, h), colour, -1)
    outside = (inside == 0).view(np.uint8)
    return np.asarray(cv2.copyTo(paper, outside, patch), np.uint8)


def _runs_outside(g: IndexGlyphs, inside: npt.NDArray[np.uint8]) -> bool:
    """Whether the index's box, one pixel wider all round, reaches the part of
    the patch outside the window (``inside`` 0): its ink may go on there."""
    return runs_outside(g.box, inside)


def withhold_by_side_pips(reading: Reading) -> Reading:
    """``reading`` with what a band showing a 4's to a 10's top row withholds:
    the aces, 2s and 3s (``SIDE_PIPS_WITHHOLD``), whose top pip stands on the
    card's axis or is not in the band at all.  Withheld, not ruled out (as a
    court's picture withholds overhead: docs/vision.md, fortieth pass): the
    frame alone names none of them, and a pass two such frames withhold is
    not named that card, but it stays a rival, so no other card is named in
    its place (a shadowed "8" the rank networks read as a "3"; forty-second
    pass).  A function of the reading alone, so stored readings can be
    judged with it."""
    if reading.band != SIDES:
        return reading
    withheld = reading.withheld | SIDE_PIPS_WITHHOLD
    if reading.card not in SIDE_PIPS_WITHHOLD:
        return replace(reading, withheld=withheld, withheld_why=SIDE_PIPS_WHY)
    return replace(reading, card=None, confidence=0.0, reason=SIDE_PIPS_WITHHELD,
                   guess=reading.card, guesses=top_guesses(reading.evidence),
                   withheld=withheld, withheld_why=SIDE_PIPS_WHY)


class _Partial(Exception):
    """The visible end's index area runs out of the window."""


class PassFusion:
    """Adds up a pass's frames (see the module): :meth:`push` each frame,
    :meth:`result` at the end (or when :meth:`ready`)."""

    def __init__(self, reader: InShoeReader) -> None:
        self.reader = reader
        self._fusion = FrameFusion(
            margin_nats=reader.margin, min_frames=PASS_MIN_FRAMES, min_final=PASS_MIN_FRAMES,
            heed_templates=False,  # ``_decide`` asks it with the pass's own record
        )
        self.frames = 0
        self.ms = 0.0
        self.seen_card = False
        self.empty_after = 0
        self.readings: list[Reading] = []
        #: per card, the frames whose own evidence put it first
        self.witnesses: dict[str, int] = {}
        #: cards some frame named on its own (lead of ``reader.frame_margin``)
        self.sure: set[str] = set()
        #: summed evidence and frame count of each index end read so far (a
        #: frame of the card's middle between two read frames starts a new end)
        self.end_sums: list[npt.NDArray[np.float64]] = []
        self.end_counts: list[int] = []
        self._middle_since = False
        #: frames that showed the band below an index (``vision.in_shoe_body``)
        self.bands_seen = 0
        #: what those bands showed (``Reading.band``)
        self.band_kinds: set[str] = set()
        #: how many of them showed each kind
        self.band_counts: dict[str, int] = {}
        #: how many of them showed a court's picture (``Reading.band_picture``)
        self.band_pictures = 0
        #: per card, the frames whose recogniser chose it, before the frame margin
        self.named: dict[str, int] = {}
        #: per card, the frames whose recogniser named it (``Reading.card``)
        self.read_alone: dict[str, int] = {}
        #: frames that read an index (gave evidence)
        self.index_frames = 0
        #: frames of the card's middle that could say whether its axis has ink,
        #: and those that showed some (``vision.in_shoe_middle``)
        self.middles_seen = 0
        self.middles_with_axis_ink = 0
        #: per frame of the card's middle, in order: whether side pips reached
        #: its centre row (None: it could not tell)
        self.centre_sides: list[bool | None] = []

    @property
    def over(self) -> bool:
        """The card has come and gone."""
        return self.seen_card and self.empty_after >= PASS_TAIL

    def push(self, frame: npt.NDArray[np.uint8] | None) -> Reading | None:
        if frame is None:
            self.frames += 1
            self._fusion.push_missing("no frame")
            return None
        start = time.perf_counter()
        reading = self.reader.read(frame)
        self.ms += (time.perf_counter() - start) * 1000
        self.add(reading)
        return reading

    def add(self, reading: Reading) -> None:
        """A frame's reading (``push`` reads the frame first; a benchmark
        replays stored readings)."""
        self.frames += 1
        self.readings.append(reading)
        self.bands_seen += reading.body_seen
        if reading.band is not None:
            self.band_kinds.add(reading.band)
            self.band_counts[reading.band] = self.band_counts.get(reading.band, 0) + 1
        self.band_pictures += reading.band_picture
        if reading.axis_ink is not None:
            self.middles_seen += 1
            self.middles_with_axis_ink += reading.axis_ink
        if reading.reason == MIDDLE:
            self.centre_sides.append(reading.centre_side_ink)
        chosen = reading.card if reading.card is not None else (
            reading.guess if reading.reason in _CHOSE_BUT_UNSURE else None)
        if chosen is not None:
            self.named[chosen] = self.named.get(chosen, 0) + 1
        if reading.card is not None:
            self.read_alone[reading.card] = self.read_alone.get(reading.card, 0) + 1
        if reading.reason == EMPTY:
            self.empty_after += 1 if self.seen_card else 0
        else:
            self.seen_card, self.empty_after = True, 0
        if reading.evidence is None:
            # a frame with no index read says nothing about the card's index
            # (its body may have ruled courts out: ``vision.in_shoe_body``)
            self._fusion.vetoes.update(reading.ruled_out)
            self._fusion.withholds.update(reading.withheld)
            self._fusion.withheld_why.update(dict.fromkeys(reading.withheld,
                                                           reading.withheld_why))
            self._fusion.frames += 1
            self._middle_since = self._middle_since or reading.reason == MIDDLE
            return
        self.index_frames += 1
        # every frame of one pass is the same card: no "swapped card" restart
        self._fusion.accepted = set()
        self._fusion.push(reading)
        best, lead = margin(reading.evidence)
        first = CARD_CODES[best]
        self.witnesses[first] = self.witnesses.get(first, 0) + 1
        if reading.card == first and lead >= self.reader.frame_margin:
            self.sure.add(first)
        if self._middle_since or not self.end_sums:
            self.end_sums.append(np.asarray(reading.evidence, np.float64).copy())
            self.end_counts.append(1)
        else:
            self.end_sums[-1] = self.end_sums[-1] + reading.evidence
            self.end_counts[-1] += 1
        self._middle_since = False

    def _decide(self, *, final: bool) -> FusedDecision:
        """The fused decision, a card only when at least ``PASS_MIN_FRAMES``
        frames put it first on their own and, if no frame was sure of it
        alone, it leads the cards still possible by the margin with each
        end's frames tempered."""
        d = self._fusion.decide(final=final)
        if d.card is None:
            return d
        total = self._fusion.total
        if self.witnesses.get(d.card, 0) < PASS_MIN_FRAMES:
            return FusedDecision(
                None, 0.0, "not sure enough over the frames", top_guesses(total), d.frames, d.used
            )
        chose = self.named.get(d.card, 0)
        other = self._read_instead(d.card)
        if other is not None:
            reason = (
                f"{READ_ANOTHER}: {self.read_alone[other]} of the {self.index_frames} frames"
                f" that read an index named {other}, and none chose {d.card}"
            )
            # the dealer is offered the frames' own word first (its share of
            # the frames that named a card alone), then the sum's likeliest
            share = round(self.read_alone[other] / sum(self.read_alone.values()), 3)
            guesses = ((other, share), *(g for g in top_guesses(total) if g[0] != other))
            return FusedDecision(None, 0.0, reason, guesses, d.frames, d.used)
        reads = self._fusion.template_reads
        other = templates_read_instead(reads, d.card, backed=bool(chose))
        if other is not None:
            # the overhead fusion's rule (``FrameFusion.heed_templates``), a
            # frame's own word for the card being its choice, sure or not
            reason = (
                f"{TEMPLATES_READ_ANOTHER}: {other} on {reads[other]} of the"
                f" {self.index_frames} frames that read an index, none {d.card}"
            )
            share = round(reads[other] / max(self.index_frames, 1), 3)
            guesses = ((other, share), *(g for g in top_guesses(total) if g[0] != other))
            return FusedDecision(None, 0.0, reason, guesses[:3], d.frames, d.used)
        if chose <= NAMED_SHARE * self.index_frames and band_kind(d.card) not in self.band_kinds:
            reason = (
                f"{BODY_UNHEARD}: {chose} of the {self.index_frames} frames that read an index"
                f" named {d.card}, and none of the {self.bands_seen}"
                f" frames that saw the band below the index showed"
                f" {_KIND_WORDS[band_kind(d.card)]}"
            )
            return FusedDecision(None, 0.0, reason, top_guesses(total), d.frames, d.used)
        if self._shows_a_picture_instead(d.card):
            reason = (
                f"{BODY_PICTURE}: {self.band_pictures} of the {self.bands_seen} frames that saw"
                f" the band below the index showed one mark across it, as a court's picture,"
                f" and none showed {_KIND_WORDS[SIDES]}"
            )
            return FusedDecision(None, 0.0, reason, top_guesses(total), d.frames, d.used)
        if self._axis_clean_withholds(d.card):
            reason = (
                f"{AXIS_WHY}: {d.card} ({self.middles_seen} frames of the card's middle, none"
                " with a pip on its axis)"
            )
            return FusedDecision(None, 0.0, reason, top_guesses(total), d.frames, d.used)
        if d.card in self.sure:
            return d
        weak = tempered(self.end_sums, self.end_counts, self.reader.correlation)
        # the lead over the cards still possible, as the sum's own lead is
        # taken (``over_the_possible``): a card the band ruled out is no rival
        # here either (docs/vision.md, twenty-eighth pass)
        vetoed = self._fusion.ruled_out()
        lead, needed = self._lead(d.card, weak, vetoed)
        if lead >= needed:
            return d
        # nor, then, a card whose rank the body's pips rule out, when the
        # body allows this one and the frames' own reader chose it at least
        # ``PASS_MIN_FRAMES`` times: the body helps the index's word, not a
        # sum of frames that each refused (forty-fourth pass, second
        # candidate: it only names more)
        seen = self.body_seen()
        allowed = d.card[0] in ranks_allowed(seen)
        if allowed and self.named.get(d.card, 0) >= PASS_MIN_FRAMES:
            ruled = ruled_out_by_body(seen)
            if self._lead(d.card, weak, ruled if vetoed is None else ruled | vetoed)[0] >= needed:
                return d
        if lead > 0 and allowed and self._chosen_alike(d.card) and self._ends_agree(d.card):
            return d
        reason = (
            f"only weak frames: {d.card} leads by {lead:.1f} nats, under {needed:g},"
            f" once the frames of each index end ({len(self.end_counts)}) count as correlated"
        )
        return FusedDecision(None, 0.0, reason, top_guesses(weak), d.frames, d.used)

    def _chosen_alike(self, card: str) -> bool:
        """Whether ``UNANIMOUS_FRAMES`` or more frames' recognisers chose
        ``card`` and none chose another: a weak pass's frames then agree in
        their own words, each only short of sure alone."""
        chose = self.named.get(card, 0)
        return chose >= UNANIMOUS_FRAMES and chose == sum(self.named.values())

    def _ends_agree(self, card: str) -> bool:
        """Whether two or more index ends were read and each one's own sum
        puts ``card`` first: the leading and the trailing index are two
        prints of the card, where one end's frames are one print seen again
        (ten frames of one end once leaned, alike, to a 3 on an 8)."""
        return len(self.end_sums) >= 2 and all(
            CARD_CODES[int(np.argmax(s))] == card for s in self.end_sums)

    def _read_instead(self, card: str) -> str | None:
        """The card frames named on their own most often, when that is not
        ``card`` and no frame's recogniser chose ``card`` at all (None
        otherwise): the sum may lean to a card the frames' evidence favours
        a little each time, but not against a frame's own sure word with no
        frame's word for it.  One frame suffices (a handwritten TS read sure
        on one frame, its other frames leaning to 7S; docs/vision.md,
        forty-sixth pass)."""
        if self.named.get(card, 0) or not self.read_alone:
            return None
        return max(self.read_alone, key=lambda c: (self.read_alone[c], c))

    def _lead(self, card: str, weak: npt.NDArray[np.float64],
              ruled: npt.NDArray[np.bool_] | None) -> tuple[float, float]:
        """``card``'s lead in ``weak`` over the cards ``ruled`` leaves
        possible, and the lead it needs (``over_the_possible``)."""
        rivals, needed = over_the_possible(weak, ruled, self.reader.margin)
        i = CARD_CODES.index(card)
        return float(rivals[i] - np.delete(rivals, i).max()), needed

    def body_seen(self) -> BodySeen:
        """What the pass's frames showed of the card's body so far."""
        central = central_looks(self.centre_sides)
        return BodySeen(
            side_pips=self.band_counts.get(SIDES, 0),
            lone_pip=self.band_counts.get(LONE, 0),
            middles=self.middles_seen,
            middles_with_axis_ink=self.middles_with_axis_ink,
            centres=len(central),
            centres_with_side_ink=sum(central),
        )

    def _shows_a_picture_instead(self, card: str) -> bool:
        """Whether ``card`` is a 4 to a 10 whose top row no band showed, and
        most bands showed a court's picture: the index's word against the
        body's, and the table asks the dealer (however many frames chose it)."""
        return (band_kind(card) == SIDES and SIDES not in self.band_kinds
                and self.band_pictures >= PICTURE_FRAMES
                and self.band_pictures >= PICTURE_SHARE * self.bands_seen)

    def _axis_clean_withholds(self, card: str) -> bool:
        """Whether ``card`` prints a pip on its axis between the indices and
        ``AXIS_FRAMES`` or more frames of the card's middle showed none: a 4's
        or a 6's middle, whatever its index reads (docs/vision.md,
        forty-third pass)."""
        return (card in AXIS_WITHHOLD and self.middles_seen >= AXIS_FRAMES
                and self.middles_with_axis_ink == 0)

    def ready(self) -> bool:
        """Whether the card would be decided before the pass is over (no table
        stops there since the twentieth pass; ``benchmarks/in_shoe_bench.py``
        compares what stopping here would name).  A 6 or a 9
        never is: on a deck that prints its bottom index upright
        (``IndexGlyphs.turned_in_place``) the end that leads may show the other rank
        upside down, and only all of the other end can outweigh it (a first
        frame of it does not); the table waits for the rest of the pass, a
        fraction of a second.  Nor is a court before ``VETO_FRAMES`` frames
        have shown the band below an index (``vision.in_shoe_body``): an
        index that reads a queen is believed once the body has had its say."""
        if self._fusion.used < self._fusion.min_frames:
            return False
        card = self._decide(final=False).card
        if card is None or card[0] in TURNS_INTO_ANOTHER:
            return False
        return card not in COURTS or self.bands_seen >= VETO_FRAMES

    def result(self) -> PassReading:
        d = self._decide(final=True)
        reason = d.reason
        if d.card is None and self._fusion.used == 0:
            reason = _why_nothing(self.readings)
        return PassReading(
            d.card,
            d.confidence,
            self.frames,
            self._fusion.used,
            round(self.ms, 3),
            reason,
            d.guesses,
        )


def _why_nothing(readings: list[Reading]) -> str:
    """The reason of a pass in which no index was read."""
    reasons = {r.reason for r in readings}
    if not readings or reasons <= {EMPTY}:
        return "no card in view"
    for why in (PARTIAL, MIDDLE):
        if why in reasons:
            return "no index visible"
    return "no index visible"
