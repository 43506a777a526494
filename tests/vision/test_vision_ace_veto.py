"""Without a deck profile, an ace's sure pip vetoes every other rank
(``vision.pips.ACE_VETO``; docs/vision.md, twentieth pass).

Expected sets are derived by hand from the rule: an ace's body (one big,
sure pip in the card's middle) leaves the four aces, and its suit evidence
leaves the ace of its suit; a veto touches no evidence."""

from __future__ import annotations

import numpy as np
import pytest
from body_frames import NUMBER_CARDS, camera_bodies, fused, index_reading, leaning

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES, open_deck
from vision.evidence import VETO_FRAMES
from vision.pips import (
    ACE_VETO,
    BodyReading,
    rule_out_pip_cards,
    suit_evidence,
)
from vision.recognizer import PIPS_DISAGREE, Recognizer, with_body

ACES = frozenset(c for c in CARD_CODES if c[0] == "A")


def _ace_body(suit: str) -> BodyReading:
    return BodyReading(0, suit, suit_evidence(suit), kind="ace", vetoes=ACE_VETO)


def test_the_veto_is_every_card_but_the_aces() -> None:
    assert frozenset(CARD_CODES) - ACES == ACE_VETO
    assert len(ACE_VETO) == 48


def test_a_frame_naming_a_queen_over_an_aces_pip_is_unsure_and_its_evidence_only_gains_the_suit(
) -> None:
    out = with_body(index_reading("QS"), _ace_body("S"))
    assert out.card is None and out.reason == PIPS_DISAGREE
    assert out.ruled_out == ACE_VETO | {c for c in CARD_CODES if c[1] != "S"}
    assert out.evidence is not None
    assert np.allclose(out.evidence, leaning("QS") + suit_evidence("S"))


def test_an_ace_named_over_its_own_pip_stays_named() -> None:
    out = with_body(index_reading("AS"), _ace_body("S"))
    assert out.card == "AS"
    assert "AS" not in out.ruled_out and "KS" in out.ruled_out


def test_two_frames_of_the_veto_keep_the_fusion_from_naming_the_leader() -> None:
    """The index's frames lead for QS by far; two frames' bodies read an ace:
    the card is unsure, and the reason says the pips rule it out."""
    decision = fused("QS", _ace_body("S"), VETO_FRAMES)
    assert decision.card is None
    assert "pips rule out: QS" in decision.reason
    assert fused("QS", _ace_body("S"), 0).card == "QS"


def test_a_profile_rules_by_its_own_cards_instead() -> None:
    """With a profile the deck's calibration replaces the generic veto."""
    guarded = rule_out_pip_cards(_ace_body("S"), NUMBER_CARDS)
    assert guarded.vetoes == frozenset()
    no_pips = rule_out_pip_cards(_ace_body("S"), frozenset())
    assert no_pips.vetoes == frozenset()
    assert no_pips.kind == "ace"


@pytest.mark.parametrize("design", ["builtin", "builtin:modern"])
def test_frames_of_every_card_never_veto_their_own_card(design: str) -> None:
    """Camera frames (normal and hard presets) of every card of two built-in
    designs: no body vetoes the card on the table, and the aces' bodies do
    speak."""
    aces_spoke = 0
    for code, preset, body in camera_bodies(design, seed=5):
        assert code not in body.vetoes, (design, code, preset)
        if body.kind == "ace":
            assert code[0] == "A", (design, code, preset)
            aces_spoke += 1
    assert aces_spoke >= 4  # of the 8 frames of aces


def test_the_generic_reader_carries_the_veto_and_still_names_the_ace() -> None:
    deck = open_deck("builtin")
    for seed in range(6):
        frame = make_frame(deck, "AH", np.random.default_rng(seed), preset="normal").image
        reading = Recognizer().read(frame)
        if reading.ruled_out >= ACE_VETO:
            assert reading.card == "AH"
            return
    pytest.fail("no frame of AH showed its pip")

