"""The in-shoe camera: what a camera under the glass window in the shoe's mouth
sees while one card slides out face down over it (``docs/hardware.md``,
"Where the camera is"; every number comes from :data:`vision.geometry.IN_SHOE`).

A *pass* is the run of frames of one card: a few frames of the empty window,
then the card's face entering at the window's edge on the shoe's side (the
top of the frame) and moving down the frame (+y), leading
short edge first (so the leading index corner shows first, upside down, then
the middle, then the trailing corner, upright), then the empty window again.
Which end of the card leads, its speed (which may drift a little within the
pass), its sideways play and its small rotation are drawn per pass; the light
field, two LED glare spots on the glass, the glass's dust and scratches, the
lens's focus, the sensor's noise and the encoder's JPEG quality belong to the
shoe and are drawn once per camera, so they stay put while cards move past.

Made to be cheap at 20-60 frames a card: a face is prepared once per pass at
the frame's 9 px/mm (alpha premultiplied, the lens's blur and the pass's
motion blur along the slide, exposure x speed, applied), the shoe's layers once
per camera, and each frame is one affine warp of the face into the part of the
window the card covers, a blend over the roof, the light, the glass's glow,
fresh sensor noise and, if the camera compresses, a JPEG round trip.

Coordinates follow :mod:`vision.geometry`: x across the motion, y along it;
a frame pixel (x, y) covers [x, x+1) x [y, y+1), so the window is
``IN_SHOE.window_rect_px`` = (5, 15, 635, 465) in these units.  The frame
shows the face as a person looking at the face sees it (not mirrored).

Example::

    import numpy as np
    from hardware_sim.camera.in_shoe import InShoeCamera, InShoeRenderer

    cam = InShoeCamera("builtin", preset="normal", seed=3)
    cam.show("QH")                  # the card starts sliding out
    f = cam.grab()                  # PassFrame: .image (480, 640, 3) BGR, and the truth
    f.code, f.lead, f.offset_mm, f.leading_index_in_view, f.trailing_index_in_view

    r = InShoeRenderer("paris", preset="hard", seed=1)      # a gnome-cards-data design
    rng = np.random.default_rng(0)
    plan = r.plan("9S", rng, lead="top", speed_mm_s=500.0)  # any field may be fixed
    frames = r.render_pass(plan, rng)                       # lead-in, card frames

``vision.in_shoe.InShoeReader`` reads these frames; ``SimCamera`` uses this
camera by default (``mode="in_shoe"``).
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware_sim.camera.effects import add_noise, jpeg
from hardware_sim.cards import CARD_CODES, Deck, open_deck, parse_code
from hardware_sim.cards._img import f32, u8
from vision.geometry import IN_SHOE, InShoeGeometry

Image = NDArray[np.uint8]
Field = NDArray[np.float32]
Points = NDArray[np.float32]
Lead = Literal["top", "bottom"]

LEADS: tuple[Lead, Lead] = ("top", "bottom")
#: what a frame of the in-shoe camera can be
KINDS = ("card", "empty", "blackout", "glare")
#: faults the in-shoe camera can be told to show (a finger or a hand cannot
#: get between the card and a camera under the glass)
FAULTS = ("blackout", "glare", "drop")

# Where an index sits on the face, for the ground truth "this index corner is
# wholly in view": along the card, from its short edge to IN_SHOE.index_zone_mm;
# across, from INDEX_INSET_MM (the index's outer tip, docs/hardware.md 2.6) to
# INDEX_REACH_MM in from the long edge (the built-in designs' indices end at a
# fifth of the width, 12.7 mm; printed decks' by 10-13 mm).  A 4-index or
# single-index deck has other corners: the truth is for the common layout,
# indices at the face's top-left and bottom-right.
INDEX_INSET_MM = 3.0
INDEX_REACH_MM = 13.0

_FACE_CACHE = 8  # prepared faces kept per camera (1.8 MB each at 9 px/mm)
_FACE_PAD = 8  # transparent px around a prepared face, for its blur to spread into


@dataclass(frozen=True)
class ShoeEffects:
    """Ranges a shoe (drawn once per camera) and a pass (drawn per card) come
    from.  Light values are fractions of the sensor's white."""

    # --- the shoe: light, glass, lens, sensor, encoder ----------------------------
    light_gain: tuple[float, float] = (0.8, 0.92)
    """the light on white paper at the window's centre"""
    led_bias: tuple[float, float] = (0.04, 0.12)
    """how much brighter the paper is nearest the LEDs (behind their diffusers)"""
    vignette: tuple[float, float] = (0.12, 0.25)
    """light lost at the frame's corners (the lens and the LEDs' aim: a brighter centre)"""
    white_balance: float = 0.04
    """max per-channel gain deviation (the LEDs' tint, fixed white balance)"""
    glare: tuple[float, float] = (0.25, 0.6)
    """peak of each of the two LED glare spots on the glass"""
    glare_radius_mm: tuple[float, float] = (2.0, 4.0)
    glare_inset_mm: tuple[float, float] = (0.5, 3.0)
    """how far inside the ideal reflection point (just outside the frame) a real
    build's LEDs put their reflections"""
    dust: tuple[int, int] = (12, 40)
    """specks on the glass"""
    scratches: tuple[int, int] = (0, 3)
    focus: tuple[float, float] = (0.45, 0.8)
    """the lens's blur, Gaussian sigma in px"""
    noise: tuple[float, float] = (1.5, 3.5)
    """sensor noise sigma, grey levels (a moderate gain: docs/hardware.md 2.4)"""
    jpeg: float = 0.5
    """probability that the camera streams MJPEG"""
    jpeg_quality: tuple[int, int] = (70, 95)
    exposure_ms: float | None = None
    """None: the geometry's exposure (0.2 ms); longer smears a moving card more"""
    sharpness: float = 1.0
    """the optics' and sensor's detail as a fraction of the geometry's px/mm:
    below 1 each frame is sampled at that density and scaled back up (a lens
    set further from the glass, or a sensor binned to fewer pixels), so fine
    strokes are lost while the frame keeps its size and geometry"""
    # --- a pass -------------------------------------------------------------------------
    speed_mm_s: tuple[float, float] | None = None
    """None: the geometry's usual slide"""
    speed_change: float = 0.12
    """max relative change of speed from the card entering to its leaving"""
    play: float = 1.0
    """fraction of the geometry's sideways play and rotation a pass may use"""
    lead_in: tuple[int, int] = (1, 3)
    """frames of the empty window before the card arrives"""


