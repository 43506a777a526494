"""Deck profiles: the glyph templates a recogniser compares index corners against.

A deck profile is learned from the 52 faces of the one design a table uses, so
every template is that deck's own rank and suit glyph, and the ink colour of each
suit is learned too (a four-colour deck is fine).  Decks without a profile are
read by the generic classifier (``vision.glyph_model``); the averaged "generic
profile" of the first version is gone, as nothing read with it any more.

A profile file is a NumPy ``.npz``: arrays plus one JSON metadata string, so it
loads without pickle.  Format 2 (the eleventh pass) adds templates read from
blurred copies of the faces (``vision.blurred``) and marks which they are;
format 3 (the sixteenth pass) adds the deck's own output layers for the generic
classifier (``vision.adapt``); format 4 (the nineteenth pass) the cards whose
clean face printed a number card's pips (``vision.pips.pip_card``), their
largest pip, and the courts that showed a picture.  An older
file still loads and reads as it did: calibrating again adds what it lacks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.adapt import Head
from vision.cards import CARD_CODES, FOREIGN, RANKS, SUITS
from vision.index import FEATURE_LEN, IndexGlyphs

#: Classes a glyph is scored against: the standard ones plus "foreign".
RANK_CLASSES = RANKS + FOREIGN
SUIT_CLASSES = SUITS + FOREIGN

FloatArray = npt.NDArray[np.float32]
FORMAT = "pontoon-table deck profile 4"
#: formats :func:`load_profile` reads (1: clean templates only; 2: no head;
#: 3: no pip cards)
READABLE_FORMATS = ("pontoon-table deck profile 1", "pontoon-table deck profile 2",
                    "pontoon-table deck profile 3", FORMAT)
_HEAD_ARRAYS = ("rank_w2", "rank_b2", "suit_w2", "suit_b2")


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
    #: per template, whether it was read from a blurred copy of a face
    #: (``vision.blurred``); empty: none was (a format 1 profile)
    rank_blurred: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, np.bool_))
    suit_blurred: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, np.bool_))
    #: the generic classifier's output layers fitted to this deck (``vision.adapt``);
    #: None: the shipped ones (a format 1 or 2 profile)
    head: Head | None = None
    #: the cards whose clean face showed a number card's pips at calibration
    #: (``vision.pips.pip_card``): a lone big pip is none of them.  Empty: none
    #: known (an older profile, or a deck printing one big sign on each card)
    pip_cards: frozenset[str] = frozenset()
    #: the largest pip (body px, ``vision.pips``) those cards showed; 0: unknown
    pip_size: int = 0
    #: the courts whose clean face showed a picture (``vision.pips.picture_card``):
    #: an ace's sure pip is none of them either
    picture_cards: frozenset[str] = frozenset()
    #: per number card whose clean face showed an array, its pips' centres as
    #: fractions of the card's width and height (``vision.pips.holds_layout``);
    #: empty: none known (an older profile)
    layouts: Mapping[str, tuple[tuple[float, float], ...]] = field(default_factory=dict)
    #: each card's clean body as a thumbnail, in ``CARD_CODES`` order
    #: (``vision.body_likeness``); no rows: none known (an older profile)
    faces: FloatArray = field(default_factory=lambda: np.zeros((0, 0), np.float32))

    def __post_init__(self) -> None:
        for kind, templates, blurred in (("rank", self.rank_templates, self.rank_blurred),
                                         ("suit", self.suit_templates, self.suit_blurred)):
            if len(blurred) == 0:
                blurred = np.zeros(len(templates), np.bool_)
            elif len(blurred) != len(templates):
                raise ProfileError(
                    f"{len(blurred)} {kind} blur marks for {len(templates)} templates")
            object.__setattr__(self, f"{kind}_blurred", np.asarray(blurred, np.bool_))
        # Index arrays for "best template per class" without Python loops at read time.
        rank_idx = np.array([RANK_CLASSES.index(r) for r in self.rank_labels], np.intp)
        suit_idx = np.array([SUIT_CLASSES.index(s) for s in self.suit_labels], np.intp)
        object.__setattr__(self, "_rank_idx", rank_idx)
        object.__setattr__(self, "_suit_idx", suit_idx)
        object.__setattr__(self, "_rank_groups", _Groups.of(rank_idx, len(RANK_CLASSES)))
        object.__setattr__(self, "_suit_groups", _Groups.of(suit_idx, len(SUIT_CLASSES)))

    def rank_scores(self, feature: FloatArray) -> FloatArray:
        """Best correlation per rank class, in ``RANK_CLASSES`` order (-1: no template)."""
        return self.rank_match(feature)[0]

    def suit_scores(self, feature: FloatArray) -> FloatArray:
        return self.suit_match(feature)[0]

    def rank_match(self, feature: FloatArray) -> tuple[FloatArray, bool]:
        """:meth:`rank_scores`, and whether the best template of all is a
        blurred one (a match the recogniser trusts only with the classifier)."""
        raw = _correlations(self.rank_templates, feature)
        return self._rank_groups.best(raw), bool(self.rank_blurred[int(np.argmax(raw))])  # type: ignore[attr-defined]

    def suit_match(self, feature: FloatArray) -> tuple[FloatArray, bool]:
        raw = _correlations(self.suit_templates, feature)
        return self._suit_groups.best(raw), bool(self.suit_blurred[int(np.argmax(raw))])  # type: ignore[attr-defined]

    @property
    def blurred_templates(self) -> int:
        """How many templates were read from blurred faces (0: a format 1 profile)."""
        return int(self.rank_blurred.sum() + self.suit_blurred.sum())

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
            "head_model": self.head.model if self.head is not None else None,
            "pip_cards": sorted(self.pip_cards),
            "pip_size": self.pip_size,
            "picture_cards": sorted(self.picture_cards),
            "layouts": {c: [list(xy) for xy in pts] for c, pts in sorted(self.layouts.items())},
        }
        head = ({} if self.head is None
                else {f"head_{k}": getattr(self.head, k).astype(np.float16) for k in _HEAD_ARRAYS})
        # Templates are unit vectors with entries well inside +-1: int8 keeps them small.
        with open(path, "wb") as fh:
            np.savez_compressed(
                fh,
                meta=np.array(json.dumps(meta)),
                rank_templates=_quantise(self.rank_templates),
                suit_templates=_quantise(self.suit_templates),
                rank_blurred=self.rank_blurred.astype(np.uint8),
                suit_blurred=self.suit_blurred.astype(np.uint8),
                faces=self.faces.astype(np.float16),
                **head,
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


#: templates correlated per call at most: OpenBLAS spreads a matrix-vector
#: product of about 400 x 1200 over its threads, and on a busy machine the
#: reading thread then spent up to 4 ms (p99) waiting for them; 256 rows stay
#: on the calling thread (measured: 300 rows did, 410 did not)
_ROWS_PER_CALL = 256


def _correlations(templates: FloatArray, feature: FloatArray) -> FloatArray:
    if len(templates) <= _ROWS_PER_CALL:
        return templates @ feature
    return np.concatenate([templates[i : i + _ROWS_PER_CALL] @ feature
                           for i in range(0, len(templates), _ROWS_PER_CALL)])


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
            # format 1 has no blur marks: every template is a clean one
            rank_blurred = z["rank_blurred"] if "rank_blurred" in z else np.zeros(0, np.uint8)
            suit_blurred = z["suit_blurred"] if "suit_blurred" in z else np.zeros(0, np.uint8)
            faces = np.asarray(z["faces"], np.float32) if "faces" in z else np.zeros((0, 0))
            head = None
            if meta.get("head_model"):
                head = Head(str(meta["head_model"]), *(
                    np.asarray(z[f"head_{k}"], np.float32) for k in _HEAD_ARRAYS))
    except FileNotFoundError:
        raise ProfileError(f"profile {path} does not exist") from None
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
        raise ProfileError(f"{path} is not a deck profile ({exc})") from None
    if meta.get("format") not in READABLE_FORMATS:
        raise ProfileError(f"{path} is not a deck profile this version reads (format "
                           f"{meta.get('format')!r}; it reads {', '.join(READABLE_FORMATS)}): "
                           "calibrate again, or update pontoon-table")
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
        rank_blurred=rank_blurred.astype(np.bool_),
        suit_blurred=suit_blurred.astype(np.bool_),
        head=head,
        pip_cards=frozenset(str(c) for c in meta.get("pip_cards", ())) & set(CARD_CODES),
        pip_size=max(int(meta.get("pip_size", 0)), 0),
        picture_cards=frozenset(str(c) for c in meta.get("picture_cards", ()))
        & set(CARD_CODES),
        layouts={str(c): tuple((float(x), float(y)) for x, y in pts)
                 for c, pts in meta.get("layouts", {}).items() if c in CARD_CODES},
        faces=faces.astype(np.float32),
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
    blurred: Mapping[str, Iterable[IndexGlyphs]] | None = None,
) -> DeckProfile:
    """Templates from the glyphs read off each card (``samples[code]``: its corners).

    ``average`` keeps one mean template per class (the generic profile merges
    many designs, and averaging one design's four suits keeps the file small);
    otherwise every corner seen becomes a template.  ``complete`` demands all
    52 cards (a deck profile); the generic builder passes what a design has.
    ``blurred[code]``: the card's corners read from blurred copies of its face
    (``vision.blurred``), kept as extra templates marked blurred; they teach
    neither ink colours nor the rank's height, which blur changes.
    """
    rank_f: dict[str, list[FloatArray]] = {r: [] for r in RANKS}
    suit_f: dict[str, list[FloatArray]] = {s: [] for s in SUITS}
    rank_b: dict[str, list[FloatArray]] = {r: [] for r in RANKS}
    suit_b: dict[str, list[FloatArray]] = {s: [] for s in SUITS}
    for code, glyphs in (blurred or {}).items():
        for g in glyphs:
            rank_b[code[0]].append(g.rank)
            suit_b[code[1]].append(g.suit)
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

    def stack(
        groups: dict[str, list[FloatArray]], extra: dict[str, list[FloatArray]]
    ) -> tuple[FloatArray, tuple[str, ...], npt.NDArray[np.bool_]]:
        vecs: list[FloatArray] = []
        labels: list[str] = []
        marks: list[bool] = []
        for label, fs in groups.items():
            if not fs:
                continue
            if average:
                vecs.append(_unit(np.mean(fs, axis=0)))
                labels.append(label)
                marks.append(False)
            else:
                vecs.extend(fs)
                labels.extend(label * len(fs))
                marks.extend([False] * len(fs))
            vecs.extend(extra[label])
            labels.extend(label * len(extra[label]))
            marks.extend([True] * len(extra[label]))
        return np.stack(vecs).astype(np.float32), tuple(labels), np.array(marks, np.bool_)

    rt, rl, rb = stack(rank_f, rank_b)
    st, sl, sb = stack(suit_f, suit_b)
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
        rank_blurred=rb,
        suit_blurred=sb,
    )
