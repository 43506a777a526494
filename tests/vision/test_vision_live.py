"""Frame consensus, the dealt-card ledger, camera sources and profile files."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware_sim.camera import SimCamera
from vision import (
    CameraSource,
    CardConflict,
    DealtCardLedger,
    FrameConsensus,
    ImageSource,
    Reading,
    Recognizer,
    VideoCaptureSource,
    load_profile,
)
from vision.body_likeness import THUMB_LEN
from vision.calibrate import InteractiveCalibration, calibrate_folder
from vision.profile import ProfileError
from vision.sources import ImageError


def r(card: str | None, conf: float = 0.9) -> Reading:
    return Reading(card, conf if card else 0.0)


def test_consensus_needs_consecutive_agreement() -> None:
    c = FrameConsensus(frames=3)
    assert c.push(r("7H")) is None
    assert c.push(r("7H")) is None
    assert c.push(r(None)) is None  # an unsure frame restarts the count
    assert c.push(r("7H")) is None
    assert c.push(r("7D")) is None  # a different card restarts it too
    assert c.push(r("7H")) is None
    assert c.push(r("7H", 0.7)) is None
    final = c.push(r("7H", 0.8))
    assert final is not None and final.card == "7H" and final.confidence == pytest.approx(0.7)
    assert c.push(r("7H")) is None  # reported once
    c.reset()
    assert c.final is None and c.streak == 0


def test_ledger_flags_impossible_cards() -> None:
    ledger = DealtCardLedger(packs=2)
    ledger.record("AS")
    ledger.record("10s")  # the controller may print tens either way
    assert ledger.conflict("AS") is None
    ledger.record("AS")
    conflict = ledger.conflict("AS")
    assert conflict is not None and "already been dealt 2 times" in conflict.message
    with pytest.raises(CardConflict, match="AS was read"):
        ledger.record("AS")
    assert ledger.dealt("AS") == 2  # the conflicting read was not counted
    ledger.undo("AS")
    ledger.record("AS")
    assert ledger.cards_left == 104 - 3
    ledger.new_shoe()
    assert ledger.dealt("AS") == 0
    with pytest.raises(ValueError, match="not a card code"):
        ledger.record("ZZ")


def test_sim_camera_plugs_in_as_a_source_and_reaches_consensus() -> None:
    cam = SimCamera("builtin", preset="normal", seed=3, mode="overhead")
    assert isinstance(cam, CameraSource)
    rec = Recognizer()
    cam.show("9C")
    c = FrameConsensus(frames=3)
    final = None
    for _ in range(12):
        frame = cam.grab()
        if frame is None:
            continue
        final = c.push(rec.read(frame)) or final
    assert final is not None and final.card == "9C"


def test_image_and_video_sources(tmp_path: Path) -> None:
    a = np.full((48, 64, 3), 200, np.uint8)
    p = tmp_path / "a.png"
    cv2.imwrite(str(p), a)
    rgba = np.zeros((8, 8, 4), np.uint8)  # fully transparent: becomes white
    src = ImageSource([p, rgba])
    assert src.grab().shape == (48, 64, 3)
    assert int(src.grab().min()) == 255
    assert src.grab() is None
    with pytest.raises(ImageError, match="no such file"):
        ImageSource([tmp_path / "nope.png"]).grab()
    video = tmp_path / "v.avi"
    w = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    if not w.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for _ in range(3):
        w.write(a)
    w.release()
    with VideoCaptureSource(str(video)) as vs:
        frames = [vs.grab() for _ in range(4)]
    assert [f is not None for f in frames] == [True, True, True, False]
    with pytest.raises(ImageError):
        VideoCaptureSource(str(tmp_path / "missing.avi"))


def test_profile_round_trip_and_interactive_calibration(
    calibration_dir: Path, tmp_path: Path
) -> None:
    prof = calibrate_folder(calibration_dir)
    path = tmp_path / "p.npz"
    prof.save(path)
    again = load_profile(path)
    assert again.rank_labels == prof.rank_labels
    assert np.allclose(again.rank_templates, prof.rank_templates, atol=0.02)
    # every face's body is kept (``vision.body_likeness``), to float16's precision
    assert prof.faces.shape == (52, THUMB_LEN)
    assert np.allclose(again.faces, prof.faces, atol=1e-3)
    with pytest.raises(ProfileError):
        load_profile(tmp_path / "none.npz")
    # Interactive: the dealer shows each card; clean frames of each in turn.
    cal = InteractiveCalibration(frames_needed=2)
    src = ImageSource(sorted(calibration_dir.iterdir()))
    images = {p.stem: cv2.imread(str(p)) for p in calibration_dir.iterdir()}
    while cal.wanted is not None:
        img = images[cal.wanted]
        assert not cal.offer(img)
        assert cal.offer(img)
    assert src.grab() is not None
    learned = cal.finish(name="dealer")
    assert len(set(learned.rank_labels)) == 13
    assert learned.faces.shape == (52, THUMB_LEN)
