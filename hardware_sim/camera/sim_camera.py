"""A camera that looks at the shoe's exit: it sees the card the simulated shoe
just dealt, and can be told to fail so the controller's "unsure, ask the
dealer" path gets exercised.

It satisfies the ``vision`` ``CameraSource`` protocol (``grab()`` returns a BGR
frame, or None when no frame came).  Like a real camera over a real table, it
works in one *room*, drawn from its seed once: the table cloth, the light on
it, its focus, its sensor's noise and its JPEG quality stay the same all
evening.  Each :meth:`SimCamera.show` lays the card down once (a new random
position, angle, shadow, now and then a glare or a finger) and works out that
shot, with its JPEG artefacts, once; each :meth:`SimCamera.grab` then adds
fresh sensor noise to it, as a real camera watching a card at rest would, so
frame consensus sees frames that agree but were never the same pixels.  (The
noise is added after the compression: a little noisier than a real MJPEG
camera, whose encoder smooths part of it away.)

Example::

    from hardware_sim.camera.sim_camera import SimCamera
    cam = SimCamera("builtin:modern", preset="normal", seed=42, mode="overhead")
    cam.show("7C")
    frame = cam.grab()          # numpy (480, 640, 3) uint8
    cam.truth                   # Frame-like ground truth of the last grab
    cam.inject("glare", 2)      # next 2 grabs: glare over both index corners
    cam.inject("drop")          # next grab returns None (camera hiccup)
    cam.show(None)              # nothing under the camera: an empty table
    cam.show("KS", face_up=False)   # a card dealt face down: its back is seen

``mode="in_shoe"`` (the default, as the reference table reads every card
inside the shoe's mouth) is the camera under the shoe's window
(:mod:`hardware_sim.camera.in_shoe`, ``docs/hardware.md`` section 2): ``show(code)``
starts the card's pass and each grab returns its next frame at 120 fps (then
the empty window); ``truth`` is then a
:class:`~hardware_sim.camera.in_shoe.PassFrame`, and ``vision.in_shoe`` reads
the frames.  ``mode="overhead"`` is the camera over the table (a card at rest),
for face-up variants; the example above is written for it.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

import hardware_sim.camera.effects as effects
from hardware_sim.camera.frames import (
    READABLE_KINDS,
    Backdrop,
    Effects,
    Frame,
    Scene,
    backdrop,
    compose,
    develop,
    in_room,
    sample_scene,
)
from hardware_sim.cards import Deck, open_deck, parse_code

if TYPE_CHECKING:
    from hardware_sim.camera.in_shoe import InShoeCamera, PassFrame

Image = NDArray[np.uint8]

# fault kinds for inject(); all but "finger" must make a recogniser unsure
FAULTS = ("blackout", "glare", "finger", "mostly_covered", "drop")
#: "overhead": over the table, a card at rest; "in_shoe": under the shoe's window
MODES = ("overhead", "in_shoe")


class SimCamera:
    """A seeded simulated camera over one deck design."""

    def __init__(
        self,
        deck: Deck | str = "builtin",
        *,
        preset: str | Effects = "normal",
        seed: int = 0,
        size: tuple[int, int] = (640, 480),
        mode: str = "in_shoe",
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown camera mode {mode!r}; choose from {MODES}")
        self.mode = mode
        self._in_shoe: InShoeCamera | None = None
        if mode == "in_shoe":
            from hardware_sim.camera.in_shoe import in_shoe_camera

            self._in_shoe = in_shoe_camera(deck, preset=preset, seed=seed, size=size)
        self.deck = open_deck(deck) if isinstance(deck, str) else deck
        self.preset = preset
        self.size = size
        self._rng = np.random.default_rng(seed)
        self._lock = threading.Lock()
        self._faults: deque[str] = deque()
        self._code: str | None = None
        self._face_up = True
        self._shots: dict[str, tuple[Scene, Image]] = {}
        #: the table, light, focus, sensor and encoder of every shot (see the module)
        self.room: Scene = sample_scene(self._rng, preset=preset, size=size, kind="empty_table")
        self._backdrop: Backdrop | None = None
        self.truth: Frame | PassFrame | None = None
        self.frames_grabbed = 0

    def show(self, code: str | None, *, face_up: bool = True) -> None:
        """Put card ``code`` under the camera (None: take it away)."""
        with self._lock:
            self._code = parse_code(code) if code is not None else None
            self._face_up = face_up
            self._shots.clear()
            if self._in_shoe is not None:
                self._in_shoe.show(self._code)

    def warm_up(self) -> None:
        """Render every face and the room now (they are cached), so the first deal
        is not slower."""
        from hardware_sim.cards import CARD_CODES

        if self._in_shoe is not None:
            self._in_shoe.warm_up()
            return
        for code in CARD_CODES:
            self.deck.face(code)
            self.deck.mask(code)
        self.deck.back()
        self.deck.mask(None)
        with self._lock:
            if self._backdrop is None:
                self._backdrop = backdrop(self.room)

    def inject(self, kind: str, count: int = 1) -> None:
        """Make the next ``count`` grabs faulty: ``blackout`` (lens covered),
        ``glare`` (both index corners washed out), ``finger`` (one corner
        covered; still readable), ``mostly_covered`` (a hand over the card),
        ``drop`` (grab returns None)."""
        if kind not in FAULTS:
            raise ValueError(f"unknown camera fault {kind!r}; choose from {FAULTS}")
        if self._in_shoe is not None:
            self._in_shoe.check_fault(kind)
        if count < 0:
            raise ValueError("count must not be negative")
        with self._lock:
            self._faults.extend([kind] * count)

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    @property
    def pending_faults(self) -> int:
        return len(self._faults)

    def _shot(self, kind: str) -> tuple[Scene, Image]:
        """The shot of the current card for ``kind``, without sensor noise:
        sampled, composed and JPEG-compressed once per card so repeated grabs
        see the same card at rest."""
        shot = self._shots.get(kind)
        if shot is None:
            face, mask = None, None
            if self._code is not None and not self._face_up:
                face, mask = self.deck.back(), self.deck.mask(None)
            elif self._code is not None:
                face, mask = self.deck.face(self._code), self.deck.mask(self._code)
            aspect = face.shape[0] / face.shape[1] if face is not None else 1.4
            scene = in_room(
                sample_scene(self._rng, preset=self.preset, size=self.size, kind=kind,
                             aspect=aspect, card_present=face is not None),
                self.room,
            )
            if self._backdrop is None:
                self._backdrop = backdrop(self.room)
            shot = (scene, develop(scene, compose(scene, face, mask, self._backdrop)))
            self._shots[kind] = shot
        return shot

    @property
    def pass_playing(self) -> bool:
        """The in-shoe camera still has frames of a card's pass to send (the
        overhead camera never has)."""
        return self._in_shoe is not None and self._in_shoe.playing

    def grab(self) -> Image | None:
        """The next frame (BGR uint8), or None if a ``drop`` fault is due."""
        with self._lock:
            fault = self._faults.popleft() if self._faults else None
            self.frames_grabbed += 1
            if self._in_shoe is not None:
                self.truth = self._in_shoe.grab(fault)
                return None if self.truth is None else self.truth.image
            if fault == "drop":
                self.truth = None
                return None
            if fault == "blackout":
                kind = "blackout"
            elif self._code is None:
                kind = "empty_table"
            elif not self._face_up:
                kind = "card_back"
            else:
                kind = fault or "card"
            scene, shot = self._shot(kind)
            image = effects.add_noise(shot, scene.noise, self._rng)
            if image is shot:  # a noiseless sensor: still a frame of its own
                image = shot.copy()
            self.truth = Frame(
                image=image,
                code=self._code,
                corners=scene.corners,
                kind=kind,
                readable=kind in READABLE_KINDS,
                face_up=self._face_up,
                scene=scene,
            )
            return image

    def release(self) -> None:
        """Nothing to free; present so it can stand in for a real capture."""
