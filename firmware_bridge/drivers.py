"""Typed asyncio drivers for the controller: :class:`Shoe`, :class:`SeatPanel`,
:class:`DealerPanel`, and the :class:`PanelBus` they share on RS-485.

Each driver is a thin shell: the protocol lives in the sans-I/O
:class:`~firmware_bridge.host.HostSession`; the port in
:class:`~firmware_bridge.transport.SerialTransport`.  A supervisor task opens
the port, reopens it with backoff after an unplug, and feeds time to the
session.  Usage::

    async with Shoe.open("/dev/serial/by-id/usb-pontoon_shoe-if00") as shoe:
        await shoe.set_gate(locked=False)
        async for event in shoe.events():
            ...  # CardOut, GateForced, ..., LinkUp, LinkDown, EventsLost

Commands return when the device has answered; a link that is down makes them
wait for the next session (absolute commands are re-sent as wanted state),
so callers wrap them in ``asyncio.timeout`` if they cannot wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Generic, TypeVar

import serial

from firmware_bridge.host import (
    CommandDone,
    CommandFailed,
    EventCursor,
    HostEvent,
    HostSession,
    LinkUp,
)
from firmware_bridge.link import LinkConfig, LinkCounters
from firmware_bridge.transport import SerialTransport
from firmware_bridge.wire import (
    ADDRESS_DEALER,
    ADDRESS_DIRECT,
    Button,
    Command,
    DeviceKind,
    Dispense,
    FrameDecoder,
    FrameError,
    MsgType,
    ResultCode,
    SetGate,
    SetLights,
    SetText,
    button_light,
    check_text,
)

log = logging.getLogger(__name__)

#: how long the host lets an acknowledgement owed to the shoe wait for a
#: command to carry it (docs/protocol.md section 5.1): the shoe's results and
#: card-outs come just before the host's next command nearly every time, so
#: most of them need no ACK frame of their own; far below the 50 ms timeout.
#: 15 ms, not the 20 ms the spec allows: the event loop wakes a little late
#: (about 0.5 ms here, more on a loaded box), and the promise is kept on the
#: wire, as the device measures it (tests/firmware_bridge/test_fb_delayed_ack.py)
HOST_ACK_DELAY = 0.015

DEFAULT_BAUD = 115200
RECONNECT_MIN = 0.1
RECONNECT_MAX = 2.0


class CommandError(RuntimeError):
    """The device refused or could not carry out a command; the message says why."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class _Endpoint:
    """One session's events and command futures, seen from asyncio."""

    def __init__(self, session: HostSession) -> None:
        self.session = session
        self.queue: asyncio.Queue[HostEvent] = asyncio.Queue()
        self.futures: dict[int, asyncio.Future[CommandDone]] = {}
        self.up = asyncio.Event()

    def dispatch(self) -> None:
        for event in self.session.events():
            if isinstance(event, CommandDone | CommandFailed):
                fut = self.futures.pop(event.handle, None)
                if fut is None or fut.done():
                    continue
                if isinstance(event, CommandFailed):
                    fut.set_exception(CommandError(event.reason))
                else:
                    fut.set_result(event)
                continue
            if isinstance(event, LinkUp):
                self.up.set()
            elif not self.session.is_up:
                self.up.clear()
            self.queue.put_nowait(event)

    async def command(self, cmd: Command, wake: asyncio.Event) -> CommandDone:
        handle = self.session.command(cmd)
        fut: asyncio.Future[CommandDone] = asyncio.get_running_loop().create_future()
        self.futures[handle] = fut
        wake.set()
        done = await fut
        if not done.ok:
            raise CommandError(f"{self.session.name}: {done.message}", done.code)
        return done

    def fail_all(self, reason: str) -> None:
        self.session.close()
        self.dispatch()
        for fut in self.futures.values():
            if not fut.done():
                fut.set_exception(CommandError(reason))
        self.futures.clear()


