"""What a host session reports, defined once: the controller consumes these
very classes (link news, the devices' physical facts, command outcomes).

A new kind of device event is a class here plus its entry in
``_DEVICE_EVENTS``; :func:`device_event` turns a wire event into it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.wire import DeviceKind, Event, EventKind, HelloReply, ResultCode

_KIND_NAMES = {
    DeviceKind.SHOE: "shoe",
    DeviceKind.SEAT_PANEL: "seat panel",
    DeviceKind.DEALER_PANEL: "dealer panel",
}


def kind_name(kind: int) -> str:
    return _KIND_NAMES.get(DeviceKind(kind), "device") if kind in (1, 2, 3) else f"kind {kind}"


# --- what the session reports ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """What a device said about itself in HELLO_REPLY."""

    kind: int
    seat: int
    protocol: tuple[int, int]
    firmware: tuple[int, int, int]
    hardware_rev: int
    unique_id: str
    boot_id: int
    capabilities: int

    @classmethod
    def from_reply(cls, reply: HelloReply) -> DeviceInfo:
        return cls(
            kind=reply.kind,
            seat=reply.seat,
            protocol=(reply.major, reply.minor),
            firmware=reply.firmware,
            hardware_rev=reply.hardware_rev,
            unique_id=reply.unique_id.hex(),
            boot_id=reply.boot_id,
            capabilities=reply.capabilities,
        )


@dataclass(frozen=True, slots=True)
class LinkUp:
    """The link is (again) in a session, the wanted state has been queued, and
    every event the device announced in its answer to SYNC_EVENTS has arrived:
    those resent follow this LinkUp at once, in the same batch
    (docs/protocol.md section 5.3), so a table that opens the gate on it
    already knows of every card that left while it was away.

    ``rebooted``: the device has a different ``boot_id`` than the one this host
    last spoke to.  ``events_lost``: events known to be lost (announced by the
    device but never received, or aged out of its log); after a reboot the
    last few hundred ms before it cannot be checked at all, so a reboot
    mid-deal is an alarm even when this is 0.
    """

    boot_id: int
    rebooted: bool
    events_lost: int = 0
    info: DeviceInfo | None = None


@dataclass(frozen=True, slots=True)
class LinkDown:
    reason: str


@dataclass(frozen=True, slots=True)
class EventsLost:
    """Events that will never arrive (a gap in ``event_no``): raise an alarm."""

    boot_id: int
    first_event_no: int
    last_event_no: int
    reason: str


# The device's physical facts, defined once: the controller consumes these very
# classes.  A new kind of event is a class here plus its entry in _DEVICE_EVENTS.


@dataclass(frozen=True, slots=True)
class CardOut:
    """The shoe's exit sensor saw a card leave (``event_no`` counts per boot)."""

    event_no: int
    device_ms: int
    boot_id: int = 0


@dataclass(frozen=True, slots=True)
class GateForced:
    """The gate was pushed open while locked (the card-out that follows decides)."""

    event_no: int
    device_ms: int
    boot_id: int = 0


@dataclass(frozen=True, slots=True)
class GateJammed:
    """The gate or the dispensing motor is stuck."""

    event_no: int
    device_ms: int
    boot_id: int = 0


@dataclass(frozen=True, slots=True)
class ShoeEmpty:
    """The last card left the shoe."""

    event_no: int
    device_ms: int
    boot_id: int = 0


@dataclass(frozen=True, slots=True)
class PackLoaded:
    """Protocol 1.1: the shoe's loading lid closed on a pack."""

    event_no: int
    device_ms: int
    boot_id: int = 0


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A panel button (``button``: a :class:`~firmware_bridge.wire.Button` code);
    ``address`` is the panel's (1-14 a seat, 15 the dealer's)."""

    button: int
    event_no: int = 0
    device_ms: int = 0
    boot_id: int = 0
    address: int = 0


@dataclass(frozen=True, slots=True)
class UnknownEvent:
    kind: int
    arg: int
    event_no: int
    device_ms: int
    boot_id: int = 0


DeviceEvent = (
    CardOut | GateForced | GateJammed | ShoeEmpty | PackLoaded | ButtonPressed | UnknownEvent
)


@dataclass(frozen=True, slots=True)
class CommandDone:
    handle: int
    code: int
    message: str

    @property
    def ok(self) -> bool:
        return self.code in (ResultCode.OK, ResultCode.ALREADY_DONE)


@dataclass(frozen=True, slots=True)
class CommandFailed:
    handle: int
    reason: str


HostEvent = LinkUp | LinkDown | EventsLost | DeviceEvent | CommandDone | CommandFailed


#: wire event kind -> the event the host reports, from (wire event, boot id, address)
_DEVICE_EVENTS: dict[int, Callable[[Event, int, int], DeviceEvent]] = {
    EventKind.CARD_OUT: lambda e, boot, _: CardOut(e.event_no, e.device_ms, boot),
    EventKind.BUTTON: lambda e, boot, address: ButtonPressed(
        e.arg, e.event_no, e.device_ms, boot, address
    ),
    EventKind.GATE_FORCED: lambda e, boot, _: GateForced(e.event_no, e.device_ms, boot),
    EventKind.GATE_JAMMED: lambda e, boot, _: GateJammed(e.event_no, e.device_ms, boot),
    EventKind.SHOE_EMPTY: lambda e, boot, _: ShoeEmpty(e.event_no, e.device_ms, boot),
    EventKind.PACK_LOADED: lambda e, boot, _: PackLoaded(e.event_no, e.device_ms, boot),
}


def device_event(event: Event, boot_id: int, address: int = 0) -> DeviceEvent:
    """The host's event for a device's wire event (an unknown kind is reported, not dropped)."""
    make = _DEVICE_EVENTS.get(event.kind)
    if make is None:
        return UnknownEvent(event.kind, event.arg, event.event_no, event.device_ms, boot_id)
    return make(event, boot_id, address)
