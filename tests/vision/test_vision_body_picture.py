"""A court's picture in the overhead body withholds the number cards
(``vision.pips.is_picture``, ``PICTURE_WITHHOLDS``; docs/vision.md,
thirty-eighth to fortieth passes).

The expected sets are derived by hand from what a standard deck prints: a
court a picture across the card's middle, a 2 to a 10 an array of small
pips, an ace one pip (at most 0.42 of the card's width in the built-in
renderer, ``CardStyle.ace_pip``, and under 0.4 of its length), so no card
but a court shows one mark 0.4 of the card wide and half the card long
(half wide before the fiftieth pass)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from body_frames import (
    COURTS,
    NUMBER_CARDS,
    camera_bodies,
    frame_body,
    fused,
    index_reading,
    leaning,
)

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES, open_deck
from hardware_sim.cards.layouts import LayoutDeck
from vision.evidence import VETO_FRAMES, FrameFusion, reason_code
from vision.pips import (
    BODY_H,
    BODY_W,
    CARD_H,
    CARD_W,
    EDGE_PX,
    PICTURE_WITHHOLDS,
    SCALE,
    SILENT,
    BodyReading,
    body_marks,
    is_picture,
    picture_card,
    rule_out_pip_cards,
)
from vision.reading import PICTURE_DISAGREES, Reading, with_body
from vision.recognizer import Recognizer

PICTURE = BodyReading(0, "", np.zeros(len(CARD_CODES)), kind="picture",
                      withholds=PICTURE_WITHHOLDS)


def _centred(w: float, h: float, dx: float = 0.0) -> tuple[int, int, int, int, float, float]:
    """A mark's box and centre (body px) of ``w`` x ``h`` shares of the body,
    centred on the card's middle moved ``dx`` of its width sideways."""
    bw, bh = round(w * BODY_W), round(h * BODY_H)
    cx, cy = (0.5 + dx) * BODY_W, 0.5 * BODY_H
    return round(cx - bw / 2), round(cy - bh / 2), bw, bh, cx, cy


#: where a standard index's centre lies (body px): 0.1 of the card's width
#: and 0.12 of its length in from the top-left corner, and its half turn
INDICES = [(0.1 * BODY_W, 0.12 * BODY_H), (0.9 * BODY_W, 0.88 * BODY_H)]
#: a border line printed 0.05 of the width inside the card's edge
BORDER = (round(0.05 * BODY_W), round(0.05 * BODY_W), round(0.9 * BODY_W),
          BODY_H - 2 * round(0.05 * BODY_W), BODY_W / 2, BODY_H / 2)


