"""A pyserial port handed to asyncio: the only place the link touches a port.

``serial.serial_for_url`` opens a real ``/dev/ttyACM0``, a
``/dev/serial/by-id/...`` path, a pty, ``socket://host:port`` or ``loop://``
alike.  A POSIX serial port (a tty or pty: a file descriptor pyserial keeps
non-blocking) is watched by the event loop itself (``loop.add_reader``), so a
frame costs no thread switch; any other port (``socket://`` and ``loop://``
have no usable fileno) gets a reader thread that blocks in ``read`` (with a
short timeout, so closing is prompt) and hands bytes to the event loop with
``call_soon_threadsafe``.  Writes are small frames written from the loop's
thread (straight to a watched descriptor; through pyserial, with its write
timeout, otherwise).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections.abc import Callable

import serial
from serial.serialposix import Serial as PosixSerial

log = logging.getLogger(__name__)

READ_TIMEOUT = 0.05
WRITE_TIMEOUT = 1.0


class SerialTransport:
    """An open port.  ``on_data(bytes)`` and ``on_lost(reason)`` run in the loop."""

    def __init__(
        self,
        port: serial.SerialBase,
        loop: asyncio.AbstractEventLoop,
        on_data: Callable[[bytes], None],
        on_lost: Callable[[str], None],
    ) -> None:
        self.port = port
        self._loop = loop
        self._on_data = on_data
        self._on_lost = on_lost
        self._stop = threading.Event()
        self._lost_reported = False
        self._fd: int | None = None
        self._thread: threading.Thread | None = None
        fd = getattr(port, "fd", None)
        if isinstance(port, PosixSerial) and isinstance(fd, int) and fd >= 0:
            try:
                loop.add_reader(fd, self._readable)
                self._fd = fd
            except (NotImplementedError, ValueError, OSError):
                self._fd = None
        if self._fd is None:
            self._thread = threading.Thread(
                target=self._reader, name=f"serial-reader {port.port}", daemon=True
            )
            self._thread.start()

    @classmethod
    def open(
        cls,
        url: str,
        baudrate: int,
        loop: asyncio.AbstractEventLoop,
        on_data: Callable[[bytes], None],
        on_lost: Callable[[str], None],
    ) -> SerialTransport:
        """Open the port; raises ``serial.SerialException`` (or ``OSError``) if it cannot."""
        port = serial.serial_for_url(
            url, baudrate=baudrate, timeout=READ_TIMEOUT, write_timeout=WRITE_TIMEOUT
        )
        port.reset_input_buffer()  # bytes from before we opened belong to nobody
        return cls(port, loop, on_data, on_lost)

    def _reader(self) -> None:
        port = self.port
        while not self._stop.is_set():
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                # TypeError/AttributeError: pyserial's fd vanished under a close()
                if not self._stop.is_set():
                    self._report_lost(
                        f"the port {port.port} disconnected or failed (cable pulled?): {exc}"
                    )
                return
            if data:
                self._call(self._on_data, data)

    def _readable(self) -> None:
        """The loop saw the descriptor readable: take everything there is."""
        fd = self._fd
        if fd is None:
            return
        try:
            data = os.read(fd, 4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            self._unwatch()
            self._report_lost(
                f"the port {self.port.port} disconnected or failed (cable pulled?): {exc}"
            )
            return
        if not data:  # readable but empty: the device went away (as pyserial says)
            self._unwatch()
            self._report_lost(
                f"the port {self.port.port} disconnected or failed (cable pulled?): "
                "no data although readable"
            )
            return
        self._on_data(data)

    def _unwatch(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(Exception):
                self._loop.remove_reader(fd)

    def _call(self, fn: Callable[[bytes], None], data: bytes) -> None:
        try:
            self._loop.call_soon_threadsafe(fn, data)
        except RuntimeError:  # the loop is closed: nobody is listening any more
            self._stop.set()

    def _report_lost(self, reason: str) -> None:
        if self._lost_reported:
            return
        self._lost_reported = True
        with contextlib.suppress(RuntimeError):  # the loop is closed
            self._loop.call_soon_threadsafe(self._on_lost, reason)

    def write(self, data: bytes) -> None:
        """Write from the loop's thread; a failed port is reported through on_lost.

        A watched descriptor is written directly: a frame fits the kernel's
        buffer, and pyserial's write would add a ``select`` and its timeout
        bookkeeping to every frame.  Only a full buffer falls back to
        pyserial's write, which waits (up to the write timeout).
        """
        if self._stop.is_set():
            return
        try:
            if self._fd is not None:
                try:
                    written = os.write(self._fd, data)
                except (BlockingIOError, InterruptedError):
                    written = 0
                if written == len(data):
                    return
                data = data[written:]
            self.port.write(data)
        except (serial.SerialException, OSError) as exc:
            self._report_lost(f"cannot write to {self.port.port}: {exc}")

    def close(self) -> None:
        self._stop.set()
        self._unwatch()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        try:
            self.port.close()
        except (serial.SerialException, OSError) as exc:
            log.debug("closing %s: %s", self.port.port, exc)
