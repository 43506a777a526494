"""The codec: CRC, COBS framing, headers and bodies; fuzzed for robustness."""

from __future__ import annotations

import os
import random

import pytest
from cobs import cobs
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


def _reference_crc(data: bytes) -> int:
    """CRC-16/MCRF4XX bit by bit, as docs/protocol.md gives it in C."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def _reference_unstuff(block: bytes) -> bytes | None:
    """COBS decoding written from the paper's description, or None if malformed."""
    out = bytearray()
    i = 0
    while i < len(block):
        code = block[i]
        chunk = block[i + 1 : i + code]
        if len(chunk) != code - 1:
            return None
        out += chunk
        i += code
        if code < 0xFF and i < len(block):
            out.append(0)
    return bytes(out)


@settings(max_examples=300)
@given(st.lists(st.one_of(
    st.binary(max_size=80),
    # sound COBS whose CRC (almost surely) does not match
    st.binary(min_size=1, max_size=60).map(lambda raw: bytes(cobs.encode(raw))),
    st.builds(lambda h, b: encode_frame(h, b)[:-1], headers, st.binary(max_size=40)),
), max_size=8), st.booleans())
def test_fuzzed_bytes_give_one_verdict_per_delimited_block_as_a_reference_decoder_says(
    blocks: list[bytes], long_garbage: bool
) -> None:
    """Every non-empty block between delimiters gives exactly one item, in
    order: a frame exactly when an independent reading (the COBS rule and the
    bitwise CRC above, the header layout of docs/protocol.md section 3)
    accepts the block, else a frame error.  Valid frames are mixed into the
    noise so both verdicts occur."""
    if long_garbage:
        blocks = [*blocks, b"\x01" * (MAX_ENCODED + 1)]
    stream = b"\x00".join(blocks) + b"\x00"
    decoder = FrameDecoder()
    items = decoder.feed(stream)
    segments = [s for s in stream.split(b"\x00")[:-1] if s]
    assert len(items) == len(segments)
    for segment, item in zip(segments, items, strict=True):
        raw = _reference_unstuff(segment) if len(segment) <= MAX_ENCODED else None
        sound = (raw is not None and len(raw) >= 8
                 and int.from_bytes(raw[-2:], "little") == _reference_crc(raw[:-2]))
        if not sound:
            assert isinstance(item, FrameError), (segment, item)
            assert ("oversized" in str(item)) == (len(segment) > MAX_ENCODED)
            continue
        assert raw is not None
        version, address, flags, seq, ack, mtype = raw[:6]
        assert item == Frame(Header(address, mtype, seq, ack, flags, version), raw[6:-2])


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


def _command_body_is_valid(mtype: MsgType, body: bytes) -> bool:
    """The body rules of docs/protocol.md section 4, written out independently."""
    if mtype == MsgType.SYNC_EVENTS:
        return len(body) == 8
    if mtype == MsgType.SET_GATE:
        return body in (b"\x00", b"\x01")
    if mtype == MsgType.SET_LIGHTS:
        return len(body) == 4
    if mtype == MsgType.SET_TEXT:
        return len(body) <= 32 and all(b == 0x0A or 0x20 <= b <= 0x7E for b in body)
    assert mtype == MsgType.DISPENSE
    return len(body) == 2


@settings(max_examples=300)
@given(st.sampled_from(sorted(COMMAND_CLASSES)), st.one_of(
    st.binary(max_size=50),
    st.sampled_from([b"\x00", b"\x01", b"\x02", b"\x80", b"\xff"]),
    st.binary(min_size=2, max_size=2),
    st.binary(min_size=4, max_size=4),
    st.binary(min_size=8, max_size=8),
    st.text(st.characters(min_codepoint=0x0A, max_codepoint=0x80), max_size=34).map(
        lambda t: t.encode("latin-1")),
))
def test_command_bodies_decode_exactly_when_the_protocol_allows_them(
    mtype: MsgType, body: bytes
) -> None:
    """A body the protocol allows decodes to a command that encodes back to
    the same bytes; any other is refused with a BodyError (nothing else)."""
    if _command_body_is_valid(mtype, body):
        command = decode_command(mtype, body)
        assert type(command) is COMMAND_CLASSES[mtype]
        assert command.encode() == body
    else:
        with pytest.raises(BodyError):
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
