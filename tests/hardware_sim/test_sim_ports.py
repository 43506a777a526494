"""The simulator's serial ports, opened by pyserial exactly as the host opens them."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import serial

from hardware_sim.loop import BackgroundLoop
from hardware_sim.ports import Port, PtyPort, SocketPort


class Recorder:
    def __init__(self) -> None:
        self.data = bytearray()

    def __call__(self, chunk: bytes) -> None:
        self.data += chunk

    def wait_for(self, size: int, timeout: float = 2.0) -> bytes:
        deadline = time.monotonic() + timeout
        while len(self.data) < size and time.monotonic() < deadline:
            time.sleep(0.005)
        return bytes(self.data)


@pytest.fixture
def bg():
    with BackgroundLoop("test-ports") as loop:
        yield loop


def _attach(bg: BackgroundLoop, port: Port) -> Recorder:
    rec = Recorder()
    bg.call(lambda: port.attach(bg.loop, rec))
    return rec


def _roundtrip(bg: BackgroundLoop, port: Port, rec: Recorder) -> None:
    host = serial.serial_for_url(port.url, baudrate=115200, timeout=1.0)
    try:
        if isinstance(port, SocketPort):  # the server accepts on the loop thread
            deadline = time.monotonic() + 2
            while not bg.call(lambda: port.connected) and time.monotonic() < deadline:
                time.sleep(0.005)
        host.write(b"\x01\x02\x00hello\x00")
        assert rec.wait_for(9) == b"\x01\x02\x00hello\x00"
        bg.call(lambda: port.write(b"from device\x00"))
        assert host.read(12) == b"from device\x00"
    finally:
        host.close()


def test_pty_carries_bytes_both_ways_unchanged(bg: BackgroundLoop, tmp_path: Path) -> None:
    port = PtyPort("shoe", link_dir=tmp_path)
    rec = _attach(bg, port)
    try:
        assert Path(port.url).is_symlink()
        assert Path(port.url).resolve() == Path(port.tty_path)
        # Every byte value passes (raw mode: no echo, no CR/LF translation, no ^C).
        every = bytes(range(256))
        host = serial.serial_for_url(port.url, timeout=1.0)
        host.write(every)
        assert rec.wait_for(256) == every
        bg.call(lambda: port.write(every))
        assert host.read(256) == every
        host.close()
    finally:
        bg.call(port.close)


def test_pty_unplug_fails_the_host_and_replug_works_on_the_same_path(
    bg: BackgroundLoop, tmp_path: Path
) -> None:
    port = PtyPort("shoe", link_dir=tmp_path)
    rec = _attach(bg, port)
    try:
        host = serial.serial_for_url(port.url, timeout=1.0)
        bg.call(port.unplug)
        assert not Path(port.url).exists()
        with pytest.raises(serial.SerialException):
            host.read(1)  # a pulled cable: the read fails instead of waiting
        host.close()
        with pytest.raises(serial.SerialException):
            serial.serial_for_url(port.url)
        bg.call(port.replug)
        # the link (removed by the unplug) is back, to the new pty (whose number
        # the kernel may reuse, so the name alone proves nothing)
        assert Path(port.url).is_symlink() and Path(port.url).resolve() == Path(port.tty_path)
        _roundtrip(bg, port, rec)
    finally:
        bg.call(port.close)


def test_pty_survives_the_host_closing_and_reopening(bg: BackgroundLoop, tmp_path: Path) -> None:
    port = PtyPort("bus", link_dir=tmp_path)
    rec = _attach(bg, port)
    try:
        _roundtrip(bg, port, rec)
        rec.data.clear()
        _roundtrip(bg, port, rec)
    finally:
        bg.call(port.close)


def test_socket_port_roundtrip_unplug_and_replug(bg: BackgroundLoop) -> None:
    port = SocketPort("shoe")
    rec = _attach(bg, port)
    try:
        assert port.url.startswith("socket://127.0.0.1:")
        _roundtrip(bg, port, rec)
        bg.call(port.unplug)
        with pytest.raises(serial.SerialException):
            serial.serial_for_url(port.url, timeout=0.5)
        bg.call(port.replug)
        rec.data.clear()
        _roundtrip(bg, port, rec)
    finally:
        bg.call(port.close)
