"""The asyncio wiring: devices and camera in, :class:`TableCore` in the middle,
gate, lamps, panel texts and snapshots out.

Thin on purpose: every decision is in :mod:`controller.core` (tested without
ports); this module only moves events and wanted state.  One pusher task per
device sends the *latest* wanted state (absolute commands, so a slow or dead
panel never holds back the shoe's gate, and intermediate states are skipped),
and the drivers re-send it after a reboot.  The camera is read in a worker
thread so the recogniser never stalls the serial links.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Protocol

from controller.core import CardRead, Event, LinkChanged, TableCore
from controller.publish import CommandResult, Listener, Publisher, TableSnapshot
from controller.snapshot import build_snapshot
from controller.tablets import Tablets
from firmware_bridge import host
from firmware_bridge.wire import ADDRESS_DEALER, Button
from vision.passes import NO_PASS

log = logging.getLogger(__name__)


class Camera(Protocol):
    def grab(self) -> Any: ...


class PanelLink(Protocol):
    """A seat or dealer panel as the table drives it (``firmware_bridge.drivers.SeatPanel``)."""

    async def set_text(self, text: str) -> None: ...

    async def set_lights(self, mask: int) -> None: ...

    def events(self) -> AsyncIterator[host.HostEvent]: ...


class ShoeLink(Protocol):
    """The shoe as the table drives it (``firmware_bridge.drivers.Shoe``, or
    :class:`controller.shoe_feed.JournalledShoe` around one)."""

    async def set_gate(self, locked: bool) -> None: ...

    async def set_lights(self, mask: int) -> None: ...

    def events(self) -> AsyncIterator[host.HostEvent]: ...


class BusLink(Protocol):
    """The panel bus (``firmware_bridge.drivers.PanelBus``): seats by address, the dealer."""

    @property
    def seats(self) -> Mapping[int, PanelLink]: ...

    @property
    def dealer(self) -> PanelLink | None: ...


class Reader(Protocol):
    def read(self, frame: Any, *, look_at: Any = None) -> Any: ...


class _Pusher:
    """Keeps one device at the core's wanted state, latest value wins."""

    def __init__(self, name: str, send: Callable[[Any], Any], device: str) -> None:
        self.name = name
        self.send = send
        #: the device link whose return means "send it all again"
        self.device = device
        self.wanted: Any = None
        self.sent: Any = None
        self.dirty = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def want(self, value: Any) -> None:
        if value != self.wanted:
            self.wanted = value
            self.dirty.set()

    def resend(self) -> None:
        self.sent = None
        forget = getattr(self.send, "forget", None)
        if forget is not None:
            forget()
        self.dirty.set()

    async def run(self) -> None:
        while True:
            await self.dirty.wait()
            self.dirty.clear()
            value = self.wanted
            if value == self.sent:
                continue
            try:
                await self.send(value)
                self.sent = value
            except Exception as exc:  # a refused command must not stop the table
                log.warning("%s: could not set %r: %s", self.name, value, exc)
                await asyncio.sleep(0.05)
                self.dirty.set()


def _panel_name(address: int) -> str:
    return "dealer panel" if address == ADDRESS_DEALER else f"seat {address}"


def _button_label(code: int) -> str:
    try:
        return Button(code).name
    except ValueError:
        return f"button {code}"


def _panel_sender(panel: PanelLink) -> Callable[[Any], Any]:
    """Text first, then lamps: a person who sees a lamp light reads a current text."""
    last: dict[str, Any] = {}

    async def send(value: tuple[str, int]) -> None:
        text, lights = value
        if last.get("text") != text:
            await panel.set_text(text)
            last["text"] = text
        if last.get("lights") != lights:
            await panel.set_lights(lights)
            last["lights"] = lights

    def forget() -> None:
        last.clear()

    send.forget = forget  # type: ignore[attr-defined]
    return send


