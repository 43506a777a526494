"""The simulated camera as an IP camera (MJPEG over HTTP), read the way `run` reads
a real camera: OpenCV's FFmpeg backend through vision's newest-frame reader."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from hardware_sim.camera import SimCamera
from hardware_sim.camera.profile_cache import camera_profile
from hardware_sim.camera_stream import CameraStream
from vision.recognizer import Recognizer
from vision.sources import LiveCaptureSource, VideoCaptureSource, is_live, open_camera


@pytest.fixture(scope="module")
def camera() -> SimCamera:
    return SimCamera("builtin", seed=4, mode="overhead")


@pytest.fixture(scope="module")
def recognizer(camera: SimCamera) -> Recognizer:
    return Recognizer(camera_profile(camera))


@pytest.fixture
def stream(camera: SimCamera) -> Iterator[CameraStream]:
    camera.show(None)
    with CameraStream(camera, fps=25, extra={"/report": lambda: {"cards_out": 3}}) as s:
        yield s


def test_opencv_ffmpeg_opens_the_stream_and_reads_the_card(
    stream: CameraStream, camera: SimCamera, recognizer: Recognizer
) -> None:
    camera.show("QH")
    capture = VideoCaptureSource(stream.url)  # plain cv2.VideoCapture(url)
    try:
        frame = capture.grab()
    finally:
        capture.release()
    assert frame is not None and frame.shape == (480, 640, 3)
    assert recognizer.read(frame).card == "QH"


def test_live_source_never_returns_a_frame_older_than_the_grab(
    stream: CameraStream, camera: SimCamera, recognizer: Recognizer
) -> None:
    """The stale-buffer trap: a capture read only when a card comes out would hand
    back frames buffered while it was idle (the previous card, many times over).
    Only the one frame already on its way when the card appeared may be older;
    frame consensus then restarts its count on the frames after it."""
    source = open_camera(stream.url)
    assert isinstance(source, LiveCaptureSource)
    try:
        assert source.wait_connected(5)
        for code in ("7C", "TD", "AS"):
            camera.show(code)
            frames = [source.grab() for _ in range(3)]
            assert all(f is not None for f in frames)
            cards = [recognizer.read(f).card for f in frames if f is not None]
            assert cards[1:] == [code, code], cards
            # consecutive grabs are distinct frames (fresh sensor noise), not one frame thrice
            assert frames[0] is not frames[1] and not np.array_equal(frames[0], frames[1])
            time.sleep(0.5)  # idle while the stream keeps coming: nothing may pile up
    finally:
        source.release()


def test_live_source_reconnects_after_the_camera_comes_back(
    camera: SimCamera, recognizer: Recognizer
) -> None:
    first = CameraStream(camera, fps=25).start()
    port = first.address[1]
    source = LiveCaptureSource(first.url, timeout=0.5, open_timeout=1.0, retry=(0.1, 0.3))
    try:
        assert source.wait_connected(5)
        first.stop()
        deadline = time.monotonic() + 10
        while source.connected and time.monotonic() < deadline:
            source.grab()
        assert not source.connected
        assert source.grab() is None  # no picture: the table asks the dealer
        assert source.problem
        camera.show("5S")
        with CameraStream(camera, port=port, fps=25):
            deadline = time.monotonic() + 10
            frame = None
            while frame is None and time.monotonic() < deadline:
                frame = source.grab()
            assert frame is not None
            assert recognizer.read(frame).card == "5S"
    finally:
        source.release()
        first.stop()


def test_snapshot_url_and_extra_json(
    stream: CameraStream, camera: SimCamera, recognizer: Recognizer
) -> None:
    camera.show("KD")
    with urllib.request.urlopen(stream.snapshot_url, timeout=5) as reply:
        assert reply.headers["Content-Type"] == "image/jpeg"
        data = np.frombuffer(reply.read(), np.uint8)
    frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert recognizer.read(frame).card == "KD"
    with urllib.request.urlopen(stream.base_url + "/report", timeout=5) as reply:
        assert json.loads(reply.read()) == {"cards_out": 3}


def test_an_unwatched_camera_takes_no_frames(stream: CameraStream, camera: SimCamera) -> None:
    """Nobody watching: not one frame over a real 0.4 s (a loaded machine can
    only make the window longer, which proves more).  Watched: frames come
    (about 25 a second; only their coming is checked, not their rate)."""
    before = camera.frames_grabbed
    time.sleep(0.4)
    assert camera.frames_grabbed == before
    source = LiveCaptureSource(stream.url)
    try:
        assert source.wait_connected(5)
        deadline = time.monotonic() + 10
        while camera.frames_grabbed - before < 5 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert camera.frames_grabbed - before >= 5
    finally:
        source.release()


def test_which_sources_are_live() -> None:
    assert is_live(0) and is_live("1") and is_live("/dev/video0")
    assert is_live("http://10.0.0.5/stream.mjpg") and is_live("rtsp://cam/1")
    assert not is_live("recording.mp4") and not is_live("videos/deal-3.avi")


def test_the_in_shoe_stream_sends_the_pass_before_the_card_out_and_run_pairs_it() -> None:
    """sim-hw's in-shoe camera: the card-out waits until the stream has sent
    the card's pass (``after_pass``), so the pass the host keeps
    (``vision.pass_capture``, frames timed on arrival) ended just before it,
    within docs/hardware.md 2.7's 100 ms, and is read as the card shown."""
    import threading

    from vision.in_shoe import InShoeReader
    from vision.pass_capture import PassCapture

    cam = SimCamera("builtin", seed=6, mode="in_shoe")
    with CameraStream(cam, fps=120) as s:
        source = open_camera(s.url)
        capture = PassCapture(source)
        try:
            assert source.wait_connected(10)
            out: list[float] = []
            done = threading.Event()
            cam.show("7D")
            s.after_pass(lambda: (out.append(time.monotonic()), done.set()))
            assert done.wait(10), "the pass was never sent"
            assert not cam.pass_playing
            found = capture.take(out[0], timeout=2.0)
            assert found is not None, capture.tracker.passes
            assert -0.010 <= out[0] - found.end <= 0.100
            assert InShoeReader().read_pass(found.frames).card == "7D"
        finally:
            capture.release()
