"""Rebuild the generic recogniser's model files from training designs only.

    .venv/bin/python benchmarks/build_generic_profile.py --recollect # ~17 min, one core
    .venv/bin/python benchmarks/build_generic_profile.py --validate  # leave groups out, report

Writes ``vision/data/glyph_model.npz``: the rank and suit classifiers used when
no deck profile is given (see ``vision/glyph_model.py`` and ``docs/vision.md``).
Glyphs are cached in ``/tmp/pontoon-glyph-cache-v7.npz`` (``-stylesN`` added with
``--styles N``); ``--recollect`` redoes them.  The version changes when the
pipeline cuts glyphs differently, so an older cache is not read by mistake.

Training glyphs come out of the real pipeline (``card_glyphs`` on simulated
640x480 camera frames, clean/normal/hard) so they carry its segmentation
quirks.  Sources, all *training* only (``vision_split.TRAINING_FAMILIES``: the
tuning designs minus the validation ones, ``vision_split.VALIDATION``):

* the gnome designs of the training families, non-standard courts labelled ``?``;
* the built-in renderer in every Hershey font but COMPLEX (the held-out
  ``four_color`` style's font) and upright DUPLEX (the validation ``duplex``
  style's), standard and with foreign letters and suits;
* synthetic faces in the training TrueType fonts only
  (``vision_fontdeck.FONTS``, drawn under a fontconfig that knows nothing but
  ``vision_fontdeck.TRAINING_FONT_FAMILIES``, the DejaVu and Liberation
  families; with ``--more-fonts``, the eleventh pass's candidate, also
  condensed, serif and sans faces from 13 more Debian font packages,
  ``scripts/bench_fonts.sh``, and half the faces with the index set narrower or
  wider than cut, glyph cache ``-more``; with ``--more-rank-fonts``, the twelfth
  pass's (not shipped either), those faces for the rank classifier only, the
  suit classifier trained exactly as by the default build; with
  ``--suit-from FILE`` as well, the thirteenth pass's, the suit classifier is
  not trained but copied from FILE, the shipped model; with
  ``--extra-rank-fonts --suit-from FILE``, the fifteenth pass's, the rank
  classifier also from ``vision_fontdeck.EXTRA_FONTS``, eight faces from seven
  more packages, glyph cache ``-more2``); fonts installed for
  anything else
  (the fresh held-out font decks of ``vision_split.FRESH_HELD_OUT``, the
  ``vision_split.FONT_STRESS`` decks) never reach training, and a missing
  training font stops the build (``FontMissing``, naming its package);
* with ``--styles N``: N groups of faces whose suit signs are drawn in a new
  hand each (``vision_suitdeck``, ``hardware_sim.cards.suit_styles``: clubs
  and spades twice as often, a "B" in many weights and other foreign letters,
  German, Swiss and Italian signs as ``?``), on their own seeded generator so
  the sources above draw exactly as without them;
* junk: whatever the splitter finds on card backs, empty tables, mostly
  covered cards and inside card bodies (pips, art) - class ``?``.

A frame glyph is kept as an example of its label only when it still correlates
with the same face's clean glyph (so a mis-split corner does not teach that a
pip is a "7"); a glyph that does not resemble it at all becomes a ``?``.  Each
kept glyph is also augmented (turn, stretch, thinner/bolder strokes, blur,
lower resolution, noise, JPEG at the glyph's own scale), half the camera
frames use the hard preset, where the classifier used to abstain most, and
60 % of the faces are first made to look photographed (``photo_face``: worn
ink, paper texture, a sheen band, warm or cool light, lens blur).  Then
one small perceptron per task is trained with NumPy (Adam, cross-entropy).
``--validate`` holds out a few groups (two gnome families, one TrueType font,
one Hershey font) and prints, per acceptance threshold, how many held-out
corners would be answered and how many wrongly.
The shipped thresholds are chosen afterwards, on whole tuning frames, by
``benchmarks/vision_tune.py --model NEW --write-model vision/data/glyph_model.npz``.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from vision_fontdeck import (  # noqa: E402
    FONTS,
    READ_FONTS,
    READ_FONTS_2,
    READ_FONTS_3,
    TWENTIETH_FONTS,
    FontStyle,
    font_faces,
    fonts,
)
from vision_split import TRAINING, TRAINING_FAMILIES, is_standard, open_design  # noqa: E402

import vision.index as vision_index  # noqa: E402
from hardware_sim.camera.frames import render_scene, sample_scene  # noqa: E402
from hardware_sim.cards import CARD_CODES, BuiltinDeck  # noqa: E402
from hardware_sim.cards.builtin import (  # noqa: E402
    NONSTANDARD_DECKS,
    nonstandard_cards,
    render_nonstandard,
    with_changes,
)
from hardware_sim.cards.gnome import families  # noqa: E402
from vision.calibrate import card_glyphs  # noqa: E402
from vision.glyph_damage import augment  # noqa: E402
from vision.glyph_model import (  # noqa: E402
    RANK_CLASSES,
    SUIT_CLASSES,
    GlyphModel,
    Mlp,
    features,
    load_glyph_model,
)
from vision.index import CARD_H, CARD_W, CROP_H, CROP_W, IndexGlyphs, read_patch  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "vision" / "data"
#: v7: the index code of the tenth and eleventh passes cuts slightly different
#: glyphs from the same frames than the v5 (tenth-pass model) and v6 caches hold
CACHE = Path("/tmp/pontoon-glyph-cache-v7.npz")
#: groups left out by --validate
VAL_GROUPS = ("gnome:tango", "gnome:orell", "ttf:Liberation Serif/normal/False",
              "hershey:6")
assert any(f"ttf:{st.family}/{st.weight}/{st.italic}" in VAL_GROUPS for st in FONTS)
#: Hershey fonts for the built-in renderer: all but COMPLEX (the held-out
#: ``four_color`` style's font) and upright DUPLEX (the validation ``duplex`` style's)
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN,
           cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX_SMALL,
           cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC,
           cv2.FONT_HERSHEY_DUPLEX | cv2.FONT_ITALIC, cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC)
#: camera presets the training frames are drawn from; half are hard (blur, JPEG,
#: noise, glare, a finger) because that is where the classifier abstained most
PRESETS = ("clean", "normal", "hard", "hard")
#: a frame glyph whose correlation with the same face's clean glyph is at least
#: this is an example of its label (blur and JPEG lower it; a mis-split pip
#: stays far below)
KEEP = 0.5
#: share of camera frames whose face is first made to look photographed
#: (``photo_face``: worn ink, paper texture, sheen, warm/cool light, lens blur)
PHOTO = 0.6
Face = tuple[np.ndarray, np.ndarray, str, str]  # face, alpha, rank label, suit label


# --- sources -------------------------------------------------------------------------

def gnome_sources() -> Iterator[tuple[str, list[Face], np.ndarray | None]]:
    names = [n for fam in TRAINING_FAMILIES for n in families().get(fam, [])]
    for name in sorted(set(names) | {n for n in TRAINING if not n.startswith("builtin")}):
        deck = open_design(name)
        faces = []
        for code in CARD_CODES:
            rank = code[0] if is_standard(name, code) else "?"
            faces.append((deck.face(code), deck.mask(code), rank, code[1]))
        fam = "builtin" if name.startswith("builtin") else name
        yield f"gnome:{_family(fam)}", faces, deck.back()


def _family(name: str) -> str:
    from vision_split import family

    return family(name)


def builtin_sources(rng: np.random.Generator) -> Iterator[tuple[str, list[Face], np.ndarray]]:
    for style in ("classic", "modern"):  # "duplex" is a validation design
        deck = BuiltinDeck(style)
        faces = [(deck.face(c), deck.mask(c), c[0], c[1]) for c in CARD_CODES]
        yield f"builtin:{style}", faces, deck.back()
    for font in HERSHEY:
        st = with_changes(
            "classic", name=f"hershey{font}", font=font,
            stroke=float(rng.uniform(0.03, 0.12)), index_height=float(rng.uniform(0.1, 0.15)),
            index_max_width=float(rng.uniform(0.12, 0.17)),
            index_pip=float(rng.uniform(0.07, 0.095)),
        )
        deck = BuiltinDeck(st)
        faces = [(deck.face(c), deck.mask(c), c[0], c[1]) for c in CARD_CODES]
        mask = deck.mask(None)
        foreign = ["B", "D", "U", "O", "X", "V", "R", "F", "H", "C", "P", "E", "L", "N", "W",
                   "M", "T"]
        for label in foreign:
            suit = ("hearts", "diamonds", "clubs", "spades")[int(rng.integers(0, 4))]
            faces.append((render_nonstandard("bdk", label, suit, style=st), mask, "?",
                          "CDHS"[["clubs", "diamonds", "hearts", "spades"].index(suit)]))
        for deck_name in ("german", "swiss"):
            spec = NONSTANDARD_DECKS[deck_name]["suits"]
            assert isinstance(spec, dict)
            for suit, (shape, _) in spec.items():
                if shape in ("heart", "diamond", "club", "spade"):
                    continue
                label = "A23456789TJQK"[int(rng.integers(0, 13))]
                text = "10" if label == "T" else label
                faces.append((render_nonstandard(deck_name, text, suit, style=st), mask,
                              label, "?"))
        yield f"hershey:{font}", faces, deck.back()
    # The simulator's own non-standard decks, classic style (the benchmark uses modern).
    for deck_name in NONSTANDARD_DECKS:
        spec = NONSTANDARD_DECKS[deck_name]["suits"]
        assert isinstance(spec, dict)
        faces = []
        mask = BuiltinDeck("classic").mask(None)
        for label, face, must in nonstandard_cards(deck_name, style="classic"):
            if not must:
                continue
            lab, suit = label.split(":")[1].split("-")
            shape = spec[suit][0]
            french = {"heart": "H", "diamond": "D", "club": "C", "spade": "S"}
            std_rank = {"7", "8", "9", "10", "K", "6"}
            rank = ("T" if lab == "10" else lab) if lab in std_rank else "?"
            faces.append((face, mask, rank, french.get(shape, "?")))
        yield f"builtin:{deck_name}", faces, BuiltinDeck("classic").back()


def ttf_sources(rng: np.random.Generator, more: int = 0,
                only: Sequence[FontStyle] | None = None
                ) -> Iterator[tuple[str, list[Face], None]]:
    for st in fonts(more) if only is None else only:
        faces = font_faces(st, rng, four_colour=rng.random() < 0.25, more=more)
        faces += font_faces(st, rng, foreign=True, more=more)
        yield f"ttf:{st.family}/{st.weight}/{st.italic}", faces, None


def styled_sources(seed: int, groups: int, more: int = 0
                   ) -> Iterator[tuple[str, list[Face], None]]:
    """Faces whose suit signs are drawn in a new hand each (``vision_suitdeck``),
    on their own generator so the other sources draw exactly as before."""
    from vision_suitdeck import styled_faces

    for k in range(groups):
        yield f"styles:{k}", styled_faces(np.random.default_rng((seed, 7001, k)), more=more), None


# --- glyph collection ----------------------------------------------------------------

def frame_of(face: np.ndarray | None, alpha: np.ndarray | None, rng: np.random.Generator,
             preset: str, kind: str = "card") -> np.ndarray:
    aspect = face.shape[0] / face.shape[1] if face is not None else 1.4
    scene = sample_scene(rng, preset=preset, kind=kind, aspect=aspect)
    return render_scene(scene, face, rng, alpha)


def _smooth(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    """Noise in [0, 1] with about ``cells`` blobs across the shorter side."""
    small = rng.random((cells * h // min(h, w) + 2, cells * w // min(h, w) + 2))
    out = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(out, 0, 1)


def photo_face(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A printed card as a photograph shows it, before the camera: worn or faded
    ink in patches, paper texture, a sheen band washing out part of the face, a
    warm or cool light cast, and slight lens blur.  The simulated camera adds
    perspective, shadow, glare, noise, motion blur and JPEG on top."""
    h, w = face.shape[:2]
    img: np.ndarray = face.astype(np.float32)
    if rng.random() < 0.6:  # worn printing: ink lighter where the card was handled
        wear = float(rng.uniform(0.15, 0.55)) * _smooth(rng, h, w, int(rng.integers(2, 7)))
        img = 255 - (255 - img) * (1 - wear)[..., None]
        if rng.random() < 0.5:  # flecks of ink lost
            flecks: np.ndarray = (rng.random((h, w)) < rng.uniform(0.002, 0.02)).astype(np.uint8)
            flecks = cv2.dilate(flecks, np.ones((2, 2), np.uint8))
            img = np.where(flecks[..., None] > 0, np.maximum(img, 200), img)
    if rng.random() < 0.7:  # paper texture: fibres and uneven coating
        tex = 1 + 0.05 * (rng.standard_normal((h, w)) * float(rng.uniform(0.2, 1)))
        tex += 0.06 * (_smooth(rng, h, w, 12) - 0.5)
        img = img * tex[..., None].astype(np.float32)
    if rng.random() < 0.4:  # sheen: a soft band of reflected light
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = float(rng.uniform(0, np.pi))
        d = (xx - rng.uniform(0, w)) * np.cos(ang) + (yy - rng.uniform(0, h)) * np.sin(ang)
        band = np.exp(-0.5 * (d / (rng.uniform(0.05, 0.25) * w)) ** 2)
        img = img + (255 - img) * (float(rng.uniform(0.2, 0.6)) * band)[..., None]
    tint = float(rng.uniform(-0.15, 0.15))  # warm (> 0) or cool light
    img = img * np.array([1 - tint, 1 - 0.2 * tint, 1 + 0.5 * tint], np.float32)
    if rng.random() < 0.4:
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.2)))
    return np.clip(img, 0, 255).astype(np.uint8)


