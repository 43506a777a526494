"""Twelfth pass: tall and condensed indices that the splitter found no index
in ("no index visible").  Two ways: blur joins a tall rank to the suit sign
set a few units under it, one tall blob with no mark below it
(``vision.index_stacked``); or a thin, light rank (a light face's strokes,
blurred) is fainter than every level cut for the corner's dark suit sign,
which then stands alone (``vision.index._split_faint``).  Both are on as
shipped (``vision.index.LAST_TRIES``) since the thirteenth pass, as weak
evidence (``test_vision_last_try_weight``); the fixture sets the switch on
anyway, so these tests hold for the tries whatever the default, and one
test checks the switch off.

Patches are drawn here by hand (a bar rank and a diamond in card units, so
the expected boxes are the drawn ones, give or take the blur) or cut from a
training font deck's face (``font:PT Sans Narrow``, ``font:Yanone
Kaffeesatz/bold``: training faces, ``vision_fontdeck.MORE_FONTS``), where
the expected card is the code the face was rendered from."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

import vision.index as vi
from hardware_sim.cards import open_deck
from hardware_sim.cards.truetype import FontMissing
from vision.index import _RETRY_LEVELS, corner_patch, flatten, ink_levels, read_patch
from vision.index_mask import CROP_H, CROP_W
from vision.index_stacked import cut_stacked
from vision.recognizer import Recognizer

PAPER, DARK = 235.0, 30.0


@pytest.fixture(autouse=True)
def last_tries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two tries on (as shipped), whatever another test left set."""
    monkeypatch.setattr(vi, "LAST_TRIES", True)
#: the diamond drawn under the rank: rows 44..62, columns 8..24
DIAMOND_TOP, DIAMOND_BOTTOM = 44, 62


