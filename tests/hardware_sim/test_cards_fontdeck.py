"""Font decks: the built-in face with its indices set in an installed TrueType
font (``font:<Family>[/bold]``), and the font lookup that refuses substitutes.

Only training fonts are drawn here (DejaVu, Liberation): the fresh held-out
fonts (``benchmarks/vision_split.py`` FRESH_HELD_OUT) are never rendered by tests.
Expected sizes come from the built-in ``classic`` style (``builtin.py``: card
height 1.4 x width, index top at 0.045 x width, rank 0.13 x width tall, index
column from 0.045 x width), not from the code under test.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from hardware_sim.cards import CARD_CODES, fontdeck, open_deck, truetype
from hardware_sim.cards.truetype import FontMissing, find_font, isolated_fonts, render_svg


def _installed(family: str) -> bool:
    try:
        find_font(family)
    except (FontMissing, RuntimeError):
        return False
    return True


pytestmark = pytest.mark.skipif(
    shutil.which("rsvg-convert") is None or shutil.which("fc-list") is None
    or not _installed("DejaVu Serif"),
    reason="needs rsvg-convert (librsvg2-bin), fontconfig and fonts-dejavu-core",
)

W = 250
H = 350  # 250 x 1.4
CORNER_H, CORNER_W = 105, 50  # 0.3 H x 0.2 W: the index, and none of the body


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PONTOON_CACHE_DIR", str(tmp_path))
    return tmp_path


def red_ink(img: np.ndarray) -> np.ndarray:
    # classic hearts/diamonds ink is BGR (40, 30, 200): red exceeds the others by 160+
    b, g, r = (img[..., i].astype(int) for i in range(3))
    return (r > g + 80) & (r > b + 80)


def dark_ink(img: np.ndarray) -> np.ndarray:
    # classic clubs/spades ink is BGR (25, 25, 25); the paper is (243, 247, 250)
    return img.max(axis=2) < 90


def test_a_full_deck_of_distinct_faces_of_the_builtin_size(cache: Path) -> None:
    deck = open_deck("font:DejaVu Serif", width=W)
    assert deck.name == "font:DejaVu Serif"
    faces = {c: deck.face(c) for c in CARD_CODES}
    assert len(faces) == 52
    for code, img in faces.items():
        assert img.shape == (H, W, 3) and img.dtype == np.uint8, code
    assert len({img.tobytes() for img in faces.values()}) == 52
    assert deck.mask("AS").shape == (H, W)
    assert deck.back().shape == (H, W, 3)


@pytest.mark.parametrize("code", ["AH", "TD", "QH", "7D", "AS", "TC", "KS", "8C"])
def test_the_index_corner_is_in_the_suit_colour(cache: Path, code: str) -> None:
    face = open_deck("font:DejaVu Serif/bold", width=W).face(code)
    for corner in (face[:CORNER_H, :CORNER_W], face[H - CORNER_H :, W - CORNER_W :]):
        # a rank 32 px tall and a 21 px pip: well over 100 px of ink
        if code[1] in "HD":
            assert red_ink(corner).sum() > 100, code
            assert dark_ink(corner).sum() == 0, code
        else:
            assert dark_ink(corner).sum() > 100, code
            assert red_ink(corner).sum() == 0, code


@pytest.mark.parametrize("code", ["AS", "TD", "QH", "JC", "7H"])
def test_the_bottom_index_is_the_top_one_turned_half_a_turn(cache: Path, code: str) -> None:
    face = open_deck("font:DejaVu Serif", width=W).face(code).astype(int)
    top = face[:CORNER_H, :CORNER_W]
    bottom = face[H - CORNER_H :, W - CORNER_W :]
    assert np.abs(np.rot90(bottom, 2) - top).mean() < 1.0
    # and not merely mirrored: a turned "7" / "Q" / "J" is not its reflection
    assert np.abs(bottom[::-1] - top).mean() > 3.0


def test_the_rank_stands_where_the_builtin_index_does(cache: Path) -> None:
    # "K" in DejaVu Serif: flat serifs at the cap height and on the baseline, so
    # its ink spans exactly the index height: rows 0.045 W = 11.25 to
    # 11.25 + 0.13 W = 43.75
    face = open_deck("font:DejaVu Serif", width=W).face("KS")
    column = dark_ink(face[:CORNER_H, :CORNER_W]).any(axis=1)
    rows = np.flatnonzero(column)
    first = int(rows[0])
    run_end = first
    while column[run_end + 1]:
        run_end += 1
    assert 10 <= first <= 12
    assert 42 <= run_end <= 45
    cols = np.flatnonzero(dark_ink(face[first : run_end + 1, :CORNER_W]).any(axis=0))
    assert cols[0] >= 10 and cols[-1] <= 45  # inside 0.045 W .. 0.045 W + 0.13 W + a px


def test_the_rank_is_drawn_in_the_asked_font(cache: Path) -> None:
    serif = open_deck("font:DejaVu Serif", width=W).face("AS").astype(int)
    sans = open_deck("font:DejaVu Sans", width=W).face("AS").astype(int)
    corner = (slice(0, 50), slice(0, CORNER_W))  # the rank only
    assert np.abs(serif[corner] - sans[corner]).mean() > 5
    body = (slice(120, 230), slice(60, 190))  # the big pip: the same drawing
    assert np.abs(serif[body] - sans[body]).max() == 0


def test_a_family_that_is_not_installed_raises_naming_no_substitute(cache: Path) -> None:
    with pytest.raises(FontMissing, match=r"'No Such Family' is not installed.*silently draw"):
        open_deck("font:No Such Family")


def test_a_known_family_that_is_missing_names_its_package(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(truetype, "font_files", lambda family: [])
    # C059 is in Debian's fonts-urw-base35 (packages.debian.org file list)
    with pytest.raises(FontMissing, match="apt-get install -y fonts-urw-base35"):
        open_deck("font:C059/bold")


def test_a_missing_npm_face_names_the_installer_and_its_package(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The twenty-second group's faces come from npm, not Debian: apt-get
    would be the wrong advice."""
    monkeypatch.setattr(truetype, "font_files", lambda family: [])
    with pytest.raises(FontMissing, match=r"scripts/bench_fonts\.sh \(the npm package "
                       r"@expo-google-fonts/cinzel@0\.4\.2\)") as caught:
        open_deck("font:Cinzel")
    assert "apt-get" not in str(caught.value)


