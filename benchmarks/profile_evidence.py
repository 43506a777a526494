"""Could a deck profile's own templates add evidence to the fused reading?

    .venv/bin/python benchmarks/profile_evidence.py --seed 18 --designs "$KEPT_OUT"
    .venv/bin/python benchmarks/profile_evidence.py --seed 30 --designs "$TRAINED"

(``$KEPT_OUT``: the four ``FONT_STRESS`` decks and the validation designs
``builtin:duplex,tango,plastic``; ``$TRAINED``: training designs and font
decks, listed in docs/vision.md, "Fourteenth pass".)

With a calibrated profile the recogniser has two witnesses per index corner:
the deck's own glyph templates (correlations) and the generic classifier
(probabilities).  Only the classifier's probabilities become fused evidence
(``vision.evidence.corner_evidence``); the templates only vote, and an
accepted corner adds ``ACCEPT_BONUS`` nats.  On new typefaces a profile left
about as many cards unsure as the generic mode, so this asks, on frames of the
overhead camera (hard preset, 12 per card, as ``vision_fuse.py``), what two
ways of letting the templates speak louder would do to the shipped "any 20"
rule:

* ``templates``: every corner adds ``w * max((s_c - s_best) / tau, floor)``
  per card from its template scores (rank and suit apart), for a grid of
  ``tau``, ``floor`` and ``w``;
* ``bonus``: every corner accepted on its own adds ``extra`` nats more to its
  card (on top of the frame's ``ACCEPT_BONUS``).

Frames are read once (``--cache`` keeps them); the rules are replayed offline.
Held-out designs are refused: this is read on training, validation and the
kept-out ``FONT_STRESS`` decks only.  Figures: docs/vision.md, "Fourteenth
pass".
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision_split import open_design, refuse_held_out, require_fonts, standard_codes  # noqa: E402

from hardware_sim.camera import SimCamera  # noqa: E402
from vision.calibrate import calibrate_images  # noqa: E402
from vision.cards import CARD_CODES, RANKS, SUITS  # noqa: E402
from vision.evidence import FUSE_MARGIN, margin  # noqa: E402
from vision.profile import ProfileError  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402

_RANK_OF = np.array([RANKS.index(c[0]) for c in CARD_CODES])
_SUIT_OF = np.array([SUITS.index(c[1]) for c in CARD_CODES])
#: frames of one resting card, and frames before an early answer (vision_fuse.py)
GRABS, EARLY = 12, 3

Card = dict[str, Any]


def collect(designs: list[str], seed: int, preset: str) -> list[Card]:
    """Every standard card of each design read in profile mode, frame by frame,
    with each corner's vote, classifier evidence and template scores."""
    cards: list[Card] = []
    for name in designs:
        deck = open_design(name)
        try:
            prof = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name=name)
        except ProfileError as exc:
            print(f"{name}: calibration refused ({exc}); left out", file=sys.stderr)
            continue
        rec = Recognizer(prof)
        seen: list[dict[str, Any]] = []
        vote = rec._vote

        def spy(g: Any, vote: Any = vote, prof: Any = prof, seen: Any = seen) -> Any:
            v = vote(g)
            seen.append({"card": v.card, "problem": v.problem,
                         "evidence": None if v.evidence is None else v.evidence.copy(),
                         "rank_scores": prof.rank_match(g.rank)[0].copy(),
                         "suit_scores": prof.suit_match(g.suit)[0].copy()})
            return v

        rec._vote = spy  # type: ignore[method-assign]
        cam = SimCamera(deck, preset=preset, seed=seed + len(name), mode="overhead")
        for code in standard_codes(name):
            cam.show(code)
            frames = []
            for image in (cam.grab() for _ in range(GRABS)):
                if image is None:
                    continue
                seen.clear()
                r = rec.read(image)
                frames.append({"evidence": None if r.evidence is None else r.evidence.copy(),
                               "corners": list(seen)})
            cards.append({"design": name, "code": code, "frames": frames})
        print(f"  read {name}", file=sys.stderr, flush=True)
    return cards


