"""Sections 5.4 and 7: commands, result codes, lamps and text.

Only the answers the spec states plainly are checked; which code wins when a
command is wrong in two ways at once is section 3's order (type, length,
values, capabilities), checked by ``commands.precedence``.
"""

from __future__ import annotations

import random
import time

from firmware_bridge.conformance.probe import (
    Fail,
    Probe,
    Received,
    Skip,
    code_name,
    name_of,
    result_ref,
)
from firmware_bridge.conformance.registry import SHOE, check
from firmware_bridge.wire import (
    MAX_TEXT,
    Capability,
    Dispense,
    Event,
    EventKind,
    Light,
    MsgType,
    Result,
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
    dispense_one(p, body)
    answered(p, MsgType.DISPENSE, body, ResultCode.ALREADY_DONE, "the same dispense_no again")


DISPENSE_CARD_WAIT = 1.0  # section 6: the card's CARD_OUT within 1 s of the motor starting


def event_kind(r: Received) -> int | None:
    return Event.decode(r.body).kind if r.type == MsgType.EVENT and r.fresh else None


def dispense_one(p: Probe, body: bytes) -> Received:
    """DISPENSE, then its RESULT(OK) and after it the card's CARD_OUT within 1 s
    (sections 5.4, 6 and 11.2), which is returned; Skip when the shoe is empty.
    Waiting for the card also keeps its CARD_OUT out of the next check's session."""
    seq = p.command(MsgType.DISPENSE, body)
    result = None
    end = time.monotonic() + DISPENSE_CARD_WAIT + p.slack + 0.3
    while True:
        r = p.next(max(0.0, end - time.monotonic()))
        if r is None:
            if result is None:
                raise Fail("no RESULT to DISPENSE")
            raise Fail("no CARD_OUT (nor GATE_JAMMED) within 1 s of DISPENSE's RESULT(OK)")
        if r.fresh and r.type == MsgType.RESULT and result_ref(r) == seq:
            result = Result.decode(r.body)
            if result.code != ResultCode.OK:
                raise Skip(f"the first DISPENSE answered {code_name(result.code)} (load the shoe)")
            end = r.at + DISPENSE_CARD_WAIT + p.slack
        elif event_kind(r) == EventKind.CARD_OUT:
            if result is None:
                raise Fail("the dispensed card's CARD_OUT came before DISPENSE's RESULT")
            return r
        elif event_kind(r) == EventKind.GATE_JAMMED:
            raise Skip("the dispensed card jammed (GATE_JAMMED): free the shoe's exit")


@check("11.2", "dispense.result-first",
       "DISPENSE's RESULT(OK) comes before its card's CARD_OUT, within 1 s")
def dispense_result_first(p: Probe) -> None:
    p.open_session()
    if not p.info.capabilities & Capability.MOTOR:
        raise Skip("the device has no dispense motor")
    dispense_one(p, Dispense(random.randrange(1, 0xFFFF)).encode())


@check("3", "events.device-clock",
       "(motor) a CARD_OUT's device_ms is on PONG's uptime_ms clock: between the PONGs around it",
       devices=frozenset({SHOE}))
def device_clock(p: Probe) -> None:
    """``device_ms`` and ``uptime_ms`` are one clock (section 3): the host maps
    one onto its own with the other.  A dispensed card's CARD_OUT happens
    after a PONG sent before the DISPENSE and before one asked for after it."""
    p.open_session()
    if not p.info.capabilities & Capability.MOTOR:
        raise Skip("the device has no dispense motor (nothing makes a card-out on request)")
    _, before = p.ping()
    card = Event.decode(dispense_one(p, Dispense(random.randrange(1, 0xFFFF)).encode()).body)
    _, after = p.ping()
    span = (after.uptime_ms - before.uptime_ms) & 0xFFFFFFFF
    since = (card.device_ms - before.uptime_ms) & 0xFFFFFFFF
    if since > span:
        raise Fail(f"CARD_OUT's device_ms {card.device_ms} is not between the uptime_ms "
                   f"{before.uptime_ms} and {after.uptime_ms} of the PONGs around it")


@check("5.4", "commands.precedence",
       "a command wrong in two ways gets the first code of section 3's order")
def precedence(p: Probe) -> None:
    p.open_session()
    caps = p.info.capabilities
    # length before capability: a 40-byte SET_TEXT is BAD_LENGTH on any device
    answered(p, MsgType.SET_TEXT, b"A" * 40, ResultCode.BAD_LENGTH, "a 40-byte SET_TEXT")
    if caps & Capability.GATE:
        # length before value: a 2-byte SET_GATE of value 2
        answered(p, MsgType.SET_GATE, b"\x02\x00", ResultCode.BAD_LENGTH,
                 "a 2-byte SET_GATE with the value 2")
    if not caps & Capability.TEXT:
        # value before capability: text with a TAB, to a device without text
        answered(p, MsgType.SET_TEXT, b"A\tB", ResultCode.BAD_VALUE,
                 "SET_TEXT with a TAB to a device without text")
    if not caps & Capability.GATE:
        answered(p, MsgType.SET_GATE, b"\x02", ResultCode.BAD_VALUE,
                 "SET_GATE 2 to a device without a gate")


@check("3", "text.too-long", "SET_TEXT of 33 bytes gets BAD_LENGTH (where there is text)")
def text_too_long(p: Probe) -> None:
    p.open_session()
    if not p.info.capabilities & Capability.TEXT:
        raise Skip("the device has no text display")
    answered(p, MsgType.SET_TEXT, b"A" * (MAX_TEXT + 1), ResultCode.BAD_LENGTH, "33 characters")


@check("7", "lights.unknown-bits",
       "SET_LIGHTS with lamps the device lacks is OK (they are ignored)")
def lights_unknown_bits(p: Probe) -> None:
    p.open_session()
    if not p.info.capabilities & Capability.LIGHTS:
        raise Skip("the device has no lights")
    mask = 0xFFFFFFFF & ~int(Light.OFFLINE)
    answered(p, MsgType.SET_LIGHTS, SetLights(mask).encode(), ResultCode.OK, "every lamp bit")
    answered(p, MsgType.SET_LIGHTS, SetLights(0).encode(), ResultCode.OK, "lamps off")


@check("7", "lights.offline-ignored",
       "SET_LIGHTS with the OFFLINE bit gets OK (the bit is ignored)")
def lights_offline_ignored(p: Probe) -> None:
    p.open_session()
    if not p.info.capabilities & Capability.LIGHTS:
        raise Skip("the device has no lights")
    answered(p, MsgType.SET_LIGHTS, SetLights(int(Light.OFFLINE)).encode(), ResultCode.OK,
             "the OFFLINE bit alone")


@check("7", "text.two-lines", "SET_TEXT of 32 characters with a line break is OK")
def text_two_lines(p: Probe) -> None:
    p.open_session()
    if not p.info.capabilities & Capability.TEXT:
        raise Skip("the device has no text display")
    text = b"CONFORMANCE TEST\n0123456789ABCDE"
    assert len(text) == MAX_TEXT
    answered(p, MsgType.SET_TEXT, text, ResultCode.OK, "32 characters on two lines")
    answered(p, MsgType.SET_TEXT, b"", ResultCode.OK, "an empty text")
