"""6 and 9 told apart: wrong reads of sixes and nines with and without the
index-geometry check (``vision.recognizer._loop_says``: the rank's loop low
for a 6, high for a 9).

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
import dataclasses
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision_split import open_design, refuse_held_out  # noqa: E402

import hardware_sim.cards.builtin as builtin  # noqa: E402
import vision.recognizer as recognizer  # noqa: E402
from hardware_sim.camera import PRESETS, make_frame  # noqa: E402
from hardware_sim.cards import CARD_CODES, BuiltinDeck, Deck  # noqa: E402
from vision.calibrate import calibrate_images  # noqa: E402
from vision.profile import ProfileError  # noqa: E402


class TurnedSixDeck:
    """A built-in style whose 9 is its own 6 turned half a turn (the index's rank
    glyph only): the most symmetric 6/9 a typeface can have."""

    def __init__(self, style: str) -> None:
        st = builtin.with_changes(style, name=f"{style}-turned6")
        self.inner = BuiltinDeck(st)
        self.name = f"turned6:{style}"
        glyph = builtin._glyph

        def turned(text: str, *a: object) -> np.ndarray:
            if text == "9":
                return np.ascontiguousarray(glyph("6", *a)[::-1, ::-1])  # type: ignore[arg-type]
            return glyph(text, *a)  # type: ignore[arg-type]

        builtin._glyph = turned  # type: ignore[assignment]
        try:
            self.faces = {c: self.inner.face(c) for c in CARD_CODES}
        finally:
            builtin._glyph = glyph

    def face(self, code: str) -> np.ndarray:
        return self.faces[code]

    def back(self) -> np.ndarray:
        return self.inner.back()

    def mask(self, code: str | None) -> np.ndarray:
        return self.inner.mask(code)


def open_any(name: str) -> Deck:
    if name.startswith("turned6:"):
        return TurnedSixDeck(name.split(":", 1)[1])
    return open_design(name)


#: hard, and blurrier: the glyph's shape goes, its loop mostly stays
BLURRY = dataclasses.replace(PRESETS["hard"], blur=(1.5, 3.0), motion=0.5, tilt=30.0)

#: the default: tuning designs only (training and validation), so a run chooses nothing
#: on a held-out design by accident
DESIGNS = ("turned6:classic", "turned6:modern", "turned6:duplex",
           "builtin:classic", "builtin:modern", "builtin:duplex", "anglo", "tango", "plastic")
#: ``--held-out``: the designs this bench read before the three-way split, the old
#: held-out group's among them (already read many times: docs/vision.md)
OLD_DESIGNS = ("turned6:classic", "turned6:modern", "turned6:duplex", "turned6:four_color",
               "builtin:classic", "builtin:modern", "builtin:duplex", "builtin:four_color",
               "anglo", "simplistic", "tigullio", "dondorf", "anglo_poker", "tango")


def held_out_name(name: str) -> str:
    """The design a ``turned6:`` deck draws (a built-in style), for the held-out check."""
    return f"builtin:{name.split(':', 1)[1]}" if name.startswith("turned6:") else name


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=80, help="frames per design")
    ap.add_argument("--preset", default="hard", help="clean, normal, hard or blurry")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--designs", default=None,
                       help=f"comma-separated tuning designs (default: {','.join(DESIGNS)})")
    group.add_argument("--held-out", action="store_true",
                       help="the designs read before the split, the old held-out group's among "
                       "them (spent: read many times)")
    ap.add_argument("--seed", type=int, default=69)
    args = ap.parse_args(argv)
    if args.designs:
        names = tuple(args.designs.split(","))
        refuse_held_out(tuple(held_out_name(n) for n in names))
    else:
        names = OLD_DESIGNS if args.held_out else DESIGNS
    cv2.setNumThreads(1)
    check = recognizer._loop_says
    tally: Counter[tuple[str, str, str]] = Counter()
    wrong: Counter[tuple[str, str, str, str]] = Counter()
    generic = recognizer.Recognizer()
    for name in names:
        deck = open_any(name)
        readers = [("generic", generic)]
        try:
            prof = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name=name)
            readers.append(("profile", recognizer.Recognizer(prof)))
        except ProfileError as exc:
            print(f"{name}: calibration refused: {exc}")
        rng = np.random.default_rng([args.seed, len(name)])
        for i in range(args.frames):
            code = "69"[i % 2] + "CDHS"[(i // 2) % 4]
            preset = BLURRY if args.preset == "blurry" else args.preset
            image = make_frame(deck, code, rng, preset=preset).image
            for geometry in ("without", "with"):
                recognizer._loop_says = check if geometry == "with" else lambda g: None
                for mode, rec in readers:
                    card = rec.read(image).card
                    what = "right" if card == code else "unsure" if card is None else "wrong"
                    tally[(geometry, mode, what)] += 1
                    if what == "wrong":
                        wrong[(geometry, mode, code, str(card))] += 1
        recognizer._loop_says = check
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
