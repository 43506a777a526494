"""Camera-frame synthesis: reproducible, sized, and ground truth that matches the picture."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware_sim.camera import effects
from hardware_sim.camera.frames import (
    KINDS,
    PRESETS,
    ROOM_FIELDS,
    Effects,
    _on_card,
    backdrop,
    calibration_image,
    compose,
    in_room,
    make_frame,
    sample_scene,
    write_calibration_set,
)
from hardware_sim.cards import CARD_CODES, LooseFace, open_deck
from hardware_sim.cards.builtin import card_mask

# face corners TL, TR, BR, BL painted red, green, blue, yellow (BGR)
MARKERS = [(0, 0, 255), (0, 255, 0), (255, 0, 0), (0, 255, 255)]


class MarkerDeck(LooseFace):
    """A deck whose every face has one colour square in each corner, so a
    frame shows where each corner of the face went."""

    name = "markers"

    def __init__(self) -> None:
        w, h = 200, 280
        face = np.full((h, w, 3), 255, np.uint8)
        s = 50
        for (x, y), c in zip([(0, 0), (w - s, 0), (w - s, h - s), (0, h - s)], MARKERS,
                             strict=True):
            face[y : y + s, x : x + s] = c
        super().__init__(face)


def marker_seen(img: np.ndarray, corners: np.ndarray, i: int) -> bool:
    """Whether corner ``i``'s marker colour is what the frame shows there."""
    u, v = [(0.1, 0.08), (0.9, 0.08), (0.9, 0.92), (0.1, 0.92)][i]
    x, y = _on_card(corners, u, v)
    px = img[round(y), round(x)].astype(float)
    if px.max() < 40:
        return False
    # compare chromaticity, so dim light or a white-balance cast still match
    # but skin (a washed-out orange) does not pass for yellow or red
    want = np.array(MARKERS[i], float) / 255.0
    return bool(np.abs(px / px.max() - want).sum() < 0.6)


def test_same_seed_same_frame_and_different_seed_differs() -> None:
    deck = open_deck("builtin")
    for preset in PRESETS:
        a = make_frame(deck, "TD", np.random.default_rng(5), preset=preset)
        b = make_frame(deck, "TD", np.random.default_rng(5), preset=preset)
        c = make_frame(deck, "TD", np.random.default_rng(6), preset=preset)
        assert np.array_equal(a.image, b.image) and np.array_equal(a.corners, b.corners)
        assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("size", [(640, 480), (320, 240), (1920, 1080), (1280, 720)])
def test_frame_size(size: tuple[int, int]) -> None:
    f = make_frame(open_deck("builtin"), "AS", np.random.default_rng(0), size=size)
    assert f.image.shape == (size[1], size[0], 3) and f.image.dtype == np.uint8
    assert f.code == "AS" and f.readable and f.kind == "card"
    assert f.corners is not None
    assert (f.corners >= 0).all() and (f.corners[:, 0] <= size[0]).all()
    assert (f.corners[:, 1] <= size[1]).all()


def test_bad_arguments_are_refused_clearly() -> None:
    deck = open_deck("builtin")
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="frame size"):
        make_frame(deck, "AS", rng, size=(4000, 3000))
    with pytest.raises(ValueError, match="preset"):
        make_frame(deck, "AS", rng, preset="extreme")
    with pytest.raises(ValueError, match="kind"):
        make_frame(deck, "AS", rng, kind="smoke")
    with pytest.raises(ValueError, match="card code"):
        make_frame(deck, None, rng)


@pytest.mark.parametrize("preset", ["clean", "normal", "hard"])
def test_ground_truth_corners_follow_the_card(preset: str) -> None:
    """Wherever the card lands (any angle, tilt up to 30 degrees), each
    ground-truth corner shows that corner's marker."""
    fx = replace(PRESETS[preset], glare=0.0, finger=0.0, tilt=30.0)
    deck = MarkerDeck()
    rng = np.random.default_rng(11)
    for _ in range(40):
        f = make_frame(deck, "AS", rng, preset=fx)
        assert f.corners is not None
        for i in range(4):
            assert marker_seen(f.image, f.corners, i), (preset, i, f.scene)


def test_ground_truth_quad_covers_the_card_area() -> None:
    """The card's pixels fill the ground-truth quadrilateral: measured on a
    white card over a black table with no effects."""
    fx = Effects(tables=("dark",), gain=(1.0, 1.0), gradient=0.0, white_balance=0.0, shadow=0.0,
                 blur=(0.0, 0.0), noise=(0.0, 0.0), jpeg=0.0, glare=0.0, finger=0.0, tilt=30.0)
    deck = open_deck("builtin")
    rng = np.random.default_rng(3)
    for _ in range(10):
        f = make_frame(deck, "KS", rng, preset=fx)
        quad = np.zeros(f.image.shape[:2], np.uint8)
        cv2.fillConvexPoly(quad, f.corners.astype(np.int32), 255)
        bright = f.image.min(axis=2) > 150
        inside = bright[quad > 0].mean()
        outside = bright[quad == 0].mean()
        assert inside > 0.6 and outside < 0.01


