"""The eighth pass: a pass of weak frames only (no frame sure of the card
alone) is named only when the card still leads by the pass margin once the
frames of each index end count as correlated (``vision.evidence.tempered``,
``PassFusion``).  Every expected value is worked out by hand in the test's
docstring from the evidence drawn here, with the shipped constants
(``PASS_MARGIN`` 8, ``FRAME_MARGIN`` 7.5, ``FRAME_CORRELATION`` 0.42).
Since the twenty-eighth pass that lead is taken over the cards the band
left possible, as the summed lead is (``vision.evidence.over_the_possible``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.cards import CARD_CODES
from vision.evidence import FRAME_CORRELATION, reason_code, tempered
from vision.in_shoe import FRAME_MARGIN, ONE_FRAME, PASS_MARGIN, InShoeReader, PassFusion
from vision.in_shoe_body import LONE_PIP_RULES_OUT
from vision.in_shoe_pose import MIDDLE
from vision.recognizer import Reading


def _frame(scores: dict[str, float], card: str | None = None) -> Reading:
    """A frame's reading with evidence -10 nats for every card but ``scores``;
    ``card``: the frame named it on its own.  Otherwise the frame is unsure
    only for the frame margin, its recogniser's choice (the card its evidence
    puts first) its guess, as the reader makes such a frame: since the
    thirty-fourth pass a pass whose frames chose nothing needs the band's
    word (``test_vision_in_shoe_body_word.py``)."""
    ev = np.full(len(CARD_CODES), -10.0)
    for code, v in scores.items():
        ev[CARD_CODES.index(code)] = v
    if card is not None:
        return Reading(card, 0.9, "", evidence=ev)
    return Reading(None, 0.0, ONE_FRAME, guess=CARD_CODES[int(np.argmax(ev))], evidence=ev)


def _middle() -> Reading:
    return Reading(None, 0.0, MIDDLE)


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (PASS_MARGIN, FRAME_MARGIN, FRAME_CORRELATION) == (8.0, 7.5, 0.42)


def test_tempered_divides_each_run_by_its_variance_inflation() -> None:
    """Runs of 1 and 3 frames, rho 0.5: the first counts whole (1 + 0 x 0.5 =
    1), the second's sum is halved (1 + 2 x 0.5 = 2): 6/1 + 8/2 = 10 for card
    0, 0/1 + 4/2 = 2 for card 1."""
    out = tempered([np.array([6.0, 0.0]), np.array([8.0, 4.0])], [1, 3], rho=0.5)
    assert out.tolist() == pytest.approx([10.0, 2.0])
    with pytest.raises(ValueError):
        tempered([], [])


def test_many_weak_frames_leaning_the_wrong_way_are_not_a_pass() -> None:
    """Ten frames of one end each lean to 3S by 1.5 nats over 8S (3S 0, 8S
    -1.5, every other card -10): no frame is sure alone (1.5 < 7.5).  Summed:
    3S 0, 8S -15, the rest -100, a lead of 15 over the margin of 8 with ten
    witnesses, which the seventh pass named.  Tempered, the one end's ten
    frames count 1 + 9 x 0.42 = 4.78 times too much: 15 / 4.78 = 3.14 < 8, so
    the pass is unsure (at no frame ready, as the table reads), its reason says
    why, and 3S stays the first guess."""
    fusion = PassFusion(InShoeReader())
    for _ in range(10):
        fusion.add(_frame({"3S": 0.0, "8S": -1.5}))
        assert not fusion.ready()
    res = fusion.result()
    assert res.card is None and res.used == 10
    assert res.reason.startswith("only weak frames: 3S leads by 3.1 nats")
    assert res.code == "low_confidence" == reason_code(res.reason)
    assert res.guesses[0][0] == "3S"


def test_weak_frames_of_both_ends_still_name_the_card() -> None:
    """Four frames of the leading index, four of the card's middle, four of
    the trailing index; every index frame leans to QH by 3 nats over QD (QH 0,
    QD -3, the rest -10): none sure alone.  Summed: lead 24.  Tempered, each
    end's 4 frames are divided by 1 + 3 x 0.42 = 2.26: 12 / 2.26 = 5.31 per
    end, 10.62 for the two ends >= 8: named.  The same eight frames with no
    middle between them are one end: 24 / (1 + 7 x 0.42) = 24 / 3.94 = 6.09 <
    8: unsure (two ends are two witnesses; one end's frames are not eight)."""
    fusion = PassFusion(InShoeReader())
    for reading in [*[_frame({"QH": 0.0, "QD": -3.0})] * 4, *[_middle()] * 4,
                    *[_frame({"QH": 0.0, "QD": -3.0})] * 4]:
        fusion.add(reading)
    assert fusion.end_counts == [4, 4]
    assert fusion.result().card == "QH"

    one_end = PassFusion(InShoeReader())
    for _ in range(8):
        one_end.add(_frame({"QH": 0.0, "QD": -3.0}))
    res = one_end.result()
    assert res.card is None and res.reason.startswith("only weak frames: QH leads by 6.1")


def test_a_frame_sure_alone_keeps_the_summed_lead() -> None:
    """Frame 1 names 7C alone (7C 0, every other card -9: a lead of 9 >=
    7.5); frame 2 leans to 7C by 1 nat over 7S.  Summed: 7C 0, 7S -10: lead 10
    >= 8 with two witnesses: named, although tempered (one end of two frames,
    10 / 1.42 = 7.04) it would not be: the rule is for passes of weak frames
    only.  The same evidence with frame 1 not naming its card (its own lead is
    the same, but the frame said no card) counts as weak: unsure."""
    sure = np.full(len(CARD_CODES), -9.0)
    sure[CARD_CODES.index("7C")] = 0.0
    fusion = PassFusion(InShoeReader())
    fusion.add(Reading("7C", 0.9, "", evidence=sure))
    fusion.add(_frame({"7C": 0.0, "7S": -1.0}))
    assert fusion.result().card == "7C"

    weak = PassFusion(InShoeReader())
    weak.add(Reading(None, 0.0, "colour", evidence=sure))
    weak.add(_frame({"7C": 0.0, "7S": -1.0}))
    assert weak.result().card is None


def _lone_pip(reading: Reading) -> Reading:
    """``reading`` from a frame whose band held a lone pip (its body rules out
    every card but the aces, 2s and 3s)."""
    return replace(reading, ruled_out=LONE_PIP_RULES_OUT, body_seen=True)


def test_a_runner_up_the_band_ruled_out_is_no_rival_of_the_weak_frames() -> None:
    """The twenty-eighth pass.  The ten frames of the first test (3S 0, 8S
    -1.5, the rest -10), two of them with a lone pip in the band, which rules
    8S out (``LONE_PIP_RULES_OUT``; two frames, ``VETO_FRAMES``).  The sum
    leads by 100 over the cards still possible (A, 2 and 3 at -100).
    Tempered (one end of ten frames, 4.78): 3S 0, 8S -3.14, the possible
    rest -100 / 4.78 = -20.9.  Over every card, as before, the lead is 3.14 <
    8: unsure.  Over the cards still possible, as the sum's own lead is
    taken, it is 20.9 >= 8: 3S is named."""
    fusion = PassFusion(InShoeReader())
    for k in range(10):
        frame = _frame({"3S": 0.0, "8S": -1.5})
        fusion.add(_lone_pip(frame) if k in (3, 6) else frame)
    assert fusion.result().card == "3S"


def test_a_possible_runner_up_still_holds_the_weak_frames_back() -> None:
    """The same ten frames, but leaning 3S 0, 8S -1.0, 2S -1.5: 8S, the
    closest, is ruled out; 2S is not (a 2 prints a lone pip too).  Tempered,
    3S leads 2S by 15 / 4.78 = 3.14 < 8 (over every card it led 8S by 10 /
    4.78 = 2.09): unsure, and the reason gives the lead over 2S."""
    fusion = PassFusion(InShoeReader())
    for k in range(10):
        frame = _frame({"3S": 0.0, "8S": -1.0, "2S": -1.5})
        fusion.add(_lone_pip(frame) if k in (3, 6) else frame)
    res = fusion.result()
    assert res.card is None
    assert res.reason.startswith("only weak frames: 3S leads by 3.1 nats, under 8,")
