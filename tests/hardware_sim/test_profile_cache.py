"""The simulated deck's calibrated profile: made once, kept on disk, read back."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hardware_sim.camera import SimCamera
from hardware_sim.camera import profile_cache as pc
from hardware_sim.cards import CARD_CODES
from vision.consensus import FrameConsensus
from vision.profile import DeckProfile
from vision.recognizer import Recognizer


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PONTOON_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(pc, "_memo", {})
    return tmp_path


def test_the_profile_is_calibrated_once_then_loaded_from_disk(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = pc.deck_profile("builtin")
    path = pc.profile_path("builtin")
    assert path.parent.parent == cache and path.is_file()
    assert isinstance(first, DeckProfile) and not first.generic
    # a new process (empty memory) loads the file instead of calibrating again
    monkeypatch.setattr(pc, "_memo", {})

    def no_calibration(*_: object, **__: object) -> None:
        raise AssertionError("calibrated again although the cache holds the profile")

    monkeypatch.setattr(pc, "calibrate_deck", no_calibration)
    again = pc.deck_profile("builtin")
    assert again.rank_labels == first.rank_labels
    assert np.array_equal(again.rank_templates, first.rank_templates)


def test_a_damaged_cache_file_is_replaced(cache: Path) -> None:
    path = pc.profile_path("builtin")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a profile")
    profile = pc.deck_profile("builtin")
    assert isinstance(profile, DeckProfile)
    assert path.read_bytes()[:2] == b"PK"  # a real .npz again


def test_the_cache_key_follows_the_renderer_and_reader_source() -> None:
    name = pc.profile_path("builtin").name
    assert name.startswith("builtin-w250-") and name.endswith(".npz")
    assert pc.profile_path("builtin", width=300).name != name
    assert "vision.index" in pc._KEY_MODULES and "hardware_sim.cards.builtin" in pc._KEY_MODULES


def test_only_a_simulated_camera_gets_a_deck_profile(cache: Path) -> None:
    assert pc.camera_profile(object()) is None
    cam = SimCamera("builtin:classic", seed=1, mode="overhead")
    assert pc.camera_profile(cam) is pc.deck_profile("builtin")  # one design, one profile


def test_the_simulated_camera_reads_right_with_its_deck_profile(cache: Path) -> None:
    """Every card of a deck, in normal conditions, three agreeing frames each."""
    recognizer = Recognizer(pc.deck_profile("builtin"))
    cam = SimCamera("builtin", preset="normal", seed=11, mode="overhead")
    unsure = 0
    for code in CARD_CODES:
        cam.show(code)
        consensus = FrameConsensus(3)
        final = None
        for _ in range(12):
            final = consensus.push(recognizer.read(cam.grab()))
            if final is not None:
                break
        if final is None:
            unsure += 1
        else:
            assert final.card == code  # never a wrong card
    assert unsure <= 2
