"""The deck's own faces as a witness of a card's kind (profile mode, overhead).

A misread index can name a court for a number card or a number card for a
court (a blackletter K read as a 6, a script 9 read as a queen), and the
body reader (``vision.pips``) contradicts it only when it sees an array of
pips: a court's picture, or pips lost under glare or a finger, say nothing
to it.  A calibrated deck knows what each of its faces looks like, though,
and a whole body, seen small and blurred, is still far more like the faces
of its own kind (an ace's one big pip, a number card's pips, a court's
picture) than like any face of another kind.

So calibration keeps each face's body as a thumbnail (``THUMB``, its light
flattened as the body reader's is), and a frame's body is compared with all
52 by normalised correlation, either way up (the outline does not say which
end is the card's top).  When the best of them is plainly like the frame
(``LEAST_LIKENESS``) and another kind's best trails it by ``KIND_LEAD``,
that kind's cards are ruled out of the frame's evidence (``RULED_OUT``), as
an array rules out the courts.  Nothing finer than the kind is claimed: a 6
and a 7 of one deck, or two kings, look too much alike at this size.

A body most like an ace rules nothing out: glare, flattened, leaves one big
dark mark in the card's middle, as an ace's pip (on development data's
glare frames, courts were most like an ace; docs/vision.md, twenty-fifth
pass).

Pure: arrays in, arrays out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import CARD_CODES
from vision.empty_places import PaperView
from vision.pips import RULED_OUT, BodyReading

FloatArray = npt.NDArray[np.float32]

#: the thumbnail a body is compared at (width, height), and the border
#: (columns, rows) left off it: the card's edge, where table and shadow are
THUMB = (20, 30)
BORDER = (2, 3)
THUMB_LEN = (THUMB[0] - 2 * BORDER[0]) * (THUMB[1] - 2 * BORDER[1])
#: the least correlation of the frame's body with the face most like it for
#: the body to speak at all (a body under a hand is like nothing)
LEAST_LIKENESS = 0.6
#: how far a kind's most like face must trail the best for the kind to be
#: ruled out
KIND_LEAD = 0.3
#: each card's kind: ``ACE``, 1 a number card, 2 a court
ACE = 0
KIND_OF = np.array([0 if c[0] == "A" else 2 if c[0] in "JQK" else 1 for c in CARD_CODES])


def faces_of(thumbs: Mapping[str, FloatArray | None]) -> FloatArray:
    """The deck's faces as ``rule_out_other_kinds`` takes them: one thumbnail
    per card, in ``CARD_CODES`` order; none (an empty array, the witness
    off) unless every card has one."""
    rows = [thumbs.get(code) for code in CARD_CODES]
    if any(r is None or r.shape != (THUMB_LEN,) for r in rows):
        return np.zeros((0, THUMB_LEN), np.float32)
    return np.stack([r for r in rows if r is not None]).astype(np.float32)


def thumb_of(view: PaperView) -> FloatArray:
    """The body's thumbnail: its flattened darkest channel, shrunk to
    ``THUMB``, without the border, as a unit vector of zero mean."""
    small = cv2.resize(view.flat, THUMB, interpolation=cv2.INTER_AREA).astype(np.float32)
    core = small[BORDER[1]:THUMB[1] - BORDER[1], BORDER[0]:THUMB[0] - BORDER[0]].ravel()
    core = core - core.mean()
    out: FloatArray = (core / max(float(np.linalg.norm(core)), 1e-6)).astype(np.float32)
    return out


def _half_turn(thumb: FloatArray) -> FloatArray:
    rows = THUMB[1] - 2 * BORDER[1]
    return np.ascontiguousarray(thumb.reshape(rows, -1)[::-1, ::-1].ravel())


def likeness(thumb: FloatArray, faces: FloatArray) -> FloatArray:
    """The correlation of a body's thumbnail with each face's (``faces``: one
    row per card of ``CARD_CODES``), the better of its two ways up."""
    out: FloatArray = np.maximum(faces @ thumb, faces @ _half_turn(thumb))
    return out


def unlike_kinds(scores: FloatArray) -> npt.NDArray[np.bool_]:
    """Per card, whether its kind is ruled out by ``scores`` (``likeness``):
    the best face, a number card's or a court's, is at least
    ``LEAST_LIKENESS`` like the body, and the kind's best trails it by
    ``KIND_LEAD``."""
    top = int(np.argmax(scores))
    best = float(scores[top])
    ruled = np.zeros(len(CARD_CODES), np.bool_)
    if best < LEAST_LIKENESS or KIND_OF[top] == ACE:
        return ruled
    for kind in range(3):
        mine = np.equal(KIND_OF, kind)
        if best - float(scores[mine].max()) >= KIND_LEAD:
            ruled |= mine
    return ruled


def rule_out_other_kinds(
    body: BodyReading, faces: FloatArray, look: Callable[[], PaperView | None],
) -> BodyReading:
    """``body`` with the cards of every kind the frame's body is plainly unlike
    (``unlike_kinds`` of its likeness to the deck's ``faces``) ruled out of
    its evidence; ``body`` itself when the deck has no faces or the frame no
    clear body."""
    if faces.shape != (len(CARD_CODES), THUMB_LEN):
        return body
    view = look()
    if view is None:
        return body
    ruled = unlike_kinds(likeness(thumb_of(view), faces))
    if not ruled.any():
        return body
    return replace(body, evidence=np.where(ruled, np.minimum(body.evidence, RULED_OUT),
                                           body.evidence),
                   kind=body.kind or "likeness")
