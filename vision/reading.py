"""What the recogniser makes of one frame (``Reading``), and that reading with
the card's body as a second witness (``with_body``).

Apart from ``vision.recognizer`` so that the in-shoe reader, the fusion and
the tests can speak of a reading without the machinery that makes one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from vision.cards import CARD_CODES
from vision.detect import Quad
from vision.evidence import reason_code, top_guesses
from vision.pips import BodyReading


@dataclass(frozen=True)
class Reading:
    """What the recogniser made of one frame; ``card is None`` means unsure."""

    card: str | None
    confidence: float
    #: why the reading is unsure (empty when a card was read)
    reason: str = ""
    #: the best guess even when unsure, for the dealer's confirmation screen
    guess: str | None = None
    #: how many index corners were read
    corners: int = 0
    ms: float = 0.0
    #: where the card lay (full-frame corners) when a card was read: where to look
    #: first in the next frame of the same card (``Recognizer.read(look_at=...)``)
    quad: Quad | None = field(default=None, compare=False, repr=False)
    #: the likeliest cards and their probabilities, when unsure (for the dealer's
    #: confirm screen): ``(("6H", 0.41), ("9H", 0.33), ...)``
    guesses: tuple[tuple[str, float], ...] = ()
    #: log-likelihood per card (``CARD_CODES`` order) summed over the corners
    #: read, for fusing frames (``vision.evidence``); None: no index was read
    evidence: npt.NDArray[np.float64] | None = field(default=None, compare=False, repr=False)
    #: the cards a corner accepted on its own
    accepted: tuple[str, ...] = field(default=(), compare=False, repr=False)
    #: the cards the card's body ruled out in this frame (``with_body``): the
    #: fusion of a resting card's frames vetoes a card two of them rule out
    ruled_out: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    #: the cards the card's body withheld in this frame (``with_body``): the
    #: fusion never names a card two frames withhold, but it stays a rival
    withheld: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    #: what withheld them (``BodyReading.withheld_why``): the fusion's reason
    withheld_why: str = field(default="", compare=False, repr=False)
    #: whether the frame showed the part of the body that tells a court from
    #: an ace (the in-shoe band, ``vision.in_shoe_body``), blank or not
    body_seen: bool = field(default=False, compare=False, repr=False)
    #: what that band showed (``vision.in_shoe_body``: ``"blank"``, or
    #: ``band_pips``'s ``"lone"``, ``"sides"`` or ``"neither"``); None when it
    #: was not wholly in view.  The fusion asks it whether a number card's top
    #: row was ever seen (docs/vision.md, thirty-fourth pass)
    band: str | None = field(default=None, compare=False, repr=False)
    #: whether that band, showing neither kind of pips, showed one mark across
    #: it: a court's picture (``vision.in_shoe_body.band_layout``)
    band_picture: bool = field(default=False, compare=False, repr=False)
    #: of a frame of the card's middle (in the shoe): whether it showed ink on
    #: the card's long axis (``vision.in_shoe_middle.axis_ink``); None when
    #: not a middle frame, or the card's width was not clear
    axis_ink: bool | None = field(default=None, compare=False, repr=False)
    #: of such a frame: whether side pips reached its centre row
    #: (``vision.in_shoe_middle.MiddleLook``); the fusion reads it from the
    #: central frames of the middle's run only
    centre_side_ink: bool | None = field(default=None, compare=False, repr=False)

    @property
    def unsure(self) -> bool:
        return self.card is None

    @property
    def code(self) -> str:
        """Why unsure, as a code (``no_card``, ``no_index``, ``corners_disagree``,
        ``colour``, ``low_confidence``, ``not_standard``, ``orientation``,
        ``pips_disagree``...);
        empty when a card was read."""
        return "" if self.card is not None else reason_code(self.reason)



#: the reason of a frame whose index named a card its body rules out
PIPS_DISAGREE = "the card's pips disagree with its index"
#: the reason of a frame whose index named a number card over a court's picture
PICTURE_DISAGREES = "the card shows a court's picture, not the pips its index says"
#: a frame's reason when a 4's clean side columns withhold the card its
#: index names (``vision.empty_places.withhold_by_clean_side_columns``)
SIDE_COLUMNS_DISAGREE = ("the card shows a 4's pips and clean paper where its index's card "
                         "prints more")


def with_body(reading: Reading, body: BodyReading) -> Reading:
    """A frame's reading with what the card's body says (``vision.pips``)
    added to its evidence.  A card the body rules out is not named from this
    frame: an index that reads a 9 as a queen, over an array of nine pips,
    is misread, and so is a club over an array of spades; a number card
    over a court's picture is withheld (``BodyReading.withholds``)."""
    if not body.says_anything or reading.evidence is None:
        return reading
    evidence = reading.evidence + body.evidence
    ruled_out = body.vetoes | frozenset(
        c for c, v in zip(CARD_CODES, body.evidence, strict=True) if v < 0)
    withheld, why_withheld = body.withholds, body.withheld_why
    if reading.card is not None and (reading.card in ruled_out or reading.card in withheld):
        why = (PIPS_DISAGREE if reading.card in ruled_out
               else PICTURE_DISAGREES if body.kind == "picture" else SIDE_COLUMNS_DISAGREE)
        return Reading(None, 0.0, why, guess=None, corners=reading.corners,
                       guesses=top_guesses(evidence), evidence=evidence,
                       accepted=reading.accepted, ruled_out=ruled_out, withheld=withheld,
                       withheld_why=why_withheld)
    if reading.card is None:
        return replace(reading, evidence=evidence, guesses=top_guesses(evidence),
                       ruled_out=ruled_out, withheld=withheld, withheld_why=why_withheld)
    return replace(reading, evidence=evidence, ruled_out=ruled_out, withheld=withheld,
                   withheld_why=why_withheld)
