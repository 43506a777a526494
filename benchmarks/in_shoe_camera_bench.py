"""How fast the simulated in-shoe camera renders a card's pass (20-60 frames).

Run: ``.venv/bin/python benchmarks/in_shoe_camera_bench.py [--passes N] [--deck NAME]``.
For each preset, on one OpenCV thread, prints the median and 90th percentile
per frame that shows the card (wall clock and this thread's CPU time: the
second is the fairer figure on a busy machine), per frame of the empty window,
and per whole pass, for a shoe whose camera sends raw frames and one that
sends MJPEG.  The faces are rendered before timing (``warm_up``), as the table
simulation does; preparing a face at 9 px/mm for a pass is counted in the pass.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware_sim.camera.in_shoe import SHOE_PRESETS, InShoeCamera
from hardware_sim.cards import CARD_CODES


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=40)
    ap.add_argument("--deck", default="builtin")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    for name, preset in SHOE_PRESETS.items():
        for jpeg in (0.0, 1.0):
            cam = InShoeCamera(args.deck, preset=dataclasses.replace(preset, jpeg=jpeg), seed=1)
            cam.warm_up()
            wall, cpu, empty, passes, frames = [], [], [], [], 0
            for i in range(args.passes):
                cam.show(CARD_CODES[i % 52])
                start = time.thread_time()
                while True:
                    t, c = time.perf_counter(), time.thread_time()
                    f = cam.grab()
                    dt, dc = time.perf_counter() - t, time.thread_time() - c
                    if f is None or f.code is None:
                        break
                    frames += 1
                    if f.card_in_view:
                        wall.append(dt)
                        cpu.append(dc)
                    else:
                        empty.append(dc)
                passes.append(time.thread_time() - start)
            ms = 1e3
            print(f"{name:6s} {'mjpeg' if jpeg else 'raw  '}  card frame: median "
                  f"{np.median(wall) * ms:5.2f} ms wall, {np.median(cpu) * ms:5.2f} ms CPU "
                  f"(p90 {np.percentile(cpu, 90) * ms:5.2f})   empty window "
                  f"{np.median(empty) * ms:5.2f} ms CPU   pass {np.median(passes) * ms:6.1f} ms "
                  f"CPU ({frames / args.passes:.0f} frames)")


if __name__ == "__main__":
    main()
