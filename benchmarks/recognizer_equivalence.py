"""Check that a change to ``vision`` leaves every reading unchanged, and time ``read``.

    .venv/bin/python benchmarks/recognizer_equivalence.py make /tmp/eq         # frames + profiles
    .venv/bin/python benchmarks/recognizer_equivalence.py record /tmp/eq /tmp/eq/before.json
    ... change vision ...
    .venv/bin/python benchmarks/recognizer_equivalence.py record /tmp/eq /tmp/eq/after.json
    .venv/bin/python benchmarks/recognizer_equivalence.py compare /tmp/eq/before.json \\
        /tmp/eq/after.json
    .venv/bin/python benchmarks/recognizer_equivalence.py time /tmp/eq --reps 3

``make`` renders a fixed, seeded set of 640x480 frames with the simulator (the
built-in deck under the "normal" and "hard" presets and every frame kind, plus a
few gnome-cards-data designs when installed) and stores them, with a copy of each
deck's calibrated profile, in a folder: later runs read exactly these pixels even
if the simulator changes meanwhile.  It also renders seeded passes of the
in-shoe camera (``SHOE_DESIGNS``, tuning designs only; every frame of each
pass), read by ``vision.in_shoe.InShoeReader`` with the design's profile and
without; their record keeps every field of a reading that fusion uses (the
guesses, and the evidence bit for bit as a digest).  ``record`` reads every frame with the
deck's profile (the table's mode) and with the generic classifier, and writes
the readings (floats as ``repr``, so bit-exact) plus digests of the
intermediate results (card outline, corner glyphs, feature vectors, corner
votes) and of a fresh calibration of each deck, for a stricter comparison than
the readings alone.  ``time`` reports the median and mean of ``read`` per mode
(one OpenCV thread).  The package read is whichever ``vision`` comes first on
``sys.path``: put an unchanged copy first with ``PYTHONPATH`` to time the
original under the same machine load.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

# After PYTHONPATH, so an unchanged copy of ``vision`` can be timed against this one.
sys.path.append(str(Path(__file__).resolve().parent.parent))

Image = npt.NDArray[np.uint8]

#: (deck, preset, kind, frames) blocks of the check set
BUILTIN_BLOCKS = [
    (preset, kind, n)
    for preset in ("normal", "hard")
    for kind, n in (
        ("card", 320),
        ("finger", 60),
        ("card_back", 25),
        ("empty_table", 25),
        ("glare", 25),
        ("mostly_covered", 25),
        ("blackout", 10),
    )
]
#: tuning designs only (``vision_split``): a four-colour deck of a training
#: family and a German training deck with B/D/K courts stand for the
#: held-out ``anglo_modern_4_color`` and ``swiss-xvii`` this list once read
GNOME_DECKS = ("anglo", "paris", "neoclassical_4_color", "berlin")
GNOME_BLOCKS = [
    ("normal", "card", 80),
    ("normal", "finger", 15),
    ("hard", "card", 40),
    ("hard", "finger", 10),
    ("hard", "glare", 5),
    ("hard", "mostly_covered", 5),
    ("normal", "card_back", 5),
]


#: in-shoe passes of the check set: (design, preset, passes), tuning designs
#: only (``vision_split``: three validation, three training)
SHOE_DESIGNS = ("builtin:duplex", "tango", "plastic", "builtin:classic", "builtin:modern",
                "anglo")
SHOE_BLOCKS = [(d, preset, 5) for d in SHOE_DESIGNS for preset in ("normal", "hard")]


def _blocks() -> list[tuple[str, str, str, int]]:
    from hardware_sim.cards import gnome

    out = [("builtin", p, k, n) for p, k, n in BUILTIN_BLOCKS]
    if gnome.available():
        installed = set(gnome.list_designs())
        out += [(d, p, k, n) for d in GNOME_DECKS if d in installed for p, k, n in GNOME_BLOCKS]
    return out


def make(folder: Path) -> None:
    """Render the check set and copy each deck's calibrated profile into ``folder``."""
    from hardware_sim.camera.frames import make_frame
    from hardware_sim.camera.profile_cache import camera_profile, profile_path
    from hardware_sim.camera.sim_camera import SimCamera
    from hardware_sim.cards import CARD_CODES, open_deck

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "profiles").mkdir(exist_ok=True)
    blocks = _blocks()
    total = sum(b[3] for b in blocks)
    frames = np.lib.format.open_memmap(
        folder / "frames.npy", mode="w+", dtype=np.uint8, shape=(total, 480, 640, 3)
    )
    meta: list[dict[str, Any]] = []
    profiles: dict[str, str | None] = {}
    i = 0
    for seed, (deck_name, preset, kind, n) in enumerate(blocks):
        if deck_name not in profiles:
            prof = camera_profile(SimCamera(deck_name, mode="overhead"))
            if prof is None:
                profiles[deck_name] = None
            else:
                # the file the table itself would load (quantised templates)
                dst = folder / "profiles" / f"{deck_name}.npz"
                shutil.copyfile(profile_path(deck_name), dst)
                profiles[deck_name] = dst.name
        deck = open_deck(deck_name)
        rng = np.random.default_rng(1000 + seed)
        for _ in range(n):
            code = None if kind == "empty_table" else str(rng.choice(CARD_CODES))
            f = make_frame(deck, code, rng, preset=preset, kind=kind)
            frames[i] = f.image
            meta.append({"deck": deck_name, "preset": preset, "kind": kind, "code": f.code})
            i += 1
        print(f"{deck_name:22s} {preset:6s} {kind:15s} {n:4d}", flush=True)
    frames.flush()
    (folder / "meta.json").write_text(json.dumps({"frames": meta, "profiles": profiles}))
    print(f"{total} frames in {folder}")
    _make_shoe(folder)


