"""A layout only a 2 or a 3 prints vetoes the other cards, in both modes
(``vision.pips.PAIR_VETO``, ``THREE_VETO``; docs/vision.md, twenty-first pass).

Expected sets are derived by hand from the rule: a two's pair of pips on the
card's long axis leaves the 2s and 3s (a 3 whose middle pip is lost shows a
pair), three pips on the axis leave the 3s; glare takes pips away and never
moves them.  The frame tests read the simulator's camera frames of every
card, so a veto that ever named the card on the table would fail them."""

from __future__ import annotations

import numpy as np
import pytest
from body_frames import camera_bodies, fused, index_reading

from hardware_sim.cards import CARD_CODES
from vision.evidence import VETO_FRAMES
from vision.pips import (
    PAIR_VETO,
    THREE_VETO,
    BodyReading,
    rule_out_pip_cards,
    suit_evidence,
)
from vision.recognizer import PIPS_DISAGREE, with_body

TWOS_AND_THREES = frozenset(c for c in CARD_CODES if c[0] in "23")
THREES = frozenset(c for c in CARD_CODES if c[0] == "3")


def _pair_body(suit: str) -> BodyReading:
    return BodyReading(0, suit, suit_evidence(suit), kind="two", vetoes=PAIR_VETO)


def test_the_vetoes_leave_the_twos_and_threes_and_the_threes() -> None:
    assert frozenset(CARD_CODES) - TWOS_AND_THREES == PAIR_VETO
    assert len(PAIR_VETO) == 44
    assert frozenset(CARD_CODES) - THREES == THREE_VETO
    assert len(THREE_VETO) == 48


def test_a_nine_named_over_a_twos_pair_is_unsure() -> None:
    out = with_body(index_reading("9C"), _pair_body("C"))
    assert out.card is None and out.reason == PIPS_DISAGREE
    assert out.ruled_out == PAIR_VETO | {c for c in CARD_CODES if c[1] != "C"}


@pytest.mark.parametrize("card", ["2C", "3C"])
def test_a_two_or_a_three_named_over_a_pair_stays_named(card: str) -> None:
    assert with_body(index_reading(card), _pair_body("C")).card == card


def test_two_frames_of_the_pair_keep_the_fusion_from_naming_a_nine() -> None:
    decision = fused("9C", _pair_body("C"), VETO_FRAMES)
    assert decision.card is None
    assert "pips rule out: 9C" in decision.reason
    assert fused("9C", _pair_body("C"), VETO_FRAMES - 1).card == "9C"


def test_a_profile_keeps_a_layouts_veto() -> None:
    """Unlike an ace's lone pip, whose meaning depends on the deck, a pair on
    the long axis means a 2 or a 3 whatever the deck: a profile keeps it."""
    numbers = frozenset(c for c in CARD_CODES if c[0] in "23456789T")
    kept = rule_out_pip_cards(_pair_body("C"), numbers)
    assert kept.vetoes == PAIR_VETO
    three = BodyReading(3, "C", np.zeros(len(CARD_CODES)), kind="array", vetoes=THREE_VETO)
    assert rule_out_pip_cards(three, numbers).vetoes == THREE_VETO


@pytest.mark.parametrize("design", ["builtin", "builtin:modern", "tango"])
def test_frames_of_every_card_never_veto_their_own_card(design: str) -> None:
    """Camera frames (normal and hard presets) of every card: no body vetoes
    the card on the table, and the 2s' and 3s' bodies do speak."""
    spoke = {"2": 0, "3": 0}
    for code, preset, body in camera_bodies(design, seed=7):
        assert code not in body.vetoes, (design, code, preset)
        if body.vetoes in (PAIR_VETO, THREE_VETO):
            assert code[0] in "23", (design, code, preset, body.kind)
            spoke[code[0]] += 1
    assert spoke["2"] >= 4 and spoke["3"] >= 4  # of the 8 frames of each rank
