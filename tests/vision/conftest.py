"""Shared fixtures: decks from the simulator's renderers, never stored images."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from hardware_sim.cards import open_deck

cv2.setNumThreads(1)

@pytest.fixture(scope="session")
def builtin_deck():  # type: ignore[no-untyped-def]
    return open_deck("builtin")


@pytest.fixture(scope="session")
def calibration_dir(tmp_path_factory: pytest.TempPathFactory, builtin_deck) -> Path:  # type: ignore[no-untyped-def]
    from hardware_sim.camera import write_calibration_set

    folder = tmp_path_factory.mktemp("calib-builtin")
    write_calibration_set(builtin_deck, folder)
    return folder