class _PortRunner:
    """Opens a port, keeps it open, reopens it after an unplug (with backoff)."""

    def __init__(self, url: str, baudrate: int) -> None:
        self.url = url
        self.baudrate = baudrate
        self.transport: SerialTransport | None = None
        self.wake = asyncio.Event()
        self.closing = False
        self._task: asyncio.Task[None] | None = None
        self._lost_reason: str | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._supervise())

    async def stop(self) -> None:
        self.closing = True
        self.wake.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.transport is not None:
            self.transport.close()
            self.transport = None

    async def _supervise(self) -> None:
        loop = asyncio.get_running_loop()
        backoff = RECONNECT_MIN
        last_error = ""
        while not self.closing:
            try:
                self.transport = SerialTransport.open(
                    self.url, self.baudrate, loop, self._data, self._lost
                )
            except (serial.SerialException, OSError, ValueError) as exc:
                message = f"cannot open {self.url}: {exc}"
                if message != last_error:
                    log.warning("%s (retrying every %g s at most)", message, RECONNECT_MAX)
                    last_error = message
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, RECONNECT_MAX)
                continue
            log.info("opened %s", self.url)
            backoff, last_error, self._lost_reason = RECONNECT_MIN, "", None
            self.connected(time.monotonic())
            try:
                await self.serve()
            finally:
                reason = self._lost_reason or "the port was closed"
                self.transport.close()
                self.transport = None
                self.disconnected(time.monotonic(), reason)

    def _lost(self, reason: str) -> None:
        log.warning("%s", reason)
        self._lost_reason = reason
        self.wake.set()

    @property
    def lost(self) -> bool:
        return self._lost_reason is not None or self.closing

    def write(self, data: bytes) -> None:
        if data and self.transport is not None:
            self.transport.write(data)

    async def wait(self, timeout: float | None) -> None:
        """Sleep until woken (input, a command, a loss) or the timeout."""
        if not self.wake.is_set() and (timeout is None or timeout > 0):
            # asyncio.timeout, not wait_for: no task is created per sleep
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self.wake.wait()
        self.wake.clear()

    # overridden
    def _data(self, data: bytes) -> None:
        raise NotImplementedError

    def connected(self, now: float) -> None:
        raise NotImplementedError

    def disconnected(self, now: float, reason: str) -> None:
        raise NotImplementedError

    async def serve(self) -> None:
        raise NotImplementedError


class _DirectRunner(_PortRunner):
    """One device alone on its port (the shoe on USB)."""

    def __init__(self, url: str, baudrate: int, endpoint: _Endpoint) -> None:
        super().__init__(url, baudrate)
        self.endpoint = endpoint
        self.session = endpoint.session

    def _data(self, data: bytes) -> None:
        self.session.receive_bytes(data, time.monotonic())
        self._flush()
        # What came in may have made a new deadline (an ack now owed, due in
        # ``ack_delay``); the serve loop sleeps until the one it saw before
        # (often the 50 ms retransmission timer), so it must look again.
        self.wake.set()

    def _flush(self) -> None:
        self.write(self.session.data_to_send())
        self.endpoint.dispatch()

    def connected(self, now: float) -> None:
        self.session.connection_made(now)
        self.session.tick(now)
        self._flush()

    def disconnected(self, now: float, reason: str) -> None:
        self.session.connection_lost(now, reason)
        self.endpoint.dispatch()

    async def serve(self) -> None:
        while not self.lost:
            now = time.monotonic()
            self.session.tick(now)
            self._flush()
            deadline = self.session.next_deadline()
            await self.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))


