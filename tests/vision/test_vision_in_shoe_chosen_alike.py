"""The forty-seventh pass: a weak pass whose choosing frames all chose its
card, three or more of them, is named (``PassFusion._chosen_alike``).

Hand-made passes of eight index frames (four of each end, four middle
frames between); expected values are worked out in each docstring from the
shipped constants (checked by the first test).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_vision_in_shoe_body_picture import fuse_ends_and_middle

from vision.cards import CARD_CODES
from vision.evidence import FRAME_CORRELATION
from vision.in_shoe import (
    FRAME_MARGIN,
    ONE_FRAME,
    PASS_MARGIN,
    UNANIMOUS_FRAMES,
    PassReading,
)
from vision.in_shoe_body import SIDES
from vision.reading import Reading
from vision.recognizer import BLURRED_ALONE


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (PASS_MARGIN, FRAME_MARGIN, FRAME_CORRELATION, UNANIMOUS_FRAMES) == (8.0, 7.5, 0.42, 3)


def _frame(chose: str | None, reason: str = ONE_FRAME) -> Reading:
    """An index frame whose evidence puts 5S first, 4S 2 nats behind, every
    other card 12 behind (a lead of 2 < the frame margin 7.5: unsure
    alone).  ``chose``: the card its recogniser chose, unsure
    (``ONE_FRAME``: it counts as a choice), or with ``BLURRED_ALONE``, which
    does not.  Its band shows a 4's-to-10's side pips (so no "few frames
    named the card" check stands in the way: that asks for the band's word
    when at most a quarter of the frames chose the card)."""
    ev = np.full(len(CARD_CODES), -12.0)
    ev[CARD_CODES.index("5S")] = 0.0
    ev[CARD_CODES.index("4S")] = -2.0
    return Reading(None, 0.0, reason, guess=chose, evidence=ev, body_seen=True, band=SIDES)


def _pass(frames: list[Reading]) -> PassReading:
    return fuse_ends_and_middle(frames).result()


@pytest.mark.parametrize("choosing", [3, 5, 8])
def test_a_weak_pass_its_choosing_frames_all_chose_is_named(choosing: int) -> None:
    """``choosing`` of the 8 frames chose 5S (the rest chose nothing: a
    blurred glyph).  Summed, 5S leads 4S by 8 x 2 = 16 >= 8 and every frame
    put it first, but none was sure: tempered, each end's four frames give
    8 / (1 + 3 x 0.42) = 3.54, both ends **7.08** < 8 (the code before this
    pass: unsure, "only weak frames").  Three or more frames chose 5S and
    none another, and it leads (7.08 > 0): named 5S."""
    frames = [_frame("5S")] * choosing + [_frame("5S", BLURRED_ALONE)] * (8 - choosing)
    assert _pass(frames).card == "5S"


def test_two_choosing_frames_are_not_enough() -> None:
    """Two frames chose 5S (2 < 3): unsure as before, lead 7.08."""
    frames = [_frame("5S")] * 2 + [_frame("5S", BLURRED_ALONE)] * 6
    res = _pass(frames)
    assert res.card is None
    assert res.reason.startswith("only weak frames: 5S leads by 7.1 nats, under 8")


def test_one_frame_choosing_another_card_keeps_it_unsure() -> None:
    """Seven frames chose 5S and one chose 4S (its evidence, like every
    frame's, still leaning to 5S): not alike, unsure as before."""
    frames = [_frame("5S")] * 7 + [_frame("4S")]
    res = _pass(frames)
    assert res.card is None
    assert res.reason.startswith("only weak frames: 5S leads by 7.1 nats")
