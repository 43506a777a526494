"""The checks behind ``pontoon-table doctor``: is this table ready before doors open?

Each check is a small function in :data:`CHECKS`, run in order against one
:class:`Context`; it returns one or more :class:`Finding` in plain words, with
what to do when something is wrong.  A check never raises: an exception from a
device or a library is turned into a finding, because the person reading the
report is an organiser with ten tables to set up, not a programmer.

The device checks talk to the shoe and the panels through the conformance
suite's probe (:mod:`firmware_bridge.conformance.probe`): it is synchronous,
opens any pyserial URL and reports the HELLO_REPLY even when the device speaks
another protocol version, which is exactly what a doctor needs to say *why* a
device is refused.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.config import DEALER_PANEL_ADDRESS, ConfigError, TableConfig, load_config

OK = "ok"
FAIL = "FAIL"
UNKNOWN = "unknown"
SKIPPED = "skipped"


@dataclass(frozen=True)
class Finding:
    """One line of the report: what was checked, how it went, and the fix if any."""

    check: str
    status: str
    detail: str
    fix: str = ""

    @property
    def failed(self) -> bool:
        return self.status == FAIL


@dataclass
class Options:
    """How strict the checks are (command-line options of ``doctor``)."""

    #: frames per second the camera must deliver (docs/hardware.md: at least 100)
    fps: float = 100.0
    #: frame size (width, height) the camera must deliver; None accepts any
    size: tuple[int, int] | None = (640, 480)
    #: read a test card held in front of the camera
    card: bool = True
    #: free space the journal's disk must have, in megabytes
    min_free_mb: float = 200.0
    #: how long to measure the camera's frame rate
    camera_seconds: float = 2.0
    #: how long a device may take to answer HELLO, and the camera its first frame
    timeout: float = 5.0


@dataclass
class Context:
    config_path: Path
    options: Options = field(default_factory=Options)
    config: TableConfig | None = None
    #: the camera's frames, kept by the camera check for the card check
    frames: list[Any] = field(default_factory=list)
    recognizer: Any = None


Check = Callable[[Context], list[Finding]]


def _needs_config(name: str, fn: Callable[[Context, TableConfig], list[Finding]]) -> Check:
    def run(ctx: Context) -> list[Finding]:
        if ctx.config is None:
            return [Finding(name, SKIPPED, "the configuration did not load")]
        try:
            return fn(ctx, ctx.config)
        except Exception as exc:  # a check never stops the report
            return [Finding(name, FAIL, f"the check itself failed: {exc}",
                            "report this message to whoever maintains the table's software")]
    run.__name__ = name
    run.__doc__ = fn.__doc__
    return run


# -- the configuration --------------------------------------------------------------


def check_config(ctx: Context) -> list[Finding]:
    """The file parses and every key is valid (the same check ``run`` makes)."""
    try:
        ctx.config = load_config(ctx.config_path)
    except ConfigError as exc:
        return [Finding("config", FAIL, str(exc), "correct the key named and run doctor again")]
    config = ctx.config
    return [Finding("config", OK, f"{ctx.config_path}: {config.name}, {len(config.seats)} seats, "
                                  f"{config.rules.preset} rules")]


# -- serial devices ----------------------------------------------------------------


def _port_problem(name: str, url: str) -> Finding | None:
    """A device path that is missing or not readable, said before opening it."""
    if not url:
        return Finding(name, FAIL, "no port is configured",
                       f"set [devices] {'shoe' if name == 'shoe' else 'panels'} in the file")
    if "://" in url:
        return None  # a pyserial URL (socket://, rfc2217://): nothing on disk to look at
    if not os.path.exists(url):
        return Finding(name, FAIL, f"{url} does not exist",
                       "plug the USB cable in (and check it with `ls /dev/pontoon-*`); "
                       "after `pontoon-table setup --systemd` the names are /dev/pontoon-shoe "
                       "and /dev/pontoon-bus")
    if not os.access(url, os.R_OK | os.W_OK):
        return Finding(name, FAIL, f"{url} exists but this user may not read and write it",
                       "add the user to the dialout group (`sudo usermod -aG dialout USER`, "
                       "then log in again) or run `pontoon-table setup --systemd`")
    return None


def _hello(url: str, baudrate: int, address: int, bus: bool, timeout: float) -> Any:
    """The device's HELLO_REPLY at ``address``, or None when nothing answered."""
    from firmware_bridge.conformance.probe import Fail, Probe

    probe = Probe.open(url, baudrate=baudrate, address=address, bus=bus,
                       addresses=(address,))
    with contextlib.closing(probe):
        probe.drain(0.05)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                return probe.hello(tries=1)
            except Fail:
                continue
    return None


