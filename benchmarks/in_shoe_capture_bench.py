"""What keeping the in-shoe camera's passes costs the host (``vision.pass_capture``).

Run: ``.venv/bin/python benchmarks/in_shoe_capture_bench.py [--passes N]``.
On one OpenCV thread, over the simulated in-shoe camera's frames (``normal``
preset, passes then the empty window, as a shoe sends them), prints per frame
(median and mean, this thread's CPU time) what each choice costs, and what that is at
the camera's 120 fps in percent of one core:

* ``covered``: the covered-or-empty test every frame gets (``window_covered``);
* ``read``: the in-shoe reader's full read of one frame, which reading every
  frame as it comes would cost;
* ``decode``: decoding one MJPEG frame (what the capture already pays).

The choice: test every frame, read only the frames of the pass paired with a
CARD_OUT (once per card).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware_sim.camera import SimCamera
from hardware_sim.cards import CARD_CODES
from vision.geometry import IN_SHOE
from vision.in_shoe import InShoeReader
from vision.pass_capture import window_covered


def _cpu_ms(fn: Callable[[Any], Any], items: list[Any]) -> list[float]:
    out = []
    for item in items:
        start = time.thread_time()
        fn(item)
        out.append((time.thread_time() - start) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=20)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    cam = SimCamera("builtin", preset="normal", seed=5, mode="in_shoe")
    cam.warm_up()
    frames: list[Any] = []
    for i in range(args.passes):
        cam.show(CARD_CODES[(i * 7) % 52])
        while cam.pass_playing:
            frames.append(cam.grab())
        frames += [cam.grab() for _ in range(5)]
    frames = [f for f in frames if f is not None]
    jpegs = [cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 90])[1] for f in frames]
    reader = InShoeReader()
    rows = {
        "covered": _cpu_ms(window_covered, frames),
        "read": _cpu_ms(reader.read, frames),
        "decode": _cpu_ms(lambda j: cv2.imdecode(j, cv2.IMREAD_COLOR), jpegs),
    }
    print(f"{len(frames)} frames of {args.passes} passes; CPU ms per frame, one thread")
    for name, ms in rows.items():
        med, mean = statistics.median(ms), statistics.fmean(ms)
        print(
            f"  {name:8s} median {med:5.2f} ms, mean {mean:5.2f} ms;  at {IN_SHOE.fps:g} "
            f"fps (mean): {mean * IN_SHOE.fps / 10:4.1f} % of a core"
        )


if __name__ == "__main__":
    main()
