"""Other evidence models for passes of weak frames only, against the shipped
one (``docs/vision.md``, "Eighth pass", "Tried after it").  Replays readings
cached by ``in_shoe_bench.py --cache`` (as ``weak_pass_stress.py`` does);
nothing is read here and nothing here is product code.

    .venv/bin/python benchmarks/weak_pass_alternatives.py --normal val18.pkl val19.pkl \\
        --stress harsh2*.pkl harsh3*.pkl train20.pkl \\
        [--normal-profile val18p.pkl val19p.pkl --stress-profile harsh20p.pkl]

A frame's *place* in its index end, from its neighbours' readings (the cached
readings keep no geometry): ``edge`` when the frame before or after it read no
index because that index was cut by the window (``PARTIAL``), or the window
was empty, or another unread frame (the index at the window's edge); ``seam``
when a neighbour is a frame of the card's middle (the card's short edge at the
window's edge); else ``inner``.  The models:

* **edge weight w**: frames at the window's edge count ``w`` (0: left out) in
  the tempered sum, the other frames 1;
* **clip L**: each frame's evidence floored at its own best card's minus ``L``
  nats before the sum (no one frame may speak against a card by more than
  ``L``: the glyph floor's idea, per frame);
* **ends agree**: when two or more ends each put the card first, the ends are
  tempered with a smaller correlation.

Printed per model: validation unsure passes (generic and profile), and of the
stress set the real wrong passes and the biased-truth wrong passes still
named wrongly; the whole pass and as the table reads.  ``--icc`` prints the
correlation of a frame's lead within an end by the frames' place, by the kind
of runner-up, and after clipping; and how often frames of each place put
another card first.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from in_shoe_bench import Pass  # noqa: E402
from weak_pass_stress import _reader, biased, load  # noqa: E402

from vision.cards import CARD_CODES  # noqa: E402
from vision.evidence import FRAME_CORRELATION, FusedDecision  # noqa: E402
from vision.in_shoe import PARTIAL, PASS_MARGIN, PASS_MIN_FRAMES, PassFusion  # noqa: E402
from vision.in_shoe_pose import EMPTY, MIDDLE  # noqa: E402
from vision.recognizer import Reading  # noqa: E402

Vec = npt.NDArray[np.float64]
#: one read frame: its evidence and its place ("edge", "seam", "inner")
Frame = tuple[Vec, str]
#: a model: the frames of each end -> whether the card may be named
Model = Callable[[list[list[Frame]], str], bool]


@dataclass
class _Seen:
    """A read frame and the kinds of its neighbours ("F" read, "M" middle,
    "P" cut index, "E" empty, "O" other; ``after`` None until it comes)."""

    evidence: Vec
    before: str
    after: str | None = None


class _Frames(PassFusion):
    """``PassFusion`` that keeps each read frame with its neighbours' kinds and
    asks ``model`` instead of the shipped tempered test."""

    def __init__(self, model: Model) -> None:
        super().__init__(_reader(FRAME_CORRELATION))
        self.model = model
        #: per end, its read frames as they came
        self.raw: list[list[_Seen]] = []
        self._before = "E"
        self._gap = False

    def add(self, reading: Reading) -> None:
        super().add(reading)
        if reading.evidence is None:
            kind = {MIDDLE: "M", EMPTY: "E", PARTIAL: "P"}.get(reading.reason, "O")
            if self.raw and self.raw[-1][-1].after is None:
                self.raw[-1][-1].after = kind
            self._gap = self._gap or kind == "M"
            self._before = kind
            return
        if self._gap or not self.raw:
            self.raw.append([])
        if self.raw[-1] and self.raw[-1][-1].after is None:
            self.raw[-1][-1].after = "F"
        self.raw[-1].append(_Seen(np.asarray(reading.evidence, np.float64), self._before))
        self._before, self._gap = "F", False

    def ends(self) -> list[list[Frame]]:
        return [[(f.evidence, _place(f.before, f.after)) for f in end] for end in self.raw]

    def _decide(self, *, final: bool) -> FusedDecision:
        # the shipped order: two witnesses, then a frame sure alone, then the model
        d = self._fusion.decide(final=final)
        if d.card is None:
            return d
        if self.witnesses.get(d.card, 0) < PASS_MIN_FRAMES:
            return FusedDecision(None, 0.0, "witnesses", (), d.frames, d.used)
        if d.card in self.sure or self.model(self.ends(), d.card):
            return d
        return FusedDecision(None, 0.0, "weak", (), d.frames, d.used)


def _place(before: str, after: str | None) -> str:
    # the last frame's next neighbour is not known yet (None): as the table reads
    kinds = {before} | ({after} if after is not None else set())
    if kinds & {"P", "E", "O"}:
        return "edge"
    return "seam" if "M" in kinds else "inner"


def _tempered(ends: list[list[Frame]], rho: float, weight: Callable[[Frame], float]) -> Vec:
    out: Vec = np.zeros(len(CARD_CODES))
    for end in ends:
        ws = [weight(f) for f in end]
        n = sum(ws)
        if n > 0:
            out = out + sum(w * f[0] for w, f in zip(ws, end, strict=True)) / (
                1 + max(n - 1, 0) * rho
            )
    return out


def _lead(ev: Vec, card: str) -> float:
    i = CARD_CODES.index(card)
    return float(ev[i] - np.delete(ev, i).max())


def tempered_model(rho: float = FRAME_CORRELATION) -> Model:
    """The shipped rule (``rho`` its correlation)."""
    return lambda ends, card: _lead(_tempered(ends, rho, lambda f: 1.0), card) >= PASS_MARGIN


def edge_model(w: float, rho: float, places: frozenset[str] = frozenset({"edge"})) -> Model:
    """Frames at ``places`` weigh ``w``."""

    def weight(f: Frame) -> float:
        return w if f[1] in places else 1.0

    return lambda ends, card: _lead(_tempered(ends, rho, weight), card) >= PASS_MARGIN


def clip_model(limit: float, rho: float) -> Model:
    """Each frame's evidence floored at its best minus ``limit`` nats."""

    def model(ends: list[list[Frame]], card: str) -> bool:
        cut = [[(np.maximum(ev, ev.max() - limit), p) for ev, p in end] for end in ends]
        return _lead(_tempered(cut, rho, lambda f: 1.0), card) >= PASS_MARGIN

    return model


