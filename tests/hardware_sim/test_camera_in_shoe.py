"""The in-shoe camera: a card's pass under the shoe's window, as vision.geometry
says the reference build sees it.

Every expected number is worked out by hand from the design's figures in
``vision/geometry.py`` (docs/hardware.md section 2): 9 px/mm, the window at
rows 15..465 and columns 5..635 of a 640 x 480 frame, 120 fps, a 63.5 x 88.9 mm
card, a 50 mm window and a 20 mm index zone.  The arithmetic is written beside
each assertion; the picture is measured from the pixels, not from the code's
own bookkeeping.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware_sim.camera import SimCamera
from hardware_sim.camera.in_shoe import (
    InShoeCamera,
    InShoeRenderer,
    PassFrame,
    PassPlan,
    ShoeEffects,
)

# the hand-worked figures of the reference design (docs/hardware.md 2.1, 2.2)
PPM = 9.0  # px per mm
WIN_Y0, WIN_Y1 = 15, 465  # (480 - 450) / 2 = 15; 15 + 50 mm x 9 = 465
WIN_X0, WIN_X1 = 5, 635  # (640 - 630) / 2 = 5; 5 + 70 mm x 9 = 635

# a shoe with no sensor noise, no JPEG and little dust: edges can be measured
QUIET = ShoeEffects(noise=(0.0, 0.0), jpeg=0.0, dust=(0, 2), scratches=(0, 0),
                    glare=(0.15, 0.2), focus=(0.5, 0.5), led_bias=(0.05, 0.05),
                    vignette=(0.15, 0.15))


def straight(code: str, lead: str = "bottom", speed: float = 500.0, **kw: float) -> PassPlan:
    """A pass with no drift, play or rotation, its card first seen half a step in."""
    return PassPlan(code, lead=lead, speed_mm_s=speed, speed_change=0.0, play_mm=0.0,
                    rotation_deg=0.0, lead_in=2, phase=0.5, **kw)


@pytest.fixture(scope="module")
def quiet() -> InShoeRenderer:
    return InShoeRenderer("builtin", preset=QUIET, seed=1)


def grey(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)


def card_rows(frame: PassFrame, empty: np.ndarray, cols: slice) -> np.ndarray:
    """Per row of the window: how much brighter than the empty window the
    frame is (mean over ``cols``)."""
    return (grey(frame.image) - grey(empty))[:, cols].mean(axis=1)


def leading_edge_px(frame: PassFrame, empty: np.ndarray) -> float:
    """The card's leading edge (frame px, edge coordinates) found in the
    picture: where, going down the centre columns, the brightness falls through
    half-way between the card and the empty window for the last time."""
    d = card_rows(frame, empty, slice(300, 341))
    paper = float(d[WIN_Y0:WIN_Y1].max())
    half = paper / 2
    ys = [y for y in range(WIN_Y0, WIN_Y1 - 1) if d[y] >= half > d[y + 1]]
    y = ys[-1]
    # linear interpolation between row centres y + 0.5 and y + 1.5
    return y + 0.5 + (d[y] - half) / (d[y] - d[y + 1])


def test_leading_edge_moves_down_the_frame_at_the_pulled_speed(quiet: InShoeRenderer) -> None:
    """At 500 mm/s and 120 fps the card moves 500 / 120 = 4.167 mm = 37.5 px a
    frame.  With two lead-in frames and the first card frame half a step in,
    frame k (k >= 2) has the leading edge (k - 2 + 0.5) x 4.167 mm past the
    window's entry edge, i.e. at row 15 + 18.75 + 37.5 (k - 2)."""
    rng = np.random.default_rng(0)
    frames = quiet.render_pass(straight("7H"), rng)
    empty = quiet.look.empty
    assert [f.kind for f in frames[:3]] == ["empty", "empty", "card"]
    checked = 0
    for k, f in enumerate(frames[2:], start=2):
        expected_mm = (k - 2 + 0.5) * 500 / 120
        assert f.offset_mm == pytest.approx(expected_mm)
        expected_row = 15 + 18.75 + 37.5 * (k - 2)
        if expected_row > WIN_Y1 - 3:
            break
        assert leading_edge_px(f, empty) == pytest.approx(expected_row, abs=1.0), k
        checked += 1
    assert checked == 12  # rows 33.75 .. 446.25