def _make_shoe(folder: Path) -> None:
    """The in-shoe passes of ``SHOE_BLOCKS`` and each design's profile file."""
    from hardware_sim.camera.in_shoe import InShoeRenderer
    from hardware_sim.camera.profile_cache import deck_profile, profile_path
    from hardware_sim.cards import gnome

    installed = set(gnome.list_designs()) if gnome.available() else set()
    images: list[Image] = []
    meta: list[dict[str, Any]] = []
    profiles: dict[str, str] = {}
    for seed, (design, preset, passes) in enumerate(SHOE_BLOCKS):
        if not design.startswith("builtin") and design not in installed:
            continue
        deck = "builtin" if design == "builtin:classic" else design
        if design not in profiles:
            deck_profile(deck)  # calibrated and cached as the table's simulations do
            name = design.replace(":", "_") + ".npz"
            shutil.copyfile(profile_path(deck), folder / "profiles" / name)
            profiles[design] = name
        rng = np.random.default_rng((2000, seed))
        renderer = InShoeRenderer(design, preset=preset, seed=2000 + seed)
        for k in range(passes):
            code = str(rng.choice(CARD_CODES_52))
            for f in renderer.render_pass(renderer.plan(code, rng), rng):
                images.append(f.image)
                meta.append({"deck": design, "preset": preset, "pass": k, "code": code})
        print(f"{design:22s} {preset:6s} in-shoe {passes} passes", flush=True)
    np.save(folder / "shoe_frames.npy", np.stack(images))
    (folder / "shoe_meta.json").write_text(json.dumps({"frames": meta, "profiles": profiles}))
    print(f"{len(images)} in-shoe frames in {folder}")


#: the cards the in-shoe passes are drawn from
CARD_CODES_52 = tuple(r + s for s in "SHDC" for r in "A23456789TJQK")


def _load(folder: Path) -> tuple[Any, list[dict[str, Any]], dict[str, Any]]:
    from vision.profile import load_profile

    meta = json.loads((folder / "meta.json").read_text())
    frames = np.load(folder / "frames.npy", mmap_mode="r")
    profiles = {
        deck: load_profile(folder / "profiles" / name) if name else None
        for deck, name in meta["profiles"].items()
    }
    return frames, meta["frames"], profiles


