"""A glyph crop as a worse camera would have cut it: the damage both the
generic classifier's training (``benchmarks/build_generic_profile.py``) and a
deck profile's own head (``vision.adapt``) learn from.

One copy is turned, stretched and slanted a little, made bolder or thinner,
shrunk, blurred, faded, noised and sometimes JPEG-compressed at its own small
scale, then cropped to its ink again as the splitter would.  Pure: the damage is
drawn from the generator handed in, so a seeded generator gives the same copies.
"""

from __future__ import annotations

import cv2
import numpy as np


def augment(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One randomly damaged copy of a glyph crop, re-cropped to its ink."""
    h, w = ink.shape
    up = 3
    pad = max(h, w) // 4 + 2
    big = cv2.resize(np.pad(ink, pad), ((w + 2 * pad) * up, (h + 2 * pad) * up),
                     interpolation=cv2.INTER_LINEAR)
    bh, bw = big.shape
    rot = cv2.getRotationMatrix2D((bw / 2, bh / 2), float(rng.uniform(-8, 8)),
                                float(rng.uniform(0.9, 1.1)))
    m: np.ndarray = np.array(rot, dtype=np.float64)
    m[0, :2] *= rng.uniform(0.85, 1.15)  # stretch x
    m[0, 1] += rng.uniform(-0.15, 0.15)  # shear (slant)
    big = cv2.warpAffine(big, m, (bw, bh), flags=cv2.INTER_LINEAR)
    k = int(rng.integers(-2, 3))
    if k:
        kernel = np.ones((abs(k) * 2 + 1,) * 2, np.uint8)
        big = cv2.dilate(big, kernel) if k > 0 else cv2.erode(big, kernel)
    scale = float(rng.uniform(0.45, 1.0)) / up
    small = cv2.resize(big, (max(3, round(bw * scale)), max(3, round(bh * scale))),
                       interpolation=cv2.INTER_AREA)
    sigma = float(rng.uniform(0, 0.9))
    if sigma > 0.2:
        small = cv2.GaussianBlur(small, (0, 0), sigma)
    small = small * float(rng.uniform(0.6, 1.0)) + rng.normal(0, rng.uniform(0, 0.1),
                                                               small.shape)
    small = np.clip(small, 0, 1).astype(np.float32)
    if rng.random() < 0.35:
        small = _jpeg(small, int(rng.integers(25, 80)))
    ys, xs = np.nonzero(small > 0.3 * max(float(small.max()), 1e-3))
    if len(ys) == 0:
        return ink
    crop = small[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return np.where(crop > 0.12, crop, 0).astype(np.float32)


def _jpeg(ink: np.ndarray, quality: int) -> np.ndarray:
    """The hard preset's JPEG blocks and ringing, at the glyph's own small scale."""
    paper = np.round(255 * (1 - np.pad(ink, 4))).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", paper, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        return ink
    dec = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
    if dec is None:
        return ink
    back = dec.astype(np.float32) / 255
    return np.clip(1 - back, 0, 1)[4:-4, 4:-4].astype(np.float32)
