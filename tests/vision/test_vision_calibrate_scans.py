"""Calibration from clean scans that fill the picture, of decks whose print
crowds the card's edge (docs/vision.md, "Twenty-second pass").

The expected results come from the cards themselves, looked at by eye: every
face named here prints a standard index (rank over suit sign at the top-left
and, turned, at the bottom-right), so a reader that finds the index must
name the face's own card, and a deck of 52 such faces, all different, must
calibrate.  gnome-cards-data's paris and bellot are used (installed by the
test command): their print is what broke the old reader, and no synthetic
card reproduces a court's art running off the card.
"""

from __future__ import annotations

import numpy as np
import pytest

from hardware_sim.cards import CARD_CODES, gnome, open_deck
from vision.calibrate import calibrate_images, clean_corners, face_quad
from vision.recognizer import Recognizer

pytestmark = pytest.mark.skipif(not gnome.available(), reason="gnome-cards-data is not installed")


def _picture_corners(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)


@pytest.mark.parametrize("code", ["JC", "QD", "KH", "KC"])
def test_a_court_whose_art_runs_to_the_edge_is_outlined_by_the_picture(code: str) -> None:
    # The face image is the card and nothing else, so its outline is the
    # picture's own rectangle (in whatever order of corners).
    face = open_deck("paris").face(code)
    quad = face_quad(face)
    assert quad is not None
    expected = _picture_corners(face)
    nearest = np.linalg.norm(quad[:, None, :] - expected[None, :, :], axis=2).min(axis=0)
    assert nearest.max() <= 1.0


@pytest.mark.parametrize(("design", "code"), [
    ("paris", "JC"), ("paris", "QD"), ("paris", "KC"),
    ("paris", "KH"),   # its heart touches the outline of the king's sword
    ("bellot", "TD"),  # its "10" stands against the card's outline
])
def test_both_index_corners_of_a_crowded_face_read_as_its_card(design: str, code: str) -> None:
    face = open_deck(design).face(code)
    quad = face_quad(face)
    assert quad is not None
    corners = clean_corners(face, quad)
    assert sorted(g.corner for g in corners) == [0, 1]
    generic = Recognizer()
    for g in corners:
        vote = generic._vote(g)
        assert (vote.card, vote.problem) == (code, "")


@pytest.mark.slow
@pytest.mark.parametrize("design", ["paris", "bellot"])
def test_decks_that_crowd_the_edge_calibrate(design: str) -> None:
    deck = open_deck(design)
    profile = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name=design)
    # the courts' own corners, not a piece of art beside them, taught the profile
    assert profile.picture_cards == frozenset(c for c in CARD_CODES if c[0] in "JQK")


def test_a_card_photographed_on_a_table_keeps_its_outline() -> None:
    # A face pasted in the middle of a dark cloth: the picture's corners show
    # cloth, so the card's own outline is kept (the index corners read there;
    # it runs along the inside of the card's black border line, a few pixels
    # in, and the picture's corners are 60 px and more away).
    face = open_deck("paris").face("5C")
    h, w = face.shape[:2]
    photo = np.full((h + 120, w + 160, 3), (40, 70, 30), np.uint8)
    photo[60:60 + h, 80:80 + w] = face
    quad = face_quad(photo)
    assert quad is not None
    expected = _picture_corners(face) + np.array([80, 60], np.float64)
    nearest = np.linalg.norm(quad[:, None, :] - expected[None, :, :], axis=2).min(axis=0)
    assert nearest.max() <= 12.0