class _BusRunner(_PortRunner):
    """The host as RS-485 master: polls each panel in turn (docs/protocol.md section 8).

    Each address has its own poll schedule.  An address with something to
    carry (a command, a retransmission, a handshake) gets its turn at once; so
    does an ack owed to a panel that asks its person something (its reply
    may be the answer).  One that carried something lately (a lamp just lit:
    its person may answer) is polled every ``hot_poll`` for ``linger``; a
    quiet one every ``cycle_min``.  A panel that asks nothing (no button lamp
    lit but PAUSE, which is always offered) is polled every ``dark_poll``,
    and an ack owed to it rides on its next frame: a press there can only be
    refused or pause the table, which can wait that long, and a panel whose
    text changes with every card then costs one frame pair per change, not
    two.  Polling the whole bus back to back instead costs a frame pair per
    address per loop turn and nearly all of the host's CPU.
    """

    def __init__(
        self, url: str, baudrate: int, endpoints: list[_Endpoint], reply_timeout: float,
        cycle_min: float, hot_poll: float = 0.02, dark_poll: float | None = None,
    ) -> None:
        super().__init__(url, baudrate)
        self.endpoints = {e.session.address: e for e in endpoints}
        self.reply_timeout = reply_timeout
        self.cycle_min = cycle_min
        self.hot_poll = min(hot_poll, cycle_min)
        self.dark_poll = max(cycle_min, 4 * cycle_min if dark_poll is None else dark_poll)
        self.linger = 4 * self.hot_poll
        self.decoder = FrameDecoder()
        self._waiting_for: int | None = None
        self._reply: asyncio.Future[bool] | None = None
        #: per address: when its next routine poll is due, and until when it is hot
        self._due: dict[int, float] = {}
        self._hot_until: dict[int, float] = {}

    def _data(self, data: bytes) -> None:
        now = time.monotonic()
        for item in self.decoder.feed(data):
            if isinstance(item, FrameError):
                current = self.endpoints.get(self._waiting_for if self._waiting_for else -1)
                if current is not None:
                    current.session.counters.frame_error(item)
                continue
            endpoint = self.endpoints.get(item.header.address)
            if endpoint is None or not item.header.from_device:
                continue
            endpoint.session.receive_frame(item, now)
            endpoint.dispatch()
            if item.header.address == self._waiting_for and self._reply is not None:
                _settle(self._reply, False)

    def connected(self, now: float) -> None:
        self.decoder = FrameDecoder()
        self._due.clear()
        self._hot_until.clear()
        for e in self.endpoints.values():
            e.session.connection_made(now)

    def disconnected(self, now: float, reason: str) -> None:
        for e in self.endpoints.values():
            e.session.connection_lost(now, reason)
            e.dispatch()

    @staticmethod
    def _urgent(session: HostSession) -> bool:
        """Something to carry now: a command or retransmission, a handshake, or
        an ack owed to a panel that asks its person something."""
        link = session.link
        return (not session.is_up or not link.idle
                or (link.ack_owed and _asks_something(session)))

    async def serve(self) -> None:
        """Give each address its turn when it is due (see the class docstring);
        sleep until the next one is due or a command wakes the loop."""
        due, hot = self._due, self._hot_until
        while not self.lost:
            now = time.monotonic()
            for address, endpoint in self.endpoints.items():
                if self.lost:
                    return
                session = endpoint.session
                if now < due.get(address, 0.0) and not self._urgent(session):
                    continue
                turn = await self._turn(endpoint)
                now = time.monotonic()
                if turn:
                    hot[address] = now + self.linger
                if not _asks_something(session):
                    interval = self.dark_poll
                elif now < hot.get(address, 0.0):
                    interval = self.hot_poll
                else:
                    interval = self.cycle_min
                due[address] = now + interval
            if any(self._urgent(e.session) and e.session.wants_turn(now)
                   for e in self.endpoints.values()):
                continue
            await self.wait(max(0.0, min(due.values(), default=now) - time.monotonic()))

    async def _turn(self, endpoint: _Endpoint) -> bool | None:
        """One address's turn: None when it had none (no session, greeting later),
        True when it carried more than a bare PING and PONG."""
        session = endpoint.session
        now = time.monotonic()
        session.tick(now)
        if not session.wants_turn(now):
            endpoint.dispatch()
            return None
        link = session.link
        busy = not link.idle or not session.is_up
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[bool] = loop.create_future()
        self._reply = reply
        self._waiting_for = session.address
        timer = loop.call_later(self.reply_timeout, _settle, reply, True)
        self.write(session.turn(now))
        try:
            if await reply:
                session.turn_missed(time.monotonic())
        finally:
            timer.cancel()
            self._waiting_for = None
            self._reply = None
        endpoint.dispatch()
        # a sequenced frame from the device leaves an ack owed; more may follow it
        return busy or link.ack_owed or not link.idle


#: the lamps under the buttons (bits 0-14) but PAUSE's, which a dealer panel
#: always offers; the status lamps are above them
_ASKING_LAMPS = ((1 << 15) - 1) & ~button_light(Button.PAUSE)


def _asks_something(session: HostSession) -> bool:
    """A button lamp other than PAUSE is lit on this panel (as the host last
    asked): its person is asked to answer, and may at once."""
    wanted = session.wanted(MsgType.SET_LIGHTS)
    return isinstance(wanted, SetLights) and bool(wanted.mask & _ASKING_LAMPS)


def _settle(reply: asyncio.Future[bool], timed_out: bool) -> None:
    if not reply.done():
        reply.set_result(timed_out)


class _Device:
    """What every driver offers: events, link status, counters."""

    def __init__(self, endpoint: _Endpoint, runner: _PortRunner) -> None:
        self._endpoint = endpoint
        self._runner = runner

    @property
    def session(self) -> HostSession:
        return self._endpoint.session

    @property
    def counters(self) -> LinkCounters:
        return self._endpoint.session.counters

    @property
    def is_up(self) -> bool:
        return self._endpoint.session.is_up

    @property
    def cursor(self) -> EventCursor | None:
        """The last event delivered; keep it to resume after a host restart."""
        return self._endpoint.session.cursor

    async def wait_up(self) -> None:
        await self._endpoint.up.wait()

    async def next_event(self) -> HostEvent:
        return await self._endpoint.queue.get()

    async def events(self) -> AsyncIterator[HostEvent]:
        while True:
            yield await self._endpoint.queue.get()

    async def set_lights(self, mask: int) -> None:
        await self._command(SetLights(mask))

    async def _command(self, cmd: Command) -> CommandDone:
        return await self._endpoint.command(cmd, self._runner.wake)


