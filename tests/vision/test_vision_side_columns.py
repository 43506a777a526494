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


# --- fifty-first pass: a clean third or two thirds of a column withholds the
# 9s and 10s, which print a pip at both (every standard deck; an 8 may print
# its middle pips there instead, so the 6s to 8s still need the whole column).

#: what a standard deck prints pips a third and two thirds down each side
#: column on: the 9s and 10s (written down by hand, not taken from the code)
NINES_AND_TENS = frozenset(c for c in CARD_CODES if c[0] in "9T")
#: a plain card drawn in a frame: 200 x 300 px, its top-left corner at (220, 90)
CARD = (220, 90, 420, 390)
#: a 4's pips as fractions of the card (columns at 0.3 and 0.7, rows at 0.15
#: and 0.85), so a side column's third, half and two thirds lie at 0.383,
#: 0.5 and 0.617 of its length
COLUMNS, ROWS = (0.3, 0.7), (0.15, 0.85)
THIRD, HALF, TWO_THIRDS = 0.15 + 0.7 / 3, 0.5, 0.15 + 1.4 / 3
PIP_PX = 24


def _at(u: float, v: float) -> tuple[int, int]:
    x0, y0, x1, y1 = CARD
    return int(x0 + u * (x1 - x0)), int(y0 + v * (y1 - y0))


def _drawn_four(glare_at: list[tuple[float, float]]) -> tuple[BodyReading, np.ndarray]:
    """A 4 of spades drawn on a green table (black round pips), white glare
    spots (saturated, as a lamp's reflection) at ``glare_at``, and its body
    read as the four pips drawn."""
    frame = np.full((480, 640, 3), (40, 90, 40), np.uint8)
    cv2.rectangle(frame, CARD[:2], CARD[2:], (225, 228, 230), -1)
    for u in COLUMNS:
        for v in ROWS:
            cv2.circle(frame, _at(u, v), PIP_PX // 2, (25, 25, 25), -1)
    for u, v in glare_at:
        cv2.circle(frame, _at(u, v), PIP_PX, (255, 255, 255), -1)
    pips = tuple(Pip(u * 100, v * 150, 110, np.zeros(4), size=PIP_PX // 2)
                 for v in ROWS for u in COLUMNS)
    return BodyReading(4, "S", np.zeros(len(CARD_CODES)), pips, "array"), frame


def _withheld(glare_at: list[tuple[float, float]]) -> frozenset[str]:
    body, frame = _drawn_four(glare_at)
    x0, y0, x1, y1 = CARD
    quad = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return withhold_by_clean_side_columns(body, lambda: paper_view(frame, quad)).withholds


def test_a_drawn_clean_four_withholds_the_6s_to_10s() -> None:
    assert _withheld([]) == SIX_TO_TEN


def test_glare_over_both_middles_leaves_the_9s_and_10s_withheld() -> None:
    """Glare over each column's half-way place: an 8 (or a 6 or 7) could
    print its middle pips there, so it stays; a 9 and a 10 print theirs a
    third and two thirds down, which are clean paper."""
    assert _withheld([(u, HALF) for u in COLUMNS]) == NINES_AND_TENS


def test_one_clean_two_thirds_place_is_enough_for_the_9s_and_10s() -> None:
    """The left column under glare all down, the right one at its third:
    the right's two thirds is clean paper, where a 9 and a 10 print a pip."""
    glare = [(0.3, THIRD), (0.3, HALF), (0.3, TWO_THIRDS), (0.7, THIRD)]
    assert _withheld(glare) == NINES_AND_TENS


def test_glare_over_every_third_and_two_thirds_withholds_nothing() -> None:
    glare = [(u, v) for u in COLUMNS for v in (THIRD, TWO_THIRDS)]
    assert _withheld(glare) == frozenset()
