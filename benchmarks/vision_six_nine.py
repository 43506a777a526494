"""6 and 9 told apart: wrong reads of sixes and nines with and without the
index-geometry check (``vision.recognizer._six_or_nine``).

    .venv/bin/python benchmarks/vision_six_nine.py --frames 160

Only sixes and nines, on hard-preset frames at any angle (so about half the
cards lie upside down), in designs whose 6 and 9 are near half-turns of each
other: the built-in renderer's Hershey fonts and several gnome-cards-data
designs.  Each frame is read twice by the same recogniser, once with the
geometry check switched off; both generic and with the design's calibrated
profile.  Prints right / wrong / unsure per mode and the confusions.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision_split import open_design  # noqa: E402

import vision.recognizer as recognizer  # noqa: E402
from hardware_sim.camera import make_frame  # noqa: E402
from hardware_sim.cards import CARD_CODES  # noqa: E402
from vision.calibrate import calibrate_images  # noqa: E402
from vision.profile import ProfileError  # noqa: E402

DESIGNS = ("builtin:classic", "builtin:modern", "builtin:duplex", "builtin:four_color",
           "anglo", "simplistic", "tigullio", "dondorf", "anglo_poker", "tango")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=80, help="frames per design")
    ap.add_argument("--preset", default="hard")
    ap.add_argument("--designs", default=",".join(DESIGNS))
    ap.add_argument("--seed", type=int, default=69)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    check = recognizer._six_or_nine
    tally: Counter[tuple[str, str, str]] = Counter()
    wrong: Counter[tuple[str, str, str, str]] = Counter()
    generic = recognizer.Recognizer()
    for name in args.designs.split(","):
        deck = open_design(name)
        readers = [("generic", generic)]
        try:
            prof = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name=name)
            readers.append(("profile", recognizer.Recognizer(prof)))
        except ProfileError as exc:
            print(f"{name}: calibration refused: {exc}")
        rng = np.random.default_rng([args.seed, len(name)])
        for i in range(args.frames):
            code = "69"[i % 2] + "CDHS"[(i // 2) % 4]
            image = make_frame(deck, code, rng, preset=args.preset).image
            for geometry in ("without", "with"):
                recognizer._six_or_nine = (
                    check if geometry == "with" else lambda pr, classes, g: (pr, False))
                for mode, rec in readers:
                    card = rec.read(image).card
                    what = "right" if card == code else "unsure" if card is None else "wrong"
                    tally[(geometry, mode, what)] += 1
                    if what == "wrong":
                        wrong[(geometry, mode, code, str(card))] += 1
        recognizer._six_or_nine = check
        print(f"{name}: done", flush=True)
    for geometry in ("without", "with"):
        for mode in ("generic", "profile"):
            n = sum(tally[(geometry, mode, w)] for w in ("right", "wrong", "unsure"))
            print(f"{geometry:>7} geometry, {mode:<8} frames {n:5d}  "
                  + "  ".join(f"{w} {tally[(geometry, mode, w)]:4d}"
                              for w in ("right", "wrong", "unsure")))
    print("wrong reads:", dict(wrong))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
