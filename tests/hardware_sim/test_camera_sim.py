"""The simulated camera: shows the dealt card, grabs frames, fails on demand."""

from __future__ import annotations

import numpy as np
import pytest

from hardware_sim.camera import FAULTS, SimCamera


def test_grab_shows_the_card_at_rest_with_fresh_noise() -> None:
    cam = SimCamera("builtin", preset="normal", seed=1, mode="overhead")
    cam.show("QH")
    a = cam.grab()
    truth_a = cam.truth
    b = cam.grab()
    assert a is not None and b is not None and a.shape == (480, 640, 3)
    assert truth_a is not None and cam.truth is not None
    assert truth_a.code == "QH" and truth_a.readable and truth_a.kind == "card"
    assert np.array_equal(truth_a.corners, cam.truth.corners)  # the card has not moved
    assert not np.array_equal(a, b)  # but the sensor noise is new
    assert np.abs(a.astype(int) - b).mean() < 10
    cam.show("10c")
    cam.grab()
    assert cam.truth.code == "TC"
    assert not np.array_equal(truth_a.corners, cam.truth.corners)


def test_same_seed_same_frames() -> None:
    frames = []
    for _ in range(2):
        cam = SimCamera("builtin:duplex", preset="hard", seed=9, mode="overhead")
        seq = []
        for code in ("AS", "7D", "KC"):
            cam.show(code)
            seq.extend([cam.grab(), cam.grab()])
        frames.append(seq)
    assert all(np.array_equal(x, y) for x, y in zip(*frames, strict=True))


def test_nothing_under_the_camera_and_face_down_cards() -> None:
    cam = SimCamera(seed=2, mode="overhead")
    assert cam.grab() is not None
    assert cam.truth.kind == "empty_table" and cam.truth.code is None
    cam.show("5S", face_up=False)
    cam.grab()
    assert cam.truth.kind == "card_back" and not cam.truth.readable and cam.truth.code == "5S"
    cam.show(None)
    cam.grab()
    assert cam.truth.code is None


def test_injected_faults_then_back_to_normal() -> None:
    cam = SimCamera(seed=3, size=(320, 240), mode="overhead")
    cam.show("8H")
    cam.inject("blackout", 2)
    cam.inject("drop")
    cam.inject("mostly_covered")
    assert cam.pending_faults == 4
    for _ in range(2):
        dark = cam.grab()
        assert dark is not None and dark.mean() < 20 and not cam.truth.readable
    assert cam.grab() is None and cam.truth is None
    cam.grab()
    assert cam.truth.kind == "mostly_covered" and not cam.truth.readable
    ok = cam.grab()
    assert ok is not None and ok.shape == (240, 320, 3) and cam.truth.kind == "card"
    cam.inject("glare", 5)
    cam.clear_faults()
    cam.grab()
    assert cam.truth.kind == "card"
    assert cam.frames_grabbed == 6


def test_fault_kinds_and_bad_requests() -> None:
    cam = SimCamera(seed=4, mode="overhead")
    cam.show("2D")
    for kind in FAULTS:
        cam.inject(kind)
        cam.grab()
    with pytest.raises(ValueError, match="camera fault"):
        cam.inject("smoke")
    with pytest.raises(ValueError):
        cam.show("11D")


def test_matches_the_vision_camera_source_protocol() -> None:
    sources = pytest.importorskip("vision.sources")
    cam = SimCamera(seed=5, mode="overhead")
    assert isinstance(cam, sources.CameraSource)


def test_one_room_all_evening_and_each_card_lies_its_own_way() -> None:
    """The table, light, focus, sensor and encoder are the camera's room, the
    same for every card; where and how each card lies is its own."""
    from hardware_sim.camera.frames import ROOM_FIELDS

    cam = SimCamera("builtin", preset="normal", seed=11, mode="overhead")
    scenes = []
    for code in ("AS", "7D", "KC", "2H"):
        cam.show(code)
        cam.grab()
        assert cam.truth is not None and cam.truth.scene is not None
        scenes.append(cam.truth.scene)
    for scene in scenes:
        assert all(getattr(scene, f) == getattr(cam.room, f) for f in ROOM_FIELDS)
    corners = [s.corners.tobytes() for s in scenes if s.corners is not None]
    assert len(set(corners)) == 4
    rooms = {(SimCamera(seed=s, mode="overhead").room.table,
              SimCamera(seed=s, mode="overhead").room.jpeg_quality) for s in range(12)}
    assert len(rooms) > 3  # another camera, another room
