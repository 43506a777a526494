"""The whole simulated hardware of one table, started and stopped as one object.

A :class:`SimRig` owns the physical table (:class:`~hardware_sim.world.World`),
the emulated shoe on its own serial port, every seat panel plus the dealer
panel on one RS-485 bus port, the simulated camera at the shoe's exit, the
fault injector and the simulated people. It all runs on one background asyncio
loop (:mod:`hardware_sim.loop`), beside whatever the caller runs, the way
firmware runs on its own microcontrollers; the public methods are thread-safe
and may be called from the controller's loop or from a test.

Usage (what ``pontoon-table sim`` and the end-to-end tests do)::

    from hardware_sim.rig import SimRig
    from firmware_bridge.drivers import Shoe, PanelBus

    rig = SimRig(seats={"Ann": 1, "Ben": 2}, faults="light", seed=7)
    # or SimRig.for_scenario(load_scenario("tests/scenarios/house-buy-example.json"))
    with rig:                                   # start(); stop() on exit
        rig.shoe_url       # "/tmp/pontoon-sim-xxxx/shoe"  (a pty; or socket://127.0.0.1:NNNN)
        rig.bus_url        # "/tmp/pontoon-sim-xxxx/panels": seats at addresses 1.., dealer 15
        rig.camera         # a hardware_sim.camera.SimCamera: vision's CameraSource (grab())
        async with Shoe.open(rig.shoe_url) as shoe, \\
                   PanelBus.open(rig.bus_url, seats=[1, 2]) as bus:
            ...                                 # the controller talks to the devices
        # Simulated people (hardware_sim.people) act on the devices:
        rig.start_dealer()                      # deals whenever the shoe's gate opens
        rig.perform("Ann", PlaceStake("Ann", 2))  # presses STAKE_UP.., CONFIRM on Ann's panel
        await rig.perform_async("Ann", Decide("Ann", "twist"))  # the same, from a loop
        rig.start_bots({"Ben": "stick17"})      # or "buy11", "random"
        # Hands and faults, directly:
        rig.pull_card()                         # a hand pulls a card (refused if locked)
        rig.press("Ann", Button.TWIST)
        rig.unplug("shoe", seconds=0.5); rig.reboot("panels"); rig.blackout(3)
        rig.report()                            # what was dealt, pressed and injected
        rig.warm_up()                           # render the deck now, not during the first deal

The recogniser reads the simulated deck with its own calibrated profile
(``hardware_sim.camera.profile_cache.camera_profile(rig.camera)``), as a real
table is calibrated once for its deck.  Starting a rig limits OpenCV to the
calling thread (``opencv_threads=1``; None leaves OpenCV alone): its worker
pool costs CPU on frames this small without making them faster.

Scenario mode (:meth:`SimRig.for_scenario`) stacks the shoe with exactly the
cards ``pontoon-table replay`` would deal (computed by the rules engine itself,
see :mod:`hardware_sim.scenario_deck`), so ``sim --scenario`` and ``replay``
agree card for card. Otherwise the shoe holds the engine's seeded :class:`Pack`.

The shoe port is a direct USB link (address 0); the panels answer at their
seat address (1-14) and the dealer panel at 15, only when polled.

``SimRig(..., firmware_shoe=True)`` puts the MicroPython reference firmware
(``firmware_bridge/firmware/``, run under real MicroPython by
:mod:`hardware_sim.firmware_runner`) behind the shoe port instead of the
emulator: the world's hands pull cards through its simulated HAL
(:class:`hardware_sim.devices.firmware_shoe.FirmwareShoe`). Opt-in; no motor,
no faults, no bot table's dealer with it. ``firmware_panels=True`` does the
same for the panel bus (:mod:`hardware_sim.devices.firmware_panels`): every
panel is the firmware, its display and lamps read back for the people.

``SimRig(..., inline=True)``, started from inside a running asyncio loop, runs
the devices on that loop instead of a thread of their own (the benchmark's
choice: one busy thread fewer fighting for the GIL, no hand-offs between
threads); the bytes still go through real ptys.  :meth:`SimRig.perform` then
cannot be used (it blocks); :meth:`SimRig.perform_async` can.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from controller.rules import Action
from firmware_bridge.wire import Button
from hardware_sim.clock import Clock
from hardware_sim.devices.firmware_panels import FirmwarePanels
from hardware_sim.devices.firmware_shoe import FirmwareShoe
from hardware_sim.devices.panels import Panel, PanelBus
from hardware_sim.devices.shoe import ShoeEmulator
from hardware_sim.devices.wiring import Wire
from hardware_sim.faults import FaultConfig, FaultCounters, FaultPlan, ScheduledFault
from hardware_sim.loop import BackgroundLoop
from hardware_sim.people import Bot, SimDealer, perform_on_panel
from hardware_sim.ports import Port, make_port
from hardware_sim.world import CardSource, PackSource, Pull, ScriptedSource, World

T = TypeVar("T")

DEVICES = ("shoe", "panels")


class SimRig:
    """Shoe, panel bus, camera, people and faults of one simulated table."""

    def __init__(
        self,
        seats: Mapping[str, int],
        *,
        cards: CardSource | None = None,
        packs: int = 1,
        seed: int = 0,
        faults: FaultConfig | str = "none",
        clock: Clock | None = None,
        port_kind: str = "pty",
        camera: Any = "builtin",
        camera_preset: str = "normal",
        camera_mode: str = "in_shoe",
        motor: bool = False,
        link_dir: Path | None = None,
        opencv_threads: int | None = 1,
        inline: bool = False,
        firmware_shoe: bool = False,
        firmware_panels: bool = False,
    ) -> None:
        self.seats = dict(seats)
        self.inline = inline
        self.opencv_threads = opencv_threads
        self.seed = seed
        self.clock = clock or Clock.fast()
        self.faults = FaultConfig.parse(faults) if isinstance(faults, str) else faults
        self.counters = FaultCounters()
        self.plan = FaultPlan(self.faults, random.Random(seed + 101), self.counters)
        self.port_kind = port_kind
        self.world = World(source=cards or PackSource(packs, seed))
        self.camera = self._make_camera(camera, camera_preset, seed, camera_mode)
        self.shoe = ShoeEmulator(self.world, self.clock, camera=self.camera, motor=motor)
        #: the MicroPython firmware behind the shoe port instead of ``self.shoe``'s core
        self.firmware: FirmwareShoe | None = None
        if firmware_shoe:
            if motor or self.faults != FaultConfig():
                raise ValueError("the firmware shoe runs without a motor and without faults")
            self.firmware = FirmwareShoe(self.world, self.clock, camera=self.camera, seed=seed)
        self.firmware_panels: FirmwarePanels | None = None
        if firmware_panels:
            if self.faults != FaultConfig():
                raise ValueError("the firmware panels run without faults")
            self.firmware_panels = FirmwarePanels(self.clock, self.seats)
        self.panels: PanelBus = self.firmware_panels or PanelBus(self.clock, self.seats)
        self._own_dir = link_dir is None
        self.link_dir = link_dir
        self.bg: BackgroundLoop | None = None
        self.ports: dict[str, Port] = {}
        self.wires: dict[str, Wire] = {}
        self.people: list[Any] = []
        self._tasks: list[asyncio.Task[Any]] = []
        self.log: list[str] = []

    # -- construction helpers --------------------------------------------------------
    @classmethod
    def for_scenario(cls, scenario: Any, **kwargs: Any) -> SimRig:
        """Seats from the scenario's players (addresses 1..n); the shoe deals its cards."""
        from hardware_sim.scenario_deck import scenario_cards

        cards = scenario_cards(scenario)
        rest = PackSource(packs=scenario.rules.packs_for(len(scenario.players))
                          if hasattr(scenario.rules, "packs_for") else 1,
                          seed=scenario.seed)
        seats = {name: i + 1 for i, name in enumerate(scenario.players)}
        kwargs.setdefault("seed", scenario.seed)
        return cls(seats, cards=ScriptedSource(cards, rest), **kwargs)

    @staticmethod
    def _make_camera(camera: Any, preset: str, seed: int, mode: str = "in_shoe") -> Any:
        if camera is None or camera is False:
            return None
        if not isinstance(camera, str):
            return camera  # an object with show()/grab()/inject()
        from hardware_sim.camera import SimCamera

        return SimCamera(camera, preset=preset, seed=seed, mode=mode)

    # -- life cycle --------------------------------------------------------------------
    def start(self) -> SimRig:
        if self.bg is not None:
            return self
        if self.opencv_threads is not None:
            # The camera's frames and the recogniser's reads are small: OpenCV's
            # worker pool only spin-waits beside them (measured 28 -> 18 ms CPU
            # per card read, same wall time) and takes the core the serial
            # links and the other tables need.  Process-wide, as OpenCV is.
            import cv2

            cv2.setNumThreads(self.opencv_threads)
        if self.port_kind == "pty" and self.link_dir is None:
            self.link_dir = Path(tempfile.mkdtemp(prefix="pontoon-sim-"))
        elif self.link_dir is not None:
            # a folder named on the command line may not exist yet, as with
            # ``mkdir -p``: the stable port names are made inside it
            self.link_dir.mkdir(parents=True, exist_ok=True)
        if self.firmware is not None:
            self.firmware.start(self.link_dir)
        loop = asyncio.get_running_loop() if self.inline else None
        self.bg = BackgroundLoop("hardware-sim", loop=loop).start()
        self.bg.call(self._start_on_loop)
        if self.firmware_panels is not None:
            self.firmware_panels.start(self.link_dir, self.bg.loop)
        return self

    def warm_up(self) -> None:
        """Render the camera's deck ahead of play (a real camera needs no warm-up;
        the renderer caches each face after its first use)."""
        if self.camera is not None and hasattr(self.camera, "warm_up"):
            self.camera.warm_up()

    def _start_on_loop(self) -> None:
        assert self.bg is not None
        loop = self.bg.loop
        for i, name in enumerate(DEVICES):
            if name == "shoe" and self.firmware is not None:
                continue  # the firmware has its own pty
            if name == "panels" and self.firmware_panels is not None:
                continue
            port = make_port(name, self.port_kind, self.link_dir)
            firmware = self.shoe.core if name == "shoe" else self.panels.endpoint
            wire = Wire(port, firmware, self.clock, self.faults, seed=self.seed * 10 + i,
                        counters=self.counters)
            self.ports[name], self.wires[name] = port, wire
            wire.start(loop)
        if self.firmware is None:
            self.shoe.attach(self.wires["shoe"], loop)
        if self.firmware_panels is None:
            self.panels.attach(self.wires["panels"])
        self.shoe.on_card_out.append(self._on_card_out)

    def stop(self) -> None:
        if self.bg is None:
            return
        with contextlib.suppress(Exception):
            self.bg.call(self._stop_on_loop)
        if self.firmware_panels is not None:
            self.firmware_panels.stop()  # its watcher posts to the loop: stop it first
        self.bg.stop()
        self.bg = None
        if self.firmware is not None:
            self.firmware.stop()
        if self._own_dir and self.link_dir is not None:
            shutil.rmtree(self.link_dir, ignore_errors=True)

    def _stop_on_loop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for wire in self.wires.values():
            wire.stop()

    def __enter__(self) -> SimRig:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- where to connect ------------------------------------------------------------------
    @property
    def shoe_url(self) -> str:
        if self.firmware is not None:
            return self.firmware.url
        return self.ports["shoe"].url

    @property
    def bus_url(self) -> str:
        if self.firmware_panels is not None:
            return self.firmware_panels.url
        return self.ports["panels"].url

    def describe(self) -> dict[str, Any]:
        """What a host needs: port URLs and bus addresses (printed by ``sim-hw``)."""
        return {
            "shoe": self.shoe_url,
            "panels": self.bus_url,
            "seats": dict(self.seats),
            "dealer_panel": 15,
            "faults": self.faults.__dict__ if self.faults else {},
        }

    # -- running things on the loop ------------------------------------------------------
    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the simulator's loop (where the devices live) and return its result."""
        if self.bg is None:
            return fn()
        return self.bg.call(fn)

    def spawn(self, coro: Any) -> None:
        """Start a simulated person (a coroutine) on the simulator's loop."""

        def _start() -> None:
            task = asyncio.ensure_future(coro)
            self._tasks.append(task)
            task.add_done_callback(self._task_done)

        self.call(_start)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.log.append(f"{task.get_coro()!r} failed: {task.exception()!r}")

    # -- hands on the hardware -------------------------------------------------------------
    def pull_card(self, *, force: bool = False) -> Pull:
        """A hand pulls the next card from the shoe (the gate may refuse)."""
        firmware = self.firmware
        if firmware is not None:
            return self.call(lambda: firmware.pull(force=force))
        return self.call(lambda: self.shoe.pull(force=force))

    def shoe_gate_locked(self) -> bool:
        """Whether the shoe's gate holds the cards now (the emulator's or the firmware's)."""
        if self.firmware is not None:
            return self.firmware.gate_locked
        return self.call(lambda: self.shoe.gate_locked)

    def press(self, seat: str, button: Button) -> bool:
        """Press a button on ``seat``'s panel (``"dealer"`` for the dealer panel)."""
        return self.call(lambda: self.panels.seat(seat).press(button))

    def panel(self, seat: str) -> Panel:
        return self.panels.seat(seat)

    def perform(self, person: str, action: Action, timeout: float = 70.0) -> None:
        """Have ``person`` make ``action`` with panel presses (waits for the prompt)."""
        assert self.bg is not None, "start the rig first"
        self.bg.run(perform_on_panel(self, person, action), timeout=timeout)

    async def perform_async(self, person: str, action: Action, timeout: float = 70.0) -> None:
        """:meth:`perform` for a caller on its own asyncio loop (e.g. the controller's)."""
        assert self.bg is not None, "start the rig first"
        future = self.bg.submit(perform_on_panel(self, person, action))
        async with asyncio.timeout(timeout):
            await asyncio.wrap_future(future)

    def start_dealer(self, **kwargs: Any) -> Any:
        dealer = SimDealer(self, **kwargs)
        self.people.append(dealer)
        self.spawn(dealer.run())
        return dealer

    def start_bots(self, strategies: Mapping[str, str], **kwargs: Any) -> list[Any]:
        bots = [Bot(self, seat, strategy, **kwargs) for seat, strategy in strategies.items()]
        for bot in bots:
            self.people.append(bot)
            self.spawn(bot.run())
        return bots

    # -- faults ---------------------------------------------------------------------------------
    def _on_card_out(self, card: str) -> None:
        for fault in self.plan.on_card_out(list(DEVICES)):
            self.inject(fault)

    def inject(self, fault: ScheduledFault) -> None:
        """Carry out a scheduled fault (must run on the loop thread)."""
        if fault.kind == "blackout":
            if self.camera is not None and hasattr(self.camera, "inject"):
                self.camera.inject("blackout", fault.frames)
                self.counters.blackouts += 1
        elif fault.kind == "unplug":
            self._unplug(fault.device, fault.seconds)
        elif fault.kind == "reboot":
            self._reboot_soon(fault.device, tries=20)

    def _reboot_soon(self, device: str, tries: int) -> None:
        """Reboot mid-deal, at the first moment it loses nothing (unless lossy is allowed)."""
        if self._reboot(device, lossy=self.faults.lossy_reboot) or tries <= 0:
            return
        assert self.bg is not None
        self.bg.loop.call_later(0.05, self._reboot_soon, device, tries - 1)

    def unplug(self, device: str, seconds: float = 0.5) -> None:
        """Pull ``device``'s cable (``shoe`` or ``panels``) and put it back after ``seconds``."""
        self.call(lambda: self._unplug(device, seconds))

    def _unplug(self, device: str, seconds: float) -> None:
        wire = self.wires[device]
        if not wire.port.plugged:
            return
        self.counters.unplugs += 1
        self.log.append(f"unplugged {device} for {seconds:g} s")
        wire.unplug()
        assert self.bg is not None
        self.bg.loop.call_later(seconds, wire.replug)

    def replug(self, device: str) -> None:
        self.call(lambda: self.wires[device].replug())

    def reboot(self, device: str, *, lossy: bool = True) -> bool:
        """Power-cycle ``device``; unless ``lossy``, only when it has nothing unacknowledged."""
        return self.call(lambda: self._reboot(device, lossy=lossy))

    def _reboot(self, device: str, *, lossy: bool) -> bool:
        target: ShoeEmulator | PanelBus = self.shoe if device == "shoe" else self.panels
        safe = target.safe_to_reboot
        if not safe and not lossy:
            return False  # a preset never loses an event; try again at the next card
        if not safe:
            self.counters.lost_reboots += 1
        self.counters.reboots += 1
        self.log.append(f"rebooted {device}")
        target.reboot()
        return True

    def blackout(self, frames: int = 3) -> None:
        """The camera sees nothing for the next ``frames`` grabs."""
        self.call(lambda: self.inject(ScheduledFault("blackout", "camera", frames=frames)))

    # -- between deals ------------------------------------------------------------------------
    def collect_cards(self, *, shuffle: bool) -> list[str]:
        """End of a deal: the dealer puts the cards back in the shoe (bottom or shuffled)."""

        def _collect() -> list[str]:
            cards = self.world.collect(shuffle=shuffle)
            if self.firmware is not None:
                self.firmware.refilled()
            else:
                self.shoe.refilled()
            return cards

        return self.call(_collect)

    # -- reporting -----------------------------------------------------------------------------
    def report(self) -> dict[str, Any]:
        def _report() -> dict[str, Any]:
            shoe = self.world.shoe
            return {
                "cards_out": shoe.cards_out,
                "cards_left": shoe.remaining(),
                "gate_locked": shoe.gate_locked,
                "pulls_refused": shoe.refused,
                "gate_forced": shoe.forced,
                "presses": {p.name: p.presses for p in self.panels.panels.values()},
                "mistakes": dict(self.world.mistakes),
                "faults": self.counters.as_dict(),
                "reboots": {"shoe": self.shoe.reboots,
                            "panels": sum(p.reboots for p in self.panels.panels.values())},
                "camera_frames": getattr(self.camera, "frames_grabbed", 0),
                "people": [getattr(p, "stats", {}) for p in self.people],
            }

        return self.call(_report)
