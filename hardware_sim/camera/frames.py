"""Camera frames of a card on the table, with ground truth, from a seeded generator.

A frame is made in two steps so a simulated camera can grab many frames of
one resting card cheaply: :func:`sample_scene` draws everything random about
the shot (where the card lies, the table, the light, blur, glare, a finger)
into a :class:`Scene`; :func:`render_scene` composes it and adds fresh sensor
noise and JPEG artefacts per frame.

Example::

    import numpy as np
    from hardware_sim.cards import open_deck
    from hardware_sim.camera.frames import make_frame, write_calibration_set

    deck = open_deck("builtin")
    rng = np.random.default_rng(7)
    f = make_frame(deck, "TD", rng, preset="normal")        # 640 x 480
    f.image        # BGR uint8 (480, 640, 3)
    f.code         # "TD" - the card under the camera (None: nothing there)
    f.corners      # 4 x 2 float32: the face's TL, TR, BR, BL corners in the frame
    f.readable     # False: a correct recogniser must answer "unsure"
    hard = make_frame(deck, "AS", rng, kind="mostly_covered")
    write_calibration_set(deck, "/tmp/calib")                # AS.png, TD.png, ... 52 files

Presets: ``clean``, ``normal``, ``hard``, ``harsh`` (a stress preset; see :data:`PRESETS`; any
:class:`Effects` works too). Kinds: ``card`` (the preset decides occlusion and
glare), and the hard kinds ``glare``, ``finger``, ``blackout``,
``mostly_covered``, ``empty_table``, ``card_back``. Only ``card`` and
``finger`` frames are readable: a finger covers one corner, never both.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

import hardware_sim.camera.effects as effects
from hardware_sim.cards import CARD_CODES, Deck, parse_code
from hardware_sim.cards._img import f32, u8

Image = NDArray[np.uint8]
Points = NDArray[np.float32]

KINDS = ("card", "glare", "finger", "blackout", "mostly_covered", "empty_table", "card_back")
READABLE_KINDS = frozenset({"card", "finger"})
MAX_SIZE = (1920, 1080)


@dataclass(frozen=True)
class Effects:
    """Ranges the random shot is drawn from. Scale is the card's height as a
    fraction of the frame height; angles are in degrees."""

    scale: tuple[float, float] = (0.55, 0.8)
    rotation: float = 180.0  # max |in-plane angle|; 180 = any angle
    tilt: float = 15.0  # max perspective tilt of the card plane
    tables: tuple[str, ...] = effects.TABLES
    gain: tuple[float, float] = (0.85, 1.1)
    gradient: float = 0.3  # max relative light falloff across the frame
    white_balance: float = 0.08  # max per-channel gain deviation
    shadow: float = 0.5  # probability of a drop shadow
    blur: tuple[float, float] = (0.0, 1.0)  # Gaussian sigma, px at 640x480
    motion: float = 0.0  # probability of motion blur
    motion_length: tuple[float, float] = (3.0, 9.0)
    noise: tuple[float, float] = (1.0, 4.0)  # sensor noise sigma, grey levels
    jpeg: float = 0.5  # probability of JPEG artefacts
    jpeg_quality: tuple[int, int] = (60, 95)
    glare: float = 0.15  # probability of a glare spot on the card
    finger: float = 0.05  # probability a finger covers one corner


PRESETS: dict[str, Effects] = {
    "clean": Effects(
        scale=(0.6, 0.8), tilt=5.0, gain=(0.95, 1.05), gradient=0.1, white_balance=0.03,
        shadow=0.0, blur=(0.0, 0.5), noise=(0.5, 1.5), jpeg=0.0, glare=0.0, finger=0.0,
    ),
    "normal": Effects(),
    "hard": Effects(
        scale=(0.4, 0.8), tilt=30.0, gain=(0.55, 1.25), gradient=0.7, white_balance=0.18,
        shadow=0.8, blur=(0.5, 2.2), motion=0.3, noise=(3.0, 10.0), jpeg=0.8,
        jpeg_quality=(25, 75), glare=0.5, finger=0.3,
    ),
    # A cheap webcam mounted further over the table than it should be (a
    # stress preset for benchmarks, worse than the table should ship with):
    # the card 0.3-0.55 of the frame's height (its index corner 15-30 px
    # tall), a soft lens (blur 1.0-2.6 px), more gain (noise 5-12 levels) and
    # MJPEG always, at quality 20-55; light, glare and fingers as ``hard``.
    "harsh": Effects(
        scale=(0.3, 0.55), tilt=30.0, gain=(0.55, 1.25), gradient=0.7, white_balance=0.18,
        shadow=0.8, blur=(1.0, 2.6), motion=0.3, noise=(5.0, 12.0), jpeg=1.0,
        jpeg_quality=(20, 55), glare=0.5, finger=0.3,
    ),
}


@dataclass(frozen=True)
class Finger:
    tip: tuple[float, float]
    direction: tuple[float, float]
    width: float
    skin: float


@dataclass(frozen=True)
class Glare:
    center: tuple[float, float]
    radius: float
    strength: float


@dataclass(frozen=True)
class Scene:
    """Everything random about one shot except the per-frame sensor noise."""

    size: tuple[int, int]  # (width, height)
    kind: str
    corners: Points | None  # where the face's TL, TR, BR, BL land; None: no card
    table: str
    table_variant: int
    table_mirror: bool
    table_tint: tuple[float, float, float]
    shadow: tuple[float, float, float] | None  # dx, dy, darkness
    gain: float
    gradient: tuple[float, float]
    white_balance: tuple[float, float, float]
    glares: tuple[Glare, ...] = ()
    fingers: tuple[Finger, ...] = ()
    blur: float = 0.0
    motion: tuple[float, float] | None = None  # length, angle
    noise: float = 0.0
    jpeg_quality: int | None = None


@dataclass(frozen=True)
class Frame:
    """A camera frame and the truth about it."""

    image: Image
    code: str | None
    corners: Points | None
    kind: str
    readable: bool
    face_up: bool = True
    scene: Scene | None = field(default=None, repr=False)


def _resolve(preset: str | Effects) -> Effects:
    if isinstance(preset, Effects):
        return preset
    try:
        return PRESETS[preset]
    except KeyError:
        raise ValueError(f"unknown preset {preset!r}; choose from {sorted(PRESETS)}") from None


def _rotation(axis: NDArray[np.float64], angle: float) -> NDArray[np.float64]:
    k = axis / np.linalg.norm(axis)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    rot: NDArray[np.float64] = np.eye(3) + math.sin(angle) * kx + (1 - math.cos(angle)) * (kx @ kx)
    return rot


def _place_card(
    rng: np.random.Generator, fx: Effects, size: tuple[int, int], aspect: float
) -> Points:
    """Corners of a card of height/width ``aspect`` lying on the table, seen by
    a pinhole camera: scale, any in-plane angle, tilt of the card plane."""
    w, h = size
    ch = rng.uniform(*fx.scale) * h
    cw = ch / aspect
    theta = math.radians(rng.uniform(-fx.rotation, fx.rotation))
    tilt = math.radians(rng.uniform(0.0, fx.tilt))
    phi = rng.uniform(0.0, 2 * math.pi)
    pts = np.array(
        [[-cw / 2, -ch / 2, 0], [cw / 2, -ch / 2, 0], [cw / 2, ch / 2, 0], [-cw / 2, ch / 2, 0]]
    )
    rz = _rotation(np.array([0.0, 0.0, 1.0]), theta)
    rt = _rotation(np.array([math.cos(phi), math.sin(phi), 0.0]), tilt)
    p = pts @ rz.T @ rt.T
    f = 1.2 * max(w, h)
    xy = f * p[:, :2] / (f + p[:, 2:3])
    margin = 0.02 * min(w, h)
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    span = hi - lo
    room = np.array([w, h]) - 2 * margin
    shrink = min(1.0, 0.999 * float(np.min(room / span)))
    xy *= shrink
    lo, hi = lo * shrink, hi * shrink
    cx = rng.uniform(margin - lo[0], max(margin - lo[0], w - margin - hi[0]))
    cy = rng.uniform(margin - lo[1], max(margin - lo[1], h - margin - hi[1]))
    return f32(xy + np.array([cx, cy]))


def _on_card(corners: Points, u: float, v: float) -> tuple[float, float]:
    """Frame position of face point (u, v) in [0, 1]^2 (bilinear in the corners)."""
    tl, tr, br, bl = corners.astype(np.float64)
    top = tl + (tr - tl) * u
    bottom = bl + (br - bl) * u
    p = top + (bottom - top) * v
    return float(p[0]), float(p[1])


def _corner_finger(
    rng: np.random.Generator, corners: Points, corner: int, depth: float
) -> Finger:
    """A finger coming from outside the card over ``corner`` (0 TL .. 3 BR/BL),
    its tip ``depth`` card-widths in from the corner along the diagonal."""
    center = corners.mean(axis=0)
    c = corners[corner]
    d = c - center
    d = d / (np.linalg.norm(d) or 1.0)
    cw = float(np.linalg.norm(corners[1] - corners[0]))
    tip = c - d * depth * cw
    jitter = rng.uniform(-0.35, 0.35)
    ca, sa = math.cos(jitter), math.sin(jitter)
    direction = (float(d[0] * ca - d[1] * sa), float(d[0] * sa + d[1] * ca))
    return Finger((float(tip[0]), float(tip[1])), direction, rng.uniform(0.26, 0.34) * cw,
                  float(rng.uniform(0.7, 1.15)))


def sample_scene(
    rng: np.random.Generator,
    *,
    preset: str | Effects = "normal",
    size: tuple[int, int] = (640, 480),
    kind: str = "card",
    aspect: float = 1.4,
    card_present: bool = True,
) -> Scene:
    """Draw one shot at random. ``size`` is (width, height) up to 1920x1080;
    ``aspect`` is the face's height/width; a ``blackout`` may have no card
    (``card_present=False``)."""
    if kind not in KINDS:
        raise ValueError(f"unknown frame kind {kind!r}; choose from {KINDS}")
    w, h = size
    if not (32 <= w <= MAX_SIZE[0] and 32 <= h <= MAX_SIZE[1]):
        raise ValueError(f"frame size {size} outside 32x32 .. {MAX_SIZE[0]}x{MAX_SIZE[1]}")
    fx = _resolve(preset)
    px = min(w, h) / 480.0  # blur and shadow ranges are given for 640x480
    no_card = kind == "empty_table" or not card_present
    corners = None if no_card else _place_card(rng, fx, size, aspect)
    wb = tuple(float(g) for g in 1 + rng.uniform(-fx.white_balance, fx.white_balance, 3))
    table = fx.tables[int(rng.integers(len(fx.tables)))]
    glares: list[Glare] = []
    fingers: list[Finger] = []
    shadow = None
    if corners is not None:
        cw = float(np.linalg.norm(corners[1] - corners[0]))
        if rng.random() < fx.shadow:
            shadow = (float(rng.uniform(-8, 8) * px), float(rng.uniform(2, 10) * px),
                      float(rng.uniform(0.2, 0.5)))
        if kind == "card" and rng.random() < fx.glare:
            # anywhere on the body of the card; strong enough to wash out pips
            c = _on_card(corners, rng.uniform(0.25, 0.75), rng.uniform(0.25, 0.75))
            glares.append(Glare(c, rng.uniform(0.08, 0.2) * cw, rng.uniform(0.4, 0.9)))
        if kind == "glare":
            for u, v in ((0.1, 0.11), (0.9, 0.89)):  # both index corners washed out
                glares.append(Glare(_on_card(corners, u, v), rng.uniform(0.4, 0.5) * cw,
                                    rng.uniform(1.4, 1.8)))
        if kind == "finger" or (kind == "card" and rng.random() < fx.finger):
            corner = int(rng.choice([0, 2, 0, 2, 1, 3]))
            fingers.append(_corner_finger(rng, corners, corner, rng.uniform(0.2, 0.3)))
        if kind == "mostly_covered":
            center = corners.mean(axis=0)
            side = (corners[1] + corners[2]) / 2 - center
            palm_dir = side / (np.linalg.norm(side) or 1.0)
            palm_tip = center - palm_dir * 0.35 * cw
            fingers.append(Finger((float(palm_tip[0]), float(palm_tip[1])),
                                  (float(palm_dir[0]), float(palm_dir[1])),
                                  1.2 * cw, float(rng.uniform(0.7, 1.15))))
            fingers.append(_corner_finger(rng, corners, 0, 0.45))
            fingers.append(_corner_finger(rng, corners, 2, 0.45))
    motion = None
    if rng.random() < fx.motion:
        motion = (float(rng.uniform(*fx.motion_length) * px), float(rng.uniform(0, 180)))
    jpeg_q = int(rng.integers(fx.jpeg_quality[0], fx.jpeg_quality[1] + 1))
    gain = float(rng.uniform(*fx.gain))
    noise = float(rng.uniform(*fx.noise))
    if kind == "blackout":
        gain, noise = float(rng.uniform(0.02, 0.06)), 2.0
    return Scene(
        size=(w, h),
        kind=kind,
        corners=corners,
        table=table,
        table_variant=int(rng.integers(3)),
        table_mirror=bool(rng.random() < 0.5),
        table_tint=(float(rng.uniform(0.88, 1.12)), float(rng.uniform(0.88, 1.12)),
                    float(rng.uniform(0.88, 1.12))),
        shadow=shadow,
        gain=gain,
        gradient=(float(rng.uniform(-fx.gradient, fx.gradient)),
                  float(rng.uniform(-fx.gradient, fx.gradient))),
        white_balance=(wb[0], wb[1], wb[2]),
        glares=tuple(glares),
        fingers=tuple(fingers),
        blur=float(rng.uniform(*fx.blur) * px),
        motion=motion,
        noise=noise,
        jpeg_quality=jpeg_q if rng.random() < fx.jpeg else None,
    )


#: what a camera's room fixes for every shot it takes: the table under it, the
#: light over it, its focus, its sensor and its encoder
ROOM_FIELDS = ("table", "table_variant", "table_mirror", "table_tint", "gain", "gradient",
               "white_balance", "blur", "noise", "jpeg_quality")


def in_room(scene: Scene, room: Scene) -> Scene:
    """``scene`` as the camera of ``room`` sees it: the card, its shadow, glare
    and fingers are the shot's own; the table, the light, focus, sensor noise
    and JPEG quality are the room's.  (A covered lens keeps its own darkness.)"""
    keep = ("gain", "noise") if scene.kind == "blackout" else ()
    return dataclasses.replace(
        scene, **{name: getattr(room, name) for name in ROOM_FIELDS if name not in keep}
    )