def _identity(name: str, url: str, reply: Any, kind: int, seat: int | None) -> Finding:
    from firmware_bridge.wire import PROTOCOL_MAJOR, PROTOCOL_MINOR, DeviceKind

    kinds = {DeviceKind.SHOE: "a shoe", DeviceKind.SEAT_PANEL: f"seat panel {reply.seat}",
             DeviceKind.DEALER_PANEL: "the dealer panel"}
    found = kinds.get(reply.kind, f"an unknown device (kind {reply.kind})")
    wanted = kinds.get(DeviceKind(kind), "?") if seat is None or kind != DeviceKind.SEAT_PANEL \
        else f"seat panel {seat}"
    firmware = ".".join(str(n) for n in reply.firmware)
    version = f"protocol {reply.major}.{reply.minor}, firmware {firmware}"
    if reply.kind != kind or (seat is not None and kind == DeviceKind.SEAT_PANEL
                              and reply.seat != seat):
        return Finding(name, FAIL, f"{url} answers as {found}, not {wanted} ({version})",
                       "swap the cables or correct the port/address in the file")
    if reply.major != PROTOCOL_MAJOR:
        return Finding(name, FAIL, f"{found} on {url} speaks protocol {reply.major}.{reply.minor};"
                       f" this software speaks {PROTOCOL_MAJOR}.{PROTOCOL_MINOR} (firmware "
                       f"{firmware})", "update the device's firmware (docs/hardware.md) or "
                       "install the software release that matches it")
    return Finding(name, OK, f"{found} on {url}: {version}, id {reply.unique_id.hex()}")


def _device(ctx: Context, config: TableConfig, name: str, url: str, address: int,
            kind: int, bus: bool, seat: int | None = None) -> Finding:
    import serial

    problem = _port_problem(name, url)
    if problem is not None:
        return problem
    try:
        reply = _hello(url, config.devices.baudrate, address, bus, ctx.options.timeout)
    except (serial.SerialException, OSError, ValueError) as exc:
        return Finding(name, FAIL, f"{url} cannot be opened ({exc})",
                       "close any other program using the port (another `pontoon-table run`?)"
                       " and check the cable")
    if reply is None:
        where = f" at address {address}" if bus else ""
        return Finding(name, FAIL, f"nothing on {url} answers HELLO{where}",
                       "check that the device is powered, that this is its port, and the "
                       f"baud rate ({config.devices.baudrate})"
                       + ("; on the bus, the panel's address switch" if bus else ""))
    return _identity(name, url, reply, kind, seat)


def _shoe(ctx: Context, config: TableConfig) -> list[Finding]:
    """The shoe's port exists, opens, and a shoe of our protocol answers HELLO."""
    from firmware_bridge.wire import DeviceKind

    return [_device(ctx, config, "shoe", config.devices.shoe, 0, DeviceKind.SHOE, bus=False)]


def _panels(ctx: Context, config: TableConfig) -> list[Finding]:
    """Every configured seat panel and the dealer panel answer on the bus."""
    from firmware_bridge.wire import DeviceKind

    url = config.devices.panels
    problem = _port_problem("panel bus", url)
    if problem is not None:
        return [problem]
    findings = [
        _device(ctx, config, f"panel {seat.panel_address} ({seat.name})", url,
                seat.panel_address, DeviceKind.SEAT_PANEL, bus=True, seat=seat.panel_address)
        for seat in config.seats
    ]
    findings.append(_device(ctx, config, "dealer panel", url, DEALER_PANEL_ADDRESS,
                            DeviceKind.DEALER_PANEL, bus=True))
    return findings


# -- camera and deck ---------------------------------------------------------------


def _profile(ctx: Context, config: TableConfig) -> list[Finding]:
    """The deck profile loads (the recogniser is built from it)."""
    from vision.profile import ProfileError
    from vision.recognizer import Recognizer

    profile = config.camera.profile
    try:
        ctx.recognizer = Recognizer(profile)
    except ProfileError as exc:
        return [Finding("deck profile", FAIL, str(exc),
                        "learn the deck with `pontoon-table vision calibrate` and set "
                        "[camera] profile to the file it writes")]
    return [Finding("deck profile", OK, f"{profile or 'the built-in deck'} loads")]