def ends_agree_model(rho_agree: float, rho: float = FRAME_CORRELATION) -> Model:
    """Two or more ends that each put the card first: ``rho_agree``."""

    def model(ends: list[list[Frame]], card: str) -> bool:
        i = CARD_CODES.index(card)
        firsts = [int(np.argmax(sum(f[0] for f in end))) for end in ends if end]
        agree = len(firsts) >= 2 and all(x == i for x in firsts)
        r = rho_agree if agree else rho
        return _lead(_tempered(ends, r, lambda f: 1.0), card) >= PASS_MARGIN

    return model


MODELS: list[tuple[str, Model]] = [
    ("plain sum (seventh pass)", lambda ends, card: True),
    ("tempered, rho 0.42 (shipped)", tempered_model()),
    ("edge frames left out, rho 0.42", edge_model(0.0, 0.42)),
    ("edge frames left out, rho 0.44 (re-measured)", edge_model(0.0, 0.44)),
    ("edge frames weigh 0.5, rho 0.42", edge_model(0.5, 0.42)),
    ("edge and seam frames left out, rho 0.52 (re-m.)",
     edge_model(0.0, 0.52, frozenset({"edge", "seam"}))),
    ("clip 6, rho 0.42", clip_model(6.0, 0.42)),
    ("clip 6, rho 0.34 (re-measured)", clip_model(6.0, 0.34)),
    ("clip 5, rho 0.29 (re-measured)", clip_model(5.0, 0.29)),
    ("ends agree: rho 0.2, else 0.42", ends_agree_model(0.2)),
    ("ends agree: plain sum, else 0.42", ends_agree_model(0.0)),
]


def replay(p: Pass, model: Model, *, early: bool) -> str | None:
    fusion = _Frames(model)
    for r in p.readings:
        fusion.add(r)
        if early and fusion._fusion.used >= 2 and fusion.result().card is not None:
            break
    return fusion.result().card


def _plain(ends: list[list[Frame]], card: str) -> bool:
    return True


def wrong_sets(normal: list[Pass], stress: list[Pass], *, early: bool) -> dict[str, list[Pass]]:
    """The stress set's wrong passes under the plain sum: real, biased d=3, d=inf."""
    out = {"real": [p for p in stress if replay(p, _plain, early=early) not in (None, p.code)]}
    for d in (3.0, math.inf):
        out[f"d={d:g}"] = [q for q in (biased(p, d) for p in normal + stress)
                           if replay(q, _plain, early=early) not in (None, q.code)]
    return out


def icc(groups: Iterable[Vec]) -> float:
    """One-way random-effects intra-class correlation of groups of values."""
    gs = [g for g in groups if len(g) >= 2]
    k = np.array([len(g) for g in gs], float)
    n, a = k.sum(), len(gs)
    grand = np.concatenate(gs).mean()
    msb = sum(len(g) * (g.mean() - grand) ** 2 for g in gs) / (a - 1)
    msw = sum(((g - g.mean()) ** 2).sum() for g in gs) / (n - a)
    k0 = (n - (k**2).sum() / n) / (a - 1)
    return float((msb - msw) / (msb + (k0 - 1) * msw))


