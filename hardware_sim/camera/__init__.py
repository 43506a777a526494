"""The simulated camera: card faces turned into camera-like frames with ground truth.

Example::

    import numpy as np
    from hardware_sim.camera import SimCamera, make_frame
    from hardware_sim.cards import open_deck

    cam = SimCamera("builtin", preset="normal", seed=3, mode="overhead")
    cam.show("QH")              # the card that just left the shoe is under the camera
    frame = cam.grab()          # BGR uint8 640x480 (vision's CameraSource protocol)
    cam.inject("blackout", 3)   # next 3 grabs are black: exercises the "unsure" path

    f = make_frame(open_deck("builtin"), "TD", np.random.default_rng(0), preset="hard")

See :mod:`hardware_sim.camera.frames` (frames, presets, calibration images) and
:mod:`hardware_sim.camera.effects` (the individual effects).
"""

from hardware_sim.camera.frames import (
    KINDS,
    PRESETS,
    Effects,
    Frame,
    calibration_image,
    make_frame,
    write_calibration_set,
)
from hardware_sim.camera.sim_camera import FAULTS, SimCamera

__all__ = [
    "FAULTS",
    "KINDS",
    "PRESETS",
    "Effects",
    "Frame",
    "SimCamera",
    "calibration_image",
    "make_frame",
    "write_calibration_set",
]
