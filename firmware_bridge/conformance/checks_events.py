"""Section 5.3: events numbered per boot, kept in a log, resent on SYNC_EVENTS.

Without a person at the device nothing new happens during the suite, so these
checks work on the events already in the device's log (HELLO_REPLY's
``last_event_no``): a maker pulls a few cards or presses a few buttons first
(docs/conformance.md); with an empty log they are skipped, not passed.
"""

from __future__ import annotations

from firmware_bridge.conformance.probe import QUIET_WAIT, Fail, Probe, Skip
from firmware_bridge.conformance.registry import check
from firmware_bridge.wire import (
    Button,
    DeviceKind,
    Event,
    EventKind,
    MsgType,
    Ping,
    SyncEvents,
    button_capability,
)

LOG_MIN = 64
SHOE_KINDS = frozenset(
    {EventKind.CARD_OUT, EventKind.GATE_FORCED, EventKind.GATE_JAMMED, EventKind.SHOE_EMPTY,
     EventKind.PACK_LOADED}
)


def numbers(events: list[Event]) -> list[int]:
    return [e.event_no for e in events]


def need_events(p: Probe, n: int) -> int:
    last = p.hello().last_event_no
    if last < n:
        raise Skip(f"needs {n} event(s) in the device's log, it has {last} (docs/conformance.md)")
    return last


@check("5.3", "events.sync-result", "SYNC_EVENTS is answered OK with oldest and last event numbers")
def sync_result(p: Probe) -> None:
    sync, _ = p.open_session()
    events = p.events_until_quiet()
    last = p.info.last_event_no
    if sync.last_event_no < last:
        raise Fail(f"SYNC_EVENTS says last event {sync.last_event_no}, HELLO_REPLY said {last}")
    if not 1 <= sync.oldest_event_no <= sync.last_event_no + 1:
        raise Fail(f"oldest event {sync.oldest_event_no} is not within 1..last+1"
                   f" ({sync.last_event_no + 1})")
    if numbers(events) != list(range(last + 1, sync.last_event_no + 1)):
        raise Fail(f"asked for events after {last}, got {numbers(events)}")


@check("5.3", "events.log", "the device keeps at least the last 64 events")
def event_log(p: Probe) -> None:
    sync, _ = p.open_session()
    want = max(1, sync.last_event_no - LOG_MIN + 1)
    if sync.oldest_event_no > want:
        raise Fail(f"the oldest event held is {sync.oldest_event_no} of {sync.last_event_no}:"
                   f" fewer than the last 64")


@check("5.3", "events.wait-for-sync", "no EVENT before SYNC_EVENTS; its RESULT comes first")
def wait_for_sync(p: Probe) -> None:
    last = need_events(p, 1)
    if p.bus:
        got = []
        for _ in range(3):
            got += p.turn(MsgType.PING, Ping(p.new_token()).encode())
    else:
        got = p.collect(QUIET_WAIT)
    if any(r.type == MsgType.EVENT for r in got):
        raise Fail("the device sent events after HELLO_REPLY, before SYNC_EVENTS")
    seq = p.command(MsgType.SYNC_EVENTS, SyncEvents(p.info.boot_id, last - 1).encode())
    r = p.expect(lambda r: r.fresh and r.type in (MsgType.RESULT, MsgType.EVENT),
                 "RESULT to SYNC_EVENTS")
    if r.type != MsgType.RESULT or r.body[0] != seq:
        raise Fail("an EVENT came before the RESULT of SYNC_EVENTS")
    events = p.events_until_quiet()
    if numbers(events) != [last]:
        raise Fail(f"SYNC_EVENTS after {last - 1} brought events {numbers(events)}, not [{last}]")


@check("5.3", "events.resend",
       "SYNC_EVENTS(after n) resends every held event after n, once, in order")
def resend(p: Probe) -> None:
    last = need_events(p, 2)
    after = last - 2
    sync, events = p.open_session(after=after)
    want = list(range(max(after + 1, sync.oldest_event_no), sync.last_event_no + 1))
    if numbers(events) != want:
        raise Fail(f"SYNC_EVENTS after {after} brought events {numbers(events)}, expected {want}")


