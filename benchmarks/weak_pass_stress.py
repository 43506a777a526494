"""Passes of weak frames only (no frame sure of the card alone): a stress set
of wrong ones, and what a rule for them costs (``docs/vision.md``, "Eighth
pass").  Replays readings cached by ``in_shoe_bench.py --cache`` through the
product's own ``PassFusion``, nothing is read here.

    # the readings (validation designs; training designs for --shoe harsh too)
    .venv/bin/python benchmarks/in_shoe_bench.py --seed 18 --cache val18.pkl --collect-only
    .venv/bin/python benchmarks/in_shoe_bench.py --seed 20 --shoe harsh --passes 104 \\
        --cache harsh20.pkl --collect-only
    # the correlation of frames within an index end, on right passes
    .venv/bin/python benchmarks/weak_pass_stress.py --icc val18.pkl val19.pkl
    # the rules on the normal passes, the harsh ones and the biased-truth ones
    .venv/bin/python benchmarks/weak_pass_stress.py --normal val18.pkl val19.pkl \\
        --stress harsh20.pkl harsh21.pkl [--features passes.csv]

Two kinds of wrong passes make the stress set:

* **real**: passes of the ``harsh`` shoe (``hardware_sim.camera.in_shoe``,
  worse than a shoe should be) that the seventh pass's rule names wrongly,
  at the end of the pass or as the table reads it (stopping as soon as the
  card is decided).  They are rare: about one in a thousand passes;
* **biased truth**: every pass of the normal and stress readings with the
  true card's evidence lowered by ``d`` nats in every frame that read an
  index (``--bias``; ``inf``: the true card removed), as a classifier would
  see a glyph it systematically takes for another: its frames lean the same
  wrong way, weakly.  The passes the seventh pass's rule then names wrongly
  are the wrong ones; rules are judged by how many of them they still name.

A rule's cost: the right passes of the (unbiased) normal readings it leaves
unsure that the seventh pass's rule named.
"""

from __future__ import annotations

import argparse
import csv
import math
import pickle
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from in_shoe_bench import Pass  # noqa: E402

from vision.cards import CARD_CODES  # noqa: E402
from vision.evidence import FRAME_CORRELATION, margin, tempered  # noqa: E402
from vision.in_shoe import FRAME_MARGIN, PASS_MARGIN, InShoeReader, PassFusion  # noqa: E402
from vision.in_shoe_pose import MIDDLE  # noqa: E402

#: correlations tried (0: the seventh pass's rule)
RHO_GRID = (0.0, 0.2, 0.3, FRAME_CORRELATION, 0.6, 1.0)
#: for comparison: a larger plain margin for weak-only passes
MARGIN_GRID = (12.0, 16.0, 20.0)


def load(paths: Iterable[str]) -> list[Pass]:
    """Passes cached by ``in_shoe_bench.py --cache`` (pickled from its
    ``__main__``, so ``Pass`` is looked up there)."""
    main = sys.modules["__main__"]
    if not hasattr(main, "Pass"):
        main.Pass = Pass  # type: ignore[attr-defined]
    out: list[Pass] = []
    for path in paths:
        with open(path, "rb") as fh:
            out += pickle.load(fh)[0]
    return out


def biased(p: Pass, d: float) -> Pass:
    """``p`` with its true card's evidence lowered by ``d`` nats in every frame
    (``inf``: that card ruled out)."""
    t = CARD_CODES.index(p.code)
    readings = []
    for r in p.readings:
        if r.evidence is not None:
            ev = r.evidence.copy()
            ev[t] = -1e6 if math.isinf(d) else ev[t] - d
            r = replace(r, evidence=ev)
        readings.append(r)
    return replace(p, readings=readings)


def _reader(rho: float) -> InShoeReader:
    reader = InShoeReader.__new__(InShoeReader)
    reader.margin, reader.frame_margin, reader.correlation = PASS_MARGIN, FRAME_MARGIN, rho
    return reader


Rule = Callable[[PassFusion], str | None]


def tempered_rule(fusion: PassFusion) -> str | None:
    """The product's decision (its reader's correlation)."""
    return fusion.result().card


def weak_margin_rule(m: float) -> Rule:
    """The alternative: a weak-only pass needs a plain summed lead of ``m``."""

    def rule(fusion: PassFusion) -> str | None:
        card = fusion.result().card
        total = fusion._fusion.total
        if card is None or card in fusion.sure or total is None:
            return card
        i = CARD_CODES.index(card)
        return card if total[i] - np.delete(total, i).max() >= m else None

    return rule


def replay(p: Pass, rho: float, rule: Rule, *, early: bool) -> str | None:
    """The pass's card under ``rule``; ``early``: as the table reads it,
    stopping at the first frame at which the card is decided."""
    fusion = PassFusion(_reader(rho))
    for r in p.readings:
        fusion.add(r)
        if early and fusion._fusion.used >= 2 and rule(fusion) is not None:
            break
    return rule(fusion)


@dataclass
class Score:
    wrong: int = 0
    unsure: int = 0


def score(passes: list[Pass], rho: float, rule: Rule, *, early: bool) -> Score:
    s = Score()
    for p in passes:
        card = replay(p, rho, rule, early=early)
        s.unsure += card is None
        s.wrong += card is not None and card != p.code
    return s


