"""The in-shoe reader's sixth pass: the card's sides placed from both sides'
samples at once (``vision.in_shoe_pose.side_intercept``), an index cut by the
window's edge left unread (``vision.in_shoe._runs_outside``,
``IndexGlyphs.box``), and a pass named only when two frames put its card
first (``PassFusion``).  Every expected value is worked out by hand in the test's
docstring from the drawn geometry, never taken from a reading."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards import CARD_CODES
from vision.in_shoe import ONE_FRAME, InShoeReader, PassFusion, _runs_outside
from vision.in_shoe_pose import STEP, Pose, find_pose, side_intercept
from vision.index import read_corner, read_patch
from vision.recognizer import Reading


def _centre(d: float) -> float:
    """A card 10 samples wide, its centre half a width right of its left side."""
    return d + 5.0


def test_the_densest_cluster_within_the_play_places_the_side() -> None:
    """Left samples: 6 at 10.0 and 4 at 10.4 (the side), 3 scattered glyph
    edges at 20, 22, 24.  Right samples already moved by the card's width: 2 at
    10.2.  The cluster around 10 (samples within 1.5 of one another) holds 6 +
    4 + 2 = 12 samples; its mean is (6 * 10.0 + 4 * 10.4 + 2 * 10.2) / 12 =
    (60 + 41.6 + 20.4) / 12 = 122 / 12 = 10.1667.  Of them 10 are left samples
    and 2 right ones."""
    left = np.array([10.0] * 6 + [10.4] * 4 + [20.0, 22.0, 24.0])
    right = np.array([10.2, 10.2])
    d, n_left, n_right = side_intercept(left, right, _centre, 15.0, 3.0) or (0.0, 0, 0)
    assert d == pytest.approx(122 / 12)
    assert (n_left, n_right) == (10, 2)


def test_a_larger_cluster_the_guides_rule_out_is_passed_over() -> None:
    """12 samples agree on 30.0 (a court card's frame line in every row where
    glare hid the side), 5 on 10.0.  With the card's centre at d + 5, 30 puts
    it at 35, 20 samples from the window's centre 15, beyond the play's reach
    of 3; 10 puts it at 15: the side is at 10.0, with 5 left samples."""
    left = np.array([30.0] * 12 + [10.0] * 5)
    found = side_intercept(left, np.array([]), _centre, 15.0, 3.0)
    assert found == (10.0, 5, 0)
    # and with nothing within the play, no side at all
    assert side_intercept(np.array([30.0] * 12), np.array([]), _centre, 15.0, 3.0) is None


def _shoe_frame() -> np.ndarray:
    """A drawn in-shoe frame (640 x 480, window (5, 15)-(635, 465)): the dark
    roof (level 25), a card (level 200) whose trailing edge is row 200 and
    whose left side is column 70, running past the window's right edge (its
    right side, 571 px further at 9 px/mm x 63.5 mm, is outside: a card at the
    guides' full play).  From row 330 down the roof left of the card is lit
    by glare as brightly as the paper (no step at the side there), and a dark
    frame line runs down the card at columns 150-169, so in those rows the
    first dark-to-bright step from the left is the line's right side at 170."""
    f = np.zeros((480, 640, 3), np.uint8)
    f[15:465, 5:635] = 25
    f[200:465, 70:635] = 200
    f[330:465, 5:70] = 200
    f[330:465, 150:170] = 30
    return f


def test_glare_beside_the_one_side_in_view_still_gives_the_pose() -> None:
    """The body rows clear of the rounded corner start 6 mm (54 px) below the
    edge, at row 254: rows 254-329 (19 rows of samples) see the side at 70,
    rows 330-464 (34) the frame line at 170.  The line's cluster is larger,
    but a left side at 170 would put the card's centre 170 + 285.75 - 320 =
    135.75 px (15 mm) right of the window's centre, beyond the guides' 4 mm
    play (plus 1 mm): the side is at column 70 and the trailing edge at row
    200, so the outline's top-left corner is (70, 200), to within one sample
    (4 px), and its top-right 571.5 px to the right.  Only one side was seen."""
    pose = find_pose(_shoe_frame())
    assert isinstance(pose, Pose), pose
    assert pose.end == "trailing"
    (x0, y0), (x1, y1) = pose.quad[0], pose.quad[1]
    assert abs(x0 - 70) <= STEP and abs(y0 - 200) <= STEP
    assert abs((x1 - x0) - 571.5) <= 1.0 and abs(y1 - 200) <= STEP
    assert pose.sides == 1


