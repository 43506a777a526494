"""Card recognition: find the card in a camera frame, read its index corners,
and answer "unsure" rather than guess.

Public API (see docs/architecture.md)::

    from vision import Recognizer, FrameConsensus, DealtCardLedger, ImageSource
    rec = Recognizer()                      # generic classifier; or Recognizer("deck.npz")
    reading = rec.read(frame_bgr)           # Reading(card="TD" | None, confidence, reason, ...)
"""

from vision.cards import CARD_CODES
from vision.consensus import FrameConsensus
from vision.evidence import FrameFusion
from vision.ledger import CardConflict, Conflict, DealtCardLedger
from vision.profile import DeckProfile, ProfileError, load_profile
from vision.recognizer import Reading, Recognizer
from vision.sources import CameraSource, ImageError, ImageSource, VideoCaptureSource, load_image

__all__ = [
    "CARD_CODES",
    "CameraSource",
    "CardConflict",
    "Conflict",
    "DealtCardLedger",
    "DeckProfile",
    "FrameConsensus",
    "FrameFusion",
    "ImageError",
    "ImageSource",
    "ProfileError",
    "Reading",
    "Recognizer",
    "VideoCaptureSource",
    "load_image",
    "load_profile",
]
