"""The thirty-seventh pass: a pass named a 4 to a 10 is withheld when most of
the bands below its index showed a court's picture (one mark across the
band) and none showed that card's top row, however many frames chose it
(``vision.in_shoe.BODY_PICTURE``; docs/vision.md, thirty-seventh pass).

The fusion's tests feed hand-made readings, each expected value worked out
in the docstring with the shipped constants (``PASS_MARGIN`` 8,
``FRAME_MARGIN`` 7.5, ``FRAME_CORRELATION`` 0.42, ``PICTURE_SHARE`` 0.5,
``PICTURE_FRAMES`` 2).  The band's tests paint marks by hand on rendered
frames of the built-in deck, or read its passes, whose courts print a
picture across the band and whose 4s to 10s print a pip at each of its
sides (``builtin.py``)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from test_vision_in_shoe_body import _box, _verdicts

from hardware_sim.camera.in_shoe import InShoeRenderer
from vision.cards import CARD_CODES
from vision.evidence import FRAME_CORRELATION
from vision.in_shoe import (
    BODY_PICTURE,
    FRAME_MARGIN,
    ONE_FRAME,
    PASS_MARGIN,
    PICTURE_FRAMES,
    PICTURE_SHARE,
    InShoeReader,
    PassFusion,
)
from vision.in_shoe_body import BAND, NEITHER, PICTURE_H, PICTURE_W, SIDES, band_layout
from vision.in_shoe_pose import MIDDLE, Pose, find_pose
from vision.reading import Reading

Image = npt.NDArray[np.uint8]


def _frame(card: str, runner_up: str, band: str | None, picture: bool) -> Reading:
    """An index frame whose recogniser chose ``card`` by 3 nats over
    ``runner_up`` (every other card -10), unsure only for the frame margin;
    its band showed ``band`` (None: not in view), a picture or not."""
    ev = np.full(len(CARD_CODES), -10.0)
    ev[CARD_CODES.index(card)] = 0.0
    ev[CARD_CODES.index(runner_up)] = -3.0
    return Reading(None, 0.0, ONE_FRAME, guess=card, evidence=ev, body_seen=band is not None,
                   band=band, band_picture=picture)


def _pass(card: str, runner_up: str, pictures: int, *, bands: list[str | None] | None = None
          ) -> PassFusion:
    """Four frames of the leading index, four of the middle, four of the
    trailing index, every index frame choosing ``card`` by 3 nats (none sure
    alone).  Summed: a lead of 24; tempered, each end's four frames divided
    by 1 + 3 x 0.42 = 2.26: 12 / 2.26 = 5.31 an end, 10.62 for both, >= 8;
    every frame chose it (8 of 8 > a quarter): the fusion names ``card``,
    but for the band's picture.  ``bands``: what each index frame's band
    showed (all ``NEITHER`` unless given); the first ``pictures`` of them
    showed a picture."""
    bands = bands if bands is not None else [NEITHER] * 8
    return fuse_ends_and_middle(
        [_frame(card, runner_up, band, k < pictures) for k, band in enumerate(bands)])


def fuse_ends_and_middle(index_frames: list[Reading]) -> PassFusion:
    """A pass of eight index frames: the first four of the leading index,
    four frames of the card's middle, the last four of the trailing index."""
    fusion = PassFusion(InShoeReader())
    for frame in index_frames[:4]:
        fusion.add(frame)
    for _ in range(4):
        fusion.add(Reading(None, 0.0, MIDDLE))
    for frame in index_frames[4:]:
        fusion.add(frame)
    return fusion


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (PASS_MARGIN, FRAME_MARGIN, FRAME_CORRELATION) == (8.0, 7.5, 0.42)
    assert (PICTURE_SHARE, PICTURE_FRAMES, PICTURE_W, PICTURE_H) == (0.5, 2, 0.8, 0.5)


@pytest.mark.parametrize("pictures", [4, 5, 8])
def test_a_seven_over_a_courts_picture_is_withheld(pictures: int) -> None:
    """Akronim's J read as a 7 by every frame (8 of 8 choosing 7S): 4, 5 or
    8 of the 8 bands showed a picture (>= half, >= 2) and none a top row:
    unsure, the reason counts the frames, its code is ``pips_disagree``, and
    7S stays the first guess for the dealer's confirm screen.  The
    thirty-sixth pass's fusion named it."""
    res = _pass("7S", "JS", pictures).result()
    assert res.card is None
    assert res.reason == (
        f"{BODY_PICTURE}: {pictures} of the 8 frames that saw the band below the index showed"
        " one mark across it, as a court's picture, and none showed the side pips of a 4 to a 10")
    assert res.code == "pips_disagree"
    assert res.guesses[0][0] == "7S"


def test_fewer_than_half_the_bands_showing_a_picture_is_not_enough() -> None:
    """3 of 8 bands (< half): the sum's 7S stands (10.62 >= 8)."""
    assert _pass("7S", "JS", 3).result().card == "7S"


def test_one_band_is_not_enough() -> None:
    """One band in view, showing a picture: half of the bands, but under
    ``PICTURE_FRAMES``: named."""
    bands: list[str | None] = [None] * 8
    bands[0] = NEITHER
    assert _pass("7S", "JS", 1, bands=bands).result().card == "7S"


