"""Whether the empty places' test (``vision.empty_places.blank_at``) ever takes
a pip the camera lost for paper, and how often it rules out a card with more
pips: development data only.

    .venv/bin/python benchmarks/empty_places_safety.py --designs anglo,paris
    .venv/bin/python benchmarks/empty_places_safety.py --designs 'font:Limelight' --read-groups

Every number card of each design (3 to 10: an array needs three pips) is
drawn ``--frames`` times as a hard overhead frame (``make_frame``) and
``--frames`` times more with a strong glare spot centred on one of the
card's own pips (where the deck's calibration found them), so that pips are
lost under glare far more often than on a table.  Each frame is read with
the deck's profile, and the body's rulings by clean paper (the empty
places, profile mode, and a two by its empty middle) are recorded: a frame
whose own card they rule out is a failure of the test, a frame where they
rule out a card with more pips is what the test is for.  ``--old`` reads
with the test as it was before the thirty-second pass (any one pixel at
``GLARE`` or brighter was glare), for the before/after of docs/vision.md.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from glare_on_pips import calibrated, design_rng, glare_on, safety_options  # noqa: E402
from vision_split import open_design, refuse_held_out  # noqa: E402

import vision.empty_places as empty_places  # noqa: E402
import vision.recognizer as recognizer  # noqa: E402
from hardware_sim.camera.frames import render_scene, sample_scene  # noqa: E402
from hardware_sim.cards import CARD_CODES  # noqa: E402
from vision.pips import RULED_OUT, BodyReading  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402

NUMBER_CARDS = [c for c in CARD_CODES if c[0] in "3456789T"]


def old_glare_in(raw: npt.NDArray[np.uint8], paper: float) -> bool:
    """The test before the thirty-second pass: any one pixel at ``GLARE``."""
    return int(raw.max()) >= empty_places.GLARE


def main(argv: list[str] | None = None) -> int:
    ap = safety_options(__doc__.split("\n\n")[0], seed=32)
    ap.add_argument("--old", action="store_true", help="read with the old glare test")
    ap.add_argument("--lift", type=float, default=None,
                    help="read with this GLARE_LIFT instead of the shipped one (development)")
    ap.add_argument("--dump", type=Path, default=None,
                    help="write each frame whose own card was ruled out here (PNG)")
    args = ap.parse_args(argv)
    designs = tuple(args.designs.split(","))
    refuse_held_out(designs, read_groups=args.read_groups)
    cv2.setNumThreads(1)
    if args.old:
        empty_places.glare_in = old_glare_in
    if args.lift is not None:
        empty_places.GLARE_LIFT = args.lift
    # what the rulings by clean paper took away, frame by frame
    taken: list[set[str]] = []
    by_places = empty_places.rule_out_by_empty_places
    by_middle = empty_places.rule_out_three_by_empty_middle

    def ruled(before: BodyReading, after: BodyReading) -> set[str]:
        return {c for c, a, b in zip(CARD_CODES, after.evidence, before.evidence, strict=True)
                if a <= RULED_OUT < b}

    def spy_places(body: BodyReading, *a: Any) -> BodyReading:
        out = by_places(body, *a)
        taken[-1] |= ruled(body, out)
        return out

    def spy_middle(body: BodyReading, *a: Any) -> BodyReading:
        out = by_middle(body, *a)
        taken[-1] |= ruled(body, out)
        return out

    # (the recognizer calls them by the names it imported)
    recognizer.rule_out_by_empty_places = spy_places  # type: ignore[attr-defined,assignment]
    recognizer.rule_out_three_by_empty_middle = spy_middle  # type: ignore[attr-defined,assignment]
    tally: Counter[tuple[str, str]] = Counter()
    own: list[tuple[str, str, str, int]] = []
    for name in designs:
        deck = open_design(name)
        prof = calibrated(deck, name)
        if prof is None:
            continue
        rec = Recognizer(prof)
        rng = design_rng(args.seed, name)
        for code in NUMBER_CARDS:
            face, mask = deck.face(code), deck.mask(code)
            aspect = face.shape[0] / face.shape[1]
            places = prof.layouts.get(code, ())
            for kind in ("hard", "glare on a pip"):
                if kind != "hard" and not places:
                    continue
                for i in range(args.frames):
                    scene = sample_scene(rng, preset="hard", aspect=aspect)
                    if kind != "hard" and scene.corners is not None:
                        scene = glare_on(scene, places[int(rng.integers(len(places)))], rng)
                    image = render_scene(scene, face, rng, mask)
                    taken.append(set())
                    rec.read(image)
                    out = taken[-1]
                    tally[(kind, "frames")] += 1
                    if out:
                        tally[(kind, "frames ruling out a card")] += 1
                    tally[(kind, "cards ruled out")] += len(out)
                    if code in out:
                        tally[(kind, "OWN CARD RULED OUT")] += 1
                        own.append((name, code, kind, i))
                        if args.dump is not None:
                            args.dump.mkdir(parents=True, exist_ok=True)
                            slug = name.replace(":", "_").replace(" ", "_").replace("/", "_")
                            cv2.imwrite(str(args.dump / f"{slug}_{code}_{kind[0]}{i}.png"), image)
        print(f"{name}: done", flush=True)
    print(f"designs: {args.designs}  test: {'old' if args.old else 'new'}  "
          f"frames per card and kind: {args.frames}  seed: {args.seed}")
    for kind in ("hard", "glare on a pip"):
        print(f"{kind:<15} frames {tally[(kind, 'frames')]:5d}  "
              f"ruling out a card {tally[(kind, 'frames ruling out a card')]:5d}  "
              f"cards ruled out {tally[(kind, 'cards ruled out')]:5d}  "
              f"own card ruled out {tally[(kind, 'OWN CARD RULED OUT')]:3d}")
    if own:
        print("own card ruled out:", own)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