def template_evidence(corner: dict[str, Any], tau: float, floor: float) -> np.ndarray:
    """Per card: each glyph's template score behind its best, in units of
    ``tau``, floored (the "?" class left out)."""
    rs = np.asarray(corner["rank_scores"][:-1], np.float64)
    ss = np.asarray(corner["suit_scores"][:-1], np.float64)
    lr = np.maximum((rs - rs.max()) / tau, floor)
    ls = np.maximum((ss - ss.max()) / tau, floor)
    out: np.ndarray = lr[_RANK_OF] + ls[_SUIT_OF]
    return out


def fused(card: Card, extra: Any) -> str | None:
    """The "any 20" decision (``FrameFusion`` without ``require_accept``) with
    ``extra(corner)`` added to each corner's frame evidence."""
    total = None
    for i, f in enumerate(card["frames"]):
        if f["evidence"] is None:
            continue
        e = f["evidence"] + sum((extra(c) for c in f["corners"] if c["evidence"] is not None),
                               np.zeros(len(CARD_CODES)))
        total = e if total is None else total + e
        best, lead = margin(total)
        if i + 1 >= EARLY and lead >= FUSE_MARGIN:
            return CARD_CODES[best]
    if total is None:
        return None
    best, lead = margin(total)
    return CARD_CODES[best] if lead >= FUSE_MARGIN else None


def tally(cards: list[Card], extra: Any) -> tuple[int, int, int, list[str]]:
    right = wrong = unsure = 0
    wrongs: list[str] = []
    for card in cards:
        said = fused(card, extra)
        if said is None:
            unsure += 1
        elif said == card["code"]:
            right += 1
        else:
            wrong += 1
            wrongs.append(f"{card['design']} {card['code']}->{said}")
    return right, wrong, unsure, wrongs


def rules() -> Iterator[tuple[str, Any]]:
    yield "shipped", lambda c: 0.0
    for tau in (0.01, 0.02, 0.03, 0.05):
        for floor in (-3.0, -5.0):
            for w in (0.5, 1.0):
                yield (f"templates tau {tau:g} floor {floor:g} w {w:g}",
                       lambda c, t=tau, f=floor, w=w: w * template_evidence(c, t, f))
    for extra in (1.0, 2.0, 4.0, 6.0):
        def bonus(c: dict[str, Any], x: float = extra) -> np.ndarray:
            out = np.zeros(len(CARD_CODES))
            if not c["problem"] and c["card"] in CARD_CODES:
                out[CARD_CODES.index(c["card"])] = x
            return out
        yield f"bonus +{extra:g} per accepted corner", bonus


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--designs", required=True, help="comma-separated (no held-out design)")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--preset", default="hard")
    ap.add_argument("--cache", type=Path, default=None, help="keep the readings (pickle)")
    args = ap.parse_args(argv)
    designs = args.designs.split(",")
    refuse_held_out(tuple(designs))
    require_fonts(tuple(designs))
    cv2.setNumThreads(1)
    if args.cache is not None and args.cache.exists():
        with args.cache.open("rb") as fh:
            cards = pickle.load(fh)
    else:
        cards = collect(designs, args.seed, args.preset)
        if args.cache is not None:
            with args.cache.open("wb") as fh:
                pickle.dump(cards, fh)
    print(f"designs: {args.designs}  seed {args.seed}  preset {args.preset}  "
          f"profile mode, {len(cards)} cards, rule 'any {FUSE_MARGIN:g}'")
    for label, extra in rules():
        right, wrong, unsure, wrongs = tally(cards, extra)
        print(f"{label:<40} right {right:4d}  wrong {wrong:2d}  unsure {unsure:3d}"
              + (f"  ({', '.join(wrongs[:4])})" if wrongs else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