def _camera(ctx: Context, config: TableConfig) -> list[Finding]:
    """The camera opens and sends frames of the expected size at the expected rate."""
    from vision.sources import ImageError, LiveCaptureSource, open_camera

    source = config.camera.source
    try:
        camera = open_camera(source)
    except ImageError as exc:
        return [Finding("camera", FAIL, str(exc), "check [camera] source in the file")]
    if not isinstance(camera, LiveCaptureSource):
        return [Finding("camera", FAIL, f"{source!r} is a recorded video, not a camera",
                        "set [camera] source to the camera's index, device or stream URL")]
    try:
        if not camera.wait_connected(ctx.options.timeout):
            why = camera.problem or "no picture"
            return [Finding("camera", FAIL, f"camera {source!r}: {why}",
                            "check the camera's cable (or that its stream is running) and "
                            "[camera] source in the file")]
        start, first = time.monotonic(), camera.frames_read
        frame = None
        while time.monotonic() - start < ctx.options.camera_seconds:
            frame = camera.grab()
            if frame is not None and len(ctx.frames) < 10:
                ctx.frames.append(frame)
        rate = (camera.frames_read - first) / (time.monotonic() - start)
    finally:
        camera.release()
    if frame is None:
        return [Finding("camera", FAIL, f"camera {source!r} stopped sending pictures",
                        "check the camera's cable and power")]
    height, width = frame.shape[:2]
    findings: list[Finding] = []
    wanted = ctx.options.size
    if wanted is not None and (width, height) != wanted:
        findings.append(Finding("camera", FAIL, f"camera {source!r} sends {width}x{height} "
                                f"pictures; the deck needs {wanted[0]}x{wanted[1]}",
                                "set the camera's resolution (docs/hardware.md)"))
    if rate < ctx.options.fps:
        findings.append(Finding("camera", FAIL, f"camera {source!r} sends {rate:.0f} frames a "
                                f"second; at least {ctx.options.fps:g} are needed",
                                "use the camera mode docs/hardware.md names, a USB 3 port, "
                                "and enough light for a short exposure"))
    if not findings:
        findings.append(Finding("camera", OK, f"camera {source!r}: {width}x{height} at "
                                f"{rate:.0f} frames a second"))
    return findings


def _card(ctx: Context, config: TableConfig) -> list[Finding]:
    """A test card held in front of the camera is read."""
    if not ctx.options.card:
        return [Finding("test card", SKIPPED, "left out (--no-card)")]
    if ctx.recognizer is None or not ctx.frames:
        return [Finding("test card", SKIPPED, "needs the camera and the deck profile")]
    readings = [ctx.recognizer.read(frame) for frame in ctx.frames]
    read = [r.card for r in readings if r.card is not None]
    if read:
        return [Finding("test card", OK, f"read {read[-1]}")]
    reason = next((r.reason for r in readings if r.reason), "no card seen")
    return [Finding("test card", FAIL, f"no card read ({reason})",
                    "hold a card face up under the camera (or in the shoe's window) and run "
                    "doctor again; if it is there, calibrate the deck again")]


# -- display -----------------------------------------------------------------------


def lan_address() -> str | None:
    """This box's address on its network (the route to an outside address; no packet
    is sent), or None when it has no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def _display(ctx: Context, config: TableConfig) -> list[Finding]:
    """The display's port is free, and reachable at the LAN address the tablet uses."""
    host, port = config.display.host, config.display.port
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # as uvicorn does: a connection of a previous run in TIME_WAIT does not hold the port
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        server.bind((host, port))
    except OSError as exc:
        server.close()
        if exc.errno == errno.EADDRINUSE:
            return [Finding("display", FAIL, f"port {port} is already in use on {host}",
                            "stop the other program (is the table already running?) or set "
                            "[display] port to another number")]
        return [Finding("display", FAIL, f"cannot listen on {host}:{port} ({exc.strerror})",
                        "set [display] host to 0.0.0.0 or this box's own address")]
    with server:
        server.listen(1)
        lan = lan_address()
        if lan is None:
            return [Finding("display", FAIL, f"port {port} is free but this box has no network "
                            "address", "connect the box to the table's switch or start its "
                            "hotspot (docs/venue.md)")]
        accepted = threading.Thread(target=_accept_one, args=(server,), daemon=True)
        accepted.start()
        try:
            socket.create_connection((lan, port), timeout=2).close()
        except OSError:
            return [Finding("display", FAIL, f"port {port} is free but http://{lan}:{port}/ "
                            f"cannot be reached (the display listens on {host} only)",
                            'set [display] host = "0.0.0.0" so tablets on the network can '
                            "reach it")]
        accepted.join(2)
    return [Finding("display", OK, f"port {port} free; tablets open http://{lan}:{port}/dealer")]


