"""Bitmap decks unpacked from a PyPI wheel or a Debian package (``pypi:`` and
``deb:`` designs).

``scripts/test.sh`` unpacks the pinned packages into ``.cache/cards``, so these
tests do not skip when they are missing: they fail, naming the install line.
One design is drawn, ``deb:pokerth-800x480`` (PokerTH's phone deck, left out of
the held-out group for its layout); the designs of
``vision_split.BITMAP_HELD_OUT`` are never drawn here (their files are only
counted) and nothing here runs the recogniser.  Expected values come from the
printed cards and the packages' file lists, not from the code under test:
hearts and diamonds are printed in red, clubs and spades in black; only a
court card carries a picture in other colours; PokerTH numbers a card
``13 * suit + rank`` (suits D, H, S, C; ranks 2..K then A), worked out by hand
from its ``CardsValue`` convention.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import zipfile
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from deck_checks import (
    assert_cached_under,
    forbid,
    index_ink_follows_the_suit,
    one_size_52_distinct_faces_and_a_back,
    same_faces,
)

from hardware_sim.cards import CARD_CODES, Deck, bitmapdeck, open_deck

WIDTH = 120
DRAWN = "deb:pokerth-800x480"


def test_the_packages_are_unpacked_from_their_pinned_files() -> None:
    # not a skip: the test command unpacks them (scripts/test.sh)
    assert bitmapdeck.missing() == [], f"install them: {bitmapdeck.install_line()}"


@pytest.fixture(scope="module")
def deck(deck_cache: Path) -> Deck:
    return open_deck(DRAWN, width=WIDTH)


def test_card_codes_map_to_the_packages_file_names() -> None:
    d = bitmapdeck.DESIGNS
    # arcade's resources/assets/images/cards: card<Suit><A|2..10|J|Q|K>.png
    assert bitmapdeck.file_name(d["pypi:kenney"], "TC") == "cardClubs10.png"
    assert bitmapdeck.file_name(d["pypi:kenney"], "AS") == "cardSpadesA.png"
    assert bitmapdeck.file_name(d["pypi:kenney"], "QH") == "cardHeartsQ.png"
    # PokerTH: 13 * suit (D H S C) + rank (2..K, A)
    pokerth = d["deb:pokerth"]
    assert [bitmapdeck.file_name(pokerth, c) for c in ("2D", "AD", "2H", "JH", "KS", "TC", "AC")] \
        == ["0.png", "12.png", "13.png", "22.png", "37.png", "47.png", "51.png"]
    assert bitmapdeck.parse_name("deb:pokerth") == "deb:pokerth"
    with pytest.raises(ValueError, match="deb:<design>"):
        bitmapdeck.parse_name("deb:")


@pytest.mark.parametrize("name", sorted(bitmapdeck.DESIGNS))
def test_every_catalogued_design_has_52_cards_and_a_back(name: str) -> None:
    files = {bitmapdeck.card_file(name, c) for c in CARD_CODES}
    assert len(files) == 52 and all(f.is_file() for f in files)
    assert bitmapdeck.card_file(name, None) not in files
    # 52 different pictures, not one file under several names
    assert len({hashlib.sha256(f.read_bytes()).digest() for f in files}) == 52


def test_52_distinct_faces_and_a_back(deck: Deck) -> None:
    # PokerTH's cards are 48 x 76 px: taller than a poker card
    h, w = one_size_52_distinct_faces_and_a_back(deck, DRAWN, WIDTH, (1.5, 1.65))
    alpha = deck.mask("AS")
    for y, x in ((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1)):
        assert alpha[y, x] < 128, (y, x)  # rounded corners
    # (a 48 px card's outermost pixel column is half covered: look one in)
    assert alpha[h // 2, w // 2] == 255 and alpha[h // 2, w // 16] == 255


def test_index_ink_follows_the_suit(deck: Deck) -> None:
    # cards 0..25 red, 26..51 black: the suit order D H S C; the phone deck's
    # rank alone reaches 0.4 of the card's width and height
    index_ink_follows_the_suit(deck, DRAWN, 30, (0.4, 0.4))


def _other_colours(img: np.ndarray) -> int:
    """Pixels neither paper, red nor dark: a court's coloured picture."""
    b, g, r = (img[..., i].astype(int) for i in range(3))
    return int(((b > r + 50) | (g > r + 50)).sum())


def test_only_the_courts_carry_a_picture(deck: Deck) -> None:
    # ranks in the order 2..K then A: the 10th to 12th of each suit are J Q K
    for code in CARD_CODES:
        coloured = _other_colours(deck.face(code))
        if code[0] in "JQK":
            assert coloured > 100, (code, coloured)
        else:
            assert coloured == 0, (code, coloured)


