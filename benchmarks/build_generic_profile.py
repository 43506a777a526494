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

from vision_split import TUNING, is_standard, open_design, standard_codes  # noqa: E402

from hardware_sim.camera import make_frame  # noqa: E402
from hardware_sim.cards import CARD_CODES  # noqa: E402
from hardware_sim.cards.builtin import NONSTANDARD_DECKS, nonstandard_cards  # noqa: E402
from vision.calibrate import card_glyphs  # noqa: E402
from vision.index import IndexGlyphs  # noqa: E402
from vision.profile import (  # noqa: E402
    DeckProfile,
    build_profile,
    foreign_templates,
    merge_profiles,
)

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
    parts.append(_foreign(rng))
    generic = merge_profiles(parts, name="generic")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    generic.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, "
          f"{len(generic.rank_labels)} rank and {len(generic.suit_labels)} suit templates)")
    return 0


def _foreign(rng: np.random.Generator) -> DeckProfile:
    """Templates of non-standard glyphs from tuning sources only: the German
    B/D courts of the tuning designs and the simulator's German, Swiss and B/D/K
    decks in the ``classic`` style (the benchmark shows them in other styles)."""
    ranks: list[np.ndarray] = []
    suits: list[np.ndarray] = []
    for name in TUNING:
        if name.startswith("builtin"):
            continue
        deck = open_design(name)
        for code in CARD_CODES:
            if not is_standard(name, code):
                for g in card_glyphs(deck.face(code)):
                    ranks.append(g.rank)
    for deck_name, spec in NONSTANDARD_DECKS.items():
        suit_shapes = spec["suits"]
        assert isinstance(suit_shapes, dict)
        for label, face, _ in nonstandard_cards(deck_name, style="classic"):
            lab, suit = label.split(":")[1].split("-")
            shape = suit_shapes[suit][0]
            for g in card_glyphs(face):
                if lab not in STANDARD_LABELS:
                    ranks.append(g.rank)
                if shape not in ("heart", "diamond", "club", "spade"):
                    suits.append(g.suit)
    print(f"foreign glyphs: {len(ranks)} rank, {len(suits)} suit templates")
    return foreign_templates(ranks, suits, name="foreign")


STANDARD_LABELS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}


if __name__ == "__main__":
    raise SystemExit(main())