def _accept_one(server: socket.socket) -> None:
    with contextlib.suppress(OSError):
        server.settimeout(2)
        connection, _ = server.accept()
        connection.close()


# -- journal -----------------------------------------------------------------------


def _disk(ctx: Context, config: TableConfig) -> list[Finding]:
    """The journal's disk has room for an evening."""
    folder = config.journal.resolve().parent
    if not folder.is_dir():
        return [Finding("journal disk", FAIL, f"the journal's folder {folder} does not exist",
                        "create it, or set [table] journal to a file in an existing folder")]
    if not os.access(folder, os.W_OK):
        return [Finding("journal disk", FAIL, f"this user may not write in {folder}",
                        "run the table as the user `setup` created, or fix the folder's owner")]
    free_mb = shutil.disk_usage(folder).free / 1e6
    if free_mb < ctx.options.min_free_mb:
        return [Finding("journal disk", FAIL, f"only {free_mb:.0f} MB free on the journal's disk "
                        f"({folder}); {ctx.options.min_free_mb:g} MB are wanted",
                        "free space (old backups, logs) or move the journal to another disk")]
    return [Finding("journal disk", OK, f"{free_mb:.0f} MB free in {folder}")]


def _journal(ctx: Context, config: TableConfig) -> list[Finding]:
    """The journal opens and its chain verifies, or its damage is named."""
    from controller.journal import Journal, JournalError

    path = config.journal
    if not path.exists():
        return [Finding("journal", OK, f"{path} does not exist yet; the table starts a new one")]
    try:
        with Journal(path) as journal:
            games, head = journal.games(), journal.head
    except JournalError as exc:
        return [Finding("journal", FAIL, str(exc),
                        "restore the journal from its backup, or start the table with "
                        "--recover (the damaged rows are kept aside)")]
    return [Finding("journal", OK, f"{path}: {len(games)} game(s), {head} row(s), chain intact")]


# -- clock -------------------------------------------------------------------------


def check_clock(ctx: Context) -> list[Finding]:
    """The clock is synchronised (the journal's times are what the organiser reads)."""
    tool = shutil.which("timedatectl")
    if tool is None:
        return [Finding("clock", UNKNOWN, "timedatectl is not installed, so whether the clock "
                        "is synchronised cannot be told", "compare the box's `date` with a "
                        "phone's clock; install systemd-timesyncd for automatic time")]
    try:
        done = subprocess.run([tool, "show", "-p", "NTPSynchronized", "--value"],
                              capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [Finding("clock", UNKNOWN, f"timedatectl did not answer ({exc})",
                        "compare the box's `date` with a phone's clock")]
    answer = done.stdout.strip()
    if done.returncode != 0 or answer not in ("yes", "no"):
        why = (done.stderr.strip().splitlines() or ["no answer"])[-1]
        return [Finding("clock", UNKNOWN, f"timedatectl cannot tell ({why}; no systemd here?)",
                        "compare the box's `date` with a phone's clock")]
    if answer == "no":
        return [Finding("clock", FAIL, f"the clock is not synchronised (it says {time.ctime()})",
                        "give the box network time (`timedatectl set-ntp true`, an NTP server "
                        "on the venue network) or set it by hand: `sudo date -s 'HH:MM'`")]
    return [Finding("clock", OK, "synchronised by NTP")]


#: every check, in the order the report lists them
CHECKS: list[Check] = [
    check_config,
    _needs_config("shoe", _shoe),
    _needs_config("panel bus", _panels),
    _needs_config("deck profile", _profile),
    _needs_config("camera", _camera),
    _needs_config("test card", _card),
    _needs_config("display", _display),
    _needs_config("journal disk", _disk),
    _needs_config("journal", _journal),
    check_clock,
]


def run_checks(ctx: Context, report: Callable[[Finding], None] | None = None) -> list[Finding]:
    findings: list[Finding] = []
    for check in CHECKS:
        for finding in check(ctx):
            findings.append(finding)
            if report is not None:
                report(finding)
    return findings


def format_finding(finding: Finding) -> str:
    line = f"{finding.status:<8} {finding.check}: {finding.detail}"
    if finding.fix and finding.status in (FAIL, UNKNOWN):
        line += f"\n         -> {finding.fix}"
    return line
