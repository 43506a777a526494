"""Finding the card's outline (``vision.detect``) on frames drawn here by hand,
so every card corner is known by construction: a plain card rectangle of
150 x 210 px (the card's 63.5 x 88.9 mm is 1.40; 210 / 150 = 1.40) turned by
20 degrees about its centre, on a plain table, then blurred and noised.

The expected corners are the rectangle's own, worked out with the rotation
formula below, not read from the code under test.  The detector works on a
half-size copy (640 px -> 320 px), so one of its pixels is two of the frame's:
a corner within 4 px of the drawn one is two detection pixels, the most a
3 x 3 smoothing and a threshold between two flat levels can move a straight
edge.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.detect import _paired_quads, _shared_corners, find_card

W, H = 640, 480
CARD_W, CARD_H = 150.0, 210.0
TOLERANCE = 4.0


def _card_corners(cx: float, cy: float, turn_deg: float) -> npt.NDArray[np.float64]:
    """Corners of the card rectangle centred at (cx, cy), turned ``turn_deg``
    clockwise on screen: each corner (+-75, +-105) from the centre goes to
    (x cos t - y sin t, x sin t + y cos t)."""
    t = math.radians(turn_deg)
    c, s = math.cos(t), math.sin(t)
    half = [(-CARD_W / 2, -CARD_H / 2), (CARD_W / 2, -CARD_H / 2),
            (CARD_W / 2, CARD_H / 2), (-CARD_W / 2, CARD_H / 2)]
    return np.array([(cx + x * c - y * s, cy + x * s + y * c) for x, y in half])


def _frame(table: int, corners: npt.NDArray[np.float64], paper: int = 235) -> npt.NDArray[np.uint8]:
    """A grey table of level ``table`` with a white card on it (no blur or noise yet)."""
    img = np.full((H, W, 3), table, np.uint8)
    cv2.fillConvexPoly(img, np.round(corners * 16).astype(np.int32), (paper,) * 3,
                       cv2.LINE_AA, 4)
    return img


def _shoot(
    img: npt.NDArray[np.uint8], blur: float, noise: float, seed: int
) -> npt.NDArray[np.uint8]:
    """The camera's blur, then sensor noise."""
    out = cv2.GaussianBlur(img, (0, 0), blur).astype(np.float32)
    out += np.random.default_rng(seed).normal(0.0, noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def _worst_miss(found: npt.NDArray[np.float32], expected: npt.NDArray[np.float64]) -> float:
    """The largest distance from a drawn corner to the nearest found corner
    (the found quad may start at either short side)."""
    d = np.linalg.norm(expected[:, None, :] - found[None, :, :].astype(np.float64), axis=2)
    return float(d.min(axis=1).max())


CARD = _card_corners(200.0, 250.0, 20.0)


def test_the_card_on_a_light_cloth_is_found_not_the_cloth() -> None:
    """A light-grey cloth (150) under a white card (235).  Otsu's cut between
    the two levels finds the card.  The dark frame added round the picture
    used to be counted in: on the half-size copy the picture is 320 x 240 =
    76800 px and the frame 332 x 252 - 76800 = 6864 (8.2 %), the card
    150 x 210 / 4 = 7875 (9.4 %), the cloth 82.4 %.  Cutting between frame
    and cloth then separates the classes better (weights 0.082 / 0.918,
    means 0 / 158.7: between-class variance 0.082 x 0.918 x 158.7^2 = 1896)
    than cutting between cloth and card (0.906 / 0.094, means 136.4 / 235:
    828), so the whole cloth passed for paper."""
    frame = _shoot(_frame(150, CARD), blur=1.0, noise=3.0, seed=1)
    det = find_card(frame)
    assert det is not None
    assert _worst_miss(det.quad, CARD) <= TOLERANCE


def test_a_heavily_blurred_card_keeps_its_corners() -> None:
    """Blur of sigma 3 px (more than the hard camera's 2.2) and noise of
    sigma 8 on a dark table (40): a blurred step is symmetric about the
    true edge, so the cut halfway between table and paper stays on it."""
    frame = _shoot(_frame(40, CARD), blur=3.0, noise=8.0, seed=2)
    det = find_card(frame)
    assert det is not None
    assert _worst_miss(det.quad, CARD) <= TOLERANCE


def _finger(img: npt.NDArray[np.uint8], corner: npt.NDArray[np.float64],
            centre: npt.NDArray[np.float64], width: float) -> None:
    """A bright, skin-coloured finger (BGR 190, 205, 235: bright in every
    channel, as under strong light) from beyond the frame's edge to a tip
    0.25 card widths in from ``corner`` along the card's diagonal."""
    out = (corner - centre) / np.linalg.norm(corner - centre)
    tip = corner - out * 0.25 * CARD_W
    far = tip + out * 2000.0
    cv2.line(img, tuple(np.round(tip).astype(int)), tuple(np.round(far).astype(int)),
             (190, 205, 235), round(width))
    cv2.circle(img, tuple(np.round(tip).astype(int)), round(width / 2), (190, 205, 235), -1)


def test_a_bright_finger_over_a_corner_is_cut_off_the_card() -> None:
    """A finger 0.3 card widths wide (45 px; the simulator's are 0.26-0.34)
    over the card's top-left corner joins the card into one bright blob whose
    hull runs out along the finger.  The finger is narrower than 0.4 of the
    card's width, so cutting the blob's narrow parts leaves the card; its
    four sides, each still straight over most of its length, give back all
    four corners, the one under the finger too."""
    img = _frame(40, CARD)
    _finger(img, CARD[0], CARD.mean(axis=0), 0.3 * CARD_W)
    frame = _shoot(img, blur=1.5, noise=4.0, seed=3)
    det = find_card(frame)
    assert det is not None
    assert _worst_miss(det.quad, CARD) <= TOLERANCE


def _cross(img: npt.NDArray[np.uint8], cx: int, cy: int) -> None:
    """A bright patch of cloth shaped like a plus sign: two 280 x 90 bars
    crossing at (cx, cy), 2 x 280 x 90 - 90 x 90 = 42300 px, more than the
    card's 150 x 210 = 31500."""
    cv2.rectangle(img, (cx - 140, cy - 45), (cx + 140, cy + 45), (230, 230, 230), -1)
    cv2.rectangle(img, (cx - 45, cy - 140), (cx + 45, cy + 140), (230, 230, 230), -1)


def test_the_card_beside_a_larger_bright_patch_of_cloth_is_found() -> None:
    """The largest bright blob is the plus sign.  Its hull is an octagon
    whose four longest sides are the slanted ones (95 x sqrt 2 = 134 px
    against the 90 px ends), which meet in a square: no card's proportions,
    so the card itself, the next largest blob and outside the plus sign's
    hull, is taken."""
    img = _frame(40, CARD)
    _cross(img, 480, 240)
    frame = _shoot(img, blur=1.0, noise=3.0, seed=4)
    det = find_card(frame)
    assert det is not None
    assert _worst_miss(det.quad, CARD) <= TOLERANCE


def test_a_bright_patch_of_cloth_alone_is_no_card() -> None:
    """The plus sign without a card: no outline of a card's proportions, and
    no other blob."""
    img = np.full((H, W, 3), 40, np.uint8)
    _cross(img, 320, 240)
    assert find_card(_shoot(img, blur=1.0, noise=3.0, seed=5)) is None


def test_the_paired_quad_skips_the_slanted_side_of_a_notch() -> None:
    """A 140 x 100 rectangle whose corner (140, 100) a finger bit off from
    (140, 40) to (80, 100).  Sides: top 140, right 40, slant 60 sqrt 2 = 84.9,
    bottom 80, left 100.  The four longest (top, slant, bottom, left) meet
    in (0, 0), (180, 0) (top y = 0 with slant x + y = 180), (80, 100), (0, 100).
    Paired sides: top (0 degrees) and bottom (180) are parallel, slant
    (135) and left (270) are 45 degrees off, so that set is refused; top,
    right, bottom, left turn by 90 degrees each and give the rectangle
    (0, 0), (140, 0), (140, 100), (0, 100) back."""
    hull = np.array([[0, 0], [140, 0], [140, 40], [80, 100], [0, 100]], np.int32).reshape(-1, 1, 2)
    quads = _paired_quads(hull)
    assert len(quads) == 1
    expected = np.array([[0, 0], [140, 0], [140, 100], [0, 100]], np.float64)
    assert _worst_miss(quads[0].astype(np.float32), expected) < 1e-6


def test_shared_corners_counts_corners_within_the_tolerance() -> None:
    """A 100 x 150 quad: the tolerance is 0.12 of its shorter side, 12 px.
    The other quad has two corners 5 px off (kept), one 13 px off and one
    30 px off (not kept): 2."""
    quad = np.array([[0, 0], [100, 0], [100, 150], [0, 150]], np.float32)
    other = np.array([[5, 0], [100, 5], [113, 150], [0, 120]], np.float64)
    assert _shared_corners(quad, other) == 2
