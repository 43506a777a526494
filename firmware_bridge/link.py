"""The reliable link: sequence numbers, cumulative acks, window, retransmission.

Sans-I/O (docs/protocol.md section 5): the caller passes decoded frames in with
the current time and collects the encoded bytes to write.  The same class runs
on both ends (``from_device`` picks the direction flag) and in both modes:

* stream (USB): a window of 4 and a retransmission timer, driven by
  :meth:`Link.flush` and :meth:`Link.tick`;
* polled (RS-485): a window of 1, exactly one frame per turn from
  :meth:`Link.turn_frame`, retransmission when a turn goes unacknowledged.

It knows nothing of sessions or message meanings: HELLO handling, events and
commands belong to :mod:`firmware_bridge.host` and :mod:`firmware_bridge.device`.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from dataclasses import dataclass, field

from firmware_bridge.wire import (
    FLAG_FROM_DEVICE,
    FLAG_SEQ,
    CobsError,
    CrcError,
    FrameError,
    Header,
    MsgType,
    OversizedError,
    TruncatedError,
    encode_frame,
)


@dataclass(frozen=True, slots=True)
class LinkConfig:
    """Timing and limits; the defaults are the ones docs/protocol.md specifies."""

    window: int = 4
    rto_initial: float = 0.050
    rto_max: float = 1.0
    max_silent_timeouts: int = 6
    max_sends: int = 32
    ping_interval: float = 0.25
    host_silence: float = 1.5
    device_silence: float = 2.0
    hello_max_interval: float = 1.0
    #: stream mode: how long an acknowledgement owed may wait for a frame of our
    #: own to carry it before it goes alone in an ACK (0: at once; see
    #: docs/protocol.md section 5.1); well below ``rto_initial``
    ack_delay: float = 0.0


@dataclass(slots=True)
class LinkCounters:
    """Per-link figures for the display and the logs; plain numbers only."""

    frames_sent: int = 0
    frames_received: int = 0
    bytes_sent: int = 0
    bytes_received: int = 0
    retransmissions: int = 0
    crc_errors: int = 0
    #: every damaged frame but a CRC mismatch; split below by kind
    bad_frames: int = 0
    truncated: int = 0
    oversized: int = 0
    bad_cobs: int = 0
    duplicates: int = 0
    #: sequenced frames ahead of the expected one, held back until the gap fills
    out_of_order: int = 0
    #: sequenced frames too far ahead to hold: dropped (docs/protocol.md section 5.1)
    out_of_window: int = 0
    unknown_types: int = 0
    bad_bodies: int = 0
    version_errors: int = 0
    wrong_direction: int = 0
    link_downs: int = 0
    events_delivered: int = 0
    duplicate_events: int = 0
    events_lost: int = 0
    missed_turns: int = 0
    rtt_last: float | None = None
    rtt_avg: float | None = None
    rtt_max: float = 0.0

    def frame_error(self, err: FrameError) -> None:
        """Count a damaged frame: a CRC mismatch (line noise), or another framing
        fault, by kind (a wiring fault or a desynchronised reader)."""
        if isinstance(err, CrcError):
            self.crc_errors += 1
            return
        self.bad_frames += 1
        if isinstance(err, TruncatedError):
            self.truncated += 1
        elif isinstance(err, OversizedError):
            self.oversized += 1
        elif isinstance(err, CobsError):
            self.bad_cobs += 1

    def drops(self) -> dict[str, int]:
        """What was dropped or sent again, by kind: the figures a person
        watching a link wants (the log, the dealer's display, SIGUSR1)."""
        return {
            "crc_errors": self.crc_errors,
            "truncated": self.truncated,
            "oversized": self.oversized,
            "bad_cobs": self.bad_cobs,
            "out_of_window": self.out_of_window,
            "duplicates": self.duplicates,
            "retransmissions": self.retransmissions,
            "bad_bodies": self.bad_bodies,
        }

    def summary(self) -> str:
        """One log line: the non-zero drop counts, or that there were none."""
        shown = [f"{k.replace('_', ' ')} {v}" for k, v in self.drops().items() if v]
        return ", ".join(shown) if shown else "nothing dropped or resent"

    def note_rtt(self, rtt: float) -> None:
        self.rtt_last = rtt
        self.rtt_avg = rtt if self.rtt_avg is None else 0.875 * self.rtt_avg + 0.125 * rtt
        self.rtt_max = max(self.rtt_max, rtt)

    def as_dict(self) -> dict[str, float | int | None]:
        return dataclasses.asdict(self)


@dataclass(slots=True)
class _Outgoing:
    seq: int
    type: int
    body: bytes
    sent_at: float = -1.0
    sends: int = 0


@dataclass(eq=False)
class Link:
    """One end of a reliable link to one address."""

    address: int
    from_device: bool
    config: LinkConfig = field(default_factory=LinkConfig)
    counters: LinkCounters = field(default_factory=LinkCounters)
    polled: bool = False

    def __post_init__(self) -> None:
        self.next_seq = 0
        self.expected = 0
        self._queue: deque[_Outgoing] = deque()
        self._unacked: deque[_Outgoing] = deque()
        self._out = bytearray()
        self._held: dict[int, tuple[Header, bytes]] = {}
        self.ack_owed = False
        #: when the oldest frame not yet acknowledged arrived, and how many since
        self._ack_owed_at = 0.0
        self._owed_frames = 0
        self._silent_timeouts = 0
        #: why the link gave up, once it has; the owner resets it
        self.failure: str | None = None

    # --- state ---------------------------------------------------------------

    def reset(self) -> None:
        """Start a new session: sequence numbers back to 0, queues dropped."""
        self.next_seq = 0
        self.expected = 0
        self._queue.clear()
        self._unacked.clear()
        self._held.clear()
        self.ack_owed = False
        self._owed_frames = 0
        self._silent_timeouts = 0
        self.failure = None

    @property
    def window(self) -> int:
        return 1 if self.polled else self.config.window

    @property
    def idle(self) -> bool:
        """Nothing waiting to be sent or acknowledged."""
        return not self._queue and not self._unacked

    @property
    def in_flight(self) -> int:
        return len(self._queue) + len(self._unacked)

    # --- sending -----------------------------------------------------------------

    def queue(self, mtype: int, body: bytes) -> int:
        """Queue a sequenced frame; returns its sequence number."""
        seq = self.next_seq
        self.next_seq = (seq + 1) & 0xFF
        self._queue.append(_Outgoing(seq, mtype, body))
        return seq

    def _frame(self, mtype: int, body: bytes, seq: int | None) -> bytes:
        flags = FLAG_FROM_DEVICE if self.from_device else 0
        if seq is not None:
            flags |= FLAG_SEQ
        header = Header(
            self.address, mtype, self.next_seq if seq is None else seq, self.expected, flags
        )
        data = encode_frame(header, body)
        self.counters.frames_sent += 1
        self.counters.bytes_sent += len(data)
        self.ack_owed = False
        self._owed_frames = 0
        return data

    def control(self, mtype: int, body: bytes = b"") -> bytes:
        """Encode an unsequenced frame (it carries the current ack)."""
        return self._frame(mtype, body, None)

    def send_control(self, mtype: int, body: bytes = b"") -> None:
        self._out += self.control(mtype, body)

    def write(self, data: bytes) -> None:
        """Add already-encoded bytes to the output (a reply built by the owner)."""
        self._out += data

    def _send(self, item: _Outgoing, now: float) -> bytes:
        if item.sends:
            self.counters.retransmissions += 1
        item.sends += 1
        item.sent_at = now
        if item.sends > self.config.max_sends and self.failure is None:
            self.failure = f"a frame was sent {self.config.max_sends} times without an ack"
        return self._frame(item.type, item.body, item.seq)

    def flush(self, now: float) -> None:
        """Stream mode: send what the window allows, or an ACK if one is owed
        and due (see :meth:`_ack_due`)."""
        while self._queue and len(self._unacked) < self.window:
            item = self._queue.popleft()
            self._unacked.append(item)
            self._out += self._send(item, now)
        if self.ack_owed and self._ack_due(now):
            self._out += self.control(MsgType.ACK)

    def _ack_due(self, now: float) -> bool:
        """An acknowledgement owed goes alone once it has waited ``ack_delay``
        for a frame of ours to carry it, or at once when the peer may be
        about to fill its window (``window - 1`` frames unacknowledged)."""
        delay = self.config.ack_delay
        return (delay <= 0 or now >= self._ack_owed_at + delay
                or self._owed_frames >= self.config.window - 1)

    def rto(self) -> float:
        rto: float = self.config.rto_initial * (2.0**self._silent_timeouts)
        return min(rto, self.config.rto_max)

    def next_deadline(self) -> float | None:
        """Stream mode: when :meth:`tick` or :meth:`flush` next has something to
        do without input (a retransmission, a delayed ACK), or None."""
        if self.polled:
            return None
        times = []
        if self._unacked:
            times.append(self._unacked[0].sent_at + self.rto())
        if self.ack_owed and self.config.ack_delay > 0:
            times.append(self._ack_owed_at + self.config.ack_delay)
        return min(times, default=None)

    def tick(self, now: float) -> None:
        """Stream mode: retransmit the window (go-back-N) when its timer expires."""
        if self.polled or not self._unacked:
            return
        if now < self._unacked[0].sent_at + self.rto():
            return
        self._silent_timeouts += 1
        if self._silent_timeouts >= self.config.max_silent_timeouts and self.failure is None:
            self.failure = (
                f"no answer to {self._silent_timeouts} retransmissions in a row"
            )
        if self._worn_out(self._unacked[0]):
            return
        for item in self._unacked:
            self._out += self._send(item, now)

    def _worn_out(self, item: _Outgoing) -> bool:
        """Stream mode: ``item`` was sent ``max_sends`` times already: the link is
        down (docs/protocol.md section 5.2), and no further copy goes out."""
        if item.sends < self.config.max_sends:
            return False
        if self.failure is None:
            self.failure = f"a frame was sent {self.config.max_sends} times without an ack"
        return True

    def turn_frame(self, now: float, idle_type: int, idle_body: bytes = b"") -> bytes:
        """Polled mode: the one frame for this turn.

        The unacknowledged frame again if the peer did not acknowledge it, else
        the next queued one, else the given idle frame (PING, PONG or ACK).
        """
        if self._unacked:
            return self._send(self._unacked[0], now)
        if self._queue:
            item = self._queue.popleft()
            self._unacked.append(item)
            return self._send(item, now)
        return self.control(idle_type, idle_body)

    def take_output(self) -> bytes:
        data = bytes(self._out)
        self._out.clear()
        return data

    # --- receiving -----------------------------------------------------------------

    def on_frame(self, header: Header, body: bytes, now: float) -> list[tuple[Header, bytes]]:
        """Account for a valid frame from the peer; returns what to deliver, in order.

        An unsequenced frame is delivered as it comes (its meaning is the
        caller's); a sequenced one only in sequence.  A frame up to
        ``window - 1`` ahead of the expected one is held back and delivered
        when the gap is filled, so one lost frame does not cost its followers.
        """
        self.counters.frames_received += 1
        self._silent_timeouts = 0
        if not self._process_ack(header.ack, now):
            self._maybe_fast_retransmit(now)
        if not header.sequenced:
            return [(header, body)]
        if not self.ack_owed:
            self._ack_owed_at = now
        self.ack_owed = True
        self._owed_frames += 1
        ahead = (header.seq - self.expected) & 0xFF
        if ahead == 0:
            self._held.pop(header.seq, None)  # a retransmission overtook a held copy
            out = [(header, body)]
            self.expected = (self.expected + 1) & 0xFF
            while self.expected in self._held:
                out.append(self._held.pop(self.expected))
                self.expected = (self.expected + 1) & 0xFF
            return out
        if ahead < self.window:
            if header.seq in self._held:
                self.counters.duplicates += 1
            else:
                self.counters.out_of_order += 1
                self._held[header.seq] = (header, body)
        elif ahead >= 128:
            self.counters.duplicates += 1
        else:
            self.counters.out_of_window += 1
        return []

    def _process_ack(self, ack: int, now: float) -> bool:
        """Apply a cumulative ack; False if it acknowledged nothing."""
        if not self._unacked:
            return True
        n = (ack - self._unacked[0].seq) & 0xFF
        if not 0 < n <= len(self._unacked):
            return False
        for _ in range(n):
            item = self._unacked.popleft()
            if item.sends == 1:  # Karn: only unambiguous samples
                self.counters.note_rtt(now - item.sent_at)
        return True

    def _maybe_fast_retransmit(self, now: float) -> None:
        """A frame from the peer that still does not acknowledge our oldest frame,
        although that frame had time for a round trip twice over: it was lost,
        so resend now rather than wait for the timer (a serial line keeps order,
        so this is not a guess about reordering)."""
        if self.polled or not self._unacked:
            return
        rtt = self.counters.rtt_avg
        if rtt is None:
            rtt = self.config.rto_initial
        oldest = self._unacked[0]
        if now - oldest.sent_at > max(2 * rtt, 0.005) and not self._worn_out(oldest):
            # only the oldest: the peer holds what came after it (selective)
            self._out += self._send(oldest, now)
