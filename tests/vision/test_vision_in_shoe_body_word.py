"""The thirty-fourth and thirty-fifth passes: a card that no more than a
quarter of the index frames' recognisers named (none, in the thirty-fourth)
is named only when the band below the index showed that card's kind
(``vision.in_shoe_body.band_kind``; docs/vision.md, thirty-fourth and
thirty-fifth passes).

The fusion's tests feed hand-made readings; every expected value is worked
out in the test's docstring with the shipped constants (``PASS_MARGIN`` 8,
``FRAME_MARGIN`` 7.5, ``FRAME_CORRELATION`` 0.42).  The reader's test holds
``Reading.band`` to the band's own functions (``band_is_blank``,
``band_pips``) on rendered frames of the built-in deck, whose 4s to 10s print
their top pips at the band's sides, whose courts print a picture across its
middle and whose aces print nothing there (``builtin.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from hardware_sim.camera.in_shoe import InShoeRenderer
from vision.cards import CARD_CODES
from vision.evidence import reason_code
from vision.in_shoe import (
    BODY_UNHEARD,
    FRAME_CORRELATION,
    FRAME_MARGIN,
    NAMED_SHARE,
    ONE_FRAME,
    PASS_MARGIN,
    InShoeReader,
    PassFusion,
)
from vision.in_shoe_body import (
    BLANK,
    LONE,
    NEITHER,
    SIDES,
    band_is_blank,
    band_kind,
    band_pips,
)
from vision.in_shoe_pose import MIDDLE, Pose, find_pose
from vision.reading import Reading

#: a frame the recogniser refused (its own reason, no card chosen)
REFUSED = "rank ambiguous"


def _frame(scores: dict[str, float], band: str | None, *, reason: str = REFUSED,
           guess: str | None = None, card: str | None = None) -> Reading:
    """A frame's reading with evidence -10 nats for every card but ``scores``,
    whose band showed ``band`` (None: not in view)."""
    ev = np.full(len(CARD_CODES), -10.0)
    for code, v in scores.items():
        ev[CARD_CODES.index(code)] = v
    return Reading(card, 0.9 if card else 0.0, "" if card else reason, guess=guess,
                   evidence=ev, body_seen=band is not None, band=band)


def _pass(card: str, runner_up: str, bands: list[str | None], *, reason: str = REFUSED,
          guess: str | None = None, chose: int = 0) -> PassFusion:
    """Four frames of the leading index, four of the card's middle, four of
    the trailing index; every index frame leans to ``card`` by 3 nats over
    ``runner_up`` (none sure alone) and is unsure for ``reason``; ``bands``:
    what each index frame's band showed.  Summed: a lead of 24.  Tempered,
    each end's four frames are divided by 1 + 3 x 0.42 = 2.26: 12 / 2.26 =
    5.31 an end, 10.62 for both, >= 8: the fusion names ``card``, but for the
    body's word.  ``chose``: that many of the index frames (the first ones)
    are unsure only for the frame margin instead, their recogniser having
    chosen ``card`` (``ONE_FRAME``, ``card`` their guess); their evidence is
    the same."""
    assert len(bands) == 8
    fusion = PassFusion(InShoeReader())
    index = iter(bands)
    seen = 0
    for k in range(12):
        if 4 <= k < 8:
            fusion.add(Reading(None, 0.0, MIDDLE))
            continue
        if seen < chose:
            fusion.add(_frame({card: 0.0, runner_up: -3.0}, next(index), reason=ONE_FRAME,
                              guess=card))
        else:
            fusion.add(_frame({card: 0.0, runner_up: -3.0}, next(index), reason=reason,
                              guess=guess))
        seen += 1
    return fusion


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (PASS_MARGIN, FRAME_MARGIN, FRAME_CORRELATION) == (8.0, 7.5, 0.42)
    assert NAMED_SHARE == 0.25


@pytest.mark.parametrize("chose", [1, 2])
def test_a_quarter_of_the_frames_choosing_the_card_still_needs_the_band(chose: int) -> None:
    """Courgette's J read as a 7 by frames the recogniser mostly refused,
    one or two of its eight index frames choosing the 7 (weakly): 1 / 8 and
    2 / 8 are no more than a quarter, and no band showed a 7's side pips, so
    the summed 7H (10.62 >= 8) is withheld; the reason counts the frames
    that chose it.  The thirty-fourth pass's rule (no frame chose it) named
    it."""
    res = _pass("7H", "JH", [NEITHER] * 8, chose=chose).result()
    assert res.card is None
    assert res.reason.startswith(
        f"{BODY_UNHEARD}: {chose} of the 8 frames that read an index named 7H, and none")
    assert res.code == "pips_disagree"


@pytest.mark.parametrize("chose", [3, 4, 8])
def test_more_than_a_quarter_of_the_frames_choosing_the_card_is_enough(chose: int) -> None:
    """Three, four or eight of the eight index frames choosing 7H (3 / 8 =
    0.375 > 0.25), as plastic's hard-shoe AS read (2 of 7 frames): the band
    is not asked and the summed 7H stands (10.62 >= 8)."""
    assert _pass("7H", "JH", [NEITHER] * 8, chose=chose).result().card == "7H"


def test_a_quarter_of_the_frames_over_a_band_of_its_kind_is_named() -> None:
    """Two of eight frames choosing 7H and one band showing side pips: the
    body's word is heard, 7H is named."""
    bands: list[str | None] = [NEITHER] * 8
    bands[6] = SIDES
    assert _pass("7H", "JH", bands, chose=2).result().card == "7H"


