"""Run a device core on a real pseudo-terminal or TCP port, in a thread.

The smallest "firmware runner": a thread that moves bytes between a port and
a sans-I/O :class:`~firmware_bridge.device.DeviceCore` (or a
:class:`~firmware_bridge.device.BusEndpoint`) and passes it the time.  The
integration tests, the link benchmark and the hardware simulator use it.

* :class:`PtyPort`: a pty pair whose slave path is published as a stable
  symlink (like ``/dev/serial/by-id/...``), so :meth:`PtyPort.unplug` /
  :meth:`PtyPort.replug` behave like pulling and re-inserting a USB cable: the
  host's reads fail, and the same path works again after the replug.
* :class:`TcpPort`: a listening socket for ``socket://127.0.0.1:PORT``.

Optional faults for tests and benchmarks: corrupt a fraction of the bytes in
both directions, and pace writes to a baud rate (a pty has no line speed).
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import select
import socket
import threading
import time
import tty
from collections.abc import Callable
from typing import Protocol, TypeVar

from firmware_bridge.device import BusEndpoint, DeviceCore

Target = DeviceCore | BusEndpoint
R = TypeVar("R")


class Port(Protocol):
    url: str

    def fileno(self) -> int | None: ...

    def read(self) -> bytes: ...

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...


class PtyPort:
    """The device's end (master) of a pty; the host opens :attr:`url`."""

    def __init__(self, link_path: str | None = None) -> None:
        self.link_path = link_path
        self._master: int | None = None
        self._slave: int | None = None
        self.url = ""
        self.replug()

    def replug(self) -> None:
        """A fresh pty pair, published at the same symlink if there is one."""
        self.unplug()
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline, before the host opens it
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        slave_path = os.ttyname(slave)
        if self.link_path:
            tmp = f"{self.link_path}.tmp{os.getpid()}"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(slave_path, tmp)
            os.replace(tmp, self.link_path)
            self.url = self.link_path
        else:
            self.url = slave_path

    def unplug(self) -> None:
        # The link goes first, as udev removes a by-id link when the cable is
        # pulled: closed first, the pair's /dev/pts/N is free for any other
        # process's new terminal while the link still names it, and a host
        # reconnecting in that moment talks to that other device (a test
        # beside another one saw its shoe "restart" as the other's; the
        # simulator's ``hardware_sim.ports.PtyPort`` learnt the same).
        if self.link_path and self._master is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.link_path)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def fileno(self) -> int | None:
        return self._master

    def read(self) -> bytes:
        if self._master is None:
            return b""
        try:
            return os.read(self._master, 4096)
        except OSError as exc:
            if exc.errno in (errno.EIO, errno.EAGAIN):
                return b""
            raise

    def write(self, data: bytes) -> None:
        if self._master is None:
            return
        # Like a UART that nobody listens to: what does not fit is lost (the
        # protocol's retransmission is there for exactly that).
        with contextlib.suppress(BlockingIOError):
            os.write(self._master, data)

    def close(self) -> None:
        self.unplug()
        if self.link_path:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.link_path)


class TcpPort:
    """One TCP client at a time on 127.0.0.1; unplug drops the client."""

    def __init__(self, port: int = 0) -> None:
        self._server = socket.create_server(("127.0.0.1", port))
        self._server.setblocking(False)
        self._client: socket.socket | None = None
        self.url = f"socket://127.0.0.1:{self._server.getsockname()[1]}"

    def fileno(self) -> int | None:
        return self._client.fileno() if self._client else self._server.fileno()

    def read(self) -> bytes:
        if self._client is None:
            with contextlib.suppress(BlockingIOError):
                self._client, _ = self._server.accept()
                self._client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return b""
        try:
            data = self._client.recv(4096)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:
            data = b""
        if not data:
            self.unplug()
        return data

    def write(self, data: bytes) -> None:
        if self._client is not None:
            try:
                self._client.sendall(data)
            except OSError:
                self.unplug()

    def unplug(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def close(self) -> None:
        self.unplug()
        self._server.close()


class DeviceRunner:
    """Drives ``target`` over ``port`` in a thread until :meth:`stop`.

    Everything that touches the target from outside goes through
    :meth:`call`, which runs under the runner's lock with the current time,
    e.g. ``runner.call(lambda core, now: core.emit_card_out(now))``.
    """

    def __init__(
        self,
        target: Target,
        port: Port,
        *,
        corrupt: float = 0.0,
        seed: int = 0,
        baud: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.target = target
        self.port = port
        self.corrupt = corrupt
        self.baud = baud
        self.clock = clock
        self._rng = random.Random(seed)
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="device-runner", daemon=True)
        self.bytes_corrupted = 0
        self.error: BaseException | None = None

    @property
    def url(self) -> str:
        return self.port.url

    def start(self) -> DeviceRunner:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
        self.port.close()

    def __enter__(self) -> DeviceRunner:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def call(self, fn: Callable[[Target, float], R]) -> R:
        with self._lock:
            result = fn(self.target, self.clock())
            self._flush()
            return result

    def replace(self, target: Target) -> None:
        """Swap the device (a reboot: the new core has a new ``boot_id``)."""
        with self._lock:
            self.target = target

    def unplug(self) -> None:
        with self._lock:
            self._unplug()

    def _unplug(self) -> None:
        unplug = getattr(self.port, "unplug", None)
        if unplug is not None:
            unplug()

    def replug(self) -> None:
        with self._lock:
            replug = getattr(self.port, "replug", None)
            if replug is not None:
                replug()

    def _mangle(self, data: bytes) -> bytes:
        if not self.corrupt or not data:
            return data
        out = bytearray(data)
        for i in range(len(out)):
            if self._rng.random() < self.corrupt:
                out[i] ^= self._rng.randrange(1, 256)
                self.bytes_corrupted += 1
        return bytes(out)

    def _flush(self) -> None:
        data = self.target.data_to_send()
        if not data:
            return
        data = self._mangle(data)
        if self.baud:
            time.sleep(len(data) * 10 / self.baud)
        self.port.write(data)

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                fd = self.port.fileno()
                with self._lock:
                    deadline = self.target.next_deadline()
                timeout = 0.02
                if deadline is not None:
                    timeout = min(timeout, max(0.0, deadline - self.clock()))
                if fd is None:
                    time.sleep(timeout)
                    readable = False
                else:
                    try:
                        readable = bool(select.select([fd], [], [], timeout)[0])
                    except (OSError, ValueError):  # fd closed by an unplug meanwhile
                        readable = False
                with self._lock:
                    now = self.clock()
                    if readable and self.port.fileno() == fd:
                        data = self.port.read()
                        if data:
                            self.target.receive_bytes(self._mangle(data), now)
                        elif isinstance(self.port, PtyPort):
                            time.sleep(0.005)  # EIO: no host has the slave open
                    self.target.tick(now)
                    self._flush()
        except BaseException as exc:  # surfaced to the test that owns the runner
            self.error = exc
            raise
