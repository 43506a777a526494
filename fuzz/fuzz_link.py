"""Coverage-guided fuzzing of the serial decoder and both ends of the link.

Run for a minute (libFuzzer options pass straight through)::

    .venv/bin/python fuzz/fuzz_link.py -max_total_time=60 -rss_limit_mb=1024

The same :func:`one_input` is what ``tests/prove/test_prove_link_fuzz.py``
drives with hypothesis, so the invariants live in one place.  Why structure
matters: random bytes almost never carry a valid CRC, so half the inputs are
read as a list of (header, body) pairs that are *encoded properly* before they
reach the host or the device; that is what a buggy or hostile firmware could
really send, and it reaches the session logic behind the CRC check.

Invariants checked on every input (an ``AssertionError`` is a finding):

* the decoder returns only frames and ``FrameError`` values, keeps its buffer
  within one maximal frame, and every frame it returns re-encodes to itself;
* the host never delivers a device event twice or out of order (per boot,
  ``event_no`` strictly increases), and never raises;
* the device never raises, only ever sends well-formed device frames, and
  never carries out a repeated ``dispense_no`` (the spec keeps the last one).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

try:  # atheris is only needed to run this file as a fuzzer
    import atheris
except ImportError:  # pragma: no cover - the hypothesis tests import this file too
    atheris = None

if atheris is not None and __name__ == "__main__":
    with atheris.instrument_imports():
        from firmware_bridge import device as _device
        from firmware_bridge import host as _host
        from firmware_bridge import link as _link
        from firmware_bridge import wire as _wire
else:
    from firmware_bridge import device as _device
    from firmware_bridge import host as _host
    from firmware_bridge import link as _link  # noqa: F401 - instrumented above
    from firmware_bridge import wire as _wire

MAX_ENCODED = _wire.MAX_ENCODED


class CountingHardware(_device.RecordingHardware):
    """Remembers which dispense_no each DISPENSE carried out (checked below)."""


def _pump(host: _host.HostSession, dev: _device.DeviceCore, now: float, steps: int = 40) -> float:
    """Exchange bytes until the host has a session (a clean line)."""
    for _ in range(steps):
        dev.receive_bytes(host.data_to_send(), now)
        host.receive_bytes(dev.data_to_send(), now)
        host.tick(now)
        dev.tick(now)
        if host.is_up and host.link.idle and dev.link.idle:
            break
        now += 0.001
    return now


def connected_pair(motor: bool = True) -> tuple[_host.HostSession, _device.DeviceCore, float]:
    """A host and a shoe with a session and events streaming, as in play."""
    dev = _device.DeviceCore(
        _device.shoe_identity(motor=motor), CountingHardware(), now=0.0, boot_id=0x1234
    )
    host = _host.HostSession(expect_kind=_wire.DeviceKind.SHOE)
    host.connection_made(0.0)
    host.tick(0.0)
    now = _pump(host, dev, 0.0)
    assert host.is_up, "the clean handshake must succeed"
    return host, dev, now


def structured_frames(data: bytes, *, from_device: bool) -> Iterator[tuple[float, bytes]]:
    """Read ``data`` as (time step, header, body) records and encode each properly."""
    i = 0
    while i + 7 <= len(data):
        step = data[i] / 1000.0  # 0..255 ms
        version = 1 if data[i + 1] < 240 else data[i + 1]  # mostly the right version
        flags = data[i + 2] & 0x03
        flags |= _wire.FLAG_FROM_DEVICE if from_device else 0
        seq, ack, mtype = data[i + 3], data[i + 4], data[i + 5]
        n = data[i + 6] % 48
        body = data[i + 7 : i + 7 + n]
        i += 7 + n
        header = _wire.Header(0, mtype, seq, ack, flags, version)
        yield step, _wire.encode_frame(header, body)


def raw_chunks(data: bytes) -> Iterator[tuple[float, bytes]]:
    """Read ``data`` as (length, bytes) records: arbitrary line noise, arbitrarily cut."""
    i = 0
    while i < len(data):
        n = data[i] % 64 + 1
        yield 0.003, data[i + 1 : i + 1 + n]
        i += 1 + n


def check_decoder(data: bytes) -> None:
    decoder = _wire.FrameDecoder()
    for _, chunk in raw_chunks(data):
        for item in decoder.feed(chunk):
            assert isinstance(item, _wire.Frame | _wire.FrameError), item
            if isinstance(item, _wire.Frame):
                again = _wire.encode_frame(item.header, item.body)
                assert _wire.decode_frame(again[:-1]) == item
        assert len(decoder._buf) <= MAX_ENCODED


def check_host(data: bytes, structured: bool) -> None:
    host, dev, now = connected_pair()
    for n in range(3):  # some genuine events first, so duplicates have something to hit
        dev.emit_card_out(now + n * 0.001)
    now = _pump(host, dev, now)
    delivered: dict[int, int] = {}
    chunks = structured_frames(data, from_device=True) if structured else raw_chunks(data)
    for step, chunk in chunks:
        now += step
        host.receive_bytes(chunk, now)
        host.tick(now)
        host.data_to_send()
        for event in host.events():
            number = getattr(event, "event_no", None)
            boot = getattr(event, "boot_id", None)
            if number is not None and boot is not None and not isinstance(event, _host.LinkUp):
                last = delivered.get(boot, 0)
                assert number > last, f"event {number} of boot {boot} delivered after {last}"
                delivered[boot] = number


def check_device(data: bytes, structured: bool) -> None:
    _host_session, dev, now = connected_pair(motor=True)
    hw = dev.hardware
    assert isinstance(hw, CountingHardware)
    boot = dev.boot_id
    chunks = structured_frames(data, from_device=False) if structured else raw_chunks(data)
    for step, chunk in chunks:
        now += step
        before = hw.dispensed
        last_no = dev.last_dispense_no
        dev.receive_bytes(chunk, now)
        dev.tick(now)
        if hw.dispensed != before:
            number = dev.last_dispense_no
            assert number is not None and number != last_no, f"dispense_no {number} twice"
        assert dev.boot_id == boot
        out = dev.data_to_send()
        for item in _wire.FrameDecoder().feed(out):
            assert isinstance(item, _wire.Frame), f"the device sent a damaged frame: {item}"
            assert item.header.from_device


def one_input(data: bytes) -> None:
    """The whole harness: which part and how the bytes are read is in the first byte."""
    if not data:
        return
    mode, rest = data[0] % 5, data[1:]
    if mode == 0:
        check_decoder(rest)
    elif mode in (1, 2):
        check_host(rest, structured=mode == 2)
    else:
        check_device(rest, structured=mode == 4)


def main() -> None:
    if atheris is None:
        sys.exit("atheris is not installed: .venv/bin/pip install atheris")
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
