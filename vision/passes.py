"""In-shoe camera passes, paired with CARD_OUTs by time (``docs/hardware.md``
section 2.7, ``docs/protocol.md`` section 11.5).  Pure: no camera, no clock.

The in-shoe camera sees every card slide over its window *before* the exit
beam reports the card (the beam is 5 mm past the window), so a card's frames
cannot be grabbed after its CARD_OUT: they are already gone.  The host keeps
the last second of frames, each with its time on the host's clock and whether
the window was covered, and :class:`PassTracker` splits them into **passes**
(a run of covered frames, ended by ``tail`` empty ones).  Each CARD_OUT,
its ``device_ms`` mapped to host time, is then paired (:meth:`PassTracker.pair`)
with the newest pass not yet paired that ended at most ``window`` seconds
before it (and not after it, beyond ``slack`` seconds of clock error).  A
CARD_OUT without such a pass gets None: the dealer confirms that card (its
frames were lost, or it is an old event resent after a reconnection).  A pass
no CARD_OUT claims (a card pushed back into the shoe) is dropped: when a newer
pass is paired, and in any case once it is ``keep`` seconds old.

Example::

    tracker = PassTracker()
    for t, covered, frame in frames:        # from the capture thread
        tracker.add(t, covered, frame)
    if tracker.settled(t_card):             # every pass that could be it is closed
        p = tracker.pair(t_card)            # Pass(start, end, frames) or None
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")

#: a CARD_OUT pairs with a pass that ended at most this long before it (s)
PAIR_WINDOW = 0.100
#: ... and not after it, beyond this much clock error (s)
CLOCK_SLACK = 0.010
#: passes older than this are gone (s): the host keeps about a second of frames
KEEP = 1.0
#: empty frames after the card that end a pass (as ``vision.in_shoe.PASS_TAIL``)
TAIL = 2
#: frames kept per pass at most (as ``vision.in_shoe.PASS_MAX_FRAMES``)
MAX_FRAMES = 80
#: why a CARD_OUT has no reading when no pass pairs with it (code ``no_pass``)
NO_PASS = "no camera pass for this card-out"
#: a gap this long between frames (a camera stall) ends the pass in progress (s)
GAP = 0.25


@dataclass
class Pass(Generic[T]):
    """One card over the window: host times of its first and last covered
    frames, and those frames (at most ``MAX_FRAMES``, from the first)."""

    start: float
    end: float
    frames: list[T] = field(default_factory=list)


class PassTracker(Generic[T]):
    """Splits timestamped frames into passes and pairs CARD_OUTs with them
    (see the module).  Frames must be added in time order."""

    def __init__(
        self,
        *,
        window: float = PAIR_WINDOW,
        slack: float = CLOCK_SLACK,
        keep: float = KEEP,
        tail: int = TAIL,
        max_frames: int = MAX_FRAMES,
        gap: float = GAP,
    ) -> None:
        self.window = window
        self.slack = slack
        self.keep = keep
        self.tail = tail
        self.max_frames = max_frames
        self.gap = gap
        #: closed passes nobody has paired yet, oldest first
        self.passes: deque[Pass[T]] = deque()
        self._open: Pass[T] | None = None
        self._empty = 0
        self.latest: float | None = None
        #: passes dropped unpaired (pushed back, or claimed by no CARD_OUT in time)
        self.dropped = 0

    def add(self, t: float, covered: bool, frame: T) -> None:
        """One frame: its host time, whether the window is covered, the frame."""
        if self.latest is not None and t < self.latest:
            return  # out of order: a camera never sends the past
        if self._open is not None and self.latest is not None and t - self.latest > self.gap:
            self._close()
        self.latest = t
        if covered:
            if self._open is None:
                self._open = Pass(t, t)
            self._open.end = t
            self._empty = 0
            if len(self._open.frames) < self.max_frames:
                self._open.frames.append(frame)
        elif self._open is not None:
            self._empty += 1
            if self._empty >= self.tail:
                self._close()
        self._expire(t)

    def _close(self) -> None:
        assert self._open is not None
        self.passes.append(self._open)
        self._open, self._empty = None, 0

    def _expire(self, now: float) -> None:
        while self.passes and self.passes[0].end < now - self.keep:
            self.passes.popleft()
            self.dropped += 1

    def settled(self, t: float) -> bool:
        """Whether every pass that could pair with a CARD_OUT at host time
        ``t`` has closed: frames later than ``t`` (plus slack) have come, and
        no pass that began by then is still open."""
        if self.latest is None or self.latest < t + self.slack:
            return False
        return self._open is None or self._open.start > t + self.slack

    def pair(self, t: float | None) -> Pass[T] | None:
        """The pass of the CARD_OUT at host time ``t`` (None: time unknown), or
        None.  The pass returned, and every older unpaired one, leave the
        tracker: a pass is paired once, and an older pass left over is a card
        pushed back."""
        if t is None:
            return None
        best: int | None = None
        for i, p in enumerate(self.passes):
            if t - self.window <= p.end <= t + self.slack:
                best = i  # passes are oldest first: the last match is the newest
        if best is None:
            return None
        found = self.passes[best]
        for _ in range(best + 1):
            self.passes.popleft()
        self.dropped += best
        return found
