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

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import FOREIGN, RANKS, SUITS
from vision.glyph_cnn import GlyphCnn

FloatArray = npt.NDArray[np.float32]

FORMAT = "pontoon-table glyph model 1"
#: Side of the square a glyph is normalised to before describing it.
SIDE = 32
#: Side of the coarse ink picture added to the HOG vector.
COARSE = 12
#: HOG layout: orientation bins, cells per side (cells are SIDE / CELLS pixels)
BINS, CELLS = 9, 4
FEATURE_LEN = (CELLS - 1) ** 2 * 4 * BINS + COARSE * COARSE + 1
_CELL = SIDE // CELLS
_PI = np.float32(np.pi)

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
    out = np.asarray(cv2.resize(sq, (SIDE, SIDE), interpolation=interp), np.float32)
    peak = float(out.max())
    if peak > 1e-6:
        np.divide(out, peak, out=out)
    return out


def hog(sq: FloatArray) -> FloatArray:
    """Dalal-Triggs histogram of oriented gradients of a ``SIDE`` square.

    OpenCV 5 dropped ``cv2.HOGDescriptor`` from the main modules, and on a 32 x 32
    glyph the NumPy version costs a few tens of microseconds.  Unsigned
    orientations, linear interpolation between bins, a Gaussian spread across
    cells, 2 x 2-cell blocks with L2-Hys normalisation.
    """
    out: FloatArray = hogs(sq[:, :, None])[0]
    return out


def hogs(sqs: FloatArray) -> FloatArray:
    """``hog`` of each of k squares stacked as channels (SIDE, SIDE, k), as rows
    (k, _HOG_LEN).

    One pass for all of them: a corner's rank and suit cost less together than
    apart, NumPy and OpenCV calls on such small arrays being largely overhead.
    Every number is computed exactly as for a single square: element-wise
    operations do not care which array an element is in, the Sobel difference is
    one subtraction, the blur treats channels alike (a row of 32 pixels of 9k
    channels is a whole number of SIMD vectors, so no element takes a scalar
    tail path), and every sum adds the same terms in the same order
    (``benchmarks/recognizer_equivalence.py`` checks the result bit for bit).
    """
    k = sqs.shape[2]
    gx = cv2.Sobel(sqs, cv2.CV_32F, 1, 0, ksize=1).reshape(-1)
    gy = cv2.Sobel(sqs, cv2.CV_32F, 0, 1, ksize=1).reshape(-1)
    mag = np.sqrt(gx * gx + gy * gy)
    # Only pixels with a gradient vote (the others would add exact zeros), and a
    # pixel's two votes go to two different bins, so they are written, not summed.
    nz = np.flatnonzero(mag)
    m = mag[nz]
    ang = np.arctan2(gy[nz], gx[nz])
    # ``ang % np.pi`` (slow on float32) for angles in [-pi, pi], step for step as
    # NumPy's remainder does it: pi itself gives 0, negative angles gain pi.
    ang[ang == _PI] = 0.0
    np.add(ang, _PI, out=ang, where=ang < 0)
    ang *= BINS / np.pi  # 0 .. BINS
    fl = np.floor(ang)
    lo = fl.astype(np.intp)
    lo[lo == BINS] = 0  # ``lo % BINS``: the angle is at most BINS
    frac = ang - fl
    # Orientation planes (y, x, square, bin): one image with k * BINS channels.
    planes = np.zeros(SIDE * SIDE * k * BINS, np.float32)
    at = nz * BINS
    planes[at + lo] = m * (1 - frac)
    lo += 1
    lo[lo == BINS] = 0
    planes[at + lo] = m * frac
    stack = cv2.GaussianBlur(planes.reshape(SIDE, SIDE, k * BINS), (0, 0), _CELL / 2)
    # Sum each cell's pixels in the order ``sum(axis=(1, 3))`` of a
    # (CELLS, cell, CELLS, cell, BINS) view adds them: one pixel offset at a time.
    by_pixel = np.asarray(stack, np.float32).reshape(CELLS, _CELL, CELLS, _CELL, k * BINS)
    cells = np.add.reduce(
        by_pixel.transpose(1, 3, 0, 2, 4).reshape(_CELL * _CELL, CELLS * CELLS * k * BINS), axis=0
    )
    # 2 x 2-cell blocks, each laid out (top-left, top-right, bottom-left, bottom-right),
    # gathered into a C-ordered array so that each block's sums below run over
    # contiguous memory (NumPy adds pairwise there, one by one on strided data).
    blocks = cells[_blocks(k)]
    norm = np.sqrt(np.add.reduce(blocks * blocks, axis=2, keepdims=True))
    norm += 1e-3
    blocks /= norm
    np.minimum(blocks, 0.2, out=blocks)
    norm = np.sqrt(np.add.reduce(blocks * blocks, axis=2, keepdims=True))
    norm += 1e-3
    blocks /= norm
    out: FloatArray = blocks.reshape(k, -1)
    return out


