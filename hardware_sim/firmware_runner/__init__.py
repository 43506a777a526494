"""The reference MicroPython firmware, run under real MicroPython, on a pty.

:class:`MicroPythonDevice` starts ``node run.mjs`` (MicroPython 1.27 compiled
to WebAssembly, from the npm package ``@micropython/micropython-webassembly-pyscript``)
with the firmware files of ``firmware_bridge/firmware/`` and their simulated
HAL, and bridges the firmware's UART to a real pseudo-terminal
(:class:`hardware_sim.ports.PtyPort`), so the host opens it exactly as it
opens ``/dev/ttyACM0``. A control channel is the world's hand: pull cards,
push the gate, jam it, press buttons, read the firmware's counters and RAM.

Why Node talks to Python over pipes rather than opening the pty itself: Node
cannot put a terminal it did not create into raw mode, and keeping the pty in
Python reuses the simulator's ports (unplug and replug included).

Usage (in a test; everything runs in a background thread)::

    with MicroPythonDevice.shoe(tmp_path) as dev:
        async with Shoe.open(dev.url) as shoe: ...
        dev.control("pull", n=3)
        dev.stats()["mem_alloc"]
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import threading
from collections import deque
from concurrent.futures import Future
from importlib import resources
from pathlib import Path
from types import TracebackType
from typing import Any

from hardware_sim.ports import PtyPort

MICROPYTHON_PACKAGE = "@micropython/micropython-webassembly-pyscript"
MICROPYTHON_VERSION = "1.27.0"
RUNNER = Path(__file__).with_name("run.mjs")


class FirmwareRunnerError(RuntimeError):
    """MicroPython or Node is missing, or the firmware stopped."""


def firmware_dir() -> Path:
    """The firmware files, as the package ships them."""
    return Path(str(resources.files("firmware_bridge") / "firmware"))


def _cache_dir() -> Path:
    env = os.environ.get("PONTOON_MPY_CACHE")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[2]
    if (repo / "pyproject.toml").exists():
        return repo / ".cache" / "mpy"
    return Path.home() / ".cache" / "pontoon-table" / "mpy"


def micropython_module(install: bool = True) -> Path:
    """``micropython.mjs`` of the pinned version, installed with npm when missing."""
    cache = _cache_dir()
    module = cache / "node_modules" / MICROPYTHON_PACKAGE / "micropython.mjs"
    if module.exists():
        return module
    if not install:
        raise FirmwareRunnerError(f"MicroPython is not installed in {cache}")
    npm = shutil.which("npm")
    if npm is None:
        raise FirmwareRunnerError(
            "npm is missing: install Node.js (Debian: apt-get install nodejs npm)"
        )
    cache.mkdir(parents=True, exist_ok=True)
    # One installer at a time: parallel test workers (pytest-xdist) may all
    # find it missing; the first installs, the others wait and find it there.
    with open(cache / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not module.exists():
            subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--prefix", str(cache),
                 f"{MICROPYTHON_PACKAGE}@{MICROPYTHON_VERSION}"],
                check=True, capture_output=True, timeout=300,
            )  # fmt: skip
    if not module.exists():
        raise FirmwareRunnerError(f"npm installed {MICROPYTHON_PACKAGE} but {module} is missing")
    return module


def node_binary() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise FirmwareRunnerError(
            "node is missing: install Node.js 20 (Debian: apt-get install nodejs)"
        )
    return node


class MicroPythonDevice:
    """One shoe, or several panels sharing one bus, behind one pty (one interpreter)."""

    def __init__(
        self,
        config: dict[str, Any] | list[dict[str, Any]],
        name: str = "shoe",
        link_dir: Path | None = None,
    ) -> None:
        self.configs = [dict(c) for c in config] if isinstance(config, list) else [dict(config)]
        self.name = name
        self.link_dir = link_dir
        self.log: deque[str] = deque(maxlen=200)  # the firmware's print output
        self.error: str | None = None
        self._module = micropython_module()
        self._node = node_binary()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name=f"mpy-{name}", daemon=True
        )
        self._port: PtyPort | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._replies: deque[Future[dict[str, Any]]] = deque()
        self._ready: Future[None] = Future()
        self.boots = 0

    @classmethod
    def shoe(cls, link_dir: Path | None = None, **config: Any) -> MicroPythonDevice:
        cfg: dict[str, Any] = {"kind": "shoe", "unique_id": "SHOE0001"}
        cfg.update(config)
        return cls(cfg, "shoe", link_dir)

    @classmethod
    def bus(
        cls, seats: list[int], dealer: bool = True, link_dir: Path | None = None
    ) -> MicroPythonDevice:
        """Panels on one RS-485 bus: seat panels at ``seats``' addresses, the dealer's
        at 15; control requests take ``dev=`` their index in that order."""
        cfgs: list[dict[str, Any]] = [
            {"kind": "seat", "address": n, "unique_id": f"SEAT{n:04d}"} for n in seats
        ]
        if dealer:
            cfgs.append({"kind": "dealer", "address": 15, "unique_id": "DEALER01"})
        return cls(cfgs, "panels", link_dir)

    # -- lifecycle ----------------------------------------------------------
    def start(self) -> MicroPythonDevice:
        self._thread.start()
        self._call(self._open_port())
        self._call(self._boot())
        return self

    def close(self) -> None:
        if not self._thread.is_alive():
            return
        with contextlib.suppress(Exception):
            self._call(self._stop_node())
        if self._port is not None:
            port = self._port
            self._loop.call_soon_threadsafe(port.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()

    def __enter__(self) -> MicroPythonDevice:
        return self.start()

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def url(self) -> str:
        assert self._port is not None
        return self._port.url

    # -- the world's hand ---------------------------------------------------
    def control(self, op: str, **args: Any) -> dict[str, Any]:
        """Send one request to the simulated HAL (``pull``, ``push_gate``, ``jam``,
        ``load``, ``press``, ``world``) or ``stats`` (the firmware's counters);
        ``dev=i`` picks the i-th panel on a bus."""
        reply: dict[str, Any] = self._call(self._control({"op": op, **args}))
        return reply

    def stats(self, dev: int = 0) -> dict[str, Any]:
        return self.control("stats", dev=dev)

    def unplug(self) -> None:
        """Pull the USB cable; the board keeps running (powered from its 5 V rail)."""
        self._call(self._do(lambda p: p.unplug()))

    def replug(self) -> None:
        self._call(self._do(lambda p: p.replug()))

    def reboot(self) -> None:
        """Power-cycle the board: a new interpreter, a new ``boot_id``, an empty log."""
        self._call(self._stop_node())
        self._call(self._boot())

    # -- inside the loop thread ----------------------------------------------
    def _call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(30)

    async def _do(self, fn: Any) -> None:
        assert self._port is not None
        fn(self._port)

    async def _open_port(self) -> None:
        self._port = PtyPort(self.name, self.link_dir)
        self._port.attach(asyncio.get_running_loop(), self._from_host)

    async def _boot(self) -> None:
        self.boots += 1
        cfgs = []
        for config in self.configs:
            cfg = dict(config)
            cfg.setdefault("boot_seed", int.from_bytes(os.urandom(4), "little") or 1)
            if self.boots > 1 and "boot_seed" in config:
                cfg["boot_seed"] = (config["boot_seed"] + self.boots - 1) & 0xFFFFFFFF or 1
            cfgs.append(cfg)
        self._ready = Future()
        self._proc = await asyncio.create_subprocess_exec(
            self._node, str(RUNNER), str(self._module), str(firmware_dir()),
            json.dumps(cfgs if len(cfgs) > 1 else cfgs[0]),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=1 << 20,
        )  # fmt: skip
        self._reader = asyncio.get_running_loop().create_task(self._read(self._proc))
        await asyncio.wrap_future(self._ready)

    async def _stop_node(self) -> None:
        proc = self._proc
        self._proc = None
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            async with asyncio.timeout(5):
                await proc.wait()
        except TimeoutError:
            proc.kill()
            await proc.wait()
        if self._reader is not None:
            await self._reader

    def _from_host(self, data: bytes) -> None:
        proc = self._proc
        if proc is not None and proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.write(b"U " + data.hex().encode() + b"\n")

    async def _control(self, req: dict[str, Any]) -> dict[str, Any]:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise FirmwareRunnerError(self.error or "the firmware is not running")
        fut: Future[dict[str, Any]] = Future()
        self._replies.append(fut)
        proc.stdin.write(b"C " + json.dumps(req).encode() + b"\n")
        return await asyncio.wrap_future(fut)

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        while True:
            line = (await proc.stdout.readline()).decode(errors="replace").rstrip("\n")
            if not line:
                break
            tag, _, rest = line.partition(" ")
            if tag == "U":
                if self._port is not None:
                    self._port.write(bytes.fromhex(rest))
            elif tag == "R":
                if self._replies:
                    self._replies.popleft().set_result(json.loads(rest) or {})
            elif tag == "P":
                self.log.append(rest)
                if rest == "ready" and not self._ready.done():
                    self._ready.set_result(None)
            elif tag == "E":
                self.error = rest
                self.log.append(line)
        message = self.error or "the firmware stopped"
        if not self._ready.done():
            self._ready.set_exception(FirmwareRunnerError(message))
        while self._replies:
            self._replies.popleft().set_exception(FirmwareRunnerError(message))


def start_micropython_shoe(
    tmp_path: Path | None = None, **config: Any
) -> tuple[str, MicroPythonDevice]:
    """A started firmware shoe: ``(url, device)``; call ``device.close()`` when done.

    For the conformance suite and other tests: ``url`` is what
    ``Shoe.open`` or ``pontoon-table conformance shoe`` takes, ``device`` is the
    control channel (``device.control("pull", n=1)``, ``device.stats()``).
    """
    dev = MicroPythonDevice.shoe(tmp_path, **config).start()
    return dev.url, dev


def start_micropython_bus(
    tmp_path: Path | None = None, seats: list[int] | None = None, dealer: bool = True
) -> tuple[str, MicroPythonDevice]:
    """Started firmware panels on one bus: ``(url, device)``, for ``PanelBus.open``
    or ``pontoon-table conformance bus``; ``device.control(..., dev=i)`` reaches
    the i-th panel (seats in order, then the dealer's)."""
    dev = MicroPythonDevice.bus(seats if seats is not None else [1, 2], dealer, tmp_path).start()
    return dev.url, dev
