"""The deck's own faces as a witness of a card's kind (profile mode): a body
plainly more like the deck's courts than any of its number cards rules the
number cards out, and the other way round (``vision.body_likeness``;
docs/vision.md, twenty-fifth pass).

The scores of the rule's own tests are written down by hand; the frames are
real designs' cards through ``make_frame``'s hard preset (blur, glare, tilt,
a finger), read with the deck's calibrated profile."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES, open_deck
from vision.body_likeness import (
    KIND_LEAD,
    LEAST_LIKENESS,
    THUMB_LEN,
    faces_of,
    likeness,
    rule_out_other_kinds,
    unlike_kinds,
)
from vision.calibrate import calibrate_images
from vision.detect import find_card
from vision.empty_places import paper_view
from vision.pips import SILENT
from vision.profile import DeckProfile
from vision.recognizer import Recognizer

COURTS = {c for c in CARD_CODES if c[0] in "JQK"}
NUMBERS = {c for c in CARD_CODES if c[0] in "23456789T"}
ACES = {c for c in CARD_CODES if c[0] == "A"}


def _scores(ace: float, number: float, court: float) -> np.ndarray:
    """Every card of a kind given the same likeness, but one a little less
    (the kind's best is what counts)."""
    out = np.array([ace if c in ACES else court if c in COURTS else number
                    for c in CARD_CODES], np.float32)
    out[CARD_CODES.index("7H")] -= 0.1
    return out


def _ruled(mask: np.ndarray) -> set[str]:
    return {c for c, r in zip(CARD_CODES, mask, strict=True) if r}


def test_a_body_like_a_court_rules_out_the_number_cards_and_aces() -> None:
    assert _ruled(unlike_kinds(_scores(ace=0.2, number=0.4, court=0.8))) == NUMBERS | ACES


def test_a_body_like_a_number_card_rules_out_the_courts_only_when_they_trail() -> None:
    assert _ruled(unlike_kinds(_scores(ace=0.6, number=0.8, court=0.3))) == COURTS
    assert pytest.approx(0.3) == KIND_LEAD


def test_a_body_like_nothing_or_like_an_ace_says_nothing() -> None:
    """Under LEAST_LIKENESS nothing is ruled out; and glare, flattened,
    looks like an ace's pip, so a body most like an ace rules nothing out."""
    assert pytest.approx(0.6) == LEAST_LIKENESS
    assert not unlike_kinds(_scores(ace=0.1, number=0.55, court=0.1)).any()
    assert not unlike_kinds(_scores(ace=0.9, number=0.1, court=0.1)).any()


def test_likeness_does_not_care_which_end_is_up() -> None:
    rng = np.random.default_rng(3)
    faces = rng.normal(size=(52, THUMB_LEN)).astype(np.float32)
    thumb = faces[10] / np.linalg.norm(faces[10])
    rows = 24  # the thumbnail's rows without its border
    turned = thumb.reshape(rows, -1)[::-1, ::-1].ravel()
    assert np.allclose(likeness(thumb, faces), likeness(turned, faces))


def test_no_faces_no_witness() -> None:
    """A profile without every face (an older one) leaves the body alone."""
    thumbs = {c: np.ones(THUMB_LEN, np.float32) for c in CARD_CODES[:-1]}
    assert faces_of(thumbs).shape == (0, THUMB_LEN)
    assert rule_out_other_kinds(SILENT, faces_of(thumbs), lambda: None) is SILENT


@pytest.fixture(scope="module")
def anglo_profile() -> DeckProfile:
    deck = open_deck("anglo")
    return calibrate_images({c: deck.face(c) for c in CARD_CODES}, name="anglo")


@pytest.mark.parametrize("code", ["KD", "QS", "JH"])
def test_a_courts_frames_rule_out_the_number_cards(anglo_profile: DeckProfile,
                                                   code: str) -> None:
    """Hard frames of a court read with the deck's profile: the number cards
    are ruled out of nearly every frame, the court itself of none.  Before,
    nothing in a court's body ruled a number card out (its picture is no
    array)."""
    deck = open_deck("anglo")
    rec = Recognizer(anglo_profile)
    rng = np.random.default_rng(21)
    readings = [rec.read(make_frame(deck, code, rng, preset="hard").image) for _ in range(6)]
    assert all(code not in r.ruled_out for r in readings)
    assert sum(r.ruled_out >= NUMBERS for r in readings) >= 4


@pytest.mark.parametrize("code", ["6D", "9C"])
def test_a_number_cards_frames_never_lose_their_card(anglo_profile: DeckProfile,
                                                     code: str) -> None:
    deck = open_deck("anglo")
    rec = Recognizer(anglo_profile)
    rng = np.random.default_rng(22)
    for _ in range(6):
        reading = rec.read(make_frame(deck, code, rng, preset="hard").image)
        assert code not in reading.ruled_out


@pytest.mark.parametrize("design", ["anglo", "neoclassical", "lattmann"])
def test_no_frame_rules_out_its_own_kind(design: str) -> None:
    """Safety (development data's measure, on other frames): hard and glare
    frames of odd ranks and courts of three designs, each body compared with
    its own deck's faces; no frame rules out its own card."""
    deck = open_deck(design)
    profile = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name=design)
    rng = np.random.default_rng(23)
    for code in (f"{rank}{suit}" for rank in "A3579TJQK" for suit in "CH"):
        for kind in ("card", "glare"):
            src = np.asarray(cv2.cvtColor(make_frame(deck, code, rng, preset="hard",
                                                     kind=kind).image, cv2.COLOR_BGR2BGRA),
                             np.uint8)
            det = find_card(src)
            if det is None:
                continue
            ruled = rule_out_other_kinds(SILENT, profile.faces,
                                         functools.partial(paper_view, src, det.quad))
            assert ruled.evidence[CARD_CODES.index(code)] == 0.0