@dataclass(frozen=True)
class Backdrop:
    """A room's empty table, worked out once: the tinted cloth, the light field
    over it, and the two together as the camera sees them (lit and blurred).
    :func:`compose` then only works on the part of the frame around the card."""

    room: Scene
    table: Image
    light: Image
    image: Image

    def fits(self, scene: Scene) -> bool:
        """True when ``scene`` was shot in this room (and at its size)."""
        return scene.size == self.room.size and all(
            getattr(scene, name) == getattr(self.room, name) for name in ROOM_FIELDS
        )


def backdrop(room: Scene) -> Backdrop:
    """The :class:`Backdrop` of ``room`` (a scene; only its room fields count)."""
    w, h = room.size
    table = effects.table_texture(room.table, (h, w), variant=room.table_variant,
                                  mirror=room.table_mirror, tint=room.table_tint)
    field = effects.light_field((h, w), room.gain, room.gradient, room.white_balance)
    image = effects.gaussian_blur(effects.light(table, field), room.blur)
    for array in (table, field, image):
        array.setflags(write=False)
    return Backdrop(room, table, field, image)


def _card_box(scene: Scene) -> tuple[int, int, int, int]:
    """The part of the frame the card and its shadow can touch (x0, y0, x1, y1)."""
    assert scene.corners is not None
    w, h = scene.size
    pad = 16 + (abs(scene.shadow[0]) + abs(scene.shadow[1]) if scene.shadow else 0)
    x0 = max(0, int(scene.corners[:, 0].min() - pad))
    y0 = max(0, int(scene.corners[:, 1].min() - pad))
    x1 = min(w, math.ceil(scene.corners[:, 0].max() + pad))
    y1 = min(h, math.ceil(scene.corners[:, 1].max() + pad))
    return x0, y0, x1, y1