SHOE_PRESETS: dict[str, ShoeEffects] = {
    "clean": ShoeEffects(
        light_gain=(0.85, 0.9), led_bias=(0.04, 0.06), vignette=(0.12, 0.15),
        white_balance=0.01, glare=(0.15, 0.25), dust=(3, 8), scratches=(0, 0),
        focus=(0.45, 0.55), noise=(0.8, 1.2), jpeg=0.0, speed_change=0.05,
    ),
    "normal": ShoeEffects(),
    "hard": ShoeEffects(
        light_gain=(0.6, 0.95), led_bias=(0.08, 0.2), vignette=(0.2, 0.4),
        white_balance=0.1, glare=(0.5, 1.0), glare_radius_mm=(3.0, 6.0),
        glare_inset_mm=(2.0, 8.0), dust=(40, 120), scratches=(2, 6), focus=(0.6, 1.2),
        noise=(3.0, 7.0), jpeg=0.9, jpeg_quality=(40, 80),
        speed_mm_s=(IN_SHOE.speed_mm_s[0], IN_SHOE.max_speed_mm_s), speed_change=0.25,
    ),
    # Worse than any shoe the table should ship with, for stress tests of the
    # reader (docs/vision.md, "Eighth pass"): dimmer LEDs (light 0.45-0.8 of
    # white, so more gain: noise 5-9 levels), strong glare and a dirty, scratched
    # glass, a lens a little out of focus, a cheap MJPEG stream (quality
    # 30-65), an exposure of 0.4 ms (twice the design's, as a camera's auto
    # exposure settles in that light: up to 3.6 px of smear at 1 m/s), detail
    # of 6.75 px/mm instead of 9 (0.75), and worn guides (1.25 x the play:
    # +-5 mm, +-5 degrees).  Each is within what a badly kept or badly built
    # shoe could show; all at once they make the reader's frames weak.
    "harsh": ShoeEffects(
        light_gain=(0.45, 0.8), led_bias=(0.1, 0.25), vignette=(0.25, 0.45),
        white_balance=0.12, glare=(0.7, 1.2), glare_radius_mm=(4.0, 7.0),
        glare_inset_mm=(2.0, 10.0), dust=(80, 200), scratches=(4, 10), focus=(0.9, 1.6),
        noise=(5.0, 9.0), jpeg=1.0, jpeg_quality=(30, 65), exposure_ms=0.4, sharpness=0.75,
        speed_mm_s=(IN_SHOE.speed_mm_s[0], IN_SHOE.max_speed_mm_s), speed_change=0.25,
        play=1.25,
    ),
}


def resolve(preset: str | ShoeEffects) -> ShoeEffects:
    if isinstance(preset, ShoeEffects):
        return preset
    if not isinstance(preset, str):
        raise ValueError("the in-shoe camera takes a preset name or a ShoeEffects")
    try:
        return SHOE_PRESETS[preset]
    except KeyError:
        raise ValueError(
            f"unknown in-shoe preset {preset!r}; choose from {sorted(SHOE_PRESETS)}"
        ) from None


# --- the shoe: fixed per camera -----------------------------------------------------------


