"""Thirteenth pass: a corner found only by a last try (``IndexGlyphs.last_try``,
``vision.index._split_stacked`` / ``_split_faint``) is weak evidence.  Its
evidence enters the frame's sum at ``LAST_TRY_WEIGHT`` (0.5, fixed before any
measurement), it accepts no card, and a frame of such corners alone names no
card by itself.

Expected values are worked by hand: the corners' evidence is written here
(the card 7C at 0 nats, every other card at -6), so the frame sums and the
fused leads follow from the rule on paper (worked out beside each assert).
The drawn patch is the twelfth pass's (``test_vision_index_stacked``): a
bar rank joined by blur to a diamond, which only ``_split_stacked`` parts."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt
import pytest

import vision.index as vi
from vision.cards import CARD_CODES
from vision.evidence import ACCEPT_BONUS, FrameFusion, margin
from vision.index import IndexGlyphs, read_patch
from vision.index_mask import CROP_H, CROP_W
from vision.recognizer import (
    LAST_TRY_ONLY,
    LAST_TRY_WEIGHT,
    Reading,
    Recognizer,
    _CornerVote,
)

PAPER, DARK = 235.0, 30.0


def _patch(rank_bottom: int, sigma: float) -> npt.NDArray[np.uint8]:
    """A bar rank (columns 12..21, rows 12..``rank_bottom``, ink 90) over a
    diamond (rows 44..62); blurred by ``sigma`` card units."""
    g = np.full((CROP_H, CROP_W), PAPER)
    pts = np.array([[16, 44], [24, 53], [16, 62], [8, 53]], np.int32)
    cv2.fillPoly(g, [pts], DARK)
    cv2.rectangle(g, (12, 12), (21, rank_bottom), 90.0, -1)
    g = cv2.GaussianBlur(g, (0, 0), sigma)
    return np.asarray(cv2.cvtColor(np.clip(g, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR))


def test_only_a_last_try_split_is_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rank one row over the diamond, blurred 3 units: one blob that only
    the last try parts (marked).  The rank ending 8 rows higher, blurred 1
    unit: two marks the ordinary tries split (not marked)."""
    monkeypatch.setattr(vi, "LAST_TRIES", True)
    joined = read_patch(_patch(42, 3.0))
    apart = read_patch(_patch(34, 1.0))
    assert joined is not None and joined.last_try
    assert apart is not None and not apart.last_try
    monkeypatch.setattr(vi, "LAST_TRIES", False)
    assert read_patch(_patch(42, 3.0)) is None
    again = read_patch(_patch(34, 1.0))
    assert again is not None and not again.last_try


def _glyph(*, last_try: bool) -> IndexGlyphs:
    ink = np.ones((20, 10), np.float32)
    return IndexGlyphs(2.0, 20.0, 10.0, (0.2, 0.2, 0.2), ink, ink[:10], last_try=last_try)


def _evidence(card: str) -> npt.NDArray[np.float64]:
    """A corner's evidence written by hand: ``card`` at 0 nats, every other card -6."""
    e = np.full(len(CARD_CODES), -6.0)
    e[CARD_CODES.index(card)] = 0.0
    return e


class _Written(Recognizer):
    """Reads each corner as the vote written into it (``votes`` by the glyph's
    id): the decision rule under test, without a classifier between."""

    def __init__(self, votes: dict[int, _CornerVote]) -> None:
        super().__init__(body=False)
        self.votes = votes
        self.asked: list[int] = []

    def _corner(self, g: IndexGlyphs) -> tuple[IndexGlyphs, _CornerVote]:
        self.asked.append(id(g))
        return g, self.votes[id(g)]


def _sure(card: str) -> _CornerVote:
    return _CornerVote(card, 0.95, "", True, _evidence(card))


def _frame(*corners: tuple[bool, str]) -> Reading:
    """One frame of corners ``(found only by a last try, card its vote names)``."""
    glyphs = [_glyph(last_try=weak) for weak, _ in corners]
    rec = _Written({id(g): _sure(card) for g, (_, card) in zip(glyphs, corners, strict=True)})
    return rec.decide(iter(glyphs))


def test_the_weight_is_the_one_fixed_before_measuring() -> None:
    assert LAST_TRY_WEIGHT == 0.5


