"""Choose the recogniser's thresholds on *tuning* designs only.

    .venv/bin/python benchmarks/vision_tune.py                 # a few minutes on one core
    .venv/bin/python benchmarks/vision_tune.py --model /tmp/new_glyph_model.npz

Earlier passes picked the closing size, the retry cuts, the colour margin, the
early-exit probability and the veto rule while looking at held-out designs, so
the held-out figures flattered them.  This script renders seeded camera frames
(normal and hard presets, one in ten with a finger) of the tuning designs of
``vision_split.TUNING`` plus tuning negatives (backs, empty tables, mostly
covered cards, the tuning designs' non-standard faces and the simulator's
German/Swiss/B-D-K decks in the classic style), and sweeps each threshold in
turn (coordinate descent from the shipped values, two rounds).  A setting is
scored by, in this order: fewest wrong reads plus answered negatives (both
modes), then most correct reads.  Ties keep the shipped value.  It prints the
chosen setting; nothing is written, the values are copied into the source by
hand (``vision/index.py``, ``vision/recognizer.py``) and into the model file's
metadata (``--write-model``).  Since the tenth pass it picks reader settings
other than the shipped ones (kernel 41, retries ``(0.35,)``, ink margin 0.8);
the fourteenth pass tried them on fused frames and they named a wrong card on
kept-out decks (docs/vision.md), so they stay unshipped: a choice on single
tuning frames is a candidate, not a decision.

Caveat: the glyph classifier was trained on these same designs (different
frames), so it is more confident here than on an unseen deck; the
probability thresholds chosen here are therefore a lower bound on caution.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision_bench import FaceDeck  # noqa: E402
from vision_split import TUNING, is_standard, open_design  # noqa: E402

import vision.index as index  # noqa: E402
import vision.recognizer as recognizer  # noqa: E402
from hardware_sim.camera import make_frame  # noqa: E402
from hardware_sim.cards import CARD_CODES  # noqa: E402
from hardware_sim.cards.builtin import NONSTANDARD_DECKS, nonstandard_cards  # noqa: E402
from vision.calibrate import calibrate_images  # noqa: E402
from vision.detect import find_card  # noqa: E402
from vision.glyph_model import GlyphModel, features, glyph_model, load_glyph_model  # noqa: E402
from vision.index import IndexGlyphs, corner_patch, read_patch  # noqa: E402
from vision.profile import DeckProfile, ProfileError  # noqa: E402

PRESETS = ("normal", "hard")


@dataclass
class Item:
    """One tuning frame, reduced to its two index patches (None: no card found)."""

    design: str
    truth: str  # "-" for a negative
    patches: list[np.ndarray] | None
    profile_too: bool  # also read with the design's profile (as the benchmark does)
    glyphs: list[IndexGlyphs | None] = field(default_factory=list)


def render(frames: int, seed: int) -> list[Item]:
    items: list[Item] = []

    def add(design: str, truth: str, image: np.ndarray, profile_too: bool) -> None:
        det = find_card(image)
        patches = None if det is None else [corner_patch(image, det.quad, k) for k in (0, 1)]
        items.append(Item(design, truth, patches, profile_too))

    for name in TUNING:
        deck = open_design(name)
        codes = [c for c in CARD_CODES if is_standard(name, c)]
        rng = np.random.default_rng([seed, len(name), sum(map(ord, name))])
        for preset in PRESETS:
            for i in range(frames):
                code = codes[int(rng.integers(0, len(codes)))]
                kind = "finger" if i % 10 == 9 else "card"
                add(name, code, make_frame(deck, code, rng, preset=preset, kind=kind).image, True)
            for i in range(max(3, frames // 8)):
                kind = ("card_back", "mostly_covered", "empty_table")[i % 3]
                code = codes[i % len(codes)]
                f = make_frame(deck, None if kind == "empty_table" else code, rng, preset=preset,
                               kind=kind)
                add(name, "-", f.image, True)
            for code in CARD_CODES:
                if not is_standard(name, code):
                    add(name, "-", make_frame(deck, code, rng, preset=preset).image, False)
    rng = np.random.default_rng(seed + 1)
    for deck_name in NONSTANDARD_DECKS:
        for label, face, must in nonstandard_cards(deck_name, style="classic"):
            if not must:
                continue
            mask = np.full(face.shape[:2], 255, np.uint8)
            for preset in PRESETS:
                f = make_frame(FaceDeck(face, mask), "AS", rng, preset=preset)
                add(label, "-", f.image, False)
    return items


# --- the settings swept ---------------------------------------------------------------

def _contradicts_strict(other: Any, card: str) -> bool:
    """The alternative veto rule: any corner not accepted that names something else."""
    return bool(other.card != card and other.confidence > 0.25)


VETO = {"lenient": recognizer._contradicts, "strict": _contradicts_strict}
#: candidate values per setting (the shipped value is tried too)
GRID: dict[str, tuple[Any, ...]] = {
    "kernel": (25, 19, 31, 41),
    "retries": ((0.35, 0.55), (0.35,), (), (0.3, 0.45, 0.6)),
    "min_rank_prob": (0.75, 0.6, 0.85, 0.9, 0.95),
    "min_suit_prob": (0.8, 0.7, 0.9, 0.95),
    "ink_margin": (0.6, 0.5, 0.7, 0.8),
    "sure_prob": (0.98, 0.9, 0.95, 0.97, 0.99, 1.01),
    "veto": ("lenient", "strict"),
}
EXTRACTION = ("kernel", "retries")


def apply_extraction(s: dict[str, Any]) -> None:
    k = int(s["kernel"])
    index.BACKGROUND_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    index._RETRY_LEVELS = tuple(s["retries"])


def apply_decision(s: dict[str, Any]) -> None:
    recognizer.SURE_PROB = float(s["sure_prob"])
    recognizer.INK_MARGIN = float(s["ink_margin"])
    recognizer._contradicts = VETO[s["veto"]]


class Memo:
    """``features`` cached per ink array: the sweep reads each glyph many times."""

    def __init__(self) -> None:
        self.cache: dict[int, Any] = {}
        self.keep: list[Any] = []

    def __call__(self, ink: Any) -> Any:
        key = id(ink)
        if key not in self.cache:
            self.cache[key] = features(ink)
            self.keep.append(ink)  # an id stays unique while the array lives
        return self.cache[key]


@dataclass
class Score:
    right: int = 0
    wrong: int = 0
    unsure: int = 0
    neg: int = 0  # negatives answered
    negs: int = 0
    frames: int = 0
    by: dict[str, list[int]] = field(default_factory=dict)
    confusions: list[str] = field(default_factory=list)

    def key(self) -> tuple[int, int]:
        return (self.wrong + self.neg, -self.right)

    def text(self) -> str:
        parts = []
        for k, (r, w, u) in sorted(self.by.items()):
            n = max(r + w + u, 1)
            parts.append(f"{k}: {100 * r / n:.2f}% right {w} wrong {100 * u / n:.2f}% unsure")
        return ("; ".join(parts) + f"; negatives answered {self.neg}/{self.negs}"
                + (f"; wrong: {', '.join(self.confusions)}" if self.confusions else ""))


def evaluate(items: list[Item], profiles: dict[str, DeckProfile | None], model: GlyphModel,
             s: dict[str, Any]) -> Score:
    apply_decision(s)
    m = dataclasses.replace(model, min_rank_prob=float(s["min_rank_prob"]),
                            min_suit_prob=float(s["min_suit_prob"]))
    generic = recognizer.Recognizer()
    generic.model = m
    recs: dict[str, recognizer.Recognizer] = {}
    for name, p in profiles.items():
        if p is not None:
            recs[name] = recognizer.Recognizer(p)
            recs[name].model = m
    sc = Score()
    for it in items:
        readers = [("generic", generic)]
        if it.profile_too and it.design in recs:
            readers.append(("profile", recs[it.design]))
        for mode, rec in readers:
            card = None if it.patches is None else rec.decide(iter(it.glyphs)).card
            if it.truth == "-":
                sc.negs += 1
                sc.neg += card is not None
                continue
            t = sc.by.setdefault(mode, [0, 0, 0])
            if card is None:
                sc.unsure += 1
                t[2] += 1
            elif card == it.truth:
                sc.right += 1
                t[0] += 1
            else:
                sc.wrong += 1
                t[1] += 1
                sc.confusions.append(f"{mode} {it.design} {it.truth}->{card}")
    return sc


def extract(items: list[Item], s: dict[str, Any], memo: Memo) -> dict[str, DeckProfile | None]:
    """Glyphs of every item and a profile per design under the extraction setting ``s``."""
    apply_extraction(s)
    memo.cache.clear()
    memo.keep.clear()
    for it in items:
        it.glyphs = [] if it.patches is None else [read_patch(p) for p in it.patches]
    profiles: dict[str, DeckProfile | None] = {}
    for name in TUNING:
        deck = open_design(name)
        try:
            profiles[name] = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name=name)
        except ProfileError:
            profiles[name] = None
    return profiles


def shipped(model: GlyphModel) -> dict[str, Any]:
    """The setting the package ships now: where the descent starts."""
    return {
        "kernel": int(index.BACKGROUND_KERNEL.shape[0]),
        "retries": tuple(index._RETRY_LEVELS),
        "min_rank_prob": model.min_rank_prob,
        "min_suit_prob": model.min_suit_prob,
        "ink_margin": recognizer.INK_MARGIN,
        "sure_prob": recognizer.SURE_PROB,
        "veto": "lenient",
    }


def sweep(items: list[Item], model: GlyphModel, rounds: int) -> dict[str, Any]:
    memo = Memo()
    setattr(recognizer, "features", memo)  # noqa: B010 - swap in the cached features
    current = shipped(model)
    profiles = extract(items, current, memo)
    best = evaluate(items, profiles, model, current)
    print(f"shipped setting: {best.text()}", flush=True)
    for r in range(rounds):
        changed = False
        for name, values in GRID.items():
            t = time.perf_counter()
            results: list[tuple[tuple[int, int], int, Any, Score]] = []
            if current[name] not in values:
                values = (current[name], *values)
            for i, v in enumerate(values):
                trial = {**current, name: v}
                if name in EXTRACTION:
                    profiles = extract(items, trial, memo)
                sc = best if v == current[name] else evaluate(items, profiles, model, trial)
                # ties keep the current value, then the earlier (shipped) candidate
                results.append((sc.key(), 0 if v == current[name] else 1 + i, v, sc))
                print(f"  round {r + 1} {name}={v!s:<18} wrong+neg {sc.key()[0]:3d}  "
                      f"right {sc.right}  ({sc.text()})", flush=True)
            _, _, v, sc = min(results, key=lambda x: (x[0], x[1]))
            if v != current[name]:
                changed = True
            current[name] = v
            best = sc
            if name in EXTRACTION:
                profiles = extract(items, current, memo)
            print(f"  -> {name} = {v}   ({time.perf_counter() - t:.0f} s)", flush=True)
        if not changed:
            break
    print(f"chosen: {current}")
    print(f"tuning figures at the chosen setting: {best.text()}")
    return current


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=40, help="frames per design and preset")
    ap.add_argument("--seed", type=int, default=77)  # not the benchmark's seed
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--render-only", action="store_true", help="render and cache the frames")
    ap.add_argument("--model", type=Path, help="glyph model to tune (default: the shipped one)")
    ap.add_argument("--write-model", type=Path,
                    help="save the model with the chosen probability thresholds here")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    model = load_glyph_model(args.model) if args.model else glyph_model()
    t = time.perf_counter()
    cache = Path(f"/tmp/pontoon-tune-frames-{args.frames}-{args.seed}.pkl")
    if cache.exists():
        with open(cache, "rb") as fh:
            items = pickle.load(fh)  # our own file, written just below
    else:
        items = render(args.frames, args.seed)
        with open(cache, "wb") as fh:
            pickle.dump(items, fh)
    pos = sum(it.truth != "-" for it in items)
    print(f"{len(items)} tuning frames ({pos} cards, {len(items) - pos} negatives) in "
          f"{time.perf_counter() - t:.0f} s", flush=True)
    if args.render_only:
        return 0
    chosen = sweep(items, model, args.rounds)
    if args.write_model:
        dataclasses.replace(model, min_rank_prob=float(chosen["min_rank_prob"]),
                            min_suit_prob=float(chosen["min_suit_prob"])).save(args.write_model)
        print(f"wrote {args.write_model}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