@dataclass(frozen=True)
class ShoeLook:
    """One shoe's fixed layers, each a whole frame.  A frame is
    ``(card over roof) x light / 128 + glow``, in uint8 arithmetic."""

    roof: Image
    """the tunnel's roof above the glass, as the lens sees it (unlit)"""
    light: Image
    """per-pixel, per-channel light in 1/128 steps; 0 outside the window; the
    glass's dust takes its share"""
    glow: Image
    """light added on top: the two LED glare spots, light scattered by dust and
    scratches, stray light at the aperture's rim, the floor around the window"""
    empty: Image
    """the empty window, noiseless"""
    focus: float
    noise: float
    jpeg_quality: int | None
    glare_spots: tuple[tuple[float, float, float], ...]
    """(x, y, radius) in frame px of each glare spot"""


def _smooth(rng: np.random.Generator, shape: tuple[int, int], scale: float) -> Field:
    """Zero-mean smooth noise in [-1, 1] with features ``scale`` px across."""
    h, w = shape
    small = rng.standard_normal((max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)))
    big = f32(cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC))
    return big / (float(np.abs(big).max()) or 1.0)


def _blur(img: Field, sigma: float) -> Field:
    return f32(cv2.GaussianBlur(img, (0, 0), sigma)) if sigma >= 0.3 else img


def sample_look(
    rng: np.random.Generator, geometry: InShoeGeometry = IN_SHOE,
    preset: str | ShoeEffects = "normal",
) -> ShoeLook:
    """Draw one shoe's light, glass and camera."""
    fx = resolve(preset)
    w, h = geometry.frame_px
    ppm = geometry.px_per_mm
    x0, y0, x1, y1 = geometry.window_rect_px
    focus = float(rng.uniform(*fx.focus))
    # millimetres from the window's centre at every pixel centre
    xs = ((np.arange(w, dtype=np.float32) + 0.5) - (x0 + x1) / 2) / ppm
    ys = ((np.arange(h, dtype=np.float32) + 0.5) - (y0 + y1) / 2) / ppm
    gx, gy = np.meshgrid(xs, ys)

    # light: a brighter centre (vignette), brighter still towards the LEDs
    corner2 = float(xs[0] ** 2 + ys[0] ** 2)
    shade = 1.0 - rng.uniform(*fx.vignette) * (gx**2 + gy**2) / corner2
    leds = np.zeros((h, w), np.float32)
    for lx, ly, _depth in geometry.led_positions_mm:
        strength = rng.uniform(0.85, 1.15)  # LEDs are never quite alike
        leds += strength * np.exp(-((gx - lx) ** 2 + (gy - ly) ** 2) / (2 * 22.0**2))
    leds = (leds - leds.min()) / (float(leds.max() - leds.min()) or 1.0)
    diffuser = 1.0 + 0.03 * _smooth(rng, (h, w), 120)
    light = rng.uniform(*fx.light_gain) * shade * (1.0 + rng.uniform(*fx.led_bias) * leds)
    light = f32(light * diffuser)
    aperture = np.zeros((h, w), np.float32)
    aperture[y0:y1, x0:x1] = 1.0
    aperture = _blur(aperture, focus)

    # the glass: dust (dims the card a little, scatters the LEDs' light) and scratches
    occlusion = np.zeros((h, w), np.float32)
    glow = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(fx.dust[0], fx.dust[1] + 1))):
        cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
        big = rng.random() < 0.2
        r = rng.uniform(2.0, 4.5) if big else rng.uniform(0.6, 1.5)
        c = (round(cx * 16), round(cy * 16))
        rr = max(1, round(r * 16))
        cv2.circle(occlusion, c, rr, float(rng.uniform(0.1, 0.45)), -1, cv2.LINE_AA, 4)
        cv2.circle(glow, c, rr, float(rng.uniform(15, 70)), -1, cv2.LINE_AA, 4)
    for _ in range(int(rng.integers(fx.scratches[0], fx.scratches[1] + 1))):
        length = rng.uniform(3.0, 25.0) * ppm
        angle = rng.uniform(0, math.pi)
        cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
        dx, dy = math.cos(angle) * length / 2, math.sin(angle) * length / 2
        p, q = (round((cx - dx) * 16), round((cy - dy) * 16)), (round((cx + dx) * 16),
                                                                round((cy + dy) * 16))
        cv2.line(glow, p, q, float(rng.uniform(12, 45)), 1, cv2.LINE_AA, 4)
    glow *= aperture  # dust and scratches only on the glass

    # two glare spots: the reflection of one LED on each side in the glass's
    # underside, a little inside where the ideal build puts it (outside the frame)
    spots = []
    for side in (-1.0, 1.0):
        along = 1.0 if rng.random() < 0.5 else -1.0
        led = next(p for p in geometry.led_positions_mm
                   if p[0] * side > 0 and p[1] * along > 0)
        rx, ry = geometry.glass_reflection_mm(led)
        rx -= side * rng.uniform(*fx.glare_inset_mm)
        radius = rng.uniform(*fx.glare_radius_mm)
        peak = 255.0 * rng.uniform(*fx.glare)
        glow += peak * np.exp(-((gx - rx) ** 2 / 1.6 + (gy - ry) ** 2) / (2 * radius**2))
        spots.append((float((x0 + x1) / 2 + rx * ppm), float((y0 + y1) / 2 + ry * ppm),
                      float(radius * ppm)))

    # stray light on the aperture's rim, and the black floor around the window
    rim = np.zeros((h, w), np.float32)
    cv2.rectangle(rim, (x0, y0), (x1 - 1, y1 - 1), float(rng.uniform(20, 60)), 1)
    glow += _blur(rim, focus + 0.6) + rng.uniform(6, 12) * (1.0 - aperture)

    wb = 1.0 + rng.uniform(-fx.white_balance, fx.white_balance, 3)
    light_px = [cv2.convertScaleAbs(light * aperture * (1.0 - _blur(occlusion, focus)),
                                    alpha=128.0 * float(g)) for g in wb]
    glow_px = [cv2.convertScaleAbs(_blur(glow, focus), alpha=float(g)) for g in wb]
    roof_level = rng.uniform(38, 55)
    roof = roof_level * (1.0 + 0.12 * _smooth(rng, (h, w), 40) + 0.05 * _smooth(rng, (h, w), 6))
    roof_px = cv2.convertScaleAbs(_blur(f32(roof), focus + 1.0))
    roof_img = u8(cv2.merge([roof_px, roof_px, roof_px]))
    light_img = u8(cv2.merge(light_px))
    glow_img = u8(cv2.merge(glow_px))
    empty = u8(cv2.add(cv2.multiply(roof_img, light_img, scale=1 / 128.0), glow_img))
    for a in (roof_img, light_img, glow_img, empty):
        a.setflags(write=False)
    return ShoeLook(
        roof=roof_img, light=light_img, glow=glow_img, empty=empty, focus=focus,
        noise=float(rng.uniform(*fx.noise)),
        jpeg_quality=(int(rng.integers(fx.jpeg_quality[0], fx.jpeg_quality[1] + 1))
                      if rng.random() < fx.jpeg else None),
        glare_spots=tuple(spots),
    )