def interior_glyphs(face: np.ndarray, rng: np.random.Generator, n: int) -> list[IndexGlyphs]:
    """Glyph pairs the splitter would find in a card's body: pips, art, frame lines."""
    card = np.asarray(cv2.resize(face, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA), np.uint8)
    out = []
    for _ in range(n):
        x = int(rng.integers(18, CARD_W - CROP_W))
        y = int(rng.integers(30, CARD_H - CROP_H - 10))
        patch = np.ascontiguousarray(card[y : y + CROP_H, x : x + CROP_W])
        if rng.random() < 0.5:
            patch = np.ascontiguousarray(patch[::-1, ::-1])
        g = read_patch(patch)
        if g is not None:
            out.append(g)
    return out


def collect(frames: int, seed: int, styles: int = 0, more: int = 0,
            only_fonts: Sequence[FontStyle] | None = None) -> dict[str, np.ndarray]:
    """Glyphs of every training source, or with ``only_fonts`` of those faces
    alone (``--read-font-glyphs``: drawn at tier ``more``, no other source)."""
    # Glyphs are what the ordinary tries cut: the -v7 caches, and so the shipped
    # model, were collected before the last tries shipped, and a last try's split
    # is a guess the reader trusts only at half weight (docs/vision.md, thirteenth pass).
    vision_index.LAST_TRIES = False
    rng = np.random.default_rng(seed)
    rank_x: list[np.ndarray] = []
    rank_y: list[str] = []
    rank_g: list[str] = []
    suit_x: list[np.ndarray] = []
    suit_y: list[str] = []
    suit_g: list[str] = []
    kept = Counter[str]()

    def add(kind: str, ink: np.ndarray, label: str, group: str) -> None:
        if ink.size == 0 or min(ink.shape) < 2:
            return
        (rank_x if kind == "rank" else suit_x).append(ink)
        (rank_y if kind == "rank" else suit_y).append(label)
        (rank_g if kind == "rank" else suit_g).append(group)

    sources: Iterable[tuple[str, list[Face], np.ndarray | None]] = (
        itertools.chain(gnome_sources(), builtin_sources(rng), ttf_sources(rng, more),
                        styled_sources(seed, styles, more))
        if only_fonts is None else ttf_sources(rng, more, only_fonts))
    for group, faces, back in sources:
        t = time.perf_counter()
        for face, alpha, rl, sl in faces:
            clean = card_glyphs(face)
            if not clean:
                kept["face unreadable"] += 1
                continue
            for g in clean:
                add("rank", g.rank_ink, rl, group)
                add("suit", g.suit_ink, sl, group)
            for _ in range(frames):
                shown = photo_face(face, rng) if rng.random() < PHOTO else face
                img = frame_of(shown, alpha, rng, PRESETS[int(rng.integers(0, len(PRESETS)))])
                for g in card_glyphs(img):
                    r = max(float(c.rank @ g.rank) for c in clean)
                    s = max(float(c.suit @ g.suit) for c in clean)
                    if r >= KEEP:
                        add("rank", g.rank_ink, rl, group)
                        kept["rank kept"] += 1
                    elif r < 0.25:
                        add("rank", g.rank_ink, "?", group)
                        kept["rank junk"] += 1
                    else:
                        kept["rank dropped"] += 1
                    if s >= KEEP:
                        add("suit", g.suit_ink, sl, group)
                    elif s < 0.25:
                        add("suit", g.suit_ink, "?", group)
            for g in interior_glyphs(face, rng, 2):
                add("rank", g.rank_ink, "?", group)
        # junk from frames with no readable index
        for i in range(12):
            kind = ("card_back", "mostly_covered", "empty_table")[i % 3]
            face, alpha = faces[int(rng.integers(0, len(faces)))][:2]
            if kind == "card_back":
                if back is None:
                    continue
                face, alpha = back, faces[0][1]
            img = frame_of(None if kind == "empty_table" else face,
                           None if kind == "empty_table" else alpha, rng,
                           PRESETS[i % len(PRESETS)], kind)
            for g in card_glyphs(img):
                add("rank", g.rank_ink, "?", group)
                if kind != "mostly_covered":
                    add("suit", g.suit_ink, "?", group)
        print(f"  {group:<40} {len(faces):3d} faces  {time.perf_counter() - t:5.1f} s  "
              f"{dict(kept)}", flush=True)
    return {
        "rank_x": _pack(rank_x), "rank_y": np.array(rank_y), "rank_g": np.array(rank_g),
        "suit_x": _pack(suit_x), "suit_y": np.array(suit_y), "suit_g": np.array(suit_g),
    }


