"""What the clean-paper safety benchmarks share (``empty_places_safety.py``,
``side_columns_safety.py``): their options, each design's calibrated
profile, and camera frames with a strong glare spot centred on one of the
card's own pips, so that pips are lost under glare far more often than on
a table.  A rule that reads clean paper must never take such a pip for
paper; these frames are where it would."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

import numpy as np

from hardware_sim.camera.frames import Glare, Scene
from hardware_sim.cards import CARD_CODES, Deck
from vision.calibrate import calibrate_images
from vision.profile import DeckProfile, ProfileError


def safety_options(description: str, seed: int) -> argparse.ArgumentParser:
    """The options both benchmarks take: the designs (development data
    only, unless ``--read-groups``), frames of each kind per card, the seed."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--designs", required=True, help="comma-separated")
    ap.add_argument("--read-groups", action="store_true",
                    help="allow designs of groups already read (development data)")
    ap.add_argument("--frames", type=int, default=2, help="frames of each kind per card")
    ap.add_argument("--seed", type=int, default=seed)
    return ap


def calibrated(deck: Deck, name: str) -> DeckProfile | None:
    """``deck``'s profile from its clean faces; None (said) when refused."""
    try:
        return calibrate_images({c: deck.face(c) for c in CARD_CODES}, name=name)
    except ProfileError as exc:
        print(f"{name}: calibration refused: {exc}")
        return None


def design_rng(seed: int, name: str) -> np.random.Generator:
    """One design's frames' randomness: the same for a design whatever else
    is read beside it."""
    return np.random.default_rng([seed, len(name), sum(map(ord, name))])


def on_face(corners: Any, u: float, v: float) -> tuple[float, float]:
    """The frame point at ``(u, v)`` (fractions of the face's width and
    height) of the card whose corners are TL, TR, BR, BL."""
    tl, tr, br, bl = (np.asarray(c, np.float64) for c in corners)
    top, bottom = tl + u * (tr - tl), bl + u * (br - bl)
    p = top + v * (bottom - top)
    return float(p[0]), float(p[1])


def glare_on(scene: Scene, place: tuple[float, float], rng: np.random.Generator) -> Scene:
    """``scene`` with one strong glare spot centred on ``place`` of the card
    (fractions of its face): 0.08 to 0.2 of the card's width across, 0.6
    to 0.9 strong, enough to wash out the pip there."""
    assert scene.corners is not None
    width = float(np.linalg.norm(scene.corners[1] - scene.corners[0]))
    glare = Glare(on_face(scene.corners, *place), float(rng.uniform(0.08, 0.2)) * width,
                  float(rng.uniform(0.6, 0.9)))
    return replace(scene, glares=(glare,))
