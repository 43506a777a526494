"""KDE's decks (Debian ``kdegames-card-data-kf5``) rendered through rsvg-convert.

Two designs are rendered, once per module into one cache: ``tigullio-international``
(vector cards, each exported by its element id) and ``xskat-french`` (cards
stored as embedded PNG bitmaps, which librsvg cannot export by id).  Neither
is in ``vision_split.KDE_HELD_OUT`` (tigullio-international is gnome tigullio's
art; xskat-french is a negative); nothing here runs the recogniser.
Expected values come from the printed cards, not from the code under test:
hearts and diamonds are printed in red, clubs and spades in black, and a
standard 7 has four of its seven pips in the upper half (two at the top, one
between, half of the middle pair) against three below, a ratio of 4/3.
"""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from hardware_sim.cards import CARD_CODES, Deck, kdedeck, open_deck

pytestmark = pytest.mark.skipif(
    not kdedeck.list_designs() or shutil.which("rsvg-convert") is None,
    reason="kdegames-card-data-kf5 or librsvg2-bin not installed",
)

WIDTH = 120
VECTOR, BITMAP = "kde:tigullio-international", "kde:xskat-french"


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("kde-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PONTOON_CACHE_DIR", str(folder))
        yield folder


@pytest.fixture(scope="module")
def decks(cache: Path) -> dict[str, Deck]:
    return {name: open_deck(name, width=WIDTH) for name in (VECTOR, BITMAP)}


def red_ink(img: np.ndarray) -> np.ndarray:
    b, g, r = (img[..., i].astype(int) for i in range(3))
    return (r > g + 60) & (r > b + 60)


def dark_ink(img: np.ndarray) -> np.ndarray:
    return np.asarray(img.max(axis=2) < 90)


def test_names_map_to_the_svg_element_ids() -> None:
    # ids as written in the decks' SVG files (e.g. id="queen_heart", id="1_club")
    assert kdedeck.element_id("QH") == "queen_heart"
    assert kdedeck.element_id("AC") == "1_club"
    assert kdedeck.element_id("10d") == "10_diamond"
    assert kdedeck.parse_name("kde:oxygen") == "oxygen"
    with pytest.raises(ValueError, match="kde:<design>"):
        kdedeck.parse_name("kde:")


def test_every_installed_design_is_catalogued() -> None:
    assert set(kdedeck.list_designs()) == set(kdedeck.DESIGNS)
    assert kdedeck.metadata("oxygen")["SVG"] == "oxygen.svgz"  # from its index.desktop


@pytest.mark.parametrize("name", [VECTOR, BITMAP])
def test_52_distinct_faces_and_a_back(decks: dict[str, Deck], name: str) -> None:
    deck = decks[name]
    faces = {c: deck.face(c).astype(np.int16) for c in CARD_CODES}
    shapes = {f.shape for f in faces.values()} | {deck.back().shape}
    assert len(shapes) == 1, shapes  # one card size for the whole deck
    h, w, ch = shapes.pop()
    assert w == WIDTH and ch == 3 and 1.35 < h / w < 1.7  # portrait, poker-ish
    assert all(deck.face(c).dtype == np.uint8 for c in ("AS", "KH"))
    codes = list(CARD_CODES)
    for i, a in enumerate(codes):
        for b in codes[i + 1:]:
            assert np.abs(faces[a] - faces[b]).mean() > 1.0, (name, a, b)
    back = deck.back().astype(np.int16)
    assert min(np.abs(back - f).mean() for f in faces.values()) > 30, name
    alpha = deck.mask("AS")
    assert alpha.shape == (h, w)
    assert alpha[0, 0] < 128 and alpha[h // 2, w // 2] == 255  # rounded corner, solid middle


@pytest.mark.parametrize("name", [VECTOR, BITMAP])
def test_index_ink_follows_the_suit(decks: dict[str, Deck], name: str) -> None:
    deck = decks[name]
    for code in CARD_CODES:
        img = deck.face(code)
        h, w = img.shape[:2]
        index = img[: int(0.25 * h), : int(0.2 * w)]  # top-left index corner
        if code[1] in "HD":
            assert red_ink(index).sum() > 50, (name, code)
        else:
            assert red_ink(index).sum() < 10 and dark_ink(index).sum() > 50, (name, code)


def test_faces_are_upright(decks: dict[str, Deck]) -> None:
    deck = decks[VECTOR]
    for code in ("7H", "7D", "7S", "7C"):
        img = deck.face(code)
        h, w = img.shape[:2]
        body = img[:, int(0.2 * w) : int(0.8 * w)]  # the pips, without the index columns
        ink = red_ink(body) if code[1] in "HD" else dark_ink(body)
        upper, lower = int(ink[: h // 2].sum()), int(ink[h // 2 :].sum())
        assert 1.15 < upper / lower < 1.6, (code, upper, lower)  # 4/3 upright, 3/4 turned


def test_the_cache_is_reused(decks: dict[str, Deck], cache: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    folder = decks[VECTOR].cache_folder  # type: ignore[attr-defined]
    assert folder.is_relative_to(cache) and len(list(folder.glob("*.png"))) == 53

    def no_render(*args: object) -> None:
        raise AssertionError("rendered again instead of reading the cache")

    monkeypatch.setattr(kdedeck, "_rsvg", no_render)
    monkeypatch.setattr(kdedeck, "_embedded_png", no_render)
    again = open_deck(VECTOR, width=WIDTH)
    assert all(np.array_equal(again.face(c), decks[VECTOR].face(c)) for c in CARD_CODES)
    assert np.array_equal(again.back(), decks[VECTOR].back())


def test_an_unknown_design_is_refused_with_the_installed_ones() -> None:
    with pytest.raises(LookupError, match=r"no-such-deck.*oxygen"):
        open_deck("kde:no-such-deck")


def test_a_missing_package_is_refused_naming_it(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PONTOON_KDE_CARDS_DIR", str(tmp_path))  # an empty carddecks dir
    with pytest.raises(kdedeck.KdeDecksMissing, match="apt-get install -y kdegames-card-data-kf5"):
        open_deck("kde:oxygen")


def _vision_split() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "vision_split.py"
    spec = importlib.util.spec_from_file_location("vision_split", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_kde_groups_are_new_art_and_say_which_cards_count() -> None:
    """The split keeps KDE designs that redraw a gnome design (dondorf, paris,
    ornamental, tigullio, compared by eye) out of the held-out group, and reads
    xskat's B/D courts and German suits as negatives."""
    split = _vision_split()
    gnome_families = {split.family(n) for n in
                      (*split.TUNING, *split.HELD_OUT, *split.HELD_OUT_NEGATIVE)}
    kde = (*split.KDE_HELD_OUT, *split.KDE_HELD_OUT_NEGATIVE)
    assert not {split.family(n) for n in kde} & gnome_families
    assert split.family("kde:gm-paris") == split.family("paris")
    assert all(len(split.standard_codes(n)) == 52 for n in split.KDE_HELD_OUT)
    assert split.standard_codes("kde:xskat-german") == []
    assert set(CARD_CODES) - set(split.standard_codes("kde:xskat-french")) == {
        r + s for r in "JQ" for s in "CDHS"}
    listed = split.describe(split.KDE_HELD_OUT)
    assert all(Path(line.split(": ", 1)[1]).is_file() for line in listed)