def test_the_cache_is_reused(deck: Deck, deck_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_cached_under(deck, deck_cache)
    forbid(monkeypatch, bitmapdeck, ("read_png",), "decoded")
    assert same_faces(open_deck(DRAWN, width=WIDTH), deck)


def test_an_unknown_design_is_refused_with_the_known_ones() -> None:
    with pytest.raises(LookupError, match=r"no-such-deck.*pypi:kenney"):
        open_deck("deb:no-such-deck")


def test_a_missing_package_is_refused_with_the_install_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PONTOON_BITMAP_CARDS_DIR", str(tmp_path))  # nothing unpacked there
    with pytest.raises(bitmapdeck.BitmapDecksMissing,
                       match=rf"pokerth-data=1\.1\.2-2 .*bitmapdeck install --prefix {tmp_path}$"):
        open_deck("deb:pokerth")


def _wheel(path: Path) -> bitmapdeck.Package:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("pkg/cards/AS.png", b"ace")
        zf.writestr("pkg/cards/back/b.png", b"back")
        zf.writestr("pkg/code.py", b"print()")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return bitmapdeck.Package("pypi", "pkg", "1.0", path.name, digest, ("pkg/cards/",), "CC0")


def test_unpacking_keeps_only_the_card_folder_and_marks_it_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PONTOON_BITMAP_CARDS_DIR", str(tmp_path / "cards"))
    package = _wheel(tmp_path / "pkg-1.0-py3-none-any.whl")
    assert not bitmapdeck.installed(package)
    folder = bitmapdeck.unpack(package, tmp_path / package.file)
    assert folder == tmp_path / "cards" / "pypi" / "pkg-1.0"
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == \
        ["SOURCE.json", "pkg/cards/AS.png", "pkg/cards/back/b.png"]
    assert (folder / "pkg/cards/AS.png").read_bytes() == b"ace"
    assert json.loads((folder / "SOURCE.json").read_text())["sha256"] == package.sha256
    assert bitmapdeck.installed(package)


def test_a_file_that_is_not_the_pinned_one_is_refused(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PONTOON_BITMAP_CARDS_DIR", str(tmp_path / "cards"))
    package = _wheel(tmp_path / "pkg-1.0-py3-none-any.whl")
    with zipfile.ZipFile(tmp_path / package.file, "a") as zf:
        zf.writestr("pkg/cards/KS.png", b"another")
    with pytest.raises(RuntimeError, match="not the file the decks were checked on"):
        bitmapdeck.unpack(package, tmp_path / package.file)
    assert not (tmp_path / "cards").exists()


def _vision_split() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "vision_split.py"
    spec = importlib.util.spec_from_file_location("vision_split", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bitmap_group_is_new_art_and_installable(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The group shares no family with any design tuned on or held out before,
    keeps the phone deck (no turned index) out, and every held-out card is standard."""
    split = _vision_split()
    older = {split.family(n) for n in (
        *split.TUNING, *split.HELD_OUT, *split.HELD_OUT_NEGATIVE, *split.KDE_HELD_OUT,
        *split.KDE_HELD_OUT_NEGATIVE, *split.NPM_HELD_OUT)}
    group = split.BITMAP_HELD_OUT
    assert group and not {split.family(n) for n in group} & older
    assert DRAWN not in group and split.family(DRAWN) not in {split.family(n) for n in group}
    assert all(len(split.standard_codes(n)) == 52 for n in group)
    listed = split.describe(group)
    assert all(Path(line.rsplit(", ", 1)[1]).is_dir() for line in listed)
    assert split.bitmap_missing() is None
    monkeypatch.setenv("PONTOON_BITMAP_CARDS_DIR", str(tmp_path))
    assert split.bitmap_missing() == \
        f".venv/bin/python -m hardware_sim.cards.bitmapdeck install --prefix {tmp_path}"
    with pytest.raises(SystemExit) as stop:
        split.require_bitmap(group)
    assert stop.value.code == 2
    split.require_bitmap(("builtin:classic", "npm:cardsjs"))  # no bitmap deck: nothing to check


@pytest.mark.parametrize("script", ["scripts/test.sh", "scripts/bench_fonts.sh"])
def test_the_scripts_unpack_the_packages(script: str) -> None:
    text = (Path(__file__).resolve().parents[2] / script).read_text()
    assert "-m hardware_sim.cards.bitmapdeck install --prefix .cache/cards" in text
