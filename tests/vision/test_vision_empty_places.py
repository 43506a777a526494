"""Empty places: a number card whose calibrated layout holds the array seen,
but prints a pip where the frame shows clean paper, is ruled out
(docs/vision.md, twenty-third pass).

The frames are drawn here: a plain card on a green table, black round pips
at the standard places written down by hand (as fractions of the card's
width and height; a 9 holds a 5's four corners and its middle), so what
each place shows is known without the reader: paper, a pip, glare over a
pip, a finger over a pip, or the world outside the camera's picture.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES, Deck, open_deck
from vision.calibrate import calibrate_images
from vision.empty_places import blank_at, glare_in, paper_view, rule_out_by_empty_places
from vision.pips import BODY_H, BODY_W, RULED_OUT, BodyReading, Pip
from vision.recognizer import Recognizer

LEFT, MID, RIGHT = 0.3, 0.5, 0.7
TOP, UPPER, MIDDLE, LOWER, BOTTOM = 0.15, 0.383, 0.5, 0.617, 0.85
FIVE = ((LEFT, TOP), (RIGHT, TOP), (MID, MIDDLE), (LEFT, BOTTOM), (RIGHT, BOTTOM))
#: the four pips a 9 prints beside a 5's
NINE_MORE = ((LEFT, UPPER), (RIGHT, UPPER), (LEFT, LOWER), (RIGHT, LOWER))
NINE = (*FIVE, *NINE_MORE)
LAYOUTS = {"5S": FIVE, "9S": NINE}
#: the card in the frame: 200 x 300 px, its top-left corner at (220, 90)
CARD = (220, 90, 420, 390)
#: a pip's diameter in frame px (24: 12 body px, as a common design's pips)
PIP = 24
PAPER, INK = (225, 228, 230), (25, 25, 25)
TABLE, SKIN = (40, 90, 40), (120, 150, 205)


def _quad(card: tuple[int, int, int, int] = CARD) -> npt.NDArray[np.float32]:
    x0, y0, x1, y1 = card
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def _at(place: tuple[float, float], card: tuple[int, int, int, int] = CARD) -> tuple[int, int]:
    x0, y0, x1, y1 = card
    return int(x0 + place[0] * (x1 - x0)), int(y0 + place[1] * (y1 - y0))


def _frame(pips: tuple[tuple[float, float], ...],
           card: tuple[int, int, int, int] = CARD) -> npt.NDArray[np.uint8]:
    frame = np.full((480, 640, 3), TABLE, np.uint8)
    cv2.rectangle(frame, card[:2], card[2:], PAPER, -1)
    for place in pips:
        cv2.circle(frame, _at(place, card), PIP // 2, INK, -1)
    return frame


def _array(places: tuple[tuple[float, float], ...]) -> BodyReading:
    pips = tuple(Pip(x * BODY_W, y * BODY_H, 110, np.zeros(5), size=PIP // 2)
                 for x, y in places)
    return BodyReading(len(places), "S", np.zeros(len(CARD_CODES)), pips, "array")


def _ruled(frame: npt.NDArray[np.uint8], card: tuple[int, int, int, int] = CARD) -> set[str]:
    out = rule_out_by_empty_places(_array(FIVE), LAYOUTS, lambda: paper_view(frame, _quad(card)))
    return {c for c, v in zip(CARD_CODES, out.evidence, strict=True) if v == RULED_OUT}


def test_a_five_rules_out_the_nine_whose_other_places_are_paper() -> None:
    """A 5 seen whole: the 9's layout holds its pips, but the 9's four other
    places are clean paper, so the 9 is ruled out; the 5 is not."""
    assert _ruled(_frame(FIVE)) == {"9S"}


def test_a_pip_place_is_paper_only_where_no_ink_is() -> None:
    view = paper_view(_frame(FIVE), _quad())
    assert view is not None
    size = PIP / 2
    assert not blank_at(view, MID * BODY_W, MIDDLE * BODY_H, size)
    assert blank_at(view, LEFT * BODY_W, UPPER * BODY_H, size)


def test_a_nine_with_pips_under_glare_is_not_ruled_out() -> None:
    """A 9 whose four other pips glare has washed out (saturated white, as a
    lamp's reflection): its body shows a 5's array, and the 9 stays possible."""
    frame = _frame(NINE)
    for place in NINE_MORE:
        cv2.circle(frame, _at(place), PIP, (255, 255, 255), -1)
    assert _ruled(frame) == set()


def test_a_nine_with_pips_under_a_finger_is_not_ruled_out() -> None:
    """A 9 whose four other pips a finger covers (skin, darker than paper):
    the 9 stays possible."""
    frame = _frame(NINE)
    x0, y0 = _at((0.1, UPPER - 0.08))
    x1, y1 = _at((0.9, LOWER + 0.08))
    cv2.rectangle(frame, (x0, y0), (x1, y1), SKIN, -1)
    cv2.circle(frame, _at((MID, MIDDLE)), PIP // 2, INK, -1)
    assert _ruled(frame) == set()


def test_places_outside_the_camera_picture_say_nothing() -> None:
    """A card lying half off the picture's left edge (the body there is the
    picture's edge drawn out, paper-coloured, by the warp): the 9's left
    places are outside and never paper; with its right places under a
    finger, nothing is left to look at and the 9 stays possible."""
    half_off = (-100, 90, 100, 390)
    frame = _frame(FIVE, half_off)
    view = paper_view(frame, _quad(half_off))
    assert view is not None
    assert not blank_at(view, LEFT * BODY_W, UPPER * BODY_H, PIP / 2)
    assert blank_at(view, RIGHT * BODY_W, UPPER * BODY_H, PIP / 2)
    x0, y0 = _at((RIGHT - 0.15, UPPER - 0.08), half_off)
    x1, y1 = _at((RIGHT + 0.15, LOWER + 0.08), half_off)
    cv2.rectangle(frame, (x0, y0), (x1, y1), SKIN, -1)
    assert _ruled(frame, half_off) == set()


@pytest.fixture(scope="module")
def anglo() -> tuple[Deck, Recognizer]:
    deck = open_deck("anglo")
    profile = calibrate_images({c: deck.face(c) for c in CARD_CODES}, name="anglo")
    return deck, Recognizer(profile)


def test_a_decks_five_read_with_its_profile_rules_out_its_nine(
    anglo: tuple[Deck, Recognizer],
) -> None:
    """Anglo's 9 prints its pips at a 5's four corners and middle and four
    more between them (by hand, from its face): a frame of the 5 read with
    the deck's profile rules the 9 out, which the layouts alone cannot.  (Not
    every frame: anglo's pips are big, a window a pip and a fifth wide takes
    in its neighbours' ink, and paper the camera saturates may be glare.)"""
    deck, rec = anglo
    rng = np.random.default_rng(3)
    ruled = [("9S" in rec.read(make_frame(deck, "5S", rng).image).ruled_out) for _ in range(4)]
    assert any(ruled)


def test_no_number_card_is_ruled_out_by_its_own_places(anglo: tuple[Deck, Recognizer]) -> None:
    """Hard frames (glare, blur, tilt, a finger) of every number card of the
    deck, read with its profile: none has its own card ruled out."""
    deck, rec = anglo
    rng = np.random.default_rng(5)
    for code in (c for c in CARD_CODES if c[0] in "23456789T"):
        reading = rec.read(make_frame(deck, code, rng, preset="hard").image)
        assert code not in reading.ruled_out, code


def _noisy(frame: npt.NDArray[np.uint8], sigma: float, seed: int) -> npt.NDArray[np.uint8]:
    """``frame`` with sensor noise added and clipped, as a camera adds it after
    the light: on clipped glare the noise can only pull a pixel down."""
    rng = np.random.default_rng(seed)
    noisy = frame.astype(np.float32) + rng.normal(0.0, sigma, frame.shape).astype(np.float32)
    return np.clip(np.rint(noisy), 0, 255).astype(np.uint8)


BRIGHT = (245, 246, 248)


def _bright_frame(pips: tuple[tuple[float, float], ...]) -> npt.NDArray[np.uint8]:
    frame = _frame(pips)
    x0, y0, x1, y1 = CARD
    frame[y0:y1 + 1, x0:x1 + 1][np.all(frame[y0:y1 + 1, x0:x1 + 1] == PAPER, axis=2)] = BRIGHT
    return frame


def test_bright_noisy_paper_is_paper_not_glare() -> None:
    """Bright paper with sensor noise (in the body's darkest channel, means
    of about 239 and single pixels past 250, as the twenty-fourth group's
    Limelight 4C showed, seed 20): in every window where the 9 prints a
    pip the 5 does not, some pixel passes 250 but no patch does, so a 5
    seen whole rules out the 9 again.  (The old test, any pixel at 250,
    took each of those windows for glare and ruled out nothing.)"""
    frame = _noisy(_bright_frame(FIVE), 8.0, seed=1)
    view = paper_view(frame, _quad())
    assert view is not None
    half = int(0.6 * PIP / 2)
    for x, y in NINE_MORE:
        cx, cy = int(x * BODY_W), int(y * BODY_H)
        window = view.raw[cy - half:cy + half + 1, cx - half:cx + half + 1]
        assert int(window.max()) >= 250  # the noise does reach past 250 there
        assert blank_at(view, x * BODY_W, y * BODY_H, PIP / 2)
    assert _ruled(frame) == {"9S"}


def test_clipped_glare_with_noise_still_hides_a_pip() -> None:
    """The same bright, noisy paper, the 9's four other pips under saturating
    glare (clipped white before the noise, as a camera's sensor): the noise
    pulls many clipped pixels under 250, but the patches stay at the clip,
    so the places are glare and the 9 stays possible."""
    frame = _bright_frame(NINE)
    for place in NINE_MORE:
        cv2.circle(frame, _at(place), PIP, (255, 255, 255), -1)
    frame = _noisy(frame, 8.0, seed=2)
    assert _ruled(frame) == set()


def test_glare_is_a_patch_at_the_clip_not_a_pixel() -> None:
    """``glare_in`` by hand: paper at 240 with single pixels at 255 is not
    glare; a 3 x 3 patch averaging 250 is; one averaging 249 is not."""
    window = np.full((15, 15), 240, np.uint8)
    window[2, 3] = window[9, 11] = window[13, 1] = 255
    assert not glare_in(window, 255.0)
    window[5:8, 5:8] = 250
    assert glare_in(window, 255.0)
    window[5:8, 5:8] = 249
    assert not glare_in(window, 255.0)


def _dim_card(pips: tuple[tuple[float, float], ...],
              lifted: tuple[tuple[float, float], ...] = ()) -> npt.NDArray[np.uint8]:
    """A dim frame of the card (its paper at about 122, ink at 10), with a
    soft glare spot (a Gaussian of a pip's diameter, +106 at its centre)
    on each of the ``lifted`` places, whose pip it has washed to 85 % of the
    lifted paper around it, as blur and glare left builtin:modern's 9C on
    development data."""
    frame = _frame(pips).astype(np.float32)
    x0, y0, x1, y1 = CARD
    card = frame[y0:y1 + 1, x0:x1 + 1]
    card[np.all(card == PAPER, axis=2)] = (120, 122, 125)
    card[np.all(card == INK, axis=2)] = (10, 10, 10)
    ys, xs = np.mgrid[0:frame.shape[0], 0:frame.shape[1]].astype(np.float32)
    for place in lifted:
        cx, cy = _at(place)
        d2 = ((xs - cx) ** 2 + (ys - cy) ** 2) / float(PIP) ** 2
        lift = 106.0 * np.exp(-d2)
        frame += lift[..., None]
        washed = d2 <= 0.36  # (the pip, drawn 12 px across, and its rim)
        frame[washed] = 0.85 * (122.0 + lift[washed])[:, None]
    return np.clip(np.rint(frame), 0, 255).astype(np.uint8)


def test_glare_on_a_dim_card_hides_a_pip_without_reaching_the_clip() -> None:
    """A dim frame of a 9 whose soft glare lifts the paper around one of its
    pips far above the card's own and washes that pip to a faint mark, as
    builtin:modern's 9C showed on development data (window means 188-223,
    no pixel at 250), the array seen a 5's: the 9's three other places show
    ink, the fourth, flattened, passes for paper, and only the lift over
    the card's paper tells the glare.  The 9 stays possible; on the same
    dim card without glare, a 5 still rules the 9 out.  (The glare covers
    under a tenth of the body, as there: the card's paper is the body's
    90th percentile, which glare over more would lift.)"""
    frame = _dim_card(NINE, NINE_MORE[:1])
    view = paper_view(frame, _quad())
    assert view is not None and int(view.raw.max()) < 250  # nothing near the clip
    assert _ruled(frame) == set()
    assert _ruled(_dim_card(FIVE)) == {"9S"}


def test_dim_paper_beside_a_glare_spot_is_still_paper() -> None:
    """A dim card (paper 150, a cool, weak light) with a saturated glare
    spot down its middle, over more than a tenth of it: the paper beside
    the spot is clean paper (fifty-first pass), though it is under 0.85 of
    the body's brightest tenth, which the spot is.  Skin there (its darkest
    channel 120, under 0.85 of the paper's 150) is still no paper."""
    frame = _frame(FIVE)
    x0, y0, x1, y1 = CARD
    cv2.rectangle(frame, (x0, y0), (x1, y1), (150, 152, 155), -1)
    for place in FIVE:
        cv2.circle(frame, _at(place), PIP // 2, INK, -1)
    cv2.rectangle(frame, _at((0.42, 0.1)), _at((0.58, 0.9)), (255, 255, 255), -1)
    view = paper_view(frame, _quad())
    assert view is not None
    assert view.raw_paper == 255
    assert blank_at(view, LEFT * BODY_W, UPPER * BODY_H, PIP / 2)
    assert not blank_at(view, MID * BODY_W, UPPER * BODY_H, PIP / 2)  # the spot
    cv2.rectangle(frame, _at((0.2, 0.3)), _at((0.4, 0.45)), SKIN, -1)
    view = paper_view(frame, _quad())
    assert view is not None
    assert not blank_at(view, LEFT * BODY_W, UPPER * BODY_H, PIP / 2)
