"""In the shoe, the ranks a card's body allows: what the pips said over a pass.

A pass whose index frames all lean the same way, but weakly (a display face
the rank networks half know), is named only when its card leads the cards
still possible by the pass margin once each end's frames count as
correlated (``vision.in_shoe.PassFusion``).  Its runner-up is often a card
the pips have already excluded: an ace against a 4 whose band showed a 4's
side pips, a 7 against a 4 whose middle showed no pip on its axis.  The
pips are printed in the suit's shape, not in the index's typeface, so they
are no weaker on a display face; a rival they exclude should not hold the
pass back.  The fusion asks this only for a card its frames' own reader
chose at least twice: a sum of frames that each refused can lean to a card
the index never named (Sedgwick Ave Display's 8 summed to a 5), and the
body's help must not turn that lean into a name (docs/vision.md,
forty-fourth and forty-fifth passes).

The middle says the most in the frames that see the card's centre: a 6 to
a 10 print side pips beside it, an ace to a 5 none (``central_looks`` picks
those frames from the middle's run).

Each verdict needs ``BODY_FRAMES`` frames that agree and none that
disagree, as one frame's look at the band or the middle can be wrong (an
ace's big pip showed side pips on 42 of 16,941 band frames, never twice in
a pass: forty-second pass).

Pure: counts in, ranks out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.cards import CARD_CODES
from vision.in_shoe_middle import AXIS_WITHHOLD

#: frames that must show the same thing before the body rules ranks out
BODY_FRAMES = 2
#: every rank, as the first letter of a card code
RANKS = frozenset("A23456789TJQK")
#: a band with side pips (a 4's to a 10's top row) allows these alone
SIDE_PIP_RANKS = frozenset("456789T")
#: a band with a lone pip on the axis (a 2's or a 3's) allows these alone
#: (an ace's big pip may stand in it)
LONE_PIP_RANKS = frozenset("A23")
#: a middle with no ink on its axis rules these out (the forty-third pass's
#: withholding set)
AXIS_RANKS = frozenset(c[0] for c in AXIS_WITHHOLD)
#: a middle with ink on its axis in every frame rules these out: their
#: middles print side columns only (a 2's middle shows its pips on the axis,
#: and an 8's may or may not: neither is here)
CLEAN_AXIS_RANKS = frozenset("46")
#: a card's centre with no side pips beside it rules these out: they print
#: side pips there (the 6's to 8's middle row, the 9's and 10's inner rows;
#: development data: every central middle of their passes showed them,
#: docs/vision.md, forty-fifth pass)
CENTRE_SIDE_RANKS = frozenset("6789T")
#: the frames of the middle's run that see the card's centre: those this many
#: places or fewer from the run's middle (the card slides about 2.5 mm a
#: frame at 300 mm/s and 120 fps)
CENTRE_REACH = 1


@dataclass(frozen=True)
class BodySeen:
    """What a pass's frames showed of the card's body."""

    #: band frames that showed side pips, and a lone pip
    side_pips: int = 0
    lone_pip: int = 0
    #: middle frames that could tell whether the axis has ink, and those with ink
    middles: int = 0
    middles_with_axis_ink: int = 0
    #: central frames of the middle's run that could tell whether side pips
    #: reach the card's centre row, and those where they did
    centres: int = 0
    centres_with_side_ink: int = 0


def ranks_allowed(seen: BodySeen) -> frozenset[str]:
    """The ranks the body leaves possible (every rank when it said nothing)."""
    ranks = RANKS
    if seen.side_pips >= BODY_FRAMES and seen.lone_pip == 0:
        ranks &= SIDE_PIP_RANKS
    elif seen.lone_pip >= BODY_FRAMES and seen.side_pips == 0:
        ranks &= LONE_PIP_RANKS
    if seen.middles >= BODY_FRAMES:
        if seen.middles_with_axis_ink == 0:
            ranks -= AXIS_RANKS
        elif seen.middles_with_axis_ink == seen.middles:
            ranks -= CLEAN_AXIS_RANKS
    if seen.centres >= BODY_FRAMES and seen.centres_with_side_ink == 0:
        ranks -= CENTRE_SIDE_RANKS
    return ranks


def central_looks(looks: list[bool | None]) -> list[bool]:
    """Of a pass's middle frames in order (what each said, None when it
    could not tell), what the ones that see the card's centre said: those
    within ``CENTRE_REACH`` places of the run's middle.  A run of fewer than
    three frames has no middle of its own to trust."""
    if len(looks) < 3:
        return []
    middle = (len(looks) - 1) / 2
    return [said for k, said in enumerate(looks)
            if said is not None and abs(k - middle) <= CENTRE_REACH]


def ruled_out_by_body(seen: BodySeen) -> npt.NDArray[np.bool_]:
    """Per card of ``CARD_CODES``, whether the body rules it out."""
    ranks = ranks_allowed(seen)
    return np.array([code[0] not in ranks for code in CARD_CODES], np.bool_)
