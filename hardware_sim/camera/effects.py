"""Image effects that make a composited card look like a camera frame.

Each function is small, takes its randomness from an explicit
``numpy.random.Generator`` (or explicit parameters) and works in place or
returns a new uint8 BGR image. Costly random fields (table textures, sensor
noise) are generated once from fixed seeds and reused with random offsets,
which keeps a 640x480 frame to a few milliseconds while staying reproducible.

Example::

    import numpy as np
    from hardware_sim.camera import effects
    rng = np.random.default_rng(1)
    table = effects.table_texture("felt", (480, 640), variant=1)
    effects.add_glare(table, (320, 240), 60, 0.9)
    effects.add_noise(table, 4.0, rng)
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware_sim.cards._img import Image, f32, u8

Size = tuple[int, int]  # (height, width)

TABLES = ("felt", "wood", "dark", "noisy")


def _smooth_noise(rng: np.random.Generator, shape: Size, scale: float) -> NDArray[np.float32]:
    """Zero-mean noise with features about ``scale`` px across, in [-1, 1]."""
    h, w = shape
    sh, sw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    big = f32(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC))
    m = float(np.abs(big).max()) or 1.0
    return big / m


@lru_cache(maxsize=32)
def _base_texture(kind: str, shape: Size, variant: int) -> Image:
    rng = np.random.default_rng(1000 + 17 * variant + TABLES.index(kind))
    h, w = shape
    if kind == "felt":
        base = np.array([40, 110, 30], np.float32)
        f = 1 + 0.10 * _smooth_noise(rng, shape, 60) + 0.06 * rng.standard_normal(shape)
        img = base * f[..., None].astype(np.float32)
    elif kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None]
        warp = 25 * _smooth_noise(rng, shape, 120)
        grain = np.sin((y + warp) / (5 + 3 * variant)) * 0.5 + 0.5
        fine = _smooth_noise(rng, (h, w), 3) * 0.5
        f = 0.75 + 0.2 * grain + 0.07 * fine
        img = (np.array([40, 85, 140], np.float32) * f[..., None]).astype(np.float32)
    elif kind == "dark":
        f = 1 + 0.25 * _smooth_noise(rng, shape, 40) + 0.15 * rng.standard_normal(shape)
        img = np.array([38, 36, 34], np.float32) * f[..., None].astype(np.float32)
    elif kind == "noisy":
        # busy, blotchy cloth: mostly brightness, a little colour
        lum = 0.45 * _smooth_noise(rng, shape, 25) + 0.25 * _smooth_noise(rng, shape, 5)
        base = np.array([95, 110, 120], np.float32)
        chans = [base[c] * (1 + lum + 0.15 * _smooth_noise(rng, shape, 40)) for c in range(3)]
        img = np.stack(chans, axis=2)
    else:
        raise ValueError(f"unknown table {kind!r}; choose from {TABLES}")
    return np.clip(img, 0, 255).astype(np.uint8)


def table_texture(
    kind: str,
    shape: Size,
    *,
    variant: int = 0,
    mirror: bool = False,
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0),
) -> Image:
    """A fresh table image of ``shape`` (h, w): cached variant ``variant`` (0-2)
    of ``kind`` (one of :data:`TABLES`), optionally mirrored and tinted."""
    img = _base_texture(kind, shape, variant % 3)
    if mirror:
        img = u8(cv2.flip(img, 1))
    return u8(cv2.transform(img, np.diag(np.asarray(tint, np.float32))))


def light_field(
    shape: Size,
    gain: float,
    gradient: tuple[float, float],
    white_balance: tuple[float, float, float],
) -> Image:
    """The per-pixel, per-channel gains of :func:`apply_lighting` over a frame of
    ``shape`` (h, w), as uint8 in 1/128 steps: an all-uint8 multiply is several
    times faster than a float one, and a 1/128 step in a smooth field is
    invisible.  A camera whose light does not change can work it out once and
    light any part of a frame with the same slice of it."""
    h, w = shape
    gx = np.linspace(-0.5, 0.5, w, dtype=np.float32) * gradient[0]
    gy = np.linspace(-0.5, 0.5, h, dtype=np.float32) * gradient[1]
    field = np.float32(gain) * (1 + gy[:, None] + gx[None, :])
    return u8(cv2.merge(
        [cv2.convertScaleAbs(field, alpha=128.0 * float(g)) for g in white_balance]
    ))


def light(img: Image, field: Image) -> Image:
    """``img`` lit by ``field`` (from :func:`light_field`, the same size)."""
    return u8(cv2.multiply(img, field, scale=1 / 128.0))


def apply_lighting(
    img: Image,
    gain: float,
    gradient: tuple[float, float],
    white_balance: tuple[float, float, float],
) -> Image:
    """Overall exposure ``gain``, a linear light falloff ``gradient`` (relative
    change across the frame in x and y) and per-channel white balance."""
    return light(img, light_field(img.shape[:2], gain, gradient, white_balance))


def add_glare(img: Image, center: tuple[float, float], radius: float, strength: float) -> None:
    """Add a specular highlight: a soft elliptic white spot (in place)."""
    h, w = img.shape[:2]
    cx, cy = center
    rx, ry = int(radius * 1.4 * 3), int(radius * 3)  # the spot is < 1 grey level beyond
    x0, x1 = max(0, int(cx) - rx), min(w, int(cx) + rx)
    y0, y1 = max(0, int(cy) - ry), min(h, int(cy) + ry)
    if x0 >= x1 or y0 >= y1:
        return
    ys = (np.arange(y0, y1, dtype=np.float32) - cy)[:, None]
    xs = (np.arange(x0, x1, dtype=np.float32) - cx)[None, :]
    d2 = (xs / (radius * 1.4)) ** 2 + (ys / radius) ** 2
    spot = (strength * 330.0 * np.exp(-d2)).astype(np.float32)
    roi = img[y0:y1, x0:x1]
    roi[:] = np.clip(roi.astype(np.float32) + spot[..., None], 0, 255).astype(np.uint8)


def draw_finger(
    img: Image,
    tip: tuple[float, float],
    direction: tuple[float, float],
    width: float,
    skin: float = 1.0,
) -> None:
    """A finger: a shaded skin-coloured capsule from ``tip`` out along
    ``direction`` past the frame edge (in place)."""
    h, w = img.shape[:2]
    dx, dy = direction
    n = float(np.hypot(dx, dy)) or 1.0
    far = (tip[0] + dx / n * (w + h), tip[1] + dy / n * (w + h))
    colour = np.array([110, 150, 205], np.float32) * skin
    mask = np.zeros((h, w), np.uint8)
    s = 16
    p0 = (round(tip[0] * s), round(tip[1] * s))
    p1 = (round(far[0] * s), round(far[1] * s))
    cv2.line(mask, p0, p1, 255, max(2, round(width)), cv2.LINE_AA, 4)
    cv2.circle(mask, p0, round(width / 2 * s), 255, -1, cv2.LINE_AA, 4)
    x, y, bw, bh = cv2.boundingRect(mask)
    if bw == 0 or bh == 0:
        return
    roi = img[y : y + bh, x : x + bw]
    a = cv2.GaussianBlur(mask[y : y + bh, x : x + bw], (0, 0), max(0.8, width / 30))
    a = a.astype(np.float32)[..., None] / 255.0
    # shading across the finger so it reads as round, not as a flat sticker
    yy, xx = np.mgrid[y : y + bh, x : x + bw].astype(np.float32)
    across = ((xx - tip[0]) * -dy / n + (yy - tip[1]) * dx / n) / (width / 2)
    shade = np.clip(1.0 - 0.35 * across**2, 0.5, 1.0)[..., None]
    roi[:] = (roi * (1 - a) + colour * shade * a).astype(np.uint8)


def gaussian_blur(img: Image, sigma: float) -> Image:
    if sigma < 0.3:
        return img
    return u8(cv2.GaussianBlur(img, (0, 0), sigma))


def blur_reach(sigma: float) -> int:
    """How far (px) :func:`gaussian_blur` of ``sigma`` carries a pixel: the
    radius of OpenCV's kernel for 8-bit images (ksize = round(6 sigma + 1) | 1)."""
    if sigma < 0.3:
        return 0
    return (round(sigma * 6 + 1) | 1) // 2


