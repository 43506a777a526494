"""The fusion's weak-frame check for a resting card's frames (tried for the
overhead camera in the fifteenth pass, not shipped: docs/vision.md; replayed by
``benchmarks/weak_overhead.py``, whose figures rest on it).

Expected figures are worked by hand from the rule: n frames that share a
fraction rho of their evidence count as n / (1 + (n - 1) rho) frames, so a
summed lead L becomes L / (1 + (n - 1) rho).
"""

from __future__ import annotations

import numpy as np

from hardware_sim.cards import CARD_CODES
from vision.evidence import FRAME_CORRELATION, FUSE_MARGIN, FrameFusion, reason_code
from vision.recognizer import Reading


def _leaning(card: str, lead: float, accepted: str | None = None) -> Reading:
    """A frame whose evidence prefers ``card`` by ``lead`` nats; unsure unless
    ``accepted`` names the card its corner accepted."""
    ev = np.zeros(len(CARD_CODES))
    ev[CARD_CODES.index(card)] = lead
    if accepted is None:
        return Reading(None, 0.0, "not a standard index (another kind of deck?)", evidence=ev)
    return Reading(accepted, 0.9, evidence=ev, accepted=(accepted,))


def _six_frames(fusion: FrameFusion, *, accepted_first: bool = False) -> FrameFusion:
    """Six frames leaning to 7C by 4 nats each: a summed lead of 24 nats, over
    the 20 of ``FUSE_MARGIN``; tempered at rho 0.42 it is 24 / (1 + 5 * 0.42)
    = 24 / 3.1 = 7.74 nats."""
    for i in range(6):
        fusion.push(_leaning("7C", 4.0, "7C" if accepted_first and i == 0 else None))
    return fusion


def test_without_the_check_frames_no_corner_accepted_name_a_card() -> None:
    assert FUSE_MARGIN == 20.0 and FRAME_CORRELATION == 0.42
    assert _six_frames(FrameFusion(min_frames=3)).decide(final=True).card == "7C"


def test_the_check_is_off_unless_asked_for() -> None:
    fusion = FrameFusion()
    assert fusion.weak_correlation == 0.0 and fusion.weak_margin == FUSE_MARGIN


def test_the_check_refuses_a_card_whose_correlated_lead_is_short() -> None:
    """7.74 nats tempered, under a margin of 8: unsure, and the dealer is told why."""
    fusion = _six_frames(FrameFusion(min_frames=3, weak_correlation=0.42, weak_margin=8.0))
    final = fusion.decide(final=True)
    assert final.card is None
    assert final.reason.startswith("only weak frames: 7C leads by 7.7 nats, under 8")
    assert reason_code(final.reason) == "low_confidence"
    assert final.guesses[0][0] == "7C"
    assert not fusion.ready()


def test_the_check_lets_a_lead_over_its_margin_through() -> None:
    """7.74 nats tempered, over a margin of 7.5: named."""
    fusion = _six_frames(FrameFusion(min_frames=3, weak_correlation=0.42, weak_margin=7.5))
    assert fusion.decide(final=True).card == "7C"


def test_a_card_some_corner_accepted_is_not_held_to_the_check() -> None:
    """One frame's corner accepted 7C: the summed 24 nats are enough, as before."""
    fusion = FrameFusion(min_frames=3, weak_correlation=0.42, weak_margin=100.0)
    assert _six_frames(fusion, accepted_first=True).decide(final=True).card == "7C"

