"""A seat panel or the dealer panel (docs/protocol.md sections 7-9; hardware.md 3).

Buttons are debounced for 20 ms and reported as BUTTON events once the press
has settled; presses are ignored in fail-safe (a press on a dead panel must
not become a decision later). Lamps follow SET_LIGHTS's mask (bit 27 ignored:
only the fail-safe shows OFFLINE); the text is cut to two lines of 16.
"""

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from pt_session import CAP_LIGHTS, CAP_TEXT, OK, SET_LIGHTS, SET_TEXT

BUTTON = const(2)
OFFLINE = const(1 << 27)
STATUS_LAMPS = const(0x07000000)
DEBOUNCE_MS = const(20)
DEALER_ADDRESS = const(15)
SEAT_BUTTONS = (1, 2, 3, 4, 5, 6, 7)
DEALER_BUTTONS = (7, 12, 13, 14, 15)


def split_text(text):
    """Two display lines of 16: a line longer is cut, a further 0x0A shows nothing."""
    lines = text.split("\n")
    first = lines[0][:16]
    second = lines[1][:16] if len(lines) > 1 else ""
    return first, second


class Panel:
    seat = 0

    def __init__(self, hal, cfg):
        self.hal = hal
        self.session = None
        self.ticks_at_now = 0
        address = cfg.get("address", 0) or hal.address_switch()
        dealer = cfg.get("kind") == "dealer" or address == DEALER_ADDRESS
        self.address = DEALER_ADDRESS if dealer else address
        self.kind = 3 if dealer else 2
        if not dealer:
            self.seat = address
        self.buttons = tuple(cfg.get("buttons", DEALER_BUTTONS if dealer else SEAT_BUTTONS))
        caps = CAP_TEXT | CAP_LIGHTS
        lamp_bits = STATUS_LAMPS
        for code in self.buttons:
            caps |= 1 << (code - 1)
            lamp_bits |= 1 << (code - 1)
        self.capabilities = caps
        self.lamp_bits = lamp_bits
        self.lights = OFFLINE
        self.offline = True
        n = len(self.buttons)
        self._raw = bytearray(n)
        self._stable = bytearray(n)
        self._since = [0] * n
        hal.show_text("OFFLINE", "")

    # -- session hooks --------------------------------------------------
    def status(self):
        return 0

    def fail_safe(self, now):
        self.offline = True
        self.lights = OFFLINE
        self.hal.show_text("OFFLINE", "")

    def new_session(self, now):
        self.offline = False
        self.lights = 0
        self.hal.show_text("", "")

    def cancel_command(self):
        pass

    def command(self, mtype, body, now):
        if mtype == SET_LIGHTS:
            mask = body[0] | body[1] << 8 | body[2] << 16 | body[3] << 24
            self.lights = mask & self.lamp_bits  # bit 27 and absent lamps ignored
            return OK, b""
        if mtype == SET_TEXT:
            line1, line2 = split_text(bytes(body).decode())
            self.hal.show_text(line1, line2)
            return OK, b""
        return 1, b""

    def poll_command(self, now):
        return None

    # -- the buttons ------------------------------------------------------
    def tick(self, now):
        hal = self.hal
        for i, code in enumerate(self.buttons):
            raw = 1 if hal.button_pressed(code) else 0
            if raw != self._raw[i]:
                self._raw[i] = raw
                self._since[i] = now
            elif raw != self._stable[i] and now - self._since[i] >= DEBOUNCE_MS:
                self._stable[i] = raw
                if raw and not self.session.fail_safe:
                    self.session.record(BUTTON, code, now)
        hal.panel_lamps(self.lights, now)
