"""The forty-sixth pass: a pass's summed evidence may not name a card no
frame's recogniser chose while a frame's recogniser named another card on
its own (``PassFusion._read_instead``).

The passes are hand-made after Reenie Beanie's 9s with a profile (seed 42):
every frame's evidence leaned to 7H by a little, while the frames the
recogniser read on their own read 9H.  Expected values are worked out in
each docstring from the shipped constants (checked by the first test).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_vision_in_shoe_body_picture import fuse_ends_and_middle

from vision.cards import CARD_CODES
from vision.evidence import FRAME_CORRELATION, TEMPLATES_READ_ANOTHER, reason_code
from vision.in_shoe import (
    NAMED_SHARE,
    ONE_FRAME,
    PASS_MARGIN,
    PASS_MIN_FRAMES,
    READ_ANOTHER,
    PassReading,
)
from vision.in_shoe_body import SIDES
from vision.reading import Reading
from vision.recognizer import BLURRED_ALONE


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (PASS_MARGIN, FRAME_CORRELATION, PASS_MIN_FRAMES, NAMED_SHARE) == (8.0, 0.42, 2, 0.25)


def _frame(said: str | None, guess: str | None = None, reason: str = BLURRED_ALONE) -> Reading:
    """An index frame whose evidence puts 7H first, 9H 4 nats behind and
    every other card 12 behind, its band showing a 4's-to-10's side pips.
    ``said``: the card its recogniser named on its own (a profile's
    templates and the shipped classifier agreeing), or None with ``guess``
    under ``reason``."""
    ev = np.full(len(CARD_CODES), -12.0)
    ev[CARD_CODES.index("7H")] = 0.0
    ev[CARD_CODES.index("9H")] = -4.0
    if said is not None:
        return Reading(said, 0.9, evidence=ev, body_seen=True, band=SIDES)
    return Reading(None, 0.0, reason, guess=guess, evidence=ev, body_seen=True, band=SIDES)


def _pass(frames: list[Reading]) -> PassReading:
    return fuse_ends_and_middle(frames).result()


@pytest.mark.parametrize("read_alone", [1, 2, 8])
def test_a_nine_the_frames_read_is_not_named_a_seven_by_the_sum(read_alone: int) -> None:
    """``read_alone`` of the 8 frames read 9H on their own, the rest chose
    nothing (a blurred glyph).  The sum: 7H leads 9H by 8 x 4 = 32; tempered,
    each end's four frames 16 / (1 + 3 x 0.42) = 7.08, both ends 14.2 >= 8,
    so the code before this pass named 7H (every frame's evidence put it
    first: 8 witnesses; its band kind, side pips, was seen).  No frame
    chose 7H and one or more read 9H: unsure, its reason counting them, its
    code ``frames_disagree``, and both cards offered to the dealer: first
    9H, the frames' own word (every frame that named a card alone named it:
    share 1.0), then the sum's likeliest, 7H (the sum puts 9H 32 nats
    behind, so its own guesses would offer 7H alone)."""
    frames = [_frame("9H") for _ in range(read_alone)] + [
        _frame(None, guess="9H") for _ in range(8 - read_alone)]
    res = _pass(frames)
    assert res.card is None
    assert res.reason == (f"{READ_ANOTHER}: {read_alone} of the 8 frames that read an index"
                          " named 9H, and none chose 7H")
    assert reason_code(res.reason) == "frames_disagree"
    assert res.guesses[0] == ("9H", 1.0)
    assert [card for card, _ in res.guesses] == ["9H", "7H"]


def test_the_card_most_frames_read_is_the_one_the_reason_names() -> None:
    """Three frames read 9H, one read 9D, none chose 7H: the reason names 9H
    (three of eight) and is offered first, with its share of the four
    frames that named a card alone: 3 / 4 = 0.75."""
    frames = [_frame("9H")] * 3 + [_frame("9D")] + [_frame(None, guess="9H")] * 4
    res = _pass(frames)
    assert res.card is None
    assert res.reason.startswith(f"{READ_ANOTHER}: 3 of the 8 frames that read an index named 9H")
    assert res.guesses[0] == ("9H", 0.75)


def test_with_no_frame_reading_alone_the_sum_still_names() -> None:
    """No frame's recogniser named a card on its own (all refused, "rank
    ambiguous" with 9H their guess): no frame's word stands against the
    sum, so 7H is named as before (the 14.2 nats worked out above; this
    rule asks for a frame's own word, and the forty-ninth pass's for the
    deck's templates doubted by the classifier, ``BLURRED_ALONE``)."""
    res = _pass([_frame(None, guess="9H", reason="rank ambiguous") for _ in range(8)])
    assert res.card == "7H"


def test_with_the_templates_of_every_frame_reading_the_nine_it_is_unsure() -> None:
    """The forty-ninth pass in the shoe (Reenie Beanie's two 9s of seed 42
    that the rule above left named 7): all eight frames refused because
    the deck's blurred templates named 9H and the classifier read
    otherwise.  No frame chose 7H, the templates of 8 (>= 3) named 9H:
    unsure, "the deck's templates read another card", 9H offered first
    with its share of the frames that read an index (8 / 8), then 7H."""
    res = _pass([_frame(None, guess="9H") for _ in range(8)])
    assert res.card is None
    assert res.reason == (f"{TEMPLATES_READ_ANOTHER}: 9H on 8 of the 8 frames that read an"
                          " index, none 7H")
    assert reason_code(res.reason) == "frames_disagree"
    assert [card for card, _ in res.guesses[:2]] == ["9H", "7H"]
    assert res.guesses[0] == ("9H", 1.0)


def test_a_frame_that_chose_the_summed_card_outweighs_the_templates() -> None:
    """Seven frames' templates named 9H (doubted), one frame's recogniser
    chose 7H (``ONE_FRAME``): the summed card has a frame's word, so the
    templates do not hold it back; 1 of 8 choosing it is under the quarter
    share, but the band showed its side pips: named 7H."""
    frames = [_frame(None, guess="7H", reason=ONE_FRAME)] + [_frame(None, guess="9H")] * 7
    assert _pass(frames).card == "7H"


def test_a_frame_that_chose_the_summed_card_keeps_it_named() -> None:
    """One frame's recogniser chose 7H (unsure alone, ``ONE_FRAME``: it
    counts as a choice), two read 9H: the summed card has a frame's word,
    and 1 of 8 frames choosing it is under the quarter share, but the band
    showed its side pips, so the pass is named 7H as before."""
    frames = [_frame(None, guess="7H", reason=ONE_FRAME)] + [_frame("9H")] * 2 + [
        _frame(None, guess="9H")] * 5
    assert _pass(frames).card == "7H"


def test_frames_that_read_the_summed_card_are_not_turned_away() -> None:
    """Two frames read 7H on their own and one 9H: 7H is both the sum's and
    some frames' word, and stays named."""
    frames = [_frame("7H")] * 2 + [_frame("9H")] + [_frame(None, guess="9H")] * 5
    assert _pass(frames).card == "7H"
