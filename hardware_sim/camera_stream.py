"""The simulated camera served the way an IP camera serves itself: MJPEG over HTTP.

``pontoon-table sim-hw`` runs the emulated devices in their own process; the
controller in another process must open the camera exactly as it opens a real
one (``cv2.VideoCapture(url)`` through ``vision.sources``), not by calling
the simulator.  Most IP and USB-to-network cameras offer two URLs, and so does
this one:

* ``/stream.mjpg`` — ``multipart/x-mixed-replace`` JPEG frames at a fixed rate
  (what OpenCV's FFmpeg backend and browsers open);
* ``/snapshot.jpg`` — one fresh JPEG per request.

Frames are taken from the :class:`~hardware_sim.camera.SimCamera` at ``fps``
(each with fresh sensor noise, faults consumed frame by frame, as a real
sensor would show them) only while somebody watches: an idle simulator costs
no CPU.  Every viewer gets the newest frame; a slow viewer skips frames rather
than fall behind, which is what a camera does too.

``extra`` routes serve small JSON documents beside the video (``sim-hw`` uses
``/report`` so a test can see what the simulated hands did).

Example::

    from hardware_sim.camera import SimCamera
    from hardware_sim.camera_stream import CameraStream

    with CameraStream(SimCamera("builtin", mode="overhead"), fps=25) as stream:
        stream.url            # http://127.0.0.1:NNNNN/stream.mjpg
        stream.snapshot_url   # http://127.0.0.1:NNNNN/snapshot.jpg
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import cv2
import numpy as np

BOUNDARY = "pontoonframe"
#: empty-window frames sent after a pass before its CARD_OUT (the card's 5 mm
#: from the window to the exit beam, and the two empty frames that end a pass)
AFTER_PASS_FRAMES = 2
#: frames a viewer may wait for before the stream is taken as stalled
_STALL_SECONDS = 5.0


class CameraStream:
    """Serve ``camera.grab()`` frames as MJPEG (and snapshots) on ``host:port``."""

    def __init__(
        self,
        camera: Any,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        fps: float = 25.0,
        quality: int = 90,
        extra: Mapping[str, Callable[[], Any]] | None = None,
    ) -> None:
        if fps <= 0:
            raise ValueError("fps must be positive")
        self.camera = camera
        self.fps = fps
        self.quality = quality
        self.extra = dict(extra or {})
        self._cond = threading.Condition()
        self._jpeg: bytes | None = None
        self._seq = 0
        self._viewers = 0
        self._stopping = threading.Event()
        self.frames_sent = 0
        self._server = ThreadingHTTPServer((host, port), self._handler_class())
        self._server.daemon_threads = True
        self._threads: list[threading.Thread] = []
        #: called once the pass now playing has been sent, and TAIL frames after it
        self._after_pass: list[Callable[[], None]] = []
        self._tail = 0

    # -- addresses -------------------------------------------------------------------
    @property
    def address(self) -> tuple[str, int]:
        host, port = self._server.server_address[:2]
        return str(host), int(port)

    @property
    def base_url(self) -> str:
        host, port = self.address
        return f"http://{host}:{port}"

    @property
    def url(self) -> str:
        return self.base_url + "/stream.mjpg"

    @property
    def snapshot_url(self) -> str:
        return self.base_url + "/snapshot.jpg"

    # -- life cycle ------------------------------------------------------------------
    def start(self) -> CameraStream:
        if self._threads:
            return self
        for name, target in (("camera-http", self._server.serve_forever),
                             ("camera-sensor", self._sensor)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        self._stopping.set()
        with self._cond:
            self._cond.notify_all()
        if self._threads:
            self._server.shutdown()
        self._server.server_close()
        for thread in self._threads:
            thread.join(timeout=2)
        self._threads.clear()

    def __enter__(self) -> CameraStream:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- frames ----------------------------------------------------------------------
    def after_pass(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` (from the sensor's thread) once the in-shoe camera's pass
        now playing has been sent, and ``AFTER_PASS_FRAMES`` frames of the
        empty window after it: the card has cleared the window and reached the
        exit beam 5 mm on (docs/hardware.md section 2.7).  With nobody
        watching, no frame is sent: ``fn`` runs at the next idle check."""
        with self._cond:
            self._after_pass.append(fn)
            self._tail = 0

    def _passes_sent(self, idle: bool) -> None:
        with self._cond:
            if not self._after_pass:
                return
            if not idle and getattr(self.camera, "pass_playing", False):
                return
            self._tail += 1
            if not idle and self._tail <= AFTER_PASS_FRAMES:
                return
            waiting, self._after_pass, self._tail = self._after_pass, [], 0
        for fn in waiting:
            fn()

    def _encode(self, frame: np.ndarray[Any, Any] | None) -> bytes:
        if frame is None:
            # A dropped frame: a real camera sends nothing new; keep the stream's
            # rhythm with a black frame so no viewer mistakes an old card for now.
            frame = np.zeros((480, 640, 3), np.uint8)
        ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        if not ok:
            raise RuntimeError("the simulated camera's frame could not be encoded")
        return bytes(jpeg.tobytes())

    def _sensor(self) -> None:
        """Take a frame every 1/fps seconds while anybody watches."""
        period = 1.0 / self.fps
        next_at = time.monotonic()
        while not self._stopping.is_set():
            with self._cond:
                while self._viewers == 0 and not self._stopping.is_set():
                    self._cond.wait(0.5)
                    next_at = time.monotonic()
                    if self._viewers == 0 and self._after_pass:
                        self._cond.release()
                        try:
                            self._passes_sent(idle=True)
                        finally:
                            self._cond.acquire()
            if self._stopping.is_set():
                return
            jpeg = self._encode(self.camera.grab())
            with self._cond:
                self._jpeg = jpeg
                self._seq += 1
                self._cond.notify_all()
            self._passes_sent(idle=False)
            next_at += period
            delay = next_at - time.monotonic()
            if delay > 0:
                self._stopping.wait(delay)
            else:
                next_at = time.monotonic()  # fell behind: do not try to catch up

    def next_frame(self, after: int, timeout: float = _STALL_SECONDS) -> tuple[int, bytes] | None:
        """The first frame newer than ``after`` (sequence number, JPEG), or None."""
        with self._cond:
            self._viewers += 1
            self._cond.notify_all()
            try:
                ready = self._cond.wait_for(
                    lambda: self._seq > after or self._stopping.is_set(), timeout
                )
                if not ready or self._stopping.is_set() or self._jpeg is None:
                    return None
                return self._seq, self._jpeg
            finally:
                self._viewers -= 1

    # -- HTTP ------------------------------------------------------------------------
    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        stream = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"
            server_version = "pontoon-sim-camera/1"

            def log_message(self, format: str, *args: Any) -> None:
                pass  # a camera does not log every request

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                if path in ("/stream.mjpg", "/video", "/"):
                    self._stream()
                elif path in ("/snapshot.jpg", "/snapshot"):
                    self._snapshot()
                elif path in stream.extra:
                    self._json(stream.extra[path]())
                else:
                    self.send_error(404, "no such camera URL: try /stream.mjpg")

            def _json(self, value: Any) -> None:
                body = json.dumps(value).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _snapshot(self) -> None:
                frame = stream.next_frame(stream._seq)
                if frame is None:
                    self.send_error(503, "the camera has no frame")
                    return
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")
                self.send_header("Content-Length", str(len(frame[1])))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(frame[1])

            def _stream(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type",
                                 f"multipart/x-mixed-replace; boundary={BOUNDARY}")
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                seq = stream._seq
                try:
                    while True:
                        frame = stream.next_frame(seq)
                        if frame is None:
                            return
                        seq, jpeg = frame
                        head = (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                                f"Content-Length: {len(jpeg)}\r\n\r\n").encode()
                        self.wfile.write(head + jpeg + b"\r\n")
                        self.wfile.flush()
                        stream.frames_sent += 1
                except (BrokenPipeError, ConnectionResetError, TimeoutError):
                    return  # the viewer went away

        return Handler
