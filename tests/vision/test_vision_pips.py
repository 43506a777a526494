"""The card's body as a second witness (``vision.pips``).

Expected values are the printed cards' own facts (a nine of spades prints
nine spades; a queen prints no array) or worked out by hand from the rule
in the module's text, never read back from the code under test.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES, open_deck
from vision.detect import find_card
from vision.evidence import reason_code
from vision.index import CARD_H, CARD_W, card_corners
from vision.pips import (
    BODY_H,
    BODY_W,
    PIPS_OF_RANK,
    RULED_OUT,
    Pip,
    array_evidence,
    index_box_in_card,
    lone_pip,
    pip_array,
    pip_pair,
    read_body,
)
from vision.recognizer import PIPS_DISAGREE, Reading, Recognizer, with_body

SPADES = np.array([0.01, 0.01, 0.01, 0.96, 0.01], np.float32)
CLUBS = np.array([0.96, 0.01, 0.01, 0.01, 0.01], np.float32)


def test_an_array_rules_out_courts_aces_fewer_pips_and_other_suits() -> None:
    """Five spades: only the 5 to 10 of spades remain (worked out by hand:
    every other suit goes, and of the spades the ace, 2, 3, 4 and courts)."""
    ev = array_evidence(5, "S", colour_fits=True)
    allowed = {c for c, v in zip(CARD_CODES, ev, strict=True) if v == 0}
    assert allowed == {"5S", "6S", "7S", "8S", "9S", "TS"}
    assert set(ev.tolist()) == {0.0, RULED_OUT}


def test_ink_of_the_wrong_colour_says_nothing_about_the_suit() -> None:
    """Spade-shaped pips in red ink (glare, a tinted light): the count still
    counts, the suit does not: the 5 to 10 of every suit, 24 cards."""
    ev = array_evidence(5, "S", colour_fits=False)
    allowed = {c for c, v in zip(CARD_CODES, ev, strict=True) if v == 0}
    assert allowed == {r + s for r in "56789T" for s in "CDHS"}


def test_index_boxes_are_mapped_from_their_corner_patch_into_card_units() -> None:
    """Patch 0 is the card's top-left as is; patch 1 is the bottom-right
    turned half a turn; patch 2 sits at the top-right (136 units in, the
    card 200 wide and the patch 64); patch 3 is patch 2 turned."""
    box = (7, 11, 51, 109)
    assert index_box_in_card(box, 0) == (7, 11, 51, 109)
    assert index_box_in_card(box, 1) == (CARD_W - 51, CARD_H - 109, CARD_W - 7, CARD_H - 11)
    assert index_box_in_card(box, 2) == (143, 11, 187, 109)
    assert index_box_in_card(box, 3) == (13, 191, 57, 289)


def _pip(x: float, y: float, probs: np.ndarray = SPADES, area: int = 120) -> Pip:
    return Pip(x * BODY_W, y * BODY_H, area, probs)


# the standard layouts as shares of the card (columns 1/3, 1/2, 2/3)
FIVE = [(1 / 3, 0.2), (2 / 3, 0.2), (0.5, 0.5), (1 / 3, 0.8), (2 / 3, 0.8)]
SEVEN = [(1 / 3, 0.2), (2 / 3, 0.2), (0.5, 0.35), (1 / 3, 0.5), (2 / 3, 0.5),
         (1 / 3, 0.8), (2 / 3, 0.8)]


def test_an_array_is_one_size_one_suit_and_its_own_half_turn() -> None:
    classes = "CDHS?"
    five = [_pip(x, y) for x, y in FIVE]
    assert pip_array(five, classes) is not None
    got = pip_array(five, classes)
    assert got is not None and len(got[0]) == 5 and got[1] == "S"
    # a 7's odd pip has no twin; one lone pip is allowed for an odd count
    seven = pip_array([_pip(x, y) for x, y in SEVEN], classes)
    assert seven is not None and len(seven[0]) == 7
    # three marks down one side of the card are no array (court art)
    assert pip_array([_pip(0.3, y) for y in (0.2, 0.4, 0.6)], classes) is None
    # one pip named another suit: the classifier doubts it, so no array
    mixed = [_pip(x, y, CLUBS if k == 0 else SPADES) for k, (x, y) in enumerate(FIVE)]
    assert pip_array(mixed, classes) is None
    # two pips: an ace's decoration or a court's symbols, never an array
    assert pip_array(five[:2], classes) is None


def test_a_middle_pip_is_read_the_way_round_its_suit_is_printed() -> None:
    """A heart in the middle of a 5 whose outline was found upside down looks,
    turned, like a spade without its stem: it must not break the array."""
    hearts = np.array([0.01, 0.01, 0.96, 0.01, 0.01], np.float32)
    looks_like_spade = np.array([0.01, 0.01, 0.01, 0.97, 0.0], np.float32)
    pips = [_pip(x, y, hearts) for x, y in FIVE if y != 0.5]
    pips.append(Pip(0.5 * BODY_W, 0.5 * BODY_H, 120, looks_like_spade, hearts))
    got = pip_array(pips, "CDHS?")
    assert got is not None and got[1] == "H" and len(got[0]) == 5


@pytest.fixture(scope="module")
def deck():  # type: ignore[no-untyped-def]
    return open_deck("builtin")


def _body(deck, code: str):  # type: ignore[no-untyped-def]
    rec = Recognizer()
    src = cv2.cvtColor(deck.face(code), cv2.COLOR_BGR2BGRA)
    det = find_card(src)
    assert det is not None
    boxes = [index_box_in_card(g.box, k) for k, g in enumerate(card_corners(src, det.quad))
             if g is not None and g.box is not None]
    return read_body(src, det.quad, boxes, rec.model, rec._ink_fits)


@pytest.mark.parametrize("code", ["3C", "5H", "7S", "9D", "TC", "8H"])
def test_a_clean_number_card_shows_its_own_pips(deck, code: str) -> None:  # type: ignore[no-untyped-def]
    body = _body(deck, code)
    assert body.pips == PIPS_OF_RANK[code[0]]
    assert body.suit == code[1]
    assert body.evidence[CARD_CODES.index(code)] == 0


@pytest.mark.parametrize("code", ["JC", "QD", "KS", "JH"])
def test_courts_show_their_picture_and_no_pips(deck, code: str) -> None:  # type: ignore[no-untyped-def]
    """A court's body moves no evidence and vetoes nothing; its framed
    picture withholds the 2s to 10s (docs/vision.md, fortieth pass)."""
    body = _body(deck, code)
    assert body.kind == "picture"
    assert body.vetoes == frozenset()
    assert body.withholds == frozenset(c for c in CARD_CODES if c[0] in "23456789T")
    assert not body.evidence.any()


@pytest.mark.parametrize(("code", "kind"), [("AS", "ace"), ("AH", "ace"), ("AD", "ace"),
                                            ("2C", "two"), ("2H", "two"), ("2S", "two")])
def test_aces_and_twos_say_their_suit_only(deck, code: str, kind: str) -> None:  # type: ignore[no-untyped-def]
    """One big pip, or two on the long axis: no count (a court may show two
    symbols, a lone pip may be a big one), only the suit: the 13 cards of the
    card's own suit keep their evidence, the 39 others lose ``RULED_OUT``."""
    body = _body(deck, code)
    assert (body.kind, body.suit, body.pips) == (kind, code[1], 0)
    kept = {c for c, v in zip(CARD_CODES, body.evidence, strict=True) if v == 0}
    assert kept == {r + code[1] for r in "A23456789TJQK"}


