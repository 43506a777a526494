"""The thirty-fourth pass: a 4 to a 10 that a pass names from weak frames
only must have shown its top row, a pip at each side of the band below the
index (``PassFusion._top_row_unseen``; docs/vision.md, thirty-fourth pass).

The fusion's tests feed hand-made readings; every expected value is worked
out in the test's docstring with the shipped constants (``PASS_MARGIN`` 8,
``FRAME_MARGIN`` 7.5, ``FRAME_CORRELATION`` 0.42, ``VETO_FRAMES`` 2).  The
reader's test holds ``Reading.band`` to the band's own functions
(``band_is_blank``, ``band_pips``) on rendered frames of the built-in deck,
whose 4s to 10s print their top pips at the band's sides and whose courts
print a picture across its middle (``builtin.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from hardware_sim.camera.in_shoe import InShoeRenderer
from vision.cards import CARD_CODES
from vision.evidence import VETO_FRAMES, reason_code
from vision.in_shoe import (
    FRAME_CORRELATION,
    FRAME_MARGIN,
    NO_TOP_ROW,
    PASS_MARGIN,
    InShoeReader,
    PassFusion,
)
from vision.in_shoe_body import (
    BLANK,
    NEITHER,
    SIDES,
    TOP_ROW_AT_THE_SIDES,
    band_is_blank,
    band_pips,
)
from vision.in_shoe_pose import MIDDLE, Pose, find_pose
from vision.reading import Reading


def _frame(scores: dict[str, float], band: str | None, card: str | None = None) -> Reading:
    """A frame's reading with evidence -10 nats for every card but ``scores``,
    whose band showed ``band`` (None: not in view); ``card``: the frame named
    it on its own."""
    ev = np.full(len(CARD_CODES), -10.0)
    for code, v in scores.items():
        ev[CARD_CODES.index(code)] = v
    if card is not None:
        return Reading(card, 0.9, "", evidence=ev, body_seen=band is not None, band=band)
    return Reading(None, 0.0, "not sure enough from one frame", evidence=ev,
                   body_seen=band is not None, band=band)


def _weak_pass(card: str, runner_up: str, bands: list[str | None]) -> PassFusion:
    """Four frames of the leading index, four of the card's middle, four of the
    trailing index; every index frame leans to ``card`` by 3 nats over
    ``runner_up``, none sure alone; ``bands``: what each index frame's band
    showed, in order.  Summed: a lead of 24.  Tempered, each end's four
    frames are divided by 1 + 3 x 0.42 = 2.26: 12 / 2.26 = 5.31 an end, 10.62
    for both, >= 8: named, but for the band."""
    assert len(bands) == 8
    fusion = PassFusion(InShoeReader())
    index = iter(bands)
    for k in range(12):
        if 4 <= k < 8:
            fusion.add(Reading(None, 0.0, MIDDLE))
        else:
            fusion.add(_frame({card: 0.0, runner_up: -3.0}, next(index)))
    return fusion


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (PASS_MARGIN, FRAME_MARGIN, FRAME_CORRELATION, VETO_FRAMES) == (8.0, 7.5, 0.42, 2)
    assert sorted({c[0] for c in TOP_ROW_AT_THE_SIDES}) == sorted("456789T")
    assert len(TOP_ROW_AT_THE_SIDES) == 28


def test_weak_frames_naming_a_seven_over_a_band_without_side_pips_are_unsure() -> None:
    """A calligraphic J read as a 7: the eight index frames lean 7H over JH,
    every one's band shows neither a lone pip nor side pips.  Without the
    band the pass names 7H (10.62 >= 8); with eight bands seen (>= 2) and no
    side pips, it is unsure, the reason says why, its code is
    ``pips_disagree``, and 7H stays the first guess for the dealer."""
    assert _weak_pass("7H", "JH", [None] * 8).result().card == "7H"
    res = _weak_pass("7H", "JH", [NEITHER] * 8).result()
    assert res.card is None
    assert res.reason.startswith(f"{NO_TOP_ROW}: 7H was named by weak frames only")
    assert "none of the 8 frames that saw the band" in res.reason
    assert res.code == "pips_disagree" == reason_code(res.reason)
    assert res.guesses[0][0] == "7H"


def test_one_frame_of_side_pips_is_enough() -> None:
    """The same pass with the sixth index frame's band showing side pips: the
    top row was seen, so the weak frames' 7H stands (10.62 >= 8)."""
    bands: list[str | None] = [NEITHER] * 8
    bands[5] = SIDES
    assert _weak_pass("7H", "JH", bands).result().card == "7H"


