"""Serial ports the controller opens exactly as it would open real hardware.

* :class:`PtyPort` — a pseudo-terminal pair (``os.openpty``, raw mode). The
  emulated firmware keeps the master side; the host opens the slave path, just
  as it opens ``/dev/ttyACM0``. With ``link_dir`` the port is published as a
  stable symlink (like ``/dev/serial/by-id/...``) that survives unplugging:
  :meth:`PtyPort.unplug` closes the pair, so the host's reads fail exactly as
  when a USB cable is pulled, and :meth:`PtyPort.replug` makes a new pair and
  points the symlink at it.
* :class:`SocketPort` — a ``socket://127.0.0.1:PORT`` server (pyserial's
  ``serial_for_url`` connects to it); unplugging drops the connection and
  refuses new ones until replugged.

Both are driven by an asyncio loop (:meth:`Port.attach`): bytes that arrive
are handed to a callback, and :meth:`Port.write` sends. A port whose host is
not listening drops what is written, as a UART with nobody at the other end
does.

Example (in a thread or task that runs an asyncio loop)::

    port = PtyPort("shoe", link_dir=Path("/tmp/table"))
    port.attach(asyncio.get_running_loop(), on_bytes=lambda data: print(data))
    print(port.url)       # /tmp/table/shoe -> /dev/pts/7: give this to the host
    port.write(b"\\x01\\x00")
    port.unplug(); port.replug()
    port.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import socket
import termios
import tty
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path

OnBytes = Callable[[bytes], None]

_READ_SIZE = 4096


class Port(ABC):
    """One device's end of a serial line."""

    name: str

    def __init__(self, name: str) -> None:
        self.name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._on_bytes: OnBytes | None = None
        self.plugged = True
        self.bytes_in = 0
        self.bytes_out = 0

    @property
    @abstractmethod
    def url(self) -> str:
        """What the host opens (a path or a pyserial URL)."""

    def attach(self, loop: asyncio.AbstractEventLoop, on_bytes: OnBytes) -> None:
        """Start delivering received bytes to ``on_bytes`` on ``loop``."""
        self._loop, self._on_bytes = loop, on_bytes
        self._register()

    @abstractmethod
    def _register(self) -> None: ...

    @abstractmethod
    def write(self, data: bytes) -> None:
        """Send to the host; silently lost when nobody is connected."""

    @abstractmethod
    def unplug(self) -> None:
        """Pull the cable: the host's next read or write fails."""

    @abstractmethod
    def replug(self) -> None:
        """Put the cable back: the host can open :attr:`url` again."""

    @abstractmethod
    def close(self) -> None: ...

    def _deliver(self, data: bytes) -> None:
        self.bytes_in += len(data)
        if self._on_bytes is not None:
            self._on_bytes(data)


