"""A deck profile's own last layer for the generic glyph classifier.

With a calibrated profile a corner has two witnesses: the deck's templates and
the generic classifier.  The templates are exact on clean ink and confidently
wrong on degraded ink, so they only vote; the evidence fused across frames is
the classifier's, and the classifier has never seen this deck's typeface.  On
new typefaces the overhead camera therefore left as many cards unsure with a
profile as without (``docs/vision.md``, fourteenth and fifteenth passes).

Calibration already holds what the classifier lacks: the deck's own glyphs,
clean and blurred.  So a head keeps the classifier's hidden layer (what a glyph
looks like, learned from many typefaces) and refits only the output layer on
those glyphs and damaged copies of them (``vision.glyph_damage``), pulled
toward the shipped layer (``PULL``) so that whatever the deck does not show
(the "not a standard index" class, damage the copies do not imitate) stays as
trained.  The result is a :class:`Head`: two small output layers kept in the
profile, tied to the model they were fitted on (``model_digest``): a profile
fitted on another model reads with that model's own layer.

The recogniser takes a corner's evidence (for fusing frames) from a head, and
its vote from the shipped layers.  Calibration fits no head by default
(``vision.calibrate.ADAPT``): heads failed their ship rule, one kept-out
deck's 2 of clubs named the 7 from their evidence (``docs/vision.md``,
"Sixteenth pass"); ``benchmarks/vision_fuse.py --adapt`` measures them.

Pure: a seeded generator, no I/O; the same glyphs give the same head.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from vision.glyph_damage import augment
from vision.glyph_model import GlyphModel, Mlp, features_of
from vision.index import IndexGlyphs

FloatArray = npt.NDArray[np.float32]

#: the generator's seed: calibration is reproducible
SEED = 18
#: damaged copies per glyph read at calibration (each face gives two clean and
#: up to six blurred corners, so a rank class sees about 4 * 8 * (1 + COPIES))
COPIES = 6
#: weight of the pull toward the shipped output layer (an L2 penalty on the
#: difference, beside the mean cross-entropy of the deck's glyphs)
PULL = 0.05
#: full-batch Adam steps and their rate
STEPS = 150
RATE = 0.01
#: label smoothing, as the shipped model was trained with
SMOOTH = 0.03


@dataclass(frozen=True)
class Head:
    """Output layers fitted to one deck, for the model ``model`` names."""

    model: str  # ``model_digest`` of the glyph model fitted on
    rank_w2: FloatArray
    rank_b2: FloatArray
    suit_w2: FloatArray
    suit_b2: FloatArray

    def fits(self, model: GlyphModel) -> bool:
        """Whether this head was fitted on ``model``'s hidden layers."""
        return (self.model == model_digest(model)
                and self.rank_w2.shape == model.rank.w2.shape
                and self.suit_w2.shape == model.suit.w2.shape)

    def on(self, model: GlyphModel) -> GlyphModel:
        """``model`` reading with this deck's output layers."""
        return replace(model, rank=replace(model.rank, w2=self.rank_w2, b2=self.rank_b2),
                       suit=replace(model.suit, w2=self.suit_w2, b2=self.suit_b2))


def model_digest(model: GlyphModel) -> str:
    """What a head depends on: the model's input scaling and hidden layers."""
    h = hashlib.sha256()
    for mlp in (model.rank, model.suit):
        h.update(mlp.classes.encode())
        for a in (mlp.mean, mlp.scale, mlp.w1, mlp.b1):
            h.update(np.ascontiguousarray(a, np.float32).tobytes())
    return h.hexdigest()[:16]


def hidden(mlp: Mlp, x: FloatArray) -> FloatArray:
    """The perceptron's hidden activations for feature rows ``x``."""
    z = (x - mlp.mean) * mlp.scale
    out: FloatArray = np.maximum(z @ mlp.w1 + mlp.b1, 0.0).astype(np.float32)
    return out


