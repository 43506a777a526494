"""The suit-sign generator: seeded, inside its box, and each suit's geometry
as one would describe it by hand (a heart's two lobes over one point, a
spade's point up over a narrower stem, a diamond's corners)."""

from __future__ import annotations

import numpy as np
import pytest

from hardware_sim.cards.suit_styles import FOREIGN_SHAPES, FRENCH, draw_sign, sign_mask

KINDS = tuple(FRENCH) + FOREIGN_SHAPES
SEEDS = range(40)


def _ink(m: np.ndarray) -> np.ndarray:
    """Inked pixels, cropped to them (the mask's own crop keeps faint edges)."""
    b = m >= 0.5
    ys, xs = np.nonzero(b)
    return b[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _filled(kind: str, seed: int) -> np.ndarray:
    """The sign as drawn by ``seed``, or the next seed whose hand is filled
    (an outline-only sign is tested for its box, not its interior)."""
    while True:
        m = _ink(sign_mask(kind, np.random.default_rng(seed)))
        h, w = m.shape
        if m[h // 2, w // 2] or kind != "D":  # a filled diamond is inked at its centre
            return m
        seed += 1000


@pytest.mark.parametrize("kind", KINDS)
def test_same_seed_same_pixels_other_seed_other_hand(kind: str) -> None:
    a = sign_mask(kind, np.random.default_rng(7))
    b = sign_mask(kind, np.random.default_rng(7))
    assert np.array_equal(a, b)
    others = [sign_mask(kind, np.random.default_rng(s)) for s in (8, 9, 10)]
    assert any(o.shape != a.shape or not np.array_equal(o, a) for o in others)


@pytest.mark.parametrize("kind", KINDS)
def test_sign_stays_inside_its_box(kind: str) -> None:
    box = (37, 21, 40, 55)  # x, y, w, h: deliberately not square
    for seed in SEEDS:
        canvas = np.zeros((120, 130), np.float32)
        draw_sign(canvas, box, kind, np.random.default_rng(seed))
        x, y, w, h = box
        inside = canvas[y : y + h, x : x + w]
        outside = canvas.copy()
        outside[y : y + h, x : x + w] = 0
        assert not outside.any(), (kind, seed)
        assert inside.max() > 0.9, (kind, seed)
        # fitted keeping its aspect: it spans the box's width or its height
        ys, xs = np.nonzero(inside > 0.05)
        assert xs.max() - xs.min() + 1 >= w - 2 or ys.max() - ys.min() + 1 >= h - 2


def _first_row(m: np.ndarray) -> np.ndarray:
    """Per column, the first inked row (len(m) where there is none)."""
    return np.where(m.any(axis=0), m.argmax(axis=0), len(m))


@pytest.mark.parametrize("seed", SEEDS)
def test_heart_two_lobes_above_one_point(seed: int) -> None:
    m = _ink(sign_mask("H", np.random.default_rng(seed)))
    h, w = m.shape
    top = _first_row(m)
    # the lobes reach the top; between them, on the centre line, a notch
    assert top.min() == 0
    assert top[w // 2] >= 2
    left, right = top[: w // 2].argmin(), w // 2 + top[w // 2 :].argmin()
    assert left < w // 2 - 2 and right > w // 2 + 2
    # the lowest ink is one point near the middle
    xs = np.nonzero(m[-1])[0]
    assert abs(xs.mean() - (w - 1) / 2) < 0.1 * w
    assert xs.max() - xs.min() < 0.25 * w
    # and the widest row is in the upper half (the lobes)
    widths = m.sum(axis=1)
    assert widths.argmax() < h / 2


@pytest.mark.parametrize("seed", SEEDS)
def test_spade_point_up_over_a_stem(seed: int) -> None:
    m = _ink(sign_mask("S", np.random.default_rng(seed)))
    h, w = m.shape
    xs = np.nonzero(m[0])[0]  # the point
    assert abs(xs.mean() - (w - 1) / 2) < 0.1 * w
    assert xs.max() - xs.min() < 0.2 * w
    widths = m.sum(axis=1)
    widest = int(widths.argmax())
    assert 0.2 * h < widest < 0.85 * h  # the shoulders, below the point
    # the foot is centred and narrower than the shoulders
    xs = np.nonzero(m[-1])[0]
    assert abs(xs.mean() - (w - 1) / 2) < 0.1 * w
    assert widths[-1] < widths[widest]
    # and between shoulders and foot the stem is narrower than both
    waist = widths[widest : h - 1].min()
    assert waist < 0.5 * widths[widest]


@pytest.mark.parametrize("seed", SEEDS)
def test_club_round_top_lobe_side_lobes_stem(seed: int) -> None:
    m = _ink(sign_mask("C", np.random.default_rng(seed)))
    h, w = m.shape
    xs = np.nonzero(m[0])[0]
    assert abs(xs.mean() - (w - 1) / 2) < 0.1 * w
    widths = m.sum(axis=1)
    widest = int(widths[: int(0.7 * h)].argmax())  # the lobes (a foot may be wider)
    # the side lobes are wider than the top lobe and below it
    assert widest > 0.15 * h
    assert widths[widest] > 1.3 * widths[: max(2, int(0.12 * h))].max()
    xs = np.nonzero(m[-1])[0]
    assert abs(xs.mean() - (w - 1) / 2) < 0.1 * w
    assert widths[widest : h - 1].min() < 0.5 * widths[widest]


@pytest.mark.parametrize("seed", SEEDS)
def test_diamond_corners(seed: int) -> None:
    m = _filled("D", seed)
    h, w = m.shape
    for row in (m[0], m[-1]):  # top and bottom corners on the centre line
        xs = np.nonzero(row)[0]
        assert abs(xs.mean() - (w - 1) / 2) < 0.1 * w
        assert xs.max() - xs.min() < 0.2 * w
    widths = m.sum(axis=1)
    assert abs(int(widths.argmax()) - h / 2) < 0.15 * h  # widest at mid-height
    # left-right symmetric (only the drawing's rounding differs)
    assert np.mean(m != m[:, ::-1]) < 0.05


def test_outline_hands_exist_and_are_hollow() -> None:
    hollow = 0
    for seed in range(60):
        m = _ink(sign_mask("D", np.random.default_rng(seed)))
        h, w = m.shape
        hollow += not m[h // 2, w // 2]
    assert 3 <= hollow <= 30  # about one hand in five is drawn in outline


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown shape"):
        sign_mask("X", np.random.default_rng(0))
