"""One camera's fixed view of its table: the cloth and the light, made once.

A table's camera is screwed above one cloth under one set of lamps: from one
card to the next only the card moves (where it lies, its shadow, a glare, a
finger, the focus of the moment).  :class:`Backdrop` keeps that fixed part,
the table texture lit and blurred, and composes a shot by working only on
the pixels the card touches (plus the blur's reach) and pasting them on a
copy of it.  The result is **bit-identical** to
:func:`hardware_sim.camera.frames.compose` of the same scene (the test
suite checks it); it only does a fraction of the work, which matters for a
simulated table that lays a card every few milliseconds.

A scene whose look differs from the backdrop's (a blackout's gain, a finger
reaching to the frame's edge, motion blur over the whole frame) is composed
the ordinary way.

Example::

    look = sample_scene(rng)                  # the cloth, light and focus of this camera
    backdrop = Backdrop(look)
    scene = backdrop.adopt(sample_scene(rng, aspect=1.4))   # a card under this camera
    image = backdrop.compose(scene, face, mask)             # == frames.compose(scene, ...)
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from numpy.typing import NDArray

from hardware_sim.camera import effects
from hardware_sim.camera.frames import Scene, card_box, compose, lay_card

Image = NDArray[np.uint8]

#: the scene fields that belong to the camera and the table rather than to the card
LOOK_FIELDS = ("table", "table_variant", "table_mirror", "table_tint", "gain", "gradient",
               "white_balance", "blur")


class Backdrop:
    """The lit, focused table of one camera, and shots composed on it."""

    def __init__(self, look: Scene) -> None:
        self.look = {name: getattr(look, name) for name in LOOK_FIELDS}
        self.size = look.size
        w, h = look.size
        self.texture = effects.table_texture(look.table, (h, w), variant=look.table_variant,
                                             mirror=look.table_mirror, tint=look.table_tint)
        # the light field as apply_lighting makes it (uint8 gains in 1/128 steps)
        self.light = effects.lighting_field((h, w), look.gain, look.gradient,
                                            look.white_balance)
        self.blur = look.blur
        self.view = effects.gaussian_blur(effects.light(self.texture, self.light), self.blur)
        self.view.setflags(write=False)
        # how far the blur reaches: OpenCV's 8-bit kernel is 2 * round(3 sigma) + 1 wide
        self.reach = 0 if self.blur < 0.3 else math.ceil(3 * self.blur) + 2

    def adopt(self, scene: Scene) -> Scene:
        """``scene`` under this camera: its table, light and focus replaced by the
        backdrop's (a blackout keeps its own light: the lens is covered)."""
        look = dict(self.look)
        if scene.kind == "blackout":
            look.pop("gain")
        return dataclasses.replace(scene, **look)

    def fits(self, scene: Scene) -> bool:
        """True when :meth:`compose` can work on the card's pixels alone."""
        return (
            scene.size == self.size
            and not scene.fingers
            and scene.motion is None
            and all(getattr(scene, name) == value for name, value in self.look.items())
        )

    def compose(self, scene: Scene, face: Image | None, mask: Image | None = None) -> Image:
        """:func:`frames.compose` of ``scene``, working only where the card is."""
        if not self.fits(scene):
            return compose(scene, face, mask)
        out = self.view.copy()
        boxes = []
        box = card_box(scene) if face is not None else None
        if box is not None:
            boxes.append(box)
        for g in scene.glares:
            boxes.append(effects.glare_box(g.center, g.radius, self.size))
        boxes = [b for b in boxes if b[0] < b[2] and b[1] < b[3]]
        if not boxes:
            return out
        # The card changes its box, and the blur carries that ``reach`` further;
        # those pixels need ``reach`` more neighbours of their own.
        w, h = self.size
        r = self.reach
        x0 = max(0, min(b[0] for b in boxes) - 2 * r)
        y0 = max(0, min(b[1] for b in boxes) - 2 * r)
        x1 = min(w, max(b[2] for b in boxes) + 2 * r)
        y1 = min(h, max(b[3] for b in boxes) + 2 * r)
        part = self.texture[y0:y1, x0:x1].copy()
        if box is not None and face is not None:
            lay_card(part, scene, face, mask, origin=(x0, y0))
        part = effects.light(part, self.light[y0:y1, x0:x1])
        for g in scene.glares:
            effects.add_glare(part, g.center, g.radius, g.strength, frame=(x0, y0, w, h))
        part = effects.gaussian_blur(part, self.blur)
        # Keep only what the blur computed from true neighbours: a rim of ``reach``
        # is dropped on every side that is not the frame's own edge.
        ix0 = x0 if x0 == 0 else x0 + r
        iy0 = y0 if y0 == 0 else y0 + r
        ix1 = x1 if x1 == w else x1 - r
        iy1 = y1 if y1 == h else y1 - r
        out[iy0:iy1, ix0:ix1] = part[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0]
        return out
