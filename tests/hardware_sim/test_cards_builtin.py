"""The built-in card renderer: sizes, colours, both index corners, variants."""

from __future__ import annotations

import numpy as np
import pytest

from hardware_sim.cards import CARD_CODES, BuiltinDeck, open_deck, parse_code
from hardware_sim.cards.builtin import (
    STYLES,
    nonstandard_cards,
    render_back,
    render_card,
    render_nonstandard,
)
from hardware_sim.cards.shapes import draw_shape


def red_ink(img: np.ndarray) -> np.ndarray:
    b, g, r = (img[..., i].astype(int) for i in range(3))
    return (r > g + 80) & (r > b + 80)


def dark_ink(img: np.ndarray) -> np.ndarray:
    return img.max(axis=2) < 90


def index_corner(img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    return img[: int(0.3 * h), : int(0.2 * w)]


@pytest.mark.parametrize("width", [60, 250, 500])
def test_size_and_type(width: int) -> None:
    img = render_card("QS", width=width)
    assert img.shape == (round(width * 1.4), width, 3)
    assert img.dtype == np.uint8


def test_codes_are_the_52_cards() -> None:
    assert len(CARD_CODES) == 52 == len(set(CARD_CODES))
    assert parse_code("10h") == "TH" and parse_code(" as ") == "AS"
    for bad in ("1H", "ZZ", "TX", "", "10"):
        with pytest.raises(ValueError):
            parse_code(bad)


def test_suit_colours() -> None:
    for code in CARD_CODES:
        img = render_card(code)
        reds = int(red_ink(img).sum())
        if code[1] in "HD":
            assert reds > 500, code
        else:
            assert reds == 0, code
            assert dark_ink(img).sum() > 500, code


def test_both_index_corners_present_and_turned() -> None:
    """The bottom-right index is the top-left one turned 180 degrees."""
    for code in CARD_CODES:
        img = render_card(code).astype(int)
        tl = index_corner(img)
        br = index_corner(img[::-1, ::-1])
        ink = ~(tl.min(axis=2) > 200)
        assert ink.sum() > 150, f"{code}: no index ink top-left"
        assert np.abs(tl - br).mean() < 3, f"{code}: bottom-right index differs"


def test_every_card_looks_different() -> None:
    corners = {c: index_corner(render_card(c)) for c in CARD_CODES}
    for a in CARD_CODES:
        for b in CARD_CODES:
            if a < b:
                diff = np.abs(corners[a].astype(int) - corners[b].astype(int)).max(axis=2)
                assert (diff > 60).sum() > 20, (a, b)


def test_ten_prints_as_two_digits_wider_than_a_nine() -> None:
    ten = dark_ink(index_corner(render_card("TS")))
    nine = dark_ink(index_corner(render_card("9S")))
    span = lambda m: np.ptp(np.nonzero(m.any(axis=0))[0])  # noqa: E731
    assert span(ten) > span(nine)


def test_styles_differ() -> None:
    faces = [render_card("7H", style=s) for s in STYLES]
    for i in range(len(faces)):
        for j in range(i + 1, len(faces)):
            diff = np.abs(faces[i].astype(int) - faces[j].astype(int)).max(axis=2)
            assert (diff > 60).sum() > 500, (i, j)
    four = render_card("5C", style="four_color")
    assert (four[..., 1].astype(int) > four[..., 2] + 60).sum() > 300  # green clubs
    with pytest.raises(ValueError):
        render_card("5C", style="nope")


def test_back_has_no_index_and_is_not_a_face() -> None:
    back = render_back()
    assert back.shape == (350, 250, 3)
    assert (back[..., 0].astype(int) > back[..., 2] + 60).mean() > 0.3  # mostly blue
    for code in ("AS", "KH"):
        assert np.abs(back.astype(int) - render_card(code)).mean() > 30


def test_nonstandard_decks_and_their_expected_answers() -> None:
    german = {name: unsure for name, _, unsure in nonstandard_cards("german")}
    assert german["german:U-bells"] and german["german:O-leaves"] and german["german:D-hearts"]
    assert not german["german:7-hearts"]  # looks exactly like a French seven of hearts
    assert all(unsure for _, _, unsure in nonstandard_cards("bdk"))
    assert all(unsure for _, _, unsure in nonstandard_cards("swiss"))
    swiss_labels = {name.split(":")[1].split("-")[0] for name, _, _ in nonstandard_cards("swiss")}
    assert "A" not in swiss_labels
    bells = render_nonstandard("german", "U", "bells")
    assert bells.shape == (350, 250, 3)
    assert np.abs(bells.astype(int) - render_card("JH")).mean() > 5


def test_renders_are_cached_and_read_only() -> None:
    a = render_card("AS")
    assert render_card("as") is a
    with pytest.raises(ValueError):
        a[0, 0] = 0


def test_deck_objects() -> None:
    deck = open_deck("builtin:modern", width=200)
    assert isinstance(deck, BuiltinDeck)
    assert deck.face("KD").shape == (280, 200, 3)
    m = deck.mask("KD")
    assert m.shape == (280, 200) and m[0, 0] == 0 and m[140, 100] == 255
    with pytest.raises(ValueError):
        open_deck("builtin:nope")


def test_draw_shape_fills_a_heart() -> None:
    img = np.zeros((100, 100, 3), np.uint8)
    draw_shape(img, "heart", (50, 50), 60, {"main": (0, 0, 255)})
    assert img[50, 50, 2] == 255 and img[5, 50, 2] == 0
    flipped = np.zeros_like(img)
    draw_shape(flipped, "heart", (50, 50), 60, {"main": (0, 0, 255)}, upside_down=True)
    # the point of the heart is at the bottom; upside down it is at the top
    assert img[77, 50, 2] > 128 and img[23, 50, 2] < 128
    assert flipped[23, 50, 2] > 128 and flipped[77, 50, 2] < 128