def fit_layer(
    h: FloatArray, y: npt.NDArray[np.intp], w0: FloatArray, b0: FloatArray,
    *, pull: float = PULL, steps: int = STEPS, rate: float = RATE, smooth: float = SMOOTH,
) -> tuple[FloatArray, FloatArray]:
    """An output layer for activations ``h`` and class indices ``y``: mean
    cross-entropy (label-smoothed) plus ``pull / 2`` times the squared distance
    from ``(w0, b0)``, minimised by full-batch Adam from ``(w0, b0)``."""
    n, c = len(y), w0.shape[1]
    target = np.full((n, c), smooth / c, np.float32)
    target[np.arange(n), y] += 1 - smooth
    w, b = w0.astype(np.float64), b0.astype(np.float64)
    hm = h.astype(np.float64)
    mw, vw = np.zeros_like(w), np.zeros_like(w)
    mb, vb = np.zeros_like(b), np.zeros_like(b)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, steps + 1):
        logits = hm @ w + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - target) / n
        gw = hm.T @ g + pull * (w - w0)
        gb = g.sum(axis=0) + pull * (b - b0)
        mw = beta1 * mw + (1 - beta1) * gw
        vw = beta2 * vw + (1 - beta2) * gw * gw
        mb = beta1 * mb + (1 - beta1) * gb
        vb = beta2 * vb + (1 - beta2) * gb * gb
        fix1, fix2 = 1 - beta1**step, 1 - beta2**step
        w -= rate * (mw / fix1) / (np.sqrt(vw / fix2) + eps)
        b -= rate * (mb / fix1) / (np.sqrt(vb / fix2) + eps)
    return w.astype(np.float32), b.astype(np.float32)


def _features(inks: list[FloatArray], batch: int = 12) -> FloatArray:
    """``features_of`` in batches: it stacks a batch's glyphs as image channels,
    and OpenCV 5 takes at most 128 channels (a batch of 12 makes 108)."""
    return np.concatenate([features_of(inks[i : i + batch])
                           for i in range(0, len(inks), batch)])


def _examples(
    glyphs: Mapping[str, Iterable[IndexGlyphs]], rng: np.random.Generator, copies: int
) -> tuple[list[FloatArray], list[str], list[FloatArray], list[str]]:
    """Every glyph's rank and suit ink and ``copies`` damaged copies of each,
    with their labels, card by card in the mapping's order."""
    rank_x: list[FloatArray] = []
    rank_y: list[str] = []
    suit_x: list[FloatArray] = []
    suit_y: list[str] = []
    for code, gs in glyphs.items():
        for g in gs:
            for ink, xs, ys, label in ((g.rank_ink, rank_x, rank_y, code[0]),
                                       (g.suit_ink, suit_x, suit_y, code[1])):
                if ink.size == 0 or min(ink.shape) < 2:
                    continue
                xs.append(ink)
                ys.append(label)
                for _ in range(copies):
                    xs.append(augment(ink, rng))
                    ys.append(label)
    return rank_x, rank_y, suit_x, suit_y


def fit_head(
    model: GlyphModel, glyphs: Mapping[str, Iterable[IndexGlyphs]], *,
    copies: int = COPIES, pull: float = PULL, steps: int = STEPS, seed: int = SEED,
) -> Head:
    """The deck's output layers from its calibration glyphs (``{code: corners}``,
    clean and blurred alike, each the way up it is printed)."""
    rng = np.random.default_rng(seed)
    rank_x, rank_y, suit_x, suit_y = _examples(glyphs, rng, copies)

    def layer(mlp: Mlp, inks: list[FloatArray], labels: list[str]
              ) -> tuple[FloatArray, FloatArray]:
        if not inks:
            return mlp.w2, mlp.b2
        h = hidden(mlp, _features(inks))
        y = np.array([mlp.classes.index(label) for label in labels], np.intp)
        return fit_layer(h, y, mlp.w2, mlp.b2, pull=pull, steps=steps)

    rank_w2, rank_b2 = layer(model.rank, rank_x, rank_y)
    suit_w2, suit_b2 = layer(model.suit, suit_x, suit_y)
    return Head(model_digest(model), rank_w2, rank_b2, suit_w2, suit_b2)
