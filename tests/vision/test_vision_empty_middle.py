"""A two by its empty middle: a two's pair whose middle, where a 3 prints its
third pip, is clean paper rules the 3s out (``vision.empty_places.
rule_out_three_by_empty_middle``; docs/vision.md, twenty-fourth pass).

The frames of the first tests are drawn here, as in the empty places' tests:
a plain card on a green table, black round pips on its long axis at places
written down by hand (a 2's at a sixth of the length from each end, a 3's
third in the middle), so what the middle shows is known without the
reader: paper, a pip, a pale pip, glare or a finger.  The camera tests read
real designs' 2s and 3s through ``make_frame``."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES, open_deck
from vision.empty_places import paper_view, rule_out_three_by_empty_middle
from vision.pips import BODY_H, BODY_W, PAIR_VETO, RULED_OUT, BodyReading, Pip, suit_evidence
from vision.recognizer import Recognizer

MID, TOP, MIDDLE, BOTTOM = 0.5, 0.17, 0.5, 0.83
#: the card in the frame: 200 x 300 px, its top-left corner at (220, 90)
CARD = (220, 90, 420, 390)
#: a pip's diameter in frame px (12 body px)
PIP = 24
PAPER, INK = (225, 228, 230), (25, 25, 25)
TABLE, SKIN = (40, 90, 40), (120, 150, 205)


def _at(y: float) -> tuple[int, int]:
    x0, y0, x1, y1 = CARD
    return int(x0 + MID * (x1 - x0)), int(y0 + y * (y1 - y0))


def _frame(*ys: float) -> npt.NDArray[np.uint8]:
    frame = np.full((480, 640, 3), TABLE, np.uint8)
    cv2.rectangle(frame, CARD[:2], CARD[2:], PAPER, -1)
    for y in ys:
        cv2.circle(frame, _at(y), PIP // 2, INK, -1)
    return frame


def _quad() -> npt.NDArray[np.float32]:
    x0, y0, x1, y1 = CARD
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def _pair(kind: str = "two") -> BodyReading:
    """The body a 2 of spades' pair reads as (its two pips, their suit)."""
    pips = tuple(Pip(MID * BODY_W, y * BODY_H, 110, np.zeros(5), size=PIP // 2)
                 for y in (TOP, BOTTOM))
    return BodyReading(0, "S", suit_evidence("S"), pips, kind, vetoes=PAIR_VETO)


def _ruled(frame: npt.NDArray[np.uint8]) -> set[str]:
    body = _pair()
    out = rule_out_three_by_empty_middle(body, lambda: paper_view(frame, _quad()))
    return {c for c, old, new in zip(CARD_CODES, body.evidence, out.evidence, strict=True)
            if new == RULED_OUT and old != RULED_OUT}


def test_a_pair_over_clean_paper_rules_out_the_threes() -> None:
    """A 2's two pips and paper between them: the 3 of the pair's suit is
    ruled out, and nothing else changes (the other suits were out already)."""
    assert _ruled(_frame(TOP, BOTTOM)) == {"3S"}


def test_a_three_whose_middle_pip_is_there_but_pale_keeps_its_three() -> None:
    """A 3 whose middle pip the blob finder missed (pale, mid grey): the
    middle is no clean paper, the 3 stays possible."""
    frame = _frame(TOP, BOTTOM)
    cv2.circle(frame, _at(MIDDLE), PIP // 2, (150, 150, 150), -1)
    assert _ruled(frame) == set()


def test_a_three_whose_middle_pip_is_under_glare_keeps_its_three() -> None:
    """Glare (saturated white, a lamp's reflection) over a 3's middle pip."""
    frame = _frame(TOP, MIDDLE, BOTTOM)
    cv2.circle(frame, _at(MIDDLE), PIP, (255, 255, 255), -1)
    assert _ruled(frame) == set()


def test_a_three_whose_middle_pip_is_under_a_finger_keeps_its_three() -> None:
    """A finger (skin, darker than paper) across a 3's middle pip."""
    frame = _frame(TOP, MIDDLE, BOTTOM)
    x0, y0, x1, _ = CARD
    cv2.rectangle(frame, (x0 - 20, int(y0 + 0.42 * 300)), (x1 - 40, int(y0 + 0.58 * 300)),
                  SKIN, -1)
    assert _ruled(frame) == set()


def test_only_a_pair_is_looked_at() -> None:
    """Any other body (an array, three pips on the axis) is given back as it
    is, without the frame being looked at."""
    looked: list[bool] = []

    def look() -> None:
        looked.append(True)

    for kind in ("array", "three", ""):
        body = _pair(kind)
        assert rule_out_three_by_empty_middle(body, look) is body
    assert not looked


@pytest.mark.parametrize("design", ["builtin", "anglo", "font:DejaVu Sans"])
def test_a_real_two_rules_out_its_three_through_the_camera(design: str) -> None:
    """Camera frames of a real 2 of hearts, read generic: in some frames the
    3 of hearts is ruled out (before this rule no frame of a 2 ruled it out:
    a pair vetoes everything but the 2s and 3s)."""
    deck = open_deck(design)
    rec = Recognizer()
    rng = np.random.default_rng(7)
    ruled = ["3H" in rec.read(make_frame(deck, "2H", rng).image).ruled_out for _ in range(6)]
    assert any(ruled)


@pytest.mark.parametrize("design", ["anglo", "builtin:modern"])
def test_no_three_is_ruled_out_by_its_own_middle(design: str) -> None:
    """Safety (holds on the old code too): hard frames (glare, blur, tilt, a
    finger) of every 3 of the deck, read generic: none has its own card
    ruled out."""
    deck = open_deck(design)
    rec = Recognizer()
    rng = np.random.default_rng(11)
    for code in ("3C", "3D", "3H", "3S") * 6:
        assert code not in rec.read(make_frame(deck, code, rng, preset="hard").image).ruled_out