def _pack(inks: list[np.ndarray]) -> np.ndarray:
    """Variable-size crops as one object-free array: (n, 48, 48) padded plus shapes."""
    out = np.zeros((len(inks), 50, 50), np.uint8)
    for i, ink in enumerate(inks):
        h, w = ink.shape
        s = min(1.0, 48 / max(h, w))
        if s < 1.0:
            ink = cv2.resize(ink, (max(1, round(w * s)), max(1, round(h * s))),
                             interpolation=cv2.INTER_AREA)
        h, w = ink.shape
        out[i, :h, :w] = np.round(ink * 254).astype(np.uint8)
        out[i, 49, 0], out[i, 49, 1] = h, w
    return out


def _unpack(a: np.ndarray) -> np.ndarray:
    h, w = int(a[49, 0]), int(a[49, 1])
    return a[:h, :w].astype(np.float32) / 254


# --- augmentation --------------------------------------------------------------------

def replay_augment(packed: np.ndarray, rng: np.random.Generator, copies: int) -> None:
    """Draw from ``rng`` exactly what ``feature_matrix`` would for these crops,
    computing no features: with ``--more-rank-fonts`` the suit glyphs' augmented
    copies then come out of the generator as in the default build, whose rank
    glyphs (not the ones trained on) use it first."""
    for a in packed:
        ink = _unpack(a)
        for _ in range(copies):
            augment(ink, rng)