@pytest.mark.parametrize(("mark", "indices", "expected"), [
    (_centred(0.6, 0.7), INDICES, True),             # a court's framed picture
    (_centred(0.5, 0.5), INDICES, True),             # just half each way
    (_centred(0.42, 0.64), INDICES, True),           # a jack's figure alone, its frame broken
    (_centred(0.35, 0.7), INDICES, False),           # too narrow
    (_centred(0.43, 0.39), INDICES, False),          # the biggest ace's pip: too short
    (_centred(0.6, 0.45), INDICES, False),           # too short
    (_centred(0.6, 0.7, dx=0.25), INDICES, False),   # its centre off the card's middle
    ((0, 10, BODY_W // 2 + 10, BODY_H - 20, BODY_W / 4 + 5, BODY_H / 2), INDICES, False),  # edge
    (BORDER, INDICES, False),                        # round the indices: a printed border
    (BORDER, [], False),                             # no index read: cannot tell
    (_centred(0.6, 0.7), [], False),
])
def test_a_picture_is_one_mark_across_the_middle_between_the_indices(
        mark: tuple[int, int, int, int, float, float], indices: list[tuple[float, float]],
        expected: bool) -> None:
    assert EDGE_PX > 0
    assert is_picture(*mark, indices) is expected


def test_the_picture_withholds_every_number_card_and_no_ace_or_court() -> None:
    assert PICTURE_WITHHOLDS == NUMBER_CARDS


@pytest.mark.parametrize("design", ["builtin", "anglo"])
def test_clean_courts_show_their_picture_and_no_other_card_does(design: str) -> None:
    deck = open_deck(design)
    rec = Recognizer()
    pictures = set()
    for code in CARD_CODES:
        body = frame_body(rec, deck.face(code))
        assert body is not None
        if body.kind == "picture":
            pictures.add(code)
    assert pictures == COURTS


@pytest.mark.parametrize("design", ["builtin", "anglo"])
def test_camera_frames_show_a_picture_on_courts_only(design: str) -> None:
    """Normal and hard camera frames of every card: no ace or number card's
    body is a picture, whatever the glare and blur; courts' are, on normal
    frames always (their picture is whole), on hard ones sometimes."""
    shown: dict[tuple[bool, str], list[bool]] = {}
    for code, preset, body in camera_bodies(design, 5):
        shown.setdefault((code in COURTS, preset), []).append(body.kind == "picture")
    assert not any(shown[(False, "normal")]) and not any(shown[(False, "hard")])
    assert all(shown[(True, "normal")])
    assert any(shown[(True, "hard")])


def test_a_figure_whose_frame_broke_is_still_a_picture() -> None:
    """A body drawn by hand: paper, an index mark in two corners, and a
    court's figure 0.42 of the card wide and 0.64 long in its middle, with
    nothing round it (on a hard frame the thin line round a court's panel
    breaks into dots; the figure stays whole: the built-in renderer's jacks
    read as 7s on the font decks, docs/vision.md, fiftieth pass).  One mark
    across the middle between the indices: a picture.  Before the fiftieth
    pass a picture had to span half the width, and this one did not."""
    body = np.full((BODY_H, BODY_W, 3), 235, np.uint8)
    fig_w, fig_h = round(0.42 * BODY_W), round(0.64 * BODY_H)
    x0, y0 = (BODY_W - fig_w) // 2, (BODY_H - fig_h) // 2
    # (line art, as a figure is printed: its outline and two strokes across)
    cv2.rectangle(body, (x0, y0), (x0 + fig_w - 1, y0 + fig_h - 1), (30, 30, 30), 2)
    cv2.line(body, (x0, y0), (x0 + fig_w - 1, y0 + fig_h - 1), (30, 30, 30), 2)
    cv2.line(body, (x0 + fig_w - 1, y0), (x0, y0 + fig_h - 1), (30, 30, 30), 2)
    # the top-left index (card units) and its half turn, printed as one mark each
    index = (0.04 * CARD_W, 0.04 * CARD_H, 0.16 * CARD_W, 0.2 * CARD_H)
    turned = (CARD_W - index[2], CARD_H - index[3], CARD_W - index[0], CARD_H - index[1])
    for bx0, by0, bx1, by1 in (index, turned):
        body[round(by0 * SCALE):round(by1 * SCALE), round(bx0 * SCALE):round(bx1 * SCALE)] = 30
    marks = body_marks(body, [index])
    assert marks is not None and marks.picture


def test_plastics_frameless_king_shows_its_picture_on_hard_frames() -> None:
    """plastic's KS prints its king with no frame round him, 0.46 of the
    card's width (measured on its clean face with a plain threshold: the
    ink joined to the card's centre, 116 of 250 px).  Under the hard
    preset blur and glare eat its edges and no frame showed a mark half
    the card wide (0 of these 8 frames with the old threshold); a picture
    0.4 wide is seen on most of them."""
    deck = open_deck("plastic")
    rng = np.random.default_rng(11)
    rec = Recognizer()
    kinds = [frame_body(rec, make_frame(deck, "KS", rng, preset="hard").image)
             for _ in range(8)]
    seen = [b.kind for b in kinds if b is not None]
    assert len(seen) >= 6
    assert sum(k == "picture" for k in seen) > len(seen) / 2


def test_a_frame_naming_a_number_card_over_a_picture_is_unsure() -> None:
    out = with_body(index_reading("9H"), PICTURE)
    assert out.card is None
    assert out.reason == PICTURE_DISAGREES
    assert reason_code(out.reason) == "pips_disagree"
    assert out.withheld == NUMBER_CARDS
    assert out.ruled_out == frozenset()
    assert with_body(index_reading("JH"), PICTURE).card == "JH"
    assert with_body(index_reading("AH"), PICTURE).card == "AH"


def test_two_frames_of_a_picture_withhold_a_number_card_one_does_not() -> None:
    decision = fused("9C", PICTURE, VETO_FRAMES)
    assert decision.card is None
    assert reason_code(decision.reason) == "pips_disagree"
    assert fused("9C", PICTURE, VETO_FRAMES - 1).card == "9C"
    assert fused("JC", PICTURE, 6).card == "JC"


def _fused_over_picture(evidence: np.ndarray, frames: int = 6) -> str | None:
    fusion = FrameFusion()
    for _ in range(frames):
        frame = Reading(None, 0.0, "rank ambiguous", evidence=evidence.copy())
        fusion.push(with_body(frame, PICTURE))
    return fusion.decide(final=True).card


def test_a_withheld_card_keeps_its_lead_so_no_other_card_takes_its_place() -> None:
    """Homemade Apple's QC named 8C (docs/vision.md, thirty-ninth pass): an
    index that puts 8C 10 nats ahead of AC and AC 30 ahead of the rest
    (QC among them).  Had the picture vetoed the 8s, AC would have led the
    cards left by 30 nats a frame and been named, wrongly; withheld, the 8C
    still leads and the card is unsure."""
    evidence = leaning("AC")
    evidence[CARD_CODES.index("8C")] = 10.0
    assert _fused_over_picture(evidence) is None
    # a court the index leads with is named over its own picture
    assert _fused_over_picture(leaning("QC")) == "QC"


def test_with_a_profile_the_picture_withholds_the_decks_own_pip_cards() -> None:
    """A deck that printed art on its 7s showed them no array at calibration,
    so they are not among its pip cards and a picture leaves them possible."""
    pip_cards = NUMBER_CARDS - {r + s for r in "7" for s in "CDHS"}
    out = rule_out_pip_cards(PICTURE, pip_cards, 19, COURTS)
    assert out.withholds == pip_cards
    assert out.vetoes == frozenset()
    assert not out.evidence.any()
    assert rule_out_pip_cards(PICTURE, frozenset()).withholds == frozenset()


@pytest.mark.parametrize(("code", "kind", "expected"), [
    ("QS", "picture", True),    # a court showing its picture is a picture card
    ("QS", "", True),           # as one showing nothing still is
    ("6S", "picture", False),   # not a court
])
def test_calibration_counts_a_court_showing_its_picture_as_a_picture_card(
        code: str, kind: str, expected: bool) -> None:
    body = BodyReading(0, "", np.zeros(len(CARD_CODES)), kind=kind)
    assert picture_card(code, body) is expected


def test_a_silent_body_still_says_nothing() -> None:
    assert not SILENT.says_anything and SILENT.kind == ""


@pytest.mark.parametrize(("style", "layout"), [("classic", "outline_inset"),
                                               ("classic", "outline_thick"),
                                               ("modern", "outline")])
def test_a_border_printed_round_every_face_is_no_picture(style: str, layout: str) -> None:
    """A deck printing a dark line round its face (``LayoutDeck``'s outline
    layouts) shows that line, one mark across the card's middle, on every
    card: round the indices, so no number card's body is a picture."""
    deck = LayoutDeck(style, layout)
    rng = np.random.default_rng(7)
    rec = Recognizer()
    seen = 0
    for code in sorted(NUMBER_CARDS | {"AS", "AH"}):
        for preset in ("normal", "hard"):
            body = frame_body(rec, make_frame(deck, code, rng, preset=preset).image)
            if body is None:
                continue
            seen += 1
            assert body.kind != "picture", (code, preset)
    assert seen >= 60