def _lead_groups(ends: list[list[Frame]], code: str, total: Vec) -> dict[str, list[Vec]]:
    """Per way of looking, the leads of each end's frames (see ``icc_report``)."""
    t = CARD_CODES.index(code)
    runner = int(np.argsort(total)[-2])
    twin = max((i for i, c in enumerate(CARD_CODES) if i != t and c[0] == code[0]),
               key=lambda i: total[i])
    same_suit = max((i for i, c in enumerate(CARD_CODES) if i != t and c[1] == code[1]),
                    key=lambda i: total[i])
    out: dict[str, list[Vec]] = {}
    for end in ends:
        looks: dict[str, list[float]] = {
            "all frames": [f[0][t] - f[0][runner] for f in end],
            "edge frames left out": [f[0][t] - f[0][runner] for f in end if f[1] != "edge"],
            "inner frames only": [f[0][t] - f[0][runner] for f in end if f[1] == "inner"],
            "runner-up of the same rank (suit twin)": [f[0][t] - f[0][twin] for f in end],
            "runner-up of the same suit": [f[0][t] - f[0][same_suit] for f in end],
        }
        for lim in (5.0, 6.0):
            cut = [np.maximum(f[0], f[0].max() - lim) for f in end]
            looks[f"clipped at {lim:g}"] = [ev[t] - ev[runner] for ev in cut]
        for label, values in looks.items():
            out.setdefault(label, []).append(np.array(values, np.float64))
    return out


def icc_report(passes: list[Pass]) -> None:
    """Within-end correlation of a frame's lead (the pass's card over a
    runner-up) on the right passes, by which frames are kept, by the kind of
    runner-up, and after clipping."""
    rows: dict[str, list[Vec]] = {}
    for p in passes:
        fusion = _Frames(_plain)
        for r in p.readings:
            fusion.add(r)
        total = fusion._fusion.total
        if fusion.result().card != p.code or total is None:
            continue
        for label, values in _lead_groups(fusion.ends(), p.code, total).items():
            rows.setdefault(label, []).extend(values)
    for label, groups in rows.items():
        print(f"  {label:40s} {icc(groups):.3f}")


def place_report(passes: list[Pass]) -> None:
    """By a frame's place: how often the pass's true card is not its first,
    and the true card's mean lead (every read frame of every pass)."""
    leads: dict[str, list[float]] = {}
    for p in passes:
        fusion = _Frames(_plain)
        for r in p.readings:
            fusion.add(r)
        t = CARD_CODES.index(p.code)
        for end in fusion.ends():
            for ev, place in end:
                leads.setdefault(place, []).append(float(ev[t] - np.delete(ev, t).max()))
    for place in ("edge", "seam", "inner"):
        v = np.array(leads.get(place, [np.nan]))
        print(f"  {place:6s} {len(v):6d} frames: true card not first {100 * (v < 0).mean():5.1f} %,"
              f" mean lead {v.mean():5.2f} nats")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--normal", nargs="+", required=True, help="validation caches, generic")
    ap.add_argument("--stress", nargs="+", required=True, help="harsh caches, generic")
    ap.add_argument("--normal-profile", nargs="*", default=[], help="validation, deck profiles")
    ap.add_argument("--stress-profile", nargs="*", default=[], help="harsh, deck profiles")
    ap.add_argument("--icc", action="store_true", help="print the correlations and stop")
    args = ap.parse_args()
    normal, stress = load(args.normal), load(args.stress)
    nprof, sprof = load(args.normal_profile), load(args.stress_profile)
    if args.icc:
        for label, ps in (("generic", normal), ("deck profiles", nprof)):
            if ps:
                print(f"within-end correlation of a frame's lead, right passes, {label}:")
                icc_report(ps)
        for label, ps in (("validation, generic", normal), ("stress runs, generic", stress)):
            print(f"read frames by their place, {label}:")
            place_report(ps)
        return
    for early in (False, True):
        print("\nas the table reads (stops early)" if early else "\nwhole pass")
        wrong = wrong_sets(normal, stress, early=early)
        wrong_p = wrong_sets(nprof, sprof, early=early) if nprof else {}
        print("  wrong under the plain sum: " + ", ".join(f"{k} {len(v)}" for k, v in wrong.items())
              + (" | profile " + ", ".join(f"{k} {len(v)}" for k, v in wrong_p.items())
                 if wrong_p else ""))
        for name, model in MODELS:
            ug = sum(replay(p, model, early=early) is None for p in normal)
            up = sum(replay(p, model, early=early) is None for p in nprof)
            named = {k: sum(replay(p, model, early=early) not in (None, p.code) for p in v)
                     for k, v in wrong.items()}
            named_p = {k: sum(replay(p, model, early=early) not in (None, p.code) for p in v)
                       for k, v in wrong_p.items()}
            print(f"  {name:48s} unsure {ug:3d} / {up:3d} prof | still named wrongly: "
                  + " ".join(f"{k} {n}" for k, n in named.items())
                  + (" | prof " + " ".join(f"{k} {n}" for k, n in named_p.items())
                     if named_p else ""), flush=True)


if __name__ == "__main__":
    main()
