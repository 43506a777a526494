"""Live video: a card is final only when several frames in a row agree.

One frame can be wrong in a way no threshold catches (a motion-blurred 8 that
looks like a 6); several consecutive frames agreeing cannot, short of a
misprinted card.  An unsure frame or a different answer restarts the count.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.recognizer import Reading


@dataclass
class FrameConsensus:
    """Feed readings with :meth:`push`; it returns the final reading once
    ``frames`` consecutive readings name the same card, then stays quiet until
    :meth:`reset` (the next card leaves the shoe)."""

    frames: int = 3
    _card: str | None = None
    _run: list[Reading] = field(default_factory=list)
    _final: Reading | None = None

    def __post_init__(self) -> None:
        if self.frames < 1:
            raise ValueError("FrameConsensus needs at least one frame")

    @property
    def final(self) -> Reading | None:
        return self._final

    @property
    def streak(self) -> int:
        return len(self._run)

    def push(self, reading: Reading) -> Reading | None:
        """The agreed reading the first time agreement is reached, else None."""
        if self._final is not None:
            return None
        if reading.card is None or reading.card != self._card:
            self._run = []
            self._card = reading.card
        if reading.card is None:
            return None
        self._run.append(reading)
        if len(self._run) < self.frames:
            return None
        self._final = Reading(
            card=reading.card,
            confidence=min(r.confidence for r in self._run),
            corners=max(r.corners for r in self._run),
            ms=sum(r.ms for r in self._run),
        )
        return self._final

    def reset(self) -> None:
        self._card = None
        self._run = []
        self._final = None