def motion_blur(img: Image, length: float, angle_deg: float) -> Image:
    """Blur along a line of ``length`` px at ``angle_deg`` (a card still sliding)."""
    k = max(3, round(length) | 1)
    kernel = np.zeros((k, k), np.float32)
    kernel[k // 2, :] = 1.0
    rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), angle_deg, 1.0)
    kernel = f32(cv2.warpAffine(kernel, rot, (k, k)))
    kernel /= kernel.sum()
    return u8(cv2.filter2D(img, -1, kernel))


@lru_cache(maxsize=4)
def _noise_parts(shape: Size) -> tuple[Image, Image]:
    """A seeded Gaussian field of standard deviation 64 (a margin of 64 px
    around ``shape`` for random windows), split into its positive and negative
    parts as uint8: scaling a uint8 part is two cheap passes, where scaling
    the signed field was four.  (Values past 255, 4 standard deviations, are
    clipped: about 1 pixel in 30,000.)"""
    h, w = shape
    rng = np.random.default_rng(99)
    field = (rng.standard_normal((h + 64, w + 64, 3)) * 64).astype(np.int16)
    up = u8(np.clip(field, 0, 255))
    down = u8(np.clip(-field, 0, 255))
    return up, down


@lru_cache(maxsize=4)
def _scaled_noise(shape: Size, sigma: float) -> tuple[Image, Image]:
    """The cached field scaled to ``sigma``, as its positive and negative uint8
    parts (one of the two is 0 at every pixel).  A card at rest is grabbed
    several times with the same ``sigma``: scaling once lets each frame add its
    noise with two saturating uint8 operations."""
    base_up, base_down = _noise_parts(shape)
    scale = sigma / 64.0  # the field's standard deviation is 64
    up = u8(cv2.convertScaleAbs(base_up, alpha=scale))
    down = u8(cv2.convertScaleAbs(base_down, alpha=scale))
    up.setflags(write=False)
    down.setflags(write=False)
    return up, down


