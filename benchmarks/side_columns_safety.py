"""Whether a 4's clean side columns (``vision.empty_places.
withhold_by_clean_side_columns``) ever withhold a 6 to 10 whose own pips
were there: development data only.

    .venv/bin/python benchmarks/side_columns_safety.py --designs anglo,paris
    .venv/bin/python benchmarks/side_columns_safety.py --designs 'font:Limelight' --read-groups

A 6 to 10 reads as a 4's array only when glare or a finger takes its middle
pips, which the judge sets' frames almost never do (no such frame of a 6 to
10 on the fifty-first pass's development data), so this benchmark makes the
worst case on purpose.  Every 6 to 10 of each design is drawn ``--frames``
times as a hard overhead frame (``make_frame``), and ``--frames`` times more
with a strong glare spot centred on one of its pips between its four corner
pips (where the deck's calibration found them).  Its body is read generically and
cut down to its four corner pips, as if everything between them had been
lost; the rule then looks at the frame between those corners, where the
card's own pips are (under glare, on the second kind).  A frame whose own
card the rule withholds is a failure of the test.  ``--old`` applies the
rule as it was before the fifty-first pass (all three places of a column
clean, the paper's level its 90th percentile).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from glare_on_pips import calibrated, design_rng, glare_on, safety_options  # noqa: E402
from vision_split import open_design, refuse_held_out  # noqa: E402

from hardware_sim.camera.frames import render_scene, sample_scene  # noqa: E402
from hardware_sim.cards import CARD_CODES  # noqa: E402
from vision.detect import find_card  # noqa: E402
from vision.empty_places import (  # noqa: E402
    SIDE_COLUMN_CARDS,
    SIDE_COLUMNS_WHY,
    SIDE_PLACES,
    PaperView,
    blank_at,
    four_columns,
    paper_view,
    withhold_by_clean_side_columns,
)
from vision.index import card_corners  # noqa: E402
from vision.pips import BodyReading, index_box_in_card, read_body  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402

SIX_TO_TEN = [c for c in CARD_CODES if c[0] in "6789T"]
CUT, OWN, NINES = "frames cut to a 4's corners", "own card withheld", "of 9s and 10s"


def _between_corners(layout: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The pips of a calibrated layout that are not its four corner pips:
    the ones a 4's corners hide nothing of, and glare on which matters."""
    if len(layout) <= 4:
        return []
    by_y = sorted(layout, key=lambda p: p[1])
    corners = {*by_y[:2], *by_y[-2:]}
    return [p for p in layout if p not in corners]


def _given(view: PaperView) -> Callable[[], PaperView]:
    """``view``, as the rule asks for it."""
    return lambda: view


def old_rule(body: BodyReading, view: PaperView) -> BodyReading:
    """The rule before the fifty-first pass: a column's three places clean,
    a window's dimness judged against the body's 90th percentile."""
    columns = four_columns(body.candidates)
    if columns is None:
        return body
    view = replace(view, raw_typical=view.raw_paper)
    size = float(np.median([p.size for p in body.candidates]))
    for top, bottom in columns:
        if all(blank_at(view, top.x + t * (bottom.x - top.x), top.y + t * (bottom.y - top.y), size)
               for t in SIDE_PLACES):
            return replace(body, withholds=SIDE_COLUMN_CARDS, withheld_why=SIDE_COLUMNS_WHY)
    return body


def main(argv: list[str] | None = None) -> int:
    ap = safety_options(__doc__.split("\n\n")[0], seed=51)
    ap.add_argument("--old", action="store_true", help="apply the rule as it was")
    args = ap.parse_args(argv)
    designs = tuple(args.designs.split(","))
    refuse_held_out(designs, read_groups=args.read_groups)
    cv2.setNumThreads(1)
    rec = Recognizer()
    tally: Counter[tuple[str, str]] = Counter()
    own: list[tuple[str, str, str, int]] = []
    for name in designs:
        deck = open_design(name)
        prof = calibrated(deck, name)
        if prof is None:
            continue
        rng = design_rng(args.seed, name)
        for code in SIX_TO_TEN:
            face, mask = deck.face(code), deck.mask(code)
            aspect = face.shape[0] / face.shape[1]
            middles = _between_corners(prof.layouts.get(code, ()))
            for kind in ("hard", "glare on a side pip"):
                for i in range(args.frames):
                    scene = sample_scene(rng, preset="hard", aspect=aspect)
                    if kind != "hard" and scene.corners is not None and middles:
                        scene = glare_on(scene, middles[int(rng.integers(len(middles)))], rng)
                    image = render_scene(scene, face, rng, mask)
                    src = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2BGRA), np.uint8)
                    det = find_card(src)
                    if det is None:
                        continue
                    boxes = [index_box_in_card(g.box, k)
                             for k, g in enumerate(card_corners(src, det.quad))
                             if g is not None and g.box is not None]
                    body = read_body(src, det.quad, boxes, rec.model, rec._ink_fits)
                    if body.kind != "array" or len(body.candidates) < 4:
                        continue
                    pips = sorted(body.candidates, key=lambda p: p.y)
                    ends = (*sorted(pips[:2], key=lambda p: p.x),
                            *sorted(pips[-2:], key=lambda p: p.x))
                    corners = replace(body, pips=4, candidates=ends, withholds=frozenset())
                    if four_columns(list(ends)) is None:
                        continue
                    view = paper_view(src, det.quad)
                    if view is None:
                        continue
                    out = (old_rule(corners, view) if args.old
                           else withhold_by_clean_side_columns(corners, _given(view)))
                    tally[(kind, CUT)] += 1
                    tally[(kind, NINES)] += code[0] in "9T"
                    if code in out.withholds:
                        tally[(kind, OWN)] += 1
                        own.append((name, code, kind, i))
        print(f"{name}: done", flush=True)
    print(f"designs: {args.designs}  rule: {'old' if args.old else 'new'}  "
          f"frames per card and kind: {args.frames}  seed: {args.seed}")
    for kind in ("hard", "glare on a side pip"):
        print(f"{kind:<20} frames cut to a 4's corners {tally[(kind, CUT)]:5d}"
              f" (9s and 10s {tally[(kind, NINES)]:5d})"
              f"  own card withheld {tally[(kind, OWN)]:3d}")
    if own:
        print("own card withheld:", own)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
