"""The forty-third pass: frames of the card's middle say whether its long axis
carries ink (``vision.in_shoe_middle.axis_ink``), and a pass whose middle
frames never showed any is not named an ace, a 3, 5, 7, 9, 10 or a court
(``PassFusion``; docs/vision.md, forty-third pass).  The case it is for: a
stencilled "4" that the rank networks read as a "7" on every frame.

The verdicts are checked on rendered passes of the built-in deck, whose
layouts are the standard ones (a 4's and a 6's pips in two side columns, a
3's, 5's, 7's, 9's and 10's also on the axis: ``builtin.py``), and on
middle frames painted by hand.  The fusion's tests feed hand-made readings,
each expected value worked out in the docstring with the shipped constants
(``PASS_MARGIN`` 8, ``FRAME_CORRELATION`` 0.42, ``AXIS_FRAMES`` 2)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from test_vision_in_shoe_side_pips import _frames, _leaning

from hardware_sim.camera.in_shoe import InShoeRenderer
from vision.evidence import FRAME_CORRELATION
from vision.in_shoe import AXIS_FRAMES, PASS_MARGIN, InShoeReader, PassFusion
from vision.in_shoe_middle import AXIS_WHY, AXIS_WITHHOLD, MARK_MM2, axis_ink
from vision.in_shoe_pose import MIDDLE, Pose, find_pose
from vision.reading import Reading

Image = npt.NDArray[np.uint8]


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (PASS_MARGIN, FRAME_CORRELATION, AXIS_FRAMES) == (8.0, 0.42, 2)


def test_what_a_clean_axis_withholds() -> None:
    """Every card whose middle prints on its axis in the common layouts: the
    aces, 3s, 5s, 7s, 9s, 10s and courts (9 ranks x 4 suits); not the 4s and
    6s (side columns only), nor the 2s (their pips sit near the ends) or the
    8s (the anglo designs print their axis pips where no middle frame sees
    them)."""
    assert {r + s for r in "A3579TJQK" for s in "SHDC"} == AXIS_WITHHOLD


# -- one frame -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reader() -> InShoeReader:
    return InShoeReader()


def _middles(code: str, preset: str, k: int) -> list[Image]:
    """The frames of one rendered pass that show the card's middle."""
    return [f for f in _frames(code, preset, k)
            if getattr(find_pose(f), "reason", None) == MIDDLE]


@pytest.mark.parametrize("preset", ["normal", "hard"])
@pytest.mark.parametrize("code", ["4S", "6H"])
def test_a_four_or_sixs_middle_has_a_clean_axis(
        reader: InShoeReader, code: str, preset: str) -> None:
    seen = [axis_ink(f, reader._window(f)) for k in range(2) for f in _middles(code, preset, k)]
    said = [s for s in seen if s is not None]
    assert len(said) >= 2
    assert not any(said), seen


@pytest.mark.parametrize("preset", ["normal", "hard"])
@pytest.mark.parametrize("code", ["3D", "5C", "9S", "TH", "AS", "KD"])
def test_the_middle_of_the_axis_printers_shows_ink_on_it(
        reader: InShoeReader, code: str, preset: str) -> None:
    seen = [axis_ink(f, reader._window(f)) for k in range(2) for f in _middles(code, preset, k)]
    said = [s for s in seen if s is not None]
    assert len(said) >= 2
    assert all(said), seen


def test_a_sevens_middle_shows_ink_on_its_axis_in_some_frame(reader: InShoeReader) -> None:
    """A 7's odd pip stands a third of the way down: some middle frames miss
    it, but every pass has one that shows it."""
    for k in range(4):
        said = [axis_ink(f, reader._window(f)) for f in _middles("7C", "hard", k)]
        assert any(said), said


def _blank_middle(reader: InShoeReader) -> Image:
    """A middle frame of the built-in 4S, whose axis is paper."""
    for f in _middles("4S", "normal", 0):
        if axis_ink(f, reader._window(f)) is False:
            return f.copy()
    raise AssertionError("no clean middle frame")


def _card_centre_x(frame: Image, reader: InShoeReader) -> tuple[float, float, float]:
    """The card's centre across the window, its width (px) and the window's
    middle row, from the frame's bright columns, as ``axis_ink`` finds them."""
    x0, y0, x1, y1 = reader._window(frame)
    band = frame[round(y0) + 4:round(y1) - 4, round(x0) + 4:round(x1) - 4].min(axis=2)
    cols = np.flatnonzero(np.median(band, axis=0) > 0.6 * np.percentile(band, 80))
    return round(x0) + 4 + (cols[0] + cols[-1]) / 2, float(cols[-1] - cols[0]), (y0 + y1) / 2


