"""Deck profiles under blur (``vision.blurred``, docs/vision.md "Eleventh pass").

Expected results by construction: a face degraded exactly as calibration
degrades it gives back the glyphs calibration stored; a face degraded a little
more than any calibration level is a glyph neither profile has seen, and the
clean-only templates (a format 1 profile, as before this pass) refuse more
of them than the profile with blurred templates.  The guard's cases are
worked by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hardware_sim.camera import calibration_image
from hardware_sim.cards import CARD_CODES
from vision.blurred import BLUR_LEVELS, BlurLevel, degrade
from vision.calibrate import calibrate_images, card_glyphs, check_profile
from vision.detect import find_card
from vision.index import card_corners
from vision.profile import (
    DeckProfile,
    ProfileError,
    build_profile,
    load_profile,
)
from vision.recognizer import BLURRED_ALONE, Recognizer, _blur_checked, _CornerVote


@pytest.fixture(scope="module")
def faces(builtin_deck):  # type: ignore[no-untyped-def]
    return {code: calibration_image(builtin_deck, code) for code in CARD_CODES}


@pytest.fixture(scope="module")
def profiles(faces) -> tuple[DeckProfile, DeckProfile]:  # type: ignore[no-untyped-def]
    """The profile as calibrated before this pass (clean templates only) and now."""
    clean = {code: card_glyphs(img) for code, img in faces.items()}
    old = build_profile(clean, name="old")
    check_profile(old, clean)
    return old, calibrate_images(faces, name="new")


def _corners(face: np.ndarray, level: BlurLevel) -> list:  # type: ignore[type-arg]
    det = find_card(face)
    assert det is not None
    img, quad = degrade(face, det.quad, level)
    return [g for g in card_corners(img, quad) if g is not None]


def test_the_new_profile_keeps_clean_and_blurred_templates(profiles) -> None:  # type: ignore[no-untyped-def]
    old, new = profiles
    assert old.blurred_templates == 0
    # every clean template is still there, unmarked, in the same order per class
    clean_rows = new.rank_templates[~new.rank_blurred]
    assert np.array_equal(clean_rows, old.rank_templates)
    # at most one blurred template per corner and level: 52 cards x 2 corners x 3 levels
    assert 0 < int(new.rank_blurred.sum()) <= 52 * 2 * len(BLUR_LEVELS)
    assert int(new.rank_blurred.sum()) == int(new.suit_blurred.sum())
    # the ink colours and the rank height are learned from the clean faces only
    assert new.suit_colours == old.suit_colours
    assert new.rank_height == old.rank_height


@pytest.mark.parametrize("code", ["AS", "7D", "TC", "QH"])
def test_a_face_blurred_as_calibration_does_matches_a_blurred_template(
    faces, profiles, code: str  # type: ignore[no-untyped-def]
) -> None:
    """The same deterministic degradation reads the same glyph, so some
    blurred template of the card's own rank correlates with it all but
    exactly (int8 storage is not quantised in memory)."""
    _, new = profiles
    for level in BLUR_LEVELS:
        for g in _corners(faces[code], level):
            own = new.rank_templates[np.array([r == code[0] for r in new.rank_labels])
                                     & new.rank_blurred]
            if float((own @ g.rank).max()) > 0.999:
                break
        else:
            continue
        return
    pytest.fail(f"no level of {code} gave back a stored blurred template")


def test_blurred_faces_are_read_by_the_new_templates_not_the_old(faces, profiles) -> None:  # type: ignore[no-untyped-def]
    """Faces degraded at levels calibration did not use (the templates alone,
    without the classifier: what this pass changes).  A card 260 px long
    under blur 1.3 and JPEG 50 lies between the first two calibration levels:
    the blurred templates name every corner, the clean ones refuse some.  At
    200 px, blur 2.0, JPEG 40 (between the last two) the blurred ones name
    more (not a superset: a blurred template of another rank can make a
    clean match ambiguous).  Neither names a wrong card."""
    old, new = (Recognizer(p) for p in profiles)
    for level, everything in ((BlurLevel(260, 1.3, 50), True), (BlurLevel(200, 2.0, 40), False)):
        named: dict[str, set[tuple[str, int]]] = {"old": set(), "new": set()}
        corners = 0
        for code, face in faces.items():
            for g in _corners(face, level):
                corners += 1
                for label, rec in (("old", old), ("new", new)):
                    v = rec._match(g)
                    if not v.problem:
                        assert v.card == code, (label, level, code, v)
                        named[label].add((code, g.corner))
        assert len(named["new"]) > len(named["old"]), level
        if everything:
            assert len(named["new"]) == corners == 104
            assert len(named["old"]) < corners


def _vote(card: str, problem: str = "", blurred: str = "") -> _CornerVote:
    return _CornerVote(card, 0.8, problem, blurred=blurred)


def test_a_blurred_template_needs_the_classifier_s_best_guess() -> None:
    # a clean template's match keeps the trust it had, whatever the classifier says
    assert _blur_checked(_vote("4H"), _vote("JH", "rank ambiguous")).problem == ""
    # a blurred rank template named J, the classifier guesses 4: doubted
    doubted = _blur_checked(_vote("JH", blurred="r"), _vote("4H", "rank ambiguous"))
    assert doubted.problem == BLURRED_ALONE and doubted.card == "JH"
    assert doubted.confidence == 0.0  # cannot veto the other corner
    # ... the classifier guesses J too (even unsure): kept
    assert _blur_checked(_vote("JH", blurred="r"), _vote("JH", "rank ambiguous")).problem == ""
    # only the part a blurred template won is checked: the rank here
    assert _blur_checked(_vote("JH", blurred="r"), _vote("JD", "suit ambiguous")).problem == ""
    assert _blur_checked(_vote("JH", blurred="s"), _vote("JD")).problem == BLURRED_ALONE
    assert _blur_checked(_vote("JH", blurred="rs"), _vote("QH")).problem == BLURRED_ALONE
    # a match that already failed is left as it is
    failed = _vote("JH", "rank ambiguous", blurred="r")
    assert _blur_checked(failed, _vote("4H")) is failed


def test_profiles_round_trip_with_their_blur_marks(profiles, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, new = profiles
    path = tmp_path / "p.npz"
    new.save(path)
    again = load_profile(path)
    assert np.array_equal(again.rank_blurred, new.rank_blurred)
    assert np.array_equal(again.suit_blurred, new.suit_blurred)
    assert again.blurred_templates == new.blurred_templates > 0


def _as_format_1(profile: DeckProfile, path: Path) -> None:
    """``profile`` written as the previous version wrote profiles: format 1
    metadata, the templates, no blur marks."""
    profile.save(path)
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files if k not in ("rank_blurred", "suit_blurred")}
    meta = json.loads(str(arrays["meta"]))
    meta["format"] = "pontoon-table deck profile 1"
    arrays["meta"] = np.array(json.dumps(meta))
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]


def test_a_profile_of_the_previous_format_still_loads_and_reads_as_before(
    profiles, faces, tmp_path: Path  # type: ignore[no-untyped-def]
) -> None:
    old, _ = profiles
    path = tmp_path / "old.npz"
    _as_format_1(old, path)
    loaded = load_profile(path)
    assert loaded.blurred_templates == 0
    assert len(loaded.rank_blurred) == len(loaded.rank_labels)
    rec = Recognizer(loaded)
    # every clean card reads back as itself (check_profile's rule)
    check_profile(loaded, {code: card_glyphs(img) for code, img in faces.items()})
    det = find_card(faces["9C"])
    assert det is not None
    g = next(g for g in card_corners(faces["9C"], det.quad) if g is not None)
    assert rec._match(g).card == "9C" and rec._match(g).blurred == ""


def test_a_profile_of_an_unknown_format_says_what_to_do(profiles, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    old, _ = profiles
    path = tmp_path / "future.npz"
    old.save(path)
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"]))
    meta["format"] = "pontoon-table deck profile 9"
    arrays["meta"] = np.array(json.dumps(meta))
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]
    with pytest.raises(ProfileError, match="calibrate again, or update pontoon-table"):
        load_profile(path)


def test_blur_marks_must_fit_the_templates(profiles) -> None:  # type: ignore[no-untyped-def]
    old, _ = profiles
    with pytest.raises(ProfileError, match="blur marks"):
        DeckProfile(name="x", generic=False, rank_templates=old.rank_templates,
                    rank_labels=old.rank_labels, suit_templates=old.suit_templates,
                    suit_labels=old.suit_labels, rank_blurred=np.ones(3, np.bool_))


def test_interactive_calibration_blurs_the_first_frame_of_each_card_only(faces, profiles) -> None:  # type: ignore[no-untyped-def]
    """Two frames per card: both frames' corners become clean templates (2 x 2
    per card), the blurred ones come from the first frame alone (at most 2
    corners x 3 levels per card), so the template count stays that of a
    folder calibration."""
    from vision.calibrate import InteractiveCalibration

    cal = InteractiveCalibration(frames_needed=2)
    while cal.wanted is not None:
        face = faces[cal.wanted]
        assert not cal.offer(face)
        assert cal.offer(face)
    learned = cal.finish(name="dealer")
    assert int((~learned.rank_blurred).sum()) == 52 * 2 * 2
    assert 0 < int(learned.rank_blurred.sum()) <= 52 * 2 * len(BLUR_LEVELS)
    # the first frame is the face itself: the same blurred glyphs as the folder's
    assert int(learned.rank_blurred.sum()) == int(profiles[1].rank_blurred.sum())
