"""The in-shoe geometry's derived numbers against the hand arithmetic of
docs/hardware.md ("Where the camera is").  Every expected value below was
worked out by hand (the working is beside it), not taken from the code.
"""

from __future__ import annotations

import dataclasses

import pytest

from vision.geometry import IN_SHOE, InShoeGeometry


def test_the_scale_maps_the_window_onto_the_frame() -> None:
    """9 px/mm: 70 mm x 9 = 630 px across, 50 mm x 9 = 450 px along; the
    640 x 480 frame covers 640/9 = 71.11 mm x 480/9 = 53.33 mm, so the
    aperture sits (640-630)/2 = 5 px in from the sides and (480-450)/2 = 15 px
    in from the ends."""
    g = IN_SHOE
    assert g.window_px == (630, 450)
    assert g.window_px[0] == pytest.approx(g.px_per_mm * g.window_across_mm)
    assert g.field_mm == pytest.approx((71.111, 53.333), abs=1e-3)
    assert g.window_rect_px == (5, 15, 635, 465)


def test_frames_per_pass_from_speed_and_frame_rate() -> None:
    """A pass is 88.9 + 50 = 138.9 mm of travel.
    0.5 m/s: 138.9 / 500 = 0.2778 s, x 120 fps = 33.34 frames.
    0.3 m/s: 0.4630 s x 120 = 55.56;  0.8 m/s: 0.1736 s x 120 = 20.84.
    1 m/s at 100 fps: 0.1389 s x 100 = 13.89."""
    g = IN_SHOE
    assert g.pass_mm == pytest.approx(138.9)
    assert g.pass_s(500.0) == pytest.approx(0.2778, abs=1e-4)
    assert g.frames_per_pass(500.0) == pytest.approx(33.34, abs=0.01)
    assert g.frames_per_pass(300.0) == pytest.approx(55.56, abs=0.01)
    assert g.frames_per_pass(800.0) == pytest.approx(20.84, abs=0.01)
    assert g.frames_per_pass(1000.0, fps=100.0) == pytest.approx(13.89, abs=0.01)


def test_the_usual_slide_gives_twenty_to_sixty_frames_at_120_fps() -> None:
    """Issue 18 plans for 20-60 frames per pass at 120 fps: the usual speeds
    (0.3-0.8 m/s) give 55.6 and 20.8, inside that range."""
    slow, fast = IN_SHOE.speed_mm_s
    assert 20 <= IN_SHOE.frames_per_pass(fast) <= IN_SHOE.frames_per_pass(slow) <= 60


def test_motion_between_frames_and_during_one_exposure() -> None:
    """Between frames at 0.5 m/s, 120 fps: 500/120 = 4.167 mm = 37.5 px.
    Blur at 1 m/s, 0.2 ms: 0.2 mm = 1.8 px; at 0.5 m/s, 1 ms: 0.5 mm = 4.5 px.
    An index corner wholly in view: (50 - 20) mm / 500 mm/s = 0.06 s = 7.2 frames.
    CARD_OUT after the pass: 5 mm / 500 mm/s = 10 ms."""
    g = IN_SHOE
    assert g.step_px(500.0) == pytest.approx(37.5)
    assert g.blur_px(1000.0) == pytest.approx(1.8)
    assert g.blur_px(500.0, exposure_ms=1.0) == pytest.approx(4.5)
    assert g.index_frames(500.0) == pytest.approx(7.2)
    assert g.card_out_delay_s(500.0) == pytest.approx(0.010)


def test_lens_distance_and_field_of_view() -> None:
    """1/4-inch sensor, 3.6 mm across 71.11 mm: m = 0.050625, 1/m = 19.753;
    f = 2.8 mm: u = 2.8 x 20.753 = 58.11 mm; the field's half-width 35.56 mm
    at 58.11 mm is atan(0.6119) = 31.46 degrees, 62.9 degrees in all.
    1/2.7-inch sensor binned to 640 columns (1280 x 3 um = 3.84 mm):
    m = 0.0540, f = 3.6 mm: u = 3.6 x 19.519 = 70.27 mm."""
    g = IN_SHOE
    assert g.magnification() == pytest.approx(0.050625)
    assert g.working_distance_mm() == pytest.approx(58.11, abs=0.01)
    assert g.fov_deg() == pytest.approx(62.9, abs=0.1)
    assert g.magnification(3.84) == pytest.approx(0.0540)
    assert g.working_distance_mm(3.6, 3.84) == pytest.approx(70.27, abs=0.01)


def test_the_leds_reflections_fall_outside_the_frame() -> None:
    """The glass's underside is 58.11 - 2 = 56.11 mm from the lens; an LED 42 mm
    out and 8 mm below it is seen at 42 x 56.11 / 64.11 = 36.76 mm, beyond the
    frame's half-width of 35.56 mm (and 12 mm along at 10.50 mm)."""
    g = IN_SHOE
    x, y = g.glass_reflection_mm((42.0, 12.0, 8.0))
    assert x == pytest.approx(36.76, abs=0.01)
    assert y == pytest.approx(10.50, abs=0.01)
    half_width = g.field_mm[0] / 2
    for led in g.led_positions_mm:
        assert abs(g.glass_reflection_mm(led)[0]) > half_width


def test_the_geometry_is_frozen_data() -> None:
    """One table both readers share: it cannot be changed in place."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        IN_SHOE.px_per_mm = 10.0  # type: ignore[misc]
    assert InShoeGeometry() == IN_SHOE