def test_a_lone_pip_either_way_up_is_named_by_its_ink() -> None:
    """An ace whose top end is unknown: a heart turned over looks like a spade
    without its stem.  Red ink leaves only the heart; dark ink, neither suit
    (both fit), so the pip says nothing.  A pip the classifier is under 0.93
    sure of says nothing either."""
    hearts = np.array([0.01, 0.01, 0.95, 0.02, 0.01], np.float32)
    spade_like = np.array([0.01, 0.01, 0.02, 0.95, 0.01], np.float32)
    ace = Pip(0.5 * BODY_W, 0.5 * BODY_H, 900, hearts, spade_like, int(0.4 * BODY_W))

    def red_ink(colour: tuple[float, float, float], suit: str) -> bool:
        return suit in "HD"

    def dark_ink(colour: tuple[float, float, float], suit: str) -> bool:
        return suit in "CS"

    def any_ink(colour: tuple[float, float, float], suit: str) -> bool:
        return True

    assert lone_pip([ace], "CDHS?", red_ink) == "H"
    assert lone_pip([ace], "CDHS?", dark_ink) == "S"  # only the spade reading fits dark ink
    assert lone_pip([ace], "CDHS?", any_ink) is None  # heart or spade: cannot tell
    doubtful = Pip(0.5 * BODY_W, 0.5 * BODY_H, 900,
                   np.array([0.05, 0.02, 0.9, 0.02, 0.01], np.float32), None,
                   int(0.4 * BODY_W))
    assert lone_pip([doubtful], "CDHS?", red_ink) is None
    off_centre = Pip(0.3 * BODY_W, 0.5 * BODY_H, 900, hearts, None, int(0.4 * BODY_W))
    assert lone_pip([off_centre], "CDHS?", red_ink) is None


