"""The low-resolution bitmap deck: faces the inner deck's size, built of pixel
blocks (nearest) or smooth ramps (linear) of the shrunken art.  Expected block
sizes come from the arithmetic of the scale (250 / 48 ~ 5.2 px), not from the code."""

from __future__ import annotations

import numpy as np
import pytest

from hardware_sim.cards import open_deck
from hardware_sim.cards.lowres import LowResDeck, parse_name


def test_name_parsing_keeps_colons_of_the_inner_design() -> None:
    spec = parse_name("lowres:builtin:duplex:48:linear")
    assert (spec.inner, spec.source_width, spec.interpolation) == ("builtin:duplex", 48, "linear")
    assert parse_name("lowres:tango:72").interpolation == "nearest"
    for bad in ("lowres:tango", "lowres:tango:x", "lowres:48", "lowres:tango:4"):
        with pytest.raises(ValueError):
            parse_name(bad)


@pytest.mark.parametrize("interp", ["nearest", "linear"])
def test_faces_and_masks_keep_the_inner_size(interp: str) -> None:
    inner = open_deck("builtin:duplex")
    deck = open_deck(f"lowres:builtin:duplex:48:{interp}")
    assert isinstance(deck, LowResDeck)
    assert deck.face("TD").shape == inner.face("TD").shape
    assert deck.mask("TD").shape == inner.mask("TD").shape
    assert deck.back().shape == inner.back().shape


def _runs(row: np.ndarray) -> list[int]:
    """Lengths of runs of equal pixels along a row of a face."""
    change = np.flatnonzero(np.any(row[1:] != row[:-1], axis=-1)) + 1
    edges = np.concatenate([[0], change, [len(row)]])
    return list(np.diff(edges))


def test_nearest_is_made_of_pixel_blocks() -> None:
    face = open_deck("lowres:builtin:duplex:48").face("TD")
    # 250 px from 48: every source pixel spans 5 or 6 camera pixels, so no
    # run of equal pixels is shorter than 5 and at most 48 distinct columns.
    for y in range(0, face.shape[0], 17):
        runs = _runs(face[y])
        assert min(runs) >= 5 and len(runs) <= 48
    sharp = open_deck("builtin:duplex").face("TD")
    assert min(min(_runs(sharp[y])) for y in range(0, sharp.shape[0], 17)) < 5


def test_linear_is_smooth_not_blocky() -> None:
    face = open_deck("lowres:builtin:duplex:48:linear").face("TD").astype(int)
    # A bilinear ramp between source pixels: edges spread over ~5 px in steps
    # (runs shorter than a 5-px block), each step a fraction of the hard edge's.
    rows = range(0, face.shape[0], 17)
    assert min(min(_runs(face[y].astype(np.uint8))) for y in rows) < 5
    nearest = open_deck("lowres:builtin:duplex:48").face("TD").astype(int)
    step_lin = np.abs(np.diff(face, axis=1)).max()
    step_near = np.abs(np.diff(nearest, axis=1)).max()
    assert step_lin < step_near
