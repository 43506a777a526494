"""The splitter's last try: the card's printed border blanked by its shape
(``vision.index_mask.strip_border``), so a glyph printed against the border (a
large "10" whose "1" touches it, as `tango` prints it) is read instead of
being dropped with the border as one frame line.  Every expected value is
worked out by hand in the test's docstring from the drawn patch, never taken
from a reading."""

from __future__ import annotations

import numpy as np

from vision.index import read_patch
from vision.index_mask import _LINE_H, _LINE_V, BORDER_BAND, CROP_H, CROP_W, strip_border


def test_the_drawn_sizes_are_the_ones_reasoned_from() -> None:
    """The reasoning below takes a 64 x 150 patch, a 9-unit band, a vertical
    border line of at least 60 units and a horizontal one of at least 32
    (half of 64)."""
    assert (CROP_W, CROP_H, BORDER_BAND, _LINE_V, _LINE_H) == (64, 150, 9, 60, 32)


def test_a_long_line_in_the_band_is_blanked_with_what_lies_outside_it() -> None:
    """A vertical line in columns 2-4, rows 4-139 (136 units, over 60) and a
    glyph (columns 5-14, rows 12-41) touching it.  The line's last column is
    4, so columns 0 to 4 + 1 = 5 are blanked (left = 6): the glyph keeps
    columns 6-14, 9 columns x 30 rows = 270 pixels; nothing else is left.
    No line runs across the top band: top = 0."""
    mask = np.zeros((150, 64), np.uint8)
    mask[4:140, 2:5] = 1
    mask[12:42, 5:15] = 1
    assert strip_border(mask) == (6, 0)
    assert int(mask[:, :6].sum()) == 0
    assert int(mask.sum()) == 270 and int(mask[12:42, 6:15].sum()) == 270


def test_a_line_across_the_top_band_is_blanked_too() -> None:
    """Rows 1-2, columns 10-60 (51 units, over 32): the last row is 2, so rows
    0 to 3 are blanked (top = 4); a glyph at rows 3-20, columns 20-29 (10 x 18
    = 180 pixels) loses its row 3 (10 pixels): 170 are left."""
    mask = np.zeros((150, 64), np.uint8)
    mask[1:3, 10:61] = 1
    mask[3:21, 20:30] = 1
    assert strip_border(mask) == (0, 4)
    assert int(mask.sum()) == 170


def test_glyph_strokes_are_not_a_border() -> None:
    """A "1" of 40 units (rows 10-49) in column 3, inside the band but shorter
    than 60; a bar of 30 units across the top band (rows 2-3, columns 10-39),
    shorter than 32; and a line of 100 units (rows 10-109) in column 9, just
    outside the band (columns 0-8): no border, and the mask is left alone."""
    mask = np.zeros((150, 64), np.uint8)
    mask[10:50, 3] = 1
    mask[2:4, 10:40] = 1
    mask[10:110, 9] = 1
    before = mask.copy()
    assert strip_border(mask) is None
    assert np.array_equal(mask, before)


def test_a_stroke_reaching_the_patch_side_is_measured_inside_it() -> None:
    """A stroke of 50 units (rows 100-149) in column 3 reaching the patch's
    foot, and a bar of 20 units (rows 2-3, columns 44-63) reaching its right
    side: both shorter than 60 and 32 within the patch, so no border (a
    morphological opening that took the outside for ink would have found
    both: 50 is over half of 60 and 20 over half of 32)."""
    mask = np.zeros((150, 64), np.uint8)
    mask[100:150, 3] = 1
    mask[2:4, 44:64] = 1
    assert strip_border(mask) is None


def _bordered_patch() -> np.ndarray:
    """A paper patch (235) with, in black (20): the card's border down columns
    1-3 from row 14 to the patch's foot (136 rows); a rank bar (columns 4-15,
    rows 12-41) touching it; a suit square (columns 8-21, rows 48-61); and the
    roof showing inside the border's rounded corner (columns 5-12, rows 0-9),
    touching neither."""
    p = np.full((CROP_H, CROP_W, 3), 235, np.uint8)
    p[14:, 1:4] = 20
    p[12:42, 4:16] = 20
    p[48:62, 8:22] = 20
    p[0:10, 5:13] = 20
    return p


def test_a_rank_printed_against_the_border_is_read() -> None:
    """Without the border blanked the rank and the border are one blob from
    row 12 to the patch's foot (dropped: it runs off the patch), and with
    columns 0-1 and rows 0-1 left out (the earlier retry) still one blob from
    row 12 to the foot; the corner's roof (10 units high, then 8) is the
    topmost mark, and the suit, 38 rows under it, is too far to be its suit.
    With the border found (its last column 3: columns 0-4 blanked, left = 5)
    the corner's roof starts at column 5 and row 0, against both the blanked
    side and the top, and is dropped; the rank is columns 5-15, rows 12-41,
    the suit columns 8-21, rows 48-61: the index's box is columns 5 to 21
    and rows 12 to 61, (5, 12, 22, 62) end exclusive; the rank is 30 units
    high and 11 wide (aspect 30 / 11) and the suit 14 high."""
    g = read_patch(_bordered_patch())
    assert g is not None
    assert g.box == (5, 12, 22, 62)
    assert g.rank_height == 30.0 and g.suit_height == 14.0
    assert g.rank_aspect == 30 / 11


def test_an_index_clear_of_the_border_is_read_as_before() -> None:
    """The rank moved clear of the border (columns 8-19) and no roof in the
    corner: on the first try the border alone is one blob running to the
    patch's foot and is dropped, and the rank (columns 8-19, rows 12-41) and
    suit (columns 8-21, rows 48-61) are read there: (8, 12, 22, 62)."""
    p = _bordered_patch()
    p[0:10, 5:13] = 235
    p[12:42, 4:16] = 235
    p[12:42, 8:20] = 20
    g = read_patch(p)
    assert g is not None and g.box == (8, 12, 22, 62)
