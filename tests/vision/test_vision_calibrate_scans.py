"""Calibration from clean scans that fill the picture, of decks whose print
crowds the card's edge (docs/vision.md, "Twenty-ninth pass", the third change).

The expected results come from the cards themselves, looked at by eye: every
face named here prints a standard index (rank over suit sign at the top-left
and, turned, at the bottom-right), so a reader that finds the index must
name the face's own card, and a deck of 52 such faces, all different, must
calibrate.  gnome-cards-data's paris and bellot are used (installed by the
test command): paris's courts' art runs off the card, which no synthetic
card reproduces, and its king of hearts' heart touches the black outline of
his sword; bellot prints its "10" a pixel from the card's outline (the
fourth change).  All of this is calibration's: the live reader is asserted
unchanged.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from hardware_sim.cards import CARD_CODES, gnome, open_deck
from vision.calibrate import calibrate_images, clean_corners, face_quad
from vision.index import card_corners
from vision.recognizer import Recognizer

pytestmark = pytest.mark.skipif(not gnome.available(), reason="gnome-cards-data is not installed")


def _picture_corners(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
    h, w = image.shape[:2]
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)


def _nearest(quad: npt.NDArray[np.floating], expected: npt.NDArray[np.float64]) -> float:
    """The farthest any expected corner lies from the quad's nearest corner."""
    return float(np.linalg.norm(quad[:, None, :] - expected[None, :, :], axis=2).min(axis=0).max())


@pytest.mark.parametrize("code", ["JC", "QD", "KH", "KC"])
def test_a_court_whose_art_runs_to_the_edge_is_outlined_by_the_picture(code: str) -> None:
    # The face image is the card and nothing else, so its outline is the
    # picture's own rectangle (in whatever order of corners); the old reader
    # took a piece of white beside the art, or found nothing.
    face = open_deck("paris").face(code)
    quad = face_quad(face)
    assert quad is not None
    assert _nearest(quad, _picture_corners(face)) <= 1.0


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


@pytest.mark.parametrize(("design", "code"), [("paris", "KH"), ("bellot", "TD")])
def test_the_clean_scan_reads_are_calibrations_only(design: str, code: str) -> None:
    # paris KH: the heart and the sword's outline are one blob in the ink
    # mask, split by colour on a clean image.  bellot TD: the "1" against the
    # top side, kept on a clean image.  The live reader, which sees camera
    # frames with coloured light, cloth and table along the edges, is not
    # changed: it still finds neither index.
    face = open_deck(design).face(code)
    quad = face_quad(face)
    assert quad is not None
    assert all(g is None for g in card_corners(face, quad))
    assert len([g for g in card_corners(face, quad, clean_scan=True) if g is not None]) == 2


def test_a_card_photographed_on_a_table_keeps_its_outline() -> None:
    # A face pasted in the middle of a dark cloth: the picture's corners show
    # cloth, so the card's own outline is kept (it runs along the inside of
    # the card's black border line, a few pixels in, and the picture's
    # corners are 60 px and more away).
    face = open_deck("paris").face("5C")
    h, w = face.shape[:2]
    photo = np.full((h + 120, w + 160, 3), (40, 70, 30), np.uint8)
    photo[60:60 + h, 80:80 + w] = face
    quad = face_quad(photo)
    assert quad is not None
    expected = _picture_corners(face) + np.array([80, 60], np.float64)
    assert _nearest(quad, expected) <= 12.0


@pytest.mark.slow
@pytest.mark.parametrize("design", ["paris", "bellot"])
def test_decks_that_crowd_the_edge_calibrate(design: str) -> None:
    deck = open_deck(design)
    profile = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name=design)
    # the courts' own corners, not a piece of art beside them, taught the profile
    assert profile.picture_cards == frozenset(c for c in CARD_CODES if c[0] in "JQK")
    assert set(profile.rank_labels) >= set("A23456789TJQK")
