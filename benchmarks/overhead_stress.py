"""Wrong fused cards of the overhead camera: a stress set, and what a safety
rule for it costs (``docs/vision.md``, "Eighth pass (overhead)").  Replays
readings cached by ``vision_fuse.py --cache`` through the product's own
``FrameFusion`` (the table's loop: answer as soon as ``ready``, else decide
after all frames); nothing is read here.

    # the readings: validation (hard preset) and the stress runs (harsh preset,
    # validation and training designs; never a held-out design)
    .venv/bin/python benchmarks/vision_fuse.py --designs builtin:duplex,tango,plastic \\
        --seed 18 --preset hard --cache val18.pkl --collect-only
    .venv/bin/python benchmarks/vision_fuse.py --designs builtin:duplex,tango,plastic \\
        --seed 18 --preset harsh --cache harsh18.pkl --collect-only
    # the correlation of the frames of one resting card, on right cards
    .venv/bin/python benchmarks/overhead_stress.py --icc val1*.pkl val2*.pkl
    # the rules: cost on validation, wrong cards left in the stress set
    .venv/bin/python benchmarks/overhead_stress.py --normal val*.pkl --stress harsh*.pkl train*.pkl

Two kinds of wrong cards make the stress set:

* **real**: cards of the ``harsh`` preset (``hardware_sim.camera.frames``:
  a cheap webcam too far over the table) that the shipped rule names wrongly;
* **biased truth**: every card of the normal and stress readings with the
  true card's evidence lowered by ``d`` nats in every frame that read an
  index (``--bias``; the true card also taken out of what the corners
  accepted), as a classifier would see a glyph it systematically takes for
  another.  ``require_accept`` cannot be judged on these (no corner accepts
  the wrong card there), so its column is left empty.

A rule's cost: the cards of the (unbiased) normal readings it leaves unsure
that the shipped rule named rightly.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision.cards import CARD_CODES, RANKS, SUITS  # noqa: E402
from vision.evidence import FUSE_MARGIN, FrameFusion, FusedDecision, margin  # noqa: E402

FloatArray = np.ndarray


@dataclass
class Frame:
    """One cached frame, shaped like a ``Reading`` for ``FrameFusion.push``."""

    card: str | None
    reason: str
    evidence: FloatArray | None
    accepted: tuple[str, ...]
    #: per index corner read: (card, problem, sure, evidence or None)
    corners: list[tuple[Any, ...]] = field(default_factory=list)


@dataclass
class Card:
    design: str
    seed: int
    preset: str
    mode: str
    code: str
    frames: list[Frame]


def load(paths: Iterable[str]) -> list[Card]:
    out: list[Card] = []
    for path in paths:
        with open(path, "rb") as fh:
            for r in pickle.load(fh):
                frames = [Frame(f["card"], f["reason"], f["evidence"], tuple(f["accepted"]),
                                list(f["corners"])) for f in r["frames"]]
                out.append(Card(r["design"], r["seed"], r["preset"], r["mode"], r["code"], frames))
    return out


def biased(c: Card, d: float) -> Card:
    """``c`` with its true card's evidence lowered by ``d`` nats in every frame
    (spread evenly over the frame's corners) and taken out of what they accepted."""
    t = CARD_CODES.index(c.code)
    frames = []
    for f in c.frames:
        ev = None
        corners = f.corners
        if f.evidence is not None:
            ev = f.evidence.copy()
            ev[t] -= d
            with_ev = [k for k in f.corners if k[3] is not None]
            corners = []
            for k in f.corners:
                if k[3] is None:
                    corners.append(k)
                    continue
                e = k[3].astype(np.float64)
                e[t] -= d / len(with_ev)
                corners.append((None if k[0] == c.code else k[0], k[1], k[2], e))
        acc = tuple(a for a in f.accepted if a != c.code)
        card = None if f.card == c.code else f.card
        frames.append(Frame(card, f.reason, ev, acc, corners))
    return Card(c.design, c.seed, c.preset, c.mode, c.code, frames)


# --- rules ------------------------------------------------------------------

#: an extra test on a card the shipped rule would name: (card index, the
#: frames summed since the last reset) -> may it be named?
Check = Callable[[int, list[Frame], FrameFusion], bool]


class RuleFusion(FrameFusion):
    """The product's ``FrameFusion`` with one extra test before naming a card."""

    def __init__(self, check: Check | None, **kw: Any) -> None:
        super().__init__(**kw)
        self.check = check
        self.kept: list[Frame] = []

    def push(self, reading: Any) -> None:
        super().push(reading)
        if reading.evidence is not None:
            self.kept = [reading] if self.used == 1 else [*self.kept, reading]

    def decide(self, *, final: bool = False) -> FusedDecision:
        d = super().decide(final=final)
        if d.card is None or self.check is None:
            return d
        if self.check(CARD_CODES.index(d.card), self.kept, self):
            return d
        return FusedDecision(None, 0.0, "rule", (), d.frames, d.used)


def run(card: Card, check: Check | None, accept: bool = False,
        min_frames: int = 3) -> str | None:
    """The table's loop (``controller.table.Table._read_blocking``)."""
    f = RuleFusion(check, min_frames=min_frames, require_accept=accept)
    for fr in card.frames:
        f.push(fr)
        if f.ready():
            return f.decide().card
    return f.decide(final=True).card


def _twins(i: int) -> tuple[list[int], list[int]]:
    """Cards of the same rank in another suit, and of the same suit in another rank."""
    code = CARD_CODES[i]
    suit = [CARD_CODES.index(code[0] + s) for s in SUITS if s != code[1]]
    rank = [CARD_CODES.index(r + code[1]) for r in RANKS if r != code[0]]
    return suit, rank


def summed(kept: list[Frame]) -> FloatArray:
    """The kept frames' evidence added up (every kept frame has some)."""
    out: FloatArray = np.sum([k.evidence for k in kept if k.evidence is not None], axis=0)
    return out


def own(k: Frame) -> tuple[int, float]:
    """One frame's own best card and lead."""
    assert k.evidence is not None
    return margin(k.evidence)


def tempered_lead(kept: list[Frame], rho: float) -> FloatArray:
    out: FloatArray = summed(kept) / (1.0 + (len(kept) - 1) * rho)
    return out


def check_tempered(rho: float, need: float = FUSE_MARGIN, *, unless_accepted: bool = False,
                   unless_named: bool = False, unless_lead: float | None = None) -> Check:
    """The frames of a resting card count as ``n / (1 + (n - 1) rho)``
    independent ones: the card must lead by ``need`` in that evidence
    (``unless_accepted``: only when no corner accepted the card;
    ``unless_named``: only when no frame's own reading named it;
    ``unless_lead``: only when no frame's own lead for it reached that)."""
    def check(i: int, kept: list[Frame], f: FrameFusion) -> bool:
        if unless_accepted and CARD_CODES[i] in f.accepted:
            return True
        if unless_named and any(k.card == CARD_CODES[i] for k in kept):
            return True
        if unless_lead is not None and any(
                own(k)[0] == i and own(k)[1] >= unless_lead
                for k in kept):
            return True
        best, lead = margin(tempered_lead(kept, rho))
        return best == i and lead >= need
    return check


def sure_corner(i: int, kept: list[Frame]) -> bool:
    """Whether some corner of some frame was sure of card ``i`` on its own (the
    recogniser's early exit: ``sure``, so the other corner was not read)."""
    return any(c[2] and c[0] == CARD_CODES[i] for k in kept for c in k.corners)


def check_unless_sure(inner: Check) -> Check:
    """``inner`` only for a card no corner was sure of on its own."""
    def check(i: int, kept: list[Frame], f: FrameFusion) -> bool:
        return sure_corner(i, kept) or inner(i, kept, f)
    return check


def card_px(kept: list[Frame]) -> float:
    """The card's long side in pixels as detected (median over its frames)."""
    px = [c[4] for k in kept for c in k.corners[:1] if len(c) > 4 and c[4] > 0]
    return float(np.median(px)) if px else 0.0


def check_small(px: float, inner: Check) -> Check:
    """``inner`` only for a card whose long side is under ``px`` pixels."""
    def check(i: int, kept: list[Frame], f: FrameFusion) -> bool:
        return card_px(kept) >= px or inner(i, kept, f)
    return check


def check_corners_agree(min_lead: float = 0.0) -> Check:
    """Two witnesses: the evidence of each corner read (first and second corner
    of a frame, summed over the frames) must put the card first, by
    ``min_lead`` nats, whenever that corner was read at all."""
    def check(i: int, kept: list[Frame], f: FrameFusion) -> bool:
        for slot in (0, 1):
            evs = [k.corners[slot][3].astype(np.float64) for k in kept
                   if len(k.corners) > slot and k.corners[slot][3] is not None]
            if not evs:
                continue
            best, lead = margin(np.sum(evs, axis=0))
            if best != i or lead < min_lead:
                return False
        return True
    return check


def check_anchored(rho: float, anchor: int = 3) -> Check:
    """The shipped margin holds for a card read on ``anchor`` frames (the
    fewest the table answers on); a card read on more frames must reach the
    same *effective* evidence: its lead divided by ``1 + (n - 1) rho`` must be
    at least ``FUSE_MARGIN / (1 + (anchor - 1) rho)`` (never less than the
    shipped margin in the plain sum)."""
    def check(i: int, kept: list[Frame], f: FrameFusion) -> bool:
        n = len(kept)
        best, lead = margin(summed(kept))
        need = FUSE_MARGIN * max(1.0, (1 + (n - 1) * rho) / (1 + (anchor - 1) * rho))
        return best == i and lead >= need
    return check


def part_lead(ev: FloatArray, i: int, part: str) -> float:
    suit, rank = _twins(i)
    others = suit if part == "suit" else rank
    return float(ev[i] - max(ev[j] for j in others))


def check_part(part: str, need: float, rho: float = 0.0, *, unless_accepted: bool = False
               ) -> Check:
    """The card's lead over the same rank in another suit (``suit``) or the
    same suit in another rank (``rank``), tempered by ``rho``, must be ``need``."""
    def check(i: int, kept: list[Frame], f: FrameFusion) -> bool:
        if unless_accepted and CARD_CODES[i] in f.accepted:
            return True
        return part_lead(tempered_lead(kept, rho), i, part) >= need
    return check


def check_corner_suit(need: float) -> Check:
    """Some single index corner must lead for the card's suit by ``need`` nats
    (a corner that saw the suit plainly, not many that leaned to it)."""
    def check(i: int, kept: list[Frame], f: FrameFusion) -> bool:
        for k in kept:
            for c in k.corners:
                if c[3] is not None and part_lead(c[3].astype(np.float64), i, "suit") >= need:
                    return True
        return False
    return check


def check_frame_sure(need: float) -> Check:
    """Some single frame must lead for the card by ``need`` on its own."""
    def check(i: int, kept: list[Frame], f: FrameFusion) -> bool:
        return any(own(k)[0] == i and own(k)[1] >= need for k in kept)
    return check


# --- the correlation of a resting card's frames --------------------------------


def icc(cards: list[Card]) -> tuple[float, int, int]:
    """One-way random-effects intra-class correlation of a frame's lead (its
    evidence for the card's fused best minus the fused runner-up), frames
    grouped by card (every frame read of one resting card), over the cards
    the shipped rule names rightly, read to their last frame.  (icc, cards, frames)."""
    groups: list[np.ndarray] = []
    for c in cards:
        f = FrameFusion()
        for fr in c.frames:
            f.push(fr)
        d = f.decide(final=True)
        if d.card != c.code or f.total is None:
            continue
        order = np.argsort(f.total)
        best, runner = order[-1], order[-2]
        # the frames summed since the last reset (a reset never happens on a right card
        # in practice; take the frames with evidence that were kept)
        leads = [float(fr.evidence[best] - fr.evidence[runner])
                 for fr in c.frames if fr.evidence is not None][-f.used:]
        if len(leads) >= 2:
            groups.append(np.array(leads))
    k = np.array([len(g) for g in groups], float)
    n, a = k.sum(), len(groups)
    grand = np.concatenate(groups).mean()
    msb = sum(len(g) * (g.mean() - grand) ** 2 for g in groups) / (a - 1)
    msw = sum(((g - g.mean()) ** 2).sum() for g in groups) / (n - a)
    k0 = (n - (k**2).sum() / n) / (a - 1)
    return float((msb - msw) / (msb + (k0 - 1) * msw)), a, int(n)


# --- the comparison ------------------------------------------------------------


def rules(rho: float) -> list[tuple[str, Check | None, bool]]:
    r = f"{rho:.2f}"
    return [
        ("shipped (margin 20)", None, False),
        ("require_accept", None, True),
        (f"tempered rho {r}", check_tempered(rho), False),
        (f"tempered rho {r}, unless accepted", check_tempered(rho, unless_accepted=True), False),
        (f"weak frames only (no frame named it alone): tempered rho {r}",
         check_tempered(rho, unless_named=True), False),
        ("weak frames only (no frame named it alone): tempered rho 0.42",
         check_tempered(0.42, unless_named=True), False),
        (f"no frame's own lead >= 7.5: tempered rho {r}",
         check_tempered(rho, unless_lead=7.5), False),
        ("weak frames only (no frame named it alone): margin 30",
         check_tempered(0.0, 30.0, unless_named=True), False),
        (f"anchored at 3 frames, rho {r}", check_anchored(rho), False),
        ("anchored at 3 frames, rho 0.42", check_anchored(0.42), False),
        ("anchored at 3 frames, rho 0.9", check_anchored(0.9), False),
        ("no sure corner: unsure", check_unless_sure(lambda i, k, f: False), False),
        (f"no sure corner: anchored rho {r}", check_unless_sure(check_anchored(rho)), False),
        ("no sure corner: anchored rho 0.42", check_unless_sure(check_anchored(0.42)), False),
        ("no sure corner: margin 30", check_unless_sure(check_tempered(0.0, 30.0)), False),
        ("no sure corner: margin 40", check_unless_sure(check_tempered(0.0, 40.0)), False),
        (f"card under 200 px: anchored rho {r}", check_small(200, check_anchored(rho)), False),
        ("card under 200 px: margin 40", check_small(200, check_tempered(0.0, 40.0)), False),
        ("card under 200 px: margin 30", check_small(200, check_tempered(0.0, 30.0)), False),
        ("both corners put it first", check_corners_agree(), False),
        ("both corners put it first by 4", check_corners_agree(4.0), False),
        ("margin 30", check_tempered(0.0, 30.0), False),
        ("margin 40", check_tempered(0.0, 40.0), False),
        (f"suit lead tempered {r} >= 20", check_part("suit", FUSE_MARGIN, rho), False),
        ("a corner's suit lead >= 4", check_corner_suit(4.0), False),
        ("a corner's suit lead >= 6", check_corner_suit(6.0), False),
        ("a frame's own lead >= 8", check_frame_sure(8.0), False),
        ("a frame's own lead >= 12", check_frame_sure(12.0), False),
    ]


def tally(cards: list[Card], check: Check | None, accept: bool) -> Counter[str]:
    out: Counter[str] = Counter()
    for c in cards:
        got = run(c, check, accept)
        out["right" if got == c.code else "unsure" if got is None else "wrong"] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--icc", nargs="*", default=None, help="cached readings: print rho and stop")
    ap.add_argument("--normal", nargs="*", default=[], help="validation readings (the cost)")
    ap.add_argument("--stress", nargs="*", default=[], help="stress readings (real wrong cards)")
    ap.add_argument("--bias", default="3,6,inf", help="biased-truth d values, nats per frame")
    ap.add_argument("--rho", type=float, default=None,
                    help="the frame correlation to use (default: measured on --normal)")
    ap.add_argument("--wrong", action="store_true", help="list every real wrong card")
    args = ap.parse_args(argv)
    if args.icc is not None:
        allc = load(args.icc)
        for mode in ("generic", "profile"):
            v, a, n = icc([c for c in allc if c.mode == mode])
            print(f"{mode}: icc {v:.3f} over {a} cards, {n} frames")
        v, a, n = icc(allc)
        print(f"both: icc {v:.3f} over {a} cards, {n} frames")
        return 0
    normal, stress = load(args.normal), load(args.stress)
    rho = args.rho if args.rho is not None else round(icc(normal)[0], 2)
    print(f"rho = {rho}")
    ds = [math.inf if d == "inf" else float(d) for d in args.bias.split(",")]
    stress_wrong = {m: [c for c in stress if c.mode == m and run(c, None) not in (None, c.code)]
                    for m in ("generic", "profile")}
    stress_right = {m: [c for c in stress if c.mode == m and run(c, None) == c.code]
                    for m in ("generic", "profile")}
    bias_sets: dict[tuple[str, float], list[Card]] = {}
    for m in ("generic", "profile"):
        for d in ds:
            b = [biased(c, d) for c in normal + stress if c.mode == m]
            bias_sets[(m, d)] = [c for c in b if run(c, None) not in (None, c.code)]
    if args.wrong:
        for m in ("generic", "profile"):
            for c in stress_wrong[m]:
                print(f"  {m} {c.preset} seed {c.seed} {c.design} {c.code} -> {run(c, None)}"
                      f"  accepted={run(c, None, True)}")
    head = ["rule"]
    for m in ("generic", "profile"):
        n = sum(1 for c in normal if c.mode == m)
        ns = sum(1 for c in stress if c.mode == m)
        head += [f"{m}: validation unsure (of {n})", f"stress wrong (of {ns})",
                 f"stress right lost (of {len(stress_right[m])})"]
        head += [f"d={d:g} named (of {len(bias_sets[(m, d)])})" for d in ds]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for name, check, accept in rules(rho):
        row = [name]
        for m in ("generic", "profile"):
            cards = [c for c in normal if c.mode == m]
            t = tally(cards, check, accept)
            row.append(f"{t['unsure']} ({100 * t['unsure'] / max(len(cards), 1):.2f} %)"
                       + (f", {t['wrong']} wrong" if t["wrong"] else ""))
            row.append(str(sum(1 for c in stress_wrong[m]
                               if run(c, check, accept) not in (None, c.code))))
            row.append(str(sum(1 for c in stress_right[m] if run(c, check, accept) is None)))
            for d in ds:
                if accept:
                    row.append("-")
                    continue
                row.append(str(sum(1 for c in bias_sets[(m, d)]
                                   if run(c, check, accept) not in (None, c.code))))
        print("| " + " | ".join(row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
