"""Put convolutional glyph readers into a glyph model file, each mixed at a weight.

    .venv/bin/python benchmarks/add_glyph_cnn.py vision/data/glyph_model.npz \\
        --rank /tmp/rank_cnn.onnx --weight 0.5 [--suit /tmp/suit_cnn.onnx \\
        --suit-weight 0.5] --out /tmp/with_cnn.npz

The result is the first file with ``rank_cnn`` (the ONNX network of
``train_glyph_cnn.py``) and ``cnn_weight``: a corner's rank logits become
``(1 - weight)`` times the perceptron's plus ``weight`` times the network's
(``vision.glyph_model.GlyphModel.rank_probs``); likewise the suit with
``--suit`` (``suit_probs``).  The perceptrons and the thresholds are the first
file's.  Before writing, OpenCV must load each network and give one row of
finite logits per class for a batch of glyph squares.
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


def _network(paths: list[Path], classes: str) -> GlyphCnn:
    probe = np.random.default_rng(0).random((5, SIDE, SIDE)).astype(np.float32)
    for path in paths:
        out = GlyphCnn(path.read_bytes(), classes).logits(probe)
        if out.shape != (5, len(classes)) or not np.all(np.isfinite(out)):
            raise SystemExit(f"{path} gives logits of shape {out.shape}, "
                             f"not one per class of {classes!r}")
    return GlyphCnn([p.read_bytes() for p in paths], classes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", type=Path, help="the glyph model file (perceptrons, thresholds)")
    ap.add_argument("--rank", type=Path, nargs="+",
                    help="the rank network (train_glyph_cnn.py --out), or several trained "
                    "apart whose logits are averaged")
    ap.add_argument("--weight", type=float, default=1.0,
                    help="the rank network's share of the logits (default: %(default)s)")
    ap.add_argument("--suit", type=Path, nargs="+",
                    help="the suit network (train_glyph_cnn.py --task suit), or several")
    ap.add_argument("--suit-weight", type=float, default=1.0,
                    help="the suit network's share of the logits (default: %(default)s)")
    ap.add_argument("--agree", action="store_true",
                    help="mix a network in only where it names the perceptron's class")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    if not (0 < args.weight <= 1 and 0 < args.suit_weight <= 1):
        raise SystemExit("a weight must be above 0 and at most 1")
    if args.rank is None and args.suit is None:
        raise SystemExit("give --rank, --suit or both")
    model = load_glyph_model(args.model)
    if args.rank is not None:
        model = replace(model, rank_cnn=_network(args.rank, model.rank.classes),
                        cnn_weight=args.weight)
    if args.suit is not None:
        model = replace(model, suit_cnn=_network(args.suit, model.suit.classes),
                        suit_cnn_weight=args.suit_weight)
    replace(model, cnn_agree=args.agree).save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