def _patch(grey: npt.NDArray[np.float64], sigma: float,
           noise: float = 0.0) -> npt.NDArray[np.uint8]:
    g = cv2.GaussianBlur(grey, (0, 0), sigma)
    if noise:
        g = g + np.random.default_rng(1).normal(0.0, noise, g.shape)
    return np.asarray(cv2.cvtColor(np.clip(g, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR))


def _blank() -> npt.NDArray[np.float64]:
    g = np.full((CROP_H, CROP_W), PAPER)
    pts = np.array([[16, DIAMOND_TOP], [24, 53], [16, DIAMOND_BOTTOM], [8, 53]], np.int32)
    cv2.fillPoly(g, [pts], DARK)
    return g


def stacked() -> npt.NDArray[np.float64]:
    """A condensed bar rank, rows 12..42 (31 tall, 10 wide), in ink 90 (a
    little lighter than the sign), one row of paper (43) above the diamond's
    tip: blurred, the two are one blob."""
    g = _blank()
    cv2.rectangle(g, (12, 12), (21, 42), 90.0, -1)
    return g


def faint_seven() -> npt.NDArray[np.float64]:
    """A light "7" of 3-unit strokes (bar rows 12..14, columns 10..22; stem
    column 14..16 down to row 37: 26 tall), ink 140 over paper 235, above
    the diamond in full ink 30."""
    g = _blank()
    cv2.rectangle(g, (14, 12), (16, 37), 140, -1)
    cv2.rectangle(g, (10, 12), (22, 14), 140, -1)
    return g


def _levels(minch: npt.NDArray[np.uint8]) -> list[float]:
    paper, dark, first = ink_levels(minch) or (0.0, 0.0, 0.0)
    return [first, *(dark + f * (paper - dark) for f in _RETRY_LEVELS)]


def _blobs(minch: npt.NDArray[np.uint8], thr: float) -> list[tuple[int, int, int, int]]:
    """The mask's blobs of more than 5 pixels, (x, y, w, h)."""
    mask = np.asarray(minch < thr, np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return [tuple(int(v) for v in s[:4]) for s in stats[1:] if s[4] > 5]  # type: ignore[misc]


def test_a_rank_joined_to_its_sign_is_one_blob_at_every_level() -> None:
    """Why the splitter found no index: at each of its levels the drawn rank
    and diamond are a single blob from the rank's top to the diamond's foot."""
    minch = flatten(_patch(stacked(), 3.0).min(axis=2))
    for thr in _levels(minch):
        blobs = _blobs(minch, thr)
        tall = [b for b in blobs if b[1] <= 13 and b[1] + b[3] >= DIAMOND_BOTTOM - 2]
        assert len(blobs) == 1 and tall, (thr, blobs)


def test_the_tries_are_on_as_shipped() -> None:
    """Read from the module's source, since the fixture above sets the switch."""
    import inspect

    assert "\nLAST_TRIES = True\n" in inspect.getsource(vi)


def test_with_the_switch_off_the_joined_rank_is_no_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(vi, "LAST_TRIES", False)
    assert read_patch(_patch(stacked(), 3.0)) is None
    assert read_patch(_patch(faint_seven(), 1.5)) is None


def test_the_joined_rank_is_parted_from_its_sign() -> None:
    g = read_patch(_patch(stacked(), 3.0))
    assert g is not None
    assert g.box is not None
    x0, y0, x1, y1 = g.box
    assert abs(y0 - 12) <= 2 and abs(y1 - (DIAMOND_BOTTOM + 1)) <= 2
    assert abs(x0 - 8) <= 2 and abs(x1 - 25) <= 2  # the diamond's sides
    assert abs(g.rank_height - 31) <= 3  # the bar, rows 12..42
    assert abs(g.suit_height - 19) <= 3  # the diamond, rows 44..62
    assert g.rank_aspect > 2.0  # tall and narrow, as drawn (31 x 10)


def test_the_cut_falls_in_the_gap() -> None:
    minch = flatten(_patch(stacked(), 3.0).min(axis=2))
    paper, dark, first = ink_levels(minch) or (0.0, 0.0, 0.0)
    mask = np.asarray(minch < first, np.uint8)
    cuts = cut_stacked(mask, minch, paper - dark)
    # paper between the rank (to row 42) and the diamond (from row 44)
    assert len(cuts) == 1 and 42 <= cuts[0] <= 44


@pytest.mark.parametrize("shape", ["bar", "eight"])
def test_a_glyph_without_a_light_gap_is_not_cut(shape: str) -> None:
    """A tall bar of even ink, and an "8" (two rings whose strokes meet in
    the middle: darkest there), have no lighter row to part at."""
    g = np.full((CROP_H, CROP_W), PAPER)
    if shape == "bar":
        cv2.rectangle(g, (12, 12), (21, 60), DARK, -1)
    else:
        cv2.circle(g, (17, 22), 8, DARK, 3)
        cv2.circle(g, (17, 40), 10, DARK, 3)
    minch = flatten(_patch(g, 2.0).min(axis=2))
    paper, dark, _ = ink_levels(minch) or (0.0, 0.0, 0.0)
    for thr in _levels(minch):
        assert cut_stacked(np.asarray(minch < thr, np.uint8), minch, paper - dark) == []


@pytest.mark.parametrize("noise", [0.0, 6.0])
def test_a_faint_rank_over_a_dark_sign_is_found(noise: float) -> None:
    patch = _patch(faint_seven(), 1.5, noise)
    minch = flatten(patch.min(axis=2))
    for thr in _levels(minch):
        # at the corner's own levels the rank is gone or in pieces: no blob
        # as tall as it above the diamond
        above = [b for b in _blobs(minch, thr) if b[1] + b[3] < DIAMOND_TOP]
        assert all(b[3] < 20 for b in above), (thr, above)
    g = read_patch(patch)
    assert g is not None and g.box is not None
    x0, y0, x1, y1 = g.box
    assert abs(y0 - 12) <= 2 and abs(y1 - (DIAMOND_BOTTOM + 1)) <= 2
    assert abs(x0 - 8) <= 2 and abs(x1 - 25) <= 2  # the diamond's sides
    assert abs(g.rank_height - 26) <= 3
    assert abs(g.suit_height - 19) <= 3


def test_a_sign_under_bare_paper_is_no_index() -> None:
    """Paper noise above a lone suit sign is not taken for a faint rank."""
    patch = _patch(_blank(), 1.5, 6.0)
    assert read_patch(patch) is None


def _deck_patch(name: str, code: str, sigma: float) -> npt.NDArray[np.uint8]:
    try:
        face = open_deck(name).face(code)
    except (FontMissing, RuntimeError) as exc:
        pytest.skip(f"{name}: {exc}")
    h, w = face.shape[:2]
    quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    blurred = cv2.GaussianBlur(np.ascontiguousarray(face[:, :, :3]), (0, 0), sigma)
    return corner_patch(blurred, quad, 0)


@pytest.mark.parametrize(("name", "code"), [("font:PT Sans Narrow", "5H"),
                                            ("font:PT Sans Narrow", "9H")])
def test_a_light_condensed_face_blurred_is_read(name: str, code: str) -> None:
    """A training face's light condensed rank, blurred as out of focus
    (4 face px, about 3 card units): found by a last try, and its evidence
    puts the card it was drawn as first (a frame of it alone names nothing:
    thirteenth pass, ``test_vision_last_try_weight``)."""
    patch = _deck_patch(name, code, 4.0)
    g = read_patch(patch)
    assert g is not None and g.last_try
    reading = Recognizer(body=False).decide(iter([g]))
    assert reading.card is None and reading.code == "low_confidence"
    assert reading.guesses[0][0] == code


def test_a_tall_bold_condensed_face_blurred_is_found() -> None:
    """``font:Yanone Kaffeesatz/bold``'s 2 of diamonds, blurred so that its
    rank and sign join: the index is found where the face prints it (top
    left, rank over sign), and the card is not named wrong."""
    patch = _deck_patch("font:Yanone Kaffeesatz/bold", "2D", 4.0)
    g = read_patch(patch)
    assert g is not None and g.box is not None
    assert g.box[0] < 0.3 * CROP_W and g.box[1] < 0.2 * CROP_H
    assert g.rank_height > g.suit_height
    assert Recognizer(body=False).decide(iter([g])).card in (None, "2D")