# --- a pass: drawn per card --------------------------------------------------------------------


@dataclass(frozen=True)
class PassPlan:
    """How one card slides over the window."""

    code: str
    lead: Lead = "bottom"
    """which end of the face leads: "top" turns the face 180 degrees in the frame"""
    speed_mm_s: float = 500.0
    """as the card enters the window"""
    speed_change: float = 0.0
    """relative change of speed by the time the card leaves (0.1: 10 % faster)"""
    play_mm: float = 0.0
    """the card's centre line, across the motion (+x), from the window's"""
    rotation_deg: float = 0.0
    """about the axis normal to the glass; positive turns the card clockwise
    as the frame shows it"""
    lead_in: int = 2
    """frames of the empty window before the one that first shows the card"""
    phase: float = 0.5
    """in (0, 1]: in that first frame, the card's foremost point is this
    fraction of a frame's travel past the window's entry edge"""


@dataclass(frozen=True)
class PassFrame:
    """One frame of the in-shoe camera and the truth about it."""

    image: Image
    kind: str
    """"card" (the card covers part of the window), "empty", "blackout", "glare"
    (the last two: injected faults)"""
    code: str | None
    """the card of the pass this frame belongs to (also in its empty lead-in
    frames); None between passes"""
    frame_no: int | None = None
    """0-based within the pass, lead-in frames included"""
    lead: Lead | None = None
    offset_mm: float | None = None
    """how far the card's leading edge (at its centre line) is past the
    window's entry edge (row ``window_rect_px[1]``); the card is over the window
    for offsets from 0 to ``IN_SHOE.pass_mm`` (plus a little for a turned card)"""
    speed_mm_s: float | None = None
    play_mm: float = 0.0
    rotation_deg: float = 0.0
    corners: Points | None = field(default=None, repr=False)
    """the face's top-left, top-right, bottom-right, bottom-left corners in the
    frame (px, edge coordinates: pixel (x, y) covers [x, x+1) x [y, y+1))"""
    card_in_view: bool = False
    leading_index_in_view: bool = False
    """the leading index (upside down in the frame) is wholly inside the window"""
    trailing_index_in_view: bool = False
    """the trailing index (upright in the frame) is wholly inside the window"""
    blur_px: float = 0.0
    """motion blur along y: exposure x speed"""

    @property
    def readable(self) -> bool:
        """A frame that alone could name the card: a whole index in view."""
        return self.kind == "card" and (self.leading_index_in_view
                                        or self.trailing_index_in_view)

    @property
    def face_up(self) -> bool:
        """The camera below the glass always sees the card's face."""
        return True


