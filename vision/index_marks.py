"""Two index shapes whose marks the splitter (``vision.index``) must not take
at face value (issue 18, eighteenth pass; docs/vision.md).

* A "10" in old-style figures, or widely spaced: a narrow "1" set apart from
  its "0", wider in all than the 1.45 times its height that two marks on one
  line may span to be one rank.  Left apart, the "1" was read alone and the
  suit sign, centred under both, lay under neither.
* A queen whose tail is a flat stroke apart from its bowl: the first mark
  under the rank, so it was taken for the suit sign.

Plain geometry on the marks' boxes (card units), so it is cheap enough for
the splitter's inner loops.
"""

from __future__ import annotations

#: the widest "1" + "0" pair joined when the "1" is narrow (at most
#: ``NARROW_ONE`` of its height wide); any other pair stays at 1.45
WIDE_TEN, NARROW_ONE = 1.7, 0.5
#: a mark under the rank is a tail, not a suit sign, when at least this many
#: times as wide as tall (suit signs are about as wide as tall: 0.6-1.5 in
#: ``vision.index_stacked``), lying within the rank's width and starting at
#: most ``TAIL_GAP`` of the rank's height below it
TAIL_FLAT, TAIL_GAP = 2.5, 0.25


def wide_ten(width: int, rank_w: int, rank_h: int, mark_w: int, mark_h: int) -> bool:
    """Whether a rank mark and a mark on its line, ``width`` across together,
    are the two halves of a "10" set apart: one of them a narrow "1"."""
    return (width <= WIDE_TEN * max(rank_h, mark_h)
            and min(rank_w, mark_w) <= NARROW_ONE * min(rank_h, mark_h))


def rank_tail(rank: tuple[int, int, int, int], mark: tuple[int, int, int, int]) -> bool:
    """Whether ``mark`` (x, y, w, h) under the rank's box ``rank`` (x0, y0,
    x1, y1) is a flat stroke of the rank, not its suit sign."""
    rx0, ry0, rx1, ry1 = rank
    x, y, w, h = mark
    return (w >= TAIL_FLAT * h and y - ry1 <= TAIL_GAP * (ry1 - ry0)
            and x >= rx0 - 1 and x + w <= rx1 + 1)
