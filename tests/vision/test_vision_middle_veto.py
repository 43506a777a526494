"""A middle pip is an odd card's: an array with a pip in the card's middle
vetoes the 2s, 4s, 6s, 8s and 10s (``vision.pips.MIDDLE_VETO``;
docs/vision.md, twenty-fourth pass).

Expected answers are derived by hand from the standard layouts: a number
card's layout (a 7's aside) is its own half turn about the card's centre,
so a pip in the middle is its own twin and the others pair off; only the
3, 5 and 9 (and some decks' 7) print one.  The frames are real designs'
cards through ``make_frame``."""

from __future__ import annotations

import numpy as np
import pytest
from body_frames import frame_body

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES, open_deck
from vision.pips import MIDDLE_VETO
from vision.recognizer import Recognizer


def test_the_veto_is_the_cards_with_an_even_number_of_pips() -> None:
    even = {f"{rank}{suit}" for rank in ("2", "4", "6", "8", "T") for suit in "CDHS"}
    assert even == MIDDLE_VETO
    assert len(MIDDLE_VETO) == 20 and set(MIDDLE_VETO) < set(CARD_CODES)


@pytest.mark.parametrize(("design", "code", "vetoed"),
                         [("builtin", "9H", "TH"), ("anglo", "5S", "8S"),
                          ("builtin:modern", "9C", "TC")])
def test_an_odd_cards_array_vetoes_the_even_cards(design: str, code: str, vetoed: str) -> None:
    """Camera frames of a 9 (or a 5): the array's middle pip vetoes the 10
    (the 8), which its count alone leaves possible (before this rule an
    array of nine vetoed nothing)."""
    deck = open_deck(design)
    rec = Recognizer()
    rng = np.random.default_rng(5)
    bodies = [frame_body(rec, make_frame(deck, code, rng).image) for _ in range(4)]
    arrays = [b for b in bodies if b is not None and b.kind == "array"]
    assert len(arrays) >= 2
    assert all(vetoed in b.vetoes and code not in b.vetoes for b in arrays)


@pytest.mark.parametrize("design", ["anglo", "builtin", "paris"])
def test_no_even_card_shows_a_middle_pip(design: str) -> None:
    """Safety (holds on the old code too): hard frames (glare, blur, tilt, a
    finger) of the deck's 4s, 6s, 8s and 10s, read generic: none is vetoed."""
    deck = open_deck(design)
    rec = Recognizer()
    rng = np.random.default_rng(13)
    for code in (f"{rank}{suit}" for rank in "468T" for suit in "CDHS"):
        for _ in range(2):
            assert code not in rec.read(make_frame(deck, code, rng, preset="hard").image).ruled_out
