"""Emulated firmware of the shoe and the button panels.

Each emulator implements the device-side protocol core's small ``Hardware``
interface (:class:`firmware_bridge.device.DeviceCore` is the firmware; this
package is the electronics and mechanics around it) and exposes what a person
can do to the device: pull a card, press a button, read the lamps and text.
:mod:`hardware_sim.devices.wiring` connects a core to a serial port.
"""

from hardware_sim.devices.panels import Panel, PanelBus
from hardware_sim.devices.shoe import ShoeEmulator
from hardware_sim.devices.wiring import Wire

__all__ = ["Panel", "PanelBus", "ShoeEmulator", "Wire"]
