"""The shoe's behaviour (docs/protocol.md section 11; docs/hardware.md 1.5).

Inputs are polled every loop pass (well under 1 ms on a Pico): the exit beam,
the gate-closed switch, the card-present sensor. What they mean:

* a beam break of at least 5 ms is a card; CARD_OUT carries the time its
  trailing edge cleared the beam (the camera pairs frames with it, 11.5);
* the gate locked and at its locked position: the switch opening, or a
  card's leading edge at the beam, starts a *forcing*: one GATE_FORCED, then
  a CARD_OUT per card; a new forcing only once the gate is seen locked again;
* no card at the gate after a CARD_OUT: SHOE_EMPTY, status EMPTY; EMPTY
  clears without an event when a card is seen at the gate again (11.3);
* a gate that does not reach its commanded position in 300 ms is jammed:
  GATE_JAMMED once, status JAMMED, RESULT(JAMMED); JAMMED clears when the
  gate is next seen at a commanded position (11.4).
"""

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from pt_session import CAP_GATE, CAP_LIGHTS, CAP_MOTOR, DISPENSE, OK, SET_GATE, SET_LIGHTS

CAP_EXIT_SENSOR = const(1 << 19)
CAP_PACK_SWITCH = const(1 << 21)  # protocol 1.1
CAP_AUTO_RELOCK = const(1 << 22)  # protocol 1.1

CARD_OUT = const(1)
GATE_FORCED = const(3)
GATE_JAMMED = const(4)
SHOE_EMPTY = const(5)
PACK_LOADED = const(6)  # protocol 1.1

JAMMED = const(5)
EMPTY = const(6)

ST_GATE_LOCKED = const(0x02)
ST_JAMMED = const(0x04)
ST_EMPTY = const(0x08)

OFFLINE = const(1 << 27)
LAMP_BITS = const(0x07000000)  # READY, WAIT, ALARM: the shoe has no button lamps

GATE_LIMIT_MS = const(300)
MIN_BREAK_MS = const(5)
DISPENSE_LIMIT_MS = const(1000)


