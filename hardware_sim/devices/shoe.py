"""The card shoe's firmware and mechanics: gate, exit sensor, lamps, motor.

The protocol (sessions, event log, fail-safe) is :class:`DeviceCore`'s; this
module is the shoe's body around it, over :class:`hardware_sim.world.ShoeState`:

* a hand pulling a card (:meth:`ShoeEmulator.pull`): refused by a locked gate,
  or forced past it (GATE_FORCED, then CARD_OUT as the card still leaves);
* the exit sensor: every card out is shown to the simulated camera **before**
  CARD_OUT is queued, because the host grabs frames as soon as it hears the
  event, exactly as a real camera already sees the card when the sensor fires;
* SHOE_EMPTY when the last card leaves; GATE_JAMMED on demand;
* the optional motor: DISPENSE pushes one card out (RESULT first, then the
  card's CARD_OUT, as a motor takes a moment);
* a power cycle (:meth:`ShoeEmulator.reboot`): a new core with a new
  ``boot_id``; the cards and the physical gate stay where they are, the
  firmware starts in fail-safe and locks the gate.

Everything here runs on the rig's loop thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from firmware_bridge.device import DeviceCore, shoe_identity
from firmware_bridge.wire import Capability, DeviceStatus, ResultCode
from hardware_sim.clock import Clock
from hardware_sim.devices.wiring import Wire
from hardware_sim.world import Pull, World


class Camera(Protocol):
    """What the shoe needs of the simulated camera (``hardware_sim.camera.SimCamera``)."""

    def show(self, code: str | None, *, face_up: bool = True) -> None: ...


class _ShoeHardware:
    """The :class:`firmware_bridge.device.Hardware` of the shoe, over the world."""

    def __init__(self, emulator: ShoeEmulator) -> None:
        self.emu = emulator

    def set_gate(self, locked: bool) -> ResultCode:
        shoe = self.emu.world.shoe
        if shoe.jammed:
            return ResultCode.JAMMED
        if locked and not shoe.gate_locked:
            self.emu.gate_locks += 1
        shoe.gate_locked = locked
        self.emu.changed()
        return ResultCode.OK

    def set_lights(self, mask: int) -> ResultCode:
        self.emu.world.shoe.lights = mask
        self.emu.changed()
        return ResultCode.OK

    def set_text(self, text: str) -> ResultCode:
        return ResultCode.NOT_SUPPORTED

    def dispense(self) -> ResultCode:
        shoe = self.emu.world.shoe
        if not shoe.has_motor:
            return ResultCode.NOT_SUPPORTED
        if shoe.jammed:
            return ResultCode.JAMMED
        if shoe.remaining() == 0:
            return ResultCode.EMPTY
        # The motor runs after the RESULT is on its way: the card comes out next.
        self.emu.schedule(lambda: self.emu.pull(motor=True))
        return ResultCode.OK


class ShoeEmulator:
    """One card shoe: a :class:`DeviceCore` plus the mechanics in ``world.shoe``."""

    def __init__(
        self,
        world: World,
        clock: Clock,
        *,
        camera: Camera | None = None,
        motor: bool = False,
        unique_id: bytes = b"SHOE0001",
        pack_switch: bool = True,
    ) -> None:
        self.world = world
        self.clock = clock
        self.camera = camera
        #: a 1.1 shoe with the loading-lid switch (docs/protocol.md section 12)
        self.identity = shoe_identity(motor=motor, unique_id=unique_id, pack_switch=pack_switch)
        world.shoe.has_motor = motor
        self.hardware = _ShoeHardware(self)
        self.wire: Wire | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.reboots = 0
        #: how many times the gate has closed: a dealer deals one card per opening
        self.gate_locks = 0
        #: called with the card after every card out (the rig's fault plan hooks here)
        self.on_card_out: list[Callable[[str], None]] = []
        #: called whenever gate or lamps change (the simulated dealer watches them)
        self.listeners: list[Callable[[], None]] = []
        #: a streamed in-shoe camera (``sim-hw``): given the card-out, runs it once
        #: the card's pass has been sent, so the pass ends just before CARD_OUT
        #: (docs/hardware.md section 2.7); None: at once (the in-process tables
        #: grab the pass after the CARD_OUT)
        self.card_out_after: Callable[[Callable[[], None]], None] | None = None
        self.core = DeviceCore(self.identity, self.hardware, now=clock.now())

    # -- what the rig wires up -----------------------------------------------------------
    def attach(self, wire: Wire, loop: asyncio.AbstractEventLoop) -> None:
        self.wire, self.loop = wire, loop

    def schedule(self, fn: Callable[[], object]) -> None:
        if self.loop is not None:
            self.loop.call_soon(fn)
        else:
            fn()

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def _flush(self) -> None:
        if self.wire is not None:
            self.wire.kick()

    # -- what people and faults do ---------------------------------------------------------
    @property
    def gate_locked(self) -> bool:
        return self.world.shoe.gate_locked

    def pull(self, *, force: bool = False, motor: bool = False) -> Pull:
        """A hand (or the motor) takes the next card out."""
        with self.world.lock:
            shoe = self.world.shoe
            outcome = shoe.pull(force=force, motor=motor)
            now = self.clock.now()
            if outcome.jammed or outcome.refused:
                return outcome
            if outcome.forced:
                self.core.emit_gate_forced(now)
            if outcome.card is not None:
                self.world.took_out(outcome.card)
                if self.camera is not None:
                    self.camera.show(outcome.card)
                # Faults strike before the event is on the wire (a blackout must
                # already cover the frames the host grabs on hearing it).
                for hook in list(self.on_card_out):
                    hook(outcome.card)
                if self.card_out_after is not None:
                    self.card_out_after(self._card_out_later)
                    return outcome
                self._card_out(now)
        self._flush()
        return outcome

    def _card_out(self, now: float) -> None:
        self.core.emit_card_out(now)
        if self.world.shoe.remaining() == 0:
            self.core.emit_shoe_empty(now)

    def _card_out_later(self) -> None:
        """The card's trailing edge clears the exit beam now (called from the
        camera's thread once its pass was sent): CARD_OUT on the device's loop."""

        def emit() -> None:
            with self.world.lock:
                self._card_out(self.clock.now())
            self._flush()

        if self.loop is not None:
            self.loop.call_soon_threadsafe(emit)
        else:
            emit()

    def jam(self, jammed: bool = True) -> None:
        """The gate or the motor sticks (or is freed)."""
        self.world.shoe.jammed = jammed
        if jammed:
            self.core.emit_gate_jammed(self.clock.now())
        else:
            self.core.status &= ~DeviceStatus.JAMMED
        self._flush()

    def refilled(self) -> None:
        """The dealer put the pack back and closed the loading lid: PACK_LOADED
        (protocol 1.1, which clears EMPTY) on a shoe with the lid switch; a
        1.0 shoe only sees a card at its gate again (section 11.3)."""
        if self.identity.capabilities & Capability.PACK_SWITCH:
            self.core.emit_pack_loaded(self.clock.now())
            self._flush()
        else:
            self.core.status &= ~DeviceStatus.EMPTY

    @property
    def safe_to_reboot(self) -> bool:
        """No event the host has not acknowledged (a reboot now loses nothing)."""
        c = self.core
        if c.last_event_no == 0:
            return True
        return bool(c.session and c.streaming and c.link.idle)

    def reboot(self) -> None:
        """Power cycle: a new boot id, an empty event log, fail-safe until HELLO."""
        self.reboots += 1
        self.core = DeviceCore(self.identity, self.hardware, now=self.clock.now())
        if self.wire is not None:
            self.wire.replace_firmware(self.core)
