"""Calibrating a deck at the table: the dealer shows each card to the camera once.

At an event the dealer often has the deck but no scanner, so the profile has to
be learned through the table's own camera, with the screen saying which card to
show next.  Two things can go wrong that a folder of images never has:

* the same card is still in view when the next one is asked for, so it would be
  learned twice under two names: after each card the dealer is asked to take it
  away, and the next card is only looked for once the camera sees no card;
* the dealer shows the wrong card: the generic classifier already reads standard
  indices, so a card it reads confidently as something else is refused with the
  card it saw, and the dealer shows the right one.

The prompts go through a ``say`` callback so the same loop serves the terminal
(``pontoon-table vision calibrate --camera``) and, later, the dealer display.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.calibrate import InteractiveCalibration
from vision.cards import CARD_CODES
from vision.detect import find_card
from vision.profile import DeckProfile, ProfileError
from vision.recognizer import Recognizer
from vision.sources import CameraSource, Image

RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
    "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen",
    "K": "king",
}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}

#: frames with no card in view that mean "the dealer took the card away"
EMPTY_FRAMES = 2
#: mean of the darkest colour channel inside a card outline: paper, not felt
PAPER_LEVEL = 110
#: frames the camera may spend on one request before the dealer is asked again
FRAMES_PER_REQUEST = 300


def card_name(code: str) -> str:
    """``"TS"`` -> ``"ten of spades"``: what the dealer is asked to show."""
    return f"{RANK_NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"


def guided_calibration(
    camera: CameraSource,
    say: Callable[[str], None],
    *,
    name: str,
    frames_needed: int = 3,
    max_frames: int = 52 * FRAMES_PER_REQUEST * 3,
) -> DeckProfile:
    """Learn a deck profile from the camera, one card at a time, in deck order.

    ``say`` receives each instruction for the dealer.  Raises ProfileError when
    the camera stops giving frames or the deck cannot be learned (the same check
    as calibration from images: the learned cards must read back).
    """
    session = InteractiveCalibration(frames_needed=frames_needed)
    checker = Recognizer(None)
    frames = 0

    def next_frame() -> Image:
        nonlocal frames
        frames += 1
        if frames > max_frames:
            raise ProfileError("calibration took too long: the camera saw too few readable cards")
        frame = camera.grab()
        if frame is None:
            raise ProfileError("the camera gives no more frames")
        return frame

    while (wanted := session.wanted) is not None:
        done, total = session.progress
        say(f"Show the {card_name(wanted)} ({done + 1} of {total})")
        asked_at = frames
        while True:
            frame = next_frame()
            seen = checker.read(frame)
            if seen.card is not None and seen.card != wanted:
                say(f"That is the {card_name(seen.card)}: show the {card_name(wanted)}")
                _wait_until_empty(next_frame)
                say(f"Show the {card_name(wanted)} ({done + 1} of {total})")
                continue
            if session.offer(frame):
                break
            if frames - asked_at > FRAMES_PER_REQUEST:
                say(f"Cannot read the card yet: hold the {card_name(wanted)} flat and still")
                asked_at = frames
        say(f"Learned the {card_name(wanted)}: take it away")
        _wait_until_empty(next_frame)
    say(f"All {len(CARD_CODES)} cards learned; checking the profile")
    return session.finish(name=name)


def _wait_until_empty(next_frame: Callable[[], Image]) -> None:
    """Until the camera sees no card for a few frames in a row."""
    empty = 0
    while empty < EMPTY_FRAMES:
        empty = empty + 1 if not card_in_view(next_frame()) else 0


def card_in_view(frame: Image) -> bool:
    """Is there a piece of card paper under the camera?

    The outline finder is built to find a card it is sure is there; on an empty,
    textured table it can still fit a shape into the felt.  Paper is bright in
    every channel, felt and wood are not, so the outline must enclose bright,
    neutral pixels to count.
    """
    det = find_card(frame)
    if det is None:
        return False
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.asarray(det.quad, np.int32).reshape(-1, 2), 255)
    darkest_channel = frame.min(axis=2)
    return bool(cv2.mean(darkest_channel, mask=mask)[0] >= PAPER_LEVEL)
