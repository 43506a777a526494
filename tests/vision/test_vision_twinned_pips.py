"""An array keeps its twinned pips: a group of pips of one size that is not
its own half turn keeps the pips whose twin stands (``vision.pips._twinned``,
``array_shape``; docs/vision.md, twenty-fifth pass).

Expected answers are derived by hand from the standard layouts (a 5 is four
corner pips and a centre one; a 9 four pips down each side and a centre
one): a lost pip takes its twin out of the array, and what is left still
says "a number card of at least that many pips".  The frames are real
designs' cards through ``make_frame``'s hard preset (glare, a finger)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from body_frames import frame_body

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES, open_deck
from vision.pips import BODY_H, BODY_W, MIN_PIPS, PIPS_OF_RANK, _twinned, array_shape
from vision.recognizer import Recognizer


@dataclass(frozen=True)
class Mark:
    """A mark with only what the layout looks at."""

    x: float
    y: float
    area: int = 100
    size: int = 12


def _at(u: float, v: float) -> Mark:
    """A pip at ``u``, ``v`` (shares of the body's width and length)."""
    return Mark(u * BODY_W, v * BODY_H)


FIVE = [_at(0.3, 0.2), _at(0.7, 0.2), _at(0.5, 0.5), _at(0.3, 0.8), _at(0.7, 0.8)]
NINE = [_at(u, v) for u in (0.3, 0.7) for v in (0.2, 0.4, 0.6, 0.8)] + [_at(0.5, 0.5)]


def test_a_whole_layout_is_kept_as_it_is() -> None:
    assert array_shape(FIVE) == FIVE
    assert array_shape(NINE) == NINE


def test_a_lost_pip_takes_its_twin_out() -> None:
    """The 5 without its bottom-right pip: the top-left one (its twin) goes,
    the other diagonal and the centre pip (its own twin) stay."""
    lost = FIVE[:4]
    assert _twinned(lost) == [FIVE[1], FIVE[2], FIVE[3]]
    assert array_shape(lost) == [FIVE[1], FIVE[2], FIVE[3]]


def test_a_nine_with_a_pale_pip_is_an_array_of_seven() -> None:
    nine = [p for p in NINE if p != _at(0.3, 0.6)]
    kept = array_shape(nine)
    assert len(kept) == 7 and _at(0.7, 0.4) not in kept and _at(0.5, 0.5) in kept


def test_too_few_twinned_pips_are_no_array() -> None:
    """A 6 that lost a pip of two pairs keeps one pair: fewer than
    ``MIN_PIPS``, no array."""
    six = [_at(u, v) for u in (0.3, 0.7) for v in (0.2, 0.5, 0.8)]
    lost = [p for p in six if p not in (_at(0.3, 0.2), _at(0.3, 0.5))]
    assert _twinned(lost) == [_at(0.3, 0.8), _at(0.7, 0.2)]
    assert array_shape(lost) == []
    assert MIN_PIPS == 3


@pytest.mark.parametrize(("design", "code"),
                         [("builtin", "9C"), ("anglo", "7D"), ("builtin", "5S")])
def test_a_card_with_a_lost_pip_still_rules_out_the_courts(design: str, code: str) -> None:
    """Four hard frames of the card (glare pales a pip, a finger covers
    one): every body is an array of the card's suit with no more pips than it
    prints, which rules out the courts and the ace.  Before, three of the
    four bodies of each said nothing."""
    deck = open_deck(design)
    rec = Recognizer()
    rng = np.random.default_rng(1)
    bodies = [frame_body(rec, make_frame(deck, code, rng, preset="hard").image)
              for _ in range(4)]
    for body in bodies:
        assert body is not None and body.kind == "array"
        assert MIN_PIPS <= body.pips <= PIPS_OF_RANK[code[0]] and body.suit == code[1]
        for court in (f"{rank}{code[1]}" for rank in "JQKA"):
            assert body.evidence[CARD_CODES.index(court)] < 0
        assert body.evidence[CARD_CODES.index(code)] == 0


@pytest.mark.parametrize("design", ["anglo", "builtin", "bellot"])
def test_no_court_shows_an_array(design: str) -> None:
    """Safety (holds on the old code too): hard frames of the deck's jacks,
    queens and kings, read generic: no body is an array."""
    deck = open_deck(design)
    rec = Recognizer()
    rng = np.random.default_rng(17)
    for code in (f"{rank}{suit}" for rank in "JQK" for suit in "CDHS"):
        for _ in range(2):
            body = frame_body(rec, make_frame(deck, code, rng, preset="hard").image)
            assert body is None or body.kind != "array"
