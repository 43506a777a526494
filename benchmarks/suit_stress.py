"""Clubs against spades, and foreign signs and letters, in hands never trained on.

    .venv/bin/python benchmarks/suit_stress.py --model /tmp/new.npz

Faces from ``vision_suitdeck.styled_faces(stress=True)``: the same generator
as the training faces, but other seeds (``STRESS_SEED`` on, training uses
``(seed, 7001, k)``), every sign turned up to 10 degrees (training signs never
are) and only bold, condensed or narrow index fonts.  Each face is shown in
``--frames`` (8) simulated camera frames (normal and hard presets alternating)
and read in generic mode; a face's frames are then fused by the shipped rule
(``vision_fuse.fuse``, margin ``FUSE_MARGIN``, no accepting corner asked).
Figures: per face and per frame, right / wrong / unsure for clubs and spades,
for hearts and diamonds, and how many foreign faces (a "B" or other letter, or
a German, Swiss or Italian sign) were named as a card (each such is wrong).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from build_generic_profile import frame_of  # noqa: E402
from vision_fuse import fuse  # noqa: E402
from vision_suitdeck import styled_faces  # noqa: E402

from vision.evidence import FUSE_MARGIN  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402

#: stress faces are drawn from generators seeded STRESS_SEED + k
STRESS_SEED = 9000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--groups", type=int, default=4, help="groups of 104 faces")
    ap.add_argument("--frames", type=int, default=8, help="camera frames per face")
    ap.add_argument("--model", type=Path, default=None,
                    help="a glyph model file to read with instead of the shipped one")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if args.model is not None:
        import vision.glyph_model as gm

        gm._model = gm.load_glyph_model(args.model)
    rec = Recognizer()
    faces_tally: Counter[tuple[str, str]] = Counter()
    frames_tally: Counter[tuple[str, str]] = Counter()
    wrong: Counter[tuple[str, str]] = Counter()
    for k in range(args.groups):
        rng = np.random.default_rng(STRESS_SEED + k)
        for face, alpha, rl, sl in styled_faces(rng, stress=True):
            truth = None if "?" in (rl, sl) else rl + sl
            group = ("foreign" if truth is None else "clubs/spades" if sl in "CS"
                     else "hearts/diamonds")
            readings = []
            for i in range(args.frames):
                img = frame_of(face, alpha, rng, ("normal", "hard")[i % 2])
                r = rec.read(img)
                readings.append(r)
                what = "unsure" if r.card is None else "right" if r.card == truth else "wrong"
                frames_tally[(group, what)] += 1
            card, _ = fuse(readings, FUSE_MARGIN, accept=False)
            what = "unsure" if card is None else "right" if card == truth else "wrong"
            faces_tally[(group, what)] += 1
            if what == "wrong":
                wrong[(f"{rl}{sl}", str(card))] += 1
        print(f"group {k}: done", file=sys.stderr, flush=True)
    print(f"model: {args.model or 'shipped'}; {args.groups} groups from seed {STRESS_SEED}, "
          f"{args.frames} frames per face")
    for group in ("clubs/spades", "hearts/diamonds", "foreign"):
        for unit, tally in (("faces", faces_tally), ("frames", frames_tally)):
            n = sum(tally[(group, w)] for w in ("right", "wrong", "unsure"))
            print(f"{group:<16} {unit:<6} {n:5d}  right {tally[(group, 'right')]:5d}  "
                  f"wrong {tally[(group, 'wrong')]:4d}  unsure {tally[(group, 'unsure')]:5d}")
    print("wrong faces (truth, read):", dict(wrong.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