@pytest.mark.parametrize(("ranks", "kind"), [("456789T", SIDES), ("23", LONE), ("A", BLANK),
                                             ("JQK", NEITHER)])
def test_each_card_kind_is_what_its_band_prints(ranks: str, kind: str) -> None:
    """The built-in layouts: a 4's to a 10's top row at the band's sides, a
    2's and a 3's top pip alone on the axis, an ace's paper, a court's
    picture (none of those)."""
    for code in CARD_CODES:
        assert (band_kind(code) == kind) == (code[0] in ranks), code


def test_refused_frames_summing_to_a_seven_over_a_band_without_its_pips_are_unsure() -> None:
    """A calligraphic J read as a 7: every index frame refused by the
    recogniser leans 7H over JH; every band shows neither side pips nor a lone
    pip.  No frame named 7H and no band showed a 7's kind: unsure, the reason
    says why, its code is ``pips_disagree``, and 7H stays the first guess for
    the dealer's confirm screen.  Without any band in view the body has not
    spoken either: unsure too."""
    res = _pass("7H", "JH", [NEITHER] * 8).result()
    assert res.card is None
    assert res.reason.startswith(
        f"{BODY_UNHEARD}: 0 of the 8 frames that read an index named 7H, and none of the 8 frames")
    assert res.reason.endswith("showed the side pips of a 4 to a 10")
    assert res.code == "pips_disagree" == reason_code(res.reason)
    assert res.guesses[0][0] == "7H"
    assert _pass("7H", "JH", [None] * 8).result().card is None


def test_one_band_of_its_kind_is_the_bodys_word() -> None:
    """The same refused frames, the sixth index frame's band showing side
    pips: the 7's kind was seen, so the sum's 7H stands (10.62 >= 8)."""
    bands: list[str | None] = [NEITHER] * 8
    bands[5] = SIDES
    assert _pass("7H", "JH", bands).result().card == "7H"


@pytest.mark.parametrize(("card", "runner_up", "band"), [
    ("3S", "8S", LONE), ("JH", "7H", NEITHER), ("AD", "4D", BLANK), ("9C", "6C", SIDES)])
def test_refused_frames_over_a_band_of_their_cards_kind_are_named(
        card: str, runner_up: str, band: str) -> None:
    """Refused frames that sum to a 3 over a lone pip, a jack over a picture,
    an ace over paper or a 9 over side pips: named (10.62 >= 8).  The ace
    over a picture is not."""
    assert _pass(card, runner_up, [band] * 8).result().card == card
    assert _pass("AD", "4D", [NEITHER] * 8).result().card is None


def test_a_frame_unsure_only_for_the_margin_named_its_card() -> None:
    """Frames the recogniser named 7H, each unsure only because its lead (3)
    is under the frame margin (``ONE_FRAME``, 7H its guess), as tango's
    number cards, whose top pips sit inward, read: 7H was named, so the
    band is not asked and the sum's 7H stands (10.62 >= 8).  Frames that
    named 7D instead did not name 7H: unsure."""
    assert _pass("7H", "JH", [NEITHER] * 8, reason=ONE_FRAME, guess="7H").result().card == "7H"
    assert _pass("7H", "JH", [NEITHER] * 8, reason=ONE_FRAME, guess="7D").result().card is None


def test_a_frame_sure_alone_named_its_card() -> None:
    """Frame 1 names 7C alone (7C 0, every other card -9: a lead of 9 >=
    7.5); frame 2, refused, leans to 7C by 1 nat over 7S.  Summed: 7C 0, 7S
    -10: a lead of 10 >= 8 with two witnesses.  Both bands showed neither,
    but a frame named 7C: named."""
    sure = np.full(len(CARD_CODES), -9.0)
    sure[CARD_CODES.index("7C")] = 0.0
    fusion = PassFusion(InShoeReader())
    fusion.add(Reading("7C", 0.9, "", evidence=sure, body_seen=True, band=NEITHER))
    fusion.add(_frame({"7C": 0.0, "7S": -1.0}, NEITHER))
    assert fusion.result().card == "7C"


@pytest.fixture(scope="module")
def reader() -> InShoeReader:
    return InShoeReader()


@pytest.mark.parametrize("code", ["7H", "TS", "3D", "KD", "AC"])
def test_the_reading_keeps_what_the_band_showed(reader: InShoeReader, code: str) -> None:
    """Every frame of two passes of the built-in deck: ``Reading.band`` is
    what ``band_is_blank`` and ``band_pips`` say of the frame's band (the
    independent reference: the band's own functions, called on the pose the
    test finds itself), None when it is not wholly in view.  Each pass shows
    its card's kind in some frame: the 7's and the 10's side pips, the 3's
    lone pip, the king's picture, the ace's paper."""
    renderer = InShoeRenderer("builtin", preset="normal", seed=11)
    layouts = []
    for k in range(2):
        rng = np.random.default_rng(k)
        plan = renderer.plan(code, rng, lead="top" if k else "bottom")
        for f in renderer.render_pass(plan, rng):
            pose = find_pose(f.image)
            expected = None
            if isinstance(pose, Pose):
                window = reader._window(f.image)
                blank = band_is_blank(f.image, pose.quad, window)
                expected = (None if blank is None else BLANK if blank
                            else band_pips(f.image, pose.quad, window))
            got = reader.read(f.image)
            assert got.band == expected
            assert got.body_seen == (expected is not None)
            layouts.append(got.band)
    assert sum(b is not None for b in layouts) >= 4
    assert band_kind(code) in layouts