def test_frames_showing_the_card_match_the_pass_length(quiet: InShoeRenderer) -> None:
    """A pass is 88.9 + 50 = 138.9 mm of travel: at 120 fps that is 55.6 frames
    at 0.3 m/s, 33.3 at 0.5 and 20.8 at 0.8 (docs/hardware.md 2.6).  An index
    (20 mm from the card's end) is wholly in the 50 mm window for 30 mm of
    travel: 12.0, 7.2 and 4.5 frames."""
    rng = np.random.default_rng(1)
    empty = quiet.look.empty
    for speed, frames_expected, index_expected in ((300, 55.6, 12.0), (500, 33.3, 7.2),
                                                   (800, 20.8, 4.5)):
        frames = quiet.render_pass(straight("KS", speed=speed), rng)
        seen = sum(f.card_in_view for f in frames)
        # in the picture: some row of the window at least 40 grey levels brighter
        lit = sum(bool(card_rows(f, empty, slice(100, 540))[WIN_Y0:WIN_Y1].max() > 40)
                  for f in frames)
        assert abs(seen - frames_expected) <= 1, speed
        assert abs(lit - frames_expected) <= 1, speed
        leading = sum(f.leading_index_in_view for f in frames)
        trailing = sum(f.trailing_index_in_view for f in frames)
        assert abs(leading - index_expected) <= 1 and abs(trailing - index_expected) <= 1
        # then the empty window: the pass ends with the card gone
        assert not frames[-1].card_in_view or frames[-1].offset_mm > 138.9 - speed / 120


def test_card_is_63_5_mm_wide_across_the_frame(quiet: InShoeRenderer) -> None:
    """63.5 mm x 9 px/mm = 571.5 px across, centred on column 320 (the window's
    centre, (5 + 635) / 2) plus the play: 2.5 mm of play is 22.5 px."""
    rng = np.random.default_rng(2)
    for play, centre in ((0.0, 320.0), (2.5, 342.5), (-2.5, 297.5)):
        plan = PassPlan("8C", lead="top", speed_mm_s=500.0, speed_change=0.0, play_mm=play,
                        rotation_deg=0.0, lead_in=0, phase=0.5)
        offsets = quiet.timeline(plan)
        k = min(range(len(offsets)), key=lambda i: abs(offsets[i][0] - 70.0))
        f = quiet.render(plan, *offsets[k], rng)
        # the card covers the whole window at 70 mm (50 <= 70 <= 88.9)
        d = (grey(f.image) - grey(quiet.look.empty))[200:280].mean(axis=0)
        paper = float(np.percentile(d, 90))
        inside = np.flatnonzero(d > paper / 2)
        left, right = inside[0], inside[-1]
        # sub-pixel: interpolate the half-way crossing at each side
        xl = left - 0.5 + (paper / 2 - d[left - 1]) / (d[left] - d[left - 1])
        xr = right + 0.5 + (d[right] - paper / 2) / (d[right] - d[right + 1])
        assert xr - xl == pytest.approx(571.5, abs=1.5)
        assert (xl + xr) / 2 == pytest.approx(centre, abs=1.0)


def index_patch(img: np.ndarray, corner: tuple[int, int], leading: bool) -> np.ndarray:
    """The 13 x 20 mm (117 x 180 px) index area at the card corner ``corner``
    (x, y): the leading corner is the card's bottom-right in the frame, the
    trailing one its top-left; 8 px of slack for the template to slide."""
    x, y = corner
    s = 8
    if leading:
        return grey(img)[y - 180 - s : y + s, x - 117 - s : x + s]
    return grey(img)[y - s : y + 180 + s, x - s : x + 117 + s]


def find_card_corner(frame: PassFrame, empty: np.ndarray, leading: bool) -> tuple[int, int]:
    """The card's corner found in the picture: the extreme column and row of
    the pixels clearly brighter than the empty window."""
    mask = (grey(frame.image) - grey(empty)) > 60
    ys, xs = np.nonzero(mask)
    if leading:
        return int(xs.max()) + 1, int(ys.max()) + 1
    return int(xs.min()), int(ys.min())


