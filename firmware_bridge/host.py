"""The host's side of one device link, sans-I/O.

:class:`HostSession` runs the identify handshake, heartbeat, event
resynchronisation and command bookkeeping of docs/protocol.md on top of a
:class:`~firmware_bridge.link.Link`.  Feed it bytes (or, on the bus, frames)
with the time; collect bytes to write and :data:`HostEvent` values.  It keeps
the wanted absolute state (gate, lights, text) and pushes it again after every
(re)connection, so a rebooted device is brought back without the caller's help.
"""

from __future__ import annotations

import logging
import secrets
from collections import deque
from dataclasses import dataclass, field
from enum import Enum

# The events a session reports live in firmware_bridge.events; they are
# re-exported here, where every caller has always imported them from.
from firmware_bridge.events import (
    ButtonPressed,
    CardOut,
    CommandDone,
    CommandFailed,
    DeviceEvent,
    DeviceInfo,
    EventsLost,
    GateForced,
    GateJammed,
    HostEvent,
    LinkDown,
    LinkUp,
    PackLoaded,
    ShoeEmpty,
    UnknownEvent,
    device_event,
    kind_name,
)
from firmware_bridge.link import Link, LinkConfig, LinkCounters
from firmware_bridge.wire import (
    COMMAND_TYPE,
    PROTOCOL_MAJOR,
    PROTOCOL_MINOR,
    BodyError,
    Command,
    DeviceKind,
    Dispense,
    Event,
    Frame,
    FrameDecoder,
    FrameError,
    Hello,
    HelloReply,
    MsgType,
    Ping,
    Pong,
    Result,
    ResultCode,
    SetGate,
    SyncEvents,
    SyncResult,
    result_text,
)

__all__ = [
    "ButtonPressed",
    "CardOut",
    "CommandDone",
    "CommandFailed",
    "DeviceEvent",
    "DeviceInfo",
    "EventCursor",
    "EventsLost",
    "GateForced",
    "GateJammed",
    "HostEvent",
    "HostSession",
    "LinkDown",
    "LinkUp",
    "PackLoaded",
    "SessionStateError",
    "ShoeEmpty",
    "State",
    "UnknownEvent",
    "device_event",
    "kind_name",
]

log = logging.getLogger(__name__)

#: seconds a session waits, after the RESULT of SYNC_EVENTS, for the events the
#: device announced in it before it gives up on them (reports them lost) and
#: reports the link up anyway: 64 events resent one per bus turn take ~1.3 s
CATCH_UP_LIMIT = 5.0

# --- the session ----------------------------------------------------------------------


class State(Enum):
    CLOSED = "closed"
    HELLO = "hello"
    SYNCING = "syncing"
    UP = "up"


#: where a session may go from each state: HELLO again is a new identify
#: attempt, a lost link starts over at HELLO, and closing is allowed anywhere
_NEXT_STATES: dict[State, frozenset[State]] = {
    State.CLOSED: frozenset({State.HELLO, State.CLOSED}),
    State.HELLO: frozenset({State.HELLO, State.SYNCING, State.CLOSED}),
    State.SYNCING: frozenset({State.UP, State.HELLO, State.CLOSED}),
    State.UP: frozenset({State.HELLO, State.CLOSED}),
}


class SessionStateError(RuntimeError):
    """The session was asked to move where its state diagram has no arrow: a bug."""


@dataclass(frozen=True, slots=True)
class EventCursor:
    """The last event delivered: what a restarted host resumes from."""

    boot_id: int
    event_no: int


_ABSOLUTE = (MsgType.SET_GATE, MsgType.SET_LIGHTS, MsgType.SET_TEXT)


@dataclass
class _Inflight:
    seq: int
    type: int
    command: Command | None
    handles: list[int]


