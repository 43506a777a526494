"""The generic glyph classifier: rank and suit of an index corner on a deck never seen.

Nearest-template matching works for a deck's own glyphs but does not carry
across typefaces: a serif "7" and a sans "7" correlate less than a sans "7" and
a sans "1".  So decks without a profile are read by a small classifier trained
(offline, ``benchmarks/build_generic_profile.py``) on many typefaces and on
camera-style damage, with one extra class, ``?``, for marks that are not a
standard index (German B/D, Swiss suits, court art, pips, junk).

Input is a glyph's ink cropped to its box (``IndexGlyphs.rank_ink``).  It is
padded to a square *keeping its aspect* (a "1" stays thin) and described by a
histogram of oriented gradients, a coarse picture of the ink, and the aspect.
HOG pools gradients over cells, so a stroke a pixel thicker or a glyph a few
degrees turned barely moves the vector; that is what lets it generalise.  The
classifier is a one-hidden-layer perceptron evaluated with NumPy: the model file
is a few hundred kilobytes and needs nothing beyond OpenCV and NumPy.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import FOREIGN, RANKS, SUITS

FloatArray = npt.NDArray[np.float32]

FORMAT = "pontoon-table glyph model 1"
#: Side of the square a glyph is normalised to before describing it.
SIDE = 32
#: Side of the coarse ink picture added to the HOG vector.
COARSE = 12
#: HOG layout: orientation bins, cells per side (cells are SIDE / CELLS pixels)
BINS, CELLS = 9, 4
FEATURE_LEN = (CELLS - 1) ** 2 * 4 * BINS + COARSE * COARSE + 1
_PIXEL = np.arange(SIDE * SIDE)

RANK_CLASSES = RANKS + FOREIGN
SUIT_CLASSES = SUITS + FOREIGN


def square_glyph(ink: FloatArray) -> FloatArray:
    """``ink`` centred in a ``SIDE`` square with a small margin, aspect kept, peak 1."""
    h, w = ink.shape
    side = int(max(h, w) * 1.15) + 2
    sq = np.zeros((side, side), np.float32)
    oy, ox = (side - h) // 2, (side - w) // 2
    sq[oy : oy + h, ox : ox + w] = ink
    interp = cv2.INTER_AREA if side > SIDE else cv2.INTER_LINEAR
    out = cv2.resize(sq, (SIDE, SIDE), interpolation=interp)
    peak = float(out.max())
    return (out / peak if peak > 1e-6 else out).astype(np.float32)


def hog(sq: FloatArray) -> FloatArray:
    """Dalal-Triggs histogram of oriented gradients of a ``SIDE`` square.

    OpenCV 5 dropped ``cv2.HOGDescriptor`` from the main modules, and on a 32 x 32
    glyph the NumPy version costs a few tens of microseconds.  Unsigned
    orientations, linear interpolation between bins, a Gaussian spread across
    cells, 2 x 2-cell blocks with L2-Hys normalisation.
    """
    gx = cv2.Sobel(sq, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(sq, cv2.CV_32F, 0, 1, ksize=1)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) * (BINS / np.pi)  # 0 .. BINS
    lo = np.floor(ang).astype(np.intp) % BINS
    hi = (lo + 1) % BINS
    frac = ang - np.floor(ang)
    n = SIDE * SIDE
    planes = np.bincount(
        np.concatenate([_PIXEL * BINS + lo.reshape(-1), _PIXEL * BINS + hi.reshape(-1)]),
        np.concatenate([(mag * (1 - frac)).reshape(-1), (mag * frac).reshape(-1)]),
        minlength=n * BINS,
    )
    cell = SIDE // CELLS
    stack = cv2.GaussianBlur(planes.astype(np.float32).reshape(SIDE, SIDE, BINS), (0, 0), cell / 2)
    cells = np.asarray(stack, np.float32).reshape(CELLS, cell, CELLS, cell, BINS).sum(axis=(1, 3))
    # 2 x 2-cell blocks, each laid out (top-left, top-right, bottom-left, bottom-right)
    blocks = np.concatenate(
        [cells[:-1, :-1], cells[:-1, 1:], cells[1:, :-1], cells[1:, 1:]], axis=2
    ).reshape(-1, 4 * BINS)
    blocks /= np.sqrt((blocks**2).sum(axis=1, keepdims=True)) + 1e-3
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.sqrt((blocks**2).sum(axis=1, keepdims=True)) + 1e-3
    out: FloatArray = blocks.reshape(-1).astype(np.float32)
    return out


def features(ink: FloatArray) -> FloatArray:
    """The vector the classifier sees for one glyph crop."""
    sq = square_glyph(ink)
    hog_v = hog(sq)
    coarse = cv2.resize(sq, (COARSE, COARSE), interpolation=cv2.INTER_AREA).reshape(-1)
    h, w = ink.shape
    aspect = np.float32(np.log(max(h, 1) / max(w, 1)))
    return np.concatenate([hog_v, coarse, [aspect]]).astype(np.float32)


@dataclass(frozen=True)
class Mlp:
    """Standardise, one ReLU layer, softmax; ``classes[i]`` names output ``i``."""

    classes: str
    mean: FloatArray
    scale: FloatArray
    w1: FloatArray
    b1: FloatArray
    w2: FloatArray
    b2: FloatArray

    def logits(self, x: FloatArray) -> FloatArray:
        z = (x - self.mean) * self.scale
        hidden = np.maximum(z @ self.w1 + self.b1, 0.0)
        out: FloatArray = hidden @ self.w2 + self.b2
        return out

    def probs(self, x: FloatArray) -> FloatArray:
        """Class probabilities for one vector (1-D) or a batch (2-D)."""
        lg = self.logits(x)
        lg = lg - lg.max(axis=-1, keepdims=True)
        e = np.exp(lg)
        out: FloatArray = (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
        return out

    def arrays(self, prefix: str) -> dict[str, Any]:
        return {
            f"{prefix}_mean": self.mean,
            f"{prefix}_scale": self.scale,
            f"{prefix}_w1": self.w1.astype(np.float16),
            f"{prefix}_b1": self.b1,
            f"{prefix}_w2": self.w2.astype(np.float16),
            f"{prefix}_b2": self.b2,
        }

    @classmethod
    def from_arrays(cls, z: np.lib.npyio.NpzFile, prefix: str, classes: str) -> Mlp:
        def get(k: str) -> FloatArray:
            return np.asarray(z[f"{prefix}_{k}"], dtype=np.float32)

        return cls(classes, get("mean"), get("scale"), get("w1"), get("b1"), get("w2"), get("b2"))


@dataclass(frozen=True)
class GlyphModel:
    """Rank and suit classifiers plus the acceptance thresholds tuned with them."""

    rank: Mlp
    suit: Mlp
    #: a corner's rank / suit is accepted only with at least this probability
    min_rank_prob: float = 0.9
    min_suit_prob: float = 0.9

    def save(self, path: str | Path) -> None:
        meta = {
            "format": FORMAT,
            "feature_len": FEATURE_LEN,
            "rank_classes": self.rank.classes,
            "suit_classes": self.suit.classes,
            "min_rank_prob": self.min_rank_prob,
            "min_suit_prob": self.min_suit_prob,
        }
        with open(path, "wb") as fh:
            np.savez_compressed(
                fh, meta=np.array(json.dumps(meta)), **self.rank.arrays("rank"),
                **self.suit.arrays("suit"),
            )


class GlyphModelError(Exception):
    pass


def load_glyph_model(path: str | Path) -> GlyphModel:
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            if meta.get("format") != FORMAT or meta.get("feature_len") != FEATURE_LEN:
                raise GlyphModelError(f"{path} is not a glyph model of this version")
            rank = Mlp.from_arrays(z, "rank", meta["rank_classes"])
            suit = Mlp.from_arrays(z, "suit", meta["suit_classes"])
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
        raise GlyphModelError(f"{path} is not a glyph model ({exc})") from None
    return GlyphModel(rank, suit, float(meta["min_rank_prob"]), float(meta["min_suit_prob"]))


_model: GlyphModel | None = None


def glyph_model() -> GlyphModel:
    """The classifier shipped with the package (``vision/data/glyph_model.npz``)."""
    global _model
    if _model is None:
        ref = resources.files("vision") / "data" / "glyph_model.npz"
        with resources.as_file(ref) as p:
            _model = load_glyph_model(p)
    return _model
