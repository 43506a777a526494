"""``pontoon-table vision calibrate DIR --out PROFILE`` and
``pontoon-table vision read [--profile PROFILE] [--mode MODE] IMAGE... [--json]`` and
``pontoon-table vision pass [--profile PROFILE] FRAME... [--json]``.

Both are used by the table and by acceptance checks, so their output is
stable: ``read --json`` prints one JSON object per image, in argument order,
with ``card`` null when unsure, ``reason`` a code saying why (``no_card``,
``no_index``, ``corners_disagree``, ``colour``, ``low_confidence``,
``not_standard``, ``orientation``, ``pips_disagree``, ``bad_image``; empty
when read),
``detail`` the same in words, and ``guesses`` the likeliest cards when unsure
(``[{"card": "6H", "p": 0.41}, ...]``).  Bad input (a missing file, an image that is
not one, a folder missing cards) gets one plain line on stderr and a non-zero
exit, never a traceback; the other images are still read.

``read --mode in-shoe`` (or ``auto``, the default, which knows an in-shoe frame
by the dark floor around the window) reads a frame of the in-shoe camera
(``vision.in_shoe``): it names the card only when that frame alone is sure;
a frame of the card's middle or of the empty window is null with its reason
(``middle``, ``no_card``, ``partial``).  ``pass`` reads the frames of one
card's pass in order and prints one line: ``{"card": "QH" | null,
"confidence", "frames", "used", "ms", "reason", "detail", "guesses"}``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.profile import DeckProfile

EXIT_BAD_INPUT = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="vision_command", metavar="{calibrate,read,pass}")
    sub.required = True
    cal = sub.add_parser(
        "calibrate",
        help="learn a deck profile from 52 clean card images",
        description="Learn a deck profile from DIR, which holds one clean upright image "
        "of each of the 52 cards, named by card code (AS.png, TD.png, 7H.png, ...).",
    )
    cal.add_argument("dir", metavar="DIR", nargs="?", help="folder with the 52 card images")
    cal.add_argument(
        "--camera", metavar="SOURCE",
        help="instead of DIR: learn from the camera (index, device or URL), "
        "the dealer showing each card as the screen asks",
    )
    cal.add_argument("--out", required=True, metavar="PROFILE", help="profile file to write")
    cal.add_argument("--name", help="name stored in the profile (default: the folder's name)")
    rd = sub.add_parser(
        "read",
        help="read the card in each image",
        description="Read the card in each image. Without --profile the generic "
        "profile (standard indices) is used.",
    )
    rd.add_argument("images", nargs="+", metavar="IMAGE")
    rd.add_argument("--profile", metavar="PROFILE", help="deck profile from 'vision calibrate'")
    rd.add_argument("--json", action="store_true", help="one JSON object per line per image")
    rd.add_argument("--mode", choices=("auto", "overhead", "in-shoe"), default="auto",
                    help="overhead: a card on the table; in-shoe: a frame of the camera under "
                    "the shoe's window; auto (default): tell by the frame")
    ps = sub.add_parser(
        "pass",
        help="read one card from the frames of its pass over the shoe's window",
        description="Read the card whose pass over the in-shoe camera's window FRAME... show, "
        "in order: every frame's evidence is fused into one answer.",
    )
    ps.add_argument("frames", nargs="+", metavar="FRAME")
    ps.add_argument("--profile", metavar="PROFILE", help="deck profile from 'vision calibrate'")
    ps.add_argument("--json", action="store_true", help="one JSON object on one line")


def _calibrate(args: argparse.Namespace) -> int:
    from vision.calibrate import calibrate_folder
    from vision.profile import ProfileError

    if (args.dir is None) == (args.camera is None):
        print(
            "pontoon-table vision calibrate: give either DIR (52 card images) or --camera SOURCE",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    try:
        if args.camera is not None:
            profile = _calibrate_from_camera(args.camera, name=args.name or "table deck")
        else:
            profile = calibrate_folder(args.dir, name=args.name)
    except ProfileError as exc:
        print(f"pontoon-table vision calibrate: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = Path(args.out)
    try:
        if out.parent and not out.parent.exists():
            out.parent.mkdir(parents=True)
        profile.save(out)
    except OSError as exc:
        print(f"pontoon-table vision calibrate: cannot write {out}: {exc}", file=sys.stderr)
        return 1
    print(f"deck profile {profile.name!r} written to {out} (52 cards learned; "
          f"{len(profile.pip_cards)} print their pips as number cards)")
    return 0


def _calibrate_from_camera(source: str, *, name: str) -> DeckProfile:
    from vision.guided import guided_calibration
    from vision.profile import ProfileError
    from vision.sources import open_camera

    try:
        camera = open_camera(int(source) if source.isdigit() else source)
    except Exception as exc:  # OpenCV reports a missing camera in many ways
        raise ProfileError(f"cannot open camera {source}: {exc}") from None
    return guided_calibration(camera, lambda text: print(text, flush=True), name=name)


def _read(args: argparse.Namespace) -> int:
    import cv2

    from vision.in_shoe import InShoeReader, looks_in_shoe
    from vision.profile import ProfileError
    from vision.recognizer import Recognizer
    from vision.sources import ImageError, load_image

    cv2.setNumThreads(1)
    try:
        recognizer = Recognizer(args.profile)
    except ProfileError as exc:
        print(f"pontoon-table vision read: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    in_shoe = InShoeReader(recognizer)
    status = 0
    for path in args.images:
        start = time.perf_counter()
        try:
            frame = load_image(path)
        except ImageError as exc:
            print(f"pontoon-table vision read: {exc}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            ms = (time.perf_counter() - start) * 1000
            if args.json:
                print(json.dumps({"image": path, "card": None, "confidence": 0.0,
                                  "ms": round(ms, 3), "reason": "bad_image",
                                  "detail": str(exc), "guesses": []}), flush=True)
            continue
        shoe = args.mode == "in-shoe" or (args.mode == "auto" and looks_in_shoe(frame))
        reading = in_shoe.read(frame) if shoe else recognizer.read(frame)
        ms = (time.perf_counter() - start) * 1000  # decoding the file counts too
        if args.json:
            record = {
                "image": path,
                "card": reading.card,
                "confidence": round(reading.confidence, 4),
                "ms": round(ms, 3),
                # why unsure, as a code a program can act on, and in words
                "reason": reading.code,
                "detail": reading.reason,
                # the likeliest cards when unsure, for the dealer's confirm screen
                "guesses": [{"card": c, "p": p} for c, p in reading.guesses],
            }
            print(json.dumps(record), flush=True)
        elif reading.card is None:
            guess = f", looks like {reading.guess}" if reading.guess else ""
            print(f"{path}: unsure ({reading.reason}{guess}) [{ms:.1f} ms]", flush=True)
        else:
            print(f"{path}: {reading.card} (confidence {reading.confidence:.2f}) "
                  f"[{ms:.1f} ms]", flush=True)
    return status


def _pass(args: argparse.Namespace) -> int:
    import cv2

    from vision.in_shoe import InShoeReader
    from vision.profile import ProfileError
    from vision.sources import ImageError, load_image

    cv2.setNumThreads(1)
    try:
        reader = InShoeReader(args.profile)
    except ProfileError as exc:
        print(f"pontoon-table vision pass: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    status = 0
    start = time.perf_counter()
    fusion = reader.fusion()
    for path in args.frames:
        try:
            frame = load_image(path)
        except ImageError as exc:
            # a frame that cannot be read is a frame that never came
            print(f"pontoon-table vision pass: {exc}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            fusion.push(None)
            continue
        fusion.push(frame)
    result = fusion.result()
    ms = (time.perf_counter() - start) * 1000  # decoding the files counts too
    if args.json:
        print(json.dumps({
            "card": result.card,
            "confidence": round(result.confidence, 4),
            "frames": result.frames,
            "used": result.used,
            "ms": round(ms, 3),
            "reason": result.code,
            "detail": result.reason,
            "guesses": [{"card": c, "p": p} for c, p in result.guesses],
        }), flush=True)
    elif result.card is None:
        guesses = ", ".join(f"{c} {p:.2f}" for c, p in result.guesses)
        print(f"unsure ({result.reason}{'; ' + guesses if guesses else ''}) "
              f"[{result.frames} frames, {result.used} used, {ms:.1f} ms]", flush=True)
    else:
        print(f"{result.card} (confidence {result.confidence:.2f}) "
              f"[{result.frames} frames, {result.used} used, {ms:.1f} ms]", flush=True)
    return status


def run(args: argparse.Namespace) -> int:
    if args.vision_command == "calibrate":
        return _calibrate(args)
    if args.vision_command == "pass":
        return _pass(args)
    return _read(args)
