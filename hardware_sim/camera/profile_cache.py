"""The simulated deck's own calibrated profile, made once and kept on disk.

A real table is calibrated once for the deck it uses (``pontoon-table vision
calibrate``: one clean image of each of the 52 faces) and reads with that
profile from then on; the simulated table should behave the same way rather
than lean on the generic glyph classifier meant for unknown decks.  The
calibration images come from the same renderer the simulated camera uses
(:func:`hardware_sim.camera.frames.calibration_image`), are read by
``vision.calibrate.calibrate_images`` exactly as a dealer's photographs
would be, and the profile is cached under ``$XDG_CACHE_HOME/pontoon-table``
(``~/.cache/pontoon-table``), keyed by the deck's name and width and by the
source of both the renderer and vision's glyph reader and by the shipped glyph
model (a profile's own classifier layers are fitted on it), so changing any
recalibrates instead of reusing a stale profile.

Example::

    from hardware_sim.camera.profile_cache import deck_profile
    from vision.recognizer import Recognizer
    recognizer = Recognizer(deck_profile("builtin"))   # ~1 s the first time, ms after
    recognizer = Recognizer(camera_profile(rig.camera))  # the same, for a SimRig's camera
    reader = camera_reader(rig.camera)   # the in-shoe reader for an in-shoe camera
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

#: modules whose code decides what a calibration image looks like or how it is read
_KEY_MODULES = (
    "hardware_sim.cards.builtin",
    "hardware_sim.cards.shapes",
    "hardware_sim.cards.gnome",
    "hardware_sim.cards.fontdeck",
    "hardware_sim.cards.truetype",
    "hardware_sim.cards.layouts",
    "hardware_sim.camera.frames",
    "vision.calibrate",
    "vision.adapt",
    "vision.glyph_damage",
    "vision.blurred",
    "vision.detect",
    "vision.index",
    "vision.index_mask",
    "vision.profile",
    # a profile keeps what calibration's body reading saw (pip cards, layouts)
    "vision.pips",
    # calibration reads a corner the other way up by the recogniser's rule
    "vision.recognizer",
)

_lock = threading.Lock()
_memo: dict[tuple[str, int], Any] = {}


def cache_dir() -> Path:
    """Where profiles are kept: ``$PONTOON_CACHE_DIR``, else the XDG cache folder."""
    explicit = os.environ.get("PONTOON_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pontoon-table"


def _source_digest() -> str:
    import importlib.util

    h = hashlib.sha256()
    for name in _KEY_MODULES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        h.update(name.encode())
        if origin and os.path.exists(origin):
            h.update(Path(origin).read_bytes())
    # a profile's own classifier layers are fitted on the shipped model's hidden layers
    from importlib import resources

    h.update((resources.files("vision") / "data" / "glyph_model.npz").read_bytes())
    return h.hexdigest()[:16]


def profile_path(deck: str = "builtin", *, width: int = 250) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in deck)
    return cache_dir() / "profiles" / f"{safe}-w{width}-{_source_digest()}.npz"


def calibrate_deck(deck: str = "builtin", *, width: int = 250) -> Any:
    """Calibrate ``deck`` from its 52 clean faces (a ``vision.profile.DeckProfile``)."""
    from hardware_sim.camera.frames import calibration_image
    from hardware_sim.cards import CARD_CODES, open_deck
    from vision.calibrate import calibrate_images

    d = open_deck(deck, width=width)
    images = {code: calibration_image(d, code) for code in CARD_CODES}
    return calibrate_images(images, name=f"simulated {d.name}")


def deck_profile(deck: str = "builtin", *, width: int = 250) -> Any:
    """The calibrated profile of the simulated ``deck``: from memory, disk, or made now.

    A cache that cannot be written (read-only home) only costs the
    calibration at every start; a damaged cache file is replaced.
    """
    from vision.profile import ProfileError, load_profile

    key = (deck, width)
    with _lock:
        if key in _memo:
            return _memo[key]
        path = profile_path(deck, width=width)
        profile = None
        if path.exists():
            try:
                profile = load_profile(path)
            except ProfileError:
                profile = None
        if profile is None:
            profile = calibrate_deck(deck, width=width)
            _save(profile, path)
            # read back what was saved: templates are quantised on disk, so the
            # first run reads with exactly the profile every later run loads
            if path.exists():
                with contextlib.suppress(ProfileError):
                    profile = load_profile(path)
        _memo[key] = profile
        return profile


def camera_profile(camera: Any) -> Any:
    """The calibrated profile of a simulated camera's deck (``SimCamera.deck``);
    None for any other camera, i.e. the recogniser's generic classifier."""
    name = getattr(getattr(camera, "deck", None), "name", None)
    if not isinstance(name, str):
        return None
    from vision.profile import ProfileError

    width = getattr(camera.deck, "width", 250)
    try:
        # "builtin" and "builtin:classic" are one design: one calibration
        return deck_profile("builtin" if name == "builtin:classic" else name, width=width)
    except ProfileError:
        return None  # a design that cannot be calibrated (not a standard deck)


def camera_reader(camera: Any) -> Any:
    """The reader a table uses for a simulated camera, with its deck's profile:
    the in-shoe reader (a pass per card) for ``SimCamera(mode="in_shoe")``,
    the overhead recogniser for any other camera."""
    from vision.in_shoe import InShoeReader
    from vision.recognizer import Recognizer

    profile = camera_profile(camera)
    if getattr(camera, "mode", None) == "in_shoe":
        return InShoeReader(profile)
    return Recognizer(profile)


def _save(profile: Any, path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
        os.close(fd)
        try:
            profile.save(tmp)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        pass  # not cached; calibrated again next time