class Shoe(_Device):
    """The card shoe on its USB port.  Events: CardOut, GateForced, GateJammed, ShoeEmpty."""

    @classmethod
    def open(
        cls,
        url: str,
        *,
        baudrate: int = DEFAULT_BAUD,
        resume: EventCursor | None = None,
        config: LinkConfig | None = None,
    ) -> _DeviceContext[Shoe]:
        session = HostSession(
            ADDRESS_DIRECT, DeviceKind.SHOE, config or LinkConfig(ack_delay=HOST_ACK_DELAY),
            resume=resume, name="shoe",
        )
        endpoint = _Endpoint(session)
        runner = _DirectRunner(url, baudrate, endpoint)
        return _DeviceContext(cls(endpoint, runner), runner, [endpoint])

    async def set_gate(self, locked: bool) -> None:
        await self._command(SetGate(locked))

    async def dispense(self) -> None:
        """Dispense one card (motorised shoes); never twice, even across a reconnect."""
        done = await self._command(Dispense(0))
        if done.code == ResultCode.ALREADY_DONE:
            log.info("shoe: a repeated dispense was recognised and not carried out again")


class SeatPanel(_Device):
    """A seat's button panel.  Events: ButtonPressed."""

    async def set_text(self, text: str) -> None:
        """Whole panel text, up to 32 ASCII characters, "\\n" between the two lines."""
        check_text(text)
        await self._command(SetText(text))

    @classmethod
    def open(
        cls, url: str, address: int, *, baudrate: int = DEFAULT_BAUD,
        config: LinkConfig | None = None,
    ) -> _DeviceContext[SeatPanel]:
        """A panel alone on its own port (USB); panels on RS-485 come from :class:`PanelBus`."""
        session = HostSession(
            address, DeviceKind.SEAT_PANEL, config or LinkConfig(), name=f"seat {address} panel"
        )
        endpoint = _Endpoint(session)
        runner = _DirectRunner(url, baudrate, endpoint)
        return _DeviceContext(cls(endpoint, runner), runner, [endpoint])


class DealerPanel(SeatPanel):
    """The dealer's panel: DRAW, STAY, NEXT, PAUSE, CONFIRM."""


class PanelBus:
    """Every panel on one RS-485 port, polled in turn by the host.

    ``async with PanelBus.open(url, seats=range(1, 8)) as bus:`` then
    ``bus.seat(3)`` and ``bus.dealer`` are the panels.
    """

    def __init__(
        self, runner: _BusRunner, seats: dict[int, SeatPanel], dealer: DealerPanel | None
    ) -> None:
        self._runner = runner
        self.seats = seats
        self.dealer = dealer

    def seat(self, number: int) -> SeatPanel:
        return self.seats[number]

    @classmethod
    def open(
        cls,
        url: str,
        *,
        seats: Iterable[int],
        dealer: bool = True,
        baudrate: int = DEFAULT_BAUD,
        reply_timeout: float = 0.02,
        cycle_min: float = 0.02,
        hot_poll: float = 0.02,
        dark_poll: float | None = None,
        config: LinkConfig | None = None,
    ) -> _DeviceContext[PanelBus]:
        cfg = config or LinkConfig()
        endpoints: list[_Endpoint] = []
        panels: dict[int, SeatPanel] = {}
        for n in seats:
            name = f"seat {n} panel"
            session = HostSession(n, DeviceKind.SEAT_PANEL, cfg, polled=True, name=name)
            endpoints.append(_Endpoint(session))
        dealer_endpoint = None
        if dealer:
            session = HostSession(
                ADDRESS_DEALER, DeviceKind.DEALER_PANEL, cfg, polled=True, name="dealer panel"
            )
            dealer_endpoint = _Endpoint(session)
            endpoints.append(dealer_endpoint)
        runner = _BusRunner(
            url, baudrate, endpoints, reply_timeout, cycle_min, hot_poll, dark_poll
        )
        for e in endpoints:
            if e is not dealer_endpoint:
                panels[e.session.address] = SeatPanel(e, runner)
        dealer_panel = DealerPanel(dealer_endpoint, runner) if dealer_endpoint else None
        return _DeviceContext(cls(runner, panels, dealer_panel), runner, endpoints)


T = TypeVar("T")


@dataclass
class _DeviceContext(Generic[T]):
    """``async with Driver.open(...) as driver`` (or ``await ctx.start()`` / ``close()``)."""

    device: T
    runner: _PortRunner
    endpoints: list[_Endpoint]

    async def start(self) -> T:
        self.runner.start()
        return self.device

    async def close(self) -> None:
        await self.runner.stop()
        for e in self.endpoints:
            e.fail_all("the driver was closed")

    async def __aenter__(self) -> T:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
