"""A deck profile's own output layers for the generic classifier (``vision.adapt``,
docs/vision.md "Sixteenth pass").

Expected results are derived independently: the fitted layer of a one-unit,
two-class problem against the optimum found by bisection on its derivative
(worked out by hand in the test); the rest by construction (a head crafted to
favour one rank moves a corner's evidence and not its vote; a head fitted on
one model is not used with another).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hardware_sim.camera import calibration_image
from hardware_sim.cards import CARD_CODES
from vision.adapt import Head, fit_head, fit_layer, hidden, model_digest
from vision.calibrate import card_glyphs, face_glyphs
from vision.glyph_damage import augment
from vision.glyph_model import features_of, glyph_model
from vision.profile import build_profile, load_profile
from vision.recognizer import Recognizer


def test_fit_layer_finds_the_optimum_worked_out_by_hand() -> None:
    # Four samples with one hidden unit at 1, three of class 0 and one of
    # class 1, starting from zero, no smoothing.  With h = 1 the weight and the
    # bias enter alike, and the loss depends on the classes' logit difference
    # only, so at the optimum w = b = t/2 for class 0 and -t/2 for class 1,
    # where t minimises  -3/4 log s(2t) - 1/4 log s(-2t) + pull t^2 / 2,
    # i.e. solves  2 (s(2t) - 3/4) + pull t = 0  (s: the logistic function).
    pull = 0.5

    def slope(t: float) -> float:
        return 2 * (1 / (1 + math.exp(-2 * t)) - 0.75) + pull * t

    lo, hi = 0.0, 5.0  # slope(0) < 0 < slope(5)
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if slope(mid) < 0 else (lo, mid)
    t = (lo + hi) / 2
    h = np.ones((4, 1), np.float32)
    y = np.array([0, 0, 0, 1], np.intp)
    w, b = fit_layer(h, y, np.zeros((1, 2), np.float32), np.zeros(2, np.float32),
                     pull=pull, steps=4000, rate=0.01, smooth=0.0)
    assert w[0] == pytest.approx([t / 2, -t / 2], abs=2e-3)
    assert b == pytest.approx([t / 2, -t / 2], abs=2e-3)


def test_a_strong_pull_keeps_the_shipped_layer() -> None:
    rng = np.random.default_rng(0)
    h = rng.random((50, 6)).astype(np.float32)
    y = rng.integers(0, 3, 50).astype(np.intp)
    w0 = rng.normal(size=(6, 3)).astype(np.float32)
    b0 = rng.normal(size=3).astype(np.float32)
    w, b = fit_layer(h, y, w0, b0, pull=1e6, steps=200)
    assert np.abs(w - w0).max() < 1e-3 and np.abs(b - b0).max() < 1e-3


@pytest.fixture(scope="module")
def deck_glyphs(builtin_deck):  # type: ignore[no-untyped-def]
    """{code: clean and blurred corners} of the built-in deck, as calibration reads them."""
    out = {}
    for code in CARD_CODES:
        clean, blurred = face_glyphs(calibration_image(builtin_deck, code))
        out[code] = [*clean, *blurred]
    return out


@pytest.fixture(scope="module")
def head(deck_glyphs) -> Head:  # type: ignore[no-untyped-def]
    return fit_head(glyph_model(), deck_glyphs)


def test_the_deck_head_gives_the_deck_glyphs_more_likelihood(deck_glyphs, head) -> None:  # type: ignore[no-untyped-def]
    # Damaged copies drawn with another seed than calibration's: glyphs of this
    # deck neither layer was fitted on.  The deck's own layer must give the
    # true class more log-likelihood on average than the shipped one.
    model = glyph_model()
    own = head.on(model)
    rng = np.random.default_rng(12345)
    inks, ranks, suits = [], [], []
    for code, gs in deck_glyphs.items():
        for g in gs[:2]:
            inks.append((augment(g.rank_ink, rng), augment(g.suit_ink, rng)))
            ranks.append(model.rank.classes.index(code[0]))
            suits.append(model.suit.classes.index(code[1]))
    gain = {}
    for task, idx, labels in (("rank", 0, ranks), ("suit", 1, suits)):
        x = np.concatenate([features_of([pair[idx] for pair in inks[i : i + 12]])
                            for i in range(0, len(inks), 12)])
        shipped = getattr(model, task).probs(x)[np.arange(len(labels)), labels]
        fitted = getattr(own, task).probs(x)[np.arange(len(labels)), labels]
        gain[task] = float(np.log(fitted).mean() - np.log(shipped).mean())
    # The built-in deck is one the shipped model was trained on: its ranks are
    # read at the ceiling label smoothing leaves (about 0.97), and stay there;
    # its suit signs, read less surely, gain.
    assert gain["rank"] > -0.002
    assert gain["suit"] > 0.005


def test_a_head_belongs_to_the_model_it_was_fitted_on(head) -> None:  # type: ignore[no-untyped-def]
    model = glyph_model()
    assert head.fits(model)
    other = replace(model, rank=replace(model.rank, w1=model.rank.w1 * 1.01))
    assert model_digest(other) != model_digest(model)
    assert not head.fits(other)
    # the hidden layer a head reads is the model's own
    x = features_of([np.ones((20, 12), np.float32)])
    assert np.array_equal(hidden(head.on(model).rank, x), hidden(model.rank, x))


def _favouring_seven(model_head: Head) -> Head:
    """A head whose rank layer says "7" whatever the glyph."""
    classes = glyph_model().rank.classes
    w2 = np.zeros_like(model_head.rank_w2)
    b2 = np.full_like(model_head.rank_b2, -10.0)
    b2[classes.index("7")] = 10.0
    return replace(model_head, rank_w2=w2, rank_b2=b2)


def test_the_head_moves_a_corners_evidence_not_its_vote(builtin_deck, head) -> None:  # type: ignore[no-untyped-def]
    samples = {code: card_glyphs(calibration_image(builtin_deck, code)) for code in CARD_CODES}
    plain = build_profile(samples, name="plain")
    favouring = Recognizer(replace(plain, head=_favouring_seven(head)))
    shipped = Recognizer(plain)
    g = samples["QH"][0]
    mine, theirs = favouring._classify(g), shipped._classify(g)
    assert mine.card == theirs.card == "QH" and mine.problem == theirs.problem == ""
    assert mine.sure == theirs.sure
    assert theirs.evidence is not None and mine.evidence is not None
    assert CARD_CODES[int(np.argmax(theirs.evidence))] == "QH"
    assert CARD_CODES[int(np.argmax(mine.evidence))] == "7H"
    # a head fitted on another model is not used at all
    stale = Recognizer(replace(plain, head=replace(_favouring_seven(head), model="0" * 16)))
    stale_vote = stale._classify(g)
    assert stale_vote.evidence is not None
    assert np.array_equal(stale_vote.evidence, theirs.evidence)


def test_the_head_is_saved_and_loaded_with_the_profile(builtin_deck, head, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    samples = {code: card_glyphs(calibration_image(builtin_deck, code)) for code in CARD_CODES}
    plain = build_profile(samples, name="plain")
    plain.save(tmp_path / "plain.npz")
    assert load_profile(tmp_path / "plain.npz").head is None
    replace(plain, head=head).save(tmp_path / "own.npz")
    loaded = load_profile(tmp_path / "own.npz").head
    assert loaded is not None and loaded.fits(glyph_model())
    for name in ("rank_w2", "rank_b2", "suit_w2", "suit_b2"):
        # stored as float16: within half a unit in the last place of float16
        assert np.allclose(getattr(loaded, name), getattr(head, name), rtol=1e-3, atol=1e-4)


def test_calibration_fits_the_layers_only_when_asked(builtin_deck, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import vision.calibrate as calibrate

    faces = {code: calibration_image(builtin_deck, code) for code in CARD_CODES}
    assert calibrate.ADAPT is False  # not shipped: docs/vision.md, sixteenth pass
    assert calibrate.calibrate_images(faces, name="plain").head is None
    monkeypatch.setattr(calibrate, "ADAPT", True)
    own = calibrate.calibrate_images(faces, name="own").head
    assert own is not None and own.fits(glyph_model())
