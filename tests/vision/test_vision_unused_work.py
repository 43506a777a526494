"""The thirty-third pass's savings (docs/vision.md, "Thirty-third pass: the
held-out faces' slow frames") against the longer ways they replace.

On the slowest in-shoe frames of unknown typefaces the reader worked out
three things nobody looked at, and no longer does:

- the rank glyph's histogram of gradients, when the shipped networks alone
  name the rank (the generic reader: ``GlyphModel.rank_needs_features``);
- a corner's suit and evidence when it is read again (turned, the other way
  up) and its rank alone already gives the vote a problem
  (``Recognizer._clean_vote``: every caller uses only a vote without one);
- a morphological opening that cannot find a run as long as its kernel,
  since no column (row) of the mask holds that much ink
  (``vision.index_mask._opened``).

Each is held to the step it replaces, as the independent reference: the
features of the two glyphs taken together, the rank read with its
features, the full classification, and OpenCV's opening itself, bit for
bit, on glyphs cut from rendered in-shoe frames (every corner, read again
the other way up and turned, as the reader asks) and on drawn masks."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
import pytest
from corner_votes import same_vote

import vision.recognizer as recognizer_module
from vision.cards import FOREIGN
from vision.glyph_model import features_of, glyph_model
from vision.index import IndexGlyphs, read_other_way
from vision.index_mask import _H_KERNEL, _V_KERNEL, _opened
from vision.recognizer import Recognizer


@pytest.fixture(scope="module")
def glyphs() -> list[IndexGlyphs]:
    """Every index corner the generic in-shoe reader cuts from a few rendered
    passes of two designs, with the same corners read the other way up and
    turned in place (the second looks ``Recognizer._corner`` takes)."""
    from hardware_sim.camera.in_shoe import InShoeRenderer
    from vision.in_shoe import InShoeReader, _Partial
    from vision.in_shoe_pose import Pose, find_pose

    reader = InShoeReader()
    out: list[IndexGlyphs] = []
    for design, preset, seed in (("builtin", "normal", 3), ("builtin", "hard", 4),
                                 ("tango", "hard", 5)):
        rng = np.random.default_rng(seed)
        renderer = InShoeRenderer(design, preset=preset, seed=seed)
        for code in ("6H", "9S", "QD", "TC", "AS", "8D", "3C"):
            for f in renderer.render_pass(renderer.plan(code, rng), rng):
                pose = find_pose(f.image)
                if not isinstance(pose, Pose):
                    continue
                try:
                    corners = [g for g in reader._corners(f.image, pose) if g is not None]
                except _Partial:
                    continue
                for g in corners:
                    other = read_other_way(g)
                    out += [g, g.turned_in_place()] + ([other] if other is not None else [])
    assert len(out) >= 200
    return out


def test_the_generic_rank_needs_no_features_and_a_profile_reader_does() -> None:
    model = glyph_model()
    assert not model.rank_needs_features  # the networks alone name the rank
    assert model.perceptrons().rank_needs_features
    assert replace(model, cnn_weight=0.5).rank_needs_features
    assert replace(model, cnn_agree=True).rank_needs_features
    ink = np.ones((20, 14), np.float32)
    with pytest.raises(ValueError, match="features"):
        model.perceptrons().rank_probs(None, ink)


def test_one_glyphs_features_are_its_row_of_the_pair_bit_for_bit(
    glyphs: list[IndexGlyphs],
) -> None:
    for g in glyphs:
        pair = features_of((g.rank_ink, g.suit_ink))
        assert features_of((g.suit_ink,))[0].tobytes() == pair[1].tobytes()
        assert features_of((g.rank_ink,))[0].tobytes() == pair[0].tobytes()


def test_the_networks_rank_without_features_is_the_rank_with_them(
    glyphs: list[IndexGlyphs],
) -> None:
    model = glyph_model()
    for g in glyphs:
        rank_f = features_of((g.rank_ink, g.suit_ink))[0]
        with_f = model.rank_probs(rank_f, g.rank_ink)
        assert model.rank_probs(None, g.rank_ink).tobytes() == with_f.tobytes()


def _clean_vote_is_the_vote_or_a_vote_with_a_problem(
    rec: Recognizer, glyphs: list[IndexGlyphs],
) -> Counter[str]:
    """``_clean_vote`` against ``_classify`` on every glyph; how each came out."""
    seen: Counter[str] = Counter()
    for g in glyphs:
        full = rec._classify(g)
        clean = rec._clean_vote(g)
        if clean is None:
            # left unread only when the full vote has a problem, and one its
            # rank alone gives (the problem named may be the suit's, when both)
            assert full.problem and not full.sure, full
            if full.card[0] == FOREIGN:
                seen["rank unknown"] += 1
            elif full.problem == recognizer_module._FLIPPED:
                seen["flipped"] += 1
            else:
                assert full.confidence < rec.model.min_rank_prob, full
                seen["rank under the threshold"] += 1
        else:
            assert same_vote(clean, full)
            seen["read: " + ("problem" if full.problem else "clean")] += 1
    return seen


def test_a_clean_vote_left_unread_is_one_with_a_problem_of_its_rank(
    glyphs: list[IndexGlyphs],
) -> None:
    seen = _clean_vote_is_the_vote_or_a_vote_with_a_problem(Recognizer(), glyphs)
    # the frames reach the branches: unknown marks left unread, votes read
    # clean, and votes read whose problem is the suit's or the ink's
    assert seen["rank unknown"] >= 20, seen
    assert seen["read: clean"] >= 20, seen
    assert seen["read: problem"] >= 1, seen


def test_a_rank_under_the_threshold_is_left_unread(glyphs: list[IndexGlyphs]) -> None:
    rec = Recognizer()
    rec.model = replace(rec.model, min_rank_prob=0.9999)
    seen = _clean_vote_is_the_vote_or_a_vote_with_a_problem(rec, glyphs)
    assert seen["rank under the threshold"] >= 5, seen


def test_a_six_or_nine_its_loop_contradicts_is_left_unread(
    glyphs: list[IndexGlyphs], monkeypatch: pytest.MonkeyPatch,
) -> None:
    # whatever the loop says, a vote it contradicts is one with a problem:
    # a loop that always says "9" flips every 6 the networks name
    monkeypatch.setattr(recognizer_module, "_loop_says", lambda g: "9")
    seen = _clean_vote_is_the_vote_or_a_vote_with_a_problem(Recognizer(), glyphs)
    assert seen["flipped"] >= 1, seen


def test_a_profile_readers_clean_vote_is_its_classification(
    glyphs: list[IndexGlyphs],
) -> None:
    # with a deck profile the perceptrons read the rank from its features
    from hardware_sim.camera.profile_cache import deck_profile

    rec = Recognizer(deck_profile("builtin"))
    assert rec.model.rank_needs_features
    _clean_vote_is_the_vote_or_a_vote_with_a_problem(rec, glyphs[:150])


def _opening(mask: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """The opening as ``_opened`` made it before the thirty-third pass."""
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel,
                                       borderType=cv2.BORDER_CONSTANT, borderValue=0), np.uint8)


@pytest.mark.parametrize("kernel", [_V_KERNEL, _H_KERNEL], ids=["down", "across"])
def test_the_opening_skipped_or_made_is_opencvs(kernel: np.ndarray) -> None:
    length = max(kernel.shape)
    axis = 0 if kernel.shape[0] > 1 else 1
    rng = np.random.default_rng(length)
    shapes = [(150, 64), (150, 9), (24, 64), (9, 64)]
    skipped = made = 0
    for shape in shapes:
        for trial in range(150):
            mask = np.zeros(shape, np.uint8)
            if mask.size:
                # runs down (across) the mask one short of the kernel, as long,
                # longer, reaching the border, and scattered ink summing past it
                lines = mask.shape[1 - axis]
                for _ in range(rng.integers(0, 4)):
                    line = int(rng.integers(0, lines))
                    run = int(rng.choice([length - 1, length, length + 3, rng.integers(1, 80)]))
                    start = int(rng.integers(0, max(mask.shape[axis] - run, 0) + 1))
                    sl = slice(start, start + run)
                    if axis == 0:
                        mask[sl, line] = 1
                    else:
                        mask[line, sl] = 1
                if trial % 3 == 0:
                    mask |= (rng.random(shape) < rng.choice([0.2, 0.6, 0.9])).astype(np.uint8)
            for view in (mask, mask[:, : min(9, mask.shape[1])], mask[: min(9, mask.shape[0])]):
                got = _opened(view, kernel)
                assert got.dtype == np.uint8 and got.shape == view.shape
                assert np.array_equal(got, _opening(view, kernel))
                counts = np.count_nonzero(view, axis=axis) if view.size else np.zeros(0)
                if counts.size and counts.max() >= length:
                    made += 1
                else:
                    skipped += 1
    assert skipped >= 100 and made >= 100, (skipped, made)
    # (OpenCV refuses an empty mask; no patch is empty, and none has a run)
    for empty in (np.zeros((0, 64), np.uint8), np.zeros((150, 0), np.uint8)):
        assert _opened(empty, kernel).shape == empty.shape
