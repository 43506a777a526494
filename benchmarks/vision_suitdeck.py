"""Synthetic faces whose suit signs are drawn in many hands (``suit_styles``).

The generic classifier read unseen decks' clubs as spades: it had seen
clubs and spades in a few dozen hands only.  These faces set the index in a
training font (``vision_fontdeck.FONTS``) and draw the suit sign with
``hardware_sim.cards.suit_styles``, a new hand per face; clubs and spades
twice as often as hearts and diamonds.  Foreign faces teach ``?``: a "B"
(the French valet, which was read as an 8) in many weights and widths, other
foreign letters over French signs, and standard ranks over German, Swiss and
Italian signs.  Used only offline (``build_generic_profile.py`` trains on
``styled_faces(..., stress=False)``; ``suit_stress.py`` reads
``stress=True`` faces, drawn with other seeds and other proportions).
"""

from __future__ import annotations

import base64

import cv2
import numpy as np
from vision_fontdeck import FOREIGN_RANKS, LABEL, H, W, _colour, _svg, fonts, render

from hardware_sim.cards.suit_styles import FOREIGN_SHAPES, draw_sign

Face = tuple[np.ndarray, np.ndarray, str, str]
RANKS = "A23456789TJQK"


def sign_uri(kind: str, colour: str, rng: np.random.Generator, *, tilt: float = 0.0) -> str:
    """A PNG data URI of one sign in ``colour`` (``rgb(r,g,b)``) on transparency."""
    side = 96
    cov = np.zeros((side, side), np.float32)
    draw_sign(cov, (2, 2, side - 4, side - 4), kind, rng)
    if tilt:
        m = cv2.getRotationMatrix2D((side / 2, side / 2), tilt, 1.0)
        cov = np.asarray(cv2.warpAffine(cov, m, (side, side)), np.float32)
    r, g, b = (int(v) for v in colour[4:-1].split(","))
    img = np.zeros((side, side, 4), np.uint8)
    img[..., 0], img[..., 1], img[..., 2] = b, g, r
    img[..., 3] = np.round(np.clip(cov, 0, 1) * 255).astype(np.uint8)
    ok, buf = cv2.imencode(".png", img)
    assert ok
    return "data:image/png;base64," + base64.b64encode(buf.tobytes()).decode("ascii")


def styled_faces(rng: np.random.Generator, *, stress: bool = False,
                 more: int = 0) -> list[Face]:
    """``(face_bgr, alpha, rank_label, suit_label)``: 52 standard faces, 26 more
    clubs and spades, and 26 foreign faces, each sign in its own hand.

    ``stress``: the check set, not for training (and drawn from other seeds):
    every sign turned by up to 10 degrees, which training signs never are, and
    every index in one of the bold, condensed or narrow training faces.
    ``more``: the ``--more-fonts`` build's faces (``vision_fontdeck.MORE_FONTS``
    too, index widths varied)."""
    items: list[tuple[str, str, str, str, str]] = []  # text, sign kind, rl, sl, attrs
    for s in "CDHS":
        for r in RANKS:
            items.append((LABEL.get(r, r), s, r, s, ""))
    for _ in range(26):
        s, r = "CS"[int(rng.integers(0, 2))], RANKS[int(rng.integers(0, 13))]
        items.append((LABEL.get(r, r), s, r, s, ""))
    for k in range(26):
        if k < 10:  # B in many weights and widths: the valet read as an 8
            s = "CDHS"[int(rng.integers(0, 4))]
            w = float(rng.uniform(0, 4))
            attrs = f' stroke-width="{w:.1f}" stroke-linejoin="round"' if w > 0.5 else ""
            items.append(("B", s, "?", s, attrs))
        elif k < 14:
            s = "CDHS"[int(rng.integers(0, 4))]
            label = FOREIGN_RANKS[int(rng.integers(0, len(FOREIGN_RANKS)))]
            items.append((label, s, "?", s, ""))
        else:
            r = RANKS[int(rng.integers(0, 13))]
            shape = FOREIGN_SHAPES[(k - 14) % len(FOREIGN_SHAPES)]
            items.append((LABEL.get(r, r), shape, r, "?", ""))
    faces = [st for st in fonts(more) if not stress or st.weight == "bold"
             or "Condensed" in st.family or "Narrow" in st.family]
    svgs = []
    for text, kind, _, sl, attrs in items:
        st = faces[int(rng.integers(0, len(faces)))]
        colour = _colour(sl if sl != "?" else "S", rng, False)
        if attrs:
            attrs += f' stroke="{colour}"'
        tilt = float(rng.uniform(-10, 10)) if stress else 0.0
        uri = sign_uri(kind, colour, rng, tilt=tilt)
        svgs.append(_svg(text, "", colour, st, rng, sign_image=uri, text_attrs=attrs,
                         widen=more > 0))
    out = []
    for img, (_, _, rl, sl, _) in zip(render(svgs, more), items, strict=True):
        alpha = img[:, :, 3]
        a = alpha[..., None].astype(np.float32) / 255
        bgr = (img[:, :, :3].astype(np.float32) * a + 255 * (1 - a)).astype(np.uint8)
        out.append((bgr, alpha, rl, sl))
    assert all(f[0].shape[:2] == (H, W) for f in out)
    return out