def icc(passes: list[Pass]) -> tuple[float, int, int]:
    """One-way random-effects intra-class correlation of a frame's lead (its
    evidence for the pass's card minus for the pass's runner-up), frames
    grouped by index end, over the right passes: the share of a frame's
    variation that the other frames of its end share.  (icc, ends, frames)."""
    groups: list[np.ndarray] = []
    for p in passes:
        fusion = PassFusion(_reader(0.0))
        for r in p.readings:
            fusion.add(r)
        if fusion.result().card != p.code or fusion._fusion.total is None:
            continue
        total = fusion._fusion.total
        order = np.argsort(total)
        best, runner = order[-1], order[-2]
        end: list[float] = []
        ends: list[list[float]] = []
        middle = False
        for r in p.readings:
            if r.evidence is None:
                middle = middle or r.reason == MIDDLE
                continue
            if middle and end:
                ends.append(end)
                end = []
            middle = False
            end.append(float(r.evidence[best] - r.evidence[runner]))
        ends.append(end)
        groups += [np.array(e) for e in ends if len(e) >= 2]
    k = np.array([len(g) for g in groups], float)
    n, a = k.sum(), len(groups)
    grand = np.concatenate(groups).mean()
    msb = sum(len(g) * (g.mean() - grand) ** 2 for g in groups) / (a - 1)
    msw = sum(((g - g.mean()) ** 2).sum() for g in groups) / (n - a)
    k0 = (n - (k**2).sum() / n) / (a - 1)
    return float((msb - msw) / (msb + (k0 - 1) * msw)), a, int(n)


def features(p: Pass) -> dict[str, object]:
    """What a rule could use, per pass (the seventh pass's decision)."""
    fusion = PassFusion(_reader(0.0))
    for r in p.readings:
        fusion.add(r)
    card = fusion.result().card
    total = fusion._fusion.total
    row: dict[str, object] = {"design": p.design, "shoe": p.preset, "code": p.code,
                              "card": card or "", "used": fusion._fusion.used}
    if total is None:
        return row
    best, lead = margin(total)
    ev = np.array([r.evidence for r in p.readings if r.evidence is not None])
    tops = ev.argmax(axis=1)
    contrib = ev[:, best] - np.delete(ev, best, axis=1).max(axis=1)
    ends = [int(np.argmax(s)) for s in fusion.end_sums]
    t = tempered(fusion.end_sums, fusion.end_counts)
    row.update(
        top=CARD_CODES[best], right=CARD_CODES[best] == p.code, lead=round(lead, 2),
        tempered_lead=round(float(t[best] - np.delete(t, best).max()), 2),
        sure_alone=sum(
            r.card == CARD_CODES[best] and margin(r.evidence)[1] >= FRAME_MARGIN
            for r in p.readings if r.evidence is not None
        ),
        leaning_share=round(float((tops == best).mean()), 3), ends=len(ends),
        ends_agree=all(e == best for e in ends), frames_per_end=fusion.end_counts,
        max_frame_lead=round(float(contrib.max()), 2),
        frame_leads=" ".join(f"{c:.1f}" for c in contrib),
    )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--normal", nargs="*", default=[], help="caches of the normal validation runs")
    ap.add_argument("--stress", nargs="*", default=[], help="caches of harsh runs")
    ap.add_argument("--icc", nargs="*", help="estimate the correlation on these caches")
    ap.add_argument("--bias", default="3,inf", help="biased-truth offsets, nats")
    ap.add_argument("--features", help="write every pass's features to this CSV")
    args = ap.parse_args()
    if args.icc:
        for label, sel in (("all", None), ("normal", "normal"), ("hard", "hard"),
                           ("harsh", "harsh")):
            ps = [p for p in load(args.icc) if sel is None or p.preset == sel]
            if ps:
                r, a, n = icc(ps)
                print(f"intra-end correlation, {label} shoes: {r:.3f} ({a} ends, {n} frames)")
        return
    normal, stress = load(args.normal), load(args.stress)
    print(f"normal passes {len(normal)}, harsh passes {len(stress)}")
    rules: list[tuple[str, float, Rule]] = [
        (f"tempered, rho {rho:g}" + (" (shipped)" if rho == FRAME_CORRELATION else "")
         + (" = seventh pass" if rho == 0 else ""), rho, tempered_rule)
        for rho in RHO_GRID
    ] + [(f"weak-only margin {m:g}", 0.0, weak_margin_rule(m)) for m in MARGIN_GRID]
    biases = [float(b) for b in args.bias.split(",")]
    for early in (False, True):
        mode = "as the table reads (stops early)" if early else "whole pass"
        # the wrong passes: real (harsh) and biased truth, wrong under the seventh pass
        real = [p for p in stress
                if replay(p, 0.0, tempered_rule, early=early) not in (None, p.code)]
        fake = {d: [q for q in (biased(p, d) for p in normal + stress)
                    if replay(q, 0.0, tempered_rule, early=early) not in (None, q.code)]
                for d in biases}
        print(f"\n{mode}: real wrong passes {len(real)}; biased truth wrong passes "
              + ", ".join(f"d={d:g}: {len(v)}" for d, v in fake.items()))
        for label, rho, rule in rules:
            ns = score(normal, rho, rule, early=early)
            h = score(stress, rho, rule, early=early)
            still = [score(v, rho, rule, early=early).wrong for v in fake.values()]
            print(f"  {label:34s} normal: wrong {ns.wrong} unsure {ns.unsure:3d} "
                  f"({100 * ns.unsure / max(len(normal), 1):.2f} %) | harsh: wrong {h.wrong} "
                  f"unsure {h.unsure:4d} | biased truth still named: "
                  + ", ".join(f"{w}/{len(v)}" for w, v in zip(still, fake.values(), strict=True)))
    if args.features:
        rows = [features(p) for p in normal + stress]
        keys = list(dict.fromkeys(k for r in rows for k in r))
        with open(args.features, "w", newline="") as fh:
            w = csv.DictWriter(fh, keys)
            w.writeheader()
            w.writerows(rows)
        print(f"features of {len(rows)} passes: {args.features}")


if __name__ == "__main__":
    main()
