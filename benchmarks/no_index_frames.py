"""Frames whose index the splitter finds nowhere (``no_index``), kept and read again.

    .venv/bin/python benchmarks/no_index_frames.py collect --designs \
        "font:PT Sans Narrow,font:DejaVu Sans Light" --seeds 20 --out /tmp/noidx.pkl
    .venv/bin/python benchmarks/no_index_frames.py reread /tmp/noidx.pkl --last-tries

``collect`` shows each card of each design to the simulated overhead camera
(``SimCamera``, preset ``hard``, 12 frames a card, the seeds ``vision_fuse.py``
uses for a design) and keeps the four corner patches of every frame the
reader calls ``no_index``, with the card's code.  ``reread`` reads those
patches again with the code as it stands (both index corners, then the other
two, as ``card_corners`` does; no body witness) and counts them right,
unsure, wrong and still without an index, naming every wrong one.  The
twelfth pass (docs/vision.md) found its two causes with it.  Only training
and validation designs and training font faces are accepted: a kept-out or
held-out deck's frames are not to be looked at.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision_fontdeck import FONTS, MORE_FONTS  # noqa: E402
from vision_split import TUNING, open_design, standard_codes  # noqa: E402

from hardware_sim.camera import SimCamera  # noqa: E402
from vision import index  # noqa: E402
from vision.detect import find_card  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402

#: the font decks of the training faces (``vision_fontdeck``), upright ones
TRAINING_FONT_DECKS = tuple(
    f"font:{st.family}{'/bold' if st.weight == 'bold' else ''}"
    for st in FONTS + MORE_FONTS if not st.italic
)


def allowed(name: str) -> bool:
    return name in TUNING or name in TRAINING_FONT_DECKS


def collect(designs: list[str], seeds: list[int]) -> list[dict[str, object]]:
    rec = Recognizer()
    kept: list[dict[str, object]] = []
    for seed in seeds:
        for name in designs:
            cam = SimCamera(open_design(name), preset="hard", seed=seed + len(name),
                            mode="overhead")
            lost = 0
            for code in standard_codes(name):
                cam.show(code)
                for _ in range(12):
                    frame = cam.grab()
                    if frame is None or rec.read(frame).code != "no_index":
                        continue
                    src = np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA), np.uint8)
                    det = find_card(src)
                    if det is None:
                        continue
                    lost += 1
                    kept.append({"design": name, "seed": seed, "code": code,
                                 "patches": [index.corner_patch(src, det.quad, k)
                                             for k in index.CORNERS]})
            print(f"{name} seed {seed}: {lost} frames without an index", flush=True)
    return kept


def reread(kept: list[dict[str, object]]) -> Counter[str]:
    rec = Recognizer(body=False)
    tally: Counter[str] = Counter()
    for x in kept:
        patches = x["patches"]
        assert isinstance(patches, list)
        found = [index.read_corner(patches[k], k) for k in (0, 1)]
        if not any(g is not None and not g.last_try for g in found):  # as card_corners
            found += [index.read_corner(patches[k], k) for k in (2, 3)]
        r = rec.decide(iter(found))
        what = ("no index" if r.code == "no_index" else "right" if r.card == x["code"]
                else "unsure" if r.card is None else "wrong")
        tally[what] += 1
        if what == "wrong":
            print(f"wrong: {x['design']} seed {x['seed']} {x['code']} -> {r.card}")
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--designs", required=True, help="comma-separated")
    c.add_argument("--seeds", default="20", help="comma-separated")
    c.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("reread")
    r.add_argument("kept", type=Path)
    r.add_argument("--last-tries", action="store_true",
                   help="with vision.index.LAST_TRIES on (on as shipped since the "
                        "thirteenth pass; without this flag, off)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if args.what == "collect":
        designs = args.designs.split(",")
        refused = [d for d in designs if not allowed(d)]
        if refused:
            print(f"not a training or validation design: {', '.join(refused)}")
            return 2
        kept = collect(designs, [int(s) for s in args.seeds.split(",")])
        with args.out.open("wb") as fh:
            pickle.dump(kept, fh)
        print(f"kept {len(kept)} frames in {args.out}")
        return 0
    index.LAST_TRIES = args.last_tries
    with args.kept.open("rb") as fh:
        kept = pickle.load(fh)
    tally = reread(kept)
    print(f"{len(kept)} frames: " + ", ".join(f"{k} {tally[k]}" for k in
                                              ("right", "unsure", "wrong", "no index")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