def add_noise(img: Image, sigma: float, rng: np.random.Generator) -> Image:
    """Sensor noise of standard deviation ``sigma`` (grey levels): a random
    window of a cached Gaussian field, so it costs no fresh random numbers.
    (The same as adding the window times ``sigma / 64`` and rounding.)"""
    if sigma <= 0:
        return img
    h, w = img.shape[:2]
    up, down = _scaled_noise((h, w), float(sigma))
    oy, ox = (int(v) for v in rng.integers(0, 64, 2))
    return u8(cv2.subtract(cv2.add(img, up[oy : oy + h, ox : ox + w]),
                           down[oy : oy + h, ox : ox + w]))


def jpeg(img: Image, quality: int, box: tuple[int, int, int, int] | None = None) -> Image:
    """Round-trip through JPEG at ``quality`` (compression artefacts).

    ``box`` (x0, y0, x1, y1) limits the round trip to that part of the frame,
    which must then be a fresh image (it is changed in place).  A JPEG block
    depends only on its own pixels, so a box on the 16 px grid of the
    frame's macro-blocks gets the very artefacts the whole frame would, at a
    fraction of the cost; only chroma upsampling at the box's rim differs.
    """
    if box is not None:
        x0, y0, x1, y1 = box
        img[y0:y1, x0:x1] = jpeg(np.ascontiguousarray(img[y0:y1, x0:x1]), quality)
        return img
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # pragma: no cover - OpenCV always encodes a valid uint8 image
        return img
    return u8(cv2.imdecode(buf, cv2.IMREAD_COLOR))
