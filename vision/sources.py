"""Where frames come from: a camera, a video file or stream, or still images.

Everything that yields frames has ``grab() -> frame | None`` (None: no frame
right now, e.g. the camera dropped one or the images ran out), so the
simulator's camera plugs in without vision knowing about it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]


class ImageError(Exception):
    """An image file is missing or cannot be decoded; the message names it."""


@runtime_checkable
class CameraSource(Protocol):
    def grab(self) -> Image | None:
        """The next BGR frame, or None when none is available."""
        ...


def to_bgr(image: npt.NDArray[Any]) -> Image:
    """Any decoded image as 8-bit BGR: grey is expanded, transparency becomes white
    (clean renders of a card face often have transparent rounded corners)."""
    if image.dtype != np.uint8:
        scale = 255.0 / max(float(image.max()), 1.0) if image.dtype != np.uint16 else 1 / 257
        image = np.clip(image.astype(np.float32) * scale, 0, 255).astype(np.uint8)
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if image.shape[2] == 4:
        alpha = image[:, :, 3:4].astype(np.float32) / 255.0
        bgr = image[:, :, :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)
        return np.asarray(bgr, dtype=np.uint8)
    if image.shape[2] == 1:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    return np.asarray(image, dtype=np.uint8)


def load_image(path: str | Path) -> Image:
    """Read an image file as BGR; ImageError with a plain message on failure."""
    p = Path(path)
    if not p.exists():
        raise ImageError(f"{path}: no such file")
    if p.is_dir():
        raise ImageError(f"{path}: is a folder, not an image")
    data = np.fromfile(str(p), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED) if data.size else None
    if image is None:
        raise ImageError(f"{path}: not an image this program can read")
    return to_bgr(image)


class ImageSource:
    """Still images, one per grab (then None): for tests, the CLI and replays."""

    def __init__(self, images: Iterable[str | Path | Image]) -> None:
        self._items = list(images)
        self._next = 0

    def grab(self) -> Image | None:
        if self._next >= len(self._items):
            return None
        item = self._items[self._next]
        self._next += 1
        if isinstance(item, np.ndarray):
            return to_bgr(item)
        return load_image(item)


class VideoCaptureSource:
    """A ``cv2.VideoCapture``: a device index, a video file or a stream URL."""

    def __init__(self, source: int | str, *, width: int | None = None,
                 height: int | None = None) -> None:
        self._cap = cv2.VideoCapture(source)
        if not self._cap.isOpened():
            raise ImageError(f"cannot open camera or video {source!r}")
        if width:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def grab(self) -> Image | None:
        ok, frame = self._cap.read()
        if not ok or frame is None:
            return None
        return to_bgr(frame)

    def release(self) -> None:
        self._cap.release()

    def __enter__(self) -> VideoCaptureSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