def _affine(m: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.vstack([m, [0.0, 0.0, 1.0]])


@lru_cache(maxsize=64)
def _motion_kernel(length: float) -> NDArray[np.float32]:
    """A column kernel for a blur ``length`` px long along y: the mean, over the
    card's travel during the exposure, of the image sampled between pixels
    (linear interpolation, a tent of one pixel each side), i.e. a box of
    ``length`` convolved with that tent, taken at whole pixels."""
    half = math.ceil(length / 2) + 1
    taps = np.arange(-half, half + 1, dtype=np.float64)
    t = (np.arange(64) + 0.5) / 64 * length - length / 2  # the travel, midpoint rule
    k = np.clip(1.0 - np.abs(taps[:, None] - t[None, :]), 0, None).mean(axis=1)
    return f32((k / k.sum())[:, None])


class InShoeRenderer:
    """One shoe's camera over one deck design: renders passes of its cards.

    ``deck`` is a deck name (opened with faces at the frame's 9 px/mm) or a
    :class:`~hardware_sim.cards.Deck` (faces resized to 9 px/mm once per card).
    ``seed`` draws the shoe (:class:`ShoeLook`); passes and noise take the
    generator each call is given.
    """

    def __init__(
        self,
        deck: Deck | str = "builtin",
        *,
        preset: str | ShoeEffects = "normal",
        seed: int = 0,
        geometry: InShoeGeometry = IN_SHOE,
    ) -> None:
        self.geometry = geometry
        self.effects = resolve(preset)
        self.face_width_px = round(geometry.card_width_mm * geometry.px_per_mm)
        self.deck = (open_deck(deck, width=self.face_width_px) if isinstance(deck, str)
                     else deck)
        self.look = sample_look(np.random.default_rng(seed), geometry, self.effects)
        self._faces: OrderedDict[str, Image] = OrderedDict()
        self._moved: OrderedDict[tuple[str, float], Image] = OrderedDict()
        # the card's corners and its two index areas, in the face's mm
        hw, hl = geometry.card_width_mm / 2, geometry.card_length_mm / 2
        a0, a1 = -hw + INDEX_INSET_MM, -hw + INDEX_REACH_MM
        b0, b1 = -hl, -hl + geometry.index_zone_mm
        tl = [(a0, b0), (a1, b0), (a1, b1), (a0, b1)]
        pts = [(-hw, -hl), (hw, -hl), (hw, hl), (-hw, hl), *tl, *[(-a, -b) for a, b in tl]]
        self._points_mm = np.array([[a, b, 1.0] for a, b in pts])
        x0, y0, x1, y1 = geometry.window_rect_px
        w, h = geometry.frame_px
        # where the light can reach: the window and the aperture rim's blur
        self._lit = (max(0, x0 - 3), max(0, y0 - 3), min(w, x1 + 3), min(h, y1 + 3))

    # -- per card ---------------------------------------------------------------------------
    def face(self, code: str, blur_px: float = 0.0) -> Image:
        """The face of ``code`` at 9 px/mm as BGRA with ``_FACE_PAD`` transparent
        px around it, colour premultiplied by the card's alpha, blurred by this
        shoe's lens and by ``blur_px`` of motion along the card's length (in
        steps of 0.25 px: the frame's y axis is the face's within the 4 degrees
        a card turns).  Cached: the few latest."""
        code = parse_code(code)
        step = round(blur_px * 4) / 4
        moved = self._moved.get((code, step))
        if moved is not None:
            self._moved.move_to_end((code, step))
            return moved
        moved = self._face(code)
        if step > 0:
            moved = u8(cv2.filter2D(moved, -1, _motion_kernel(step),
                                    borderType=cv2.BORDER_CONSTANT))
            moved.setflags(write=False)
        self._moved[(code, step)] = moved
        if len(self._moved) > _FACE_CACHE:
            self._moved.popitem(last=False)
        return moved

    def _face(self, code: str) -> Image:
        """:meth:`face` before motion."""
        face = self._faces.get(code)
        if face is not None:
            self._faces.move_to_end(code)
            return face
        bgr, mask = self.deck.face(code), self.deck.mask(code)
        if bgr.shape[1] != self.face_width_px:
            size = (self.face_width_px,
                    round(self.face_width_px * bgr.shape[0] / bgr.shape[1]))
            shrink = bgr.shape[1] > self.face_width_px
            interp = cv2.INTER_AREA if shrink else cv2.INTER_CUBIC
            bgr = u8(cv2.resize(bgr, size, interpolation=interp))
            mask = u8(cv2.resize(mask, size, interpolation=interp))
        alpha3 = cv2.merge([mask, mask, mask])
        pre = cv2.multiply(bgr, alpha3, scale=1 / 255.0)
        face = u8(cv2.copyMakeBorder(cv2.merge([*cv2.split(pre), mask]), _FACE_PAD, _FACE_PAD,
                                     _FACE_PAD, _FACE_PAD, cv2.BORDER_CONSTANT,
                                     value=(0, 0, 0, 0)))
        if self.look.focus >= 0.3:
            face = u8(cv2.GaussianBlur(face, (0, 0), self.look.focus,
                                       borderType=cv2.BORDER_CONSTANT))
        face.setflags(write=False)
        self._faces[code] = face
        if len(self._faces) > _FACE_CACHE:
            self._faces.popitem(last=False)
        return face

    def plan(
        self,
        code: str,
        rng: np.random.Generator,
        *,
        lead: Lead | None = None,
        speed_mm_s: float | None = None,
        speed_change: float | None = None,
        play_mm: float | None = None,
        rotation_deg: float | None = None,
        lead_in: int | None = None,
        phase: float | None = None,
    ) -> PassPlan:
        """Draw a pass of ``code`` (every draw is made, so fixing a field keeps
        the others as they would be)."""
        g, fx = self.geometry, self.effects
        speeds = fx.speed_mm_s or g.speed_mm_s
        d_lead = LEADS[int(rng.integers(2))]
        d_speed = float(rng.uniform(*speeds))
        d_change = float(rng.uniform(-fx.speed_change, fx.speed_change))
        d_play = float(rng.uniform(-1, 1) * fx.play * g.sideways_play_mm)
        d_rotation = float(rng.uniform(-1, 1) * fx.play * g.rotation_deg)
        d_lead_in = int(rng.integers(fx.lead_in[0], fx.lead_in[1] + 1))
        d_phase = float(1.0 - rng.random())
        return PassPlan(
            code=parse_code(code),
            lead=d_lead if lead is None else lead,
            speed_mm_s=d_speed if speed_mm_s is None else speed_mm_s,
            speed_change=d_change if speed_change is None else speed_change,
            play_mm=d_play if play_mm is None else play_mm,
            rotation_deg=d_rotation if rotation_deg is None else rotation_deg,
            lead_in=d_lead_in if lead_in is None else lead_in,
            phase=d_phase if phase is None else phase,
        )

    def _reach_mm(self, plan: PassPlan) -> float:
        """How far the card's foremost point is ahead of its centre (and its
        hindmost behind it), turned by the plan's rotation."""
        g = self.geometry
        t = math.radians(plan.rotation_deg)
        return g.card_length_mm / 2 * math.cos(t) + g.card_width_mm / 2 * abs(math.sin(t))

    def timeline(self, plan: PassPlan) -> list[tuple[float, float]]:
        """``(offset_mm, speed_mm_s)`` of every frame of the pass: the lead-in,
        then every frame that shows some of the card."""
        g = self.geometry
        if not plan.speed_mm_s > 0 or not 0 < plan.phase <= 1 or plan.lead_in < 0:
            raise ValueError("a pass needs speed > 0, phase in (0, 1] and lead_in >= 0")
        if not -0.5 < plan.speed_change <= 1.0:
            raise ValueError("speed_change must be in (-0.5, 1]")
        y0, y1 = g.window_rect_px[1], g.window_rect_px[3]
        window = (y1 - y0) / g.px_per_mm
        half = g.card_length_mm / 2
        reach = self._reach_mm(plan)
        v0 = plan.speed_mm_s

        def speed(s: float) -> float:
            return v0 * (1.0 + plan.speed_change * min(1.0, max(0.0, s / g.pass_mm)))

        first = plan.phase * v0 / g.fps + half - reach
        out = [(first - (plan.lead_in - k) * v0 / g.fps, v0) for k in range(plan.lead_in)]
        s = first
        while s - half - reach < window:
            v = speed(s)
            out.append((s, v))
            s += v / g.fps
        return out

    # -- per frame ----------------------------------------------------------------------------
    def card_matrix(self, plan: PassPlan, offset_mm: float) -> NDArray[np.float64]:
        """3x3: the face's millimetres (from its centre; +x to the face's
        right, +y to its bottom) to the frame's px (edge coordinates)."""
        g = self.geometry
        x0, y0, x1, _ = g.window_rect_px
        ppm = g.px_per_mm
        t = math.radians(plan.rotation_deg)
        turn = -1.0 if plan.lead == "top" else 1.0  # the face's top leads: turned 180
        c, s = math.cos(t) * turn, math.sin(t) * turn
        cx = (x0 + x1) / 2 + plan.play_mm * ppm
        cy = y0 + (offset_mm - g.card_length_mm / 2) * ppm
        return np.array([[ppm * c, -ppm * s, cx], [ppm * s, ppm * c, cy], [0, 0, 1.0]])

    def _inside(self, pts: Points) -> bool:
        x0, y0, x1, y1 = self.geometry.window_rect_px
        return bool(np.all((pts[:, 0] >= x0) & (pts[:, 0] <= x1)
                           & (pts[:, 1] >= y0) & (pts[:, 1] <= y1)))

    def render(
        self,
        plan: PassPlan,
        offset_mm: float,
        speed_mm_s: float,
        rng: np.random.Generator,
        *,
        frame_no: int | None = None,
    ) -> PassFrame:
        """The frame of ``plan``'s card at ``offset_mm``, moving at ``speed_mm_s``."""
        g, look = self.geometry, self.look
        m = self.card_matrix(plan, offset_mm)
        pts = f32((self._points_mm @ m.T)[:, :2])
        corners = pts[:4]
        y0, y1 = g.window_rect_px[1], g.window_rect_px[3]
        in_view = bool(corners[:, 1].max() > y0 and corners[:, 1].min() < y1)
        blur = g.blur_px(speed_mm_s, self.effects.exposure_ms)
        boxes = {"tl": self._inside(pts[4:8]), "br": self._inside(pts[8:12])}
        leading, trailing = ("tl", "br") if plan.lead == "top" else ("br", "tl")
        image = self._compose(plan.code, m, corners, blur) if in_view else look.empty.copy()
        return PassFrame(
            image=self._expose(image, rng),
            kind="card" if in_view else "empty",
            code=plan.code,
            frame_no=frame_no,
            lead=plan.lead,
            offset_mm=offset_mm,
            speed_mm_s=speed_mm_s,
            play_mm=plan.play_mm,
            rotation_deg=plan.rotation_deg,
            corners=corners,
            card_in_view=in_view,
            leading_index_in_view=boxes[leading],
            trailing_index_in_view=boxes[trailing],
            blur_px=blur,
        )

    def _compose(self, code: str, m: NDArray[np.float64], corners: Points, blur: float) -> Image:
        """The noiseless frame: the (lens- and motion-blurred) face warped into
        the part of the window it covers (one warp), laid over the roof, lit,
        glowed."""
        look = self.look
        face = self.face(code, blur)
        fh, fw = (n - 2 * _FACE_PAD for n in face.shape[:2])
        g = self.geometry
        pad = math.ceil(blur) + 2
        lx0, ly0, lx1, ly1 = self._lit
        rx0 = max(lx0, math.floor(float(corners[:, 0].min())) - pad)
        ry0 = max(ly0, math.floor(float(corners[:, 1].min())) - pad)
        rx1 = min(lx1, math.ceil(float(corners[:, 0].max())) + pad)
        ry1 = min(ly1, math.ceil(float(corners[:, 1].max())) + pad)
        image = look.empty.copy()
        if rx1 <= rx0 or ry1 <= ry0:
            return image
        # padded face px (OpenCV's pixel-centre coordinates) -> face mm -> frame px -> the ROI's px
        to_mm = np.array([[g.card_width_mm / fw, 0, -g.card_width_mm / 2],
                          [0, g.card_length_mm / fh, -g.card_length_mm / 2], [0, 0, 1.0]])
        half = np.array([[1, 0, 0.5 - _FACE_PAD], [0, 1, 0.5 - _FACE_PAD], [0, 0, 1.0]])
        roi = np.array([[1, 0, -rx0 - 0.5], [0, 1, -ry0 - 0.5], [0, 0, 1.0]])
        full = roi @ m @ to_mm @ half
        card = cv2.warpAffine(face, full[:2], (rx1 - rx0, ry1 - ry0), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        b, gr, r, a = cv2.split(card)
        inv = cv2.bitwise_not(a)
        roof = look.roof[ry0:ry1, rx0:rx1]
        under = cv2.multiply(roof, cv2.merge([inv, inv, inv]), scale=1 / 255.0)
        seen = cv2.add(cv2.merge([b, gr, r]), under)
        lit = cv2.multiply(seen, look.light[ry0:ry1, rx0:rx1], scale=1 / 128.0)
        image[ry0:ry1, rx0:rx1] = cv2.add(lit, look.glow[ry0:ry1, rx0:rx1])
        return image

    def _expose(self, image: Image, rng: np.random.Generator) -> Image:
        sharp = self.effects.sharpness
        if sharp < 1.0:
            h, w = image.shape[:2]
            small = cv2.resize(image, (round(w * sharp), round(h * sharp)),
                               interpolation=cv2.INTER_AREA)
            image = u8(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR))
        image = add_noise(image, self.look.noise, rng)
        if self.look.jpeg_quality is not None:
            image = jpeg(image, self.look.jpeg_quality)
        return image

    def empty(self, rng: np.random.Generator, *, code: str | None = None,
              frame_no: int | None = None, offset_mm: float | None = None) -> PassFrame:
        """A frame of the empty window."""
        return PassFrame(self._expose(self.look.empty.copy(), rng), "empty", code,
                         frame_no=frame_no, offset_mm=offset_mm)

    def render_pass(self, plan: PassPlan, rng: np.random.Generator) -> list[PassFrame]:
        """Every frame of ``plan``'s pass, in order (lead-in included)."""
        return [self.render(plan, s, v, rng, frame_no=k)
                for k, (s, v) in enumerate(self.timeline(plan))]

    def fault(self, kind: str, frame: PassFrame, rng: np.random.Generator) -> PassFrame:
        """``frame`` spoiled by fault ``kind``: "blackout" (the LEDs out: the
        window is dark) or "glare" (a flood of stray light over the window)."""
        if kind == "blackout":
            dark = u8(cv2.convertScaleAbs(self.look.empty, alpha=0.08))
            image = self._expose(dark, rng)
        elif kind == "glare":
            x0, y0, x1, y1 = self.geometry.window_rect_px
            h, w = frame.image.shape[:2]
            gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
            cx, cy = rng.uniform(x0 + 150, x1 - 150), rng.uniform(y0 + 100, y1 - 100)
            spot = 400.0 * np.exp(-((gx - cx) ** 2 + (gy - cy) ** 2) / (2 * 200.0**2))
            image = u8(np.clip(frame.image + spot[..., None], 0, 255))
        else:
            raise ValueError(f"unknown in-shoe fault {kind!r}; choose from {FAULTS}")
        return PassFrame(image, kind, frame.code, frame_no=frame.frame_no, lead=frame.lead,
                         offset_mm=frame.offset_mm, speed_mm_s=frame.speed_mm_s,
                         play_mm=frame.play_mm, rotation_deg=frame.rotation_deg,
                         corners=frame.corners, card_in_view=frame.card_in_view)


class InShoeCamera:
    """A camera under the shoe's window: :meth:`show` starts a card's pass and
    each :meth:`grab` returns its next frame (then the empty window), as a
    120 fps camera would, one frame per grab.  Deterministic from ``seed``."""

    def __init__(
        self,
        deck: Deck | str = "builtin",
        *,
        preset: str | ShoeEffects = "normal",
        seed: int = 0,
        geometry: InShoeGeometry = IN_SHOE,
    ) -> None:
        self.renderer = InShoeRenderer(deck, preset=preset, seed=seed, geometry=geometry)
        self._rng = np.random.default_rng((seed, 1))
        self._plan: PassPlan | None = None
        self._queue: deque[tuple[int, float, float]] = deque()
        self.passes = 0

    @property
    def plan(self) -> PassPlan | None:
        """The current (or last) pass."""
        return self._plan

    def show(self, code: str | None) -> None:
        """Card ``code`` starts sliding out over the window (None: no card)."""
        if code is None:
            self._plan = None
            self._queue.clear()
            return
        self._plan = self.renderer.plan(code, self._rng)
        self._queue = deque((k, s, v) for k, (s, v) in
                            enumerate(self.renderer.timeline(self._plan)))
        self.passes += 1

    @property
    def playing(self) -> bool:
        """A pass still has frames to come."""
        return bool(self._queue) and self._plan is not None

    @staticmethod
    def check_fault(kind: str) -> None:
        """Refuse a fault this camera cannot show (a finger or a hand cannot get
        between the card and a camera under the glass)."""
        if kind not in FAULTS:
            raise ValueError(f"no {kind!r} fault under the shoe's window; choose from {FAULTS}")

    def grab(self, fault: str | None = None) -> PassFrame | None:
        """The next frame (None for a ``drop`` fault: the frame is lost, the card
        moves on all the same)."""
        if fault is not None:
            self.check_fault(fault)
        if self._queue and self._plan is not None:
            k, s, v = self._queue.popleft()
            if fault == "drop":
                return None
            frame = self.renderer.render(self._plan, s, v, self._rng, frame_no=k)
        else:
            if fault == "drop":
                return None
            frame = self.renderer.empty(self._rng)
        return self.renderer.fault(fault, frame, self._rng) if fault else frame

    def warm_up(self) -> None:
        """Render every face of the deck now (the deck caches them)."""
        for code in CARD_CODES:
            self.renderer.deck.face(code)
            self.renderer.deck.mask(code)


def in_shoe_camera(
    deck: Deck | str, *, preset: object, seed: int, size: tuple[int, int]
) -> InShoeCamera:
    """The :class:`InShoeCamera` behind ``SimCamera(mode="in_shoe")``, refusing
    what only the overhead camera takes (an overhead ``Effects``, another size)."""
    if not isinstance(preset, str | ShoeEffects):
        raise ValueError("the in-shoe camera takes a preset name or a ShoeEffects")
    if size != IN_SHOE.frame_px:
        raise ValueError(f"the in-shoe camera's frame is {IN_SHOE.frame_px} (vision.geometry)")
    return InShoeCamera(deck, preset=preset, seed=seed)
