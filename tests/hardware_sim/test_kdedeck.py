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
from pathlib import Path
from types import ModuleType

import pytest
from deck_checks import (
    assert_cached_under,
    forbid,
    index_ink_follows_the_suit,
    one_size_52_distinct_faces_and_a_back,
    same_faces,
    sevens_ink_above_and_below,
)

from hardware_sim.cards import CARD_CODES, Deck, kdedeck, open_deck

pytestmark = pytest.mark.skipif(
    not kdedeck.list_designs() or shutil.which("rsvg-convert") is None,
    reason="kdegames-card-data-kf5 or librsvg2-bin not installed",
)

WIDTH = 120
VECTOR, BITMAP = "kde:tigullio-international", "kde:xskat-french"


@pytest.fixture(scope="module")
def decks(deck_cache: Path) -> dict[str, Deck]:
    return {name: open_deck(name, width=WIDTH) for name in (VECTOR, BITMAP)}


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
    # portrait, poker-ish
    h, w = one_size_52_distinct_faces_and_a_back(deck, name, WIDTH, (1.35, 1.7))
    alpha = deck.mask("AS")
    assert alpha[0, 0] < 128 and alpha[h // 2, w // 2] == 255  # rounded corner, solid middle


@pytest.mark.parametrize("name", [VECTOR, BITMAP])
def test_index_ink_follows_the_suit(decks: dict[str, Deck], name: str) -> None:
    index_ink_follows_the_suit(decks[name], name, 50)


def test_faces_are_upright(decks: dict[str, Deck]) -> None:
    deck = decks[VECTOR]
    for code in ("7H", "7D", "7S", "7C"):
        upper, lower = sevens_ink_above_and_below(deck, code)
        assert 1.15 < upper / lower < 1.6, (code, upper, lower)  # 4/3 upright, 3/4 turned


def test_the_cache_is_reused(decks: dict[str, Deck], deck_cache: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    assert_cached_under(decks[VECTOR], deck_cache)
    forbid(monkeypatch, kdedeck, ("_rsvg", "_embedded_png"), "rendered")
    assert same_faces(open_deck(VECTOR, width=WIDTH), decks[VECTOR])


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
