"""The simulated HAL: the same calls as ``pt_hal_pico``, a small world behind them.

Used by the test runner (MicroPython compiled to WebAssembly, driven from
Node): the UART is two byte buffers the runner fills and drains, the clock is
the interpreter's real ``time.ticks_ms``, and the mechanism is modelled just
enough for the firmware to see what real sensors show: a servo gate that takes
``travel_ms`` to move and whose locked-position switch a hand or a passing card
can open, an exit beam that a card breaks for a few ms, a magazine of cards
under the card-present sensor, a dispense motor, buttons that bounce.
"""

import time


class SimHal:
    def __init__(self, cfg):
        self.cfg = cfg
        self._seed = cfg.get("boot_seed", 0x5EED)
        self._rx = bytearray()
        self._tx = []
        self.travel_ms = cfg.get("sim_travel_ms", 60)
        # outputs, as the world sees them
        self.gate_locked = True
        self.gate_cmd_at = -100000
        self.lights = 0
        self.lamp_pins = 0
        self.motor_on = False
        self.motor_at = 0
        self.leds = False
        self.text = ("", "")
        self.gate_drives = 0
        self.gate_locks = 0
        # the world
        self.cards = cfg.get("cards", 52)
        self.lid = True
        self.jam = False
        self._jam_switch = True
        self.pushed_until = -1
        self.pulls = []  # [start_ms, end_ms, state]: 0 ahead, 1 no card, 2 a card
        self.finger_up = False
        self.presses = []  # [code, start_ms, end_ms]

    # -- time, identity ---------------------------------------------------
    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_us(self):
        return time.ticks_us()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def random_u32(self):
        return self._seed & 0xFFFFFFFF

    def unique_id(self):
        return "SIM{:05d}".format(self.cfg.get("address", 0)).encode()

    def idle(self):
        pass

    # -- UART -------------------------------------------------------------
    def feed(self, data):
        self._rx.extend(data)

    def uart_read(self):
        if not self._rx:
            return None
        data = bytes(self._rx)
        self._rx = bytearray()
        return data

    def uart_write(self, data):
        self._tx.append(data)

    def take_tx(self):
        data = b"".join(self._tx)
        self._tx = []
        return data

    # -- the shoe ---------------------------------------------------------
    def gate_drive(self, locked):
        if locked != self.gate_locked:
            self.gate_cmd_at = self._now()
            if locked:
                self.gate_locks += 1
        self.gate_locked = locked
        self.gate_drives += 1

    def _now(self):
        return time.ticks_ms()

    def _physically_locked(self, now):
        return self.gate_locked and time.ticks_diff(now, self.gate_cmd_at) >= self.travel_ms

    def gate_at_locked(self):
        now = self._now()
        self._world(now)
        if self.jam:
            return self._jam_switch
        if time.ticks_diff(self.pushed_until, now) > 0 or self.finger_up:
            return False
        return self._physically_locked(now)

    def beam_edges(self):
        """Exit-beam edges since the last call: (broken, ticks_ms), oldest first.

        One card's edges per call (the firmware calls until it gets none), so
        the card-present sensor reads what it read at that card's trailing
        edge even when the caller's loop fell behind."""
        now = self._now()
        self._world(now)
        edges = []
        if self.pulls:
            p = self.pulls[0]
            if time.ticks_diff(now, p[0]) >= 0:
                if p[2] == 0:
                    p[2] = 1
                    if self.cards > 0:
                        self.cards -= 1
                        p[2] = 2
                        edges.append((True, p[0]))
                if time.ticks_diff(now, p[1]) >= 0:
                    if p[2] == 2:
                        edges.append((False, p[1]))
                    self.pulls.pop(0)
        return edges

    def card_present(self):
        return self.cards > 0

    def lid_closed(self):
        return self.lid

    def motor(self, on):
        if on and not self.motor_on:
            self.motor_at = self._now()
        self.motor_on = on

    def camera_leds(self, on):
        self.leds = on

    def lamps(self, mask, now):
        self.lights = mask
        red = bool(mask & (1 << 26))
        if mask & (1 << 27):
            red = (now // 250) % 2 == 0  # the offline pattern: red at 2 Hz
        self.lamp_pins = (mask >> 24) & 3 | (4 if red else 0)

    def _world(self, now):
        # the motor pushes one card out 100 ms after it starts, if it can
        motor_due = self.motor_on and time.ticks_diff(now, self.motor_at) >= 100
        if motor_due and not self.jam and self.cards > 0 and not self.pulls:
            self.pulls.append([now, now + 25, 0])
        # a card on its way out (or a hand) lifts a locked gate's finger
        busy = False
        for p in self.pulls:
            if time.ticks_diff(now, p[0]) >= 0 and time.ticks_diff(now, p[1]) < 0:
                busy = True
        if busy and not self.finger_up:
            self.finger_up = self._physically_locked(now)
        elif not busy:
            self.finger_up = False

    # -- panels -----------------------------------------------------------
    def button_pressed(self, code):
        now = self._now()
        for p in self.presses:
            if p[0] == code and time.ticks_diff(now, p[1]) >= 0 and time.ticks_diff(p[2], now) > 0:
                return True
        return False

    def address_switch(self):
        return self.cfg.get("dip", 0)

    def panel_lamps(self, mask, now):
        self.lamps(mask, now)

    def show_text(self, line1, line2):
        self.text = (line1, line2)

    # -- the control channel (the test is the world's hand) ---------------
    def control(self, req):
        op = req.get("op")
        now = self._now()
        if op == "pull":
            at = now + req.get("after", 0)
            for last in self.pulls[-1:]:
                at = max(at, last[1] + 5)
            for _ in range(req.get("n", 1)):
                self.pulls.append([at, at + req.get("ms", 20), 0])
                at += req.get("ms", 20) + req.get("gap", 15)
            return {"scheduled": req.get("n", 1)}
        if op == "push_gate":
            self.pushed_until = now + req.get("ms", 100)
            return {}
        if op == "jam":
            self._jam_switch = self.gate_at_locked()
            self.jam = bool(req.get("on", True))
            return {}
        if op == "load":
            self.cards = req.get("cards", 52)
            return {}
        if op == "lid":
            self.lid = bool(req.get("closed", True))
            return {}
        if op == "press":
            self.presses = [p for p in self.presses if time.ticks_diff(p[2], now) > 0]
            self.presses.append([req["code"], now, now + req.get("ms", 60)])
            return {}
        if op == "world":
            return {
                "gate_locked": self.gate_locked,
                "gate_drives": self.gate_drives,
                "gate_locks": self.gate_locks,
                "lights": self.lights,
                "lamp_pins": self.lamp_pins,
                "motor": self.motor_on,
                "cards": self.cards,
                "pulls_left": len(self.pulls),
                "presses_left": len([p for p in self.presses if time.ticks_diff(p[2], now) > 0]),
                "leds": self.leds,
                "text": list(self.text),
            }
        return None