@check("5.3", "events.sync-beyond",
       "SYNC_EVENTS after an event beyond the last: OK with the real numbers, nothing resent")
def sync_beyond(p: Probe) -> None:
    last = p.hello().last_event_no
    seq = p.command(MsgType.SYNC_EVENTS, SyncEvents(p.info.boot_id, last + 5).encode())
    r = p.expect(lambda r: r.fresh and r.type in (MsgType.RESULT, MsgType.EVENT),
                 "RESULT to SYNC_EVENTS")
    if r.type != MsgType.RESULT or r.body[0] != seq:
        raise Fail("an EVENT came before the RESULT of SYNC_EVENTS")
    if r.body[2] != 0 or len(r.body) < 11:
        raise Fail(f"SYNC_EVENTS after {last + 5} (beyond the last, {last}) was not answered OK"
                   " with 8 bytes")
    told = int.from_bytes(r.body[7:11], "little")
    if told != last:
        raise Fail(f"SYNC_EVENTS after {last + 5} says last event {told}, HELLO_REPLY said {last}")
    events = p.events_until_quiet()
    if events:
        raise Fail(f"SYNC_EVENTS beyond the last event brought events {numbers(events)}")


@check("5.3", "events.sync-twice",
       "a second SYNC_EVENTS in a session is answered the same way and resends again")
def sync_twice(p: Probe) -> None:
    last = need_events(p, 2)
    p.command(MsgType.SYNC_EVENTS, SyncEvents(p.info.boot_id, last).encode())
    p.expect(lambda r: r.fresh and r.type == MsgType.RESULT, "RESULT to the first SYNC_EVENTS")
    p.events_until_quiet()
    seq = p.command(MsgType.SYNC_EVENTS, SyncEvents(p.info.boot_id, last - 2).encode())
    r = p.expect(lambda r: r.fresh and r.type == MsgType.RESULT and r.body[0] == seq,
                 "RESULT to the second SYNC_EVENTS")
    if r.body[2] != 0:
        raise Fail("a second SYNC_EVENTS was not answered OK")
    events = p.events_until_quiet()
    if numbers(events) != [last - 1, last]:
        raise Fail(f"a second SYNC_EVENTS after {last - 2} brought events {numbers(events)},"
                   f" not [{last - 1}, {last}]")


@check("5.3", "events.other-boot",
       "SYNC_EVENTS naming another boot_id resends every event of this boot it holds")
def other_boot(p: Probe) -> None:
    last = need_events(p, 1)
    boot = p.info.boot_id
    p.command(MsgType.SYNC_EVENTS, SyncEvents(boot ^ 0x5A5A5A5A, last).encode())
    r = p.expect(lambda r: r.fresh and r.type == MsgType.RESULT, "RESULT to SYNC_EVENTS")
    oldest = int.from_bytes(r.body[3:7], "little")
    events = p.events_until_quiet()
    want = list(range(oldest, last + 1))
    if numbers(events)[: len(want)] != want:
        raise Fail(f"SYNC_EVENTS of an earlier boot brought {numbers(events)}, expected {want}")


@check("3", "events.fields", "every event's kind and arg are ones this kind of device may send")
def event_fields(p: Probe) -> None:
    last = need_events(p, 1)
    _, events = p.open_session(after=max(0, last - 16))
    if not events:
        raise Fail("SYNC_EVENTS brought no event although the log holds some")
    caps = p.info.capabilities
    for e in events:
        if p.info.kind == DeviceKind.SHOE:
            if e.kind not in SHOE_KINDS or e.arg != 0:
                raise Fail(f"the shoe's event {e.event_no} has kind {e.kind} arg {e.arg}")
        elif e.kind != EventKind.BUTTON or not (
            e.arg in set(Button) and caps & button_capability(Button(e.arg))
        ):
            raise Fail(f"the panel's event {e.event_no} has kind {e.kind} arg {e.arg}")
