"""Each wire event kind becomes one host event, defined once in
firmware_bridge.host and consumed as it is by the controller."""

from __future__ import annotations

import pytest

from firmware_bridge.host import (
    ButtonPressed,
    CardOut,
    GateForced,
    GateJammed,
    PackLoaded,
    ShoeEmpty,
    UnknownEvent,
    device_event,
)
from firmware_bridge.wire import ADDRESS_DEALER, Button, Event, EventKind

# Written out by hand from docs/protocol.md's event table, not read from the code.
EXPECTED = {
    EventKind.CARD_OUT: CardOut,
    EventKind.BUTTON: ButtonPressed,
    EventKind.GATE_FORCED: GateForced,
    EventKind.GATE_JAMMED: GateJammed,
    EventKind.SHOE_EMPTY: ShoeEmpty,
    EventKind.PACK_LOADED: PackLoaded,  # protocol 1.1, section 12
}


def test_every_wire_event_kind_has_its_host_event() -> None:
    """A kind added to the wire without its host entry would come out Unknown."""
    assert set(EventKind) == set(EXPECTED)
    for kind, cls in EXPECTED.items():
        event = device_event(Event(7, 1234, kind, 0), boot_id=3)
        assert type(event) is cls
        assert (event.event_no, event.device_ms, event.boot_id) == (7, 1234, 3)


def test_a_press_names_the_panel_it_came_from() -> None:
    press = device_event(Event(2, 50, EventKind.BUTTON, int(Button.NEXT)), 9, ADDRESS_DEALER)
    assert press == ButtonPressed(int(Button.NEXT), 2, 50, 9, ADDRESS_DEALER)


def test_the_1_1_numbers_are_the_specs() -> None:
    """docs/protocol.md section 12: kind 6 PACK_LOADED, capability bits 21
    PACK_SWITCH and 22 AUTO_RELOCK, minor version 1."""
    from firmware_bridge.wire import PROTOCOL_MINOR, Capability

    assert int(EventKind.PACK_LOADED) == 6
    assert (int(Capability.PACK_SWITCH), int(Capability.AUTO_RELOCK)) == (1 << 21, 1 << 22)
    assert PROTOCOL_MINOR == 1


@pytest.mark.parametrize("kind", [0, 200, 255])
def test_a_kind_this_host_does_not_know_is_reported_not_dropped(kind: int) -> None:
    assert device_event(Event(4, 10, kind, 17), 1) == UnknownEvent(kind, 17, 4, 10, 1)
