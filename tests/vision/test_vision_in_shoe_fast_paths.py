"""The fourteenth pass's shortcuts (docs/vision.md, "Fourteenth pass:
profile-mode frame time") against the longer ways they replace.

The pose's small reductions are checked against NumPy's own ``mean`` and
``median`` and the step against ``np.diff``, bit for bit.  A profile
reader's corner votes are checked against the full vote on glyphs of
rendered in-shoe frames (the built-in deck, its calibrated profile): the
classifier's vote handed back by ``Recognizer._voted`` is the one
``_classify`` gives, and a vote ``Recognizer._vote_unless`` leaves untaken
is one its caller would not have used."""

from __future__ import annotations

import numpy as np
import pytest
from corner_votes import same_vote

from vision.in_shoe_pose import _mean, _median, _share, _steps
from vision.recognizer import Recognizer, _may_be_sure, _names


@pytest.mark.parametrize("n", [1, 2, 7, 8, 9, 100, 129, 256, 1001])
def test_pose_reductions_are_numpys_bit_for_bit(n: int) -> None:
    rng = np.random.default_rng(n)
    for _ in range(20):
        x = rng.standard_normal(n) * rng.choice([1e-3, 1.0, 1e4]) + rng.choice([0.0, 50.0])
        assert _mean(x) == float(x.mean())
        r = np.abs(x)
        assert _median(r) == float(np.median(r))
        mask = x > 0.3
        assert _share(mask) == float(mask.mean())
        assert _share(mask.reshape(1, -1)) == float(mask.reshape(1, -1).mean())


def test_a_sharp_step_is_the_fall_between_neighbours() -> None:
    rng = np.random.default_rng(1)
    si = rng.integers(0, 256, (30, 41)).astype(np.int16)
    for axis in (0, 1):
        fall, rise = _steps(si, axis, 1)
        expected = -np.diff(si, axis=axis)  # a[k] - a[k + 1]
        assert np.array_equal(fall, expected)
        assert np.array_equal(rise, -expected)
        # a strided view (the columns or rows the pose looks at) as well
        view = si[:, 3:30] if axis == 0 else si[2:20]
        assert np.array_equal(_steps(view, axis, 1)[0], -np.diff(view, axis=axis))


@pytest.fixture(scope="module")
def glyphs_and_reader():  # type: ignore[no-untyped-def]
    """Every index corner the profile reader cuts from a few rendered passes."""
    from hardware_sim.camera.in_shoe import InShoeRenderer
    from hardware_sim.camera.profile_cache import deck_profile
    from vision.in_shoe import InShoeReader, _Partial
    from vision.in_shoe_pose import Pose, find_pose

    reader = InShoeReader(deck_profile("builtin"))
    glyphs = []
    for preset, seed in (("normal", 3), ("hard", 4)):
        rng = np.random.default_rng(seed)
        renderer = InShoeRenderer("builtin", preset=preset, seed=seed)
        for code in ("6H", "9S", "QD", "TC", "AS", "8D"):
            for f in renderer.render_pass(renderer.plan(code, rng), rng):
                pose = find_pose(f.image)
                if not isinstance(pose, Pose):
                    continue
                try:
                    glyphs += [g for g in reader._corners(f.image, pose) if g is not None]
                except _Partial:
                    continue
    assert len(glyphs) >= 40
    return glyphs, reader.recognizer


def test_the_classifier_vote_handed_back_is_classify(glyphs_and_reader) -> None:  # type: ignore[no-untyped-def]
    glyphs, rec = glyphs_and_reader
    assert isinstance(rec, Recognizer) and rec.profile is not None
    handed = 0
    for g in glyphs:
        for glyph in (g, g.turned_in_place()):
            vote, clf = rec._voted(glyph)
            assert same_vote(vote, rec._vote(glyph))
            if clf is not None:
                handed += 1
                assert same_vote(clf, rec._classify(glyph))
    assert handed >= len(glyphs)


def test_a_vote_left_untaken_is_one_the_caller_would_not_use(glyphs_and_reader) -> None:  # type: ignore[no-untyped-def]
    glyphs, rec = glyphs_and_reader
    skipped = taken = 0
    for g in glyphs:
        own = rec._vote(g).card
        for glyph in (g, g.turned_in_place()):
            full = rec._vote(glyph)
            sure = rec._vote_unless(glyph, _may_be_sure)
            if sure is None:
                skipped += 1
                # ``_corner`` takes a turned corner only when sure, and not of a 6 or 9
                assert not (full.sure and full.card[0] not in "69")
            else:
                taken += 1
                assert same_vote(sure, full)
            for card in {own, "KH" if own != "KH" else "2C"}:
                named = rec._vote_unless(glyph, _names(card))
                if named is None:
                    skipped += 1
                    # ``_reconcile`` takes a turned corner only when it names ``card``
                    assert full.problem or full.card != card
                else:
                    taken += 1
                    assert same_vote(named, full)
    assert skipped > 0 and taken > 0


def test_painting_outside_the_window_is_numpys_masked_assignment() -> None:
    from vision.in_shoe import _paint_outside

    rng = np.random.default_rng(5)
    for shape in ((150, 64), (150, 64), (37, 11)):
        patch = rng.integers(0, 256, (*shape, 3)).astype(np.uint8)
        inside = (rng.random(shape) < 0.6).astype(np.uint8)
        inside[: shape[0] // 3] = 0  # a band outside, as a window's edge leaves
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        expected = patch.copy()
        expected[inside == 0] = colour
        got = _paint_outside(patch, inside, (colour[0], colour[1], colour[2]))
        assert got.dtype == np.uint8 and np.array_equal(got, expected)
