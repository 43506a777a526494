"""The Raspberry Pi Pico HAL: pins, PWM, UART, I2C behind the calls the firmware makes.

Pin numbers are docs/hardware.md's (sections 1.4 and 3.2); ``config.json``'s
``pins`` object overrides any of them by name. The shoe speaks the protocol on
the Pico's own USB port (CDC serial, MicroPython's stdio): keyboard interrupt
is switched off so a 0x03 byte in a frame is data, and nothing may ``print``.
Panels speak it on UART0 through an RS-485 transceiver whose DE and /RE are
driven high only while a reply goes out.
"""

import sys
import time

import machine
import micropython
from machine import I2C, PWM, UART, Pin

SHOE_PINS = {
    "gate": 2,  # servo PWM (or the solenoid MOSFET)
    "gate_switch": 3,  # low = gate at its locked position
    "beam": 6,  # exit beam receiver
    "card": 7,  # card-present sensor, low = card seen
    "lid": 8,  # pack-loaded switch, low = lid closed
    "ready": 10,
    "wait": 11,
    "alarm": 12,
    "camera_leds": 13,
    "motor_a": 14,
    "motor_b": 15,
    "heartbeat": 25,
}

PANEL_PINS = {
    "tx": 0,
    "rx": 1,
    "de": 2,
    "sda": 4,
    "scl": 5,
    "buttons": [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],  # codes 1..11 by default
    "address": [18, 19, 20, 21],
    "heartbeat": 25,
}
DEALER_BUTTONS = {12: 6, 13: 7, 14: 8, 15: 9, 7: 12}  # code -> GPIO (hardware.md 3.2)

MCP23017 = 0x20
LCD = 0x27


def emergency_lock():
    """Lock the gate whatever state the firmware died in (main.py's last act)."""
    try:
        pwm = PWM(Pin(SHOE_PINS["gate"]))
        pwm.freq(50)
        pwm.duty_ns(1200 * 1000)
    except Exception:  # a panel has no gate: nothing to lock
        pass


