"""The in-shoe camera's geometry, as numbers: one table that the simulator's
renderer and the recogniser both read, so they never disagree about what the
camera sees (``docs/hardware.md``, "Where the camera is", explains and derives
every number).

Pure data and arithmetic: no project imports, no I/O.  Conventions:

* Lengths are millimetres, times seconds unless a name says ``_ms``.
* A frame is ``frame_px`` = (width, height) = (640, 480).  Its **x** axis runs
  *across* the card's motion, its **y** axis *along* it: the card enters at row
  0 (the shoe's side of the window) and moves towards larger y.  The frame
  shows the card's face as a person looking at the face would see it (not
  mirrored); a camera mounted otherwise (rotated, or through a mirror) is
  turned to this convention in software before anything reads its frames.
* The window is centred in the frame; ``window_rect_px`` gives its aperture.
* An index's top always faces the nearer short edge of the card.  So an index
  near the leading edge appears upside down (its top towards +y), one near the
  trailing edge upright, whichever end of the card leads; with the common
  layout (indices at the face's top-left and bottom-right) the leading index is
  on the +x side and the trailing one on the -x side.

Example::

    from vision.geometry import IN_SHOE
    IN_SHOE.window_px                   # (630, 450)
    IN_SHOE.frames_per_pass(500.0)      # 33.3 frames at 120 fps, 0.5 m/s
    IN_SHOE.blur_px(1000.0)             # 1.8 px at 1 m/s and 0.2 ms
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class InShoeGeometry:
    """The reference in-shoe reader (docs/hardware.md); defaults are the design."""

    # --- the card (a poker-size card, 2.5 x 3.5 in) --------------------------------
    card_length_mm: float = 88.9
    """along the motion: the card slides out long side first"""
    card_width_mm: float = 63.5
    """across the motion"""
    index_zone_mm: float = 20.0
    """from the card's short edge to the far side of its index (rank and suit)"""

    # --- the window in the shoe's floor --------------------------------------------
    window_across_mm: float = 70.0
    window_along_mm: float = 50.0
    glass_thickness_mm: float = 2.0
    gate_to_window_mm: float = 2.0
    """the locked gate holds the next card's leading edge this far before the window"""
    window_to_exit_beam_mm: float = 5.0
    """the exit sensor's beam crosses the mouth this far past the window's far edge"""

    # --- the frame -----------------------------------------------------------------
    frame_px: tuple[int, int] = (640, 480)
    """(width across the motion, height along it)"""
    px_per_mm: float = 9.0
    fps: float = 120.0
    """the design rate; 100 fps is the least a camera may have"""
    min_fps: float = 100.0
    exposure_ms: float = 0.2
    """a UVC camera sets exposure in steps of 0.1 ms: 0.2 ms keeps blur under 2 px"""

    # --- how the card moves ----------------------------------------------------------
    speed_mm_s: tuple[float, float] = (300.0, 800.0)
    """a dealer's usual slide; the frames-per-pass range follows from it"""
    max_speed_mm_s: float = 1000.0
    """a fast pull the reader must still survive"""
    sideways_play_mm: float = 4.0
    """± across the motion, from the mouth's guides"""
    rotation_deg: float = 4.0
    """± about the axis normal to the glass"""

    # --- optics of the reference build (a 1/4-inch 4:3 sensor, M12 lens) ------------
    sensor_width_mm: float = 3.6
    """the sensor width the 640 columns span"""
    focal_mm: float = 2.8

    # --- lighting: four white LEDs below the glass -----------------------------------
    led_positions_mm: tuple[tuple[float, float, float], ...] = (
        (-42.0, -12.0, 8.0), (-42.0, 12.0, 8.0), (42.0, -12.0, 8.0), (42.0, 12.0, 8.0),
    )
    """(across, along, depth below the glass's underside) from the window's centre;
    outside the window, so the glass's reflection of each falls outside the frame"""

    # --- derived quantities ---------------------------------------------------------------
    @property
    def field_mm(self) -> tuple[float, float]:
        """What the whole frame covers at the glass: (across, along)."""
        w, h = self.frame_px
        return w / self.px_per_mm, h / self.px_per_mm

    @property
    def window_px(self) -> tuple[int, int]:
        """The window's aperture in pixels: (across, along)."""
        return (round(self.window_across_mm * self.px_per_mm),
                round(self.window_along_mm * self.px_per_mm))

    @property
    def window_rect_px(self) -> tuple[int, int, int, int]:
        """The aperture in the frame: (x0, y0, x1, y1), x1 and y1 exclusive."""
        (w, h), (ww, wh) = self.frame_px, self.window_px
        x0, y0 = (w - ww) // 2, (h - wh) // 2
        return x0, y0, x0 + ww, y0 + wh

    @property
    def pass_mm(self) -> float:
        """How far a card travels from its leading edge entering the window to its
        trailing edge leaving it: every frame of that travel shows some of it."""
        return self.card_length_mm + self.window_along_mm

    def pass_s(self, speed_mm_s: float) -> float:
        return self.pass_mm / speed_mm_s

    def frames_per_pass(self, speed_mm_s: float, fps: float | None = None) -> float:
        """Frames that show part of the card during one pass."""
        return self.pass_s(speed_mm_s) * (self.fps if fps is None else fps)

    def index_frames(self, speed_mm_s: float, fps: float | None = None) -> float:
        """Frames in which one index corner is wholly inside the window."""
        travel = self.window_along_mm - self.index_zone_mm
        return travel / speed_mm_s * (self.fps if fps is None else fps)

    def step_px(self, speed_mm_s: float, fps: float | None = None) -> float:
        """How far the card moves in the frame from one frame to the next."""
        return speed_mm_s / (self.fps if fps is None else fps) * self.px_per_mm

    def blur_px(self, speed_mm_s: float, exposure_ms: float | None = None) -> float:
        """Motion blur along y: the distance the card moves during one exposure."""
        exposure = self.exposure_ms if exposure_ms is None else exposure_ms
        return speed_mm_s * exposure / 1000.0 * self.px_per_mm

    def card_out_delay_s(self, speed_mm_s: float) -> float:
        """From the card's trailing edge leaving the window (the pass's last
        frame) to CARD_OUT (the trailing edge clearing the exit beam)."""
        return self.window_to_exit_beam_mm / speed_mm_s

    def magnification(self, sensor_width_mm: float | None = None) -> float:
        """Image size over object size: the sensor width over the field across."""
        sensor = self.sensor_width_mm if sensor_width_mm is None else sensor_width_mm
        return sensor / self.field_mm[0]

    def working_distance_mm(
        self, focal_mm: float | None = None, sensor_width_mm: float | None = None
    ) -> float:
        """Lens (principal plane) to the card's face, thin lens: u = f (1 + 1/m)."""
        f = self.focal_mm if focal_mm is None else focal_mm
        return f * (1.0 + 1.0 / self.magnification(sensor_width_mm))

    def glass_reflection_mm(self, led: tuple[float, float, float]) -> tuple[float, float]:
        """Where on the glass the camera sees an LED's reflection in the glass's
        underside (a flat mirror at ``u_g``, the lens to the underside): on the
        line from the lens to the LED's mirror image, which meets the glass at
        ``(x, y) * u_g / (u_g + depth)``.  Outside ``field_mm``: no glare."""
        x, y, depth = led
        u_g = self.working_distance_mm() - self.glass_thickness_mm
        k = u_g / (u_g + depth)
        return x * k, y * k

    def fov_deg(
        self, focal_mm: float | None = None, sensor_width_mm: float | None = None
    ) -> float:
        """The horizontal angle the frame spans, seen from the lens at that distance."""
        u = self.working_distance_mm(focal_mm, sensor_width_mm)
        return math.degrees(2.0 * math.atan(self.field_mm[0] / 2.0 / u))


#: the reference design; the simulator's renderer and the recogniser read this one
IN_SHOE = InShoeGeometry()
