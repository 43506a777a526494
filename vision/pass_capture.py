"""The in-shoe camera kept for pairing: every frame, timestamped on arrival,
split into passes (:mod:`vision.passes`, ``docs/hardware.md`` section 2.7).

A live camera's reader thread (:class:`vision.sources.LiveCaptureSource`)
hands each frame to :meth:`PassCapture.on_frame` with ``time.monotonic()`` at
its arrival (the clock the firmware bridge maps ``device_ms`` to).  Here each
frame is only told covered or empty (``find_pose``'s first, cheap step:
about 0.6 ms a frame, 8 % of one core at 120 fps; a full read would be 2 ms,
23 %, measured by ``benchmarks/in_shoe_capture_bench.py``); only the covered
frames of the last second are kept, and the card is read from the frames of
the pass paired with its CARD_OUT, once.

Example::

    capture = PassCapture(open_camera(url))   # starts keeping passes
    p = capture.take(t_card_out)              # the paired Pass, or None
    reading = InShoeReader().read_pass(p.frames)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.geometry import IN_SHOE, InShoeGeometry
from vision.in_shoe_pose import EMPTY, find_pose
from vision.passes import Pass, PassTracker

Image = npt.NDArray[np.uint8]

#: seconds a CARD_OUT waits for the frames after it (a pass still open, a late frame)
SETTLE_TIMEOUT = 0.5


def window_covered(frame: Image, geometry: InShoeGeometry = IN_SHOE) -> bool:
    """Whether a card covers the window (the pose search does not say the
    window is empty); a frame of another size is scaled by ``find_pose``."""
    pose = find_pose(frame, geometry)
    return getattr(pose, "reason", None) != EMPTY


class PassCapture:
    """Keeps a live in-shoe camera's passes for pairing (see the module).

    ``source`` must offer ``on_frame`` (a live camera); it stays usable as a
    camera (``grab``) and is released with this.
    """

    def __init__(
        self,
        source: Any,
        *,
        tracker: PassTracker[Image] | None = None,
        covered: Callable[[Image], bool] = window_covered,
    ) -> None:
        if not hasattr(source, "on_frame"):
            raise ValueError("the in-shoe camera's passes need a live camera (a device or a URL)")
        self.source = source
        self.tracker: PassTracker[Image] = tracker or PassTracker()
        self.covered = covered
        self._cond = threading.Condition()
        #: frames seen, and milliseconds spent telling covered from empty
        self.frames = 0
        self.ms = 0.0
        source.on_frame = self.on_frame

    def on_frame(self, t: float, frame: Image) -> None:
        start = time.perf_counter()
        covered = self.covered(frame)
        self.ms += (time.perf_counter() - start) * 1000
        with self._cond:
            self.frames += 1
            self.tracker.add(t, covered, frame)
            self._cond.notify_all()

    def take(self, t: float | None, timeout: float = SETTLE_TIMEOUT) -> Pass[Image] | None:
        """The pass of the CARD_OUT at host time ``t`` (None: unknown), once the
        frames after it have come (at most ``timeout`` seconds), or None."""
        if t is None:
            return None
        with self._cond:
            self._cond.wait_for(lambda: self.tracker.settled(t), timeout)
            return self.tracker.pair(t)

    def grab(self) -> Image | None:
        frame: Image | None = self.source.grab()
        return frame

    def release(self) -> None:
        self.source.on_frame = None
        release = getattr(self.source, "release", None)
        if release is not None:
            release()
