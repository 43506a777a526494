"""Link layer (docs/protocol.md section 5.1-5.2, section 8 on the bus).

Sequence numbers, the window, cumulative acks and go-back-N retransmission
with the 50 ms -> 1 s backoff. The device never holds back frames that arrive
ahead of ``expected``: section 5.1 lets a device with little RAM drop them,
and the host's retransmission repairs the gap. Fast retransmission is left
out (optional in section 5.2); the timer alone is spec-conformant.

On the RS-485 bus (``bus=True``) the window is 1 and there is no timer: the
host's next poll of this address is the retransmission opportunity, so the
session layer asks :meth:`Link.bus_resend` what to send in each reply.
"""

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from pt_framing import FLAG_FROM_DEVICE, FLAG_SEQ, encode_frame

RTO_MIN = const(50)
RTO_MAX = const(1000)
DOWN_TIMEOUTS = const(6)
DOWN_SENDS = const(32)

# unacked entry fields (lists, so the send count and time update in place)
_SEQ = const(0)
_TYPE = const(1)
_BODY = const(2)
_SENT = const(3)
_SENDS = const(4)


class Link:
    def __init__(self, write, address, bus):
        self.write = write
        self.address = address
        self.bus = bus
        self.window = 1 if bus else 4
        self.duplicates = 0
        self.out_of_window = 0
        self.retransmissions = 0
        self.reset()

    def reset(self):
        """A new session: both counters at 0, nothing outstanding."""
        self.next_seq = 0
        self.expected = 0
        self.unacked = []
        self.rto = RTO_MIN
        self.silent_timeouts = 0
        self.ack_owed = False
        self.covered = True  # bus: the host's last ack covered our oldest frame

    # -- receiving ----------------------------------------------------------
    def heard(self):
        """Any valid frame from the host: the timeout comes back to 50 ms."""
        self.rto = RTO_MIN
        self.silent_timeouts = 0

    def take_ack(self, ack):
        unacked = self.unacked
        if not unacked:
            self.covered = True
            return
        n = (ack - unacked[0][_SEQ]) & 0xFF
        if 1 <= n <= len(unacked):
            del unacked[:n]
            self.covered = True
        else:
            self.covered = False

    def accept(self, seq):
        """True if this sequenced frame is the next one (deliver it)."""
        self.ack_owed = True
        if seq == self.expected:
            self.expected = (self.expected + 1) & 0xFF
            return True
        if (self.expected - seq) & 0xFF <= 128:
            self.duplicates += 1
        else:
            self.out_of_window += 1
        return False

    # -- sending ------------------------------------------------------------
    def can_send(self):
        return len(self.unacked) < self.window

    def _put(self, flags, seq, mtype, body):
        self.write(
            encode_frame(self.address, flags | FLAG_FROM_DEVICE, seq, self.expected, mtype, body)
        )
        self.ack_owed = False

    def send_seq(self, mtype, body, now):
        seq = self.next_seq
        self.next_seq = (seq + 1) & 0xFF
        self.unacked.append([seq, mtype, body, now, 1])
        self._put(FLAG_SEQ, seq, mtype, body)

    def send_unseq(self, mtype, body=b""):
        self._put(0, self.next_seq, mtype, body)

    def bus_resend(self, now):
        """Bus: resend the oldest frame if the host's ack did not cover it."""
        if self.unacked and not self.covered:
            entry = self.unacked[0]
            entry[_SENT] = now
            entry[_SENDS] += 1
            self.retransmissions += 1
            self._put(FLAG_SEQ, entry[_SEQ], entry[_TYPE], entry[_BODY])
            return True
        return False

    def tick(self, now):
        """USB retransmission timer; False when the link must be declared down."""
        if self.bus or not self.unacked:
            return True
        oldest = self.unacked[0]
        if now - oldest[_SENT] < self.rto:
            return True
        self.silent_timeouts += 1
        if self.silent_timeouts >= DOWN_TIMEOUTS or oldest[_SENDS] >= DOWN_SENDS:
            return False
        self.rto = min(self.rto * 2, RTO_MAX)
        for entry in self.unacked:  # go-back-N, original seq, current ack
            entry[_SENT] = now
            entry[_SENDS] += 1
            self.retransmissions += 1
            self._put(FLAG_SEQ, entry[_SEQ], entry[_TYPE], entry[_BODY])
        return True
