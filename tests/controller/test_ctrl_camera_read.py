"""The table's camera read: frames grabbed ahead while the recogniser reads,
never more frames than one-by-one reading would take."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from ctrl_drive import SCENARIOS, new_core

from controller.table import Table
from hardware_sim.camera import SimCamera
from hardware_sim.camera.profile_cache import deck_profile
from vision.recognizer import Recognizer

HOUSE = next(p for p in SCENARIOS if p.name == "house-buy-example.json")


class CountingCamera:
    """The simulated camera, counting grabs and noting which thread made them."""

    def __init__(self, camera: SimCamera) -> None:
        self.camera = camera
        self.grabs = 0
        self.threads: set[str] = set()

    def grab(self) -> Any:
        self.grabs += 1
        self.threads.add(threading.current_thread().name)
        return self.camera.grab()


def _read(camera: CountingCamera, frames: int, show: str, faults: dict[str, int]) -> tuple[
    str | None, str
]:
    async def run() -> tuple[str | None, str]:
        table = Table(new_core(HOUSE), camera=camera,
                      recognizer=Recognizer(deck_profile("builtin")), frames=frames)
        async with table:
            camera.camera.show(show)
            for kind, count in faults.items():
                camera.camera.inject(kind, count)
            return await table._read_card()

    return asyncio.run(run())


def test_three_agreeing_frames_take_exactly_three_grabs() -> None:
    cam = CountingCamera(SimCamera("builtin", preset="clean", seed=4))
    assert _read(cam, 3, "QH", {}) == ("QH", "")
    assert cam.grabs == 3
    # the second and third frames were grabbed by the grabber while one was read
    assert any(name.startswith("camera-grab") for name in cam.threads)


def test_blacked_out_frames_are_skipped_and_cost_no_extra_grab() -> None:
    cam = CountingCamera(SimCamera("builtin", preset="clean", seed=5))
    assert _read(cam, 3, "7C", {"blackout": 2}) == ("7C", "")
    assert cam.grabs == 5  # two dark frames, then three agreeing ones
    assert cam.camera.pending_faults == 0


def test_a_camera_that_never_sees_the_card_gives_up_after_max_grabs() -> None:
    cam = CountingCamera(SimCamera("builtin", preset="clean", seed=6))
    card, why = _read(cam, 3, "AS", {"blackout": 20})
    assert card is None and why
    assert cam.grabs == 12  # Table's max_grabs, not one more
    assert cam.camera.pending_faults == 8
