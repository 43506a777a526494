"""The forty-fourth pass: the ranks a card's body allows, and a weak pass's
lead over the rivals the body leaves (``vision.in_shoe_rivals``).

Expected values are worked out by hand in each docstring from the shipped
constants (checked by the first test) and the standard pip layouts: a 4 to a
10 prints side pips in the band below the index, a 2 or a 3 a lone pip on
the axis; an ace, a 3, 5, 7, 9, 10 and a court print ink on the axis of the
card's middle, a 4 and a 6 do not.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_vision_in_shoe_body_picture import fuse_ends_and_middle

from vision.cards import CARD_CODES
from vision.evidence import FRAME_CORRELATION
from vision.in_shoe import ONE_FRAME, PASS_MARGIN, InShoeReader, PassFusion
from vision.in_shoe_body import LONE, SIDES
from vision.in_shoe_pose import MIDDLE
from vision.in_shoe_rivals import BODY_FRAMES, BodySeen, ranks_allowed, ruled_out_by_body
from vision.reading import Reading


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (BODY_FRAMES, PASS_MARGIN, FRAME_CORRELATION) == (2, 8.0, 0.42)


# -- the ranks the body allows ------------------------------------------------------------


@pytest.mark.parametrize(("seen", "ranks"), [
    (BodySeen(), "A23456789TJQK"),
    # the band: side pips twice and no lone pip leave a 4 to a 10
    (BodySeen(side_pips=2), "456789T"),
    (BodySeen(side_pips=7), "456789T"),
    # once is not enough; a lone pip beside them leaves the band unheard
    (BodySeen(side_pips=1), "A23456789TJQK"),
    (BodySeen(side_pips=3, lone_pip=1), "A23456789TJQK"),
    # a lone pip twice leaves an ace, a 2 or a 3
    (BodySeen(lone_pip=2), "A23"),
    (BodySeen(lone_pip=2, side_pips=1), "A23456789TJQK"),
    # the middle: a clean axis twice rules out A, 3, 5, 7, 9, 10 and courts
    (BodySeen(middles=2), "2468"),
    (BodySeen(middles=5, middles_with_axis_ink=0), "2468"),
    # ink on the axis in every frame rules out the 4s and 6s only
    (BodySeen(middles=3, middles_with_axis_ink=3), "A235789TJQK"),
    # mixed, or one frame: nothing
    (BodySeen(middles=3, middles_with_axis_ink=1), "A23456789TJQK"),
    (BodySeen(middles=1), "A23456789TJQK"),
    (BodySeen(middles=1, middles_with_axis_ink=1), "A23456789TJQK"),
    # both together: a 4's band and middle leave 4, 6 and 8; a 3's band and
    # ink leave A, 2, 3; a 2's band over a clean middle leaves the 2
    (BodySeen(side_pips=2, middles=2), "468"),
    (BodySeen(side_pips=2, middles=2, middles_with_axis_ink=2), "5789T"),
    (BodySeen(lone_pip=2, middles=2, middles_with_axis_ink=2), "A23"),
    (BodySeen(lone_pip=2, middles=2), "2"),
])
def test_the_ranks_the_body_allows(seen: BodySeen, ranks: str) -> None:
    assert ranks_allowed(seen) == frozenset(ranks)
    ruled = ruled_out_by_body(seen)
    assert ruled.shape == (len(CARD_CODES),)
    assert {c for c, r in zip(CARD_CODES, ruled, strict=True) if not r} == {
        c for c in CARD_CODES if c[0] in ranks}


# -- a weak pass -------------------------------------------------------------------------


def _leaning(card: str, runner_up: str, band: str | None = None,
             chose: str | None = None) -> Reading:
    """An index frame whose evidence leans to ``card`` by 2 nats over
    ``runner_up`` (every other card 12 behind), and whose recogniser chose
    ``card`` (or ``chose``): unsure alone (2 < the frame margin), its band
    showing ``band``."""
    ev = np.full(len(CARD_CODES), -12.0)
    ev[CARD_CODES.index(card)] = 0.0
    ev[CARD_CODES.index(runner_up)] = -2.0
    return Reading(None, 0.0, ONE_FRAME, guess=chose or card, evidence=ev,
                   body_seen=band is not None, band=band)


def dissenting(card: str, runner_up: str, bands: list[str | None]) -> list[Reading]:
    """``_leaning`` frames, one per band, the last one's recogniser choosing
    ``runner_up`` (its evidence leaning as the others'): the frames do not
    all choose alike, so the forty-eighth pass's rule (a weak pass whose
    choosing frames all chose its card is named) stays out of the way of
    the rule these tests are about."""
    return [_leaning(card, runner_up, b, chose=runner_up if k == len(bands) - 1 else None)
            for k, b in enumerate(bands)]


def _pass(card: str, runner_up: str, bands: list[str | None],
          middles: list[bool | None] | None = None) -> PassFusion:
    """Four frames of the leading index, the middle frames (``middles``: what
    each showed of the axis; four blank middles when None), four of the
    trailing index, every index frame leaning to ``card`` by 2 nats over
    ``runner_up``, the recognisers of seven choosing it and of the last one
    ``runner_up`` (``dissenting``).  Summed: a lead of 16 >= 8, 8 witnesses,
    none sure alone.  Tempered, each end's four frames divided by 1 + 3 x 0.42 = 2.26:
    8 / 2.26 = 3.54 an end, **7.08** for both ends over ``runner_up``, under
    8: unsure as before.  Over every other card: 8 x 12 / 2.26 = 42.5."""
    frames = dissenting(card, runner_up, bands)
    if middles is None:
        return fuse_ends_and_middle(frames)
    fusion = PassFusion(InShoeReader())
    for frame in frames[:4]:
        fusion.add(frame)
    for said in middles:
        fusion.add(Reading(None, 0.0, MIDDLE, axis_ink=said))
    for frame in frames[4:]:
        fusion.add(frame)
    return fusion


NO_BAND: list[str | None] = [None] * 8


def test_without_the_body_a_weak_pass_stays_unsure() -> None:
    """The old rule: 7.08 < 8 over the runner-up."""
    res = _pass("4S", "AS", NO_BAND).result()
    assert res.card is None
    assert res.reason.startswith("only weak frames: 4S leads by 7.1 nats, under 8")
    assert res.guesses[0][0] == "4S"


@pytest.mark.parametrize("sides", [2, 5])
def test_a_fours_side_pips_rule_its_ace_rival_out(sides: int) -> None:
    """Agbalumo's 4S leaning weakly over AS, its band showing side pips in
    2 or 5 frames: AS is no rival, the next is 42.5 behind: named 4S."""
    bands: list[str | None] = [SIDES] * sides + [None] * (8 - sides)
    res = _pass("4S", "AS", bands).result()
    assert res.card == "4S"


def test_one_side_pip_band_is_not_enough() -> None:
    res = _pass("4S", "AS", [SIDES] + [None] * 7).result()
    assert res.card is None


def test_a_lone_pip_beside_the_side_pips_leaves_the_band_unheard() -> None:
    """Side pips in three frames, a lone pip in one: the band's word is
    split and rules nothing out; 7.08 < 8."""
    res = _pass("4S", "AS", [SIDES, SIDES, SIDES, LONE] + [None] * 4).result()
    assert res.card is None


def test_side_pips_do_not_rule_out_another_number_card() -> None:
    """A 4 leaning over a 7 with side pips in the band: both print them,
    the 7 stays a rival: unsure."""
    res = _pass("4S", "7S", [SIDES] * 8).result()
    assert res.card is None


@pytest.mark.parametrize("card", ["4D", "6D"])
def test_a_clean_middle_rules_out_a_seven_rival(card: str) -> None:
    """A 4 or 6 leaning weakly over 7D, two middle frames with a clean axis:
    7D is no rival: named."""
    assert _pass(card, "7D", NO_BAND, [False, False]).result().card == card


def test_one_inked_middle_frame_keeps_the_seven_a_rival() -> None:
    res = _pass("4D", "7D", NO_BAND, [False, True, False]).result()
    assert res.card is None


def test_an_inked_middle_rules_out_a_four_or_six_rival() -> None:
    """A 9 leaning weakly over the 6 (its half-turn twin): three middle
    frames all inked rule the 6s out: named 9C."""
    assert _pass("9C", "6C", NO_BAND, [True, True, True]).result().card == "9C"


def test_an_inked_middle_does_not_rule_out_a_two() -> None:
    """A 3 leaning over a 2: a 2's middle shows its pips on the axis too,
    so the 2 stays a rival: unsure."""
    assert _pass("3H", "2H", NO_BAND, [True, True, True]).result().card is None


def test_a_card_the_body_rules_out_is_not_named_by_it() -> None:
    """6C leaning weakly over 9C, every middle frame inked: the body rules
    the 6s out, so it does not name 6C over its rivals (it stays unsure, as
    before: it could only name more)."""
    assert _pass("6C", "9C", NO_BAND, [True, True, True]).result().card is None


def test_what_the_old_rule_named_it_still_names() -> None:
    """A lead of 3 nats a frame: tempered 8 x 3 / 2.26 = 10.6 >= 8, named
    before the body is asked, whatever the body says of the rank."""
    ev = np.full(len(CARD_CODES), -12.0)
    ev[CARD_CODES.index("6C")] = 0.0
    ev[CARD_CODES.index("9C")] = -3.0
    fusion = PassFusion(InShoeReader())
    for k in range(11):
        if k in (4, 5, 6):
            fusion.add(Reading(None, 0.0, MIDDLE, axis_ink=True))
        else:
            fusion.add(Reading(None, 0.0, ONE_FRAME, guess="6C", evidence=ev.copy()))
    assert fusion.result().card == "6C"


def test_the_pass_counts_what_the_body_showed() -> None:
    fusion = _pass("4S", "AS", [SIDES, LONE, None, SIDES, None, None, None, None],
                   [True, None, False])
    assert fusion.body_seen() == BodySeen(side_pips=2, lone_pip=1, middles=2,
                                          middles_with_axis_ink=1)


def _refused(card: str, runner_up: str, band: str | None = None) -> Reading:
    """As ``_leaning``, but the frame's recogniser refused to choose (its
    rank ambiguous): the evidence leans to ``card``, no card is chosen."""
    leaning = _leaning(card, runner_up, band)
    return Reading(None, 0.0, "rank ambiguous", evidence=leaning.evidence,
                   body_seen=leaning.body_seen, band=band)


@pytest.mark.parametrize(("chose", "named"), [(0, False), (1, False), (2, True), (5, True)])
def test_the_body_helps_only_a_card_two_frames_chose(chose: int, named: bool) -> None:
    """Sedgwick Ave Display's 8H read with a profile: the frames' sum leans
    to 5H, but no frame's recogniser chose 5H.  Here: eight index frames
    leaning to 4S by 2 nats over AS, all bands showing side pips (AS ruled
    out: 42.5 over the rest), ``chose`` of them chosen by their recogniser
    (the others refused).  The band's own check passes (it showed a 4's
    side pips), the old lead is 7.08 < 8; the body's help needs 2 choosers
    (``PASS_MIN_FRAMES``)."""
    frames = [_leaning("4S", "AS", SIDES) if k < chose else _refused("4S", "AS", SIDES)
              for k in range(8)]
    # (the choosers spread over both ends, as a pass's would be)
    frames = frames[::2] + frames[1::2]
    res = fuse_ends_and_middle(frames).result()
    assert (res.card == "4S") is named
    if not named:
        assert res.reason.startswith("only weak frames: 4S leads by 7.1 nats")
