"""A deck profile's pip cards: a lone big pip is not a card the deck prints as
an array (``vision.pips.pip_card``, ``rule_out_pip_cards``; docs/vision.md,
nineteenth pass).

Expected sets are derived from the standard layouts by hand: a 2 prints a
pair of pips, a 3 to 10 an array of its rank's pips, an ace one big pip, a
court a picture; the built-in renderer draws those layouts."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from body_frames import COURTS, NUMBER_CARDS, frame_body, fused

from hardware_sim.camera import make_frame
from hardware_sim.cards import CARD_CODES, open_deck
from vision.calibrate import InteractiveCalibration, calibrate_folder
from vision.evidence import VETO_FRAMES
from vision.pips import (
    LONE_MARK,
    RULED_OUT,
    BodyReading,
    picture_card,
    pip_card,
    rule_out_pip_cards,
    suit_evidence,
)
from vision.profile import DeckProfile, load_profile
from vision.recognizer import Recognizer


@pytest.fixture(scope="module")
def builtin_profile(calibration_dir: Path) -> DeckProfile:
    return calibrate_folder(calibration_dir, name="builtin")


def _ace_body(suit: str) -> BodyReading:
    return BodyReading(0, suit, suit_evidence(suit), kind="ace")


@pytest.mark.parametrize(("code", "kind", "pips", "expected"), [
    ("6S", "array", 6, True),     # its own six pips
    ("7S", "array", 6, True),     # a 7's odd pip left aside
    ("TS", "array", 10, True),
    ("6S", "array", 7, False),    # more pips than a 6 prints
    ("3H", "array", 2, False),    # no array has fewer than three
    ("KS", "array", 4, False),    # a court prints no array
    ("2D", "two", 0, True),
    ("3D", "two", 0, False),      # a pair is a two's layout only
    ("AS", "ace", 0, False),      # an ace's pip teaches nothing to rule out
    ("6S", "ace", 0, False),      # a deck with one big sign on each card
    ("6S", "", 0, False),         # pips the reader missed
])
def test_a_pip_card_is_a_number_card_showing_its_own_layout(
        code: str, kind: str, pips: int, expected: bool) -> None:
    body = BodyReading(pips, "S", np.zeros(len(CARD_CODES)), kind=kind)
    assert pip_card(code, body) is expected


def test_a_lone_big_pip_rules_out_the_decks_pip_cards_only() -> None:
    """Hand-made: a body showing one big spade with 6S and 9H as the deck's pip
    cards: 6S joins the 39 other-suit cards at ``RULED_OUT``; AS and the
    spade courts keep their nothing; 9H was ruled out by its suit already."""
    out = rule_out_pip_cards(_ace_body("S"), frozenset({"6S", "9H"}))
    ruled = {c for c, v in zip(CARD_CODES, out.evidence, strict=True) if v == RULED_OUT}
    assert ruled == {c for c in CARD_CODES if c[1] != "S"} | {"6S"}
    assert set(CARD_CODES) - ruled == {r + "S" for r in "A2345789TJQK"}


@pytest.mark.parametrize("body", [
    BodyReading(6, "S", np.zeros(len(CARD_CODES)), kind="array"),
    BodyReading(0, "S", suit_evidence("S"), kind="two"),
    BodyReading(0, "", np.zeros(len(CARD_CODES))),
])
def test_any_other_body_is_left_as_it_was(body: BodyReading) -> None:
    assert rule_out_pip_cards(body, NUMBER_CARDS) is body


def test_a_profile_without_pip_cards_rules_nothing_out() -> None:
    ace = _ace_body("H")
    assert rule_out_pip_cards(ace, frozenset()) is ace


def test_calibration_learns_the_number_cards_of_a_standard_deck(
        builtin_profile: DeckProfile) -> None:
    assert builtin_profile.pip_cards == NUMBER_CARDS
    assert builtin_profile.picture_cards == COURTS


@pytest.mark.parametrize(("code", "kind", "lone_mark", "expected"), [
    ("QS", "", 0, True),        # a picture: nothing an ace's body has
    ("QS", "", 40, False),      # a court showing one big mark (a big suit sign)
    ("KH", "ace", 45, False),   # a court printed like an ace
    ("6S", "", 0, False),       # not a court
])
def test_a_picture_card_is_a_court_whose_body_shows_no_lone_mark(
        code: str, kind: str, lone_mark: int, expected: bool) -> None:
    body = BodyReading(0, "S", np.zeros(len(CARD_CODES)), kind=kind, lone_mark=lone_mark)
    assert picture_card(code, body) is expected


def test_an_aces_sure_pip_rules_out_the_pictures_and_a_lone_mark_only_vetoes_them() -> None:
    """Hand-made: a sure spade ace's body rules out the number cards and the
    courts given; the same mark with its suit unsure ("mark", by size alone)
    rules the number cards out of its evidence and only vetoes the courts
    (glare may wash a picture out to one blob: twenty-first pass); the aces
    are never ruled out but by suit."""
    ace = rule_out_pip_cards(_ace_body("S"), NUMBER_CARDS, 19, COURTS)
    kept = {c for c, v in zip(CARD_CODES, ace.evidence, strict=True) if v != RULED_OUT}
    assert kept == {"AS"}
    blind = BodyReading(0, "", np.zeros(len(CARD_CODES)), lone_mark=45)
    mark = rule_out_pip_cards(blind, NUMBER_CARDS, 19, COURTS)
    kept = {c for c, v in zip(CARD_CODES, mark.evidence, strict=True) if v != RULED_OUT}
    assert kept == {"AC", "AD", "AH", "AS"} | COURTS
    assert mark.vetoes == COURTS
    assert ace.vetoes == frozenset()  # the ace's pip rules the courts out of its evidence


def test_a_lone_mark_under_a_profile_keeps_a_court_named_by_two_frames_unsure() -> None:
    """The case of the development decks' AD named QD (docs/vision.md,
    twenty-first pass): frames whose index leans to QD over a lone big mark
    of unsure suit; two of them veto the queen, one does not."""
    blind = BodyReading(0, "", np.zeros(len(CARD_CODES)), lone_mark=45)
    mark = rule_out_pip_cards(blind, NUMBER_CARDS, 19, COURTS)
    assert fused("QD", mark, VETO_FRAMES).card is None
    assert fused("QD", mark, VETO_FRAMES - 1).card == "QD"


def test_calibration_from_camera_frames_learns_them_too(builtin_deck) -> None:  # type: ignore[no-untyped-def]
    """The dealer shows each card; frames of the clean faces teach the same
    set, and a card taken back (``skip_back``) is forgotten."""
    faces = {c: builtin_deck.face(c) for c in CARD_CODES}
    cal = InteractiveCalibration(frames_needed=1)
    taken_back = False
    while (wanted := cal.wanted) is not None:
        assert cal.offer(faces[wanted])
        if wanted == "6S" and not taken_back:
            assert "6S" in cal.pip_cards
            cal.skip_back()
            assert "6S" not in cal.pip_cards and cal.wanted == "6S"
            taken_back = True
    assert taken_back
    learned = cal.finish(name="dealer")
    assert learned.pip_cards == NUMBER_CARDS
    assert learned.picture_cards == COURTS
    assert learned.pip_size == _images_pip_size(builtin_deck)


def test_pip_cards_are_saved_and_an_older_profile_loads_without_them(
        builtin_profile: DeckProfile, tmp_path: Path) -> None:
    path = tmp_path / "deck.npz"
    builtin_profile.save(path)
    assert load_profile(path).pip_cards == NUMBER_CARDS
    assert load_profile(path).pip_size == builtin_profile.pip_size > 0
    assert load_profile(path).picture_cards == COURTS
    # the same file as format 3 wrote it: no pip cards in its metadata
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"]))
    del meta["pip_cards"], meta["pip_size"], meta["picture_cards"]
    meta["format"] = "pontoon-table deck profile 3"
    arrays["meta"] = np.array(json.dumps(meta))
    old = tmp_path / "old.npz"
    np.savez_compressed(old, **arrays)
    assert load_profile(old).pip_cards == frozenset()
    assert load_profile(old).pip_size == 0
    assert load_profile(old).picture_cards == frozenset()


def test_frames_of_the_decks_cards_never_have_their_own_card_ruled_out(
        builtin_profile: DeckProfile) -> None:
    """Camera frames (normal and hard presets) of every card of the deck, read
    with its profile's pip cards: the guard never rules out the card on the
    table, and it does speak: each ace read as an ace rules out its suit's
    number cards."""
    deck = open_deck("builtin")
    rng = np.random.default_rng(11)
    rec = Recognizer(builtin_profile)
    aces_spoke = 0
    for k, code in enumerate(CARD_CODES):
        for preset in ("normal", "hard"):
            frame = make_frame(deck, code, rng, preset=preset).image
            body = frame_body(rec, frame)
            if body is None:
                continue
            guarded = rule_out_pip_cards(body, builtin_profile.pip_cards,
                                         builtin_profile.pip_size, builtin_profile.picture_cards)
            assert guarded.evidence[CARD_CODES.index(code)] == 0, (code, preset, k)
            if code[0] == "A" and body.kind == "ace":
                aces_spoke += 1
                assert all(guarded.evidence[CARD_CODES.index(r + code[1])] == RULED_OUT
                           for r in "23456789T")
    assert aces_spoke >= 4  # of the 8 frames of aces


def test_the_reader_adds_the_ruling_in_profile_mode(builtin_profile: DeckProfile) -> None:
    """The same frame of an ace read with the profile, and with the profile
    stripped of its pip cards: the number cards of its suit lose exactly
    ``RULED_OUT`` more, nothing else changes."""
    deck = open_deck("builtin")
    frame = make_frame(deck, "AS", np.random.default_rng(3), preset="normal").image
    with_pips = Recognizer(builtin_profile).read(frame)
    without = Recognizer(replace(builtin_profile, pip_cards=frozenset())).read(frame)
    assert with_pips.evidence is not None and without.evidence is not None
    diff = with_pips.evidence - without.evidence
    numbers = [CARD_CODES.index(r + "S") for r in "23456789T"]
    assert np.allclose(diff[numbers], RULED_OUT)
    others = [i for i in range(len(CARD_CODES)) if i not in numbers]
    assert np.allclose(diff[others], 0.0)
    assert with_pips.card == without.card == "AS"


def _images_pip_size(deck) -> int:  # type: ignore[no-untyped-def]
    from vision.calibrate import calibrate_images

    return calibrate_images({c: deck.face(c) for c in CARD_CODES}, name="b").pip_size


def test_calibration_keeps_the_decks_largest_pip(builtin_profile: DeckProfile) -> None:
    """The built-in renderer draws body pips 0.17 of the card's width high
    (``CardStyle.pip``) and the body image is 100 px wide: 17 px, give or
    take 2 for anti-aliasing and the ink threshold."""
    assert abs(builtin_profile.pip_size - 17) <= 2


@pytest.mark.parametrize(("lone_mark", "pip_size", "ruled"), [
    (30, 19, True),    # 30 >= 1.5 x 19 = 28.5: an ace's mark on a font deck
    (28, 19, False),   # just under
    (26, 40, False),   # paris: its aces' pips are its number cards' size
    (45, 0, False),    # a profile that never measured its pips
    (0, 19, False),    # no lone mark
])
def test_a_lone_mark_rules_out_pip_cards_by_its_size_alone(
        lone_mark: int, pip_size: int, ruled: bool) -> None:
    """A body with one mark in the middle whose suit the classifier was not
    sure of (kind ""): it rules out the deck's pip cards when it is
    ``LONE_MARK`` times the deck's largest pip, and says nothing of the suit."""
    assert LONE_MARK == 1.5
    body = BodyReading(0, "", np.zeros(len(CARD_CODES)), lone_mark=lone_mark)
    out = rule_out_pip_cards(body, NUMBER_CARDS, pip_size)
    if not ruled:
        assert out is body
        return
    assert out.kind == "mark" and out.says_anything
    ruled_codes = {c for c, v in zip(CARD_CODES, out.evidence, strict=True) if v == RULED_OUT}
    assert ruled_codes == NUMBER_CARDS
    assert not out.evidence[[CARD_CODES.index(c) for c in CARD_CODES
                             if c not in NUMBER_CARDS]].any()


@pytest.mark.parametrize(("code", "expected"), [
    ("AS", 42), ("AD", 42),          # the ace's pip: 0.42 of the width (CardStyle.ace_pip)
    ("5H", 0), ("9C", 0), ("2D", 0),  # several marks: no lone one
])
def test_the_body_measures_a_lone_mark(builtin_deck, code: str, expected: int) -> None:  # type: ignore[no-untyped-def]
    rec = Recognizer()
    body = frame_body(rec, builtin_deck.face(code))
    assert body is not None
    assert abs(body.lone_mark - expected) <= 4
