"""The MicroPython reference firmware as the simulated table's panels.

``SimRig(..., firmware_panels=True)`` puts every seat panel and the dealer
panel, as ``firmware_bridge/firmware/`` under real MicroPython
(:mod:`hardware_sim.firmware_runner`, several panels in one interpreter on one
bus pty), behind the bus port. The simulated people still see and press a
:class:`~hardware_sim.devices.panels.Panel` each: :class:`FirmwarePanel` shows
what the firmware's simulated display and lamps show (read from its HAL every
few ms by :class:`FirmwarePanels`' watcher thread) and presses the firmware's
simulated buttons (debounced by the firmware, as a real press).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firmware_bridge.device import SEAT_BUTTONS
from firmware_bridge.wire import ADDRESS_DEALER, Button
from hardware_sim.clock import Clock
from hardware_sim.devices.panels import EXTRA_SEAT_BUTTONS, Panel, PanelBus
from hardware_sim.firmware_runner import FirmwareRunnerError, MicroPythonDevice

#: how often the watcher reads the firmware's displays and lamps (s)
WATCH_EVERY = 0.01
#: how long a simulated finger holds a button (the firmware debounces 20 ms)
PRESS_MS = 60


class FirmwarePanel(Panel):
    """One panel as a person meets it; the firmware behind it does the work."""

    device: MicroPythonDevice | None = None
    index = 0

    def press(self, button: Button) -> bool:
        if button not in self.buttons:
            raise ValueError(f"the {self.name} panel has no {button.name} button")
        assert self.device is not None, "start the firmware panels first"
        self.presses += 1
        if self.offline:  # a panel in fail-safe ignores presses (protocol.md section 9)
            self.ignored_presses += 1
            return False
        self.device.control("press", dev=self.index, code=int(button), ms=PRESS_MS)
        return True

    def show(self, lights: int, text: str) -> None:
        """What the watcher read from the firmware (on the rig's loop)."""
        if (lights, text) != (self.lights, self.text):
            self.lights, self.text = lights, text
            self._changed()

    @property
    def safe_to_reboot(self) -> bool:
        return False  # the rig does not reboot the firmware panels

    def reboot(self) -> None:
        raise NotImplementedError("the rig does not reboot the firmware panels")


class FirmwarePanels(PanelBus):
    """Every panel of the table in one MicroPython interpreter on one bus pty."""

    def __init__(self, clock: Clock, seats: Mapping[str, int]) -> None:
        super().__init__(clock, seats, panel_cls=FirmwarePanel)
        self.device: MicroPythonDevice | None = None
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None

    def start(self, link_dir: Path | None, loop: asyncio.AbstractEventLoop) -> None:
        configs: list[dict[str, Any]] = []
        seat_codes = [int(b) for b in (*SEAT_BUTTONS, *EXTRA_SEAT_BUTTONS)]
        for i, panel in enumerate(self.panels.values()):
            assert isinstance(panel, FirmwarePanel)
            panel.index = i
            if panel.address == ADDRESS_DEALER:
                configs.append({"kind": "dealer", "address": ADDRESS_DEALER,
                                "unique_id": "DEALER01"})
            else:
                configs.append({"kind": "seat", "address": panel.address,
                                "unique_id": f"SEAT{panel.address:04d}",
                                "buttons": seat_codes})
        self.device = MicroPythonDevice(configs, "panels", link_dir).start()
        for panel in self.panels.values():
            assert isinstance(panel, FirmwarePanel)
            panel.device = self.device
        self._watcher = threading.Thread(target=self._watch, args=(loop,),
                                         name="firmware-panels", daemon=True)
        self._watcher.start()

    def stop(self) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(5)
        if self.device is not None:
            self.device.close()
            self.device = None

    @property
    def url(self) -> str:
        assert self.device is not None, "start the firmware panels first"
        return self.device.url

    def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        device = self.device
        assert device is not None
        while not self._stop.wait(WATCH_EVERY):
            for panel in self.panels.values():
                assert isinstance(panel, FirmwarePanel)
                try:
                    world = device.control("world", dev=panel.index)
                except (FirmwareRunnerError, RuntimeError, TimeoutError):
                    return
                line1, line2 = world["text"]
                text = f"{line1}\n{line2}" if line2 else line1
                try:
                    loop.call_soon_threadsafe(panel.show, int(world["lights"]), text)
                except RuntimeError:  # the rig's loop has closed
                    return
