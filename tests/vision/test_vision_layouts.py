"""A profile's layouts: where each number card's pips lie, and the number
cards an array seen cannot be (docs/vision.md, twenty-second pass).

Expected layouts are the standard ones, written down by hand here (as
fractions of the card's width and height, the columns and rows of an Anglo
deck's pips): a 5 is the four corners and the middle, a 6 two columns of
three, a 7 a 6 with one more pip between the top and middle rows, an 8 a 7
with its half-turn twin.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hardware_sim.cards import CARD_CODES
from vision.calibrate import calibrate_images
from vision.pips import (
    BODY_H,
    BODY_W,
    PIPS_OF_RANK,
    RULED_OUT,
    BodyReading,
    Pip,
    holds_layout,
    rule_out_by_layout,
)
from vision.profile import load_profile

LEFT, MID, RIGHT = 0.3, 0.5, 0.7
TOP, UPPER, MIDDLE, LOWER, BOTTOM = 0.15, 0.325, 0.5, 0.675, 0.85
FIVE = ((LEFT, TOP), (RIGHT, TOP), (MID, MIDDLE), (LEFT, BOTTOM), (RIGHT, BOTTOM))
SIX = ((LEFT, TOP), (RIGHT, TOP), (LEFT, MIDDLE), (RIGHT, MIDDLE), (LEFT, BOTTOM),
       (RIGHT, BOTTOM))
SEVEN = (*SIX, (MID, UPPER))
EIGHT = (*SEVEN, (MID, LOWER))


def _pips(places: tuple[tuple[float, float], ...]) -> list[Pip]:
    return [Pip(x * BODY_W, y * BODY_H, 100, np.zeros(5)) for x, y in places]


def _array(places: tuple[tuple[float, float], ...], suit: str = "S") -> BodyReading:
    return BodyReading(len(places), suit, np.zeros(len(CARD_CODES)), tuple(_pips(places)),
                       "array")


def test_a_layout_holds_its_own_pips_and_any_of_them_missing() -> None:
    assert holds_layout(SEVEN, _pips(SEVEN))
    assert holds_layout(EIGHT, _pips(SEVEN))  # an 8 with a middle pip under glare
    assert holds_layout(SIX, _pips(SIX[:4]))


def test_a_layout_holds_an_array_seen_upside_down() -> None:
    turned = tuple((1 - x, 1 - y) for x, y in SEVEN)
    assert holds_layout(SEVEN, _pips(turned))


def test_a_pip_where_the_card_prints_none_rules_the_card_out() -> None:
    assert not holds_layout(SIX, _pips(FIVE))   # a 5's middle pip
    assert not holds_layout(FIVE, _pips(SIX))   # a 6's middle row
    assert not holds_layout(SIX, _pips(SEVEN))  # a 7's odd pip


def _ruled(body: BodyReading) -> set[str]:
    return {c for c, v in zip(CARD_CODES, body.evidence, strict=True) if v == RULED_OUT}


def test_an_array_rules_out_the_cards_whose_layout_cannot_hold_it() -> None:
    layouts = {"5S": FIVE, "6S": SIX, "7S": SEVEN, "8S": EIGHT}
    assert _ruled(rule_out_by_layout(_array(SIX), layouts)) == {"5S"}
    assert _ruled(rule_out_by_layout(_array(FIVE), layouts)) == {"6S", "7S", "8S"}
    # cards with no layout known, and a body with no array, rule out nothing
    assert _ruled(rule_out_by_layout(_array(SIX), {"6S": SIX})) == set()
    two = BodyReading(0, "S", np.zeros(len(CARD_CODES)), kind="two")
    assert rule_out_by_layout(two, layouts) is two


def test_calibration_keeps_each_full_array_and_a_profile_file_keeps_them(
        builtin_deck, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    profile = calibrate_images({c: builtin_deck.face(c) for c in CARD_CODES}, name="builtin")
    # the built-in deck prints every 3 to 10 as an array of its rank's pips (a
    # 2 is a pair, not an array): each has its layout, with that many pips
    number_cards = {c for c in CARD_CODES if c[0] in "3456789T"}
    assert set(profile.layouts) == number_cards
    for code, places in profile.layouts.items():
        assert len(places) == PIPS_OF_RANK[code[0]]
    # a five's middle pip is in the middle of the card
    assert any(abs(x - 0.5) < 0.05 and abs(y - 0.5) < 0.05 for x, y in profile.layouts["5H"])
    path = tmp_path / "builtin.npz"
    profile.save(path)
    assert load_profile(path).layouts == profile.layouts