def test_one_top_row_is_the_cards_own_word() -> None:
    """Seven pictures and, on the last index frame, the 7's side pips: the
    band showed the card's kind once, so 7S is named."""
    bands: list[str | None] = [NEITHER] * 8
    bands[7] = SIDES
    assert _pass("7S", "JS", 7, bands=bands).result().card == "7S"


@pytest.mark.parametrize(("card", "runner_up"), [("JS", "7S"), ("AS", "4S"), ("3S", "8S")])
def test_a_picture_says_nothing_against_a_court_ace_two_or_three(
        card: str, runner_up: str) -> None:
    """Eight pictures under a jack, an ace or a 3: the rule asks only of a 4
    to a 10, so the sum stands (an ace's or a 3's band has its own rules)."""
    assert _pass(card, runner_up, 8).result().card == card


def test_a_frame_sure_alone_does_not_outvote_the_picture() -> None:
    """The first frame names 7S alone (7S 0, every other card -9: a lead of
    9 >= 7.5) and the second leans to it by 3; both bands showed a picture:
    withheld all the same (the index's word against the body's)."""
    sure = np.full(len(CARD_CODES), -9.0)
    sure[CARD_CODES.index("7S")] = 0.0
    fusion = PassFusion(InShoeReader())
    fusion.add(Reading("7S", 0.9, "", evidence=sure, body_seen=True, band=NEITHER,
                       band_picture=True))
    fusion.add(_frame("7S", "JS", NEITHER, True))
    res = fusion.result()
    assert res.card is None and res.reason.startswith(BODY_PICTURE)


# -- the band: one mark across it ------------------------------------------------------


@pytest.fixture(scope="module")
def reader() -> InShoeReader:
    return InShoeReader()


def _passes(code: str, preset: str) -> list[Image]:
    renderer = InShoeRenderer("builtin", preset=preset, seed=5)
    frames = []
    for k in range(2):
        rng = np.random.default_rng(k)
        plan = renderer.plan(code, rng, lead="top" if k % 2 else "bottom")
        frames += [f.image for f in renderer.render_pass(plan, rng)]
    return frames


def _layouts(reader: InShoeReader, frames: list[Image]) -> list[tuple[str, bool]]:
    return _verdicts(reader, frames, band_layout)


@pytest.mark.parametrize("preset", ["normal", "hard"])
@pytest.mark.parametrize("code", ["JH", "QS", "KD"])
def test_a_courts_band_shows_its_picture(reader: InShoeReader, code: str, preset: str) -> None:
    """The built-in courts print their picture across the band: most frames
    that see it say so, on a clean shoe and under the hard shoe's glare."""
    seen = _layouts(reader, _passes(code, preset))
    assert len(seen) >= 4
    assert sum(picture for _, picture in seen) >= PICTURE_SHARE * len(seen)


@pytest.mark.parametrize("preset", ["normal", "hard"])
@pytest.mark.parametrize("code", ["4C", "7H", "TS"])
def test_a_number_cards_band_never_shows_a_picture(
        reader: InShoeReader, code: str, preset: str) -> None:
    """A 4's, a 7's and a 10's top row is two pips with paper between: no
    frame shows one mark across the band."""
    seen = _layouts(reader, _passes(code, preset))
    assert len(seen) >= 4
    assert not any(picture for _, picture in seen)


def test_one_mark_across_the_band_by_hand(reader: InShoeReader) -> None:
    """By hand, on frames of the built-in AC, whose band is paper: a ring (a
    picture's frame) across 90 % of the band's width and 70 % of its height
    is a picture; the same ring 60 % wide, or 30 % high, is not; two
    pip-sized marks at the band's sides are a top row, never a picture."""
    x0, y0, x1, y1 = BAND
    w, h = x1 - x0, y1 - y0
    mid, cy = (x0 + x1) / 2, (y0 + y1) / 2
    checked = 0
    for f in _passes("AC", "normal"):
        pose = find_pose(f)
        if not isinstance(pose, Pose):
            continue
        window = reader._window(f)
        if band_layout(f, pose.quad, window) is None:
            continue

        def ring(width: float, height: float, img: Image = f,
                 quad: npt.NDArray[np.float32] = pose.quad) -> Image:
            a, c = mid - width * w / 2, mid + width * w / 2
            b, d = cy - height * h / 2, cy + height * h / 2
            for side in ((a, b, c, b + 3), (a, d - 3, c, d), (a, b, a + 3, d), (c - 3, b, c, d)):
                img = _box(img, quad, side)
            return img

        assert band_layout(ring(0.9, 0.7), pose.quad, window) == (NEITHER, True)
        assert band_layout(ring(0.6, 0.7), pose.quad, window) == (NEITHER, False)
        assert band_layout(ring(0.9, 0.3), pose.quad, window) == (NEITHER, False)
        sides = _box(_box(f, pose.quad, (x0 - 12, cy - 9, x0 + 12, cy + 9)), pose.quad,
                     (x1 - 12, cy - 9, x1 + 12, cy + 9))
        assert band_layout(sides, pose.quad, window) == (SIDES, False)
        checked += 1
    assert checked >= 4
