"""Where a rank glyph's loop sits: what tells a 6 from a 9 (issue 18, item 3).

The index's geometry (rank above suit, at the card's corner) fixes which
way is up before the glyph is named, so a glyph's largest closed loop,
low for a 6 and high for a 9 in any typeface, decides between them where a
classifier trained on shapes could be fooled by a turned glyph.  Split out of
``vision.index``, which re-exports it.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]


def loop_height(rank_ink: FloatArray) -> float | None:
    """Where the rank glyph's largest closed loop sits, from its top (0) to its
    bottom (1); None when it has no clear loop (blur closed it, or the glyph
    has none).  A 6 has its loop low, a 9 high, in any typeface: the index's
    geometry (rank above suit, at the card's corner) fixes which way is up, so
    this tells them apart whatever the glyphs look like."""
    h, w = rank_ink.shape
    if h < 8 or w < 4:
        return None
    mask = cv2.copyMakeBorder(np.asarray(rank_ink > 0.5, np.uint8), 1, 1, 1, 1,
                              cv2.BORDER_CONSTANT, value=0)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return None
    best, best_area = None, 0.0
    for c, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True):
        if parent < 0:
            continue  # an outer outline, not a hole
        area = cv2.contourArea(c)
        if area > best_area:
            best, best_area = c, area
    # a hole of a couple of pixels is a JPEG speck in a thick stroke, not a loop
    if best is None or best_area < max(2.0, 0.015 * h * w):
        return None
    m = cv2.moments(best)
    if m["m00"] <= 0:
        return None
    return float((m["m01"] / m["m00"] - 1) / h)