@pytest.mark.parametrize("lead", ["top", "bottom"])
def test_leading_index_is_upside_down_and_trailing_upright(
    quiet: InShoeRenderer, lead: str
) -> None:
    """Whichever end leads, the index at the leading corner (bottom-right of the
    card in the frame: +x, +y) is the face's top-left index turned 180 degrees,
    and the trailing one (top-left of the card in the frame) is it upright.
    Template: the top-left 13 x 20 mm of the face as the deck draws it."""
    rng = np.random.default_rng(3)
    code = "7D"  # a 7 turned over is no 7
    frames = quiet.render_pass(straight(code, lead=lead), rng)
    assert {f.lead for f in frames} == {lead}
    lead_frames = [i for i, f in enumerate(frames) if f.leading_index_in_view]
    trail_frames = [i for i, f in enumerate(frames) if f.trailing_index_in_view]
    assert lead_frames and trail_frames and max(lead_frames) < min(trail_frames)
    face = grey(quiet.deck.face(code))
    template = face[:180, :117]
    upside_down = template[::-1, ::-1].copy()
    for indices, leading in ((lead_frames, True), (trail_frames, False)):
        f = frames[indices[len(indices) // 2]]
        corner = find_card_corner(f, quiet.look.empty, leading)
        patch = index_patch(f.image, corner, leading)
        turned = cv2.matchTemplate(patch, upside_down, cv2.TM_CCOEFF_NORMED).max()
        upright = cv2.matchTemplate(patch, template, cv2.TM_CCOEFF_NORMED).max()
        if leading:
            assert turned > 0.8 and turned > upright + 0.2, (turned, upright)
        else:
            assert upright > 0.8 and upright > turned + 0.2, (turned, upright)


def test_motion_blur_grows_with_speed(quiet: InShoeRenderer) -> None:
    """Blur along y is exposure x speed: 0.2 ms x 300 mm/s x 9 = 0.54 px,
    0.2 ms x 1000 mm/s x 9 = 1.8 px.  In the picture the leading edge's
    10-90 % rise is wider at the faster pull."""
    rng = np.random.default_rng(4)
    widths = {}
    for speed, blur in ((300.0, 0.54), (1000.0, 1.8)):
        plan = straight("2S", speed=speed)
        offset = 30.0
        f = quiet.render(plan, offset, speed, rng)
        assert f.blur_px == pytest.approx(blur)
        d = card_rows(f, quiet.look.empty, slice(300, 341))
        edge = 15 + 30 * 9  # row 285
        paper = float(np.median(d[edge - 40 : edge - 10]))
        rise = d[edge - 6 : edge + 6] / paper
        widths[speed] = int(np.sum((rise > 0.1) & (rise < 0.9)))
    assert widths[1000.0] > widths[300.0]


def test_passes_draw_lead_speed_play_and_rotation_within_the_design() -> None:
    """Per pass: either end leads; speed 300-800 mm/s; play within +-4 mm and
    rotation within +-4 degrees (docs/hardware.md 2.1)."""
    r = InShoeRenderer("builtin", preset="normal", seed=0)
    rng = np.random.default_rng(5)
    plans = [r.plan("AS", rng) for _ in range(300)]
    assert {p.lead for p in plans} == {"top", "bottom"}
    assert all(300 <= p.speed_mm_s <= 800 for p in plans)
    assert all(abs(p.play_mm) <= 4 and abs(p.rotation_deg) <= 4 for p in plans)
    assert max(abs(p.play_mm) for p in plans) > 3.5
    assert all(1 <= p.lead_in <= 3 and 0 < p.phase <= 1 for p in plans)
    # a drifting speed: the card leaves faster (or slower) than it came
    p = PassPlan("AS", speed_mm_s=500.0, speed_change=0.2, lead_in=0)
    tl = r.timeline(p)
    assert tl[0][1] == pytest.approx(500.0, rel=0.01) and tl[-1][1] > 590.0


def test_same_seed_same_pass_and_other_seed_another() -> None:
    def grabs(seed: int) -> list[np.ndarray]:
        cam = SimCamera("builtin", seed=seed, mode="in_shoe")
        out = []
        for code in ("QS", "6H"):
            cam.show(code)
            for _ in range(25):
                img = cam.grab()
                assert img is not None
                out.append(img)
        return out

    a, b, c = grabs(5), grabs(5), grabs(6)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_sim_camera_in_shoe_plays_the_pass_then_the_empty_window() -> None:
    cam = SimCamera("builtin:modern", preset="hard", seed=7, mode="in_shoe")
    assert cam.mode == "in_shoe"
    cam.grab()
    assert isinstance(cam.truth, PassFrame) and cam.truth.code is None
    cam.show("9c")
    truths = []
    while True:
        img = cam.grab()
        assert img is not None and img.shape == (480, 640, 3) and img.dtype == np.uint8
        assert isinstance(cam.truth, PassFrame)
        if cam.truth.code is None:
            break
        truths.append(cam.truth)
    assert {t.code for t in truths} == {"9C"}
    assert [t.frame_no for t in truths] == list(range(len(truths)))
    assert not truths[0].card_in_view and truths[-1].card_in_view
    offsets = [t.offset_mm for t in truths]
    assert all(b > a for a, b in itertools.pairwise(offsets))
    assert any(t.readable for t in truths) and not all(t.readable for t in truths)
    # a lost frame is lost: the card moves on meanwhile
    cam.show("2D")
    cam.inject("drop")
    assert cam.grab() is None and cam.truth is None
    cam.grab()
    assert cam.truth is not None and cam.truth.frame_no == 1
    cam.inject("blackout")
    dark = cam.grab()
    assert dark is not None and dark.mean() < 20 and cam.truth.kind == "blackout"
    assert not cam.truth.readable
    with pytest.raises(ValueError, match="window"):
        cam.inject("finger")
    cam.show(None)
    cam.grab()
    assert cam.truth.code is None and cam.truth.kind == "empty"


def test_in_shoe_mode_refuses_what_only_the_overhead_camera_takes() -> None:
    from hardware_sim.camera import Effects

    with pytest.raises(ValueError, match="mode"):
        SimCamera(mode="sideways")
    with pytest.raises(ValueError, match="preset"):
        SimCamera(preset=Effects(), mode="in_shoe")
    with pytest.raises(ValueError, match="640"):
        SimCamera(size=(320, 240), mode="in_shoe")
    with pytest.raises(ValueError, match="in-shoe preset"):
        InShoeCamera(preset="blurry")


def test_sim_hw_chooses_the_camera_mode() -> None:
    from hardware_sim.cli import add_arguments
    from hardware_sim.rig import SimRig

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args([]).camera_mode == "in_shoe"
    assert parser.parse_args(["--camera-mode", "overhead"]).camera_mode == "overhead"
    assert SimRig({"Ann": 1}).camera.mode == "in_shoe"


def test_the_shoe_shows_each_card_s_pass_before_its_card_out() -> None:
    """Through the rig's real serial port: when CARD_OUT arrives, the camera
    under the window already has that card's pass to play."""
    import asyncio

    from firmware_bridge.drivers import Shoe
    from firmware_bridge.host import CardOut, LinkUp
    from hardware_sim.rig import SimRig

    async def next_event(shoe: Shoe, kind: type) -> object:
        while True:
            event = await asyncio.wait_for(shoe.next_event(), 5.0)
            if isinstance(event, kind):
                return event

    async def host(rig: SimRig) -> list[tuple[str, int]]:
        seen = []
        async with Shoe.open(rig.shoe_url) as shoe:
            await next_event(shoe, LinkUp)
            rig.start_dealer()
            for _ in range(2):
                await shoe.set_gate(False)
                await next_event(shoe, CardOut)
                await shoe.set_gate(True)
                codes, shown = set(), 0
                while rig.camera.grab() is not None and rig.camera.truth.code is not None:
                    codes.add(rig.camera.truth.code)
                    shown += rig.camera.truth.card_in_view
                assert len(codes) == 1
                seen.append((codes.pop(), shown))
        return seen

    with SimRig({"Ann": 1}, seed=3, camera_mode="in_shoe") as rig:
        assert rig.camera.mode == "in_shoe"
        seen = asyncio.run(host(rig))
        assert [code for code, _ in seen] == [p.code for p in rig.world.on_table]
        # 138.9 mm at 300-800 mm/s and 120 fps: 20.8 to 55.6 frames show the card
        assert all(20 <= shown <= 57 for _, shown in seen)


def montage(frames: list[np.ndarray], cols: int = 6) -> np.ndarray:
    small = [cv2.resize(f, (320, 240), interpolation=cv2.INTER_AREA) for f in frames]
    while len(small) % cols:
        small.append(np.zeros_like(small[0]))
    return np.vstack([np.hstack(small[i : i + cols]) for i in range(0, len(small), cols)])


def test_write_samples_of_a_pass(tmp_path: Path) -> None:
    """PNG samples to look at (a montage of one pass per preset, and single
    frames): a card seen from below through a window, sliding down the frame."""
    from hardware_sim.cards import gnome

    design = "paris" if gnome.available() and "paris" in gnome.list_designs() else "builtin"
    written = []
    for preset, deck, code in (("normal", "builtin", "QH"), ("hard", design, "9S")):
        r = InShoeRenderer(deck, preset=preset, seed=11)
        rng = np.random.default_rng(11)
        frames = r.render_pass(r.plan(code, rng), rng)
        path = tmp_path / f"pass-{preset}-{deck}-{code}.png"
        assert cv2.imwrite(str(path), montage([f.image for f in frames]))
        written.append(path)
        for which in ("leading", "trailing"):
            shown = [f for f in frames if getattr(f, f"{which}_index_in_view")]
            f = shown[len(shown) // 2]
            p = tmp_path / f"frame-{preset}-{f.frame_no:02d}-{which}.png"
            assert cv2.imwrite(str(p), f.image)
            written.append(p)
    assert all(p.stat().st_size > 10_000 for p in written)
    print("samples in", tmp_path)
