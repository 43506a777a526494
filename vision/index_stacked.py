"""Part a rank from the suit sign under it when blur has joined the two.

A tall, condensed index face (a rank about twice as tall as wide) sets
its suit sign a few card units under the rank; a blurred frame fills that
gap with ink at every level the splitter (``vision.index``) cuts at, and
the index is one tall blob with no mark below it: "no index visible".  The
gap is still the lightest row between the rank's ink and the sign's: down
the blob, the darkest ink of each row rises there and falls again.  This
cuts such a blob along that row, in place, so the splitter sees a rank
above a suit sign.  A glyph whose strokes cross in the middle (an "8")
is darkest there, not lighter, and is not cut.  Tried only after every
other try failed, so what was read before is read the same way.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.index_mask import CROP_H, CROP_W

#: How much lighter than the darker of the two marks' darkest ink the gap's
#: darkest ink must be, as a share of the corner's contrast (paper minus
#: darkest ink): blurred gaps between a rank and its suit sign on the
#: training frames looked at rise 0.18-0.39.
GAP_RISE = 0.15
#: the shortest rank (card units, as ``vision.index._split``) and suit sign
#: (its ``b[3] >= 5``) a cut may leave
MIN_RANK, MIN_SUIT = 8, 5
#: a blob shorter than this many times its width is no rank-over-suit pair
#: of a condensed face (a rank alone is up to about 2.5 times as tall as
#: wide, so this test alone proves nothing: the gap must be there too)
MIN_TALL = 1.5
#: the part under the cut is a suit sign: about as tall as wide, with room
#: for blur and for the bridge of ink left under the cut
SUIT_ASPECT = (0.6, 1.5)
#: the sign's height over the rank's: 0.45-0.86 on every training face
#: measured (font decks set the cap height to one size, 28 units, and a Q's
#: or J's tail reaches 40; the signs are 17-19), so a cut leaving a sign as
#: tall as the part above it halves one glyph, and one leaving a sliver
#: under a tall part takes a piece of the sign for the rank (a club's top
#: lobe with a "2" over it would pass for an "8")
SUIT_OVER_RANK = (0.45, 1.0)


def may_part(x: int, y: int, w: int, h: int) -> bool:
    """Whether a blob at ``x, y``, ``w`` by ``h``, may be a rank and sign
    joined (:func:`cut_stacked` looks at no other): tall enough for both,
    taller than wide, where an index starts, not running off the patch.
    (Not bounded above: a jumbo Q whose tail meets its heart is one blob
    longer than half the patch, which the splitter drops as a frame line.)"""
    return (h >= MIN_RANK + MIN_SUIT + 1 and h >= MIN_TALL * w and x < 0.45 * CROP_W
            and y < 0.4 * CROP_H and x + w < CROP_W and y + h < CROP_H)


def cut_stacked(
    mask: npt.NDArray[np.uint8], minch: npt.NDArray[np.uint8], contrast: float
) -> list[int]:
    """Cut, in place, each tall blob of ``mask`` near the index's corner
    that has a light row between a rank-sized part and a suit-sized part
    under it (see the module).  ``minch``: the flattened patch ``mask`` was
    cut from; ``contrast``: its paper's level minus its darkest ink's.
    Returns the rows cut (empty: the mask is unchanged)."""
    _, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_GRANA
    )
    smooth: npt.NDArray[np.int32] | None = None
    cuts: list[int] = []
    for i, (x, y, w, h, area) in enumerate(stats.tolist()):
        if i == 0 or area < 6 or not may_part(x, y, w, h):
            continue
        if smooth is None:
            smooth = np.asarray(cv2.GaussianBlur(minch, (3, 3), 0), np.int32)
        own = labels[y : y + h, x : x + w] == i
        darkest = np.where(own, smooth[y : y + h, x : x + w], 255).min(axis=1)
        above = np.minimum.accumulate(darkest)  # darkest ink in rows 0..s
        below = np.minimum.accumulate(darkest[::-1])[::-1]  # rows s..h-1
        best, best_rise = None, GAP_RISE * contrast
        for s in range(MIN_RANK, h - MIN_SUIT):
            rise = int(darkest[s]) - max(int(above[s - 1]), int(below[s + 1]))
            if rise < best_rise:
                continue
            suit_h = h - s - 1
            if not SUIT_OVER_RANK[0] * s <= suit_h <= SUIT_OVER_RANK[1] * s:
                continue
            suit_cols = np.flatnonzero(own[s + 1 :].any(axis=0))
            suit_w = int(suit_cols[-1] - suit_cols[0] + 1)
            if SUIT_ASPECT[0] * suit_w <= suit_h <= SUIT_ASPECT[1] * suit_w:
                best, best_rise = s, rise
        if best is not None:
            row = mask[y + best, x : x + w]
            row[own[best]] = 0
            cuts.append(y + best)
    return cuts
