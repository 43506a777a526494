"""The forty-second pass: a band showing a 4's to a 10's top row (a pip at
each of its sides) withholds the aces, 2s and 3s in the shoe
(``vision.in_shoe.withhold_by_side_pips``; docs/vision.md, forty-second
pass).  The case it is for: a shadowed "8" that the rank networks read as a
"3", frame after frame, over a band that shows the 8's side pips.

The fusion's tests feed hand-made readings, each expected value worked out
in the docstring with the shipped constants (``PASS_MARGIN`` 8,
``FRAME_MARGIN`` 7.5, ``FRAME_CORRELATION`` 0.42, ``NAMED_SHARE`` 0.25,
``VETO_FRAMES`` 2).  The reader's tests read passes of the built-in deck,
whose 4s to 10s print a pip at each side of the band and whose 2s and 3s
print their top pip on the card's axis (``builtin.py``)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from test_vision_in_shoe_body_picture import fuse_ends_and_middle

from hardware_sim.camera.in_shoe import InShoeRenderer
from vision.cards import CARD_CODES
from vision.evidence import FRAME_CORRELATION, VETO_FRAMES, reason_code
from vision.in_shoe import (
    FRAME_MARGIN,
    NAMED_SHARE,
    ONE_FRAME,
    PARTIAL,
    PASS_MARGIN,
    SIDE_PIPS_WITHHELD,
    InShoeReader,
    PassFusion,
    withhold_by_side_pips,
)
from vision.in_shoe_body import LONE, SIDE_PIPS_WHY, SIDE_PIPS_WITHHOLD, SIDES
from vision.reading import Reading

Image = npt.NDArray[np.uint8]


def test_the_shipped_constants_these_tests_reason_from() -> None:
    assert (PASS_MARGIN, FRAME_MARGIN, FRAME_CORRELATION) == (8.0, 7.5, 0.42)
    assert (NAMED_SHARE, VETO_FRAMES) == (0.25, 2)


def test_what_side_pips_withhold() -> None:
    """The twelve cards whose top pip stands on the axis or is not in the
    band: every ace, 2 and 3, and nothing else (by hand: 3 ranks x 4 suits)."""
    assert {r + s for r in "A23" for s in "SHDC"} == SIDE_PIPS_WITHHOLD


# -- one frame -------------------------------------------------------------------------


def _sure(card: str) -> npt.NDArray[np.float64]:
    """Evidence sure of ``card`` alone: 0 for it, -9 for every other card (a
    lead of 9 >= ``FRAME_MARGIN``)."""
    ev = np.full(len(CARD_CODES), -9.0)
    ev[CARD_CODES.index(card)] = 0.0
    return ev


def test_a_three_over_side_pips_is_not_named_by_its_frame() -> None:
    """A frame sure of 3S alone, over a band showing side pips: unsure, with
    the reason a dealer reads, code ``pips_disagree``, and 3S still the guess
    for the confirm screen."""
    frame = Reading("3S", 0.95, "", evidence=_sure("3S"), body_seen=True, band=SIDES)
    out = withhold_by_side_pips(frame)
    assert out.card is None
    assert out.reason == SIDE_PIPS_WITHHELD
    assert reason_code(out.reason) == "pips_disagree"
    assert out.guess == "3S" and out.guesses[0][0] == "3S"
    assert out.withheld == SIDE_PIPS_WITHHOLD and out.withheld_why == SIDE_PIPS_WHY


def test_an_eight_over_side_pips_is_named_and_withholds_the_rest() -> None:
    frame = Reading("8S", 0.95, "", evidence=_sure("8S"), body_seen=True, band=SIDES)
    out = withhold_by_side_pips(frame)
    assert out.card == "8S" and out.reason == ""
    assert out.withheld == SIDE_PIPS_WITHHOLD


@pytest.mark.parametrize("band", [None, LONE, "blank", "neither"])
def test_any_other_band_withholds_nothing(band: str | None) -> None:
    frame = Reading("3S", 0.95, "", evidence=_sure("3S"), body_seen=band is not None, band=band)
    assert withhold_by_side_pips(frame) is frame


# -- a pass ----------------------------------------------------------------------------


def _leaning(card: str, runner_up: str, band: str | None) -> Reading:
    """An index frame whose recogniser chose ``card`` by 3 nats over
    ``runner_up`` (every other card -10): unsure alone for the frame margin,
    then passed through the forty-second pass's rule as the reader does."""
    ev = np.full(len(CARD_CODES), -10.0)
    ev[CARD_CODES.index(card)] = 0.0
    ev[CARD_CODES.index(runner_up)] = -3.0
    return withhold_by_side_pips(Reading(None, 0.0, ONE_FRAME, guess=card, evidence=ev,
                                         body_seen=band is not None, band=band))