class PtyPort(Port):
    """A pseudo-terminal; see the module docstring."""

    def __init__(self, name: str, link_dir: Path | None = None) -> None:
        super().__init__(name)
        self.link = (link_dir / name) if link_dir is not None else None
        self._master = -1
        self._slave = -1
        self._tty_path = ""
        self._open_pair()

    def _open_pair(self) -> None:
        master, slave = os.openpty()
        # Raw: no echo, no line discipline, every byte passes as it is (a UART).
        tty.setraw(slave, termios.TCSANOW)
        tty.setraw(master, termios.TCSANOW)
        os.set_blocking(master, False)
        # The emulator keeps its own slave descriptor open: without it, the
        # master reads EIO (and polls as hung up) whenever the host has the
        # port closed, e.g. between its reconnection attempts.
        self._master, self._slave = master, slave
        self._tty_path = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self._tty_path)
            tmp.replace(self.link)

    @property
    def url(self) -> str:
        return str(self.link) if self.link is not None else self._tty_path

    @property
    def tty_path(self) -> str:
        """The ``/dev/pts/N`` behind :attr:`url` right now (changes on replug)."""
        return self._tty_path

    def _register(self) -> None:
        if self._loop is not None and self._master >= 0:
            self._loop.add_reader(self._master, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self._master, _READ_SIZE)
        except BlockingIOError:
            return
        except OSError as exc:
            if exc.errno == errno.EIO:  # no slave open at all; cannot happen while we hold one
                return
            raise
        if data:
            self._deliver(data)

    def write(self, data: bytes) -> None:
        if self._master < 0 or not data:
            return
        try:
            written = os.write(self._master, data)
        except (BlockingIOError, OSError):
            return  # the host is not draining the port: bytes fall on the floor
        self.bytes_out += written

    def flush_stale_input(self) -> None:
        """Forget bytes queued toward a host that is not there (a USB device would too)."""
        if self._slave >= 0:
            with contextlib.suppress(OSError):
                termios.tcflush(self._slave, termios.TCIOFLUSH)

    def _close_pair(self) -> None:
        if self._loop is not None and self._master >= 0:
            self._loop.remove_reader(self._master)
        for fd in (self._master, self._slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = -1

    def unplug(self) -> None:
        if not self.plugged:
            return
        self.plugged = False
        # The link goes first: closed first, the pair's /dev/pts/N is free for
        # any other process's new terminal while the link still names it, and
        # a host reconnecting in that moment talks to that other device (a
        # test beside another one once saw its shoe "reboot" as the other's).
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
        self._close_pair()

    def replug(self) -> None:
        if self.plugged:
            return
        self._open_pair()
        self.plugged = True
        self._register()

    def close(self) -> None:
        self.unplug()
        self.plugged = False


class SocketPort(Port):
    """A ``socket://`` server that accepts one host at a time."""

    def __init__(self, name: str, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(name)
        self.host = host
        self._listener: socket.socket | None = None
        self._client: socket.socket | None = None
        self._port = port
        self._listen()

    def _listen(self) -> None:
        srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind((self.host, self._port))
        srv.listen(1)
        srv.setblocking(False)
        self._port = srv.getsockname()[1]
        self._listener = srv

    @property
    def url(self) -> str:
        return f"socket://{self.host}:{self._port}"

    @property
    def connected(self) -> bool:
        return self._client is not None

    def _register(self) -> None:
        if self._loop is not None and self._listener is not None:
            self._loop.add_reader(self._listener.fileno(), self._accept)

    def _accept(self) -> None:
        assert self._listener is not None
        try:
            conn, _ = self._listener.accept()
        except BlockingIOError:
            return
        self._drop_client()  # a new host replaces the old one, as a replugged cable
        conn.setblocking(False)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._client = conn
        if self._loop is not None:
            self._loop.add_reader(conn.fileno(), self._readable)

    def _readable(self) -> None:
        if self._client is None:
            return
        try:
            data = self._client.recv(_READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._drop_client()
            return
        self._deliver(data)

    def write(self, data: bytes) -> None:
        if self._client is None or not data:
            return
        try:
            self._client.sendall(data)
            self.bytes_out += len(data)
        except OSError:
            self._drop_client()

    def _drop_client(self) -> None:
        if self._client is None:
            return
        if self._loop is not None:
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(self._client.fileno())
        with contextlib.suppress(OSError):
            self._client.close()
        self._client = None

    def unplug(self) -> None:
        if not self.plugged:
            return
        self.plugged = False
        self._drop_client()
        if self._listener is not None:
            if self._loop is not None:
                with contextlib.suppress(ValueError, OSError):
                    self._loop.remove_reader(self._listener.fileno())
            self._listener.close()
            self._listener = None

    def replug(self) -> None:
        if self.plugged:
            return
        self._listen()
        self.plugged = True
        self._register()

    def close(self) -> None:
        self.unplug()


def make_port(name: str, kind: str, link_dir: Path | None = None) -> Port:
    """``kind`` is ``pty`` or ``socket``."""
    if kind == "pty":
        return PtyPort(name, link_dir)
    if kind == "socket":
        return SocketPort(name)
    raise ValueError(f"unknown port kind {kind!r}; choose pty or socket")
