"""The serial link to the card shoe and the seat panels.

A sans-I/O protocol core (framing, CRC, the reliable link) with thin pyserial
transports and typed device drivers on top; see ``docs/protocol.md``.

* :mod:`firmware_bridge.wire` — every constant and the codec (both sides).
* :mod:`firmware_bridge.link` — sequence/ack/window/retransmission, sans-I/O.
* :mod:`firmware_bridge.host` — :class:`HostSession`, the host side, sans-I/O.
* :mod:`firmware_bridge.device` — :class:`DeviceCore`, the firmware logic, sans-I/O.
* :mod:`firmware_bridge.transport` / :mod:`firmware_bridge.drivers` — pyserial
  and asyncio: :class:`Shoe`, :class:`SeatPanel`, :class:`DealerPanel`, :class:`PanelBus`.
* :mod:`firmware_bridge.device_runner` — a device core on a pty or TCP port, in a thread.

Importing the package does not import pyserial or asyncio machinery; import
the submodule you need.
"""
