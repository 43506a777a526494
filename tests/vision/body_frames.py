"""What the overhead reader's body reading says of one camera frame, as
``Recognizer._read`` computes it (outline, index boxes, then the body): a
helper of the body tests (``test_vision_pip_cards``, ``test_vision_ace_veto``)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import find_card
from vision.index import card_corners
from vision.pips import BodyReading, index_box_in_card, read_body
from vision.recognizer import Recognizer


def frame_body(rec: Recognizer, frame: np.ndarray) -> BodyReading | None:
    """The body reading of ``frame`` (None: no card outline found)."""
    src = np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA), np.uint8)
    det = find_card(src)
    if det is None:
        return None
    boxes = [index_box_in_card(g.box, k) for k, g in enumerate(card_corners(src, det.quad))
             if g is not None and g.box is not None]
    return read_body(src, det.quad, boxes, rec.model, rec._ink_fits)