def _pass(card: str, runner_up: str, bands: list[str | None]) -> PassFusion:
    """Four frames of the leading index, four of the middle, four of the
    trailing index, every index frame choosing ``card`` by 3 nats (none sure
    alone), its band showing ``bands[k]``.  Summed: a lead of 24; tempered,
    each end's four frames divided by 1 + 3 x 0.42 = 2.26: 12 / 2.26 = 5.31
    an end, 10.62 for both, >= 8; all 8 frames chose it (> a quarter): the
    thirty-seventh pass's fusion names ``card``."""
    return fuse_ends_and_middle([_leaning(card, runner_up, band) for band in bands])


@pytest.mark.parametrize("sides", [2, 5, 8])
def test_an_eight_every_frame_reads_as_a_three_is_withheld(sides: int) -> None:
    """Jacques Francois Shadow's 8S read as 3S by every frame: 2, 5 or 8 of
    its bands showed the 8's side pips (the rest out of view): unsure, the
    reason counts the frames, and 3S is the first guess: the withheld card
    stays the leader, so the 8S runner-up (24 nats behind) is not named in
    its place."""
    bands: list[str | None] = [SIDES] * sides + [None] * (8 - sides)
    res = _pass("3S", "8S", bands).result()
    assert res.card is None
    assert res.reason == f"{SIDE_PIPS_WHY}: 3S (the bodies of {sides} frames)"
    assert res.code == "pips_disagree"
    assert res.guesses[0][0] == "3S"


def test_one_side_pips_frame_is_not_enough() -> None:
    """One band showing side pips (an ace's big pip can show its flanks so,
    once in a pass): under ``VETO_FRAMES``, the sum's 3S stands."""
    assert _pass("3S", "8S", [SIDES] + [None] * 7).result().card == "3S"


def test_a_threes_own_band_names_it() -> None:
    """The same pass over a 3's lone pip: named (the rule asks only of side pips)."""
    assert _pass("3S", "8S", [LONE] * 8).result().card == "3S"


def test_side_pips_say_nothing_against_a_four_to_a_ten() -> None:
    assert _pass("8S", "3S", [SIDES] * 8).result().card == "8S"


def test_frames_that_read_no_index_withhold_too() -> None:
    """Two frames whose index was only partly in view (no evidence) but whose
    band showed side pips, and eight index frames choosing 3S over bands out
    of view: the two bands withhold 3S as index frames' would."""
    fusion = _pass("3S", "8S", [None] * 8)
    for _ in range(2):
        fusion.add(withhold_by_side_pips(Reading(None, 0.0, PARTIAL, body_seen=True,
                                                 band=SIDES)))
    res = fusion.result()
    assert res.card is None and res.reason.startswith(SIDE_PIPS_WHY)


def test_a_withheld_frame_still_counts_as_choosing_its_card() -> None:
    """The "few frames named it" rule (thirty-fifth pass) counts what each
    frame's recogniser chose: a frame sure of 3S alone that the side pips
    withheld chose 3S all the same, as a frame under the frame margin does."""
    fusion = PassFusion(InShoeReader())
    fusion.add(withhold_by_side_pips(
        Reading("3S", 0.95, "", evidence=_sure("3S"), body_seen=True, band=SIDES)))
    fusion.add(_leaning("3S", "8S", None))
    assert fusion.named == {"3S": 2}


# -- the reader, on rendered passes ----------------------------------------------------


@pytest.fixture(scope="module")
def reader() -> InShoeReader:
    return InShoeReader()


def _frames(code: str, preset: str, k: int) -> list[Image]:
    renderer = InShoeRenderer("builtin", preset=preset, seed=5)
    rng = np.random.default_rng(k)
    plan = renderer.plan(code, rng, lead="top" if k % 2 else "bottom")
    return [f.image for f in renderer.render_pass(plan, rng)]


@pytest.mark.parametrize("preset", ["normal", "hard"])
@pytest.mark.parametrize("code", ["8S", "4H", "TC"])
def test_a_number_cards_frames_withhold_the_aces_twos_and_threes(
        reader: InShoeReader, code: str, preset: str) -> None:
    """The built-in 4s to 10s show their side pips in the band: at least two
    frames of each pass withhold the aces, 2s and 3s, none names one, and
    the pass still names its card."""
    for k in range(2):
        frames = _frames(code, preset, k)
        readings = [reader.read(f) for f in frames]
        withholding = [r for r in readings if r.withheld >= SIDE_PIPS_WITHHOLD]
        assert len(withholding) >= 2
        assert not any(r.card in SIDE_PIPS_WITHHOLD for r in readings)
        assert reader.read_pass(frames).card == code


@pytest.mark.parametrize("preset", ["normal", "hard"])
@pytest.mark.parametrize("code", ["AS", "2D", "3H"])
def test_an_ace_two_or_three_is_still_named(
        reader: InShoeReader, code: str, preset: str) -> None:
    """An ace's, a 2's or a 3's band never shows side pips twice in a pass:
    no frame of the built-in deck's withholds them, and the pass is named."""
    for k in range(2):
        frames = _frames(code, preset, k)
        withholding = [f for f in frames if reader.read(f).withheld]
        assert len(withholding) < VETO_FRAMES
        assert reader.read_pass(frames).card == code
