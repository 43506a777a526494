"""The simulated camera's fixed backdrop composes exactly what ``frames.compose`` does.

:class:`hardware_sim.camera.backdrop.Backdrop` works only on the pixels a card
touches; any difference from the full composition would be a seam on the
table or a change in what the recogniser sees, so equality is bit for bit.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from hardware_sim.camera.backdrop import LOOK_FIELDS, Backdrop
from hardware_sim.camera.frames import KINDS, Glare, compose, sample_scene
from hardware_sim.cards import CARD_CODES, open_deck


@pytest.mark.parametrize("preset", ["clean", "normal", "hard"])
def test_a_shot_on_the_backdrop_equals_the_full_composition(preset: str) -> None:
    deck = open_deck("builtin")
    rng = np.random.default_rng(17)
    fast = 0
    for look_no in range(4):
        look = sample_scene(rng, preset=preset)
        if look_no == 0:
            look = dataclasses.replace(look, blur=1.6)  # a wide blur: the widest rim
        backdrop = Backdrop(look)
        for i in range(24):
            kind = KINDS[i % len(KINDS)] if i % 3 == 0 else "card"
            code = CARD_CODES[(i * 11 + look_no) % 52]
            if kind == "card_back":
                face, mask = deck.back(), deck.mask(None)
            elif kind == "empty_table":
                face, mask = None, None
            else:
                face, mask = deck.face(code), deck.mask(code)
            aspect = face.shape[0] / face.shape[1] if face is not None else 1.4
            scene = backdrop.adopt(sample_scene(rng, preset=preset, kind=kind, aspect=aspect,
                                                card_present=face is not None))
            fast += backdrop.fits(scene)
            got = backdrop.compose(scene, face, mask)
            want = compose(scene, face, mask)
            assert got.shape == want.shape
            diff = np.argwhere(got != want)
            assert diff.size == 0, (preset, look_no, i, kind, diff[:3])
    assert fast >= 40  # the backdrop's own path was taken, not only the fallback


def test_a_card_at_the_frame_edge_under_a_glare_is_composed_exactly() -> None:
    deck = open_deck("builtin")
    rng = np.random.default_rng(5)
    backdrop = Backdrop(dataclasses.replace(sample_scene(rng), blur=1.2))
    base = backdrop.adopt(sample_scene(rng, preset="normal"))
    assert base.corners is not None
    face, mask = deck.face("QH"), deck.mask("QH")
    # pushed against the left edge, then against the bottom edge
    for dx, dy in ((2 - float(base.corners[:, 0].min()), 0.0),
                   (0.0, 479 - float(base.corners[:, 1].max()))):
        corners = (base.corners + np.array([dx, dy], np.float32)).astype(np.float32)
        cx, cy = (float(v) for v in corners.mean(axis=0))
        scene = dataclasses.replace(base, corners=corners, fingers=(), motion=None,
                                    glares=(Glare((cx, cy), 30.0, 0.8),))
        assert backdrop.fits(scene)
        assert np.array_equal(backdrop.compose(scene, face, mask), compose(scene, face, mask))


def test_the_look_is_the_cameras_and_a_blackout_keeps_its_own_light() -> None:
    rng = np.random.default_rng(9)
    look = sample_scene(rng)
    backdrop = Backdrop(look)
    card = backdrop.adopt(sample_scene(rng))
    assert all(getattr(card, f) == getattr(look, f) for f in LOOK_FIELDS)
    dark = sample_scene(rng, kind="blackout")
    adopted = backdrop.adopt(dark)
    assert adopted.gain == dark.gain and adopted.table == look.table
    assert not backdrop.fits(adopted)  # composed the ordinary way
