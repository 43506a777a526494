"""Checks every pre-rendered deck of other people's art must pass (the KDE,
npm and bitmap decks): worked out from what a printed card is, not from the
renderer.  Shared by ``test_kdedeck.py``, ``test_npmdeck.py`` and
``test_bitmapdeck.py``."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from hardware_sim.cards import CARD_CODES, Deck


def red_ink(img: np.ndarray) -> np.ndarray:
    b, g, r = (img[..., i].astype(int) for i in range(3))
    return (r > g + 60) & (r > b + 60)


def dark_ink(img: np.ndarray) -> np.ndarray:
    return np.asarray(img.max(axis=2) < 90)


def one_size_52_distinct_faces_and_a_back(
    deck: Deck, name: str, width: int, aspect: tuple[float, float]
) -> tuple[int, int]:
    """One card size for the whole deck, ``width`` wide and portrait within
    ``aspect``; every face unlike every other; the back unlike every face.
    Returns the card's height and width."""
    faces = {c: deck.face(c).astype(np.int16) for c in CARD_CODES}
    shapes = {f.shape for f in faces.values()} | {deck.back().shape}
    assert len(shapes) == 1, shapes
    h, w, ch = shapes.pop()
    assert w == width and ch == 3 and aspect[0] < h / w < aspect[1], (name, h, w)
    assert all(deck.face(c).dtype == np.uint8 for c in ("AS", "KH"))
    codes = list(CARD_CODES)
    for i, a in enumerate(codes):
        for b in codes[i + 1:]:
            assert np.abs(faces[a] - faces[b]).mean() > 1.0, (name, a, b)
    back = deck.back().astype(np.int16)
    assert min(np.abs(back - f).mean() for f in faces.values()) > 30, name
    assert deck.mask("AS").shape == (h, w)
    return h, w


def index_ink_follows_the_suit(deck: Deck, name: str, least: int,
                               corner: tuple[float, float] = (0.25, 0.2)) -> None:
    """Red ink in a heart's or diamond's top-left index corner, dark ink and
    no red in a club's or spade's (at least ``least`` pixels of it); the
    corner is ``corner`` (height, width) of the card."""
    for code in CARD_CODES:
        img = deck.face(code)
        h, w = img.shape[:2]
        index = img[: int(corner[0] * h), : int(corner[1] * w)]
        if code[1] in "HD":
            assert red_ink(index).sum() > least, (name, code)
        else:
            assert red_ink(index).sum() < 10 and dark_ink(index).sum() > least, (name, code)


def sevens_ink_above_and_below(deck: Deck, code: str) -> tuple[int, int]:
    """A seven's pip ink in the upper and lower half of its body (the index
    columns left out): its seventh pip sits above the centre, so upright it
    has more ink above (4 pips to 3), turned more below."""
    img = deck.face(code)
    h, w = img.shape[:2]
    body = img[:, int(0.2 * w): int(0.8 * w)]
    ink = red_ink(body) if code[1] in "HD" else dark_ink(body)
    return int(ink[: h // 2].sum()), int(ink[h // 2:].sum())


def same_faces(again: Deck, first: Deck) -> bool:
    """Whether two openings of a deck gave the very same pixels."""
    return all(np.array_equal(again.face(c), first.face(c)) for c in CARD_CODES) and (
        np.array_equal(again.back(), first.back()))


def assert_cached_under(deck: Deck, root: Path) -> None:
    """The deck's 52 faces and its back lie as PNGs in its folder under ``root``."""
    folder = deck.cache_folder  # type: ignore[attr-defined]
    assert folder.is_relative_to(root) and len(list(folder.glob("*.png"))) == 53


def forbid(monkeypatch: pytest.MonkeyPatch, module: ModuleType, names: tuple[str, ...],
           what: str) -> None:
    """Make the module's drawing functions fail, so that opening the deck again
    proves it read the cache."""
    def refuse(*args: object) -> None:
        raise AssertionError(f"{what} again instead of reading the cache")

    for name in names:
        monkeypatch.setattr(module, name, refuse)
