"""One codebase for every device: the config picks the behaviour and the link.

``config.json`` on the board (see README.md) says the device ``kind``
("shoe", "seat" or "dealer"), its bus ``address``, its ``unique_id`` and its
pins. :class:`App` wires framing, link and session to the behaviour and runs
one pass of the main loop per :meth:`App.poll`; ``main.py`` calls it forever
on the Pico, the WebAssembly test runner calls it from Node's event loop.
"""

import gc

from pt_session import Session


def load_config(path="config.json"):
    import json

    with open(path) as f:
        return json.load(f)


def _unique_id(cfg, hal):
    uid = cfg.get("unique_id")
    uid = uid.encode() if uid else hal.unique_id()
    return (uid + b"\x00" * 8)[:8]


class App:
    def __init__(self, hal, cfg):
        self.hal = hal
        kind = cfg.get("kind", "shoe")
        if kind == "shoe":
            from pt_shoe import Shoe

            device = Shoe(hal, cfg)
            address = 0
            bus = False
        else:
            from pt_panel import Panel

            device = Panel(hal, cfg)
            address = device.address
            bus = True
        self.device = device
        minor = 1 if kind == "shoe" and cfg.get("protocol_minor", 0) >= 1 else 0
        uid = _unique_id(cfg, hal)
        self.session = Session(hal, device, address, bus, uid, cfg.get("hw_rev", 1), minor)
        device.session = self.session
        self._t0 = hal.ticks_ms()
        self._last = self._t0
        self.now = 0
        # frame-handling time: microseconds spent from bytes in to replies out
        self.rx_us = 0
        self.rx_batches = 0

    def poll(self):
        hal = self.hal
        t = hal.ticks_ms()
        self.now += hal.ticks_diff(t, self._last)  # ms since power-up, never wraps here
        self._last = t
        now = self.now
        session = self.session
        data = hal.uart_read()
        if data:
            t0 = hal.ticks_us()
            session.feed(data, now)
            session.flush()
            self.rx_us += hal.ticks_diff(hal.ticks_us(), t0)
            self.rx_batches += 1
        self.device.ticks_at_now = t
        self.device.tick(now)
        session.tick(now)
        session.flush()

    def stats(self):
        gc.collect()
        s = self.session
        d = s.decoder
        ln = s.link
        return {
            "mem_alloc": gc.mem_alloc(),
            "mem_free": gc.mem_free(),
            "frames": d.frames,
            "rx_us": self.rx_us,
            "rx_batches": self.rx_batches,
            "crc_errors": d.crc_errors,
            "bad_cobs": d.bad_cobs,
            "truncated": d.truncated,
            "oversized": d.oversized,
            "duplicates": ln.duplicates,
            "out_of_window": ln.out_of_window,
            "retransmissions": ln.retransmissions,
            "bad_version": s.bad_version,
            "unknown": s.unknown,
            "link_downs": s.link_downs,
            "boot_id": s.boot_id,
            "last_event_no": s.last_event_no,
            "session": s.active,
            "fail_safe": s.fail_safe,
            "status": self.device.status(),
            "forcing": getattr(self.device, "forcing", False),
            "uptime_ms": self.now,
        }


def main():
    """The Pico's entry point (``main.py`` calls this)."""
    cfg = load_config()
    from pt_hal_pico import PicoHal

    hal = PicoHal(cfg)
    app = App(hal, cfg)
    gc.collect()
    while True:
        app.poll()
        hal.idle()
