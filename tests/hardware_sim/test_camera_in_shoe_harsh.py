"""The in-shoe camera's ``harsh`` preset (a stress test of the reader): a
longer exposure smears a moving card more, and a frame sampled at less than
the geometry's px/mm keeps its size but loses detail.  Expected figures are
worked out by hand from ``vision/geometry.py`` (9 px/mm, 0.2 ms exposure,
640 x 480 frames) and the preset's own fields."""

from __future__ import annotations

import numpy as np
import pytest

from hardware_sim.camera.in_shoe import SHOE_PRESETS, InShoeRenderer, PassPlan, ShoeEffects


def _plan(speed: float = 500.0) -> PassPlan:
    return PassPlan("QH", lead="bottom", speed_mm_s=speed, speed_change=0.0, play_mm=0.0,
                    rotation_deg=0.0, lead_in=0, phase=0.5)


def test_the_exposure_sets_the_motion_blur() -> None:
    """At 500 mm/s: 0.2 ms (the geometry's) x 500 mm/s = 0.1 mm = 0.9 px; the
    harsh preset's 0.4 ms gives 0.2 mm = 1.8 px."""
    rng = np.random.default_rng(0)
    normal = InShoeRenderer("builtin", preset="normal", seed=1)
    harsh = InShoeRenderer("builtin", preset="harsh", seed=1)
    f_n = normal.render(_plan(), 40.0, 500.0, rng)
    f_h = harsh.render(_plan(), 40.0, 500.0, rng)
    assert f_n.blur_px == pytest.approx(0.9)
    assert f_h.blur_px == pytest.approx(1.8)


def test_less_sharpness_keeps_the_frame_but_loses_detail() -> None:
    """A one-pixel checkerboard (values 0 and 200, no noise, no JPEG) sampled
    at 0.5 of the frame's density: each 2 x 2 block averages to 100 (INTER_AREA),
    and scaled back up it is flat 100 everywhere: the frame keeps its 480 x 640
    x 3 shape, the pattern is gone."""
    fx = ShoeEffects(noise=(0.0, 0.0), jpeg=0.0, sharpness=0.5)
    r = InShoeRenderer("builtin", preset=fx, seed=1)
    board = ((np.indices((480, 640)).sum(axis=0) % 2) * 200).astype(np.uint8)
    image = np.repeat(board[..., None], 3, axis=2)
    out = r._expose(image, np.random.default_rng(0))
    assert out.shape == (480, 640, 3)
    assert int(out.min()) == int(out.max()) == 100
    sharp = InShoeRenderer("builtin", preset=ShoeEffects(noise=(0.0, 0.0), jpeg=0.0), seed=1)
    assert np.array_equal(sharp._expose(image, np.random.default_rng(0)), image)


def test_the_harsh_preset_is_worse_than_hard_in_every_range() -> None:
    """What the preset says it is (docs/hardware.md): less light, more glare,
    dust, blur, noise and compression than ``hard``, more play."""
    hard, harsh = SHOE_PRESETS["hard"], SHOE_PRESETS["harsh"]
    assert harsh.light_gain[1] < hard.light_gain[1]
    assert harsh.glare[0] >= hard.glare[0] and harsh.dust[0] >= hard.dust[0]
    assert harsh.focus[0] > hard.focus[0] and harsh.noise[0] > hard.noise[0]
    assert harsh.jpeg == 1.0 and harsh.jpeg_quality[1] < hard.jpeg_quality[1]
    assert harsh.exposure_ms == 0.4 and harsh.sharpness == 0.75 and harsh.play == 1.25
