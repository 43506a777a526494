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
import pytest

from vision.detect import (
    _blobs,
    _card_edges,
    _edge_strength,
    _lone_blobs,
    _paired_quads,
    _shared_corners,
    _side_steps,
    find_card,
)

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


def _lit_cloth(seed: int) -> npt.NDArray[np.uint8]:
    """A bright, blotchy cloth under a strong light gradient: grey 70 at the
    picture's left edge rising evenly to 200 at its right, plus blotches of
    up to +-15 (a 12 x 16 grid of random values in [-1, 1], enlarged
    smoothly and clipped back to [-1, 1]).  So the cloth spans 55 to 215."""
    ramp = np.linspace(70.0, 200.0, W, dtype=np.float32)[None, :].repeat(H, axis=0)
    grid = np.random.default_rng(seed).uniform(-1.0, 1.0, (H // 40, W // 40)).astype(np.float32)
    blotch = np.clip(cv2.resize(grid, (W, H), interpolation=cv2.INTER_CUBIC), -1.0, 1.0)
    grey = np.clip(ramp + 15.0 * blotch, 0, 255).astype(np.uint8)
    return np.repeat(grey[:, :, None], 3, axis=2)


@pytest.mark.parametrize(("cx", "turn"), [(330.0, 20.0), (400.0, 0.0), (300.0, 35.0)])
def test_a_card_joined_to_the_lit_half_of_a_bright_cloth_is_found(cx: float, turn: float) -> None:
    """A white card (250) in the middle of the cloth above, touching its lit
    right half.  The cloth's levels spread evenly from 55 to 215, so Otsu's
    cut falls inside them (the card is a tenth of the picture): the cloth's
    lit half passes for paper with the card, one blob reaching the
    picture's right edge, whose outline is not the card's (its sides run
    along the picture's edge, or off it, or through the cloth with paper
    hardly brighter on one side than on the other).  Among the pixels that
    passed, cloth up to 215 and paper at 250, a second cut leaves the card
    alone, every side of it 250 against cloth of at most 183 beyond it
    (the ramp is 70 + 130 x / 640: 168 at x = 484, 9 px beyond the
    right-most card edge here, x = 400 + 75; the blotches add at most 15).
    The old code took the cloth's outline (or none)."""
    card = _card_corners(cx, 240.0, turn)
    img = _lit_cloth(7)
    cv2.fillConvexPoly(img, np.round(card * 16).astype(np.int32), (250,) * 3, cv2.LINE_AA, 4)
    det = find_card(_shoot(img, blur=1.0, noise=3.0, seed=1))
    assert det is not None
    assert _worst_miss(det.quad, card) <= TOLERANCE


def _flat(paper: tuple[int, int, int, int], table: int = 100) -> npt.NDArray[np.uint8]:
    """A 240 x 320 detection image of level ``table`` with paper (250) over
    columns x0..x1 and rows y0..y1, both ends included."""
    x0, y0, x1, y1 = paper
    img = np.full((240, 320), table, np.uint8)
    img[y0:y1 + 1, x0:x1 + 1] = 250
    return img


def _box(x0: float, y0: float, x1: float, y1: float) -> npt.NDArray[np.float32]:
    """Corners clockwise on screen from the top left: sides top, right, bottom, left."""
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_each_side_steps_from_paper_down_to_the_table() -> None:
    """Paper 250 on a table of 100, the outline on the paper's outermost
    pixels: 1-4 px inside is paper, 3, 6 and 9 px beyond is table, so every
    side steps down by 250 - 100 = 150."""
    white = _flat((100, 60, 199, 139))
    assert _side_steps(white, _box(100, 60, 199, 139)) == [150.0, 150.0, 150.0, 150.0]


def test_a_cut_through_the_paper_is_no_card_edge() -> None:
    """The left half of the paper (x 100-149): beyond its right side lies
    more paper, a step of 250 - 250 = 0; a dark row of pips (30) 2 to 6 px
    beyond that side is not the table either: 6 and 9 px beyond is paper
    again, and the brightest of what lies beyond is what counts (0, where
    the 3 px sample alone would give 250 - 30 = 220)."""
    white = _flat((100, 60, 199, 139))
    half = _box(100, 60, 149, 139)
    assert _side_steps(white, half) == [150.0, 0.0, 150.0, 150.0]
    white[60:140, 151:156] = 30
    assert _side_steps(white, half) == [150.0, 0.0, 150.0, 150.0]


def test_a_frame_printed_near_the_edge_does_not_hide_the_paper() -> None:
    """A dark line (30) printed 3 and 4 px inside every side (a court's
    picture frame, an index): 1 and 2 px inside is still paper, and the
    brightest inside counts, so each side still steps 250 - 100 = 150."""
    white = _flat((100, 60, 199, 139))
    white[63:137, 103:197] = 30
    white[65:135, 105:195] = 250
    assert _side_steps(white, _box(100, 60, 199, 139)) == [150.0, 150.0, 150.0, 150.0]


def test_a_side_along_the_picture_edge_is_not_measured() -> None:
    """Paper reaching the top of the picture (rows 0-79): the top side's
    samples beyond, at y = -3, -6, -9, are all outside the picture, so that
    side has no step (None); the others step 150.  Such an outline is not
    refused as the first one (a scan cropped tight on one side), but is not
    taken instead of another: it has no edge strength."""
    white = _flat((100, 0, 199, 79))
    quad = _box(100, 0, 199, 79)
    assert _side_steps(white, quad) == [None, 150.0, 150.0, 150.0]
    assert _card_edges(white, quad, 40.0)
    assert _edge_strength(white, quad) is None


def test_an_outline_running_off_the_picture_is_no_card() -> None:
    """Paper x 200-309 on the table: its own outline steps 150 on every side
    (the right side's samples beyond, x = 312, 315, 318, are table), so it
    has a card's edges; the same outline stretched to x = 329, 10 px beyond
    the picture's last column 319 (more than 3 px out), has not."""
    white = _flat((200, 60, 309, 139))
    assert _edge_strength(white, _box(200, 60, 309, 139)) == 150.0
    assert not _card_edges(white, _box(200, 60, 329, 139), 40.0)
    assert _edge_strength(white, _box(200, 60, 329, 139)) is None


def test_lone_blobs_are_the_next_largest_that_fill_most_of_their_quads() -> None:
    """A 240 x 320 mask: the largest blob (150 x 110, a bright cloth with a
    card's proportions) is skipped; a 50 x 70 card (x 20-69, y 100-169)
    with a 20 x 30 dent in its right side still fills (49 x 69 - 20 x 30
    in contour area, about 0.82 by the contour's pixel-centre outline) more
    than 0.75 of its rectangle, whose corners the hull gives back exactly;
    an L-shaped blob (a 60 x 80 box less 45 x 60: 2100 px, while its hull,
    the box less a triangle of 45 x 60 / 2, is 3450 px, and any quad round
    it holds the hull: it fills at most 0.61) and a 10 x 10 speck (under
    1.5 % of the padded picture, 332 x 252) are not cards."""
    mask = np.zeros((240, 320), np.uint8)
    mask[20:130, 160:310] = 255
    mask[100:170, 20:70] = 255
    mask[120:150, 50:70] = 0
    mask[150:230, 220:280] = 255
    mask[150:210, 235:280] = 0
    mask[200:210, 100:110] = 255
    lone = list(_lone_blobs(_blobs(mask)))
    assert len(lone) == 1
    quad, fill = lone[0]
    expected = np.array([[20, 100], [69, 100], [69, 169], [20, 169]], np.float64)
    assert _worst_miss(quad, expected) < 1e-3
    assert 0.75 < fill < 0.9
