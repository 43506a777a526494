"""Rebuild ``vision/data/generic.npz``, the profile shipped for uncalibrated decks.

    .venv/bin/python benchmarks/build_generic_profile.py

The generic profile holds, per *tuning* design, one averaged template per rank
and per suit, read from the clean faces and from a few seeded camera frames of
each card (so the templates already carry typical blur and tilt).  Only the
tuning families in ``vision_split.TUNING`` are used: the held-out families stay
unseen so that ``benchmarks/vision_bench.py`` measures what a new deck gets.
Needs the Debian ``gnome-cards-data`` designs and ``rsvg-convert``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision_split import TUNING, open_design, standard_codes  # noqa: E402
from hardware_sim.camera import make_frame  # noqa: E402
from vision.calibrate import card_glyphs  # noqa: E402
from vision.index import IndexGlyphs  # noqa: E402
from vision.profile import build_profile, merge_profiles  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "vision" / "data" / "generic.npz"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--frames", type=int, default=2, help="camera frames per card")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    parts = []
    for name in TUNING:
        deck = open_design(name)
        samples: dict[str, list[IndexGlyphs]] = {}
        for code in standard_codes(name):
            glyphs = card_glyphs(deck.face(code))
            for _ in range(args.frames):
                glyphs += card_glyphs(make_frame(deck, code, rng, preset="clean").image)
            samples[code] = glyphs
        got = {c: g for c, g in samples.items() if g}
        print(f"{name}: index read on {len(got)} of {len(samples)} standard cards")
        parts.append(build_profile(got, name=name, generic=True, average=True, complete=False))
    generic = merge_profiles(parts, name="generic")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    generic.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, "
          f"{len(generic.rank_labels)} rank and {len(generic.suit_labels)} suit templates)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
