"""The in-shoe pose on a card whose edges are soft: art (its outline and
alpha too) scaled up from a small bitmap, as ``hardware_sim.cards.lowres``
draws it.  The frames are drawn by hand: the roof at level 25, the paper at
200, a card 63.5 mm x 9 px/mm = 571.5 px wide centred across the window
((5, 15)-(635, 465), centre column 320), so its sides at 34.25 and 605.75,
its trailing edge (the card below it) at row 200; every edge a linear ramp
from roof to paper centred on the true edge.  Expected positions follow from
that drawing, not from a reading."""

from __future__ import annotations

import numpy as np
import pytest

from vision.in_shoe_pose import Pose, find_pose


def _soft_card(ramp_px: float) -> np.ndarray:
    """The frame above, each edge a ramp ``ramp_px`` wide (paper share 0 at
    the ramp's outer end, 1 at its inner end, 0.5 on the true edge)."""
    ys, xs = np.mgrid[0:480, 0:640].astype(np.float64)
    inside_top = (ys - 200.0) / ramp_px + 0.5
    inside_left = (xs - 34.25) / ramp_px + 0.5
    inside_right = (605.75 - xs) / ramp_px + 0.5
    share = np.clip(np.minimum(np.minimum(inside_top, inside_left), inside_right), 0.0, 1.0)
    level = 25.0 + 175.0 * share
    return np.repeat(np.round(level).astype(np.uint8)[..., None], 3, axis=2)


@pytest.mark.parametrize("ramp_px", [1.0, 8.0, 12.0])
def test_a_card_with_blurred_edges_is_placed_where_it_lies(ramp_px: float) -> None:
    """A ramp of 12 px falls 175 x 4 / 12 = 58 levels per 4-px sample, under
    the 0.45 x 175 = 79 a one-sample step needs (the reader before its
    eleventh pass saw no edge here); over three samples it falls 175.  The
    outline is found within a sample and a ramp's half-width (4 + 6 = 10 px)
    of the drawn edges."""
    pose = find_pose(_soft_card(ramp_px))
    assert isinstance(pose, Pose), pose
    assert pose.end == "trailing"
    (tlx, tly), (trx, try_) = pose.quad[0], pose.quad[1]
    assert abs(tly - 200.0) <= 10 and abs(try_ - 200.0) <= 10
    assert abs(tlx - 34.25) <= 10 and abs(trx - 605.75) <= 10
    assert abs(pose.angle_deg) < 1.0


def test_a_gentle_slope_like_glare_is_no_card_edge() -> None:
    """A ramp of 45 px (5 mm, the size of a glare spot's fall) drops only
    175 x 12 / 45 = 47 levels over three samples, under the 79 an edge needs:
    no card is placed."""
    assert not isinstance(find_pose(_soft_card(45.0)), Pose)