def feature_matrix(packed: np.ndarray, rng: np.random.Generator, copies: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Features of every crop plus ``copies`` augmented copies; second array maps rows
    back to crops."""
    rows, src = [], []
    for i, a in enumerate(packed):
        ink = _unpack(a)
        rows.append(features(ink))
        src.append(i)
        for _ in range(copies):
            rows.append(features(augment(ink, rng)))
            src.append(i)
    return np.stack(rows), np.array(src)


# --- training ------------------------------------------------------------------------

def train_mlp(x: np.ndarray, y: np.ndarray, classes: str, *, hidden: int, epochs: int,
              seed: int) -> Mlp:
    """Cross-entropy with label smoothing, Adam, weight decay; classes balanced by weight."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = 1.0 / (x.std(axis=0) + 1e-3)
    z = ((x - mean) * scale).astype(np.float32)
    n, d = z.shape
    c = len(classes)
    counts = np.bincount(y, minlength=c).astype(np.float32)
    cw = (counts.sum() / np.maximum(counts, 1) / c) ** 0.5
    params = {
        "w1": (rng.normal(0, np.sqrt(2 / d), (d, hidden))).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.normal(0, np.sqrt(1 / hidden), (hidden, c))).astype(np.float32),
        "b2": np.zeros(c, np.float32),
    }
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    lr, b1, b2, eps, wd, smooth = 2e-3, 0.9, 0.999, 1e-8, 1e-4, 0.03
    step = 0
    batch = 256
    for epoch in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        for s in range(0, n, batch):
            idx = order[s : s + batch]
            xb, yb = z[idx], y[idx]
            # input dropout makes the net lean on many features, not a few
            xb = xb * (rng.random(xb.shape) > 0.1) / 0.9
            h = xb @ params["w1"] + params["b1"]
            a = np.maximum(h, 0)
            lg = a @ params["w2"] + params["b2"]
            lg -= lg.max(axis=1, keepdims=True)
            p = np.exp(lg)
            p /= p.sum(axis=1, keepdims=True)
            t = np.full_like(p, smooth / c)
            t[np.arange(len(yb)), yb] += 1 - smooth
            w = cw[yb][:, None]
            total += float(-(w * t * np.log(p + 1e-9)).sum())
            g = w * (p - t) / len(yb)
            grads = {"w2": a.T @ g, "b2": g.sum(axis=0)}
            ga = (g @ params["w2"].T) * (h > 0)
            grads["w1"] = xb.T @ ga
            grads["b1"] = ga.sum(axis=0)
            step += 1
            for k in params:
                gk = grads[k] + (wd * params[k] if k.startswith("w") else 0)
                m[k] = b1 * m[k] + (1 - b1) * gk
                v[k] = b2 * v[k] + (1 - b2) * gk * gk
                mh = m[k] / (1 - b1**step)
                vh = v[k] / (1 - b2**step)
                params[k] -= (rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        if epoch % 5 == 4 or epoch == epochs - 1:
            print(f"    epoch {epoch + 1:3d}  loss {total / n:.4f}", flush=True)
    return Mlp(classes, mean.astype(np.float32), scale.astype(np.float32), params["w1"],
               params["b1"], params["w2"], params["b2"])


def merge(members: list[Mlp]) -> Mlp:
    """An ensemble of perceptrons as one wider perceptron.

    Averaging the members' logits is exactly one network whose hidden layer is
    the members' hidden layers side by side and whose output weights are theirs
    divided by the number of members - provided they standardise their input
    alike, which they do (mean and scale are of the same training rows).  So the
    ensemble needs no new model format and costs only the wider matrix product.
    """
    k = len(members)
    first = members[0]
    for m in members[1:]:
        assert np.array_equal(m.mean, first.mean) and np.array_equal(m.scale, first.scale)
    return Mlp(first.classes, first.mean, first.scale,
               np.concatenate([m.w1 for m in members], axis=1),
               np.concatenate([m.b1 for m in members]),
               np.asarray(np.concatenate([m.w2 for m in members], axis=0) / k, np.float32),
               np.mean(np.stack([m.b2 for m in members]), axis=0).astype(np.float32))


def report(mlp: Mlp, x: np.ndarray, y: np.ndarray, label: str) -> None:
    """Held-out corners: accuracy, and answered / wrong per probability threshold."""
    p = mlp.probs(x)
    best = p.argmax(axis=1)
    conf = p.max(axis=1)
    q = len(mlp.classes) - 1
    print(f"  {label}: {len(y)} held-out glyphs, top-1 accuracy {np.mean(best == y):.4f}")
    std = y != q
    for thr in (0.5, 0.7, 0.8, 0.9, 0.95, 0.98):
        ans = (best != q) & (conf >= thr)
        right = ans & (best == y)
        wrong_std = ans & std & (best != y)
        foreign_named = ans & ~std
        print(f"    p>={thr:.2f}: standard answered {right[std].mean():.4f} "
              f"wrong {wrong_std[std].mean():.4f}  '?' named {foreign_named[~std].mean():.4f}")
    errs = Counter((mlp.classes[a], mlp.classes[b]) for a, b in zip(y, best, strict=True)
                   if a != b)
    print(f"    confusions (truth, read): {errs.most_common(10)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=4, help="camera frames per face")
    # defaults: the shipped model (tenth pass: fifth pass + --styles 6); the fourth pass
    # used 2 copies, 30 epochs; the fifth to ninth passes --styles 0
    ap.add_argument("--copies", type=int, default=1, help="augmented copies per glyph")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--members", type=int, default=1,
                    help="perceptrons averaged per task (one wider network, see merge; "
                         "the shipped model has one; two: see docs/vision.md, fifth pass)")
    ap.add_argument("--styles", type=int, default=6,
                    help="groups of 104 faces with suit signs in many hands (vision_suitdeck; "
                         "docs/vision.md, tenth pass)")
    ap.add_argument("--more-fonts", action="store_true",
                    help="also the eleventh pass's faces from 13 more Debian font packages "
                    "(vision_fontdeck.MORE_FONTS) with index widths varied: a candidate, "
                    "not the shipped model (docs/vision.md, Eleventh pass)")
    ap.add_argument("--more-rank-fonts", action="store_true",
                    help="the rank classifier from the --more-fonts glyphs (cache -more), the "
                    "suit classifier exactly as the default build trains it (docs/vision.md, "
                    "Twelfth pass)")
    ap.add_argument("--extra-rank-fonts", action="store_true",
                    help="as --more-rank-fonts, with vision_fontdeck.EXTRA_FONTS as well "
                    "(cache -more2); needs --suit-from (docs/vision.md, Fifteenth pass)")
    ap.add_argument("--read-font-glyphs", type=Path, default=None, metavar="NPZ",
                    help="only collect the glyphs of vision_fontdeck.READ_FONTS (the faces "
                    "of the held-out font groups already read) into NPZ and stop: the "
                    "eighteenth pass's extra training glyphs for train_glyph_cnn.py "
                    "(docs/vision.md, Eighteenth pass)")
    ap.add_argument("--tier", type=int, choices=(3, 4, 5), default=3,
                    help="with --read-font-glyphs: 3 the eighteenth pass's faces "
                    "(vision_fontdeck.READ_FONTS), 4 the twentieth's (READ_FONTS_2 and "
                    "TWENTIETH_FONTS; docs/vision.md, Twentieth pass), 5 the twenty-ninth's "
                    "(READ_FONTS_3)")
    ap.add_argument("--shard", default="0/1", metavar="K/N",
                    help="with --read-font-glyphs: the K-th of N slices of the faces "
                    "(run N at once, one a core)")
    ap.add_argument("--suit-from", type=Path, default=None,
                    help="copy the suit classifier from this model file (the shipped one) "
                    "instead of training it: a retrained rank classifier beside the suit "
                    "weights already measured (docs/vision.md, Thirteenth pass)")
    ap.add_argument("--validate", action="store_true", help="hold out VAL_GROUPS and report")
    ap.add_argument("--recollect", action="store_true", help=f"ignore the cache {CACHE}")
    ap.add_argument("--out", type=Path, default=DATA / "glyph_model.npz")
    ap.add_argument("--min-rank-prob", type=float, default=0.75,
                    help="a corner's rank is accepted from this probability (see --validate)")
    ap.add_argument("--min-suit-prob", type=float, default=0.7)
    args = ap.parse_args(argv)
    if args.more_fonts + args.more_rank_fonts + args.extra_rank_fonts > 1:
        ap.error("--more-fonts, --more-rank-fonts and --extra-rank-fonts exclude each other")
    if args.extra_rank_fonts and args.suit_from is None:
        ap.error("--extra-rank-fonts needs --suit-from (the suit classifier is not retrained)")
    cv2.setNumThreads(1)
    if args.read_font_glyphs is not None:
        k, n = (int(v) for v in args.shard.split("/"))
        tier_faces = {3: READ_FONTS, 4: READ_FONTS_2 + TWENTIETH_FONTS, 5: READ_FONTS_3}[args.tier]
        faces = tier_faces[k::n]
        print(f"collecting glyphs of {len(faces)} faces, tier {args.tier} (shard {k}/{n}) ...",
              flush=True)
        # (tier 3's seeds as they were; tier 4's and 5's shards draw other streams)
        seed = args.seed + 1000 * k + {3: 0, 4: 500, 5: 700}[args.tier]
        data = collect(args.frames, seed, 0, args.tier, only_fonts=faces)
        np.savez_compressed(args.read_font_glyphs, **data)  # type: ignore[arg-type]
        print(f"wrote {args.read_font_glyphs}")
        return 0
    cache = CACHE if not args.styles else CACHE.with_name(f"{CACHE.stem}-styles{args.styles}.npz")
    # --more-rank-fonts / --extra-rank-fonts: ranks from the wider faces, suits exactly
    # as the default build draws them (the more-fonts suit classifier named German
    # bells as diamonds); the suit glyphs are not collected when they are not trained
    rank_tier = 2 if args.extra_rank_fonts else int(args.more_fonts or args.more_rank_fonts)
    rank_data = glyphs(cache, args, rank_tier)
    data = (glyphs(cache, args, int(args.more_fonts)) if args.suit_from is None
            else rank_data)
    rng = np.random.default_rng(args.seed + 1)
    models = {}
    if args.suit_from is not None:
        # the suit weights are read before the long training, so a bad path fails at once;
        # the rank classifier trains first and draws from rng exactly as without this
        models["suit"] = load_glyph_model(args.suit_from).suit
    for task, classes, hidden in (("rank", RANK_CLASSES, 192), ("suit", SUIT_CLASSES, 96)):
        if task in models:
            continue
        if task == "suit" and args.more_rank_fonts:  # (never with --suit-from)
            # the default build's rank glyphs draw their copies first
            skipped = np.isin(data["rank_g"], VAL_GROUPS) if args.validate else None
            replay_augment(data["rank_x"] if skipped is None else data["rank_x"][~skipped],
                           rng, args.copies)
        source = rank_data if task == "rank" else data
        packed, labels, groups = source[f"{task}_x"], source[f"{task}_y"], source[f"{task}_g"]
        y = np.array([classes.index(str(s)) for s in labels])
        val = np.isin(groups, VAL_GROUPS) if args.validate else np.zeros(len(y), bool)
        print(f"{task}: {len(y)} glyphs ({int(val.sum())} held out), "
              f"per class {dict(Counter(str(s) for s in labels))}")
        x, src = feature_matrix(packed[~val], rng, args.copies)
        # members differ in seed (initial weights, batch order, dropout masks)
        mlp = merge([train_mlp(x, y[~val][src], classes, hidden=hidden, epochs=args.epochs,
                               seed=args.seed + 100 * i) for i in range(args.members)])
        if args.validate:
            xv = np.stack([features(_unpack(a)) for a in packed[val]])
            report(mlp, xv, y[val], task)
        models[task] = mlp
    model = GlyphModel(models["rank"], models["suit"], args.min_rank_prob, args.min_suit_prob)
    if args.validate:
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


def glyphs(cache: Path, args: argparse.Namespace, more: int) -> dict[str, np.ndarray]:
    """The glyphs of the default faces or, with ``more`` 1, the --more-fonts faces
    (cache ``-more``), with 2 the --extra-rank-fonts faces (cache ``-more2``),
    collected once and then read from the cache."""
    if more:
        cache = cache.with_name(f"{cache.stem}-more{more if more > 1 else ''}.npz")
    if cache.exists() and not args.recollect:
        with np.load(cache) as z:
            data = {k: z[k] for k in z.files}
        print(f"glyphs from {cache}")
        return data
    print(f"collecting glyphs from tuning sources{' (more fonts)' * (more > 0)} ...")
    data = collect(args.frames, args.seed, args.styles, more)
    np.savez_compressed(cache, **data)  # type: ignore[arg-type]
    return data


if __name__ == "__main__":
    raise SystemExit(main())
