"""Layout decks with a printed outline (``hardware_sim.cards.layouts.OUTLINES``):
calibration, then one overhead frame per card read with the profile and
generically (docs/vision.md, "Tenth pass").

    PYTHONPATH=. .venv/bin/python benchmarks/outline_decks.py              # duplex (validation)
    PYTHONPATH=. .venv/bin/python benchmarks/outline_decks.py --styles classic,modern

Per deck: the cards calibration refuses (and why), then per mode and preset
the frames read right, wrong (listed) and unsure.  Frames are seeded per
layout, so a run with the code before a change reads the same pixels.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parent.parent))

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES
from hardware_sim.cards.layouts import OUTLINES, LayoutDeck
from vision.calibrate import calibrate_images
from vision.profile import DeckProfile, ProfileError
from vision.recognizer import Recognizer


def deck_figures(style: str, layout: str) -> None:
    deck = LayoutDeck(style, layout)
    profile: DeckProfile | None = None
    try:
        profile = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name=layout)
        print(f"{style:8s} {layout:14s} calibration accepted")
    except ProfileError as exc:
        print(f"{style:8s} {layout:14s} calibration REFUSED: {exc}")
    readers = [("generic", Recognizer())]
    if profile is not None:
        readers.append(("profile", Recognizer(profile)))
    for mode, rec in readers:
        for preset in ("normal", "hard"):
            rng = np.random.default_rng((18, 39, len(layout)))
            counts: Counter[str] = Counter()
            wrong = []
            for code in CARD_CODES:
                card = rec.read(make_frame(deck, code, rng, preset=preset).image).card
                kind = "right" if card == code else "unsure" if card is None else "wrong"
                counts[kind] += 1
                if kind == "wrong":
                    wrong.append(f"{code}->{card}")
            print(f"{style:8s} {layout:14s} {mode:8s} {preset:6s} right {counts['right']:2d} "
                  f"wrong {counts['wrong']} unsure {counts['unsure']:2d} {' '.join(wrong)}",
                  flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--styles", default="duplex", help="comma-separated built-in styles")
    ap.add_argument("--layouts", default=",".join(OUTLINES), help="comma-separated layouts")
    args = ap.parse_args()
    for style in args.styles.split(","):
        for layout in args.layouts.split(","):
            deck_figures(style, layout)


if __name__ == "__main__":
    main()
