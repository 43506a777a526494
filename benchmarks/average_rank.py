"""Average the rank classifiers of two glyph model files (an ensemble as one file).

    .venv/bin/python benchmarks/average_rank.py vision/data/glyph_model.npz /tmp/extra.npz \\
        --out /tmp/averaged.npz

The rank classifier of the result averages the two files' rank logits, as
``build_generic_profile.merge`` averages the members of one build: one
perceptron whose hidden layer is both hidden layers side by side and whose
output weights are each half.  The two files standardise their input
differently (each its own training rows), so the second one's standardisation
is folded into its first layer: with ``z_a = (x - m_a) * s_a``,
``(x - m_b) * s_b = z_a * (s_b / s_a) + (m_a - m_b) * s_b``, so its weights
become ``diag(s_b / s_a) @ w1_b`` and its biases gain ``((m_a - m_b) * s_b) @ w1_b``.
The suit classifier and the thresholds are the first file's (tune them again
with ``vision_tune.py --model``).  Why: docs/vision.md, "Fifteenth pass".
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent)]

from vision.glyph_model import GlyphModel, Mlp, load_glyph_model  # noqa: E402


def average(a: Mlp, b: Mlp, weight: float = 0.5) -> Mlp:
    """One perceptron whose logits are ``(1 - weight)`` times ``a``'s plus
    ``weight`` times ``b``'s (the mean at 0.5; 1/3 adds a third member to a
    file that already averages two)."""
    if a.classes != b.classes or a.mean.shape != b.mean.shape:
        raise SystemExit("the two rank classifiers do not have the same classes and features")
    if not np.all(a.scale != 0):
        raise SystemExit("the first file's scale has zeros: cannot fold the second into it")
    ratio = (b.scale / a.scale).astype(np.float64)
    w1_b = b.w1.astype(np.float64)
    w1 = ratio[:, None] * w1_b
    b1 = b.b1.astype(np.float64) + ((a.mean - b.mean).astype(np.float64) * b.scale) @ w1_b
    return Mlp(a.classes, a.mean, a.scale,
               np.concatenate([a.w1, w1.astype(np.float32)], axis=1),
               np.concatenate([a.b1, b1.astype(np.float32)]),
               np.asarray(np.concatenate([a.w2 * (1 - weight), b.w2 * weight], axis=0),
                          np.float32),
               np.asarray(a.b2 * (1 - weight) + b.b2 * weight, np.float32))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("first", type=Path, help="suit classifier and thresholds come from here")
    ap.add_argument("second", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--weight", type=float, default=0.5,
                    help="the second file's share of the logits (default: %(default)s)")
    args = ap.parse_args(argv)
    if not 0 < args.weight < 1:
        raise SystemExit("--weight must be between 0 and 1")
    a, b = load_glyph_model(args.first), load_glyph_model(args.second)
    model = GlyphModel(average(a.rank, b.rank, args.weight), a.suit, a.min_rank_prob,
                       a.min_suit_prob)
    model.save(args.out)
    # the file keeps its weights in float16: how far its logits are from the exact mean
    rng = np.random.default_rng(0)
    x = a.rank.mean + rng.standard_normal((512, a.rank.mean.size)).astype(np.float32) / a.rank.scale
    exact = (1 - args.weight) * a.rank.logits(x) + args.weight * b.rank.logits(x)
    saved = load_glyph_model(args.out).rank.logits(x)
    print(f"wrote {args.out}; largest logit difference from the exact average on 512 "
          f"random inputs: {float(np.abs(saved - exact).max()):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