class PicoHal:
    def __init__(self, cfg):
        self.cfg = cfg
        self.kind = cfg.get("kind", "shoe")
        self._hb = Pin(25, Pin.OUT)
        self._rxbuf = bytearray(64)
        if self.kind == "shoe":
            self._init_shoe(cfg)
        else:
            self._init_panel(cfg)

    # -- common -------------------------------------------------------------
    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_us(self):
        return time.ticks_us()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def random_u32(self):
        import os

        b = os.urandom(4)  # the RP2040's ring-oscillator random bits
        return b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24

    def unique_id(self):
        return machine.unique_id()  # the flash chip's 8-byte serial

    def idle(self):
        self._hb.value((time.ticks_ms() >> 9) & 1)

    # -- the shoe -------------------------------------------------------------
    def _init_shoe(self, cfg):
        pins = dict(SHOE_PINS)
        pins.update(cfg.get("pins", {}))
        import select

        micropython.kbd_intr(-1)  # 0x03 is data, not Ctrl-C
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._servo = PWM(Pin(pins["gate"]))
        self._servo.freq(50)
        self._locked_ns = cfg.get("servo_locked_us", 1200) * 1000
        self._open_ns = cfg.get("servo_open_us", 1800) * 1000
        self._switch = Pin(pins["gate_switch"], Pin.IN, Pin.PULL_UP)
        self._beam = Pin(pins["beam"], Pin.IN, Pin.PULL_UP)
        self._beam_level = cfg.get("beam_broken_level", 1)
        self._card = Pin(pins["card"], Pin.IN, Pin.PULL_UP)
        self._lid = Pin(pins["lid"], Pin.IN, Pin.PULL_UP)
        self._lamps = [Pin(pins[n], Pin.OUT, value=0) for n in ("ready", "wait", "alarm")]
        self._leds = Pin(pins["camera_leds"], Pin.OUT, value=0)
        self._motor_a = Pin(pins["motor_a"], Pin.OUT, value=0)
        self._motor_b = Pin(pins["motor_b"], Pin.OUT, value=0)
        # exit-beam edges, timestamped in the IRQ (no allocation there)
        from array import array

        self._edge_t = array("i", [0] * 16)
        self._edge_v = bytearray(16)
        self._edge_w = 0
        self._edge_r = 0
        self._beam.irq(self._beam_irq, Pin.IRQ_RISING | Pin.IRQ_FALLING, hard=True)

    def _beam_irq(self, pin):
        w = self._edge_w
        self._edge_t[w & 15] = time.ticks_ms()
        self._edge_v[w & 15] = 1 if pin.value() == self._beam_level else 0
        self._edge_w = w + 1

    def beam_edges(self):
        edges = []
        while self._edge_r != self._edge_w:
            r = self._edge_r & 15
            edges.append((bool(self._edge_v[r]), self._edge_t[r]))
            self._edge_r += 1
        return edges

    def uart_read(self):
        n = 0
        buf = self._rxbuf
        while n < len(buf) and self._poll.poll(0):
            buf[n] = self._in.read(1)[0]
            n += 1
        return bytes(buf[:n]) if n else None

    def uart_write(self, data):
        self._out.write(data)

    def gate_drive(self, locked):
        self._servo.duty_ns(self._locked_ns if locked else self._open_ns)

    def gate_at_locked(self):
        return self._switch.value() == 0

    def card_present(self):
        return self._card.value() == 0

    def lid_closed(self):
        return self._lid.value() == 0

    def motor(self, on):
        self._motor_a.value(1 if on else 0)
        self._motor_b.value(0)

    def camera_leds(self, on):
        self._leds.value(1 if on else 0)

    def lamps(self, mask, now):
        red = mask & (1 << 26)
        if mask & (1 << 27):
            red = (now // 250) % 2 == 0  # OFFLINE: red flashing at 2 Hz
        self._lamps[0].value(1 if mask & (1 << 24) else 0)
        self._lamps[1].value(1 if mask & (1 << 25) else 0)
        self._lamps[2].value(1 if red else 0)

    # -- panels ---------------------------------------------------------------
    def _init_panel(self, cfg):
        pins = dict(PANEL_PINS)
        pins.update(cfg.get("pins", {}))
        self._uart = UART(
            0, baudrate=cfg.get("baud", 115200), tx=Pin(pins["tx"]), rx=Pin(pins["rx"]), rxbuf=512
        )
        self._de = Pin(pins["de"], Pin.OUT, value=0)
        self._addr = [Pin(p, Pin.IN, Pin.PULL_UP) for p in pins["address"]]
        self._i2c = I2C(0, sda=Pin(pins["sda"]), scl=Pin(pins["scl"]), freq=100000)
        if cfg.get("kind") == "dealer":
            gpio = cfg.get("button_pins", DEALER_BUTTONS)
        else:
            gpio = cfg.get("button_pins", {i + 1: g for i, g in enumerate(pins["buttons"])})
        self._buttons = {int(code): Pin(g, Pin.IN, Pin.PULL_UP) for code, g in gpio.items()}
        self._mcp_ok = self._i2c_write(MCP23017, bytes((0x00, 0x00, 0x00)))  # IODIRA/B out
        self._lcd_ok = self._lcd_init()
        self._lamp_bits = -1
        self.uart_read = self.bus_read  # the session writes and reads "the UART"
        self.uart_write = self.bus_write

    def address_switch(self):
        value = 0
        for bit, pin in enumerate(self._addr):
            if pin.value() == 0:
                value |= 1 << bit
        return value

    def button_pressed(self, code):
        pin = self._buttons.get(code)
        return pin is not None and pin.value() == 0

    def _i2c_write(self, addr, data):
        try:
            self._i2c.writeto(addr, data)
            return True
        except OSError:
            return False  # a missing expander or display must not stop the bus

    def panel_lamps(self, mask, now):
        bits = mask & 0x7FF  # buttons 1-11 -> GPA0-7, GPB0-2
        if mask & (1 << 24):
            bits |= 1 << 11
        if mask & (1 << 25):
            bits |= 1 << 12
        red = mask & (1 << 26)
        if mask & (1 << 27):
            red = (now // 250) % 2 == 0
        if red:
            bits |= 1 << 13
        if bits != self._lamp_bits and self._mcp_ok:
            self._lamp_bits = bits
            self._i2c_write(MCP23017, bytes((0x12, bits & 0xFF, bits >> 8)))  # GPIOA, GPIOB

    # HD44780 behind a PCF8574 backpack: P0 RS, P2 E, P3 backlight, P4-P7 data
    def _lcd_nibble(self, nibble, rs):
        b = (nibble << 4) | 0x08 | rs
        self._i2c_write(LCD, bytes((b | 0x04, b)))

    def _lcd_byte(self, value, rs=0):
        self._lcd_nibble(value >> 4, rs)
        self._lcd_nibble(value & 0x0F, rs)

    def _lcd_init(self):
        if not self._i2c_write(LCD, b"\x08"):
            return False
        time.sleep_ms(50)
        for n in (3, 3, 3, 2):  # into 4-bit mode
            self._lcd_nibble(n, 0)
            time.sleep_ms(5)
        for cmd in (0x28, 0x0C, 0x06, 0x01):  # 2 lines, display on, entry, clear
            self._lcd_byte(cmd)
        time.sleep_ms(2)
        return True

    def show_text(self, line1, line2):
        if not self._lcd_ok:
            return
        for row, line in ((0x80, line1), (0xC0, line2)):
            self._lcd_byte(row)
            for ch in (line + " " * 16)[:16]:
                self._lcd_byte(ord(ch), 1)

    def bus_write(self, data):
        """Drive the bus, send, wait for the last stop bit, release (hardware.md 3.3)."""
        self._de.value(1)
        self._uart.write(data)
        while not self._uart.txdone():
            pass
        self._de.value(0)

    def bus_read(self):
        n = self._uart.any()
        return self._uart.read(n) if n else None
