"""Sections 5.4 and 7: commands, result codes, lamps and text.

Only the answers the spec states plainly are checked: which code wins when a
command is wrong in two ways at once is not written down yet, so every probe
here is wrong in exactly one way.
"""

from __future__ import annotations

import random

from firmware_bridge.conformance.probe import Fail, Probe, Skip, code_name, name_of
from firmware_bridge.conformance.registry import check
from firmware_bridge.wire import (
    MAX_TEXT,
    Capability,
    Dispense,
    Light,
    MsgType,
    ResultCode,
    SetGate,
    SetLights,
)

UNKNOWN_COMMAND = 0x1F


def answered(p: Probe, mtype: int, body: bytes, want: ResultCode, why: str) -> None:
    result = p.call(mtype, body)
    if result.command != mtype:
        raise Fail(f"the RESULT to {name_of(mtype)} names command {result.command:#04x}")
    if result.code != want:
        raise Fail(f"{why}: answered {code_name(result.code)}, not {want.name}")


@check("5.4", "commands.unknown-type", "an unknown sequenced type gets RESULT(UNKNOWN_TYPE)")
def unknown_type(p: Probe) -> None:
    p.open_session()
    answered(p, UNKNOWN_COMMAND, b"\x01", ResultCode.UNKNOWN_TYPE, "command type 0x1F")


@check("5.4", "commands.bad-length", "a command body of the wrong size gets BAD_LENGTH")
def bad_length(p: Probe) -> None:
    p.open_session()
    caps = p.info.capabilities
    answered(p, MsgType.SYNC_EVENTS, b"\x00" * 7, ResultCode.BAD_LENGTH, "a 7-byte SYNC_EVENTS")
    if caps & Capability.GATE:
        answered(p, MsgType.SET_GATE, b"\x01\x00", ResultCode.BAD_LENGTH, "a 2-byte SET_GATE")
    if caps & Capability.LIGHTS:
        answered(p, MsgType.SET_LIGHTS, b"\x00" * 3, ResultCode.BAD_LENGTH, "a 3-byte SET_LIGHTS")
    if caps & Capability.MOTOR:
        answered(p, MsgType.DISPENSE, b"\x01", ResultCode.BAD_LENGTH, "a 1-byte DISPENSE")


@check("5.4", "commands.bad-value", "a value out of range gets BAD_VALUE (gate 2, text not ASCII)")
def bad_value(p: Probe) -> None:
    p.open_session()
    caps = p.info.capabilities
    if not caps & (Capability.GATE | Capability.TEXT):
        raise Skip("the device has neither a gate nor text")
    if caps & Capability.GATE:
        answered(p, MsgType.SET_GATE, b"\x02", ResultCode.BAD_VALUE, "SET_GATE 2")
        answered(p, MsgType.SET_GATE, SetGate(True).encode(), ResultCode.OK, "SET_GATE 1")
    if caps & Capability.TEXT:
        answered(p, MsgType.SET_TEXT, b"caf\xe9", ResultCode.BAD_VALUE, "text with byte 0xE9")
        answered(p, MsgType.SET_TEXT, b"tab\there", ResultCode.BAD_VALUE, "text with a TAB")


@check("5.4", "commands.not-supported",
       "a command whose capability bit is clear gets NOT_SUPPORTED")
def not_supported(p: Probe) -> None:
    p.open_session()
    caps = p.info.capabilities
    probes = [
        (Capability.GATE, MsgType.SET_GATE, SetGate(True).encode()),
        (Capability.LIGHTS, MsgType.SET_LIGHTS, SetLights(0).encode()),
        (Capability.TEXT, MsgType.SET_TEXT, b"OK"),
        (Capability.MOTOR, MsgType.DISPENSE, Dispense(random.randrange(1, 0xFFFF)).encode()),
    ]
    missing = [(c, t, b) for c, t, b in probes if not caps & c]
    if not missing:
        raise Skip("the device has every command's capability")
    for cap, mtype, body in missing:
        answered(p, mtype, body, ResultCode.NOT_SUPPORTED, f"{name_of(mtype)} without {cap.name}")


@check("5.4", "commands.already-done",
       "a repeated dispense_no gets ALREADY_DONE (not carried out again)")
def already_done(p: Probe) -> None:
    p.open_session()
    if not p.info.capabilities & Capability.MOTOR:
        raise Skip("the device has no dispense motor")
    body = Dispense(random.randrange(1, 0xFFFF)).encode()
    first = p.call(MsgType.DISPENSE, body)
    if first.code != ResultCode.OK:
        raise Skip(f"the first DISPENSE answered {code_name(first.code)} (load the shoe)")
    answered(p, MsgType.DISPENSE, body, ResultCode.ALREADY_DONE, "the same dispense_no again")


@check("7", "lights.unknown-bits",
       "SET_LIGHTS with lamps the device lacks is OK (they are ignored)")
def lights_unknown_bits(p: Probe) -> None:
    p.open_session()
    if not p.info.capabilities & Capability.LIGHTS:
        raise Skip("the device has no lights")
    mask = 0xFFFFFFFF & ~int(Light.OFFLINE)
    answered(p, MsgType.SET_LIGHTS, SetLights(mask).encode(), ResultCode.OK, "every lamp bit")
    answered(p, MsgType.SET_LIGHTS, SetLights(0).encode(), ResultCode.OK, "lamps off")


@check("7", "text.two-lines", "SET_TEXT of 32 characters with a line break is OK")
def text_two_lines(p: Probe) -> None:
    p.open_session()
    if not p.info.capabilities & Capability.TEXT:
        raise Skip("the device has no text display")
    text = b"CONFORMANCE TEST\n0123456789ABCDE"
    assert len(text) == MAX_TEXT
    answered(p, MsgType.SET_TEXT, text, ResultCode.OK, "32 characters on two lines")
    answered(p, MsgType.SET_TEXT, b"", ResultCode.OK, "an empty text")
