"""The MicroPython reference firmware as the simulated table's shoe.

:class:`FirmwareShoe` stands where :class:`~hardware_sim.devices.shoe.ShoeEmulator`
stands in a :class:`~hardware_sim.rig.SimRig` (``SimRig(..., firmware_shoe=True)``):
the host talks to ``firmware_bridge/firmware/`` running under real MicroPython
(:mod:`hardware_sim.firmware_runner`) over its own pty, and the simulated
world drives the firmware's simulated HAL instead of a ``DeviceCore``:

* the world (:class:`hardware_sim.world.World`) still decides *which* card
  leaves (the scripted or seeded pack) and shows it to the simulated camera;
* the firmware decides *whether* it may leave: a hand's pull asks the
  firmware's gate (``control("world")``), and a card that leaves is pulled
  through the firmware's exit beam (``control("pull")``), so GATE_FORCED,
  CARD_OUT and SHOE_EMPTY are the firmware's own, from its own sensors;
* the firmware's magazine holds as many cards as the world's shoe, reloaded
  when the dealer puts cards back.

Opt-in and partial: no dispense motor, no cable faults or reboots through the
rig, and the gate is read when someone looks (:attr:`gate_locked`,
:attr:`gate_locks`), not pushed to listeners, so the bot table's
``SimDealer`` (which waits to be poked) is not supported; the scenario run is.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware_sim.clock import Clock
from hardware_sim.devices.shoe import Camera
from hardware_sim.firmware_runner import MicroPythonDevice
from hardware_sim.world import Pull, World

#: how long the firmware's exit beam stays broken by one card (ms), and the gap after it
PULL_MS, PULL_GAP_MS = 20, 15


class FirmwareShoe:
    """The firmware shoe behind its own pty, with the world's hand on its HAL."""

    def __init__(
        self,
        world: World,
        clock: Clock,
        *,
        camera: Camera | None = None,
        link_dir: Path | None = None,
        seed: int = 0,
    ) -> None:
        self.world = world
        self.clock = clock
        self.camera = camera
        self.link_dir = link_dir
        self.seed = seed
        self.device: MicroPythonDevice | None = None
        self.reboots = 0
        self.on_card_out: list[Callable[[str], None]] = []
        self.listeners: list[Callable[[], None]] = []  # kept for the rig; never called

    def start(self, link_dir: Path | None) -> MicroPythonDevice:
        """Boot the firmware (blocks until it says ready) with the world's cards loaded."""
        cards = self.world.shoe.remaining()
        boot_seed = (self.seed * 7919 + 1) & 0xFFFFFFFF or 1
        self.device = MicroPythonDevice.shoe(
            link_dir or self.link_dir, cards=cards, boot_seed=boot_seed
        ).start()
        return self.device

    def stop(self) -> None:
        if self.device is not None:
            self.device.close()
            self.device = None

    @property
    def url(self) -> str:
        assert self.device is not None, "start the firmware shoe first"
        return self.device.url

    def _world(self) -> dict[str, Any]:
        assert self.device is not None, "start the firmware shoe first"
        return self.device.control("world")

    @property
    def gate_locked(self) -> bool:
        """The firmware's gate as its HAL drives it, read now."""
        return bool(self._world()["gate_locked"])

    @property
    def gate_locks(self) -> int:
        return int(self._world()["gate_locks"])

    def pull(self, *, force: bool = False, motor: bool = False) -> Pull:
        """A hand takes the next card: the firmware's gate refuses it unless forced;
        a card that leaves crosses the firmware's exit beam."""
        assert self.device is not None, "start the firmware shoe first"
        assert not motor, "the firmware shoe in the rig has no motor"
        with self.world.lock:
            shoe = self.world.shoe
            shoe.gate_locked = self.gate_locked
            outcome = shoe.pull(force=force)
            if outcome.jammed or outcome.refused:
                return outcome
            if outcome.card is not None:
                self.world.took_out(outcome.card)
                if self.camera is not None:
                    self.camera.show(outcome.card)
                for hook in list(self.on_card_out):
                    hook(outcome.card)
            # the hand goes through the gate (forced or not); a card breaks the beam
            self.device.control("pull", n=1, ms=PULL_MS, gap=PULL_GAP_MS)
        return outcome

    def refilled(self) -> None:
        """The dealer put cards back: the firmware's magazine holds what the world's does."""
        assert self.device is not None, "start the firmware shoe first"
        self.device.control("load", cards=self.world.shoe.remaining())

    @property
    def safe_to_reboot(self) -> bool:
        return False

    def reboot(self) -> None:
        raise NotImplementedError("the rig does not reboot the firmware shoe")
