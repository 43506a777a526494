"""A three by its axis: a middle pip and an end pip on the card's long axis,
sure of one suit, are a 3's (``vision.pips.three_by_its_axis``;
docs/vision.md, twenty-fourth pass).

Expected answers are derived by hand from where the standard layouts put
their pips: only a 3 prints a pip both in the card's middle and at an end
of its long axis (a 2 has no middle pip, a 5's and a 9's middle pip stands
alone on the axis, a 7's odd pip is on the axis but a sixth of the length
from the middle).  The frame test paints a real 3's end pip out, as glare
pales it, and reads the camera's frames."""

from __future__ import annotations

import numpy as np
import pytest
from body_frames import frame_body

from hardware_sim.camera import make_frame
from hardware_sim.cards import LooseFace, open_deck
from vision.pips import BODY_H, BODY_W, THREE_VETO, Blob, Pip, three_by_its_axis
from vision.recognizer import Recognizer

CLASSES = Recognizer().model.suit.classes


def _mark(x: float, y: float, suit: str, sure: float = 0.97,
          area: int = 120) -> tuple[Blob, Pip]:
    """A mark at ``(x, y)`` (shares of the body's width and length) that the
    suit classifier gives ``suit`` with probability ``sure``."""
    probs = np.full(len(CLASSES), (1 - sure) / (len(CLASSES) - 1), np.float32)
    probs[CLASSES.index(suit)] = sure
    blob = Blob(x * BODY_W, y * BODY_H, area, 12, np.zeros((1, 1), np.float32),
                (0.1, 0.1, 0.1))
    return blob, Pip(blob.x, blob.y, area, probs, probs, 12, blob.colour)


def _read(*marks: tuple[Blob, Pip]) -> str | None:
    return three_by_its_axis([m[0] for m in marks], [m[1] for m in marks], CLASSES,
                             lambda colour, suit: True)


def test_a_middle_pip_and_an_end_pip_are_a_three() -> None:
    assert _read(_mark(0.5, 0.5, "C"), _mark(0.5, 0.18, "C")) == "C"
    assert _read(_mark(0.5, 0.82, "S"), _mark(0.5, 0.5, "S")) == "S"
    # a third mark on the axis the classifier cannot name (a paled pip)
    assert _read(_mark(0.5, 0.18, "H"), _mark(0.5, 0.5, "H"), _mark(0.5, 0.82, "H", 0.3, 50)) == "H"


def test_marks_no_three_prints_so_are_not_a_three() -> None:
    # a two's pair: no middle pip
    assert _read(_mark(0.5, 0.18, "C"), _mark(0.5, 0.82, "C")) is None
    # a 7's odd pip, a sixth of the length from the middle, and a middle mark
    assert _read(_mark(0.5, 0.5, "C"), _mark(0.5, 0.33, "C")) is None
    # a mark off the axis (a 5's corner pip beside its middle one)
    assert _read(_mark(0.5, 0.5, "C"), _mark(0.5, 0.18, "C"), _mark(0.3, 0.18, "C")) is None
    # two suits, an unsure pip, and pips of two sizes
    assert _read(_mark(0.5, 0.5, "C"), _mark(0.5, 0.18, "S")) is None
    assert _read(_mark(0.5, 0.5, "C"), _mark(0.5, 0.18, "C", 0.6)) is None
    assert _read(_mark(0.5, 0.5, "C", area=200), _mark(0.5, 0.18, "C", area=60)) is None


@pytest.mark.parametrize("design", ["builtin", "builtin:modern", "anglo"])
def test_a_three_whose_end_pip_glare_took_is_read_by_its_axis(design: str) -> None:
    """A 3 of clubs with its bottom pip painted out (paper over it): the
    body shows a middle pip and a top one, and names the 3's suit and its
    veto.  (Read before this rule: nothing, neither an array nor a pair.)"""
    face = open_deck(design).face("3C").copy()
    h, w = face.shape[:2]
    face[int(0.68 * h):int(0.93 * h), int(0.3 * w):int(0.7 * w)] = face[h // 2, w // 6]
    rng = np.random.default_rng(1)
    bodies = [frame_body(Recognizer(), make_frame(LooseFace(face), "3C", rng).image)
              for _ in range(4)]
    threes = [b for b in bodies if b is not None and b.kind == "three"]
    assert len(threes) >= 2
    assert all(b.suit == "C" and b.vetoes == THREE_VETO for b in threes)
