"""The overhead camera's ``harsh`` preset (a stress preset for the fused
reader, ``benchmarks/overhead_stress.py``): a camera further over the table,
so the card is smaller in the frame, and MJPEG always.  Expected figures come
from the preset's stated ranges: the card's height 0.3-0.55 of the 480-pixel
frame (144-264 px, before a tilt of up to 30 degrees foreshortens or
stretches it a little), every shot JPEG-compressed at quality 20-55."""

from __future__ import annotations

import numpy as np

from hardware_sim.camera.frames import PRESETS, sample_scene


def test_harsh_cards_are_smaller_than_hard_ones() -> None:
    """Over 200 shots the card's long side stays within 144-264 px give or take
    the tilt (a pinhole 1.2 x 640 px away, a card tilted 30 degrees: at most
    about 15 % either way, so 120-310 px), while ``hard`` reaches 0.8 x 480 = 384 px."""
    rng = np.random.default_rng(3)
    sides = []
    for _ in range(200):
        s = sample_scene(rng, preset="harsh")
        assert s.corners is not None
        q = s.corners.astype(np.float64)
        sides.append(max(np.linalg.norm(q[i] - q[(i + 1) % 4]) for i in range(4)))
    assert min(sides) >= 120 and max(sides) <= 310
    assert PRESETS["hard"].scale[1] * 480 == 384.0
    assert PRESETS["harsh"].scale == (0.3, 0.55)


def test_harsh_shots_are_always_compressed_hard() -> None:
    rng = np.random.default_rng(4)
    qualities = [sample_scene(rng, preset="harsh").jpeg_quality for _ in range(100)]
    assert all(q is not None and 20 <= q <= 55 for q in qualities)
