"""The button panels: every seat's and the dealer's, on one RS-485 bus.

Each :class:`Panel` is a polled :class:`DeviceCore` (it speaks only when the
host polls its address) plus its lamps, its 2×16 text and its buttons. A
:class:`PanelBus` puts them all behind one :class:`BusEndpoint`, i.e. one
serial port, as the real table's USB-to-RS-485 adapter does.

People read a panel (:attr:`Panel.lights`, :attr:`Panel.text`,
:meth:`Panel.lit_buttons`) and press its buttons (:meth:`Panel.press`); a
listener is told whenever the host changes the lamps or the text, so a
simulated person reacts the moment a real one would see the change.

Example (on the rig's loop thread)::

    bus = PanelBus(clock, seats={"Ann": 1, "Ben": 2})
    bus.seat("Ann").press(Button.STAKE_UP)
    bus.dealer.lit_buttons()        # {Button.NEXT, Button.PAUSE}
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping

from firmware_bridge.device import (
    SEAT_BUTTONS,
    BusEndpoint,
    DeviceCore,
    DeviceIdentity,
    dealer_identity,
    seat_identity,
)
from firmware_bridge.wire import ADDRESS_DEALER, Button, Light, ResultCode, button_light
from hardware_sim.clock import Clock
from hardware_sim.devices.wiring import Wire

#: the variants' extra buttons; every simulated seat panel has them all
EXTRA_SEAT_BUTTONS = (Button.DOUBLE, Button.SHOOT, Button.INSURE, Button.EVEN_MONEY)

Listener = Callable[["Panel"], None]

#: debug lines trace every lamp, text and press: a stalled soak game's story
log = logging.getLogger(__name__)


def lamp_names(panel: Panel) -> str:
    return ",".join(sorted(b.name for b in panel.lit_buttons())) + (
        " OFFLINE" if panel.offline else "")


class Panel:
    """One panel's electronics: lamps, text, buttons, and its firmware core."""

    def __init__(self, name: str, identity: DeviceIdentity, address: int, clock: Clock) -> None:
        self.name = name
        self.identity = identity
        self.address = address
        self.clock = clock
        self.lights = 0
        self.text = ""
        self.version = 0  # +1 on every change of lamps or text
        self.presses = 0
        self.ignored_presses = 0
        self.reboots = 0
        self.listeners: list[Listener] = []
        self.core = self._new_core()
        self.wire: Wire | None = None

    def _new_core(self) -> DeviceCore:
        return DeviceCore(self.identity, self, address=self.address, now=self.clock.now(),
                          polled=True)

    # -- the Hardware interface the firmware core drives ----------------------------------
    def set_gate(self, locked: bool) -> ResultCode:
        return ResultCode.NOT_SUPPORTED

    def set_lights(self, mask: int) -> ResultCode:
        if mask != self.lights:
            self.lights = mask
            self._changed()
        return ResultCode.OK

    def set_text(self, text: str) -> ResultCode:
        if text != self.text:
            self.text = text
            self._changed()
        return ResultCode.OK

    def dispense(self) -> ResultCode:
        return ResultCode.NOT_SUPPORTED

    def _changed(self) -> None:
        self.version += 1
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s panel shows [%s] %r", self.name, lamp_names(self), self.text)
        for listener in list(self.listeners):
            listener(self)

    # -- what a person sees and does ---------------------------------------------------------
    @property
    def buttons(self) -> frozenset[Button]:
        caps = self.identity.capabilities
        return frozenset(b for b in Button if caps & button_light(b))

    def lit_buttons(self) -> frozenset[Button]:
        return frozenset(b for b in self.buttons if self.lights & button_light(b))

    @property
    def offline(self) -> bool:
        return bool(self.lights & Light.OFFLINE)

    def press(self, button: Button) -> bool:
        """Press and release ``button``; False when the firmware ignored it (fail-safe)."""
        if button not in self.buttons:
            raise ValueError(f"the {self.name} panel has no {button.name} button")
        self.presses += 1
        if self.core.emit_button(button, self.clock.now()) is None:
            self.ignored_presses += 1
            log.debug("%s panel: %s pressed, ignored by the firmware", self.name, button.name)
            return False
        log.debug("%s panel: %s pressed", self.name, button.name)
        # Polled: the event waits for the host's next poll of this address.
        return True

    def reboot(self) -> None:
        """Power cycle this panel alone (a loose connector)."""
        self.reboots += 1
        log.debug("%s panel reboots", self.name)
        self.core = self._new_core()
        if self.wire is not None:
            endpoint = self.wire.firmware
            if isinstance(endpoint, BusEndpoint):
                endpoint.devices[self.address] = self.core
            self.wire.kick()

    @property
    def safe_to_reboot(self) -> bool:
        c = self.core
        return c.last_event_no == 0 or bool(c.session and c.streaming and c.link.idle)


class PanelBus:
    """Every seat panel plus the dealer panel on one RS-485 bus (one serial port)."""

    def __init__(
        self,
        clock: Clock,
        seats: Mapping[str, int],
        *,
        seat_buttons: Iterable[Button] = (*SEAT_BUTTONS, *EXTRA_SEAT_BUTTONS),
        dealer: bool = True,
        panel_cls: type[Panel] = Panel,
    ) -> None:
        buttons = tuple(seat_buttons)
        self.panels: dict[int, Panel] = {}
        self.by_name: dict[str, Panel] = {}
        for name, address in seats.items():
            if not 1 <= address <= 14:
                raise ValueError(f"seat panel {name!r}: address {address} must be 1-14")
            if address in self.panels:
                raise ValueError(f"seat panels {name!r} and {self.panels[address].name!r} "
                                 f"share address {address}")
            self._add(panel_cls(name, seat_identity(address, buttons), address, clock))
        self.dealer: Panel | None = None
        if dealer:
            self.dealer = panel_cls("dealer", dealer_identity(), ADDRESS_DEALER, clock)
            self._add(self.dealer)
        self.endpoint = BusEndpoint(p.core for p in self.panels.values())

    def _add(self, panel: Panel) -> None:
        self.panels[panel.address] = panel
        self.by_name[panel.name] = panel

    def seat(self, name: str) -> Panel:
        try:
            return self.by_name[name]
        except KeyError:
            raise KeyError(f"no panel for {name!r}; seats: {', '.join(self.by_name)}") from None

    def attach(self, wire: Wire) -> None:
        for panel in self.panels.values():
            panel.wire = wire

    def add_listener(self, listener: Listener) -> None:
        for panel in self.panels.values():
            panel.listeners.append(listener)

    @property
    def safe_to_reboot(self) -> bool:
        return all(p.safe_to_reboot for p in self.panels.values())

    def reboot(self) -> None:
        """The bus's power supply glitches: every panel reboots."""
        for panel in self.panels.values():
            panel.reboot()
