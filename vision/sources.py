"""Where frames come from: a camera, a video file or stream, or still images.

Everything that yields frames has ``grab() -> frame | None`` (None: no frame
right now, e.g. the camera dropped one or the images ran out), so the
simulator's camera plugs in without vision knowing about it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
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


#: schemes of network cameras that OpenCV's FFmpeg backend opens
_STREAM_SCHEMES = ("http://", "https://", "rtsp://", "rtsps://", "tcp://", "udp://", "rtmp://")


def is_live(source: int | str) -> bool:
    """A camera rather than a recording: a device index, a ``/dev/`` path or a stream URL."""
    if isinstance(source, int):
        return True
    text = source.strip()
    return text.isdigit() or text.startswith("/dev/") or text.lower().startswith(_STREAM_SCHEMES)


class LiveCaptureSource:
    """A live camera read by a background thread that keeps only the newest frame.

    Why a thread: ``cv2.VideoCapture`` hands out frames in the order they were
    buffered (FFmpeg's network buffer, V4L2's queue), so a capture read only
    when a card comes out returns frames seconds old: the previous card.
    Here a reader drains the capture all the time and :meth:`grab` returns the
    first frame that *arrives after* the call, so nothing buffered while idle
    is ever read, and consecutive grabs are distinct frames (frame consensus
    then means something).  Only the one frame already on its way when the
    card appeared can be older; ``FrameConsensus`` restarts its count on it.

    A camera that cannot be opened or stops sending is reopened with backoff;
    meanwhile :meth:`grab` returns None after ``timeout`` seconds (the table
    then asks the dealer) and :attr:`problem` says why, in plain words.
    """

    def __init__(
        self,
        source: int | str,
        *,
        timeout: float = 1.0,
        open_timeout: float = 5.0,
        retry: tuple[float, float] = (0.2, 5.0),
    ) -> None:
        self.source: int | str = int(source) if isinstance(source, str) and source.isdigit() \
            else source
        self.timeout = timeout
        self.open_timeout = open_timeout
        self.retry = retry
        self.problem: str | None = "not opened yet"
        self.frames_read = 0
        #: called in the reader thread with (time.monotonic() on arrival, frame)
        #: for every frame (``vision.pass_capture``: the in-shoe camera's passes)
        self.on_frame: Callable[[float, Image], None] | None = None
        self._cond = threading.Condition()
        self._frame: Image | None = None
        self._seq = 0
        self._connected = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._reader, name="camera-reader", daemon=True)
        self._thread.start()

    @property
    def connected(self) -> bool:
        return self._connected

    def wait_connected(self, timeout: float) -> bool:
        """True once a first frame has arrived (within ``timeout`` seconds)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._seq > 0, timeout)

    def _open(self) -> Any:
        ms = int(self.open_timeout * 1000)
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms]
        return cv2.VideoCapture(self.source, cv2.CAP_ANY, params)

    def _reader(self) -> None:
        delay = self.retry[0]
        while not self._stop.is_set():
            cap = self._open()
            if not cap.isOpened():
                cap.release()
                self.problem = f"cannot open camera {self.source!r}; retrying"
                self._stop.wait(delay)
                delay = min(delay * 2, self.retry[1])
                continue
            try:
                while not self._stop.is_set():
                    ok, frame = cap.read()
                    if not ok or frame is None:
                        self.problem = f"camera {self.source!r} stopped sending; reconnecting"
                        break
                    arrived = time.monotonic()
                    image = to_bgr(frame)
                    if self.on_frame is not None:
                        self.on_frame(arrived, image)
                    with self._cond:
                        self._frame = image
                        self._seq += 1
                        self.frames_read += 1
                        self._connected = True
                        self.problem = None
                        self._cond.notify_all()
                    delay = self.retry[0]
            finally:
                cap.release()
                self._connected = False
            self._stop.wait(delay)

    def grab(self) -> Image | None:
        with self._cond:
            start = self._seq
            if not self._cond.wait_for(
                lambda: self._seq > start or self._stop.is_set(), self.timeout
            ):
                return None
            return None if self._stop.is_set() else self._frame

    def release(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        self._thread.join(timeout=self.open_timeout + 1)

    def __enter__(self) -> LiveCaptureSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def open_camera(source: int | str) -> LiveCaptureSource | VideoCaptureSource:
    """The right source for a configured camera: live cameras and streams get the
    newest-frame reader; a recorded video file is read frame by frame."""
    if is_live(source):
        return LiveCaptureSource(source)
    return VideoCaptureSource(source)
