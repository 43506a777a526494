"""The forty-fifth pass: side pips beside the card's centre, seen by the
central frames of the middle's run (``vision.in_shoe_middle.look_at_middle``,
``vision.in_shoe_rivals.central_looks``), rule out a weak pass's 6 to 10
rivals.

Expected values are worked out by hand in the docstrings from the shipped
constants (checked by the first test) and the standard pip layouts: a 6, 7
and 8 print a side pip in each column level with the card's centre, a 9
and a 10 their inner side pips within a few millimetres of it; an ace to a
5 print nothing beside the centre.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from test_vision_in_shoe_rivals import dissenting
from test_vision_in_shoe_side_pips import _frames

from vision.in_shoe import PASS_MARGIN, InShoeReader, PassFusion
from vision.in_shoe_middle import CENTRE_MM, SIDE_SHARE, look_at_middle
from vision.in_shoe_pose import MIDDLE, find_pose
from vision.in_shoe_rivals import (
    BODY_FRAMES,
    CENTRE_REACH,
    CENTRE_SIDE_RANKS,
    BodySeen,
    central_looks,
    ranks_allowed,
)
from vision.reading import Reading

Image = npt.NDArray[np.uint8]


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (BODY_FRAMES, CENTRE_REACH, CENTRE_MM, SIDE_SHARE, PASS_MARGIN) == (
        2, 1, 10.0, 0.12, 8.0)
    assert frozenset("6789T") == CENTRE_SIDE_RANKS


# -- which frames see the centre ---------------------------------------------------------


@pytest.mark.parametrize(("looks", "central"), [
    ([], []),
    ([False, True], []),                          # under three: no middle to trust
    ([True, False, True], [True, False, True]),   # middle 1: places 0 to 2
    ([True, False, False, True], [False, False]),   # middle 1.5: places 1 and 2
    ([True, True, False, False, True, True], [False, False]),   # middle 2.5: 2 and 3
    ([True, True, None, False, None, True, True], [False]),      # middle 3: 2 to 4, two unsaid
    ([True] * 3 + [False] * 3 + [True] * 3, [False] * 3),        # middle 4: 3 to 5
])
def test_the_central_frames_of_the_run(looks: list[bool | None], central: list[bool]) -> None:
    assert central_looks(looks) == central


@pytest.mark.parametrize(("seen", "ranks"), [
    (BodySeen(centres=2), "A2345JQK"),
    (BodySeen(centres=3), "A2345JQK"),
    (BodySeen(centres=1), "A23456789TJQK"),
    (BodySeen(centres=3, centres_with_side_ink=1), "A23456789TJQK"),
    (BodySeen(centres=3, centres_with_side_ink=3), "A23456789TJQK"),
    # with a 4's band (side pips: 4 to 10) and clean axis (no A3579TJQK):
    # 4, 6, 8 left, and a clean centre leaves the 4
    (BodySeen(side_pips=2, middles=4, centres=2), "4"),
    # with a 5's band and inked axis (no 4, 6): 5, 7, 8, 9, 10, then the 5
    (BodySeen(side_pips=2, middles=4, middles_with_axis_ink=4, centres=2), "5"),
])
def test_a_clean_centre_rules_out_the_six_to_ten(seen: BodySeen, ranks: str) -> None:
    assert ranks_allowed(seen) == frozenset(ranks)


# -- one frame ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reader() -> InShoeReader:
    return InShoeReader()


def _central_middles(code: str, preset: str, k: int) -> list[Image]:
    """The frames of one rendered pass that see the card's centre: the
    central ones of its middle frames."""
    middles = [f for f in _frames(code, preset, k)
               if getattr(find_pose(f), "reason", None) == MIDDLE]
    centre = (len(middles) - 1) / 2
    return [f for i, f in enumerate(middles) if abs(i - centre) <= CENTRE_REACH]


@pytest.mark.parametrize("preset", ["normal", "hard"])
@pytest.mark.parametrize(("code", "sides"), [
    ("AS", False), ("2H", False), ("3D", False), ("4C", False), ("5S", False),
    ("6S", True), ("7H", True), ("8D", True), ("9C", True), ("TS", True),
])
def test_side_pips_by_the_centre_from_a_six_to_a_ten_only(
        reader: InShoeReader, code: str, sides: bool, preset: str) -> None:
    """Two rendered passes each: every central frame that could tell says
    side pips for a 6 to a 10 and none for an ace to a 5."""
    for k in range(2):
        looks = [look_at_middle(f, reader._window(f)) for f in _central_middles(code, preset, k)]
        said = [look.centre_side_ink for look in looks if look is not None]
        assert len(said) >= 2
        assert said == [sides] * len(said), said


def test_a_pip_painted_beside_the_centre_is_side_ink(reader: InShoeReader) -> None:
    """By hand, on the 4S's central frame (no side ink): a disc 7 mm across
    a quarter of the card's width out from the axis (> ``SIDE_SHARE``), on
    the window's middle row, is side ink by the centre; the same disc 18 mm
    along the slide from that row (its near edge 14.5 mm away, beyond
    ``CENTRE_MM``) is not; on the axis it is axis ink, not side ink."""
    frame = next(f for f in _central_middles("4S", "normal", 0)
                 if look_at_middle(f, reader._window(f)) is not None)
    window = reader._window(frame)
    x0, y0, x1, y1 = window
    band = frame[round(y0) + 4:round(y1) - 4, round(x0) + 4:round(x1) - 4].min(axis=2)
    cols = np.flatnonzero(np.median(band, axis=0) > 0.6 * np.percentile(band, 80))
    cx, width = round(x0) + 4 + (cols[0] + cols[-1]) / 2, float(cols[-1] - cols[0])
    cy = (y0 + y1) / 2
    ppm = width / 63.5

    def with_disc(x: float, y: float) -> Image:
        out = frame.copy()
        cv2.circle(out, (round(x), round(y)), round(3.5 * ppm), (20, 20, 20), -1)
        return out

    clean = look_at_middle(frame, window)
    assert clean is not None and not clean.centre_side_ink and not clean.axis_ink
    beside = look_at_middle(with_disc(cx + 0.25 * width, cy), window)
    assert beside is not None and beside.centre_side_ink and not beside.axis_ink
    far = look_at_middle(with_disc(cx + 0.25 * width, cy + 18 * ppm), window)
    assert far is not None and not far.centre_side_ink
    on_axis = look_at_middle(with_disc(cx, cy), window)
    assert on_axis is not None and on_axis.axis_ink and not on_axis.centre_side_ink


def test_the_reader_records_the_centre_on_middle_frames_only(reader: InShoeReader) -> None:
    readings = [reader.read(f) for f in _frames("8S", "normal", 0)]
    assert any(r.centre_side_ink for r in readings if r.reason == MIDDLE)
    assert all(r.centre_side_ink is None for r in readings if r.reason != MIDDLE)


# -- a weak pass -------------------------------------------------------------------------


def _pass(card: str, runner_up: str, centres: list[bool | None]) -> PassFusion:
    """Four index frames of the leading end, the middle frames (``centres``:
    what each said beside the centre; of the axis they say nothing), four of
    the trailing end, each index frame leaning to
    ``card`` by 2 nats over ``runner_up`` (every other card 12 behind), band
    out of view, the last one's recogniser choosing ``runner_up``
    (``test_vision_in_shoe_rivals.dissenting``).  As in
    ``test_vision_in_shoe_rivals._pass``: tempered, 7.08 over the runner-up,
    under 8; 42.5 over every other card."""
    frames = dissenting(card, runner_up, [None] * 8)
    fusion = PassFusion(InShoeReader())
    for frame in frames[:4]:
        fusion.add(frame)
    for said in centres:
        fusion.add(Reading(None, 0.0, MIDDLE, centre_side_ink=said))
    for frame in frames[4:]:
        fusion.add(frame)
    return fusion


@pytest.mark.parametrize(("card", "rival"), [("4S", "8S"), ("5D", "9D"), ("AH", "7H")])
def test_a_clean_centre_rules_out_a_six_to_ten_rival(card: str, rival: str) -> None:
    """Five middle frames, the central three (places 1 to 3) clean: the
    6-to-10 runner-up is no rival; named."""
    res = _pass(card, rival, [True, False, False, False, True]).result()
    assert res.card == card


def test_side_pips_by_the_centre_keep_the_rival() -> None:
    res = _pass("4S", "8S", [True, False, True, False, True]).result()
    assert res.card is None
    assert res.reason.startswith("only weak frames")


def test_side_pips_away_from_the_centre_say_nothing_of_it() -> None:
    """The first and last frames (away from the centre) show side pips, as
    a 4's do near its ends; the central ones are clean: named."""
    assert _pass("4S", "8S", [True, True, False, False, False, True, True]).result().card == "4S"


def test_a_run_too_short_to_have_a_centre_says_nothing() -> None:
    assert _pass("4S", "8S", [False, False]).result().card is None


def test_a_clean_centre_does_not_name_a_six_to_ten() -> None:
    """8S leaning weakly over 4S, a clean centre: the 8s are ruled out, so
    the body does not help name it (unsure, as before)."""
    assert _pass("8S", "4S", [False, False, False]).result().card is None
