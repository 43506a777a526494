"""Session layer (docs/protocol.md sections 4, 5.3, 5.4, 9): HELLO, PING,
fail-safe, the event log and SYNC_EVENTS, and command dispatch in order.

The device behaviour (``pt_shoe.Shoe`` or ``pt_panel.Panel``) is below this
layer: the session validates a command's type and length, hands it over, and
sends its RESULT in command order; the behaviour records events through
:meth:`Session.record`, which are physical facts and so are recorded whatever
the session's state (section 9).
"""

import struct

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from pt_framing import FLAG_FROM_DEVICE, FLAG_SEQ, VERSION, Decoder, encode_frame
from pt_link import Link

FW_VERSION = (1, 0, 0)

HELLO = const(0x01)
HELLO_REPLY = const(0x02)
PING = const(0x03)
PONG = const(0x04)
ACK = const(0x05)
NO_SESSION = const(0x06)
SYNC_EVENTS = const(0x10)
SET_GATE = const(0x11)
SET_LIGHTS = const(0x12)
SET_TEXT = const(0x13)
DISPENSE = const(0x14)
RESULT = const(0x20)
EVENT = const(0x21)

OK = const(0)
UNKNOWN_TYPE = const(1)
BAD_LENGTH = const(2)
BAD_VALUE = const(3)
NOT_SUPPORTED = const(4)
ALREADY_DONE = const(7)

CAP_GATE = const(1 << 16)
CAP_MOTOR = const(1 << 17)
CAP_TEXT = const(1 << 18)
CAP_LIGHTS = const(1 << 20)

FAIL_SAFE_MS = const(2000)
LOG_SIZE = const(128)  # section 5.3 asks for at least 64


def _u32(body, at):
    return body[at] | body[at + 1] << 8 | body[at + 2] << 16 | body[at + 3] << 24