@functools.cache
def _blocks(k: int) -> npt.NDArray[np.intp]:
    """Index of each square's (blocks, 4 * BINS) entries in the flat cells of k squares."""
    cell = (np.arange(CELLS * CELLS) * k)[:, None] * BINS + np.arange(BINS)
    return cell.reshape(-1)[_BLOCKS] + (np.arange(k) * BINS)[:, None, None]


def _block_index() -> npt.NDArray[np.intp]:
    """Where each entry of the (blocks, 4 * BINS) matrix sits in a square's flat cells."""
    cells = np.arange(CELLS * CELLS * BINS).reshape(CELLS, CELLS, BINS)
    return np.concatenate(
        [cells[:-1, :-1], cells[:-1, 1:], cells[1:, :-1], cells[1:, 1:]], axis=2
    ).reshape(-1, 4 * BINS)


_BLOCKS = _block_index()
_HOG_LEN = (CELLS - 1) ** 2 * 4 * BINS


def features(ink: FloatArray) -> FloatArray:
    """The vector the classifier sees for one glyph crop."""
    out: FloatArray = features_of([ink])[0]
    return out


def features_of(inks: Sequence[FloatArray]) -> FloatArray:
    """``features`` of several glyph crops at once (rows), bit for bit the same."""
    sqs = [square_glyph(ink) for ink in inks]
    out = np.empty((len(inks), FEATURE_LEN), np.float32)
    out[:, :_HOG_LEN] = hogs(np.stack(sqs, axis=2))
    for row, ink, sq in zip(out, inks, sqs, strict=True):
        row[_HOG_LEN:-1] = cv2.resize(sq, (COARSE, COARSE), interpolation=cv2.INTER_AREA).ravel()
        h, w = ink.shape
        row[-1] = np.float32(np.log(max(h, 1) / max(w, 1)))
    return out


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
        # (the same operations as ``(x - mean) * scale`` etc., in place: on one
        # glyph the temporaries cost more than the arithmetic)
        z = x - self.mean
        z *= self.scale
        hidden = z @ self.w1
        hidden += self.b1
        np.maximum(hidden, 0.0, out=hidden)
        out: FloatArray = np.asarray(hidden @ self.w2)
        out += self.b2
        return out

    def probs(self, x: FloatArray) -> FloatArray:
        """Class probabilities for one vector (1-D) or a batch (2-D)."""
        return _softmax(self.logits(x))

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
    """Rank and suit classifiers plus the acceptance thresholds tuned with them.

    With ``rank_cnn``, a corner's rank logits are the perceptron's and the
    convolutional reader's mixed, ``cnn_weight`` the reader's share
    (``rank_probs``); likewise the suit with ``suit_cnn`` (``suit_probs``).
    """

    rank: Mlp
    suit: Mlp
    #: a corner's rank / suit is accepted only with at least this probability
    min_rank_prob: float = 0.9
    min_suit_prob: float = 0.9
    rank_cnn: GlyphCnn | None = None
    cnn_weight: float = 0.0
    suit_cnn: GlyphCnn | None = None
    suit_cnn_weight: float = 0.0
    #: mix a network in only where its top class is the perceptron's (else the
    #: perceptron alone): a network may make the perceptron surer, never change
    #: its mind (docs/vision.md, seventeenth pass, third candidate)
    cnn_agree: bool = False

    def perceptrons(self) -> GlyphModel:
        """This model without its networks: how a deck with a profile reads
        (its templates read the index; the networks helped only where the
        typeface is unknown: docs/vision.md, seventeenth pass)."""
        return replace(self, rank_cnn=None, cnn_weight=0.0, suit_cnn=None,
                       suit_cnn_weight=0.0, cnn_agree=False)

    @property
    def rank_needs_features(self) -> bool:
        """Whether ``rank_probs`` reads the glyph's features: not when the
        networks alone name the rank (``cnn_weight`` 1, no ``cnn_agree``), so a
        reader need not work out a rank histogram nothing looks at."""
        return self.rank_cnn is None or self.cnn_weight < 1 or self.cnn_agree

    def rank_probs(self, rank_f: FloatArray | None, ink: FloatArray) -> FloatArray:
        """Rank probabilities of one glyph crop ``ink`` whose features are
        ``rank_f`` (None only when not ``rank_needs_features``)."""
        return _mixed(self.rank, self.rank_cnn, self.cnn_weight, rank_f, ink, self.cnn_agree)

    def suit_probs(self, suit_f: FloatArray, ink: FloatArray) -> FloatArray:
        """Suit probabilities of one glyph crop ``ink`` whose features are ``suit_f``."""
        return _mixed(self.suit, self.suit_cnn, self.suit_cnn_weight, suit_f, ink,
                      self.cnn_agree)

    def save(self, path: str | Path) -> None:
        meta = {
            "format": FORMAT,
            "feature_len": FEATURE_LEN,
            "rank_classes": self.rank.classes,
            "suit_classes": self.suit.classes,
            "min_rank_prob": self.min_rank_prob,
            "min_suit_prob": self.min_suit_prob,
            "cnn_weight": self.cnn_weight,
            "suit_cnn_weight": self.suit_cnn_weight,
            "cnn_agree": self.cnn_agree,
        }
        arrays: dict[str, Any] = {
            "meta": np.array(json.dumps(meta)), **self.rank.arrays("rank"),
            **self.suit.arrays("suit"),
        }
        for task, cnn in (("rank", self.rank_cnn), ("suit", self.suit_cnn)):
            for i, member in enumerate(cnn.members if cnn is not None else ()):
                arrays[_member_key(task, i)] = np.frombuffer(member, np.uint8)
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)


