"""A 4's clean side columns withhold the 6s to 10s overhead
(``vision.empty_places.withhold_by_clean_side_columns``; docs/vision.md,
fortieth pass's probe and forty-first pass).

The expectations are derived by hand from what a standard deck prints: a 4
its four pips at the corners of its pip field and nothing between them; a
6, 7 and 8 a pip half-way down each side column, a 9 and a 10 two, a third
and two thirds of the way down.  So a 4's array with clean paper down a side
column is no 6 to 10, and a 9's four corner pips never show clean paper
there."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from body_frames import fused, index_reading, leaning

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES, open_deck
from vision.detect import find_card
from vision.empty_places import (
    SIDE_COLUMN_CARDS,
    SIDE_COLUMNS_WHY,
    four_columns,
    paper_view,
    withhold_by_clean_side_columns,
)
from vision.evidence import VETO_FRAMES, FrameFusion, reason_code
from vision.index import card_corners
from vision.pips import SILENT, BodyReading, Pip, index_box_in_card, read_body
from vision.reading import SIDE_COLUMNS_DISAGREE, Reading, with_body
from vision.recognizer import Recognizer

#: what a standard deck prints pips between a side column's end pips on
SIX_TO_TEN = frozenset(c for c in CARD_CODES if c[0] in "6789T")


def _pip(x: float, y: float, size: int = 18) -> Pip:
    return Pip(x, y, size * size, np.zeros(4), size=size)


#: a 4's pips as the built-in deck's body shows them (body px, 100 x 150)
FOUR = [_pip(33, 30), _pip(67, 30), _pip(33, 120), _pip(67, 120)]


def test_four_pips_in_two_columns_of_two_are_a_fours_array() -> None:
    columns = four_columns(list(reversed(FOUR)))
    assert columns is not None
    (top_left, bottom_left), (top_right, bottom_right) = columns
    assert (top_left.x, top_left.y, bottom_left.y) == (33, 30, 120)
    assert (top_right.x, top_right.y, bottom_right.y) == (67, 30, 120)


@pytest.mark.parametrize("pips", [
    [_pip(33, 30), _pip(67, 30), _pip(33, 50), _pip(67, 50)],    # rows too close
    [_pip(45, 30), _pip(55, 30), _pip(45, 120), _pip(55, 120)],  # columns too close
    [_pip(50, 30), _pip(33, 75), _pip(67, 75), _pip(50, 120)],   # a diamond
    FOUR[:3],                                                     # three pips
])
def test_other_pips_are_no_fours_array(pips: list[Pip]) -> None:
    assert four_columns(pips) is None


def _frame(design: str, code: str, seed: int,
           preset: str = "normal") -> tuple[BodyReading, np.ndarray, np.ndarray]:
    """The generic body reading of a camera frame of ``code``, with the frame
    (BGRA) and the card's outline."""
    frame = make_frame(open_deck(design), code, np.random.default_rng(seed), preset=preset).image
    src = np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA), np.uint8)
    det = find_card(src)
    assert det is not None
    boxes = [index_box_in_card(g.box, k) for k, g in enumerate(card_corners(src, det.quad))
             if g is not None and g.box is not None]
    rec = Recognizer()
    return read_body(src, det.quad, boxes, rec.model, rec._ink_fits), src, det.quad


@pytest.mark.parametrize("code", ["4S", "4H", "4D", "4C"])
def test_a_clean_frame_of_a_4_withholds_the_6s_to_10s(code: str) -> None:
    body, src, quad = _frame("builtin:classic", code, seed=7)
    assert body.kind == "array" and body.pips == 4
    out = withhold_by_clean_side_columns(body, lambda: paper_view(src, quad))
    assert out.withholds == SIX_TO_TEN == SIDE_COLUMN_CARDS
    assert out.withheld_why == SIDE_COLUMNS_WHY
    # (withheld, not ruled out: the evidence is untouched)
    assert np.array_equal(out.evidence, body.evidence)


@pytest.mark.parametrize("code", ["9S", "TH", "6D", "8C"])
def test_a_cards_four_corner_pips_never_show_its_side_columns_clean(code: str) -> None:
    """The body of a 6 to 10 cut down to its four corner pips (as glare or a
    finger might leave it): its side columns print pips, so nothing is
    withheld."""
    body, src, quad = _frame("builtin:classic", code, seed=7)
    assert body.kind == "array"
    pips = sorted(body.candidates, key=lambda p: p.y)
    ends = [*sorted(pips[:2], key=lambda p: p.x), *sorted(pips[-2:], key=lambda p: p.x)]
    corners = replace(body, pips=4, candidates=tuple(ends))
    assert four_columns(list(corners.candidates)) is not None
    out = withhold_by_clean_side_columns(corners, lambda: paper_view(src, quad))
    assert out.withholds == frozenset()


def test_no_array_and_no_paper_say_nothing() -> None:
    assert withhold_by_clean_side_columns(SILENT, lambda: None) == SILENT
    four = BodyReading(4, "S", np.zeros(len(CARD_CODES)), tuple(FOUR), "array")
    assert withhold_by_clean_side_columns(four, lambda: None) == four


#: a 4 of spades' body whose side columns were seen clean
CLEAN_FOUR = BodyReading(4, "S", np.zeros(len(CARD_CODES)), tuple(FOUR), "array",
                         withholds=SIDE_COLUMN_CARDS, withheld_why=SIDE_COLUMNS_WHY)


def test_a_frame_naming_a_6_to_10_over_a_clean_four_is_unsure() -> None:
    out = with_body(index_reading("9S"), CLEAN_FOUR)
    assert out.card is None
    assert out.reason == SIDE_COLUMNS_DISAGREE
    assert reason_code(out.reason) == "pips_disagree"
    assert with_body(index_reading("4S"), CLEAN_FOUR).card == "4S"
    assert with_body(index_reading("5S"), CLEAN_FOUR).card == "5S"


def test_two_frames_withhold_the_card_with_their_own_reason() -> None:
    decision = fused("9S", CLEAN_FOUR, VETO_FRAMES)
    assert decision.card is None
    assert decision.reason.startswith(f"{SIDE_COLUMNS_WHY}: 9S")
    assert reason_code(decision.reason) == "pips_disagree"
    assert fused("9S", CLEAN_FOUR, VETO_FRAMES - 1).card == "9S"
    assert fused("4S", CLEAN_FOUR, 6).card == "4S"


def test_a_withheld_9_keeps_its_lead_so_the_next_card_is_not_named() -> None:
    """An index that puts 9S 10 nats ahead of 7S and 7S 30 ahead of the
    rest: withheld, the 9S still leads, so neither it nor the 7S (withheld
    too) nor anything else is named."""
    evidence = leaning("7S")
    evidence[CARD_CODES.index("9S")] = 10.0
    fusion = FrameFusion()
    for _ in range(6):
        fusion.push(with_body(Reading(None, 0.0, "rank ambiguous", evidence=evidence.copy()),
                              CLEAN_FOUR))
    assert fusion.decide(final=True).card is None