class Session:
    def __init__(self, hal, device, address, bus, unique_id, hw_rev=1, minor=0):
        self.hal = hal
        self.minor = minor  # 1 only when the config enables protocol 1.1
        self.device = device
        self.address = address
        self.bus = bus
        self.unique_id = unique_id
        self.hw_rev = hw_rev
        self.boot_id = hal.random_u32() or 1
        self.link = Link(hal.uart_write, address, bus)
        self.decoder = Decoder(self._on_frame)
        self.now = 0
        self.active = False  # a session exists
        self.fail_safe = False
        self.nonce = -1
        self.last_heard = 0
        self.streaming = False
        self.log = bytearray(LOG_SIZE * 10)  # a ring of EVENT bodies
        self.last_event_no = 0
        self.pending = []  # queued sequenced frames: event_no (int) or RESULT body
        self.commands = []  # delivered commands waiting their turn: (seq, type, body)
        self.busy = None  # (seq, type) of a command the device is still carrying out
        self.last_dispense = -1
        self.bad_version = 0
        self.echoes = 0
        self.unknown = 0
        self.link_downs = 0
        self._reply = None  # bus: what the reply to the current host frame is
        self.enter_fail_safe()

    # -- events ---------------------------------------------------------
    def record(self, kind, arg, device_ms):
        """Record one event (section 5.3); queued for the host once it asked.

        The log is one preallocated ring of 10-byte EVENT bodies: recording
        allocates nothing, and its RAM is fixed whatever the session's length.
        """
        n = self.last_event_no + 1
        self.last_event_no = n
        struct.pack_into(
            "<IIBB", self.log, ((n - 1) % LOG_SIZE) * 10, n, device_ms & 0xFFFFFFFF, kind, arg
        )
        if self.streaming:
            self.pending.append(n)
        return n

    def _oldest(self):
        return self.last_event_no - min(self.last_event_no, LOG_SIZE) + 1

    def _event_body(self, event_no):
        if self._oldest() <= event_no <= self.last_event_no:
            at = ((event_no - 1) % LOG_SIZE) * 10
            return bytes(self.log[at : at + 10])
        return None  # left the log: the host sees the gap and raises its alarm

    # -- state changes ----------------------------------------------------
    def enter_fail_safe(self):
        self.fail_safe = True
        self._drop_session()
        self.device.fail_safe(self.now)

    def _drop_session(self):
        self.active = False
        self.streaming = False
        self.pending = []
        self.commands = []
        self.busy = None
        self.device.cancel_command()

    def _new_session(self, nonce):
        self.nonce = nonce
        self.active = True
        self.fail_safe = False
        self.streaming = False
        self.link.reset()
        self.pending = []
        self.commands = []
        self.busy = None
        self.device.cancel_command()
        self.device.new_session(self.now)

    # -- receiving --------------------------------------------------------
    def feed(self, data, now):
        self.now = now
        self.decoder.feed(data)

    def _on_frame(self, f):
        if f[2] & FLAG_FROM_DEVICE:
            self.echoes += 1  # our own direction: an RS-485 echo or another panel
            return
        if f[1] != self.address:
            return
        mtype = f[5]
        if mtype == HELLO:
            self.last_heard = self.now
            self._hello(f)
            return
        if f[0] != VERSION:
            self.bad_version += 1
            return
        self.last_heard = self.now
        link = self.link
        if not self.active:
            self._no_session()
            return
        link.heard()
        link.take_ack(f[4])
        if f[2] & FLAG_SEQ:
            if link.accept(f[3]):
                self.commands.append((f[3], mtype, bytes(f[6:])))
                self._run_commands()
            self._reply = ACK
        elif mtype == PING and len(f) - 6 == 2:
            self._reply = PONG
            self._token = f[6] | f[7] << 8
            if not self.bus:
                self._send_pong()
        else:
            # ACK, or a PING of the wrong size, or an unknown unsequenced
            # type (dropped and counted); on the bus still one reply (section 8)
            if mtype != ACK:
                self.unknown += 1
            self._reply = ACK
        if self.bus:
            self._bus_reply()

    def _no_session(self):
        self.hal.uart_write(encode_frame(self.address, FLAG_FROM_DEVICE, 0, 0, NO_SESSION))

    def _hello(self, f):
        if len(f) - 6 < 4:
            self.unknown += 1
            return
        nonce = f[8] | f[9] << 8
        if f[6] == VERSION and nonce != self.nonce:
            self._new_session(nonce)
        # the current nonce is a retransmission: answer again, change nothing;
        # another major version: answer with ours, change nothing (section 4)
        dev = self.device
        body = struct.pack(
            "<BBBBBBBB8sIIIH",
            VERSION,
            self.minor,
            dev.kind,
            dev.seat,
            FW_VERSION[0],
            FW_VERSION[1],
            FW_VERSION[2],
            self.hw_rev,
            self.unique_id,
            self.boot_id,
            dev.capabilities,
            self.last_event_no,
            nonce,
        )
        self.hal.uart_write(encode_frame(self.address, FLAG_FROM_DEVICE, 0, 0, HELLO_REPLY, body))

    def _send_pong(self):
        body = struct.pack(
            "<HIIB", self._token, self.last_event_no, self.now & 0xFFFFFFFF, self.device.status()
        )
        self.link.send_unseq(PONG, body)

    def _bus_reply(self):
        """Section 8: exactly one frame in reply to each frame addressed to us."""
        link = self.link
        if link.bus_resend(self.now):
            return
        if self._pump(1):
            return
        if self._reply == PONG:
            self._send_pong()
        else:
            link.send_unseq(ACK)

    # -- commands ---------------------------------------------------------
    def _run_commands(self):
        while self.commands and self.busy is None:
            seq, mtype, body = self.commands.pop(0)
            res = self._execute(seq, mtype, body)
            if res is None:
                self.busy = (seq, mtype)
            else:
                self._result(seq, mtype, res[0], res[1])
                if mtype == SYNC_EVENTS and res[0] == OK:
                    # the held events follow their RESULT in one stream (5.3)
                    self.pending.extend(range(res[2], self.last_event_no + 1))

    def _result(self, seq, mtype, code, data=b""):
        self.pending.append(bytes((seq, mtype, code)) + data)

    def _execute(self, seq, mtype, body):
        """Section 3's order: type, length, values, capability, then the device."""
        n = len(body)
        caps = self.device.capabilities
        if mtype == SYNC_EVENTS:
            if n != 8:
                return BAD_LENGTH, b""
            return self._sync(_u32(body, 0), _u32(body, 4))
        if mtype == SET_GATE:
            if n != 1:
                return BAD_LENGTH, b""
            if body[0] > 1:
                return BAD_VALUE, b""
            if not caps & CAP_GATE:
                return NOT_SUPPORTED, b""
        elif mtype == SET_LIGHTS:
            if n != 4:
                return BAD_LENGTH, b""
            if not caps & CAP_LIGHTS:
                return NOT_SUPPORTED, b""
        elif mtype == SET_TEXT:
            if n > 32:
                return BAD_LENGTH, b""
            for b in body:
                if b != 0x0A and not 0x20 <= b <= 0x7E:
                    return BAD_VALUE, b""
            if not caps & CAP_TEXT:
                return NOT_SUPPORTED, b""
        elif mtype == DISPENSE:
            if n != 2:
                return BAD_LENGTH, b""
            if not caps & CAP_MOTOR:
                return NOT_SUPPORTED, b""
            number = body[0] | body[1] << 8
            if number == self.last_dispense:
                return ALREADY_DONE, b""
            res = self.device.command(mtype, body, self.now)
            if res is not None and res[0] == OK:
                self.last_dispense = number
            return res
        else:
            return UNKNOWN_TYPE, b""
        return self.device.command(mtype, body, self.now)

    def _sync(self, boot_id, after):
        if boot_id != self.boot_id:
            after = 0  # the host knew an earlier boot: everything of this one
        oldest = self._oldest()
        data = struct.pack("<II", oldest, self.last_event_no)
        self.streaming = True
        return OK, data, max(after + 1, oldest)

    # -- time -------------------------------------------------------------
    def tick(self, now):
        self.now = now
        if not self.fail_safe and now - self.last_heard >= FAIL_SAFE_MS:
            self.enter_fail_safe()
            return
        if self.busy is not None:
            res = self.device.poll_command(now)
            if res is not None:
                seq, mtype = self.busy
                self.busy = None
                self._result(seq, mtype, res[0], res[1])
                self._run_commands()
        if self.active and not self.link.tick(now):
            # section 5.2: the device declares the link down and drops its
            # session; outputs and event log stay until a new session or the
            # fail-safe
            self.link_downs += 1
            self._drop_session()
            self.nonce = -1

    def flush(self):
        """USB: move queued frames into the window; ack at once if owed."""
        if self.bus or not self.active:
            return
        self._pump(4)
        if self.link.ack_owed:
            self.link.send_unseq(ACK)

    def _pump(self, limit):
        link = self.link
        sent = 0
        while self.pending and sent < limit and link.can_send():
            item = self.pending.pop(0)
            if isinstance(item, int):
                body = self._event_body(item)
                if body is None:
                    continue
                link.send_seq(EVENT, body, self.now)
            else:
                link.send_seq(RESULT, item, self.now)
            sent += 1
        return sent
