"""A host session changes state only along its diagram (host._NEXT_STATES):
CLOSED -> HELLO -> SYNCING -> UP, back to HELLO when the link is lost, and to
CLOSED from anywhere."""

from __future__ import annotations

import pytest

from firmware_bridge.device import DeviceCore, RecordingHardware, shoe_identity
from firmware_bridge.host import HostSession, SessionStateError, State


def _pump(host: HostSession, device: DeviceCore, now: float) -> None:
    device.receive_bytes(host.data_to_send(), now)
    device.tick(now)
    host.receive_bytes(device.data_to_send(), now)
    host.tick(now)


def test_a_session_walks_hello_syncing_up_and_back_to_hello_when_lost() -> None:
    host = HostSession()
    device = DeviceCore(shoe_identity(), RecordingHardware())
    seen = [host.state]
    host.connection_made(0.0)
    now = 0.0
    while host.state is not State.UP and now < 1.0:
        if seen[-1] is not host.state:
            seen.append(host.state)
        _pump(host, device, now)
        now += 0.01
    seen.append(host.state)
    assert seen == [State.CLOSED, State.HELLO, State.SYNCING, State.UP]
    host.tick(now + 10.0)  # the device said nothing for far longer than host_silence
    assert host.state is State.HELLO
    host.connection_lost(now + 10.0, "unplugged")
    assert host.state is State.CLOSED


@pytest.mark.parametrize(("start", "target"), [
    (State.CLOSED, State.UP),
    (State.CLOSED, State.SYNCING),
    (State.HELLO, State.UP),
    (State.UP, State.SYNCING),
])
def test_a_move_the_diagram_does_not_draw_is_refused(start: State, target: State) -> None:
    host = HostSession(name="shoe")
    host.state = start
    with pytest.raises(SessionStateError, match=f"shoe: .* from {start.name} to {target.name}"):
        host._enter(target)
    assert host.state is start