def test_a_last_try_frame_is_unsure_with_half_the_evidence() -> None:
    ordinary = _frame((False, "7C"))
    weak = _frame((True, "7C"))
    # ordinary: 7C 0 + ACCEPT_BONUS 2 = 2, every other card -6: lead 8, named
    assert ordinary.card == "7C" and ordinary.accepted == ("7C",)
    assert ordinary.evidence is not None and margin(ordinary.evidence)[1] == pytest.approx(8.0)
    # weak: half of the corner's own evidence, no bonus: 7C 0, others -3
    assert weak.card is None and weak.reason == LAST_TRY_ONLY
    assert weak.code == "low_confidence" and weak.accepted == () and weak.corners == 1
    assert weak.evidence is not None
    assert np.allclose(weak.evidence, 0.5 * _evidence("7C"))
    bonus = np.zeros(len(CARD_CODES))
    bonus[CARD_CODES.index("7C")] = ACCEPT_BONUS
    assert np.allclose(ordinary.evidence - bonus, _evidence("7C"))
    assert weak.guesses and weak.guesses[0][0] == "7C"


def test_a_last_try_corner_adds_half_and_neither_vetoes_nor_stops_the_read() -> None:
    """A sure last-try corner leaning to 7S read first, then an ordinary 7C
    corner.  The weak corner does not end the reading (the second is read),
    and is no contradiction: the frame names 7C as the ordinary corner alone
    would.  Sum: 7C 0.5 * -6 + 0 + 2 (accepted) = -1; 7S 0.5 * 0 - 6 = -6;
    others -3 - 6 = -9: lead 5."""
    glyphs = [_glyph(last_try=True), _glyph(last_try=False)]
    rec = _Written({id(glyphs[0]): _sure("7S"), id(glyphs[1]): _sure("7C")})

    def corners() -> Iterator[IndexGlyphs | None]:
        yield from glyphs

    both = rec.decide(corners())
    assert rec.asked == [id(g) for g in glyphs]
    assert both.card == "7C" and both.corners == 2 and both.accepted == ("7C",)
    assert both.evidence is not None
    assert both.evidence[CARD_CODES.index("7C")] == pytest.approx(-1.0)
    assert both.evidence[CARD_CODES.index("7S")] == pytest.approx(-6.0)
    assert both.evidence[CARD_CODES.index("2H")] == pytest.approx(-9.0)
    assert margin(both.evidence)[1] == pytest.approx(5.0)


def _fused(ordinary: int, weak: int) -> tuple[str | None, float]:
    fusion = FrameFusion()  # the shipped rule: a lead of 20 nats
    for _ in range(ordinary):
        fusion.push(_frame((False, "7C")))
    for _ in range(weak):
        fusion.push(_frame((True, "7C")))
    assert fusion.total is not None
    return fusion.decide(final=True).card, margin(fusion.total)[1]


@pytest.mark.parametrize(("ordinary", "weak", "lead", "card"), [
    (2, 0, 16.0, None),   # 2 * 8
    (2, 1, 19.0, None),   # 16 + 3: at full weight (16 + 6 = 22) it would be named
    (2, 2, 22.0, "7C"),   # 16 + 3 + 3
    (0, 1, 3.0, None),
    (0, 6, 18.0, None),   # 6 * 3
    (0, 7, 21.0, "7C"),   # 7 * 3: weak frames only through the sum
])
def test_fused_frames_add_as_the_hand_sum_says(
    ordinary: int, weak: int, lead: float, card: str | None
) -> None:
    got_card, got_lead = _fused(ordinary, weak)
    assert got_lead == pytest.approx(lead)
    assert got_card == card


def test_a_real_last_try_glyph_gives_half_its_ordinary_evidence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The drawn joined patch through the generic classifier: the same glyphs
    unmarked (``last_try`` False) give evidence E (with ACCEPT_BONUS on any
    card they accept); marked, exactly (E - bonus) / 2, and no card."""
    monkeypatch.setattr(vi, "LAST_TRIES", True)
    g = read_patch(_patch(42, 3.0))
    assert g is not None and g.last_try
    rec = Recognizer(body=False)
    plain = rec.decide(iter([replace(g, last_try=False)]))
    weak = rec.decide(iter([g]))
    assert plain.evidence is not None and weak.evidence is not None
    own = plain.evidence.copy()
    for card in plain.accepted:
        own[CARD_CODES.index(card)] -= ACCEPT_BONUS
    assert np.allclose(weak.evidence, 0.5 * own)
    assert weak.card is None and weak.code == "low_confidence"
