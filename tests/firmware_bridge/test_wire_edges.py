"""The wire format at its edges, against docs/protocol.md sections 1-3 and 7.

Every expected byte and limit is the document's: the CRC check value, the
size limits (body 0..240, decoded frame 8..248, encoded at most 249 bytes),
the header layout, the body layouts and the text alphabet.  Frames are built
by hand (COBS from the ``cobs`` package, the CRC from the document's bitwise
C routine transcribed below), not with the encoder under test, unless the
test is a round trip.
"""

from __future__ import annotations

import struct

import pytest
from cobs import cobs

from firmware_bridge.wire import (
    FLAG_FROM_DEVICE,
    FLAG_SEQ,
    MAX_BODY,
    BodyError,
    Button,
    Capability,
    Dispense,
    Event,
    Frame,
    FrameDecoder,
    FrameError,
    Header,
    Hello,
    HelloReply,
    LengthError,
    Light,
    MsgType,
    Ping,
    Pong,
    Result,
    ResultCode,
    SetGate,
    SetLights,
    SetText,
    SyncEvents,
    SyncResult,
    button_capability,
    button_light,
    buttons_in,
    check_text,
    crc16_mcrf4xx,
    decode_command,
    decode_frame,
    encode_frame,
    result_text,
)


def doc_crc(data: bytes) -> int:
    """The C routine of docs/protocol.md section 1, line for line."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def raw_frame(header: bytes, body: bytes = b"") -> bytes:
    """A frame built by hand: COBS(header | body | crc16 LE), no delimiter."""
    payload = header + body
    return bytes(cobs.encode(payload + struct.pack("<H", doc_crc(payload))))


# ----------------------------------------------------------------------------- CRC
def test_crc_check_value_and_agreement_with_the_documents_routine() -> None:
    assert crc16_mcrf4xx(b"123456789") == 0x6F91
    assert crc16_mcrf4xx(b"") == 0xFFFF
    for data in (b"\x00", b"\xff", b"\x01\x02\x03", bytes(range(256)), b"\x80" * 7):
        assert crc16_mcrf4xx(data) == doc_crc(data)


# ----------------------------------------------------------------------------- frames
def test_a_hand_built_frame_decodes_field_by_field() -> None:
    # version 1, address 0x0F, flags SEQ|FROM_DEVICE, seq 200, ack 7, type EVENT
    enc = raw_frame(bytes([1, 0x0F, 3, 200, 7, 0x21]), b"\x05\x06")
    frame = decode_frame(enc)
    assert frame.header == Header(0x0F, 0x21, 200, 7, FLAG_SEQ | FLAG_FROM_DEVICE, 1)
    assert frame.header.sequenced and frame.header.from_device
    assert frame.body == b"\x05\x06"


def test_the_encoder_lays_out_the_header_as_documented() -> None:
    enc = encode_frame(Header(0x0E, MsgType.SET_TEXT, 255, 254, FLAG_SEQ, 1), b"hi")
    assert enc.endswith(b"\x00") and enc.count(0) == 1
    assert enc[:-1] == raw_frame(bytes([1, 0x0E, 1, 255, 254, 0x13]), b"hi")
    # fields wider than a byte are cut to their low byte, never an exception
    wide = encode_frame(Header(0x100 + 2, 0x105, 0x1FF, 0x101, 0x100 | FLAG_SEQ, 0x101))
    assert decode_frame(wide[:-1]).header == Header(2, 5, 0xFF, 1, FLAG_SEQ, 1)


def test_body_sizes_0_to_240_and_no_more() -> None:
    assert decode_frame(encode_frame(Header(0, MsgType.ACK))[:-1]).body == b""
    full = bytes(range(1, 241))
    enc = encode_frame(Header(0, MsgType.EVENT), full)
    assert len(enc) - 1 <= 249  # the document's largest encoded frame
    assert decode_frame(enc[:-1]).body == full
    with pytest.raises(FrameError, match="241 bytes is longer than 240"):
        encode_frame(Header(0, MsgType.EVENT), bytes(MAX_BODY + 1))


def test_truncated_bad_cobs_wrong_crc_and_oversized_frames_are_refused() -> None:
    # 7 decoded bytes (one short of header + CRC): truncated
    with pytest.raises(FrameError, match="truncated frame \\(7 bytes\\)"):
        decode_frame(bytes(cobs.encode(b"\x01" * 7)))
    # exactly 8 decoded bytes is the smallest frame
    assert decode_frame(raw_frame(bytes([1, 0, 0, 0, 0, 5]))).header.type == 5
    with pytest.raises(FrameError, match="bad COBS"):
        decode_frame(b"\x05\x01\x02")
    payload = bytes([1, 0, 0, 0, 0, 5]) + b"abc"
    wrong = struct.pack("<H", doc_crc(payload) ^ 0x0100)
    with pytest.raises(FrameError, match="CRC mismatch"):
        decode_frame(bytes(cobs.encode(payload + wrong)))
    with pytest.raises(FrameError, match="oversized frame \\(250 bytes\\)"):
        decode_frame(b"\x01" * 250)


def test_the_decoder_splits_at_delimiters_and_ignores_empty_frames() -> None:
    a = encode_frame(Header(1, MsgType.PING), b"\x01\x02")
    b = encode_frame(Header(2, MsgType.ACK))
    dec = FrameDecoder()
    got = dec.feed(b"\x00\x00" + a + b"\x00" + b[:3])
    assert [f.header.address for f in got if isinstance(f, Frame)] == [1]
    assert len(got) == 1  # the extra 0x00 bytes gave nothing
    got = dec.feed(b[3:])
    assert [f.header.address for f in got if isinstance(f, Frame)] == [2]


def test_the_decoder_reports_an_endless_frame_once_and_resynchronises() -> None:
    dec = FrameDecoder()
    assert dec.feed(b"\x01" * 249) == []
    assert dec.feed(b"\x01" * 10) == []  # now too long: dropped, memory stays bounded
    got = dec.feed(b"\x00")
    assert len(got) == 1 and isinstance(got[0], FrameError)
    assert "oversized" in str(got[0])
    frame = encode_frame(Header(3, MsgType.ACK))
    assert [f.header.address for f in dec.feed(frame) if isinstance(f, Frame)] == [3]


def test_the_largest_encoded_frame_still_fits_the_decoder() -> None:
    enc = encode_frame(Header(0, MsgType.EVENT), b"\xff" * MAX_BODY)
    dec = FrameDecoder()
    got = dec.feed(enc[:100]) + dec.feed(enc[100:])
    assert len(got) == 1 and isinstance(got[0], Frame)
    assert got[0].body == b"\xff" * MAX_BODY


def test_garbage_gives_a_frame_error_and_the_next_frame_still_decodes() -> None:
    dec = FrameDecoder()
    got = dec.feed(b"\x03\xff\xff\xff\x00" + encode_frame(Header(4, MsgType.ACK)))
    assert isinstance(got[0], FrameError)
    assert isinstance(got[1], Frame) and got[1].header.address == 4


# ----------------------------------------------------------------------------- bodies
def test_hello_is_four_bytes_and_a_longer_one_from_a_newer_host_is_understood() -> None:
    assert Hello(1, 0, 0x1234).encode() == b"\x01\x00\x34\x12"
    assert Hello.decode(b"\x02\x05\x34\x12extra") == Hello(2, 5, 0x1234)
    with pytest.raises(LengthError, match="at least 4 bytes, got 3"):
        Hello.decode(b"\x01\x00\x34")


def test_hello_reply_is_30_bytes_at_the_documented_offsets() -> None:
    body = (
        bytes([1, 0, 2, 9, 3, 4, 5, 6])
        + b"UNIQUEID"
        + struct.pack("<IIIH", 0xA1B2C3D4, 0x00140007, 42, 0xBEEF)
    )
    assert len(body) == 30
    reply = HelloReply.decode(body + b"future fields")
    assert reply == HelloReply(
        major=1, minor=0, kind=2, seat=9, firmware=(3, 4, 5), hardware_rev=6,
        unique_id=b"UNIQUEID", boot_id=0xA1B2C3D4, capabilities=0x00140007,
        last_event_no=42, nonce=0xBEEF,
    )
    assert reply.encode() == body
    with pytest.raises(LengthError, match="at least 30 bytes, got 29"):
        HelloReply.decode(body[:29])


def test_ping_pong_sync_and_event_bodies_are_little_endian_and_exact() -> None:
    assert Ping(0x0102).encode() == b"\x02\x01"
    assert Ping.decode(b"\x02\x01") == Ping(0x0102)
    pong = b"\x02\x01" + struct.pack("<II", 7, 1000) + b"\x0a"
    assert Pong.decode(pong) == Pong(0x0102, 7, 1000, 0x0A)
    assert Pong(0x0102, 7, 1000, 0x0A).encode() == pong
    assert SyncEvents(5, 9).encode() == struct.pack("<II", 5, 9)
    assert SyncEvents.decode(struct.pack("<II", 5, 9)) == SyncEvents(5, 9)
    assert SyncResult.decode(struct.pack("<II", 3, 8)) == SyncResult(3, 8)
    assert SyncResult(3, 8).encode() == struct.pack("<II", 3, 8)
    ev = struct.pack("<IIBB", 12, 3456, 2, 7)
    assert Event.decode(ev) == Event(12, 3456, 2, 7)
    assert Event(12, 3456, 2, 7).encode() == ev
    # device_ms wraps at 2^32 (section 3)
    assert Event(1, 2**32 + 5, 1).encode() == struct.pack("<IIBB", 1, 5, 1, 0)
    for cls, size in ((Ping, 2), (Pong, 11), (SyncEvents, 8), (Event, 10), (Dispense, 2)):
        with pytest.raises(LengthError, match=f"must be {size} bytes, got {size + 1}"):
            cls.decode(bytes(size + 1))
    with pytest.raises(LengthError, match="SYNC_EVENTS result body must be 8 bytes, got 7"):
        SyncResult.decode(bytes(7))


def test_commands_decode_from_their_type_and_refuse_bad_values() -> None:
    assert decode_command(MsgType.SET_GATE, b"\x01") == SetGate(True)
    assert decode_command(MsgType.SET_GATE, b"\x00") == SetGate(False)
    assert SetGate(True).encode() == b"\x01" and SetGate(False).encode() == b"\x00"
    with pytest.raises(BodyError, match="must be 0 or 1, got 2"):
        decode_command(MsgType.SET_GATE, b"\x02")
    with pytest.raises(LengthError):
        decode_command(MsgType.SET_GATE, b"")
    assert decode_command(MsgType.SET_LIGHTS, b"\x01\x00\x00\x08") == SetLights(0x08000001)
    assert SetLights(0x08000001).encode() == b"\x01\x00\x00\x08"
    assert decode_command(MsgType.DISPENSE, b"\x10\x27") == Dispense(10000)
    assert Dispense(10000).encode() == b"\x10\x27"
    assert decode_command(MsgType.SYNC_EVENTS, bytes(8)) == SyncEvents(0, 0)
    assert decode_command(MsgType.SET_TEXT, b"Ann 18\nstake 2") == SetText("Ann 18\nstake 2")
    for not_a_command in (MsgType.PING, MsgType.EVENT, MsgType.RESULT, 0x1F, 0x99):
        with pytest.raises(BodyError, match="is not a command"):
            decode_command(not_a_command, b"")


def test_panel_text_is_up_to_32_printable_ascii_bytes_and_line_feeds() -> None:
    check_text("")
    check_text(" ~" + "A" * 30)
    check_text("x" * 31 + "\n")
    with pytest.raises(BodyError, match="33 characters, at most 32"):
        check_text("x" * 33)
    for bad in ("\t", "\r", "\x1f", "\x7f", "é"):
        with pytest.raises(BodyError, match="plain ASCII"):
            check_text(f"ok{bad}")
    assert SetText("Bob 21").encode() == b"Bob 21"
    with pytest.raises(BodyError):
        SetText("caf\xe9").encode()
    with pytest.raises(BodyError):
        SetText.decode(b"caf\xe9")


def test_result_keeps_its_data_and_refuses_a_short_body() -> None:
    r = Result.decode(b"\x07\x10\x00" + struct.pack("<II", 1, 2))
    assert r == Result(7, 0x10, 0, struct.pack("<II", 1, 2))
    assert Result(7, 0x11, 5).encode() == b"\x07\x11\x05"
    with pytest.raises(LengthError, match="at least 3 bytes, got 2"):
        Result.decode(b"\x07\x10")


def test_result_codes_read_as_the_documented_meanings() -> None:
    assert [c.value for c in ResultCode] == list(range(9))
    assert result_text(ResultCode.OK) == "done"
    assert "jammed" in result_text(5) and "empty" in result_text(6)
    assert "already done" in result_text(7)
    assert result_text(42) == "the device answered with unknown result code 42"
    assert len({result_text(c) for c in ResultCode}) == 9  # one phrase per code


# ----------------------------------------------------------------------------- masks
def test_button_lamps_and_capabilities_are_bit_code_minus_one() -> None:
    """Section 7: button ``code`` is bit ``code - 1``; features and status above."""
    assert button_light(Button.TWIST) == 1
    assert button_light(Button.PAUSE) == 1 << 14
    assert button_capability(Button.STICK) == 1 << 2
    caps = button_capability(Button.TWIST) | button_capability(Button.STAY) | Capability.TEXT
    assert buttons_in(caps) == {Button.TWIST, Button.STAY}
    assert buttons_in(0) == frozenset()
    assert int(Light.READY) == 1 << 24 and int(Light.OFFLINE) == 1 << 27
    assert int(Capability.GATE) == 1 << 16 and int(Capability.LIGHTS) == 1 << 20


def test_errors_name_what_was_wrong_in_full() -> None:
    """The log line for a refused body or frame names the message and the sizes."""
    for cls, name, size in ((Ping, "PING", 2), (Pong, "PONG", 11), (SyncEvents, "SYNC_EVENTS", 8),
                            (SetLights, "SET_LIGHTS", 4), (Dispense, "DISPENSE", 2),
                            (Event, "EVENT", 10)):
        with pytest.raises(LengthError) as err:
            cls.decode(bytes(size + 1))
        assert str(err.value) == f"{name} body must be {size} bytes, got {size + 1}"
    payload = bytes([1, 0, 0, 0, 0, 5])
    with pytest.raises(FrameError) as crc:
        decode_frame(bytes(cobs.encode(payload + b"\x00\x00")))
    assert str(crc.value) == "CRC mismatch"


def test_one_huge_chunk_without_a_delimiter_is_reported_as_such() -> None:
    dec = FrameDecoder()
    assert dec.feed(b"\x01" * 300) == []
    (err,) = dec.feed(b"\x00")
    assert isinstance(err, FrameError)
    assert str(err) == "oversized frame (no delimiter in time)"
