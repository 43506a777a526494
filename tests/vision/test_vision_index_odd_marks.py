"""Issue 18, eighteenth pass: two index shapes the splitter cut wrong.

* A "10" in old-style figures: a narrow "1" set well apart from a round "0"
  (Fanwood Text's, 26 card units wide for 17 tall), wider than the 1.45
  times its height the splitter joined, so the "1" was read alone and the
  suit sign, centred under both, lay under neither: "no index visible".
* A queen whose tail is a flat stroke apart from its bowl (Romande ADF's):
  the tail, the first mark under the rank, was taken for the suit sign.

The corners are drawn here as plain shapes on paper at the sizes measured on
those faces' clean cards (boxes in card units, as ``vision.index._boxes``
finds them); the expected glyph sizes are those drawn boxes, counted by hand,
not read from the code under test.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

import vision.index as vision_index
from vision.index import read_patch
from vision.index_mask import CROP_H, CROP_W

INK = (20, 20, 200)  # a red index (B, G, R)


def _paper() -> npt.NDArray[np.uint8]:
    return np.full((CROP_H, CROP_W, 3), 245, np.uint8)


def _diamond(img: npt.NDArray[np.uint8], x: int, y: int, w: int, h: int) -> None:
    pts = np.array([[x + w // 2, y], [x + w - 1, y + h // 2], [x + w // 2, y + h - 1],
                    [x, y + h // 2]], np.int32)
    cv2.fillPoly(img, [pts], INK)


def _old_style_ten() -> npt.NDArray[np.uint8]:
    """"1" 6 x 17 at (9, 21), "0" about 13 x 15 at (23, 22), a diamond 13 x 19 at (16, 41):
    the pair 27 units wide, 1.6 times the "1"'s height."""
    img = _paper()
    cv2.rectangle(img, (10, 21), (13, 37), INK, -1)            # the 1's stem, 4 wide
    cv2.rectangle(img, (9, 21), (14, 23), INK, -1)             # its flag: 6 wide in all
    cv2.ellipse(img, (29, 29), (5, 6), 0, 0, 360, INK, 2)      # the 0: x 23-35, y 22-36
    _diamond(img, 16, 41, 13, 19)
    return img


def _queen_with_a_tail() -> npt.NDArray[np.uint8]:
    """A Q's bowl 26 x 29 at (9, 9), its tail 18 x 6 at (17, 40), a diamond at (13, 49)."""
    img = _paper()
    cv2.ellipse(img, (22, 23), (12, 13), 0, 0, 360, INK, 4)    # x 9-35, y 9-37
    cv2.rectangle(img, (17, 40), (34, 45), INK, -1)             # flat: 18 x 6
    _diamond(img, 13, 49, 19, 19)
    return img


def _ordinary() -> npt.NDArray[np.uint8]:
    """A "7"-like rank 14 x 20 at (10, 14) and a diamond 14 x 16 right under it:
    a sign about as wide as tall stays the sign."""
    img = _paper()
    cv2.rectangle(img, (10, 14), (23, 17), INK, -1)
    cv2.line(img, (22, 16), (14, 33), INK, 3)
    _diamond(img, 10, 37, 14, 16)
    return img


def test_an_old_style_ten_is_read_as_one_rank_over_its_sign() -> None:
    g = read_patch(_old_style_ten())
    assert g is not None
    # the rank is the "1" and the "0" together: 27 units wide (9 to 35), 17 tall
    assert g.rank_ink.shape[1] >= 25
    assert 15 <= g.rank_height <= 19
    assert 17 <= g.suit_height <= 21


def test_without_the_rule_the_ten_showed_no_index(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vision_index, "ODD_MARKS", False)
    g = read_patch(_old_style_ten())
    assert g is None or g.rank_ink.shape[1] < 12  # nothing, or the "1" alone


def test_a_queens_flat_tail_joins_the_queen_and_the_sign_is_below_it() -> None:
    g = read_patch(_queen_with_a_tail())
    assert g is not None
    assert 35 <= g.rank_height <= 39   # bowl and tail: y 9 to 45
    assert 17 <= g.suit_height <= 21   # the diamond, not the 6-unit tail


def test_without_the_rule_the_tail_was_taken_for_the_sign(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vision_index, "ODD_MARKS", False)
    g = read_patch(_queen_with_a_tail())
    assert g is not None and g.suit_height <= 8


def test_a_sign_about_as_wide_as_tall_under_the_rank_stays_the_sign() -> None:
    g = read_patch(_ordinary())
    assert g is not None
    assert 18 <= g.rank_height <= 22
    assert 14 <= g.suit_height <= 18
