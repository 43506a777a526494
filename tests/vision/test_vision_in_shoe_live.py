"""The live in-shoe path reads the whole pass, as ``pontoon-table run``'s
paired-pass path does (``InShoeReader.read_live`` and ``read_pass``;
docs/vision.md, twentieth pass, third change).

Passes come from the simulator's in-shoe renderer over the built-in deck;
the live path is fed the same frames, then the empty window, and must read
every frame of the card and name the pass exactly as ``read_pass`` does."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from hardware_sim.camera.in_shoe import InShoeRenderer
from vision.in_shoe import PASS_TAIL, InShoeReader

Image = npt.NDArray[np.uint8]


@pytest.fixture(scope="module")
def reader() -> InShoeReader:
    return InShoeReader()


def _pass_and_empty(code: str, k: int, preset: str) -> tuple[list[Image], Image]:
    renderer = InShoeRenderer("builtin", preset=preset, seed=9)
    rng = np.random.default_rng(k)
    plan = renderer.plan(code, rng, lead="top" if k % 2 else "bottom")
    frames = renderer.render_pass(plan, rng)
    empty = next(f.image for f in frames if not f.card_in_view)
    last = max(i for i, f in enumerate(frames) if f.card_in_view)
    return [f.image for f in frames[: last + 1]], empty


class _Camera:
    """Hands out the given frames, then nothing, counting the grabs."""

    def __init__(self, frames: list[Image]) -> None:
        self._frames = iter(frames)
        self.grabbed = 0

    def grab(self) -> Image | None:
        self.grabbed += 1
        return next(self._frames, None)


@pytest.mark.parametrize(("code", "preset"), [
    ("QS", "normal"), ("7D", "normal"), ("AH", "hard"), ("KC", "hard"), ("9S", "hard"),
])
def test_the_live_path_reads_every_frame_and_names_the_pass_as_the_whole_pass_does(
        reader: InShoeReader, code: str, preset: str) -> None:
    for k in range(2):
        frames, empty = _pass_and_empty(code, k, preset)
        camera = _Camera([*frames, *[empty] * PASS_TAIL])
        live = reader.read_live(camera.grab)
        grabbed = camera.grabbed
        whole = reader.read_pass(frames)
        # not one frame of the card left unread (its last frames, the card's
        # edge leaving, may already count as the empty window)
        assert len(frames) <= grabbed <= len(frames) + PASS_TAIL
        assert (live.card, live.used, live.reason) == (whole.card, whole.used, whole.reason)
        assert live.card in (code, None)
