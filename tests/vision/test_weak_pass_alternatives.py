"""The tooling behind docs/vision.md "Tried after it" (the eighth pass's
alternatives, none shipped): a frame's place in its index end, read from its
neighbours, and the clipped model against the shipped tempered rule.  The
expected values are worked out by hand in each docstring."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from vision.cards import CARD_CODES
from vision.in_shoe import PARTIAL
from vision.in_shoe_pose import EMPTY, MIDDLE
from vision.recognizer import Reading

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import weak_pass_alternatives as alt


def _frame(scores: dict[str, float]) -> Reading:
    """A weak frame: evidence -20 nats for every card but ``scores``."""
    ev = np.full(len(CARD_CODES), -20.0)
    for code, v in scores.items():
        ev[CARD_CODES.index(code)] = v
    return Reading(None, 0.0, "not sure enough from one frame", evidence=ev)


def _pass(*readings: Reading, model: alt.Model) -> alt._Frames:
    fusion = alt._Frames(model)
    for r in readings:
        fusion.add(r)
    return fusion


#: empty, cut index, a, b, middle, c, cut index: frame a leans 8S by 4, frames
#: b and c lean 3S by 6.8 and 7.8 (two ends: a and b, then c)
_A = {"8S": 0.0, "3S": -4.0}
_B = {"3S": 0.0, "8S": -6.8}
_C = {"3S": 0.0, "8S": -7.8}


def _frames() -> list[Reading]:
    return [
        Reading(None, 0.0, EMPTY), Reading(None, 0.0, PARTIAL), _frame(_A), _frame(_B),
        Reading(None, 0.0, MIDDLE), _frame(_C), Reading(None, 0.0, PARTIAL),
    ]


def test_a_frames_place_comes_from_its_neighbours() -> None:
    """a follows a cut index: edge; b lies between a read frame and the
    middle: seam; c lies between the middle and a cut index: edge."""
    fusion = _pass(*_frames(), model=alt._plain)
    assert [[place for _, place in end] for end in fusion.ends()] == [["edge", "seam"], ["edge"]]


def test_the_last_frame_read_so_far_has_no_next_neighbour_yet() -> None:
    """Stopped after b (as the table reads): only its first neighbour (a,
    read) is known, so b is inner until the middle comes."""
    fusion = _pass(*_frames()[:4], model=alt._plain)
    assert [place for _, place in fusion.ends()[0]] == ["edge", "inner"]


def test_the_shipped_rule_names_3s_and_clipping_at_6_does_not() -> None:
    """Plain sum: 3S -4, 8S -14.6, lead 10.6 over 8, witnesses b and c: 3S.
    Shipped (rho 0.42): end 1 (a, b) /1.42: 3S -2.817, 8S -4.789; end 2 (c):
    3S 0, 8S -7.8; lead 12.589 - 2.817 = 9.77 >= 8: named 3S.  Clip 6 (each
    frame floored at its best - 6): b's and c's 8S -6, every other card -6 in
    a, b and c; end 1: 3S -4/1.42 = -2.817, 8S -6/1.42 = -4.225; end 2: 3S 0,
    8S -6; lead 10.225 - 2.817 = 7.41 < 8: unsure."""
    shipped = _pass(*_frames(), model=alt.tempered_model(0.42))
    clipped = _pass(*_frames(), model=alt.clip_model(6.0, 0.42))
    assert shipped.result().card == "3S"
    assert clipped.result().card is None


def test_leaving_edge_frames_out_leaves_only_b() -> None:
    """Edge frames a and c left out: only b counts, its lead 6.8 (one frame,
    nothing to temper) < 8: unsure; weighed 0.5 instead:
    end 1 n = 1.5, (0.5 a + b) / 1.21: 3S -2/1.21 = -1.653, 8S -6.8/1.21 =
    -5.620; end 2 (0.5 c) / 1 (n 0.5 counts as one): 3S 0, 8S -3.9; lead
    9.520 - 1.653 = 7.87 < 8: unsure too."""
    out = _pass(*_frames(), model=alt.edge_model(0.0, 0.42))
    half = _pass(*_frames(), model=alt.edge_model(0.5, 0.42))
    assert out.result().card is None
    assert half.result().card is None
