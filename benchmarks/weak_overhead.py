"""The shoe's weak-frame check for the overhead fusion: which margin?

    for s in 18 19 20 21; do .venv/bin/python benchmarks/vision_fuse.py \\
        --designs builtin:duplex,tango,plastic --seed $s --cache /tmp/w/val_$s.pkl --collect-only
      .venv/bin/python benchmarks/vision_fuse.py --designs "$KEPT_OUT" --seed $s \\
        --cache /tmp/w/kept_$s.pkl --collect-only; done
    .venv/bin/python benchmarks/weak_overhead.py /tmp/w/*.pkl

(``$KEPT_OUT``: the four ``vision_split.FONT_STRESS`` decks.)  The overhead
camera's frames of one resting card are one print under one light; the
table's fusion ("any 20") adds them up as if each were independent, so twelve
frames that each call a glyph "not a standard index" can still lead for a
card by 20 nats that no corner accepted (docs/vision.md, "Fifteenth pass":
Jura's 2C named 7C).  The shoe already guards against that
(``vision.in_shoe``): a card no frame was sure of must still lead once the
frames of an index end count as correlated (``evidence.tempered``,
``FRAME_CORRELATION``).  This replays the cached readings (the frames
``vision_fuse.py`` read, in the same order, with its early answers) under
"any 20" and under "any 20" with that check for a grid of margins, and
prints wrong and unsure cards per mode.  Held-out designs are refused.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision_split import refuse_held_out  # noqa: E402

from vision.evidence import FRAME_CORRELATION, FrameFusion  # noqa: E402

#: frames before an early answer (``vision_fuse.py``'s ``fuse``)
EARLY = 3
MARGINS = (4.0, 8.0, 12.0, 20.0)


@dataclass(frozen=True)
class CachedReading:
    """One frame as ``vision_fuse.py --cache`` keeps it (what the fusion reads)."""

    card: str | None
    reason: str
    evidence: np.ndarray | None
    accepted: tuple[str, ...]


def fused(frames: list[dict[str, Any]], weak_margin: float | None) -> str | None:
    """The card "any 20" names from these frames (``vision_fuse.fuse`` with
    ``accept=False``), with the weak-frame check at ``weak_margin`` (None: off)."""
    f = FrameFusion(min_frames=EARLY, require_accept=False,
                    weak_correlation=0.0 if weak_margin is None else FRAME_CORRELATION,
                    weak_margin=0.0 if weak_margin is None else weak_margin)
    for fr in frames:
        f.push(CachedReading(fr["card"], fr["reason"], fr["evidence"], tuple(fr["accepted"])))
        if f.ready():
            return f.decide().card
    return f.decide(final=True).card


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("caches", nargs="+", type=Path, help="vision_fuse.py --cache files")
    args = ap.parse_args(argv)
    records: list[dict[str, Any]] = []
    for path in args.caches:
        with path.open("rb") as fh:
            records += pickle.load(fh)
    refuse_held_out(tuple(sorted({str(r["design"]) for r in records})))
    policies: list[tuple[str, float | None]] = [("any 20", None)] + [
        (f"weak {m:g}", m) for m in MARGINS]
    tally: Counter[tuple[str, str, str]] = Counter()
    wrong: Counter[tuple[str, str, str]] = Counter()
    for r in records:
        for name, m in policies:
            card = fused(r["frames"], m)
            what = "right" if card == r["code"] else "unsure" if card is None else "wrong"
            tally[(r["mode"], name, what)] += 1
            if what == "wrong":
                case = f"{r['design']} {r['code']} -> {card} seed {r['seed']}"
                wrong[(r["mode"], name, case)] += 1
    for mode in ("generic", "profile"):
        for name, _ in policies:
            n = sum(tally[(mode, name, w)] for w in ("right", "wrong", "unsure"))
            if n:
                print(f"{mode:<8} {name:<8} cards {n:5d}  wrong {tally[(mode, name, 'wrong')]:3d}"
                      f"  unsure {tally[(mode, name, 'unsure')]:4d}")
    for (mode, name, what), k in sorted(wrong.items()):
        print(f"wrong: {mode} {name}: {what}" + (f" x{k}" if k > 1 else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