def _recognizers(profiles: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    from vision.recognizer import Recognizer

    return {d: Recognizer(p) for d, p in profiles.items() if p is not None}, Recognizer()


def _sha(a: Any) -> str:
    return hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def _reading(r: Any) -> list[Any]:
    return [r.card, repr(r.confidence), r.reason, r.guess, r.corners]


def _vote(v: Any) -> list[Any]:
    return [v.card, repr(v.confidence), v.problem, v.sure]


def _deep(frame: Image, rec: Any) -> list[Any]:
    """Digests of every intermediate result of ``rec`` reading ``frame``."""
    from vision.detect import find_card
    from vision.glyph_model import features
    from vision.index import corner_patch, read_patch

    det = find_card(frame)
    if det is None:
        return [None]
    out: list[Any] = [_sha(det.quad), repr(det.fill)]
    for k in range(2):
        patch = corner_patch(frame, det.quad, k)
        g = read_patch(patch)
        if g is None:
            out.append([_sha(patch), None])
            continue
        item = [
            _sha(patch), repr(g.rank_aspect), repr(g.rank_height), repr(g.suit_height),
            [repr(c) for c in g.colour], _sha(g.rank_ink), _sha(g.suit_ink),
            _sha(features(g.rank_ink)), _sha(features(g.suit_ink)), _vote(rec._classify(g)),
        ]
        if rec.profile is not None:
            item += [_sha(g.rank), _sha(g.suit), _vote(rec._match(g)), _vote(rec._vote(g))]
        out.append(item)
    return out


def _calibrations(folder: Path, decks: list[str]) -> dict[str, str | None]:
    """Digests of a fresh calibration of each deck (the profile the table would
    make with this ``vision``)."""
    from hardware_sim.camera.profile_cache import calibrate_deck
    from vision.profile import ProfileError

    out: dict[str, str | None] = {}
    for d in decks:
        try:
            p = calibrate_deck(d)
        except ProfileError:
            out[d] = None
            continue
        out[d] = "|".join([
            _sha(p.rank_templates), _sha(p.suit_templates), "".join(p.rank_labels),
            "".join(p.suit_labels), repr(sorted(p.suit_colours.items())), repr(p.rank_height),
        ])
    return out


def record(folder: Path, out_path: Path, deep: bool, calibrate: bool, threads: int) -> None:
    import vision

    print(f"vision from {Path(vision.__file__).parent}, {threads} OpenCV thread(s)")
    cv2.setNumThreads(threads)
    frames, meta, profiles = _load(folder)
    by_deck, generic = _recognizers(profiles)
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    for i, m in enumerate(meta):
        frame = np.array(frames[i])
        row: dict[str, Any] = {"generic": _reading(generic.read(frame))}
        rec = by_deck.get(m["deck"])
        if rec is not None:
            row["profile"] = _reading(rec.read(frame))
        if deep:
            row["deep_generic"] = _deep(frame, generic)
            if rec is not None:
                row["deep_profile"] = _deep(frame, rec)
        rows.append(row)
    result: dict[str, Any] = {"frames": meta, "readings": rows}
    if (folder / "shoe_meta.json").exists():
        result["shoe"] = _record_shoe(folder)
    if calibrate:
        result["calibrations"] = _calibrations(folder, sorted(profiles))
    out_path.write_text(json.dumps(result))
    n = sum(len([k for k in r if not k.startswith("deep")]) for r in rows)
    print(f"{len(rows)} frames, {n} readings in {time.perf_counter() - t0:.0f} s -> {out_path}")


def _full(r: Any) -> list[Any]:
    """Every field of a reading fusion uses, floats bit for bit."""
    ev = None if r.evidence is None else _sha(np.asarray(r.evidence, np.float64))
    return [*_reading(r), [[c, repr(p)] for c, p in r.guesses], ev, list(r.accepted)]


def _record_shoe(folder: Path) -> dict[str, Any]:
    """The in-shoe frames read with each design's profile and without, both
    raw (``frame_margin`` 0, as ``benchmarks/in_shoe_bench.py`` reads them)
    and as a frame alone is named (the shipped margin)."""
    from vision.in_shoe import InShoeReader
    from vision.profile import load_profile

    meta = json.loads((folder / "shoe_meta.json").read_text())
    frames = np.load(folder / "shoe_frames.npy", mmap_mode="r")
    readers = {d: InShoeReader(load_profile(folder / "profiles" / name), frame_margin=0.0)
               for d, name in meta["profiles"].items()}
    shipped = {d: InShoeReader(r.recognizer) for d, r in readers.items()}
    generic = InShoeReader(frame_margin=0.0)
    rows = []
    for i, m in enumerate(meta["frames"]):
        frame = np.array(frames[i])
        rows.append({
            "shoe_profile": _full(readers[m["deck"]].read(frame)),
            "shoe_profile_alone": _full(shipped[m["deck"]].read(frame)),
            "shoe_generic": _full(generic.read(frame)),
        })
    print(f"{len(rows)} in-shoe frames read")
    return {"frames": meta["frames"], "readings": rows}


def _compare_rows(
    frames: list[Any], ra_rows: list[dict[str, Any]], rb_rows: list[dict[str, Any]],
    counts: dict[str, int], bad: int,
) -> int:
    for i, (ra, rb) in enumerate(zip(ra_rows, rb_rows, strict=True)):
        for key in sorted(set(ra) | set(rb)):
            if key not in ra or key not in rb:
                continue  # deep digests recorded only on one side
            counts[key] = counts.get(key, 0) + 1
            if ra[key] != rb[key]:
                bad += 1
                if bad <= 20:
                    print(f"frame {i} {frames[i]} {key}:")
                    print(f"  before {ra[key]}\n  after  {rb[key]}")
    return bad


def compare(a_path: Path, b_path: Path) -> int:
    a, b = json.loads(a_path.read_text()), json.loads(b_path.read_text())
    if a["frames"] != b["frames"]:
        print("the two files describe different frame sets")
        return 2
    counts: dict[str, int] = {}
    bad = _compare_rows(a["frames"], a["readings"], b["readings"], counts, 0)
    sa, sb = a.get("shoe"), b.get("shoe")
    if sa is not None and sb is not None:
        if sa["frames"] != sb["frames"]:
            print("the two files describe different in-shoe frame sets")
            return 2
        bad = _compare_rows(sa["frames"], sa["readings"], sb["readings"], counts, bad)
    ca, cb = a.get("calibrations"), b.get("calibrations")
    if ca is not None and cb is not None:
        for deck in sorted(ca):
            same = ca[deck] == cb.get(deck)
            print(f"calibration of {deck}: {'same' if same else 'DIFFERENT'}")
            bad += not same
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    shoe = f" and {len(sa['frames'])} in-shoe" if sa is not None and sb is not None else ""
    print(f"{len(a['frames'])}{shoe} frames compared ({summary}): "
          f"{'all equal' if not bad else f'{bad} differences'}")
    return 1 if bad else 0


def timing(folder: Path, reps: int, limit: int | None) -> None:
    import vision

    cv2.setNumThreads(1)
    frames, meta, profiles = _load(folder)
    by_deck, generic = _recognizers(profiles)
    n = len(meta) if limit is None else min(limit, len(meta))
    images = [np.array(frames[i]) for i in range(n)]
    modes: dict[str, list[tuple[Any, Image]]] = {"profile": [], "generic": []}
    for i in range(n):
        rec = by_deck.get(meta[i]["deck"])
        if rec is not None:
            modes["profile"].append((rec, images[i]))
        modes["generic"].append((generic, images[i]))
    print(f"vision from {Path(vision.__file__).parent}, {reps} reps")
    for name, work in modes.items():
        for rec, img in work[:50]:
            rec.read(img)  # warm up
        per_frame = np.zeros((reps, len(work)))
        for r in range(reps):
            for j, (rec, img) in enumerate(work):
                t = time.perf_counter()
                rec.read(img)
                per_frame[r, j] = time.perf_counter() - t
        best = per_frame.min(axis=0) * 1000  # each frame's least disturbed run
        allms = per_frame.reshape(-1) * 1000
        print(f"{name:8s} {len(work):5d} frames  median {statistics.median(allms):.3f} ms  "
              f"mean {allms.mean():.3f} ms  (per-frame min: median {np.median(best):.3f}, "
              f"mean {best.mean():.3f})", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("make", help="render the frame set and copy the profiles")
    p.add_argument("folder", type=Path)
    p = sub.add_parser("record", help="read every frame and save the readings")
    p.add_argument("folder", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--no-deep", action="store_true", help="readings only")
    p.add_argument("--no-calibrate", action="store_true", help="skip fresh calibrations")
    p.add_argument("--threads", type=int, default=1, help="OpenCV threads (default 1)")
    p = sub.add_parser("compare", help="compare two recorded runs")
    p.add_argument("before", type=Path)
    p.add_argument("after", type=Path)
    p = sub.add_parser("time", help="median and mean ms per read")
    p.add_argument("folder", type=Path)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--limit", type=int, default=None, help="first N frames only")
    args = ap.parse_args(argv)
    if args.cmd == "make":
        make(args.folder)
    elif args.cmd == "record":
        record(args.folder, args.out, not args.no_deep, not args.no_calibrate, args.threads)
    elif args.cmd == "compare":
        return compare(args.before, args.after)
    else:
        timing(args.folder, args.reps, args.limit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
