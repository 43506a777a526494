"""The codec: CRC, COBS framing, headers and bodies; fuzzed for robustness."""

from __future__ import annotations

import contextlib
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.wire import (
    COMMAND_CLASSES,
    FLAG_FROM_DEVICE,
    FLAG_SEQ,
    MAX_BODY,
    MAX_ENCODED,
    BodyError,
    Button,
    Event,
    EventKind,
    Frame,
    FrameDecoder,
    FrameError,
    Header,
    Hello,
    HelloReply,
    LengthError,
    MsgType,
    Pong,
    Result,
    SetGate,
    SetText,
    WireError,
    button_capability,
    buttons_in,
    crc16_mcrf4xx,
    decode_command,
    decode_frame,
    encode_frame,
)


def test_crc_check_value_from_the_specification() -> None:
    assert crc16_mcrf4xx(b"123456789") == 0x6F91


def test_crc_matches_the_bitwise_c_reference_in_the_doc() -> None:
    def reference(data: bytes) -> int:
        crc = 0xFFFF
        for byte in data:
            crc ^= byte
            for _ in range(8):
                crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        return crc

    rng = random.Random(1)
    for n in range(0, 300, 7):
        data = bytes(rng.randrange(256) for _ in range(n))
        assert crc16_mcrf4xx(data) == reference(data)


headers = st.builds(
    Header,
    address=st.integers(0, 255),
    type=st.integers(0, 255),
    seq=st.integers(0, 255),
    ack=st.integers(0, 255),
    flags=st.integers(0, 255),
    version=st.integers(0, 255),
)


@given(headers, st.binary(max_size=MAX_BODY))
def test_frames_round_trip_and_contain_no_zero_but_the_delimiter(h: Header, body: bytes) -> None:
    data = encode_frame(h, body)
    assert data.endswith(b"\x00") and b"\x00" not in data[:-1]
    assert len(data) - 1 <= MAX_ENCODED
    assert decode_frame(data[:-1]) == Frame(h, body)


def test_an_oversized_body_is_refused_when_encoding() -> None:
    with pytest.raises(FrameError):
        encode_frame(Header(0, 1), bytes(MAX_BODY + 1))


@given(st.lists(st.tuples(headers, st.binary(max_size=40)), max_size=8), st.data())
def test_any_chunking_of_the_stream_gives_the_same_frames(
    frames: list[tuple[Header, bytes]], data: st.DataObject
) -> None:
    stream = b"".join(encode_frame(h, b) for h, b in frames)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder = FrameDecoder()
    out: list[Frame | FrameError] = []
    last = 0
    for cut in [*cuts, len(stream)]:
        out += decoder.feed(stream[last:cut])
        last = cut
    assert out == [Frame(h, b) for h, b in frames]


@settings(max_examples=300)
@given(st.binary(max_size=600))
def test_fuzzed_bytes_only_ever_give_frames_or_frame_errors(noise: bytes) -> None:
    decoder = FrameDecoder()
    for item in decoder.feed(noise) + decoder.feed(b"\x00"):
        assert isinstance(item, Frame | FrameError)


def test_random_garbage_then_a_good_frame_resynchronises() -> None:
    rng = random.Random(7)
    good = encode_frame(Header(0, MsgType.PING, flags=0), b"\x07\x00")
    decoder = FrameDecoder()
    for _ in range(200):
        garbage = os.urandom(rng.randrange(0, 400))
        items = decoder.feed(garbage + b"\x00" + good)
        assert items[-1] == Frame(Header(0, MsgType.PING), b"\x07\x00")


def test_damaged_frames_are_reported_with_their_reason() -> None:
    good = encode_frame(Header(1, MsgType.ACK), b"")
    decoder = FrameDecoder()
    corrupted = bytearray(good)
    corrupted[-2] ^= 0x40  # a CRC byte, not a COBS length code
    (crc_err,) = decoder.feed(bytes(corrupted))
    assert isinstance(crc_err, FrameError) and "CRC" in str(crc_err)
    (short,) = decoder.feed(b"\x02\x05\x00")
    assert isinstance(short, FrameError) and "truncated" in str(short)
    (bad_cobs,) = decoder.feed(b"\x09\x01\x02\x00")
    assert isinstance(bad_cobs, FrameError) and "COBS" in str(bad_cobs)
    (big,) = decoder.feed(b"\x01" * (MAX_ENCODED + 50) + b"\x00")
    assert isinstance(big, FrameError) and "oversized" in str(big)
    assert decoder.feed(good) == [Frame(Header(1, MsgType.ACK), b"")]
    assert decoder.feed(b"\x00\x00") == []  # empty frames are idle line, not errors


def test_the_decoder_buffer_stays_bounded_without_delimiters() -> None:
    decoder = FrameDecoder()
    for _ in range(100):
        assert decoder.feed(b"\x01" * 1000) == []
    assert len(decoder._buf) <= MAX_ENCODED


def test_message_bodies_round_trip() -> None:
    reply = HelloReply(1, 3, 1, 0, (2, 0, 1), 4, b"ABCDEFGH", 0xDEADBEEF, 0x30000, 17, 99)
    assert HelloReply.decode(reply.encode()) == reply
    assert Hello.decode(Hello(1, 0, 513).encode()) == Hello(1, 0, 513)
    assert Pong.decode(Pong(1, 2, 3, 4).encode()) == Pong(1, 2, 3, 4)
    assert Event.decode(Event(5, 6, EventKind.BUTTON, 3).encode()) == Event(5, 6, 2, 3)
    assert Result.decode(Result(1, 2, 3, b"xy").encode()) == Result(1, 2, 3, b"xy")
    for cls, value in [(SetGate, SetGate(True)), (SetText, SetText("Hi\nthere"))]:
        assert cls.decode(value.encode()) == value


def test_newer_hello_bodies_with_extra_trailing_fields_are_understood() -> None:
    assert Hello.decode(Hello(1, 4, 9).encode() + b"\x01\x02") == Hello(1, 4, 9)


@given(st.sampled_from(sorted(COMMAND_CLASSES)), st.binary(max_size=50))
def test_command_bodies_fail_only_with_body_errors(mtype: MsgType, body: bytes) -> None:
    with contextlib.suppress(BodyError):
        decode_command(mtype, body)


def test_body_errors_say_what_is_wrong() -> None:
    with pytest.raises(LengthError, match="SET_GATE body must be 1 bytes"):
        SetGate.decode(b"")
    with pytest.raises(BodyError, match="0 or 1"):
        SetGate.decode(b"\x02")
    with pytest.raises(BodyError, match="plain ASCII"):
        SetText("Total £15").encode()
    with pytest.raises(BodyError, match="at most 32"):
        SetText("x" * 33).encode()
    assert issubclass(BodyError, WireError) and issubclass(FrameError, WireError)


def test_header_flags() -> None:
    h = Header(0, 1, flags=FLAG_SEQ | FLAG_FROM_DEVICE)
    assert h.sequenced and h.from_device
    assert not Header(0, 1).sequenced


def test_button_capabilities() -> None:
    caps = button_capability(Button.TWIST) | button_capability(Button.PAUSE)
    assert buttons_in(caps) == {Button.TWIST, Button.PAUSE}
