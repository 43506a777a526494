"""Issue 18, a deck that prints its index upright at both ends (the
``upright_bottom`` layout: rank above suit at the bottom-right too, not
turned half a turn).  The turned bottom-right corner patch then shows the
index upside down, suit sign above rank; it must never name a wrong card,
and read the other way up it names the right one.

Expected cards are the codes the faces are rendered from; expected pixel
positions are worked out by hand from the layout's rule (the bottom-right
index is the top-left one moved, not turned: its box is the top-left box
turned about the card's centre, its ink the top-left ink unturned)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from hardware_sim.camera import make_frame
from hardware_sim.camera.in_shoe import InShoeRenderer
from hardware_sim.cards import CARD_CODES, open_deck
from hardware_sim.cards.layouts import LayoutDeck
from vision.calibrate import calibrate_images
from vision.detect import find_card
from vision.evidence import FrameFusion
from vision.in_shoe import InShoeReader
from vision.index import card_corners, corner_patch, read_corner, read_other_way
from vision.recognizer import NOT_STANDARD, Recognizer

SIXES_NINES = ("6H", "9H", "6S", "9S", "6D", "9D")
#: the card lies upright in a 640 x 480 canvas at this place (its corners
#: are known, so corner patch 1 is the bottom-right whatever a detector says)
X0, Y0 = 195, 65


def _index_ink(grey: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Dark pixels of a corner region, less the blobs within 2 px of its
    outer sides (the card's printed border and its rounded corner)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats((grey < 150).astype(np.uint8), 8)
    h, w = grey.shape
    keep = np.zeros((h, w), bool)
    for i in range(1, n):
        x, y, bw, bh, _ = stats[i]
        if x > 2 and y > 2 and x + bw < w - 2 and y + bh < h - 2:
            keep |= labels == i
    return keep


def _ink_box(grey: npt.NDArray[np.uint8]) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(_index_ink(grey))
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _corr(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))


@pytest.mark.parametrize("style", ["classic", "duplex"])
@pytest.mark.parametrize("code", ["6H", "9S"])
def test_the_bottom_index_is_the_top_one_moved_not_turned(style: str, code: str) -> None:
    """Within 55 x 85 px of each corner (a 250 px face: the index is about
    45 x 80 px, the body's pips start further in) the bottom-right ink's box
    is the top-left box turned about the card's centre, and its ink is the
    top-left ink as it is (upright_bottom) or turned (standard: the check
    tells the two apart)."""
    for layout, upright in (("upright_bottom", True), ("standard", False)):
        face = LayoutDeck(style, layout).face(code)
        h, w = face.shape[:2]
        grey = face.min(axis=2)
        x0, y0, x1, y1 = _ink_box(grey[:85, :55])
        bx0, by0, bx1, by1 = _ink_box(grey[h - 85 :, w - 55 :])
        bx0, bx1, by0, by1 = bx0 + w - 55, bx1 + w - 55, by0 + h - 85, by1 + h - 85
        for got, want in ((bx0, w - x1), (bx1, w - x0), (by0, h - y1), (by1, h - y0)):
            assert abs(got - want) <= 2, (layout, (bx0, by0, bx1, by1), (x0, y0, x1, y1))
        top = grey[y0:y1, x0:x1].astype(np.float64)
        bottom = grey[h - y1 : h - y0, w - x1 : w - x0].astype(np.float64)
        same, turned = _corr(bottom, top), _corr(bottom, top[::-1, ::-1])
        if upright:
            assert same > 0.9 and same > turned + 0.2, (layout, same, turned)
        else:
            assert turned > 0.9 and turned > same + 0.2, (layout, same, turned)
    standard, upright_face = (LayoutDeck(style, lay).face(code) for lay in ("standard",
                                                                           "upright_bottom"))
    outside = np.ones(standard.shape[:2], bool)
    outside[-85:, -55:] = False
    assert np.array_equal(standard[outside], upright_face[outside])  # only that corner moved


def test_a_layout_deck_opens_by_name() -> None:
    deck = open_deck("layout:duplex:upright_bottom")
    assert deck.name == "layout:duplex:upright_bottom"
    assert np.array_equal(deck.face("6H"), LayoutDeck("duplex", "upright_bottom").face("6H"))
    with pytest.raises(ValueError):
        open_deck("layout:duplex:nowhere")


def _on_table(face: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    canvas = np.full((480, 640, 3), (40, 90, 40), np.uint8)
    h, w = face.shape[:2]
    canvas[Y0 : Y0 + h, X0 : X0 + w] = face
    quad = np.array([[X0, Y0], [X0 + w, Y0], [X0 + w, Y0 + h], [X0, Y0 + h]], np.float32)
    return canvas, quad


@pytest.mark.parametrize("style", ["classic", "modern", "duplex"])
@pytest.mark.parametrize("code", SIXES_NINES)
def test_the_bottom_corner_alone_reads_its_card(style: str, code: str) -> None:
    """The turned bottom-right patch of a clean face shows the index upside
    down; read on its own it names the card (read the usual way its suit
    sign passes for a rank: not a standard index)."""
    canvas, quad = _on_table(LayoutDeck(style, "upright_bottom").face(code))
    g = read_corner(corner_patch(canvas, quad, 1), 1)
    assert g is not None
    assert Recognizer().decide(iter([g])).card == code


@pytest.mark.parametrize("code", SIXES_NINES)
def test_a_normal_index_read_the_other_way_up_is_never_accepted(code: str) -> None:
    """What keeps every normal deck's reading as it was: turned, a normal
    index's suit sign is no rank and its rank no suit sign, so the corner
    read the other way up is never accepted (either corner, two styles)."""
    rec = Recognizer()
    for style in ("duplex", "classic"):
        canvas, quad = _on_table(open_deck(f"builtin:{style}").face(code))
        for k in (0, 1):
            g = read_corner(corner_patch(canvas, quad, k), k)
            assert g is not None and rec.decide(iter([g])).card == code
            other = read_other_way(g)
            assert other is None or rec._vote(other).problem, (style, k)


def test_overhead_frames_are_never_wrong_and_fuse_to_the_card() -> None:
    """Seeded camera frames (normal preset) of the validation style: no frame
    names another card, nearly every frame names the card, and the frames
    fused name it."""
    deck = LayoutDeck("duplex", "upright_bottom")
    rec = Recognizer()
    rng = np.random.default_rng(18)
    named = total = 0
    for code in SIXES_NINES:
        fusion = FrameFusion()
        for _ in range(6):
            reading = rec.read(make_frame(deck, code, rng, preset="normal").image)
            assert reading.card in (None, code), (code, reading)
            named += reading.card == code
            total += 1
            fusion.push(reading)
        assert fusion.decide(final=True).card == code
    assert named >= 0.9 * total, (named, total)


def test_in_shoe_passes_name_the_card_and_its_bottom_end_alone_leans_to_it() -> None:
    """In the shoe (validation style, normal shoe, each card led by either
    end): every pass names its card and no frame names another; and the
    frames that show the bottom end's index only (the turned one, upright on
    the face) lean to the card on their own: it is their likeliest card (a
    few frames of one end may be too weak to name it, or all cut by the
    window's edge: such a pass says nothing here, but most must)."""
    renderer = InShoeRenderer("layout:duplex:upright_bottom", preset="normal", seed=4)
    reader = InShoeReader()
    leaning = 0
    for i, code in enumerate(SIXES_NINES):
        for lead in ("top", "bottom"):
            rng = np.random.default_rng(i + 10 * (lead == "top"))
            frames = renderer.render_pass(renderer.plan(code, rng, lead=lead), rng)
            assert reader.read_pass([f.image for f in frames]).card == code, (code, lead)
            for f in frames:
                assert reader.read(f.image).card in (None, code), (code, lead)
            # the bottom end leads when ``lead`` is "bottom", else it trails
            only = (True, False) if lead == "bottom" else (False, True)
            bottom = [f.image for f in frames
                      if (f.leading_index_in_view, f.trailing_index_in_view) == only]
            alone = reader.read_pass(bottom)
            if alone.used:
                assert alone.card in (None, code), (code, lead, alone)
                assert alone.card == code or alone.guesses[0][0] == code, (code, lead, alone)
                leaning += 1
    assert leaning >= 8, leaning


@pytest.mark.parametrize("code", ["4S", "QC"])
def test_with_a_profile_a_blurred_upright_corner_leans_to_its_card(code: str) -> None:
    """The upright bottom index of a face blurred by 2 px: the deck's templates
    doubt every reading of it (the turned suit sign taken as a rank, or the
    blurred suit sign), but the classifier reads it the other way up.  The
    corner stays unsure, and its evidence is that way's: it leans to the card
    printed there (the rendered code).  Before, the upside-down reading's
    evidence was kept, and over a dozen frames it named a 4S as a 6S."""
    deck = LayoutDeck("duplex", "upright_bottom")
    profile = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name="upright")
    reader, generic = Recognizer(profile), Recognizer()
    face = cv2.GaussianBlur(deck.face(code), (0, 0), 2.0)
    det = find_card(face)
    assert det is not None
    upright = [g for g in card_corners(face, det.quad)
               if g is not None and generic._vote(g).problem == NOT_STANDARD]
    assert upright, "the upright corner reads as no standard index the usual way"
    for g in upright:
        _, vote = reader._corner(g)
        assert vote.evidence is not None
        assert CARD_CODES[int(np.argmax(vote.evidence))] == code
