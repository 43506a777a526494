"""Deck profiles: the glyph templates a recogniser compares index corners against.

A deck profile is learned from the 52 faces of the one design a table uses, so
every template is that deck's own rank and suit glyph, and the ink colour of each
suit is learned too (a four-colour deck is fine).  Decks without a profile are
read by the generic classifier (``vision.glyph_model``); the averaged "generic
profile" of the first version is gone, as nothing read with it any more.

A profile file is a NumPy ``.npz``: arrays plus one JSON metadata string, so it
loads without pickle.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.cards import CARD_CODES, FOREIGN, RANKS, SUITS
from vision.index import FEATURE_LEN, IndexGlyphs

#: Classes a glyph is scored against: the standard ones plus "foreign".
RANK_CLASSES = RANKS + FOREIGN
SUIT_CLASSES = SUITS + FOREIGN

FloatArray = npt.NDArray[np.float32]
FORMAT = "pontoon-table deck profile 1"


class ProfileError(Exception):
    """A profile cannot be built or loaded; the message says what to do."""


@dataclass(frozen=True)
class Thresholds:
    """Below these a reading is "unsure".

    Scores are normalised correlations with the best template of a class.  The
    *ratio* is (1 - best) / (1 - runner-up): how much closer the winner is than
    the best other class (Lowe's ratio test), which stays meaningful both for a
    deck's own templates (scores near 1) and for generic ones (scores lower).
    """

    min_rank_score: float
    min_suit_score: float
    max_rank_ratio: float
    max_suit_ratio: float


DECK_THRESHOLDS = Thresholds(0.70, 0.70, 0.55, 0.55)
GENERIC_THRESHOLDS = Thresholds(0.70, 0.75, 0.50, 0.50)


@dataclass(frozen=True)
class DeckProfile:
    name: str
    generic: bool
    rank_templates: FloatArray  # (n, FEATURE_LEN), unit vectors
    rank_labels: tuple[str, ...]
    suit_templates: FloatArray
    suit_labels: tuple[str, ...]
    #: ink colour per suit relative to paper (B, G, R); empty for generic
    suit_colours: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)
    #: typical rank glyph height in card units (0: unknown)
    rank_height: float = 0.0
    thresholds: Thresholds = GENERIC_THRESHOLDS

    def __post_init__(self) -> None:
        # Index arrays for "best template per class" without Python loops at read time.
        rank_idx = np.array([RANK_CLASSES.index(r) for r in self.rank_labels], np.intp)
        suit_idx = np.array([SUIT_CLASSES.index(s) for s in self.suit_labels], np.intp)
        object.__setattr__(self, "_rank_idx", rank_idx)
        object.__setattr__(self, "_suit_idx", suit_idx)
        object.__setattr__(self, "_rank_groups", _Groups.of(rank_idx, len(RANK_CLASSES)))
        object.__setattr__(self, "_suit_groups", _Groups.of(suit_idx, len(SUIT_CLASSES)))

    def rank_scores(self, feature: FloatArray) -> FloatArray:
        """Best correlation per rank class, in ``RANK_CLASSES`` order (-1: no template)."""
        return self._rank_groups.best(self.rank_templates @ feature)  # type: ignore[attr-defined, no-any-return]

    def suit_scores(self, feature: FloatArray) -> FloatArray:
        return self._suit_groups.best(self.suit_templates @ feature)  # type: ignore[attr-defined, no-any-return]

    def save(self, path: str | Path) -> None:
        meta = {
            "format": FORMAT,
            "name": self.name,
            "generic": self.generic,
            "rank_labels": "".join(self.rank_labels),
            "suit_labels": "".join(self.suit_labels),
            "suit_colours": {k: list(v) for k, v in self.suit_colours.items()},
            "rank_height": self.rank_height,
            "thresholds": self.thresholds.__dict__,
        }
        # Templates are unit vectors with entries well inside +-1: int8 keeps them small.
        with open(path, "wb") as fh:
            np.savez_compressed(
                fh,
                meta=np.array(json.dumps(meta)),
                rank_templates=_quantise(self.rank_templates),
                suit_templates=_quantise(self.suit_templates),
            )


@dataclass(frozen=True)
class _Groups:
    """Templates grouped by class, to take the best score per class with one
    ``np.maximum.reduceat`` over the scores sorted by class (``np.maximum.at``
    into a row of -1, as before, was slow on a hundred scores; a maximum does
    not round, so the result is the same)."""

    n: int
    order: npt.NDArray[np.intp]  # template indices sorted by class
    starts: npt.NDArray[np.intp]  # where each present class starts in ``order``
    present: npt.NDArray[np.intp]  # the classes with at least one template

    @classmethod
    def of(cls, idx: npt.NDArray[np.intp], n: int) -> _Groups:
        order = np.argsort(idx, kind="stable").astype(np.intp)
        present, starts = np.unique(idx[order], return_index=True)
        return cls(n, order, starts.astype(np.intp), present.astype(np.intp))

    def best(self, scores: FloatArray) -> FloatArray:
        """The best of ``scores`` per class (at least -1; -1 for a class without
        templates)."""
        out = np.full(self.n, -1.0, np.float32)
        if len(self.order):
            out[self.present] = np.maximum(np.maximum.reduceat(scores[self.order], self.starts),
                                           out[self.present])
        return out


def _quantise(a: FloatArray) -> npt.NDArray[np.int8]:
    return np.clip(np.round(a * 127 / 0.5), -127, 127).astype(np.int8)  # entries stay < 0.5


def _dequantise(a: npt.NDArray[np.int8]) -> FloatArray:
    v = a.astype(np.float32) * (0.5 / 127)
    n = np.linalg.norm(v, axis=1, keepdims=True)
    out: FloatArray = (v / np.maximum(n, 1e-6)).astype(np.float32)
    return out


def load_profile(path: str | Path) -> DeckProfile:
    """Load a profile written by :meth:`DeckProfile.save`; ProfileError if it is not one."""
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            ranks = _dequantise(z["rank_templates"])
            suits = _dequantise(z["suit_templates"])
    except FileNotFoundError:
        raise ProfileError(f"profile {path} does not exist") from None
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
        raise ProfileError(f"{path} is not a deck profile ({exc})") from None
    if meta.get("format") != FORMAT:
        raise ProfileError(f"{path} is not a deck profile (format {meta.get('format')!r})")
    if ranks.shape[1:] != (FEATURE_LEN,) or suits.shape[1:] != (FEATURE_LEN,):
        raise ProfileError(f"{path} was made by another version of pontoon-table; calibrate again")
    return DeckProfile(
        name=str(meta["name"]),
        generic=bool(meta["generic"]),
        rank_templates=ranks,
        rank_labels=tuple(meta["rank_labels"]),
        suit_templates=suits,
        suit_labels=tuple(meta["suit_labels"]),
        suit_colours={k: (v[0], v[1], v[2]) for k, v in meta["suit_colours"].items()},
        rank_height=float(meta["rank_height"]),
        thresholds=Thresholds(**meta["thresholds"]),
    )


def _unit(v: FloatArray) -> FloatArray:
    v = v - v.mean()
    return (v / max(float(np.linalg.norm(v)), 1e-6)).astype(np.float32)


def build_profile(
    samples: Mapping[str, Iterable[IndexGlyphs]],
    *,
    name: str,
    generic: bool = False,
    average: bool = False,
    complete: bool = True,
) -> DeckProfile:
    """Templates from the glyphs read off each card (``samples[code]``: its corners).

    ``average`` keeps one mean template per class (the generic profile merges
    many designs, and averaging one design's four suits keeps the file small);
    otherwise every corner seen becomes a template.  ``complete`` demands all
    52 cards (a deck profile); the generic builder passes what a design has.
    """
    rank_f: dict[str, list[FloatArray]] = {r: [] for r in RANKS}
    suit_f: dict[str, list[FloatArray]] = {s: [] for s in SUITS}
    colours: dict[str, list[tuple[float, float, float]]] = {s: [] for s in SUITS}
    heights: list[float] = []
    for code, glyphs in samples.items():
        for g in glyphs:
            rank_f[code[0]].append(g.rank)
            suit_f[code[1]].append(g.suit)
            colours[code[1]].append(g.colour)
            heights.append(g.rank_height)
    missing = [c for c in CARD_CODES if not list(samples.get(c, []))]
    if missing and complete:
        raise ProfileError(f"no readable index on {', '.join(missing)}")

    def stack(groups: dict[str, list[FloatArray]]) -> tuple[FloatArray, tuple[str, ...]]:
        vecs: list[FloatArray] = []
        labels: list[str] = []
        for label, fs in groups.items():
            if not fs:
                continue
            if average:
                vecs.append(_unit(np.mean(fs, axis=0)))
                labels.append(label)
            else:
                vecs.extend(fs)
                labels.extend(label * len(fs))
        return np.stack(vecs).astype(np.float32), tuple(labels)

    rt, rl = stack(rank_f)
    st, sl = stack(suit_f)
    suit_colours = (
        {}
        if generic
        else {s: tuple(float(x) for x in np.mean(colours[s], axis=0)) for s in SUITS if colours[s]}
    )
    return DeckProfile(
        name=name,
        generic=generic,
        rank_templates=rt,
        rank_labels=rl,
        suit_templates=st,
        suit_labels=sl,
        suit_colours=suit_colours,  # type: ignore[arg-type]
        rank_height=float(np.median(heights)) if heights else 0.0,
        thresholds=GENERIC_THRESHOLDS if generic else DECK_THRESHOLDS,
    )
