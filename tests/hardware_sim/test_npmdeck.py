"""Card art from npm packages (``npm:<design>``) rendered through rsvg-convert.

``scripts/test.sh`` installs the pinned packages into ``.cache/cards``, so
these tests do not skip when they are missing: they fail, naming the install
line.  Two designs are rendered, once per module into one cache: ``kennard``
(one SVG per card; gnome anglo_poker's art) and ``svg-cards`` (one PNG per
card; gnome bellot's art).  Neither is in ``vision_split.NPM_HELD_OUT``, whose
design is never rendered here; nothing here runs the recogniser.  Expected
values come from the printed cards, not from the code under test: hearts and
diamonds are printed in red, clubs and spades in black; an ace of spades is a
black pip on white paper; a 7 prints its seventh pip above the centre, so more
of its pips' ink is in the upper half.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from deck_checks import (
    assert_cached_under,
    dark_ink,
    forbid,
    index_ink_follows_the_suit,
    one_size_52_distinct_faces_and_a_back,
    red_ink,
    same_faces,
    sevens_ink_above_and_below,
)

from hardware_sim.cards import CARD_CODES, Deck, npmdeck, open_deck

WIDTH = 120
SVG, PNG = "npm:kennard", "npm:svg-cards"


def test_the_packages_are_installed_at_their_pinned_versions() -> None:
    # not a skip: the test command installs them (scripts/test.sh)
    assert npmdeck.missing() == [], f"install them: {npmdeck.install_line(npmdeck.missing())}"


@pytest.fixture(scope="module")
def decks(deck_cache: Path) -> dict[str, Deck]:
    return {name: open_deck(name, width=WIDTH) for name in (SVG, PNG)}


def test_card_codes_map_to_the_packages_file_names() -> None:
    # names as listed in each package's folder (ls node_modules/<package>/...)
    d = npmdeck.DESIGNS
    assert npmdeck.file_name(d["cardsjs"], "TC") == "TC.svg"
    assert npmdeck.file_name(d["younestouati"], "QS") == "12s.svg"
    assert npmdeck.file_name(d["younestouati"], "AD") == "1d.svg"
    assert npmdeck.file_name(d["svg-cards"], "10C") == "club_10.png"
    assert npmdeck.file_name(d["svg-cards"], "KH") == "heart_king.png"
    assert npmdeck.file_name(d["kennard"], "7D") == "7D.svg"
    assert npmdeck.file_name(d["deck-of-cards"], "AS") == "0_1.svg"   # 0 spades, 1 hearts,
    assert npmdeck.file_name(d["deck-of-cards"], "QD") == "3_12.svg"  # 2 clubs, 3 diamonds
    assert npmdeck.parse_name("npm:cardsjs") == "cardsjs"
    with pytest.raises(ValueError, match="npm:<design>"):
        npmdeck.parse_name("npm:")


@pytest.mark.parametrize("name", sorted(npmdeck.DESIGNS))
def test_every_catalogued_design_has_52_cards_and_a_back(name: str) -> None:
    files = {npmdeck.card_file(name, c) for c in CARD_CODES}
    assert len(files) == 52 and all(f.is_file() for f in files)
    assert npmdeck.card_file(name, None).is_file()


@pytest.mark.parametrize("name", [SVG, PNG])
def test_52_distinct_faces_and_a_back(decks: dict[str, Deck], name: str) -> None:
    deck = decks[name]
    # portrait, poker size (63 x 88 mm)
    h, w = one_size_52_distinct_faces_and_a_back(deck, name, WIDTH, (1.35, 1.5))
    alpha = deck.mask("AS")
    for y, x in ((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1)):
        assert alpha[y, x] < 128, (name, y, x)  # rounded corners
    assert alpha[h // 2, w // 2] == 255 and alpha[h // 2, 2] == 255


@pytest.mark.parametrize("name", [SVG, PNG])
def test_the_ace_of_spades_is_dark_ink_on_light_paper(decks: dict[str, Deck], name: str) -> None:
    img = decks[name].face("AS")
    h, w = img.shape[:2]
    m = w // 12
    card = img[m: h - m, m: w - m]  # inside the outline (svg-cards draws a thick one)
    light = card.min(axis=2) > 200
    assert light.mean() > 0.8, name  # mostly white paper
    ink = ~light
    assert dark_ink(card)[ink].mean() > 0.6 and red_ink(card).sum() == 0, name
    centre = img[h // 3: 2 * h // 3, w // 4: 3 * w // 4]  # the one pip, bigger than the index
    assert dark_ink(centre).sum() > dark_ink(card).sum() / 2, name


@pytest.mark.parametrize("name", [SVG, PNG])
def test_index_ink_follows_the_suit(decks: dict[str, Deck], name: str) -> None:
    index_ink_follows_the_suit(decks[name], name, 30)


@pytest.mark.parametrize("name", [SVG, PNG])
def test_faces_are_upright(decks: dict[str, Deck], name: str) -> None:
    deck = decks[name]
    for code in ("7H", "7D", "7S", "7C"):
        upper, lower = sevens_ink_above_and_below(deck, code)
        assert upper / lower > 1.15, (name, code, upper, lower)


def test_the_cache_is_reused(decks: dict[str, Deck], deck_cache: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    assert_cached_under(decks[SVG], deck_cache)
    forbid(monkeypatch, npmdeck, ("render_file",), "rendered")
    assert same_faces(open_deck(SVG, width=WIDTH), decks[SVG])


def test_an_unknown_design_is_refused_with_the_known_ones() -> None:
    with pytest.raises(LookupError, match=r"no-such-deck.*cardsjs"):
        open_deck("npm:no-such-deck")


def test_a_missing_package_is_refused_with_the_install_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PONTOON_NPM_CARDS_DIR", str(tmp_path))  # nothing installed there
    with pytest.raises(npmdeck.NpmDecksMissing,
                       match=rf"npm install .*--prefix {tmp_path} cardsJS@1\.1\.1$"):
        open_deck("npm:cardsjs")


def _vision_split() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "vision_split.py"
    spec = importlib.util.spec_from_file_location("vision_split", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_npm_group_is_new_art_and_installable(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The split keeps npm designs that redraw a gnome design (svg-cards =
    bellot, Kennard's = anglo_poker, found by eye and in the SVG source) out of
    the held-out group; every held-out card is standard."""
    split = _vision_split()
    older = {split.family(n) for n in (*split.TUNING, *split.HELD_OUT, *split.HELD_OUT_NEGATIVE,
                                       *split.KDE_HELD_OUT, *split.KDE_HELD_OUT_NEGATIVE)}
    assert split.NPM_HELD_OUT and not {split.family(n) for n in split.NPM_HELD_OUT} & older
    assert split.family("npm:svg-cards") == split.family("bellot")
    assert split.family("npm:kennard") == split.family("anglo_poker")
    assert all(len(split.standard_codes(n)) == 52 for n in split.NPM_HELD_OUT)
    assert split.standard_codes("npm:deck-of-cards") == []  # no rank index at all
    listed = split.describe(split.NPM_HELD_OUT)
    assert all("@" in line and Path(line.rsplit(", ", 1)[1]).is_dir() for line in listed)
    assert split.npm_missing() is None
    monkeypatch.setenv("PONTOON_NPM_CARDS_DIR", str(tmp_path))
    assert split.npm_missing() == f"npm install --no-audit --no-fund --prefix {tmp_path} " \
                                  "cardsJS@1.1.1"
    with pytest.raises(SystemExit) as stop:
        split.require_npm(split.NPM_HELD_OUT)
    assert stop.value.code == 2
    split.require_npm(("builtin:classic", "kde:oxygen"))  # no npm deck: nothing to check


@pytest.mark.parametrize("script", ["scripts/test.sh", "scripts/bench_fonts.sh"])
def test_the_scripts_install_every_package_at_its_pinned_version(script: str) -> None:
    text = (Path(__file__).resolve().parents[2] / script).read_text()
    for package in {d.package for d in npmdeck.DESIGNS.values()}:
        assert f" {package.spec}" in text.replace("\n", " ").replace("(", " "), (script, package)
