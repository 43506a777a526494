"""The in-shoe camera's passes kept and paired (``vision.pass_capture``), on
the simulated in-shoe camera's frames.

The expected pass is the simulator's own truth (``PassFrame.card_in_view``:
which frames show the card, an independent reference for the covered-or-empty
test), and the times are set by hand at 120 frames a second.
"""

from __future__ import annotations

from typing import Any

from hardware_sim.camera import SimCamera
from vision.in_shoe import InShoeReader
from vision.pass_capture import PassCapture

PERIOD = 1 / 120


class Live:
    """A live camera's stand-in: what ``LiveCaptureSource`` offers the capture."""

    def __init__(self) -> None:
        self.on_frame: Any = None
        self.released = False

    def grab(self) -> None:
        return None

    def release(self) -> None:
        self.released = True


def test_a_card_out_takes_the_pass_just_before_it_and_a_late_one_gets_nothing() -> None:
    cam = SimCamera("builtin", preset="normal", seed=3, mode="in_shoe")
    source = Live()
    capture = PassCapture(source)
    assert source.on_frame == capture.on_frame
    t = 0.0
    in_view: list[float] = []
    cam.show("QH")
    while cam.pass_playing:
        frame = cam.grab()
        assert frame is not None and cam.truth is not None
        if cam.truth.card_in_view:
            in_view.append(t)
        capture.on_frame(t, frame)
        t += PERIOD
    for _ in range(3):  # the card is past the window: the empty window
        capture.on_frame(t, cam.grab())
        t += PERIOD
    assert in_view
    card_out = in_view[-1] + 0.012  # 5 mm on at 0.4 m/s
    assert capture.take(card_out - 2.0, timeout=0.1) is None  # a resent card-out
    found = capture.take(card_out, timeout=1.0)
    assert found is not None
    # the pass is the frames the truth shows the card in (give or take a
    # frame at either end where only a sliver of it is in view)
    assert abs(found.start - in_view[0]) <= 2 * PERIOD + 1e-9
    assert abs(found.end - in_view[-1]) <= 2 * PERIOD + 1e-9
    assert InShoeReader().read_pass(found.frames).card == "QH"
    assert capture.take(card_out, timeout=0.1) is None  # paired once only
    assert capture.take(None) is None  # no host time: nothing
    capture.release()
    assert source.released and source.on_frame is None
