"""The forty-seventh and forty-eighth passes: a weak pass whose choosing
frames all chose its card, three or more of them, is named
(``PassFusion._chosen_alike``) when the card's body allows it and both of
its index ends put it first (``PassFusion._ends_agree``).

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
    InShoeReader,
    PassFusion,
    PassReading,
)
from vision.in_shoe_body import SIDES
from vision.in_shoe_pose import MIDDLE
from vision.reading import Reading
from vision.recognizer import BLURRED_ALONE


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (PASS_MARGIN, FRAME_MARGIN, FRAME_CORRELATION, UNANIMOUS_FRAMES) == (8.0, 7.5, 0.42, 3)


def _frame(chose: str | None, reason: str = ONE_FRAME, lean: tuple[str, str] = ("5S", "4S"),
           band: str | None = SIDES, by: float = 2.0) -> Reading:
    """An index frame whose evidence puts 5S first, 4S 2 nats behind, every
    other card 12 behind (a lead of 2 < the frame margin 7.5: unsure
    alone).  ``chose``: the card its recogniser chose, unsure
    (``ONE_FRAME``: it counts as a choice), or with ``BLURRED_ALONE``, which
    does not.  Its band shows a 4's-to-10's side pips (so no "few frames
    named the card" check stands in the way: that asks for the band's word
    when at most a quarter of the frames chose the card)."""
    ev = np.full(len(CARD_CODES), -12.0)
    ev[CARD_CODES.index(lean[0])] = 0.0
    ev[CARD_CODES.index(lean[1])] = -by
    return Reading(None, 0.0, reason, guess=chose, evidence=ev, body_seen=band is not None,
                   band=band)


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


def test_one_end_of_frames_alike_is_not_enough() -> None:
    """The eighth pass's 8S: ten frames of one end (no middle frame between
    them), each leaning to 3S by 1.5 over 8S and chosen 3S by its
    recogniser, no band in view.  Tempered, one end of ten frames: 15 / (1 +
    9 x 0.42) = 3.14 < 8.  Every frame chose 3S alike, but one end is one
    print of the index seen ten times: unsure."""
    fusion = PassFusion(InShoeReader())
    for _ in range(10):
        ev = np.full(len(CARD_CODES), -10.0)
        ev[CARD_CODES.index("3S")] = 0.0
        ev[CARD_CODES.index("8S")] = -1.5
        fusion.add(Reading(None, 0.0, ONE_FRAME, guess="3S", evidence=ev))
    assert fusion.end_counts == [10]
    res = fusion.result()
    assert res.card is None
    assert res.reason.startswith("only weak frames: 3S leads by 3.1 nats")


def test_both_ends_must_put_the_card_first() -> None:
    """Every recogniser chose 5S.  Leading end: four frames leaning to 5S by
    4 over 4S (+16).  Trailing end, ``agree``: one frame leaning to 4S by 2,
    three to 5S by 1 (-2 + 3 = +1: its own sum puts 5S first).  Summed, 5S
    leads by 17 >= 8 with seven witnesses; tempered, 16 / 2.26 + 1 / 2.26 =
    7.08 + 0.44 = 7.52 < 8 (weak): both ends put 5S first, named.
    ``apart``: the trailing end two frames leaning to 4S by 2 and two to 5S
    by 1 (-4 + 2 = -2: its own sum puts 4S first); summed 14 >= 8 with six
    witnesses, tempered 7.08 - 0.88 = 6.19 < 8: one end leans the other way,
    unsure."""
    lead_end = [_frame("5S", by=4.0)] * 4
    agree = lead_end + [_frame("5S", lean=("4S", "5S"))] + [_frame("5S", by=1.0)] * 3
    assert _pass(agree).card == "5S"
    apart = lead_end + [_frame("5S", lean=("4S", "5S"))] * 2 + [_frame("5S", by=1.0)] * 2
    res = _pass(apart)
    assert res.card is None
    assert res.reason.startswith("only weak frames: 5S leads by 6.2 nats")


def test_a_card_the_body_rules_out_is_not_named_however_alike() -> None:
    """Eight frames leaning to 6C by 2 over 9C, every recogniser choosing
    6C, over a card's middle whose axis every one of three frames showed
    inked: a 6 prints nothing there (``ranks_allowed``), so the frames'
    likeness does not name it (tempered lead 7.08 < 8: unsure)."""
    fusion = PassFusion(InShoeReader())
    frames = [_frame("6C", lean=("6C", "9C"), band=None)] * 8
    for frame in frames[:4]:
        fusion.add(frame)
    for _ in range(3):
        fusion.add(Reading(None, 0.0, MIDDLE, axis_ink=True))
    for frame in frames[4:]:
        fusion.add(frame)
    res = fusion.result()
    assert res.card is None
    assert res.reason.startswith("only weak frames: 6C leads by 7.1 nats")
