"""How fast the simulated camera makes frames (the soak test renders one per dealt card).

Run: ``.venv/bin/python benchmarks/camera_bench.py [--frames N] [--deck NAME]``.
Prints milliseconds per frame for each preset and size, for a fresh shot
(``make_frame``: placement, compositing, effects, noise, JPEG), for a card shown
to the simulated camera and grabbed (``SimCamera.show`` then ``grab``:
placement, composing around the card on the room's backdrop, the shot's JPEG
once, noise) and for a repeated grab of a card at rest (``SimCamera.grab``:
fresh noise only), and how long building a deck's faces takes. Target: a few
ms per 640x480 frame for the clean and normal presets.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware_sim.camera import PRESETS, SimCamera, make_frame
from hardware_sim.cards import CARD_CODES, open_deck


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--deck", default="builtin")
    args = ap.parse_args()

    t = time.perf_counter()
    deck = open_deck(args.deck)
    for code in CARD_CODES:
        deck.face(code)
    print(f"deck {args.deck}: 52 faces ready in {time.perf_counter() - t:.2f} s")

    codes = [CARD_CODES[i % 52] for i in range(args.frames)]
    for size in [(640, 480), (1280, 720), (1920, 1080)]:
        for preset in PRESETS:
            rng = np.random.default_rng(0)
            make_frame(deck, "AS", rng, preset=preset, size=size)  # warm the caches
            n = args.frames if size == (640, 480) else max(20, args.frames // 5)
            t = time.perf_counter()
            for code in codes[:n]:
                make_frame(deck, code, rng, preset=preset, size=size)
            fresh = (time.perf_counter() - t) / n * 1e3
            cam = SimCamera(deck, preset=preset, seed=0, size=size, mode="overhead")
            cam.warm_up()
            t = time.perf_counter()
            for code in codes[:n]:
                cam.show(code)
                cam.grab()
            shown = (time.perf_counter() - t) / n * 1e3
            t = time.perf_counter()
            for _ in range(n):
                cam.grab()
            again = (time.perf_counter() - t) / n * 1e3
            print(f"{size[0]}x{size[1]} {preset:6s}  new shot {fresh:6.2f} ms/frame   "
                  f"SimCamera: card shown {shown:6.2f} ms, grab of a card at rest "
                  f"{again:6.2f} ms/frame")


if __name__ == "__main__":
    main()