def _index_patch() -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A white 64 x 150 patch with a black bar (the rank, columns 8-17, rows
    6-35) above a black square (the suit, columns 6-19, rows 42-55): the
    index's box is their union, columns 6 to 19 and rows 6 to 55, i.e.
    (6, 6, 20, 56) end exclusive."""
    p = np.full((150, 64, 3), 235, np.uint8)
    p[6:36, 8:18] = 20
    p[42:56, 6:20] = 20
    return p, (6, 6, 20, 56)


def test_the_index_box_is_where_its_ink_is_on_either_side() -> None:
    """Read as a left corner, the box is the drawn one; the same patch turned
    into a right corner (mirrored: column c goes to 63 - c) is read mirrored
    and its box given back in the right corner's own columns: 64 - 20 = 44 to
    64 - 6 = 58."""
    patch, box = _index_patch()
    g = read_patch(patch)
    assert g is not None and g.box == box
    right = read_corner(np.ascontiguousarray(patch[:, ::-1]), 2)
    assert right is not None and right.box == (44, 6, 58, 56)


def test_an_index_reaching_the_painted_outside_is_cut() -> None:
    """The box (6, 6, 20, 56) covers rows 6-55; one pixel wider, rows 5-56.
    With the window ending below row 56 (rows 57 on outside) the index is
    whole; with row 56 outside it touches the paint and counts as cut, and so
    it does with the outside at the patch's left reaching column 5 (not when
    it ends at column 4)."""
    patch, _ = _index_patch()
    g = read_patch(patch)
    assert g is not None
    inside = np.ones((150, 64), np.uint8)
    inside[57:] = 0
    assert not _runs_outside(g, inside)
    inside[56:] = 0
    assert _runs_outside(g, inside)
    inside = np.ones((150, 64), np.uint8)
    inside[:, :5] = 0  # columns 0-4 outside: the wider box starts at column 5
    assert not _runs_outside(g, inside)
    inside[:, 5] = 0
    assert _runs_outside(g, inside)


def test_the_drawn_frame_is_drawn_as_described() -> None:
    """A check of the drawing itself (the values the tests above reason from)."""
    f = _shoe_frame()
    grey = cv2.cvtColor(f, cv2.COLOR_BGR2GRAY)
    assert grey[199, 300] == 25 and grey[200, 300] == 200
    assert grey[300, 69] == 25 and grey[300, 70] == 200
    assert grey[400, 60] == 200 and grey[400, 169] == 30 and grey[400, 170] == 200


def _frame(scores: dict[str, float]) -> Reading:
    """A frame's reading with evidence -10 nats for every card but ``scores``,
    unsure only for the frame margin, its recogniser's choice (the card its
    evidence puts first) its guess, as the reader makes such a frame (since
    the thirty-fourth pass a pass whose frames chose nothing needs the band's
    word: ``test_vision_in_shoe_body_word.py``)."""
    ev = np.full(len(CARD_CODES), -10.0)
    for card, v in scores.items():
        ev[CARD_CODES.index(card)] = v
    return Reading(None, 0.0, ONE_FRAME, guess=CARD_CODES[int(np.argmax(ev))], evidence=ev)


def test_a_pass_is_not_named_on_the_word_of_one_frame() -> None:
    """Frame 1 puts 3D first (0 against -10 for every other card); frame 2
    puts 9D first (0) with 3D just behind (-1).  Summed: 3D -1, 9D -10, every
    other card -20: 3D leads by 9 nats, over the pass margin of 8, on two
    frames showing an index, yet only one frame put 3D first: not named (not
    even early, as the table reads), with 3D as the first guess.  A third
    frame putting 3D first (sum: 3D -1, 9D -20) makes two witnesses: named."""
    fusion = PassFusion(InShoeReader())
    fusion.add(_frame({"3D": 0.0}))
    fusion.add(_frame({"9D": 0.0, "3D": -1.0}))
    assert not fusion.ready()
    res = fusion.result()
    assert res.card is None and res.code == "low_confidence" and res.used == 2
    assert res.guesses[0][0] == "3D"
    fusion.add(_frame({"3D": 0.0}))
    assert fusion.ready()
    assert fusion.result().card == "3D"
