"""Framing (docs/protocol.md sections 1-2): COBS, CRC-16/MCRF4XX, the header.

MicroPython has no ``cobs`` package, so both directions are written out here,
small and allocation-light: the receiver keeps one fixed 249-byte buffer
(the protocol's largest encoded frame) and never more, whatever the line
carries.
"""

try:
    from micropython import const
except ImportError:  # CPython (host-side tools reading this file)

    def const(x):
        return x


VERSION = const(1)
HEADER_SIZE = const(6)
MIN_FRAME = const(8)  # header + CRC
MAX_BODY = const(240)
MAX_FRAME = const(248)
MAX_ENCODED = const(249)

FLAG_SEQ = const(0x01)
FLAG_FROM_DEVICE = const(0x02)


def _make_table():
    try:
        from array import array
    except ImportError:  # pragma: no cover
        from uarray import array
    table = array("H", bytes(512))
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        table[i] = crc
    return table


_TABLE = _make_table()


def crc16(data, start=0, end=None):
    """CRC-16/MCRF4XX: poly 0x8408 reflected, init 0xFFFF, no final XOR.

    ``crc16(b"123456789") == 0x6F91`` (the check value of section 1). Table
    driven (512 bytes of RAM) because it runs over every byte received.
    """
    if end is None:
        end = len(data)
    table = _TABLE
    crc = 0xFFFF
    for i in range(start, end):
        crc = (crc >> 8) ^ table[(crc ^ data[i]) & 0xFF]
    return crc


def cobs_encode(payload):
    """Basic COBS (no zero-pair elimination), plus the 0x00 delimiter."""
    out = bytearray(len(payload) + len(payload) // 254 + 2)
    code_at = 0
    code = 1
    o = 1
    for b in payload:
        if b == 0:
            out[code_at] = code
            code_at = o
            o += 1
            code = 1
        else:
            out[o] = b
            o += 1
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = o
                o += 1
                code = 1
    out[code_at] = code
    out[o] = 0
    return bytes(out[: o + 1])


def cobs_decode_into(src, n, dst):
    """Decode ``src[:n]`` into ``dst``; the decoded length, or -1 if not COBS."""
    i = 0
    o = 0
    while i < n:
        code = src[i]
        if code == 0:
            return -1
        i += 1
        end = i + code - 1
        if end > n:
            return -1
        while i < end:
            b = src[i]
            if b == 0:
                return -1
            dst[o] = b
            o += 1
            i += 1
        if code != 0xFF and i < n:
            dst[o] = 0
            o += 1
    return o


def encode_frame(address, flags, seq, ack, mtype, body=b""):
    """One whole frame on the wire: COBS(header | body | crc16) 0x00."""
    n = len(body)
    raw = bytearray(HEADER_SIZE + n + 2)
    raw[0] = VERSION
    raw[1] = address
    raw[2] = flags
    raw[3] = seq & 0xFF
    raw[4] = ack & 0xFF
    raw[5] = mtype
    raw[HEADER_SIZE : HEADER_SIZE + n] = body
    crc = crc16(raw, 0, HEADER_SIZE + n)
    raw[HEADER_SIZE + n] = crc & 0xFF
    raw[HEADER_SIZE + n + 1] = crc >> 8
    return cobs_encode(raw)


class Decoder:
    """Bytes in, whole checked frames out (each a memoryview of one buffer).

    Counters are those of section 1: ``oversized``, ``truncated``, ``bad_cobs``
    and ``crc_errors``. A frame handed to the callback is valid only during the
    call (the buffer is reused), which keeps the receive path free of
    allocations.
    """

    def __init__(self, on_frame):
        self.on_frame = on_frame
        self._enc = bytearray(MAX_ENCODED)
        self._dec = bytearray(MAX_ENCODED)
        self._mv = memoryview(self._dec)
        self._n = 0
        self._skipping = False
        self.oversized = 0
        self.truncated = 0
        self.bad_cobs = 0
        self.crc_errors = 0
        self.frames = 0

    def reset(self):
        self._n = 0
        self._skipping = False

    def feed(self, data):
        enc = self._enc
        for b in data:
            if b == 0:
                if self._skipping:
                    self._skipping = False
                elif self._n:
                    self._frame(self._n)
                self._n = 0
            elif self._skipping:
                continue
            elif self._n >= MAX_ENCODED:
                # section 1: drop what we hold and everything up to and
                # including the next 0x00; one oversized frame, not one per byte
                self.oversized += 1
                self._skipping = True
                self._n = 0
            else:
                enc[self._n] = b
                self._n += 1

    def _frame(self, n):
        size = cobs_decode_into(self._enc, n, self._dec)
        if size < 0:
            self.bad_cobs += 1
            return
        if size < MIN_FRAME:
            self.truncated += 1
            return
        dec = self._dec
        crc = crc16(dec, 0, size - 2)
        if dec[size - 2] != crc & 0xFF or dec[size - 1] != crc >> 8:
            self.crc_errors += 1
            return
        self.frames += 1
        self.on_frame(self._mv[: size - 2])