def test_a_missing_bold_is_not_faked(cache: Path) -> None:
    if not _installed("DejaVu Sans Light"):
        pytest.skip("fonts-dejavu-extra not installed")
    # DejaVu Sans Light has one face, ExtraLight: no bold to draw
    with pytest.raises(FontMissing, match="no upright bold"):
        open_deck("font:DejaVu Sans Light/bold")


def test_find_font_picks_the_upright_file_of_the_weight() -> None:
    # Debian's fonts-dejavu-core file names
    assert find_font("DejaVu Serif").file.endswith("/DejaVuSerif.ttf")
    assert find_font("DejaVu Serif", bold=True).file.endswith("/DejaVuSerif-Bold.ttf")
    assert find_font("dejavu serif").file.endswith("/DejaVuSerif.ttf")  # fontconfig: no case


def test_deck_names() -> None:
    assert fontdeck.parse_name("font:Open Sans/bold") == ("Open Sans", True)
    assert fontdeck.parse_name("font:C059") == ("C059", False)
    assert fontdeck.parse_name("font:C059/regular") == ("C059", False)
    for bad in ("font:", "font:/bold", "C059", "font:a/b/bold"):
        with pytest.raises(ValueError):
            fontdeck.parse_name(bad)


def test_faces_are_cached_on_disk(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = open_deck("font:DejaVu Serif", width=120).face("QH")
    assert len(list(cache.rglob("*.png"))) == 1

    def no_render(*args: object) -> None:
        raise AssertionError("drew the labels again instead of reading the cache")

    monkeypatch.setattr(fontdeck, "_sheet_ink", no_render)
    again = open_deck("font:DejaVu Serif", width=120).face("QH")
    assert np.array_equal(first, again)


def test_isolated_fonts_leave_nothing_to_substitute() -> None:
    if not _installed("Liberation Sans"):
        pytest.skip("fonts-liberation not installed")

    def svg(family: str) -> str:
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60">'
                f'<text x="5" y="45" font-size="40" font-family="{family}">AQ7</text></svg>')

    serif = find_font("DejaVu Serif").file
    with isolated_fonts([serif]) as env:
        asked_other = render_svg(svg("Liberation Sans"), env)[..., 3].astype(int)
        asked_serif = render_svg(svg("DejaVu Serif"), env)[..., 3].astype(int)
    system_other = render_svg(svg("Liberation Sans"))[..., 3].astype(int)
    # only DejaVu Serif is known inside: asking for Liberation Sans still draws it
    assert np.array_equal(asked_other, asked_serif)
    # while the system's fontconfig draws real Liberation Sans
    assert np.abs(system_other - asked_serif).mean() > 5


def test_a_face_that_draws_every_label_is_drawable() -> None:
    assert fontdeck.undrawn_label(find_font("DejaVu Sans")) is None


@pytest.mark.skipif(not _installed("Museum"), reason="fonts-levien-museum is not installed")
def test_a_face_that_draws_no_ten_is_named_before_a_benchmark_reads() -> None:
    """Museum (fonts-levien-museum; no group's face since it stopped the twelfth
    group's first read attempt) draws nothing for "10" through the renderer:
    the label is named, and the benchmarks' font check refuses the deck."""
    import subprocess
    import sys

    assert fontdeck.undrawn_label(find_font("Museum")) == "10"
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, str(root / "benchmarks" / "vision_fuse.py"),
                          "--designs", "font:Museum", "--dry-run"],
                         capture_output=True, text=True, timeout=120, cwd=root)
    assert run.returncode == 2
    assert "font:Museum (cannot draw '10')" in run.stderr


@pytest.mark.skipif(not _installed("TypoScript"), reason="fonts-levien-typoscript is not installed")
def test_a_face_without_digits_is_not_drawable() -> None:
    """TypoScript (fonts-levien-typoscript; the thirteenth group's script face,
    read once) maps no digit: its "10" would be drawn as empty boxes."""
    assert fontdeck.undrawn_label(find_font("TypoScript")) == "10"


def test_a_font_collections_charsets_do_not_run_together() -> None:
    """``fc-query`` prints one charset per face of a ``.ttc``; with a newline
    after each (as ``font_charset`` asks) two faces' ranges stay apart.  The
    text is written by hand: face 1 maps space to "~" and U+2FA1D, face 2
    space to DEL."""
    points = truetype.parse_charsets("20-7e 2fa1d\n20-7f\n")
    assert points == set(range(0x20, 0x80)) | {0x2FA1D}


def test_the_charset_of_an_installed_face_holds_every_index_character() -> None:
    points = truetype.font_charset(find_font("DejaVu Sans").file)
    assert {ord(ch) for ch in "0123456789AJQK"} <= points