def test_fewer_than_veto_frames_bands_say_nothing() -> None:
    """One frame of eight saw the band (1 < ``VETO_FRAMES``): the body has not
    had its say, so the weak frames' 7H stands; two such frames withhold it.
    A blank band counts as seen and holds no side pips."""
    one: list[str | None] = [None] * 8
    one[2] = NEITHER
    assert _weak_pass("7H", "JH", one).result().card == "7H"
    two: list[str | None] = [None] * 8
    two[2], two[6] = NEITHER, BLANK
    assert _weak_pass("7H", "JH", two).result().card is None


@pytest.mark.parametrize(("card", "runner_up"), [("JH", "7H"), ("3S", "8S"), ("AD", "4D")])
def test_only_the_fours_to_tens_need_their_top_row(card: str, runner_up: str) -> None:
    """A court, a 3 and an ace print no side pips: their weak frames over a
    band without them are named as before (10.62 >= 8)."""
    assert _weak_pass(card, runner_up, [NEITHER] * 8).result().card == card


def test_a_frame_sure_alone_is_believed_without_the_top_row() -> None:
    """Frame 1 names 7C alone (7C 0, every other card -9: a lead of 9 >=
    7.5); frame 2 leans to 7C by 1 nat over 7S.  Summed: 7C 0, 7S -10: a lead
    of 10 >= 8 with two witnesses.  Both bands showed neither: the rule is for
    passes of weak frames only (a design whose top pips sit inward), so 7C is
    named.  The same two frames with frame 1 not naming its card are weak:
    unsure, now for the band."""
    sure = np.full(len(CARD_CODES), -9.0)
    sure[CARD_CODES.index("7C")] = 0.0
    fusion = PassFusion(InShoeReader())
    fusion.add(Reading("7C", 0.9, "", evidence=sure, body_seen=True, band=NEITHER))
    fusion.add(_frame({"7C": 0.0, "7S": -1.0}, NEITHER))
    assert fusion.result().card == "7C"

    weak = PassFusion(InShoeReader())
    weak.add(Reading(None, 0.0, "colour", evidence=sure, body_seen=True, band=NEITHER))
    weak.add(_frame({"7C": 0.0, "7S": -1.0}, NEITHER))
    res = weak.result()
    assert res.card is None and res.reason.startswith(NO_TOP_ROW)


@pytest.fixture(scope="module")
def reader() -> InShoeReader:
    return InShoeReader()


@pytest.mark.parametrize("code", ["7H", "TS", "KD", "AC"])
def test_the_reading_keeps_what_the_band_showed(reader: InShoeReader, code: str) -> None:
    """Every frame of two passes of the built-in deck: ``Reading.band`` is
    what ``band_is_blank`` and ``band_pips`` say of the frame's band (the
    independent reference: the band's own functions, called on the pose the
    test finds itself), None when it is not wholly in view.  The 7's and
    the 10's passes show their side pips, the king's and the ace's never."""
    renderer = InShoeRenderer("builtin", preset="normal", seed=11)
    layouts = []
    for k in range(2):
        rng = np.random.default_rng(k)
        plan = renderer.plan(code, rng, lead="top" if k else "bottom")
        for f in renderer.render_pass(plan, rng):
            pose = find_pose(f.image)
            expected = None
            if isinstance(pose, Pose):
                window = reader._window(f.image)
                blank = band_is_blank(f.image, pose.quad, window)
                expected = (None if blank is None else BLANK if blank
                            else band_pips(f.image, pose.quad, window))
            got = reader.read(f.image)
            assert got.band == expected
            assert got.body_seen == (expected is not None)
            layouts.append(got.band)
    assert sum(b is not None for b in layouts) >= 4
    assert (SIDES in layouts) == (code in TOP_ROW_AT_THE_SIDES)
