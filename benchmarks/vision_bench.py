"""Card recognition on single overhead frames: accuracy, wrong reads, abstentions, speed.

    .venv/bin/python benchmarks/vision_bench.py            # validation designs
    .venv/bin/python benchmarks/vision_bench.py --frames 520 --preset hard
    .venv/bin/python benchmarks/vision_bench.py --held-out # the old held-out group (spent)

For every design (by default the validation designs, ``vision_split.VALIDATION``;
a held-out design given to ``--designs`` is refused, since a held-out group is
read once, whole, with its own flag) it calibrates a deck profile from the 52 clean faces, then
reads seeded 640x480 camera frames (``hardware_sim.camera.make_frame``) with
that profile and with the generic one.  Negatives (card backs, empty tables,
mostly covered cards, faces with non-standard indices from the simulator's
German/Swiss/B-D-K decks and, with ``--held-out``, from held-out designs) must all come back unsure.
Timing is per frame, one OpenCV thread, recogniser only (frame already decoded).

Targets (issue 4): deck profile wrong <= 0.05 % and abstain <= 1 %; generic
accuracy >= 98 % with wrong <= 0.5 %; negatives answered <= 1 %; median
<= 5 ms and p99 <= 15 ms per frame.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision_split import (  # noqa: E402
    HELD_OUT,
    HELD_OUT_NEGATIVE,
    VALIDATION,
    is_standard,
    open_design,
    refuse_held_out,
)

from hardware_sim.camera import make_frame  # noqa: E402
from hardware_sim.cards import CARD_CODES, LooseFace  # noqa: E402
from hardware_sim.cards.builtin import NONSTANDARD_DECKS, nonstandard_cards  # noqa: E402
from vision.calibrate import calibrate_images  # noqa: E402
from vision.profile import ProfileError  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402


@dataclass
class Tally:
    frames: int = 0
    right: int = 0
    wrong: int = 0
    unsure: int = 0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)

    def add(self, truth: str, card: str | None, reason: str) -> None:
        self.frames += 1
        if card is None:
            self.unsure += 1
            self.reasons[reason] += 1
        elif card == truth:
            self.right += 1
        else:
            self.wrong += 1
            self.confusions[(truth, card)] += 1

    def line(self, label: str) -> str:
        answered = self.right + self.wrong
        acc = 100 * self.right / answered if answered else 0.0
        n = max(self.frames, 1)
        return (f"{label:<28} frames {self.frames:5d}  accuracy on answered {acc:6.2f} %  "
                f"wrong {100 * self.wrong / n:5.2f} %  unsure {100 * self.unsure / n:5.2f} %  "
                f"correct overall {100 * self.right / n:6.2f} %")


#: one loose face (a non-standard card) dressed as a deck for make_frame
FaceDeck = LooseFace


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=208, help="frames per design and mode")
    ap.add_argument("--preset", default="normal", help="camera preset: clean, normal, hard")
    ap.add_argument("--seed", type=int, default=2024)
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--designs", default=None,
                       help=f"comma-separated tuning designs (default: the validation "
                       f"designs, {','.join(VALIDATION)})")
    group.add_argument("--held-out", action="store_true",
                       help="the old held-out group and its non-standard faces, as this bench "
                       "read them before the three-way split (spent: read many times)")
    ap.add_argument("--show", type=int, default=8, help="confusions listed")
    ap.add_argument("--model", type=Path, default=None,
                    help="a glyph model file to read with instead of the shipped one")
    ap.add_argument("--no-foreign", action="store_true",
                    help="with --held-out, skip its non-standard faces")
    args = ap.parse_args(argv)
    if args.designs:
        designs = tuple(args.designs.split(","))
        refuse_held_out(designs)
    else:
        designs = HELD_OUT if args.held_out else VALIDATION
    cv2.setNumThreads(1)
    if args.model is not None:
        import vision.glyph_model as gm

        gm._model = gm.load_glyph_model(args.model)
    generic = Recognizer()
    deck_total, gen_total, neg_total = Tally(), Tally(), Tally()
    neg_kinds: Counter[str] = Counter()
    times: list[float] = []

    cpu_times: list[float] = []

    def timed(rec: Recognizer, image: np.ndarray) -> tuple[str | None, str]:
        t, c = time.perf_counter(), time.thread_time()
        r = rec.read(image)
        times.append((time.perf_counter() - t) * 1000)
        cpu_times.append((time.thread_time() - c) * 1000)
        return r.card, r.reason

    for name in designs:
        deck = open_design(name)
        codes = [c for c in CARD_CODES if is_standard(name, c)]
        try:
            prof = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name=name)
            rec: Recognizer | None = Recognizer(prof)
        except ProfileError as exc:
            print(f"{name}: calibration refused: {exc}")
            rec = None
        rng = np.random.default_rng([args.seed, len(name)])
        d_t, g_t = Tally(), Tally()
        for i in range(args.frames):
            code = codes[i % len(codes)]
            kind = "finger" if i % 10 == 9 else "card"
            frame = make_frame(deck, code, rng, preset=args.preset, kind=kind).image
            if rec is not None:
                card, why = timed(rec, frame)
                d_t.add(code, card, why)
            card, why = timed(generic, frame)
            g_t.add(code, card, why)
        # Negatives with this design: its back, mostly covered faces, empty tables.
        for i in range(max(8, args.frames // 8)):
            kind = ("card_back", "mostly_covered", "empty_table")[i % 3]
            code = codes[i % len(codes)]
            f = make_frame(deck, code if kind != "empty_table" else None, rng,
                           preset=args.preset, kind=kind)
            for r in ([rec] if rec is not None else []) + [generic]:
                card, why = timed(r, f.image)
                neg_total.add("-", card, why)
                if card is not None:
                    neg_kinds[kind] += 1
        if rec is not None:
            print(d_t.line(f"{name} (deck profile)"))
        print(g_t.line(f"{name} (generic)"))
        for t, total in ((d_t, deck_total), (g_t, gen_total)):
            total.frames += t.frames
            total.right += t.right
            total.wrong += t.wrong
            total.unsure += t.unsure
            total.confusions.update(t.confusions)
            total.reasons.update(t.reasons)

    # Faces with non-standard indices: held-out gnome designs and the simulator's decks.
    rng = np.random.default_rng(args.seed + 1)
    for name in HELD_OUT_NEGATIVE if args.held_out and not args.no_foreign else ():
        deck = open_design(name)
        for code in CARD_CODES:
            if is_standard(name, code):
                continue
            f = make_frame(deck, code, rng, preset=args.preset)
            card, why = timed(generic, f.image)
            neg_total.add("-", card, why)
            if card is not None:
                neg_kinds[f"{name} {code}->{card}"] += 1
    for deck_name in NONSTANDARD_DECKS:
        for label, face, must in nonstandard_cards(deck_name, style="modern"):
            if not must:
                continue
            mask = np.full(face.shape[:2], 255, np.uint8)
            f = make_frame(FaceDeck(face, mask), "AS", rng, preset=args.preset)
            card, why = timed(generic, f.image)
            neg_total.add("-", card, why)
            if card is not None:
                neg_kinds[f"{label}->{card}"] += 1

    print()
    print(f"designs: {','.join(designs)}  preset: {args.preset}")
    print(deck_total.line("ALL with deck profile"))
    print(gen_total.line("ALL generic"))
    n = max(neg_total.frames, 1)
    answered = neg_total.right + neg_total.wrong
    print(f"{'negatives':<28} frames {neg_total.frames:5d}  answered {100 * answered / n:5.2f} %"
          f"  {dict(neg_kinds.most_common(args.show))}")
    ts = np.array(times)
    median, p99 = float(np.median(ts)), float(np.percentile(ts, 99))
    print(f"time per 640x480 frame: median {median:.2f} ms  p99 "
          f"{p99:.2f} ms  max {ts.max():.2f} ms  ({len(ts)} reads, 1 thread, wall clock)")
    cs = np.array(cpu_times)
    print(f"CPU time per frame (this thread only; what a busy machine cannot inflate): "
          f"median {np.median(cs):.2f} ms  p99 {np.percentile(cs, 99):.2f} ms")
    for label, t in (("deck profile", deck_total), ("generic", gen_total)):
        print(f"confusions ({label}): {t.confusions.most_common(args.show)}")
        print(f"unsure because ({label}): {t.reasons.most_common(5)}")
    print()
    for what, value, ok in _verdicts(deck_total, gen_total, neg_total, median, p99):
        print(f"  {'meets' if ok else 'MISSES':<6}  {what:<46} {value}")
    return 0


def _pct(k: int, n: int) -> float:
    return 100 * k / max(n, 1)


def _verdicts(deck: Tally, gen: Tally, neg: Tally, median: float, p99: float
              ) -> list[tuple[str, str, bool]]:
    """The issue's targets, each with the measured figure."""
    neg_answered = _pct(neg.right + neg.wrong, neg.frames)
    return [
        ("deck profile: wrong <= 0.05 % of frames", f"{_pct(deck.wrong, deck.frames):.3f} %",
         _pct(deck.wrong, deck.frames) <= 0.05),
        ("deck profile: unsure <= 1 %", f"{_pct(deck.unsure, deck.frames):.2f} %",
         _pct(deck.unsure, deck.frames) <= 1.0),
        ("generic: correct >= 98 % of frames", f"{_pct(gen.right, gen.frames):.2f} %",
         _pct(gen.right, gen.frames) >= 98.0),
        ("generic: wrong <= 0.5 % of frames", f"{_pct(gen.wrong, gen.frames):.3f} %",
         _pct(gen.wrong, gen.frames) <= 0.5),
        ("negatives answered <= 1 %", f"{neg_answered:.2f} %", neg_answered <= 1.0),
        ("median <= 5 ms per frame", f"{median:.2f} ms", median <= 5.0),
        ("p99 <= 15 ms per frame", f"{p99:.2f} ms", p99 <= 15.0),
    ]


if __name__ == "__main__":
    raise SystemExit(main())
