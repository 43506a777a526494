"""The in-shoe band's ink, computed faster, is what numpy computed before
(``vision.in_shoe_body``; docs/vision.md, thirty-first pass).

The band's paper level used to be ``np.percentile`` of the strip's darkest
channel, that channel numpy's ``min(axis=2)``: a millisecond of the slowest
frames.  Both are now taken from OpenCV and a histogram, and must give the
same bits, since every reading of the table depends on them.  The reference
here is numpy itself, on arrays drawn to reach every branch of the fast
path, and on real in-shoe frames of two designs in two shoes."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from hardware_sim.camera.in_shoe import InShoeRenderer
from vision.in_shoe import InShoeReader
from vision.in_shoe_body import (
    BAND,
    INK_CONTRAST,
    PAPER_PERCENTILE,
    band_ink_of,
    end_strip,
    paper_level,
)
from vision.in_shoe_pose import Pose, find_pose


def _numpy_level(grey: npt.NDArray[np.uint8]) -> float:
    return float(np.percentile(grey.astype(np.float32), PAPER_PERCENTILE))


def _numpy_ink(strip: npt.NDArray[np.uint8], scale: float) -> npt.NDArray[np.bool_] | None:
    """The band's ink as the code before the thirty-first pass computed it."""
    grey = strip.min(axis=2).astype(np.float32)
    paper = float(np.percentile(grey, PAPER_PERCENTILE))
    if paper <= 0:
        return None
    c0, r0, c1, r1 = (round(v * scale) for v in BAND)
    out: npt.NDArray[np.bool_] = (paper - grey[r0:r1, c0:c1]) / paper > INK_CONTRAST
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 4, 8, 10, 11, 14, 21, 25, 31, 4800, 19200])
def test_the_paper_level_between_two_different_values_is_numpys(n: int) -> None:
    # distinct values: the two order statistics numpy interpolates between
    # always differ, so its weight (the fraction of 0.95 * (n - 1): 0 for
    # n = 21, below a half for n = 14, a half for n = 11 and 31, above it
    # for n = 2, 8 and 25) decides the bits, through both of numpy's formulas
    # (which differ in float32: 0 and 13 at a weight of 0.95 give 12.350000381
    # from the far end, 12.349999428 from the near one)
    rng = np.random.default_rng(n)
    values = rng.permutation(np.arange(n) * 13 % 256).astype(np.uint8)
    for shape in ((1, n), (n, 1)):
        grey = np.ascontiguousarray(values.reshape(shape))
        assert paper_level(grey) == _numpy_level(grey)


def test_the_paper_level_of_many_drawn_bands_is_numpys() -> None:
    rng = np.random.default_rng(31)
    for i in range(3000):
        n = int(rng.integers(1, 2000))
        kind = i % 5
        if kind == 0:
            a = rng.integers(0, 256, n)
        elif kind == 1:
            a = rng.integers(200, 203, n)  # paper of one level, or nearly
        elif kind == 2:  # mostly ink, some paper: the percentile among the paper
            a = np.where(rng.random(n) < 0.9, rng.integers(0, 60, n), rng.integers(180, 256, n))
        elif kind == 3:
            a = rng.integers(0, 4, n) * 60  # a few far-apart levels
        else:
            a = np.clip(rng.normal(200, 30, n), 0, 255)
        grey = np.ascontiguousarray(a.astype(np.uint8).reshape(1, n))
        assert paper_level(grey) == _numpy_level(grey), (i, n)


def test_an_all_black_strip_has_no_paper() -> None:
    strip = np.zeros((48, 100, 3), np.uint8)
    assert paper_level(strip[..., 0].copy()) == 0.0
    assert band_ink_of(strip, 0.5) is None and _numpy_ink(strip, 0.5) is None


@pytest.mark.parametrize("design", ["builtin", "anglo"])
@pytest.mark.parametrize("preset", ["normal", "hard"])
def test_the_band_ink_of_real_frames_is_what_numpy_computed(design: str, preset: str) -> None:
    reader = InShoeReader()
    renderer = InShoeRenderer(design, preset=preset, seed=3)
    rng = np.random.default_rng(7)
    compared = 0
    for code in ("KS", "7H", "AD", "2C"):
        plan = renderer.plan(code, rng)
        for f in renderer.render_pass(plan, rng):
            pose = find_pose(f.image)
            if not isinstance(pose, Pose):
                continue
            for scale in (0.5, 1.0):
                strip = end_strip(f.image, pose.quad, reader._window(f.image), scale)
                if strip is None:
                    continue
                fast, slow = band_ink_of(strip, scale), _numpy_ink(strip, scale)
                assert fast is not None and slow is not None
                assert np.array_equal(fast, slow)
                compared += 1
    assert compared >= 20, compared