def test_a_pip_painted_on_the_axis_is_ink(reader: InShoeReader) -> None:
    """By hand: a dark disc 7 mm across (a pip at 9 px/mm) on the axis of a
    clean middle is ink on the axis; the same disc in a side column (a
    quarter of the card's width out) is not; a speck of under ``MARK_MM2``
    on the axis is dust."""
    frame = _blank_middle(reader)
    cx, width, cy = _card_centre_x(frame, reader)
    px_per_mm = width / 63.5
    window = reader._window(frame)

    def with_disc(x: float, radius_mm: float) -> Image:
        out = frame.copy()
        cv2.circle(out, (round(x), round(cy)), round(radius_mm * px_per_mm), (20, 20, 20), -1)
        return out

    assert axis_ink(with_disc(cx, 3.5), window) is True
    assert axis_ink(with_disc(cx + 0.25 * width, 3.5), window) is False
    speck_radius = 0.8 * np.sqrt(MARK_MM2 / np.pi)
    assert axis_ink(with_disc(cx, speck_radius), window) is False


def test_an_empty_window_says_nothing(reader: InShoeReader) -> None:
    """No card across the window: no verdict (None), not a clean axis."""
    renderer = InShoeRenderer("builtin", preset="normal", seed=11)
    rng = np.random.default_rng(0)
    frames = [f.image for f in renderer.render_pass(renderer.plan("4S", rng), rng)]
    empty = frames[0]
    assert not isinstance(find_pose(empty), Pose)
    assert axis_ink(empty, reader._window(empty)) is None


def test_the_reader_records_the_axis_on_middle_frames_only(reader: InShoeReader) -> None:
    renderer = InShoeRenderer("builtin", preset="normal", seed=11)
    rng = np.random.default_rng(2)
    readings = [reader.read(f.image)
                for f in renderer.render_pass(renderer.plan("5C", rng), rng)]
    assert any(r.axis_ink for r in readings)
    assert all(r.axis_ink is None for r in readings if r.reason != MIDDLE)


# -- a pass ----------------------------------------------------------------------------


def _pass(card: str, runner_up: str, middles: list[bool | None]) -> PassFusion:
    """Four index frames of the leading end, the middle frames (``middles``:
    what each showed of the axis), four of the trailing end; every index
    frame chooses ``card`` by 3 nats, its band out of view.  Summed: a lead
    of 24; tempered, each end's four frames divided by 1 + 3 x 0.42 = 2.26:
    10.62 for both ends, >= 8; all 8 frames chose it: named ``card`` but for
    the middle's word."""
    fusion = PassFusion(InShoeReader())
    for _ in range(4):
        fusion.add(_leaning(card, runner_up, None))
    for said in middles:
        fusion.add(Reading(None, 0.0, MIDDLE, axis_ink=said))
    for _ in range(4):
        fusion.add(_leaning(card, runner_up, None))
    return fusion


@pytest.mark.parametrize("clean", [2, 5])
def test_a_four_read_as_a_seven_over_a_clean_axis_is_withheld(clean: int) -> None:
    """Wallpoet's 4D read as 7D by every frame; 2 or 5 middle frames, none
    with ink on the axis: unsure, the reason counts the frames, 7D stays
    the first guess."""
    res = _pass("7D", "4D", [False] * clean).result()
    assert res.card is None
    assert res.reason == (f"{AXIS_WHY}: 7D ({clean} frames of the card's middle, none with a"
                          " pip on its axis)")
    assert res.code == "pips_disagree"
    assert res.guesses[0][0] == "7D"


def test_one_axis_pip_is_the_cards_own_word() -> None:
    assert _pass("7D", "4D", [False, False, True, False]).result().card == "7D"


def test_one_clean_middle_frame_is_not_enough() -> None:
    """One middle frame said "clean", the others could not tell (None)."""
    assert _pass("7D", "4D", [False, None, None]).result().card == "7D"


@pytest.mark.parametrize("card", ["4D", "6D", "8D", "2D"])
def test_a_clean_axis_says_nothing_against_the_rest(card: str) -> None:
    assert _pass(card, "7D", [False] * 4).result().card == card


# -- the reader, on rendered passes ----------------------------------------------------


@pytest.mark.parametrize("code", ["4H", "6C", "7S", "9D", "5H", "3C", "TS", "KH", "AD"])
def test_rendered_passes_are_named_as_before(reader: InShoeReader, code: str) -> None:
    """The built-in deck's passes are named right: the 4s and 6s are not
    withheld, and the others show ink on their axis."""
    renderer = InShoeRenderer("builtin", preset="normal", seed=11)
    for k in range(2):
        rng = np.random.default_rng(k)
        frames = [f.image for f in renderer.render_pass(renderer.plan(code, rng), rng)]
        assert reader.read_pass(frames).card == code