def _mixed(mlp: Mlp, cnn: GlyphCnn | None, weight: float, f: FloatArray | None,
           ink: FloatArray, agree: bool = False) -> FloatArray:
    """Softmax of ``(1 - weight)`` times the perceptron's logits plus ``weight``
    times the network's (the perceptron alone without a network, or with
    ``agree`` where the two name different classes).  ``f`` may be None only
    where the network alone decides."""
    if cnn is None:
        return mlp.probs(_given(f))
    e = cnn.logits(square_glyph(ink)[None])[0]
    if weight < 1 or agree:
        own = mlp.logits(_given(f))
        if agree and int(np.argmax(own)) != int(np.argmax(e)):
            return _softmax(own)
        e *= weight
        e += (1 - weight) * own
    return _softmax(e)


def _given(f: FloatArray | None) -> FloatArray:
    if f is None:
        raise ValueError("this classifier reads the glyph's features: pass them")
    return f


def _softmax(e: FloatArray) -> FloatArray:
    e -= e.max(axis=-1, keepdims=True)
    np.exp(e, out=e)
    e /= e.sum(axis=-1, keepdims=True)
    out: FloatArray = e.astype(np.float32, copy=False)
    return out


class GlyphModelError(Exception):
    pass


def _member_key(task: str, i: int) -> str:
    """The array holding member ``i`` of a task's network (the first keeps the
    name a single network always had)."""
    return f"{task}_cnn_onnx" + (f"_{i}" if i else "")


def _networks(z: np.lib.npyio.NpzFile, task: str, classes: str) -> GlyphCnn | None:
    members: list[bytes] = []
    while _member_key(task, len(members)) in z.files:
        members.append(z[_member_key(task, len(members))].tobytes())
    return GlyphCnn(members, classes) if members else None


def load_glyph_model(path: str | Path) -> GlyphModel:
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            if meta.get("format") != FORMAT or meta.get("feature_len") != FEATURE_LEN:
                raise GlyphModelError(f"{path} is not a glyph model of this version")
            rank = Mlp.from_arrays(z, "rank", meta["rank_classes"])
            suit = Mlp.from_arrays(z, "suit", meta["suit_classes"])
            cnn = _networks(z, "rank", rank.classes)
            suit_cnn = _networks(z, "suit", suit.classes)
    except (OSError, ValueError, KeyError, json.JSONDecodeError, cv2.error) as exc:
        raise GlyphModelError(f"{path} is not a glyph model ({exc})") from None
    return GlyphModel(rank, suit, float(meta["min_rank_prob"]), float(meta["min_suit_prob"]),
                      cnn, float(meta.get("cnn_weight", 0.0)) if cnn is not None else 0.0,
                      suit_cnn,
                      float(meta.get("suit_cnn_weight", 0.0)) if suit_cnn is not None else 0.0,
                      bool(meta.get("cnn_agree", False)))


_model: GlyphModel | None = None


def glyph_model() -> GlyphModel:
    """The classifier shipped with the package (``vision/data/glyph_model.npz``)."""
    global _model
    if _model is None:
        ref = resources.files("vision") / "data" / "glyph_model.npz"
        with resources.as_file(ref) as p:
            _model = load_glyph_model(p)
    return _model
