"""Put a convolutional rank reader into a glyph model file, mixed at a weight.

    .venv/bin/python benchmarks/add_rank_cnn.py vision/data/glyph_model.npz \\
        /tmp/rank_cnn.onnx --weight 0.5 --out /tmp/with_cnn.npz

The result is the first file with ``rank_cnn`` (the ONNX network of
``train_glyph_cnn.py``) and ``cnn_weight``: a corner's rank logits become
``(1 - weight)`` times the perceptron's plus ``weight`` times the network's
(``vision.glyph_model.GlyphModel.rank_probs``).  The suit classifier and the
thresholds are the first file's.  Before writing, OpenCV must load the network
and give one row of finite logits per class for a batch of glyph squares.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent)]

from vision.glyph_cnn import GlyphCnn  # noqa: E402
from vision.glyph_model import SIDE, load_glyph_model  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", type=Path, help="the glyph model file (perceptrons, thresholds)")
    ap.add_argument("onnx", type=Path, help="the rank network (train_glyph_cnn.py --out)")
    ap.add_argument("--weight", type=float, required=True, help="the network's share of the logits")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    if not 0 < args.weight <= 1:
        raise SystemExit("--weight must be above 0 and at most 1")
    model = load_glyph_model(args.model)
    cnn = GlyphCnn(args.onnx.read_bytes(), model.rank.classes)
    probe = np.random.default_rng(0).random((5, SIDE, SIDE)).astype(np.float32)
    out = cnn.logits(probe)
    if out.shape != (5, len(model.rank.classes)) or not np.all(np.isfinite(out)):
        raise SystemExit(f"{args.onnx} gives logits of shape {out.shape}, "
                         f"not one per class of {model.rank.classes!r}")
    replace(model, rank_cnn=cnn, cnn_weight=args.weight).save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