@dataclass(eq=False)
class HostSession:
    """One device, seen from the host.

    ``expect_kind`` refuses a device of another kind on this port or address;
    ``resume`` continues from a cursor the controller kept (e.g. in its
    journal), so a restarted host still gets the events it had not applied.
    """

    address: int = 0
    expect_kind: DeviceKind | None = None
    config: LinkConfig = field(default_factory=LinkConfig)
    polled: bool = False
    resume: EventCursor | None = None
    name: str = ""
    #: seconds between two log lines of the drop counters (only when they changed)
    summary_interval: float = 600.0
    #: how many recent PONGs the device clock offset is chosen from
    clock_samples: int = 8

    def __post_init__(self) -> None:
        self.counters = LinkCounters()
        self.link = Link(self.address, False, self.config, self.counters, self.polled)
        self.decoder = FrameDecoder()
        self.state = State.CLOSED
        self.info: DeviceInfo | None = None
        self.cursor: EventCursor | None = self.resume
        self.device_last_event_no = 0  # as announced by the device
        self._events: deque[HostEvent] = deque()
        # a random first nonce (docs/protocol.md section 4): a host restarted within
        # the device's fail-safe must not greet it with its old session's nonce
        self._nonce = secrets.randbelow(0xFFFF)
        self._hello_at = 0.0
        self._hello_interval = self.config.rto_initial
        self._refused: str | None = None
        self._last_heard = 0.0
        self._ping_at = 0.0
        self._ping_token = 0
        self._ping_sent: tuple[int, float] | None = None
        self._down_reported = True  # no LinkDown before the first LinkUp
        self._handles = 0
        self._wanted: dict[int, Command] = {}
        self._waiting: dict[int, list[int]] = {}  # absolute type -> handles
        self._dispenses: deque[tuple[int, Dispense]] = deque()
        # a random first dispense_no (docs/protocol.md section 5.4): the device
        # remembers the last one it carried out this boot, and a restarted host
        # counting from 1 again would get ALREADY_DONE for a new card
        self._dispense_no = secrets.randbelow(0xFFFF)
        self._dispense_boot: int | None = None
        self._inflight: deque[_Inflight] = deque()
        self._sync_seq: int | None = None
        self._rebooted = False
        self._lost_on_reboot = 0
        self._last_event_before_down = 0
        #: after SYNC_EVENTS' RESULT: the device's last event then, and until when
        #: it may take to arrive; the LinkUp and the events meanwhile wait for it
        self._catch_up_to: int | None = None
        self._catch_up_by = 0.0
        self._pending_up: LinkUp | None = None
        self._held: list[HostEvent] = []
        #: recent (round trip, device clock offset) pairs from PONGs, newest last
        self._clock_samples: deque[tuple[float, float]] = deque(maxlen=self.clock_samples)
        #: when the drop counters were last written to the log, and what they were
        self._summary_at: float | None = None
        self._summary_seen: dict[str, int] = self.counters.drops()
        if not self.name:
            self.name = f"device @{self.address}"

    # --- public API ------------------------------------------------------------

    def events(self) -> list[HostEvent]:
        out = list(self._events)
        self._events.clear()
        return out

    def data_to_send(self) -> bytes:
        return self.link.take_output()

    @property
    def is_up(self) -> bool:
        return self.state is State.UP

    def connection_made(self, now: float) -> None:
        """The transport is open: start identifying."""
        self.decoder = FrameDecoder()
        self._start_hello(now)

    def connection_lost(self, now: float, reason: str) -> None:
        self._go_down(reason)
        self._enter(State.CLOSED)

    def close(self) -> None:
        """Fail every pending command; used when the driver is closed for good."""
        log.info("%s: closed; link figures: %s", self.name, self.counters.summary())
        self._release_held()
        for handles in self._waiting.values():
            for h in handles:
                self._events.append(CommandFailed(h, "the link was closed"))
        for item in self._inflight:
            for h in item.handles:
                self._events.append(CommandFailed(h, "the link was closed"))
        for h, _ in self._dispenses:
            self._events.append(CommandFailed(h, "the link was closed"))
        self._waiting.clear()
        self._inflight.clear()
        self._dispenses.clear()
        self._enter(State.CLOSED)

    def command(self, cmd: Command) -> int:
        """Ask for a command; returns a handle that a CommandDone/Failed will name.

        Absolute commands become the wanted state: if the link is down they are
        sent when it comes up, and a newer one of the same type replaces an
        older one still waiting.  DISPENSE gets a ``dispense_no`` so a retry to
        the same boot is never carried out twice.
        """
        self._handles += 1
        handle = self._handles
        mtype = COMMAND_TYPE[type(cmd)]
        if mtype in _ABSOLUTE:
            self._wanted[mtype] = cmd
            # SYNCING counts as connected: the wanted state was already pushed,
            # so a command parked now would never be sent.
            if self.state in (State.SYNCING, State.UP):
                self._send_command(cmd, [handle])
            else:
                self._waiting.setdefault(mtype, []).append(handle)
        elif isinstance(cmd, Dispense):
            self._dispense_no = (self._dispense_no + 1) & 0xFFFF or 1
            numbered = Dispense(self._dispense_no)
            if self.state in (State.SYNCING, State.UP):
                self._send_command(numbered, [handle])
            else:
                self._dispenses.append((handle, numbered))
        else:
            raise ValueError(f"{type(cmd).__name__} is sent by the session itself")
        return handle

    @property
    def clock_offset(self) -> float | None:
        """Host time (the clock ``now`` is given in) minus device time, in
        seconds, from the fastest of the recent PING/PONG round trips
        (docs/protocol.md section 3: ``(t_ping_sent + t_pong_received) / 2 −
        uptime_ms``); None before the first PONG of this session.  Its error
        is at most half that round trip."""
        if not self._clock_samples:
            return None
        return min(self._clock_samples)[1]

    def host_time(self, device_ms: int) -> float | None:
        """When a device event happened on the host's clock (pairs a CARD_OUT
        with camera frames, section 11.5); None while no offset is known."""
        offset = self.clock_offset
        return None if offset is None else offset + device_ms / 1000.0

    def wanted(self, mtype: MsgType) -> Command | None:
        return self._wanted.get(mtype)

    def receive_bytes(self, data: bytes, now: float) -> None:
        """Stream mode: bytes from the transport."""
        self.counters.bytes_received += len(data)
        for item in self.decoder.feed(data):
            if isinstance(item, FrameError):
                self._frame_error(item)
            else:
                self.receive_frame(item, now)
        if not self.polled and self.state in (State.SYNCING, State.UP):
            self.link.flush(now)

    def next_deadline(self) -> float | None:
        """When :meth:`tick` next has something to do (None: only on input)."""
        if self.state is State.CLOSED:
            return None
        if self.state is State.HELLO:
            return self._hello_at
        times = [self._last_heard + self.config.host_silence]
        if self._catch_up_to is not None:
            times.append(self._catch_up_by)
        if not self.polled:
            times.append(self._ping_at)
            link_deadline = self.link.next_deadline()
            if link_deadline is not None:
                times.append(link_deadline)
        return min(times)

    def tick(self, now: float) -> None:
        if self.state is State.CLOSED:
            return
        self._maybe_log_summary(now)
        if self.state is State.HELLO:
            if not self.polled and now >= self._hello_at:
                self.link.send_control(MsgType.HELLO, self._hello_body())
                self._hello_sent(now)
            return
        if now - self._last_heard > self.config.host_silence:
            self._lost(now, f"no answer from the {self._what()} for {self.config.host_silence:g} s")
            return
        if self._catch_up_to is not None and now >= self._catch_up_by:
            self._give_up_catching_up()
        if self.polled:
            return
        self.link.tick(now)
        if self.link.failure:
            self._lost(now, self.link.failure)
            return
        if now >= self._ping_at:
            self._send_ping(now)
        self.link.flush(now)

    # --- polled (bus) mode ----------------------------------------------------------

    def wants_turn(self, now: float) -> bool:
        if self.state is State.CLOSED:
            return False
        return self.state is not State.HELLO or now >= self._hello_at

    def turn(self, now: float) -> bytes:
        """The one frame to send in this address's bus turn."""
        if self.state is State.HELLO:
            frame = self.link.control(MsgType.HELLO, self._hello_body())
            self._hello_sent(now)
            return frame
        self._ping_token = (self._ping_token + 1) & 0xFFFF
        frame = self.link.turn_frame(now, MsgType.PING, Ping(self._ping_token).encode())
        self._ping_sent = (self._ping_token, now)
        if self.link.failure:
            self._lost(now, self.link.failure)
        return frame

    def turn_missed(self, now: float) -> None:
        """No reply came within the bus reply timeout."""
        self.counters.missed_turns += 1
        self.tick(now)

    # --- input -------------------------------------------------------------------

    def _frame_error(self, err: FrameError) -> None:
        self.counters.frame_error(err)
        log.debug("%s: dropped a damaged frame: %s", self.name, err)

    def receive_frame(self, frame: Frame, now: float) -> None:
        header = frame.header
        if not header.from_device:
            self.counters.wrong_direction += 1
            return
        if header.address != self.address:
            return
        if header.type == MsgType.HELLO_REPLY:
            self._on_hello_reply(frame, now)
            return
        if header.version != PROTOCOL_MAJOR:
            self.counters.version_errors += 1
            log.warning("%s: dropped a frame of protocol version %d", self.name, header.version)
            return
        if self.state not in (State.SYNCING, State.UP):
            return  # leftovers of an earlier session
        if header.sequenced and not self._body_parses(header.type, frame.body):
            # Damage the CRC missed (1 damaged frame in 65,536 passes a CRC-16):
            # dropped unacknowledged, so the device sends it again, intact.  Taken
            # into the sequence it would be acknowledged and lost for good.
            self.counters.bad_bodies += 1
            log.warning("%s: dropped a %s frame whose body does not parse (it will be "
                        "sent again)", self.name, _type_name(header.type))
            return
        self._last_heard = now
        if header.type == MsgType.NO_SESSION:
            # It belongs to no session: its ``ack`` acknowledges nothing and it
            # gives no round-trip sample (docs/protocol.md section 2).
            self.counters.frames_received += 1
            self._lost(now, f"the {self._what()} has lost the session (it restarted or reset)")
            return
        for h, body in self.link.on_frame(header, frame.body, now):
            if self.state not in (State.SYNCING, State.UP):
                return  # a NO_SESSION ended the session mid-batch
            try:
                self._dispatch(h.type, body, now)
            except BodyError as exc:
                self.counters.bad_bodies += 1
                log.warning("%s: bad %s body: %s", self.name, _type_name(h.type), exc)

    @staticmethod
    def _body_parses(mtype: int, body: bytes) -> bool:
        """A sequenced frame's body is well formed for its type (unknown types
        are judged later, once in sequence)."""
        try:
            if mtype == MsgType.EVENT:
                Event.decode(body)
            elif mtype == MsgType.RESULT:
                Result.decode(body)
        except BodyError:
            return False
        return True

    def _dispatch(self, mtype: int, body: bytes, now: float) -> None:
        if mtype == MsgType.EVENT:
            self._on_event(Event.decode(body))
        elif mtype == MsgType.RESULT:
            self._on_result(Result.decode(body), now)
        elif mtype == MsgType.PONG:
            pong = Pong.decode(body)
            self.device_last_event_no = pong.last_event_no
            if self._ping_sent and self._ping_sent[0] == pong.token:
                sent = self._ping_sent[1]
                if not self.polled:
                    self.counters.note_rtt(now - sent)
                self._clock_samples.append(
                    (now - sent, (sent + now) / 2 - pong.uptime_ms / 1000.0)
                )
                self._ping_sent = None
        elif mtype == MsgType.ACK:
            pass
        else:
            self.counters.unknown_types += 1
            log.warning("%s: ignored a message of unknown type 0x%02x", self.name, mtype)

    def _on_hello_reply(self, frame: Frame, now: float) -> None:
        try:
            reply = HelloReply.decode(frame.body)
        except BodyError as exc:
            self.counters.bad_bodies += 1
            log.warning("%s: bad HELLO_REPLY: %s", self.name, exc)
            return
        if self.state is not State.HELLO or reply.nonce != self._nonce:
            return  # a late answer to an earlier HELLO
        self._last_heard = now
        problem = self._refusal(reply)
        if problem:
            self.counters.version_errors += reply.major != PROTOCOL_MAJOR
            if problem != self._refused:
                log.error("%s: %s", self.name, problem)
                self._events.append(LinkDown(problem))
            self._refused = problem
            self._down_reported = True
            self._hello_interval = self.config.hello_max_interval
            self._hello_at = now + self._hello_interval
            return
        self._refused = None
        if reply.minor != PROTOCOL_MINOR:
            log.info(
                "%s: speaks protocol %d.%d, this host %d.%d: compatible",
                self.name, reply.major, reply.minor, PROTOCOL_MAJOR, PROTOCOL_MINOR,
            )
        self.info = DeviceInfo.from_reply(reply)
        self.device_last_event_no = reply.last_event_no
        self._clock_samples.clear()  # a new boot has a new clock
        self.link.reset()
        self._enter(State.SYNCING)
        self._ping_at = now + self.config.ping_interval
        cursor = self.cursor
        lost = 0
        if cursor is None:
            after = reply.last_event_no
            self.cursor = EventCursor(reply.boot_id, after)
            self._rebooted = False
        elif cursor.boot_id == reply.boot_id:
            after = cursor.event_no
            self._rebooted = False
        else:
            lost = max(0, self._last_event_before_down - cursor.event_no)
            after = 0
            self.cursor = EventCursor(reply.boot_id, 0)
            self._rebooted = True
        self._lost_on_reboot = lost
        self._sync_seq = self.link.queue(
            MsgType.SYNC_EVENTS, SyncEvents(reply.boot_id, after).encode()
        )
        self._push_state(reply.boot_id)
        if not self.polled:
            self.link.flush(now)

    def _refusal(self, reply: HelloReply) -> str | None:
        what = self._what(reply.kind)
        if reply.major != PROTOCOL_MAJOR:
            newer = "host software" if reply.major > PROTOCOL_MAJOR else f"{what}'s firmware"
            return (
                f"the {what} speaks protocol {reply.major}.{reply.minor} but this host speaks "
                f"{PROTOCOL_MAJOR}.{PROTOCOL_MINOR}: update the {newer}"
            )
        if self.expect_kind is not None and reply.kind != self.expect_kind:
            return (
                f"expected a {kind_name(self.expect_kind)} at {self.name} but a "
                f"{kind_name(reply.kind)} answered: check the cabling and configuration"
            )
        return None

    def _on_event(self, event: Event) -> None:
        assert self.cursor is not None
        boot = self.cursor.boot_id
        expected = self.cursor.event_no + 1
        if event.event_no < expected:
            self.counters.duplicate_events += 1
            return
        if event.event_no > expected:
            missing = event.event_no - expected
            self.counters.events_lost += missing
            reason = f"{missing} event(s) from the {self._what()} never arrived"
            log.error("%s: %s", self.name, reason)
            self._deliver(EventsLost(boot, expected, event.event_no - 1, reason))
        self.cursor = EventCursor(boot, event.event_no)
        self.counters.events_delivered += 1
        self._deliver(device_event(event, boot, self.address))
        if self._catch_up_to is not None and event.event_no >= self._catch_up_to:
            self._report_up()

    def _deliver(self, event: HostEvent) -> None:
        """An event for the caller; while the session catches up, held back
        until its LinkUp has gone first."""
        if self._catch_up_to is not None:
            self._held.append(event)
        else:
            self._events.append(event)

    def _release_held(self) -> None:
        """Events already taken into the cursor are delivered whatever happens
        (a link lost while catching up, a close): the cursor has moved past them."""
        self._events.extend(self._held)
        self._held.clear()
        self._catch_up_to = None
        self._pending_up = None

    def _on_result(self, result: Result, now: float) -> None:
        while self._inflight and self._inflight[0].seq != result.ref_seq:
            stale = self._inflight.popleft()  # cannot happen on an ordered link
            log.error("%s: no result for command seq %d", self.name, stale.seq)
            for h in stale.handles:
                self._events.append(CommandFailed(h, "the device gave no result"))
        if not self._inflight:
            log.warning("%s: a result for no command (seq %d)", self.name, result.ref_seq)
            return
        item = self._inflight.popleft()
        if item.type == MsgType.SYNC_EVENTS:
            self._on_sync_result(result, now)
            return
        code = result.code
        message = result_text(code)
        if code not in (ResultCode.OK, ResultCode.ALREADY_DONE):
            log.warning("%s: %s: %s", self.name, _type_name(item.type), message)
        for h in item.handles:
            self._events.append(CommandDone(h, code, message))

    def _on_sync_result(self, result: Result, now: float) -> None:
        assert self.cursor is not None and self.info is not None
        lost = self._lost_on_reboot
        announced = 0  # the device's last event as its RESULT says
        if result.code == ResultCode.OK:
            sync = SyncResult.decode(result.data)
            announced = sync.last_event_no
            expected = self.cursor.event_no + 1
            if sync.oldest_event_no > expected:
                aged = sync.oldest_event_no - expected
                lost += aged
                reason = f"{aged} event(s) left the {self._what()}'s memory before they were sent"
                log.error("%s: %s", self.name, reason)
                self._events.append(
                    EventsLost(self.cursor.boot_id, expected, sync.oldest_event_no - 1, reason)
                )
                self.cursor = EventCursor(self.cursor.boot_id, sync.oldest_event_no - 1)
            elif sync.last_event_no < self.cursor.event_no:
                # The same boot, yet fewer events than this host already has: the
                # device reused a boot_id or the cursor is not this device's.  Kept,
                # the cursor would drop every event up to it as a duplicate.
                went = self.cursor.event_no
                reason = (f"the {self._what()}'s event numbers went back from {went} to "
                          f"{sync.last_event_no}: check the cards on the table")
                log.error("%s: %s", self.name, reason)
                self._events.append(
                    EventsLost(self.cursor.boot_id, sync.last_event_no + 1, went, reason)
                )
                self.cursor = EventCursor(self.cursor.boot_id, sync.last_event_no)
        else:
            log.error("%s: the device refused SYNC_EVENTS (code %d)", self.name, result.code)
        self.counters.events_lost += lost
        self._pending_up = LinkUp(self.info.boot_id, self._rebooted, lost, self.info)
        if self.cursor.event_no < announced:
            # Not up before the events resent behind this RESULT are in (docs/protocol.md
            # section 5.3): a table that opens the gate on LinkUp would otherwise let
            # the next card out before it knows of the cards that left meanwhile.
            self._catch_up_to = announced
            self._catch_up_by = now + CATCH_UP_LIMIT
            return
        self._report_up()

    def _report_up(self) -> None:
        """LinkUp, then every event that arrived while catching up, in one batch."""
        up, held = self._pending_up, self._held
        self._pending_up, self._held, self._catch_up_to = None, [], None
        assert up is not None
        self._enter(State.UP)
        self._down_reported = False
        self._hello_interval = self.config.rto_initial
        if up.rebooted:
            log.warning("%s: the %s restarted (events lost: %d)", self.name, self._what(),
                        up.events_lost)
        else:
            log.info("%s: link up", self.name)
        self._events.append(up)
        self._events.extend(held)

    def _give_up_catching_up(self) -> None:
        """The device announced events in its SYNC_EVENTS RESULT that never came:
        reported lost (an alarm, never silence), and the link reported up."""
        assert self.cursor is not None and self._catch_up_to is not None
        first, last = self.cursor.event_no + 1, self._catch_up_to
        reason = (f"{last - first + 1} event(s) the {self._what()} announced were not "
                  f"resent within {CATCH_UP_LIMIT:g} s")
        log.error("%s: %s", self.name, reason)
        self.counters.events_lost += last - first + 1
        self._held.append(EventsLost(self.cursor.boot_id, first, last, reason))
        self.cursor = EventCursor(self.cursor.boot_id, last)
        self._report_up()

    # --- output helpers ---------------------------------------------------------------

    def _send_command(self, cmd: Command, handles: list[int]) -> None:
        mtype = COMMAND_TYPE[type(cmd)]
        seq = self.link.queue(mtype, cmd.encode())
        self._inflight.append(_Inflight(seq, mtype, cmd, handles))

    def _push_state(self, boot_id: int) -> None:
        """After HELLO: SYNC is queued; now the wanted state, then dispenses."""
        self._inflight.clear()
        self._inflight.append(_Inflight(self._sync_seq or 0, MsgType.SYNC_EVENTS, None, []))
        gate = self._wanted.get(MsgType.SET_GATE)
        if isinstance(gate, SetGate) and not gate.locked:
            # Never reopened by the session itself (docs/protocol.md section 5.4): the
            # device starts every session locked, and only the table, once it has the
            # events resent behind SYNC_EVENTS and has heard of any reboot, may open
            # it again.  Whoever waited for the opening learns it did not happen.
            self._wanted[MsgType.SET_GATE] = SetGate(True)
            for h in self._waiting.pop(MsgType.SET_GATE, []):
                self._events.append(CommandFailed(
                    h, f"the {self._what()} reconnected with its gate locked; "
                    "it is not reopened until the table asks again"))
        for mtype in _ABSOLUTE:
            cmd = self._wanted.get(mtype)
            if cmd is not None:
                self._send_command(cmd, self._waiting.pop(mtype, []))
        same_boot = self._dispense_boot in (None, boot_id)
        while self._dispenses:
            handle, cmd = self._dispenses.popleft()
            if same_boot:
                self._send_command(cmd, [handle])
            else:
                reason = f"the {self._what()} restarted; the card was not dispensed"
                self._events.append(CommandFailed(handle, reason))
        self._dispense_boot = boot_id

    def _send_ping(self, now: float) -> None:
        self._ping_token = (self._ping_token + 1) & 0xFFFF
        self._ping_sent = (self._ping_token, now)
        self.link.send_control(MsgType.PING, Ping(self._ping_token).encode())
        self._ping_at = now + self.config.ping_interval

    def _hello_body(self) -> bytes:
        return Hello(PROTOCOL_MAJOR, PROTOCOL_MINOR, self._nonce).encode()

    def _hello_sent(self, now: float) -> None:
        self._hello_at = now + self._hello_interval
        self._hello_interval = min(self._hello_interval * 2, self.config.hello_max_interval)

    def _start_hello(self, now: float) -> None:
        self._nonce = (self._nonce % 0xFFFF) + 1
        self._enter(State.HELLO)
        self._hello_interval = self.config.rto_initial
        self._hello_at = now

    def _enter(self, state: State) -> None:
        """Every change of :attr:`state` goes through here, along an allowed arrow."""
        if state not in _NEXT_STATES[self.state]:
            raise SessionStateError(
                f"{self.name}: a session cannot go from {self.state.name} to {state.name}"
            )
        self.state = state

    def _lost(self, now: float, reason: str) -> None:
        self._go_down(reason)
        self._start_hello(now)
        if self.polled:
            # an absent panel is asked again only once a second
            self._hello_interval = self.config.hello_max_interval
            self._hello_at = now + self._hello_interval
        else:
            self.tick(now)

    def _go_down(self, reason: str) -> None:
        self._last_event_before_down = self.device_last_event_no
        self._release_held()
        if self.state in (State.SYNCING, State.UP):
            self.counters.link_downs += 1
            # commands without a result go back to waiting for the next session
            redo: list[tuple[int, Dispense]] = []
            for item in self._inflight:
                if item.type in _ABSOLUTE:
                    self._waiting.setdefault(item.type, []).extend(item.handles)
                elif isinstance(item.command, Dispense):
                    redo += [(h, item.command) for h in item.handles]
            self._dispenses = deque(redo + list(self._dispenses))
            self._inflight.clear()
            self.link.reset()
        if not self._down_reported:
            self._down_reported = True
            log.warning("%s: link down: %s (link figures: %s)", self.name, reason,
                        self.counters.summary())
            self._events.append(LinkDown(reason))

    def _maybe_log_summary(self, now: float) -> None:
        """Now and then, the drop counters in the log, if they moved: a line that
        degrades slowly shows up there before it costs a link."""
        if self._summary_at is None:
            self._summary_at = now
        if now - self._summary_at < self.summary_interval:
            return
        self._summary_at = now
        drops = self.counters.drops()
        if drops != self._summary_seen:
            self._summary_seen = drops
            log.info("%s: link figures: %s", self.name, self.counters.summary())

    def _what(self, kind: int | None = None) -> str:
        if kind is None:
            kind = self.info.kind if self.info else (self.expect_kind or 0)
        return kind_name(kind) if kind else "device"


def _type_name(mtype: int) -> str:
    try:
        return MsgType(mtype).name
    except ValueError:
        return f"type 0x{mtype:02x}"