def test_a_pair_is_on_the_long_axis_and_each_the_others_half_turn() -> None:
    clubs = np.array([0.9, 0.02, 0.02, 0.05, 0.01], np.float32)
    top = Pip(0.5 * BODY_W, 0.2 * BODY_H, 120, clubs, None, 12)
    bottom = Pip(0.5 * BODY_W, 0.8 * BODY_H, 130, clubs, None, 12)

    def dark(colour: tuple[float, float, float], suit: str) -> bool:
        return suit in "CS"

    assert pip_pair([top, bottom], "CDHS?", dark) == "C"
    # two marks down one side (a court's symbols), or not one another's twin
    side = [Pip(0.3 * BODY_W, 0.2 * BODY_H, 120, clubs, None, 12),
            Pip(0.3 * BODY_W, 0.8 * BODY_H, 120, clubs, None, 12)]
    assert pip_pair(side, "CDHS?", dark) is None
    low = Pip(0.5 * BODY_W, 0.6 * BODY_H, 120, clubs, None, 12)
    assert pip_pair([top, low], "CDHS?", dark) is None
    # one of them much bigger: not a pair of pips
    big = Pip(0.5 * BODY_W, 0.8 * BODY_H, 400, clubs, None, 20)
    assert pip_pair([top, big], "CDHS?", dark) is None


def _index_of(deck, body_code: str, index_code: str) -> np.ndarray:  # type: ignore[no-untyped-def]
    """``body_code``'s face with ``index_code``'s index corners pasted over its
    own: what a misread index looks like over a card's true body."""
    face = deck.face(body_code).copy()
    other = deck.face(index_code)
    h, w = face.shape[:2]
    y, x = int(0.3 * h), int(0.2 * w)
    face[:y, :x] = other[:y, :x]
    face[h - y:, w - x:] = other[h - y:, w - x:]
    return np.ascontiguousarray(face)


@pytest.mark.parametrize(("body", "index"), [
    ("9S", "QS"),  # a nine read as a queen
    ("5H", "JH"),  # a five read as a jack
    ("7C", "7S"),  # clubs read as spades
    ("9H", "9D"),  # hearts read as diamonds
])
def test_an_index_its_body_contradicts_is_not_named(deck, body: str, index: str) -> None:  # type: ignore[no-untyped-def]
    """The index alone names the wrong card (checked: it is the index that
    is misleading, not the reader); with the body, the frame is unsure and
    says why."""
    frame = _index_of(deck, body, index)
    assert Recognizer(body=False).read(frame).card == index
    reading = Recognizer().read(frame)
    assert reading.card is None
    assert reading.reason == PIPS_DISAGREE
    assert reading.code == "pips_disagree" == reason_code(PIPS_DISAGREE)


def test_a_card_whose_body_agrees_is_read_as_before(deck) -> None:  # type: ignore[no-untyped-def]
    for code in ("9S", "5H", "TC"):
        assert Recognizer().read(_index_of(deck, code, code)).card == code


def test_the_body_adds_its_evidence_and_never_names_a_card_alone() -> None:
    """Hand-made: a reading leaning to 9S over QS by 4 nats, and a body of nine
    spades: QS loses 3 nats (9S and TS keep theirs), so the lead grows to 7;
    a reading with no evidence (no index read) is left as it was."""
    ev = np.full(len(CARD_CODES), -30.0)
    ev[CARD_CODES.index("9S")] = -1.0
    ev[CARD_CODES.index("QS")] = -5.0
    body = read_like(9, "S")
    leaning = Reading(None, 0.0, "rank ambiguous", evidence=ev)
    out = with_body(leaning, body)
    assert out.evidence is not None
    assert out.evidence[CARD_CODES.index("9S")] == -1.0
    assert out.evidence[CARD_CODES.index("QS")] == -8.0
    assert out.evidence[CARD_CODES.index("TS")] == -30.0
    assert out.reason == "rank ambiguous"
    # what the fusion vetoes once two frames say it: the courts, the ace and the
    # 2 to 8 of spades (fewer pips than nine), and every card of another suit
    assert out.ruled_out == {c for c in CARD_CODES if c[1] != "S" or c[0] in "AJQK2345678"}
    blind = Reading(None, 0.0, "no index visible")
    assert with_body(blind, body) is blind


def read_like(pips: int, suit: str):  # type: ignore[no-untyped-def]
    from vision.pips import BodyReading

    return BodyReading(pips, suit, array_evidence(pips, suit, colour_fits=True), kind="array")


def test_frames_of_number_cards_never_have_their_own_card_ruled_out() -> None:
    """Camera frames (normal and hard presets) of the built-in deck's number
    cards: the body may say nothing, but what it says never rules out the
    card on the table."""
    deck = open_deck("builtin")
    rng = np.random.default_rng(7)
    rec = Recognizer()
    spoke = 0
    for k, code in enumerate(c for c in CARD_CODES if c[0] in "3456789T"):
        frame = make_frame(deck, code, rng, preset="hard" if k % 2 else "normal").image
        src = np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA), np.uint8)
        det = find_card(src)
        if det is None:
            continue
        boxes = [index_box_in_card(g.box, i) for i, g in enumerate(card_corners(src, det.quad))
                 if g is not None and g.box is not None]
        body = read_body(src, det.quad, boxes, rec.model, rec._ink_fits)
        spoke += body.says_anything
        assert body.evidence[CARD_CODES.index(code)] == 0, code
    assert spoke >= 10  # and it does speak on most of these 32 frames
