"""Damaged frames are counted by kind: line noise (a CRC mismatch) apart from
other damage (bad COBS, a frame too short to hold a header and a CRC).

The damaged frames are made by hand: a valid frame whose bytes are changed
after its CRC was computed (CRC-16 catches every single-bit error, so one
flipped bit is always a CRC error), a COBS block whose code byte promises
more bytes than follow, and two bytes that COBS-decode fine but are shorter
than the 8-byte minimum (6-byte header + 2-byte CRC).
"""

from __future__ import annotations

import pytest
from cobs import cobs

from firmware_bridge.device import BusEndpoint, DeviceCore, RecordingHardware, seat_identity
from firmware_bridge.host import HostSession
from firmware_bridge.wire import (
    DELIMITER,
    FLAG_FROM_DEVICE,
    CobsError,
    CrcError,
    Frame,
    FrameDecoder,
    FrameError,
    Header,
    MsgType,
    OversizedError,
    TruncatedError,
    encode_frame,
)


def _flipped(frame: bytes) -> bytes:
    """``frame`` with one bit of its header changed after the CRC was computed."""
    raw = bytearray(cobs.decode(frame[:-1]))
    raw[1] ^= 0x01  # the address byte: 3 -> 2
    return bytes(cobs.encode(bytes(raw))) + DELIMITER


def _damage(from_device: bool) -> bytes:
    flags = FLAG_FROM_DEVICE if from_device else 0
    good = encode_frame(Header(address=3, type=MsgType.PING, flags=flags), b"\x01\x00")
    bad_cobs = b"\x05\x01" + DELIMITER  # the code byte promises 4 bytes, 1 follows
    too_short = bytes(cobs.encode(b"\x01\x02")) + DELIMITER
    return _flipped(good) + bad_cobs + too_short


def test_a_flipped_bit_is_a_crc_error_and_the_rest_are_other_frame_errors() -> None:
    items = FrameDecoder().feed(_damage(from_device=True))
    assert [type(item) for item in items] == [CrcError, CobsError, TruncatedError]
    assert all(isinstance(item, FrameError) for item in items)  # each kind is a FrameError


def test_the_host_counts_noise_and_other_damage_apart() -> None:
    session = HostSession(address=3)
    session.receive_bytes(_damage(from_device=True), now=0.0)
    c = session.counters
    assert (c.crc_errors, c.bad_frames) == (1, 2)
    assert (c.bad_cobs, c.truncated, c.oversized) == (1, 1, 0)  # the two by kind


def test_an_oversized_run_counts_once_and_the_next_frame_is_sound() -> None:
    """300 non-zero bytes (more than the 249 an encoded frame may hold) then a
    delimiter: one oversized frame, not one per byte, and a good frame right
    after the delimiter is taken (docs/protocol.md section 1)."""
    good = encode_frame(Header(address=3, type=MsgType.ACK, flags=FLAG_FROM_DEVICE))
    line = b"\x01" * 300 + DELIMITER + good
    items = FrameDecoder().feed(line)
    assert [type(item) for item in items] == [OversizedError, Frame]
    session = HostSession(address=3)
    session.receive_bytes(line, now=0.0)
    c = session.counters
    assert (c.oversized, c.bad_frames, c.crc_errors) == (1, 1, 0)
    assert c.drops()["oversized"] == 1


@pytest.mark.parametrize("polled", [False, True], ids=["stream", "bus"])
def test_the_device_counts_noise_and_other_damage_apart(polled: bool) -> None:
    core = DeviceCore(seat_identity(3), RecordingHardware(), address=3, polled=polled)
    if polled:
        bus = BusEndpoint([core])
        bus.receive_bytes(_damage(from_device=False), now=0.0)
        assert (bus.crc_errors, bus.bad_frames) == (1, 2)
    else:
        core.receive_bytes(_damage(from_device=False), now=0.0)
        assert (core.counters.crc_errors, core.counters.bad_frames) == (1, 2)
