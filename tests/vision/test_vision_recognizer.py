"""The recogniser on seeded simulator frames: right answers, honest doubt."""

from __future__ import annotations

import numpy as np
import pytest

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES, open_deck
from hardware_sim.cards.builtin import nonstandard_cards
from hardware_sim.cards.gnome import available as gnome_available
from vision import Recognizer
from vision.calibrate import calibrate_folder
from vision.detect import find_card, order_quad

needs_gnome = pytest.mark.skipif(
    not gnome_available(),
    reason="Debian gnome-cards-data / librsvg2-bin not installed (scripts/test.sh installs them)",
)


@pytest.fixture(scope="module")
def deck_recognizer(calibration_dir):  # type: ignore[no-untyped-def]
    return Recognizer(calibrate_folder(calibration_dir))


def test_every_clean_card_reads_right_with_deck_profile(builtin_deck, deck_recognizer) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(11)
    for code in CARD_CODES:
        f = make_frame(builtin_deck, code, rng, preset="clean")
        r = deck_recognizer.read(f.image)
        assert r.card == code, (code, r)
        assert 0.5 <= r.confidence <= 1.0


def test_normal_frames_are_never_misread(builtin_deck, deck_recognizer) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(12)
    right = 0
    for i in range(104):
        code = CARD_CODES[i % 52]
        r = deck_recognizer.read(make_frame(builtin_deck, code, rng, preset="normal").image)
        assert r.card in (None, code), (code, r)
        right += r.card == code
    assert right >= 98


@pytest.mark.parametrize("kind", ["card_back", "empty_table", "mostly_covered", "blackout"])
def test_negatives_come_back_unsure(builtin_deck, deck_recognizer, kind: str) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(14)
    generic = Recognizer()
    for i in range(12):
        code = None if kind == "empty_table" else CARD_CODES[i * 4]
        f = make_frame(builtin_deck, code, rng, preset="normal", kind=kind)
        for rec in (deck_recognizer, generic):
            r = rec.read(f.image)
            assert r.card is None, (kind, code, r)
            assert r.reason


def test_german_and_swiss_indices_are_not_named() -> None:
    rec = Recognizer()
    rng = np.random.default_rng(15)
    named = []
    for deck in ("german", "swiss", "bdk"):
        # the generic profile learned "foreign" glyphs from the classic style only
        for label, face, must_be_unsure in nonstandard_cards(deck, style="modern"):
            if not must_be_unsure:
                continue
            frame = np.full((480, 640, 3), (40, 90, 30), np.uint8)
            h, w = face.shape[:2]
            y, x = int(rng.integers(0, 480 - h)), int(rng.integers(0, 640 - w))
            frame[y : y + h, x : x + w] = face
            r = rec.read(frame)
            if r.card is not None:
                named.append((label, r.card))
    assert not named


def test_finger_over_one_corner_still_reads(builtin_deck, deck_recognizer) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(16)
    right = 0
    for i in range(26):
        code = CARD_CODES[i * 2]
        r = deck_recognizer.read(make_frame(builtin_deck, code, rng, kind="finger").image)
        assert r.card in (None, code)
        right += r.card == code
    assert right >= 20


def test_full_hd_frames_and_upside_down_cards(builtin_deck, deck_recognizer) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(17)
    for code in ("TD", "6S", "9H", "QC"):
        f = make_frame(builtin_deck, code, rng, preset="clean", size=(1920, 1080))
        assert deck_recognizer.read(f.image).card == code
        flipped = np.ascontiguousarray(f.image[::-1, ::-1])  # half a turn
        assert deck_recognizer.read(flipped).card == code


def test_detected_corners_match_truth(builtin_deck) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(18)
    for code in ("AS", "KH", "5C"):
        f = make_frame(builtin_deck, code, rng, preset="normal")
        det = find_card(f.image)
        assert det is not None and f.corners is not None
        truth = order_quad(f.corners.astype(np.float64))
        err = min(
            float(np.abs(np.roll(det.quad, k, axis=0) - truth).max()) for k in (0, 2)
        )
        assert err < 8.0, (code, det.quad, truth)


def test_bad_frames_are_unsure_not_errors() -> None:
    rec = Recognizer()
    assert rec.read(np.zeros((480, 640, 3), np.uint8)).card is None
    assert rec.read(np.full((480, 640, 3), 255, np.uint8)).card is None
    assert rec.read(np.zeros((0, 0, 3), np.uint8)).card is None
    assert rec.read(np.zeros((480, 640), np.uint8)).card is None


@needs_gnome
@pytest.mark.slow
def test_unseen_gnome_design_with_its_own_profile(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from hardware_sim.camera import write_calibration_set

    # a validation family, never trained on (tests read no held-out design)
    deck = open_deck("tango")
    write_calibration_set(deck, tmp_path)
    rec = Recognizer(calibrate_folder(tmp_path))
    rng = np.random.default_rng(19)
    right = 0
    for i in range(52):
        code = CARD_CODES[i]
        r = rec.read(make_frame(deck, code, rng, preset="normal").image)
        assert r.card in (None, code), (code, r)
        right += r.card == code
    assert right >= 48


def test_looking_where_the_card_lay_reads_the_same_and_never_names_another(
    deck_recognizer,  # type: ignore[no-untyped-def]
) -> None:
    """``read(look_at=quad)``: at rest, the same card as a full read of that frame;
    at the place where the *previous* card lay (it moved, another came), no card
    at all or, where the two happen to overlap, the card that is really there."""
    from hardware_sim.camera import SimCamera

    cam = SimCamera("builtin", preset="normal", seed=21, mode="overhead")
    previous = None
    looked_elsewhere = 0
    for i in range(60):
        code = CARD_CODES[(i * 7) % 52]
        cam.show(code)
        first, second = cam.grab(), cam.grab()
        full = deck_recognizer.read(first)
        assert full.card in (None, code)
        if full.card is None:
            continue
        assert full.quad is not None and full.quad.shape == (4, 2)
        at_rest = deck_recognizer.read(second, look_at=full.quad)
        assert at_rest.card == deck_recognizer.read(second).card, code
        if previous is not None:
            moved = deck_recognizer.read(first, look_at=previous)
            assert moved.card in (None, code), (code, moved)
            looked_elsewhere += 1
        previous = full.quad
    assert looked_elsewhere >= 50
    unsure = deck_recognizer.read(np.zeros((480, 640, 3), np.uint8), look_at=previous)
    assert unsure.card is None and unsure.quad is None
