"""docs/protocol.md's worked examples must be what the codec really sends."""

from __future__ import annotations

import re
from pathlib import Path

from firmware_bridge.wire import (
    COMMAND_CLASSES,
    Event,
    Frame,
    Hello,
    HelloReply,
    MsgType,
    Ping,
    Pong,
    Result,
    decode_frame,
    encode_frame,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
_BODIES = {
    MsgType.HELLO: Hello,
    MsgType.HELLO_REPLY: HelloReply,
    MsgType.PING: Ping,
    MsgType.PONG: Pong,
    MsgType.RESULT: Result,
    MsgType.EVENT: Event,
    **COMMAND_CLASSES,
}


def describe(frame: Frame) -> str:
    h = frame.header
    t = MsgType(h.type)
    cls = _BODIES.get(t)
    body = cls.decode(frame.body) if cls else frame.body.hex()
    return (
        f"version={h.version} address={h.address} flags={h.flags} seq={h.seq} ack={h.ack} "
        f"type={t.name} body={body!r}"
    )


def test_every_hex_example_decodes_to_what_the_doc_says() -> None:
    text = DOC.read_text()
    pairs = re.findall(r"^hex: ([0-9a-f ]+)\nis:  (.+)$", text, re.M)
    assert len(pairs) >= 10
    for hex_text, said in pairs:
        data = bytes.fromhex(hex_text)
        assert data.endswith(b"\x00") and b"\x00" not in data[:-1]
        frame = decode_frame(data[:-1])
        assert describe(frame) == said
        assert encode_frame(frame.header, frame.body) == data


def test_the_doc_states_the_crc_check_value() -> None:
    assert "0x6F91" in DOC.read_text()
