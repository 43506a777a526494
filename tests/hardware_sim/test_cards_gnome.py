"""Debian gnome-cards-data designs rendered through rsvg-convert."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hardware_sim.cards import CARD_CODES, gnome, open_deck

pytestmark = pytest.mark.skipif(
    not gnome.available(), reason="gnome-cards-data or librsvg2-bin not installed"
)


def red_ink(img: np.ndarray) -> np.ndarray:
    b, g, r = (img[..., i].astype(int) for i in range(3))
    return (r > g + 60) & (r > b + 60)


def test_installed_designs_are_catalogued() -> None:
    names = gnome.list_designs()
    assert {"anglo", "paris", "tango"} <= set(names)
    assert set(names) <= set(gnome.DESIGNS), set(names) - set(gnome.DESIGNS)
    fams = gnome.families()
    assert {"anglo", "gnomangelo"} <= set(fams["anglo"])
    assert sum(len(v) for v in fams.values()) == len(names)


def test_nonstandard_indices_are_marked() -> None:
    assert gnome.must_be_unsure("berlin", "JH") and gnome.must_be_unsure("berlin", "QS")
    assert not gnome.must_be_unsure("berlin", "KH") and not gnome.must_be_unsure("berlin", "AH")
    assert not gnome.must_be_unsure("paris", "QH")
    assert gnome.must_be_unsure("swiss-xvii", "7C")
    assert gnome.info("some_new_deck").family == "some_new_deck"


def test_design_renders_every_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PONTOON_CACHE_DIR", str(tmp_path))
    deck = open_deck("paris", width=160)
    faces = {c: deck.face(c) for c in CARD_CODES}
    for code, img in faces.items():
        assert img.shape[1] == 160 and 1.35 < img.shape[0] / 160 < 1.7, code
        h, w = img.shape[:2]
        tl = img[: int(0.25 * h), : int(0.2 * w)]
        br = img[h - int(0.25 * h) :, w - int(0.2 * w) :]
        for corner in (tl, br):
            assert (corner.min(axis=2) < 150).sum() > 30, f"{code}: index corner empty"
        if code[0] in "JQK":
            continue  # court art reaches the index corner in colour
        if code[1] in "HD":
            assert red_ink(tl).sum() > 20, code
        else:
            assert red_ink(tl).sum() < 5, code
    # distinct faces, and the back is none of them
    flat = {c: f.astype(int) for c, f in faces.items()}
    assert np.abs(flat["AS"] - flat["AH"]).mean() > 3
    assert np.abs(deck.back().astype(int) - flat["AS"]).mean() > 30
    alpha = deck.mask("AS")
    assert alpha[0, 0] < 128 and alpha[h // 2, w // 2] == 255  # rounded corner, solid middle


def test_renders_are_cached_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PONTOON_CACHE_DIR", str(tmp_path))
    first = gnome.render_design("tango", width=100)
    pngs = list(tmp_path.rglob("*.png"))
    assert len(pngs) == 53

    def no_render(*args: object) -> None:
        raise AssertionError("rendered again instead of reading the cache")

    monkeypatch.setattr(gnome, "_render_sheet", no_render)
    again = gnome.render_design("tango", width=100)
    assert all(np.array_equal(first[k], again[k]) for k in first)


def test_unknown_design_says_what_is_installed() -> None:
    with pytest.raises(LookupError, match="anglo"):
        gnome.GnomeDeck("no_such_deck")


@pytest.mark.slow
def test_every_installed_design_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PONTOON_CACHE_DIR", str(tmp_path))
    for name in gnome.list_designs():
        faces = gnome.render_design(name, width=80)
        assert len(faces) == 53, name
        for code, img in faces.items():
            assert img.shape[1] == 80 and img.shape[2] == 4, (name, code)
            assert (img[..., 3] > 0).mean() > 0.9, (name, code)  # the cell holds a card
        assert np.abs(faces["AS"].astype(int) - faces["KH"]).mean() > 3, name