def _lay_card(
    img: Image, origin: tuple[int, int], scene: Scene, face: Image, mask: Image | None
) -> None:
    """Lay ``face`` on ``img`` (in place) with its drop shadow; ``img`` holds
    the frame from point ``origin`` on."""
    assert scene.corners is not None
    fh, fw = face.shape[:2]
    if mask is None:
        mask = np.full((fh, fw), 255, np.uint8)
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    x0, y0, x1, y1 = _card_box(scene)
    dst = scene.corners - np.array([x0, y0], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    rw, rh = x1 - x0, y1 - y0
    # face and alpha warped together: one pass over the pixels, not two
    blue, green, red, alpha = cv2.split(
        cv2.warpPerspective(cv2.merge([*cv2.split(face), mask]), m, (rw, rh),
                            flags=cv2.INTER_LINEAR)
    )
    card = cv2.merge([blue, green, red])
    ox, oy = x0 - origin[0], y0 - origin[1]
    roi = img[oy : oy + rh, ox : ox + rw]
    if scene.shadow is not None:
        dx, dy, dark = scene.shadow
        shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        sh = cv2.warpAffine(alpha, shift, (rw, rh))
        k = 2 * round(2 + abs(dy) * 0.6) + 1
        sh = cv2.blur(cv2.blur(sh, (k, k)), (k, k))
        # light left under the shadow, in 1/255 steps: 255 - darkness * shadow
        lit = cv2.convertScaleAbs(sh, alpha=-dark, beta=255.0)
        roi = u8(cv2.multiply(roi, cv2.merge([lit, lit, lit]), scale=1 / 255.0))
    # alpha blend in integers (a 1/255 step is below the sensor noise)
    a3 = cv2.merge([alpha, alpha, alpha])
    img[oy : oy + rh, ox : ox + rw] = cv2.add(
        cv2.multiply(card, a3, scale=1 / 255.0),
        cv2.multiply(roi, cv2.bitwise_not(a3), scale=1 / 255.0),
    )


def compose(
    scene: Scene, face: Image | None, mask: Image | None = None, backdrop: Backdrop | None = None
) -> Image:
    """The noiseless frame of ``scene`` with ``face`` (BGR) laid on the table.

    ``mask`` is the face's alpha (255 on the card); by default the whole
    rectangle is card.  With the ``backdrop`` of the scene's room, a card with
    no finger, glare or motion blur is composed on the part of the frame it
    touches (plus the blur's reach) and pasted into the ready backdrop: the
    very pixels the whole frame would give, at a fraction of the cost.
    """
    w, h = scene.size
    if (backdrop is not None and face is not None and scene.corners is not None
            and not scene.fingers and not scene.glares and scene.motion is None
            and backdrop.fits(scene)):
        return _compose_on(backdrop, scene, face, mask)
    img = effects.table_texture(scene.table, (h, w), variant=scene.table_variant,
                                mirror=scene.table_mirror, tint=scene.table_tint)
    if scene.corners is not None and face is not None:
        _lay_card(img, (0, 0), scene, face, mask)
    for f in scene.fingers:
        effects.draw_finger(img, f.tip, f.direction, f.width, f.skin)
    img = effects.apply_lighting(img, scene.gain, scene.gradient, scene.white_balance)
    for g in scene.glares:
        effects.add_glare(img, g.center, g.radius, g.strength)
    img = effects.gaussian_blur(img, scene.blur)
    if scene.motion is not None:
        img = effects.motion_blur(img, *scene.motion)
    return img


def _compose_on(backdrop: Backdrop, scene: Scene, face: Image, mask: Image | None) -> Image:
    """:func:`compose` around the card only.  Lighting is per pixel, and the blur
    carries the card (and its shadow, cut at the card's box) no further than
    its reach past the box: beyond that every pixel is the backdrop's.  So the
    card is laid on the cloth in a window twice that reach wider than its box,
    lit with the same slice of the light field and blurred, and the box grown
    by one reach is pasted into the backdrop; the window's outer rim, which
    the blur saw only in part, is left out (unless it is the frame's own edge,
    blurred the same way in both)."""
    w, h = scene.size
    reach = effects.blur_reach(scene.blur)
    x0, y0, x1, y1 = _card_box(scene)
    wx0, wy0 = max(0, x0 - 2 * reach), max(0, y0 - 2 * reach)
    wx1, wy1 = min(w, x1 + 2 * reach), min(h, y1 + 2 * reach)
    window = backdrop.table[wy0:wy1, wx0:wx1].copy()
    _lay_card(window, (wx0, wy0), scene, face, mask)
    window = effects.gaussian_blur(
        effects.light(window, backdrop.light[wy0:wy1, wx0:wx1]), scene.blur
    )
    px0, py0 = max(0, x0 - reach), max(0, y0 - reach)
    px1, py1 = min(w, x1 + reach), min(h, y1 + reach)
    img = backdrop.image.copy()
    img[py0:py1, px0:px1] = window[py0 - wy0 : py1 - wy0, px0 - wx0 : px1 - wx0]
    return img


def develop(scene: Scene, composed: Image) -> Image:
    """The shot's JPEG artefacts (a fresh image; ``composed`` itself when the
    camera does not compress): for a card at rest they come from its edges
    and print, the same in every frame, so a camera can work them out once
    per card and add each frame's sensor noise on top
    (:func:`~hardware_sim.camera.effects.add_noise`)."""
    if scene.jpeg_quality is None:
        return composed
    box = jpeg_box(scene)
    return effects.jpeg(composed.copy() if box is not None else composed,
                        scene.jpeg_quality, box)


def expose(scene: Scene, composed: Image, rng: np.random.Generator) -> Image:
    """Per-frame sensor effects on a composed scene: noise, then JPEG."""
    img = effects.add_noise(composed, scene.noise, rng)
    if scene.jpeg_quality is not None:
        box = jpeg_box(scene)
        if box is not None and img is composed:
            img = img.copy()  # no noise was added: the box is changed in place
        img = effects.jpeg(img, scene.jpeg_quality, box)
    return img


def jpeg_box(scene: Scene) -> tuple[int, int, int, int] | None:
    """The part of the frame whose JPEG artefacts matter: the card, its shadow
    and blur, on the 16 px macro-block grid (None: the whole frame, when no
    card lies on the table).  The recogniser looks nowhere else."""
    if scene.corners is None:
        return None
    w, h = scene.size
    pad = 24.0 + scene.blur * 3
    if scene.shadow is not None:
        pad += abs(scene.shadow[0]) + abs(scene.shadow[1])
    if scene.motion is not None:
        pad += scene.motion[0]
    xs, ys = scene.corners[:, 0], scene.corners[:, 1]
    x0 = max(0, int(xs.min() - pad)) // 16 * 16
    y0 = max(0, int(ys.min() - pad)) // 16 * 16
    x1 = min(w, math.ceil((xs.max() + pad) / 16) * 16)
    y1 = min(h, math.ceil((ys.max() + pad) / 16) * 16)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def render_scene(
    scene: Scene, face: Image | None, rng: np.random.Generator, mask: Image | None = None
) -> Image:
    """:func:`compose` then :func:`expose`: one camera frame of ``scene``."""
    return expose(scene, compose(scene, face, mask), rng)


def make_frame(
    deck: Deck,
    code: str | None,
    rng: np.random.Generator,
    *,
    preset: str | Effects = "normal",
    size: tuple[int, int] = (640, 480),
    kind: str = "card",
) -> Frame:
    """One camera frame of card ``code`` of ``deck`` (``code`` may be None only
    for ``empty_table``; for ``card_back`` the card lies face down)."""
    if code is None and kind != "empty_table":
        raise ValueError("a card code is needed unless the frame is an empty table")
    code = parse_code(code) if code is not None else None
    if kind == "empty_table":
        face, mask = None, None
    elif kind == "card_back":
        face, mask = deck.back(), deck.mask(None)
    else:
        assert code is not None
        face, mask = deck.face(code), deck.mask(code)
    aspect = face.shape[0] / face.shape[1] if face is not None else 1.4
    scene = sample_scene(rng, preset=preset, size=size, kind=kind, aspect=aspect)
    image = render_scene(scene, face, rng, mask)
    return Frame(
        image=image,
        code=code if kind != "empty_table" else None,
        corners=scene.corners,
        kind=kind,
        readable=kind in READABLE_KINDS,
        face_up=kind != "card_back",
        scene=scene,
    )


def calibration_image(deck: Deck, code: str, *, width: int | None = None) -> Image:
    """A clean, upright, full-frame face of ``code``: what
    ``pontoon-table vision calibrate DIR`` reads (white outside the corners)."""
    face = deck.face(code)
    if width is not None and width != face.shape[1]:
        height = round(width * face.shape[0] / face.shape[1])
        face = u8(cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA))
    return np.ascontiguousarray(face)


def write_calibration_set(
    deck: Deck, folder: str | Path, *, width: int | None = None
) -> list[Path]:
    """Write the 52 calibration faces of ``deck`` as ``AS.png``, ``TD.png``, ...
    into ``folder`` (created if needed); returns the paths written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for code in CARD_CODES:
        p = out / f"{code}.png"
        if not cv2.imwrite(str(p), calibration_image(deck, code, width=width)):
            raise OSError(f"could not write {p}")
        paths.append(p)
    return paths
