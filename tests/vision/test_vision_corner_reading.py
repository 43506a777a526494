"""Lighting correction of the index corner, the two witnesses of profile mode,
and reading one corner when it is clear."""

from __future__ import annotations

import cv2
import numpy as np

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES
from vision import Recognizer
from vision.calibrate import calibrate_folder
from vision.detect import find_card
from vision.index import corner_patch, read_patch
from vision.recognizer import _contradicts, _CornerVote


def _glare(patch: np.ndarray) -> np.ndarray:
    """A bright spot and a dark falloff across the corner, as under a desk lamp."""
    h, w = patch.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 0.45 + 0.9 * np.exp(-((xx - 50) ** 2 + (yy - 110) ** 2) / (2 * 30.0**2))
    out = patch.astype(np.float32) * light[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def test_uneven_light_across_the_corner_still_splits_the_index(builtin_deck) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(31)
    rec = Recognizer()
    read = 0
    for code in CARD_CODES[::4]:
        f = make_frame(builtin_deck, code, rng, preset="clean")
        det = find_card(f.image)
        assert det is not None
        patch = _glare(corner_patch(f.image, det.quad, 0))
        # the old global threshold calls the dim half of this paper "ink"
        minch = patch.min(axis=2)
        otsu, _ = cv2.threshold(minch, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        assert (minch < otsu).mean() > 0.3
        g = read_patch(patch)
        assert g is not None, code
        v = rec._classify(g)
        assert v.card == code or v.problem, (code, v)
        read += v.card == code and not v.problem
    assert read >= 10


def test_a_clear_corner_is_read_alone(calibration_dir, builtin_deck) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(32)
    rec = Recognizer(calibrate_folder(calibration_dir))
    singles = 0
    for code in CARD_CODES[:26]:
        r = rec.read(make_frame(builtin_deck, code, rng, preset="clean").image)
        assert r.card == code
        singles += r.corners == 1
    assert singles >= 20  # most clean corners are clear enough to stop after one
    # a finger over the first corner: the second one is read
    f = make_frame(builtin_deck, "9C", rng, preset="clean", kind="finger")
    r = rec.read(f.image)
    assert r.card in (None, "9C")


def test_profile_mode_uses_the_classifier_as_second_witness(calibration_dir, builtin_deck) -> None:  # type: ignore[no-untyped-def]
    rec = Recognizer(calibrate_folder(calibration_dir))
    tmpl_doubt = _CornerVote("7H", 0.3, "rank ambiguous")
    assert rec._combine(tmpl_doubt, _CornerVote("7H", 0.99, "")).problem == ""
    assert rec._combine(tmpl_doubt, _CornerVote("TH", 0.99, "")).problem  # no agreement
    assert rec._combine(tmpl_doubt, _CornerVote("7H", 0.6, "rank ambiguous")).problem
    sure = _CornerVote("7H", 0.9, "")
    assert rec._combine(sure, _CornerVote("TH", 0.99, "")).problem  # both sure, of different cards
    assert rec._combine(sure, _CornerVote("7H", 0.99, "")).sure
    # on blurred, noisy hard frames the combination answers more without a wrong card
    rng = np.random.default_rng(33)
    right = 0
    for i in range(40):
        code = CARD_CODES[(i * 7) % 52]
        r = rec.read(make_frame(builtin_deck, code, rng, preset="hard", kind="card").image)
        assert r.card in (None, code), (code, r)
        right += r.card == code
    assert right >= 24


def test_which_unaccepted_corners_veto() -> None:
    assert _contradicts(_CornerVote("8H", 0.6, "rank ambiguous"), "6H")
    assert _contradicts(_CornerVote("A?", 0.6, "not a standard index"), "AD")  # foreign suit
    assert not _contradicts(_CornerVote("?H", 0.9, "not a standard index"), "6H")  # finger on rank
    assert _contradicts(_CornerVote("?S", 0.9, "not a standard index"), "6H")
    assert not _contradicts(_CornerVote("??", 1.0, "not a standard index"), "6H")
    assert not _contradicts(_CornerVote("8H", 0.2, "rank ambiguous"), "6H")