def test_hard_kinds() -> None:
    deck = MarkerDeck()
    rng = np.random.default_rng(2)
    seen = set()
    for _ in range(8):
        empty = make_frame(deck, None, rng, kind="empty_table")
        assert empty.code is None and empty.corners is None and not empty.readable
        black = make_frame(deck, "AS", rng, kind="blackout")
        assert black.image.mean() < 20 and not black.readable
        back = make_frame(deck, "AS", rng, kind="card_back")
        assert back.code == "AS" and not back.face_up and not back.readable
        finger = make_frame(deck, "AS", rng, kind="finger")
        assert finger.readable
        visible = [marker_seen(finger.image, finger.corners, i) for i in range(4)]
        assert sum(visible) == 3, visible  # one corner covered, no more
        seen.add(visible.index(False))
        covered = make_frame(deck, "AS", rng, kind="mostly_covered")
        assert not covered.readable
        assert not marker_seen(covered.image, covered.corners, 0)
        assert not marker_seen(covered.image, covered.corners, 2)
        glare = make_frame(deck, "AS", rng, kind="glare")
        assert not glare.readable
        for i in (0, 2):  # both index corners washed out to near white
            x, y = _on_card(glare.corners, *[(0.1, 0.1), (0.9, 0.9)][i // 2])
            assert glare.image[int(y), int(x)].min() > 200
    assert seen & {0, 2}  # fingers land on the index corners too
    assert set(KINDS) == {"card", "glare", "finger", "blackout", "mostly_covered",
                          "empty_table", "card_back"}


def test_calibration_images(tmp_path: Path) -> None:
    deck = open_deck("builtin")
    paths = write_calibration_set(deck, tmp_path / "cal")
    assert sorted(p.name for p in paths) == sorted(f"{c}.png" for c in CARD_CODES)
    back = cv2.imread(str(tmp_path / "cal" / "TD.png"))
    assert np.array_equal(back, deck.face("TD"))
    small = calibration_image(deck, "AS", width=100)
    assert small.shape == (140, 100, 3)


def test_effects_do_what_they_say() -> None:
    rng = np.random.default_rng(0)
    grey = np.full((240, 320, 3), 128, np.uint8)
    noisy = effects.add_noise(grey, 5.0, rng)
    assert 4.0 < (noisy.astype(float) - 128).std() < 6.0
    same = effects.apply_lighting(grey, 1.0, (0.0, 0.0), (1.0, 1.0, 1.0))
    assert np.abs(same.astype(int) - grey).max() <= 1
    warm = effects.apply_lighting(grey, 1.0, (0.0, 0.0), (0.8, 1.0, 1.2))
    assert warm[..., 0].mean() < 110 and warm[..., 2].mean() > 145
    ramp = effects.apply_lighting(grey, 1.0, (0.6, 0.0), (1.0, 1.0, 1.0))
    assert ramp[:, -1].mean() - ramp[:, 0].mean() > 60
    spot = grey.copy()
    effects.add_glare(spot, (160, 120), 20, 1.0)
    assert spot[120, 160].min() == 255 and spot[0, 0].max() == 128
    edge = np.zeros((50, 50, 3), np.uint8)
    edge[:, 25:] = 255
    assert effects.motion_blur(edge, 9, 0)[25, 22:28, 0].std() > 20
    assert effects.jpeg(noisy, 30).shape == noisy.shape
    for kind in effects.TABLES:
        t = effects.table_texture(kind, (120, 160), variant=1)
        assert t.shape == (120, 160, 3) and 15 < t.mean() < 200
    finger = grey.copy()
    effects.draw_finger(finger, (160, 120), (1.0, 0.0), 30)
    assert np.abs(finger[120, 200].astype(int) - 128).max() > 20 and finger[120, 100, 0] == 128
    assert card_mask(100, 140, 8)[0, 0] == 0


@pytest.mark.parametrize("preset", ["clean", "normal", "hard"])
def test_composing_around_the_card_on_a_backdrop_gives_the_whole_frames_pixels(
    preset: str,
) -> None:
    """The simulated camera composes only around the card on its room's ready
    backdrop; that must be a shortcut, not a different picture: every pixel
    equals the whole-frame composition, cards at the frame's edges, strong
    blur and long shadows included.  Shots the shortcut cannot take (fingers,
    glare, motion blur, no card) come out of the whole-frame path unchanged."""
    deck = open_deck("builtin")
    shortcut = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        room = sample_scene(rng, preset=preset, kind="empty_table")
        ready = backdrop(room)
        for i, kind in enumerate(["card"] * 6 + ["glare", "blackout", "card_back",
                                                 "empty_table"]):
            code = CARD_CODES[(seed * 11 + i) % 52]
            face, mask = deck.face(code), deck.mask(code)
            if kind == "card_back":
                face, mask = deck.back(), deck.mask(None)
            scene = in_room(sample_scene(rng, preset=preset, kind=kind,
                                         aspect=face.shape[0] / face.shape[1]), room)
            shown = None if kind == "empty_table" else face
            whole = compose(scene, shown, mask)
            assert np.array_equal(compose(scene, shown, mask, ready), whole), (seed, i, kind)
            shortcut += ready.fits(scene) and scene.corners is not None and not (
                scene.fingers or scene.glares or scene.motion)
    assert shortcut >= 24  # a third of the shots or more took the shortcut


def test_a_room_keeps_table_light_and_sensor_and_the_card_keeps_its_own() -> None:
    rng = np.random.default_rng(5)
    room = sample_scene(rng, preset="hard", kind="empty_table")
    shot = sample_scene(rng, preset="hard", kind="card")
    seen = in_room(shot, room)
    for name in ROOM_FIELDS:
        assert getattr(seen, name) == getattr(room, name)
    assert np.array_equal(seen.corners, shot.corners)
    assert (seen.shadow, seen.glares, seen.fingers) == (shot.shadow, shot.glares, shot.fingers)
    dark = in_room(sample_scene(rng, preset="hard", kind="blackout"), room)
    assert dark.gain < 0.1 and dark.table == room.table  # a covered lens stays dark
    assert not backdrop(room).fits(dark)
