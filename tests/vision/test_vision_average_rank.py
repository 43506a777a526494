"""``benchmarks/average_rank.py`` writes the shipped kind of model file: one
wider perceptron whose logits are the mean of two perceptrons that standardise
their input differently.  The reference is the two networks run apart and
their logits averaged by hand, on random inputs."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np

from vision.glyph_model import Mlp

ROOT = Path(__file__).resolve().parents[2]
#: the benchmark script's ``average``, run as a file (its ``main`` is not called)
average = runpy.run_path(str(ROOT / "benchmarks" / "average_rank.py"))["average"]


def _mlp(rng: np.random.Generator, features: int, hidden: int, classes: str) -> Mlp:
    def f32(*shape: int, scale: float = 1.0, shift: float = 0.0) -> np.ndarray:
        return (rng.standard_normal(shape) * scale + shift).astype(np.float32)

    return Mlp(classes, f32(features, scale=2.0), np.abs(f32(features)) + 0.1,
               f32(features, hidden, scale=0.3), f32(hidden), f32(hidden, len(classes)),
               f32(len(classes)))


def test_the_averaged_network_gives_the_mean_of_the_two_networks_logits() -> None:
    rng = np.random.default_rng(5)
    a, b = _mlp(rng, 12, 6, "ABC?"), _mlp(rng, 12, 4, "ABC?")
    merged = average(a, b)
    x = rng.standard_normal((50, 12)).astype(np.float32) * 3
    expected = (a.logits(x) + b.logits(x)) / 2
    assert merged.w1.shape == (12, 10) and merged.w2.shape == (10, 4)
    np.testing.assert_allclose(merged.logits(x), expected, rtol=1e-4, atol=1e-4)
    # and it is not simply either network
    assert np.abs(merged.logits(x) - a.logits(x)).max() > 0.1


def test_a_weighted_average_gives_each_network_its_share() -> None:
    # a file averaging two networks, and a third at weight 1/3: each of the
    # three counts a third (worked out: (1 - 1/3) * (a + b) / 2 + c / 3)
    rng = np.random.default_rng(6)
    a, b, c = (_mlp(rng, 9, h, "AB?") for h in (5, 3, 4))
    three = average(average(a, b), c, 1 / 3)
    x = rng.standard_normal((40, 9)).astype(np.float32) * 3
    expected = (a.logits(x) + b.logits(x) + c.logits(x)) / 3
    assert three.w1.shape == (9, 12)
    np.testing.assert_allclose(three.logits(x), expected, rtol=1e-4, atol=1e-4)
