"""Helpers of the body tests (``test_vision_pip_cards``, ``test_vision_ace_veto``,
``test_vision_layout_veto``): what the overhead reader's body reading says of
one camera frame, as ``Recognizer._read`` computes it (outline, index boxes,
then the body), and the fusion of frames whose index leans to one card, some
of them over a body."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from hardware_sim.camera import make_frame
from hardware_sim.cards import open_deck
from vision.cards import CARD_CODES
from vision.detect import find_card
from vision.evidence import FrameFusion, FusedDecision
from vision.index import card_corners
from vision.pips import BodyReading, index_box_in_card, read_body
from vision.recognizer import Reading, Recognizer, with_body

#: the number cards of every suit: what a standard deck prints as pips
NUMBER_CARDS = frozenset(c for c in CARD_CODES if c[0] in "23456789T")
#: its courts: what it prints as pictures
COURTS = frozenset(c for c in CARD_CODES if c[0] in "JQK")


def frame_body(rec: Recognizer, frame: np.ndarray) -> BodyReading | None:
    """The body reading of ``frame`` (None: no card outline found)."""
    src = np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA), np.uint8)
    det = find_card(src)
    if det is None:
        return None
    boxes = [index_box_in_card(g.box, k) for k, g in enumerate(card_corners(src, det.quad))
             if g is not None and g.box is not None]
    return read_body(src, det.quad, boxes, rec.model, rec._ink_fits)


def camera_bodies(design: str, seed: int) -> Iterator[tuple[str, str, BodyReading]]:
    """``(card, preset, body)`` for a camera frame of every card of ``design``
    in the normal and the hard preset (frames where no outline was found are
    left out), read by the generic reader."""
    deck = open_deck(design)
    rng = np.random.default_rng(seed)
    rec = Recognizer()
    for code in CARD_CODES:
        for preset in ("normal", "hard"):
            body = frame_body(rec, make_frame(deck, code, rng, preset=preset).image)
            if body is not None:
                yield code, preset, body


def leaning(card: str, lead: float = 30.0) -> np.ndarray:
    """Per-card evidence of an index that puts ``card`` ``lead`` nats ahead of
    every other card."""
    evidence = np.full(len(CARD_CODES), -lead)
    evidence[CARD_CODES.index(card)] = 0.0
    return evidence


def index_reading(card: str) -> Reading:
    """A frame whose index alone names ``card``, sure of it."""
    return Reading(card, 0.99, evidence=leaning(card), accepted=(card,))


def fused(card: str, body: BodyReading, over_body: int, frames: int = 6) -> FusedDecision:
    """The fusion of ``frames`` frames whose index names ``card``, the first
    ``over_body`` of them over ``body``."""
    fusion = FrameFusion()
    for k in range(frames):
        reading = index_reading(card)
        fusion.push(with_body(reading, body) if k < over_body else reading)
    return fusion.decide(final=True)