class Shoe:
    kind = 1
    seat = 0

    def __init__(self, hal, cfg):
        self.hal = hal
        self.session = None  # set by the app; events go to session.record
        self.ticks_at_now = hal.ticks_ms()  # set by the app before each tick
        self.travel_ms = cfg.get("gate_travel_ms", 80)
        self.capabilities = CAP_GATE | CAP_EXIT_SENSOR | CAP_LIGHTS
        if cfg.get("motor"):
            self.capabilities |= CAP_MOTOR
        # protocol 1.1 (section 12), only when the config asks for it
        v11 = cfg.get("protocol_minor", 0) >= 1
        self.pack_switch = v11 and cfg.get("pack_switch", False)
        self.auto_relock = v11 and cfg.get("auto_relock", False)
        if self.pack_switch:
            self.capabilities |= CAP_PACK_SWITCH
        if self.auto_relock:
            self.capabilities |= CAP_AUTO_RELOCK
        self.lid = hal.lid_closed()
        self.lights = OFFLINE
        # the gate
        self.locked = True  # commanded
        self.cmd_at = 0
        self.moving = False
        self.result_due = False  # a SET_GATE waits for the gate to arrive
        self.result = None
        self.at_lock = False  # reached the locked position since commanded
        self.jammed = False
        self.forcing = False
        # the exit beam
        self.beam = False
        self.beam_at = 0
        # the magazine
        self.empty = not hal.card_present()
        # the motor
        self.dispensing = False
        self.dispense_at = 0
        hal.gate_drive(True)
        hal.camera_leds(True)  # steady DC from power-up (hardware.md 1.5)

    def record(self, kind, ms):
        self.session.record(kind, 0, ms)

    # -- session hooks --------------------------------------------------
    def status(self):
        s = 0
        if self.locked:
            s |= ST_GATE_LOCKED
        if self.jammed:
            s |= ST_JAMMED
        if self.empty:
            s |= ST_EMPTY
        return s

    def fail_safe(self, now):
        self._command_gate(True, now)
        self.lights = OFFLINE

    def new_session(self, now):
        self._command_gate(True, now)
        self.lights = 0

    def cancel_command(self):
        self.result_due = False
        self.result = None

    def command(self, mtype, body, now):
        if mtype == SET_GATE:
            locked = body[0] == 1
            settled = not self.moving and not self.jammed
            if locked == self.locked and settled and (self.at_lock or not locked):
                return OK, b""  # already there: nothing moves
            if locked and self.locked and self.moving:
                self.result_due = True  # on its way (1.1 AUTO_RELOCK): wait for it
                self.result = None
                return None
            self._start_gate(locked, now)  # a jammed gate is tried again (11.4)
            self.result_due = True
            self.result = None
            return None  # RESULT when the gate is there (5.4)
        if mtype == SET_LIGHTS:
            mask = body[0] | body[1] << 8 | body[2] << 16 | body[3] << 24
            self.lights = mask & LAMP_BITS  # bit 27 is ignored (section 7)
            return OK, b""
        if mtype == DISPENSE:
            if self.jammed:
                return JAMMED, b""
            if not self.hal.card_present():
                return EMPTY, b""
            self.dispensing = True
            self.dispense_at = now
            self.hal.motor(True)
            return OK, b""  # RESULT when the motor starts, before the CARD_OUT
        return 1, b""

    def poll_command(self, now):
        res = self.result
        if res is not None:
            self.result = None
            self.result_due = False
        return res

    # -- the mechanism ----------------------------------------------------
    def _command_gate(self, locked, now):
        if locked and self.locked and (self.at_lock or self.moving):
            return  # there already, or on its way
        self._start_gate(locked, now)

    def _start_gate(self, locked, now):
        self.locked = locked
        self.cmd_at = now
        self.moving = True
        self.at_lock = False
        self.hal.gate_drive(locked)

    def tick(self, now):
        hal = self.hal
        switch = hal.gate_at_locked()
        if self.moving:
            arrived = (
                switch if self.locked else (not switch and now - self.cmd_at >= self.travel_ms)
            )
            if arrived:
                self.moving = False
                self.jammed = False
                self.at_lock = self.locked
                if self.locked:
                    self.forcing = False
                if self.result_due:
                    self.result = (OK, b"")
            elif now - self.cmd_at >= GATE_LIMIT_MS:
                self.moving = False
                self._jam(now)
                if self.result_due:
                    self.result = (JAMMED, b"")
        elif self.jammed and switch == self.locked:
            self.jammed = False  # freed by the dealer: seen at a commanded position
            self.at_lock = self.locked
        # forcing: the gate locked and at its locked position is pushed open
        guarded = self.locked and self.at_lock and not self.moving
        # the exit beam: edges with their own times (a pin IRQ on the Pico),
        # so a slow loop pass never merges two cards or misdates one
        ticks = self.ticks_at_now  # the ticks_ms reading that ``now`` stands for
        edges = hal.beam_edges()
        while edges:
            for broken, at in edges:
                self._edge(broken, now + hal.ticks_diff(at, ticks), guarded)
            edges = hal.beam_edges()
        if guarded and not switch and not self.forcing and not self.dispensing:
            self.forcing = True
            self.record(GATE_FORCED, now)
        if guarded and switch and self.forcing and not self.beam:
            self.forcing = False  # seen locked again: a new forcing may begin
        if self.pack_switch:
            lid = hal.lid_closed()
            if lid != self.lid:
                self.lid = lid
                if lid and hal.card_present():
                    self.empty = False
                    self.record(PACK_LOADED, now)  # 1.1: the lid closed on a pack
        if self.empty and not self.beam and hal.card_present():
            self.empty = False  # cards at the gate again: no event in 1.0
        if self.dispensing and now - self.dispense_at >= DISPENSE_LIMIT_MS:
            self.dispensing = False
            hal.motor(False)
            self._jam(now)
        hal.lamps(self.lights, now)

    def _edge(self, broken, t, guarded):
        if broken and not self.beam:
            self.beam = True
            self.beam_at = t
            if guarded and not self.forcing and not self.dispensing:
                self.forcing = True
                self.record(GATE_FORCED, t)
            elif self.auto_relock and not self.locked:
                # 1.1 AUTO_RELOCK: the finger drops onto the passing card and
                # behind it, so a second card can leave only by force
                self._start_gate(True, t)
        elif self.beam and not broken:
            self.beam = False
            if t - self.beam_at >= MIN_BREAK_MS:
                self._card_out(t)

    def _card_out(self, t):
        self.record(CARD_OUT, t)
        if self.dispensing:
            self.dispensing = False
            self.hal.motor(False)
        if not self.hal.card_present():
            self.empty = True
            self.record(SHOE_EMPTY, t)

    def _jam(self, now):
        if not self.jammed:
            self.jammed = True
            self.record(GATE_JAMMED, now)