class Table:
    """A running table: implements :class:`controller.publish.TableLink`."""

    def __init__(
        self,
        core: TableCore,
        *,
        shoe: ShoeLink | None = None,
        bus: BusLink | None = None,
        camera: Camera | None = None,
        recognizer: Reader | None = None,
        frames: int = 3,
        max_grabs: int = 12,
        publisher: Publisher | None = None,
        clock: Callable[[], float] = time.monotonic,
        passes: Any | None = None,
    ) -> None:
        self.core = core
        self.shoe = shoe
        self.bus = bus
        self.camera = camera
        self.recognizer = recognizer
        self.frames = frames
        self.max_grabs = max_grabs
        self.publisher = publisher or Publisher()
        #: the in-shoe camera's passes (``vision.pass_capture.PassCapture``): each
        #: card is read from the pass paired with its CARD_OUT by ``device_ms``
        #: (docs/hardware.md section 2.7) instead of from frames grabbed after it
        self.passes = passes
        self.changed = asyncio.Condition()
        self._tasks: list[asyncio.Task[Any]] = []
        self._pushers: dict[str, _Pusher] = {}
        #: card-outs to read: event number, and its time on the host's clock
        self._reads: asyncio.Queue[tuple[int, float | None]] = asyncio.Queue()
        #: seconds from a card-out event's arrival to its snapshot, for the benchmark
        self.card_latencies: list[float] = []
        self._card_arrived: dict[int, float] = {}
        self.generation = 0
        self._refresh_due = False
        #: grabs the next camera frame while the recogniser reads the current one
        self._grabber: ThreadPoolExecutor | None = None
        #: the dealer's paired tablets (codes on the dealer panel; ``clock`` times them)
        self.tablets = Tablets(note=core.journal.note, changed=self._refresh_soon, clock=clock,
                               table=core.setup.table,
                               has_panel=bus is not None and bus.dealer is not None)

    # -- life cycle ---------------------------------------------------------------

    async def start(self) -> None:
        if self.shoe is not None:
            gate = _Pusher("shoe gate", self.shoe.set_gate, "shoe")
            lights = _Pusher("shoe lights", self.shoe.set_lights, "shoe")
            self._pushers.update({"gate": gate, "shoe_lights": lights})
            self._spawn(self._device_events("shoe", self.shoe))
        if self.bus is not None:
            panels: dict[int, PanelLink] = dict(self.bus.seats)
            if self.bus.dealer is not None:
                panels[ADDRESS_DEALER] = self.bus.dealer
            for address, panel in panels.items():
                name = _panel_name(address)
                self._pushers[f"panel {address}"] = _Pusher(name, _panel_sender(panel), name)
                self._spawn(self._panel_events(address, panel))
        for pusher in self._pushers.values():
            pusher.task = self._spawn(pusher.run())
        if self.camera is not None and self._grabber is None:
            self._grabber = ThreadPoolExecutor(1, thread_name_prefix="camera-grab")
        self._spawn(self._camera_worker())
        self.refresh()

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        if self._grabber is not None:
            self._grabber.shutdown(wait=True, cancel_futures=True)
            self._grabber = None

    async def __aenter__(self) -> Table:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.append(task)
        return task

    # -- outputs ------------------------------------------------------------------

    def refresh(self) -> None:
        """Push the core's wanted device state and publish a snapshot (now)."""
        self._refresh_due = False
        for name, counts in self.link_counts().items():
            self.core.note_link_counts(name, counts)
        outputs = self.core.outputs()
        if "gate" in self._pushers:
            self._pushers["gate"].want(outputs.gate_locked)
            self._pushers["shoe_lights"].want(outputs.shoe_lights)
        overlay = self.tablets.panel_text()  # a pairing code: on the panel, in no snapshot
        for address, view in outputs.panels.items():
            pusher = self._pushers.get(f"panel {address}")
            if pusher is not None:
                text = overlay if overlay is not None and address == ADDRESS_DEALER else view.text
                pusher.want((text, view.lights))
        self.generation += 1
        self.publisher.publish(build_snapshot(self.core, outputs))
        self._notify()

    def link_counts(self) -> dict[str, dict[str, int]]:
        """Per device link ("shoe", "seat N", "dealer panel"), what it dropped or
        sent again (``LinkCounters.drops``), read from the drivers now."""
        links: dict[str, Any] = {}
        if self.shoe is not None:
            links["shoe"] = self.shoe
        if self.bus is not None:
            for address, panel in self.bus.seats.items():
                links[_panel_name(address)] = panel
            if self.bus.dealer is not None:
                links[_panel_name(ADDRESS_DEALER)] = self.bus.dealer
        out: dict[str, dict[str, int]] = {}
        for name, link in links.items():
            # a driver without counters (a test's stand-in) is simply left out
            drops = getattr(getattr(link, "counters", None), "drops", None)
            if callable(drops):
                out[name] = dict(drops())
        return out

    def pushed(self) -> dict[str, tuple[Any, Any]]:
        """Per device output ("gate", "shoe_lights", "panel N"): the value the table
        wants there and the last one sent (equal once delivered); for diagnostics."""
        return {name: (p.wanted, p.sent) for name, p in self._pushers.items()}

    def _refresh_soon(self) -> None:
        """One refresh for every event handled in this turn of the loop.

        Events that arrive together (a frame carrying a result and an event,
        a card read and the next card-out) are all applied before the wanted
        state and the snapshot are worked out once; the refresh still runs
        before the loop waits for anything else.
        """
        if self._refresh_due:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a plain call from a test): now
            self.refresh()
            return
        self._refresh_due = True
        loop.call_soon(self._deferred_refresh)

    def _deferred_refresh(self) -> None:
        if self._refresh_due:
            self.refresh()

    def _notify(self) -> None:
        async def notify() -> None:
            async with self.changed:
                self.changed.notify_all()

        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(notify())

    async def wait_change(self, generation: int, timeout: float | None = None) -> int:
        """Wait until a snapshot newer than ``generation`` was published."""
        async with self.changed:
            await asyncio.wait_for(  # noqa: TID251
                self.changed.wait_for(lambda: self.generation > generation), timeout
            )
        return self.generation

    def feed(self, event: Event) -> None:
        self.core.handle(event)
        self._refresh_soon()

    # -- inputs -------------------------------------------------------------------

    async def _device_events(self, name: str, device: ShoeLink) -> None:
        async for event in device.events():
            self._on_device_event(name, event)

    def _on_device_event(self, name: str, event: host.HostEvent) -> None:
        """A physical fact goes to the core as the bridge reported it (the core
        ignores what it has no handler for); a link's news becomes the table's
        own :class:`LinkChanged`, and a card-out also starts the camera."""
        handler = _ON_EVENT.get(type(event))
        if handler is not None:
            handler(self, name, event)
        elif isinstance(event, host.DeviceEvent):
            self.feed(event)

    def _card_out(self, name: str, event: host.CardOut) -> None:
        self._card_arrived[event.event_no] = time.perf_counter()
        self.feed(event)
        self._reads.put_nowait((event.event_no, self._host_time(event)))

    def _host_time(self, event: host.CardOut) -> float | None:
        """The card-out's ``device_ms`` on the host's clock, from the shoe's
        session (its PONGs); None when not known or when the event is of an
        earlier boot of the shoe (its clock is not this session's)."""
        session = getattr(self.shoe, "session", None)
        if self.passes is None or session is None:
            return None
        cursor = getattr(session, "cursor", None)
        if cursor is not None and event.boot_id and cursor.boot_id != event.boot_id:
            return None
        when: float | None = session.host_time(event.device_ms)
        return when

    def _link_up(self, name: str, event: host.LinkUp) -> None:
        self.feed(LinkChanged(name, True, event.rebooted, event.events_lost))
        for pusher in self._pushers.values():
            if pusher.device == name:
                pusher.resend()

    def _link_down(self, name: str, event: host.LinkDown) -> None:
        self.feed(LinkChanged(name, False, reason=event.reason))

    def _events_lost(self, name: str, event: host.EventsLost) -> None:
        lost = event.last_event_no - event.first_event_no + 1
        self.feed(LinkChanged(name, True, events_lost=lost, reason=event.reason))

    async def _panel_events(self, address: int, panel: PanelLink) -> None:
        name = _panel_name(address)
        async for event in panel.events():
            if isinstance(event, host.EventsLost):
                continue  # a lost press is pressed again; only the shoe's lost cards matter
            if isinstance(event, host.ButtonPressed) and address == ADDRESS_DEALER:
                self.tablets.press(event.button, event.device_ms, event.boot_id)
            self._on_device_event(name, event)
            if isinstance(event, host.ButtonPressed) and log.isEnabledFor(logging.DEBUG):
                log.debug("%s: %s pressed%s", name, _button_label(event.button),
                          f", refused: {self.core.refusals[address]!r}"
                          if address in self.core.refusals else "")

    async def _camera_worker(self) -> None:
        while True:
            event_no, when = await self._reads.get()
            if self.passes is not None:
                card, detail, guesses = await asyncio.to_thread(self._read_pass, when)
            else:
                card, detail, guesses = await self._read_card_guesses()
            self.feed(CardRead(event_no, card, detail, guesses))
            arrived = self._card_arrived.pop(event_no, None)
            if arrived is not None:
                self.card_latencies.append(time.perf_counter() - arrived)

    async def _read_card(self) -> tuple[str | None, str]:
        card, detail, _ = await self._read_card_guesses()
        return card, detail

    async def _read_card_guesses(self) -> tuple[str | None, str, tuple[tuple[str, float], ...]]:
        """The card, why not (when unsure) and the likeliest cards (when unsure)."""
        if self.camera is None or self.recognizer is None:
            return None, "no camera", ()
        return await asyncio.to_thread(self._read_blocking)

    def _read_pass(
        self, when: float | None
    ) -> tuple[str | None, str, tuple[tuple[str, float], ...]]:
        """The in-shoe camera: the card from the pass paired with its CARD_OUT
        (host time ``when``); none paired (the frames were lost, or the event
        was resent long after, e.g. following a restart): the dealer confirms."""
        assert self.passes is not None
        found = self.passes.take(when)
        read_pass = getattr(self.recognizer, "read_pass", None)
        if found is None or read_pass is None:
            return None, NO_PASS, ()
        read = read_pass(found.frames)
        return read.card, read.reason, read.guesses

    def _read_blocking(self) -> tuple[str | None, str, tuple[tuple[str, float], ...]]:
        """Grab and read frames, adding up their evidence, until it names a card
        (``vision.evidence.FrameFusion``: at least ``frames`` frames showed an
        index, the card leads clearly and some corner accepted it) or
        ``max_grabs`` frames were read.

        The next frame is grabbed while this one is read, but only when this
        one cannot complete the decision, so exactly the same frames are
        grabbed as one by one (a camera fault still hits the same frames) and
        none is grabbed for nothing.
        """
        from vision.evidence import FrameFusion

        assert self.camera is not None and self.recognizer is not None
        read_live = getattr(self.recognizer, "read_live", None)
        if getattr(self.recognizer, "reads_passes", False) and read_live is not None:
            # the in-shoe camera: the card's pass over the window, fused
            # (``vision.in_shoe.InShoeReader.read_live``, as ``vision pass``)
            read = read_live(self.camera.grab)
            return read.card, read.reason, read.guesses
        camera = self.camera
        fusion = FrameFusion(min_frames=self.frames)
        grabber = self._grabber
        ahead: Future[Any] | None = None
        last: Any = None  # the previous frame's reading, while it named a card
        for i in range(self.max_grabs):
            frame = ahead.result() if ahead is not None else camera.grab()
            ahead = None
            more = i + 1 < self.max_grabs and fusion.used + 1 < self.frames
            if more and grabber is not None:
                ahead = grabber.submit(camera.grab)
            if frame is None:
                fusion.push_missing("no frame")
                continue
            reading = self._read_frame(frame, last)
            last = reading if reading.card is not None else None
            fusion.push(reading)
            if fusion.ready():
                return fusion.decide().card, "", ()
        final = fusion.decide(final=True)
        return final.card, final.reason, final.guesses

    def _read_frame(self, frame: Any, last: Any) -> Any:
        """One frame's reading.  A card at rest lies where it lay a frame ago, so
        its corners are read there first, skipping the search for its outline
        (a third of a read).  That reading counts only when it names the card
        the last frame named: anything else (the card moved, another card, an
        unsure corner) is read again from scratch, so every agreeing frame
        still read the card from its own pixels, and no frame is judged by a
        shortcut that could disagree."""
        assert self.recognizer is not None
        quad = getattr(last, "quad", None)
        if quad is not None:
            reading = self.recognizer.read(frame, look_at=quad)
            if reading.card == last.card:
                return reading
        return self.recognizer.read(frame)

    # -- the TableLink --------------------------------------------------------------

    def snapshot(self) -> TableSnapshot:
        return self.publisher.latest or build_snapshot(self.core)

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        return self.publisher.add_listener(listener)

    async def command(self, name: str, args: Mapping[str, Any] | None = None) -> CommandResult:
        """A dealer command (:data:`controller.dealer_commands.COMMANDS`), then a refresh."""
        result = self.core.command(name, args)
        self.refresh()
        return result


#: host event type -> what the table does with it before (or instead of) the core
_ON_EVENT: dict[type, Callable[[Table, str, Any], None]] = {
    host.CardOut: Table._card_out,
    host.LinkUp: Table._link_up,
    host.LinkDown: Table._link_down,
    host.EventsLost: Table._events_lost,
}
