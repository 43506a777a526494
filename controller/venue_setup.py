"""The files that make a table's box start the table by itself.

Pure text generation (the ``setup`` command writes and installs them):

* ``pontoon-table.service``: ``pontoon-table run`` with the table's file in
  ``/etc/pontoon-table``, as the unprivileged ``pontoon`` user (in the
  ``dialout`` and ``video`` groups: serial ports and the camera), restarted on
  failure.  Its working and state directory is ``/var/lib/pontoon-table``
  (``StateDirectory=``): journals live there, outside the installation, so an
  update (a new virtual environment) never touches them.  Logs go to journald
  under the identifier ``pontoon-table`` with the field ``PONTOON_TABLE=<id>``
  (``journalctl PONTOON_TABLE=table-1``).
* ``pontoon-kiosk.service``: the players' screen.  `cage
  <https://github.com/cage-kiosk/cage>`_, a Wayland compositor that shows one
  application full screen and nothing else, runs Chromium in kiosk mode on the
  first virtual terminal (the HDMI output) at ``/table``.  Chosen over an X
  session with a window manager: one small package (Debian ``cage``), no
  desktop, no login screen, no screen saver, and it exits (and is restarted)
  if Chromium dies.
* ``99-pontoon-table.rules``: udev rules giving the shoe and the panel bus
  fixed names (``/dev/pontoon-shoe``, ``/dev/pontoon-bus``) by their USB serial
  numbers, in the ``dialout`` group, and the FTDI adapter's latency timer at
  1 ms (docs/hardware.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: the USB vendor ids of docs/hardware.md's parts
PICO_VENDOR = "2e8a"  # Raspberry Pi (the shoe's Pico)
FTDI_VENDOR = "0403"  # FTDI (the USB-RS-485 adapter)
SERVICE = "pontoon-table.service"
KIOSK = "pontoon-kiosk.service"
RULES = "99-pontoon-table.rules"
CONFIG = "/etc/pontoon-table/table.toml"
STATE = "/var/lib/pontoon-table"


@dataclass(frozen=True)
class Setup:
    #: the installed ``pontoon-table`` executable
    exe: str
    table_id: str = "table"
    user: str = "pontoon"
    port: int = 8000
    cage: str = "/usr/bin/cage"
    chromium: str = "/usr/bin/chromium"
    config: str = CONFIG
    shoe_serial: str | None = None
    bus_serial: str | None = None


_SAFE = re.compile(r"^[A-Za-z0-9._-]+$")


def check_words(setup: Setup) -> None:
    """Values that end up in unit files and udev rules must be plain words."""
    for name in ("table_id", "user", "shoe_serial", "bus_serial"):
        value = getattr(setup, name)
        if value is not None and not _SAFE.match(value):
            raise ValueError(f"--{name.replace('_', '-')} may hold only letters, digits, "
                             f"'.', '_' and '-' (got {value!r})")


def table_service(setup: Setup) -> str:
    return f"""\
# Written by `pontoon-table setup --systemd`: the table service.
[Unit]
Description=Pontoon table {setup.table_id}
# how to use it: docs/venue.md in the pontoon-table sources
Wants=network-online.target
After=network-online.target
# keep retrying: a table must come back after a crash at any hour
StartLimitIntervalSec=0

[Service]
Type=simple
User={setup.user}
SupplementaryGroups=dialout video
StateDirectory=pontoon-table
StateDirectoryMode=0750
WorkingDirectory={STATE}
ExecStart={setup.exe} run --config {setup.config} --no-qr
Restart=on-failure
RestartSec=3
# the table closes its journal and devices on SIGINT, as on Ctrl-C
KillSignal=SIGINT
TimeoutStopSec=20
Environment=PYTHONUNBUFFERED=1
SyslogIdentifier=pontoon-table
LogExtraFields=PONTOON_TABLE={setup.table_id}

[Install]
WantedBy=multi-user.target
"""


def kiosk_service(setup: Setup) -> str:
    url = f"http://127.0.0.1:{setup.port}/table"
    return f"""\
# Written by `pontoon-table setup --systemd`: the players' screen on HDMI.
[Unit]
Description=Pontoon table {setup.table_id}: players' screen (Chromium kiosk in cage)
# how to use it: docs/venue.md in the pontoon-table sources
Wants={SERVICE}
After={SERVICE} systemd-user-sessions.service
# cage takes the first virtual terminal: no login prompt on it
Conflicts=getty@tty1.service
After=getty@tty1.service

[Service]
Type=simple
User={setup.user}
SupplementaryGroups=video render input
PAMName=login
TTYPath=/dev/tty1
TTYReset=yes
TTYVHangup=yes
TTYVTDisallocate=yes
StandardInput=tty-fail
StandardOutput=journal
StandardError=journal
UtmpIdentifier=tty1
UtmpMode=user
Environment=XDG_SESSION_TYPE=wayland
ExecStart={setup.cage} -d -- {setup.chromium} --kiosk --incognito --no-first-run \
--noerrdialogs --disable-infobars --disable-session-crashed-bubble \
--ozone-platform=wayland {url}
Restart=always
RestartSec=2
SyslogIdentifier=pontoon-kiosk
LogExtraFields=PONTOON_TABLE={setup.table_id}

[Install]
WantedBy=graphical.target
"""


def _match(vendor: str, serial: str | None) -> str:
    found = f'ATTRS{{idVendor}}=="{vendor}"'
    return found + (f', ATTRS{{serial}}=="{serial}"' if serial else "")


def udev_rules(setup: Setup) -> str:
    """The shoe and the panel bus by their USB serial numbers.

    Without a serial number a rule matches any device of that vendor: right on a
    box with one shoe and one adapter, wrong with two (give the numbers, which
    ``udevadm info -q property -n /dev/ttyACM0 | grep ID_SERIAL_SHORT`` shows).
    """
    return f"""\
# Written by `pontoon-table setup --systemd`: fixed names for the table's devices.
# The shoe (Raspberry Pi Pico, USB CDC serial)
SUBSYSTEM=="tty", {_match(PICO_VENDOR, setup.shoe_serial)}, \
SYMLINK+="pontoon-shoe", GROUP="dialout", MODE="0660"
# The panel bus (FTDI USB-RS-485 adapter); latency timer 1 ms for the bus's timing
SUBSYSTEM=="tty", {_match(FTDI_VENDOR, setup.bus_serial)}, \
SYMLINK+="pontoon-bus", GROUP="dialout", MODE="0660", ATTR{{device/latency_timer}}="1"
"""


def files(setup: Setup) -> dict[str, str]:
    """Every file ``setup`` writes, by its absolute path on the box."""
    check_words(setup)
    return {
        f"/etc/systemd/system/{SERVICE}": table_service(setup),
        f"/etc/systemd/system/{KIOSK}": kiosk_service(setup),
        f"/etc/udev/rules.d/{RULES}": udev_rules(setup),
    }


def commands(setup: Setup) -> list[list[str]]:
    """What installing runs as root, after writing the files."""
    return [
        ["sh", "-c", f"id -u {setup.user} >/dev/null 2>&1 || useradd --system "
                     f"--user-group --home-dir {STATE} --no-create-home --shell /usr/sbin/nologin "
                     f"{setup.user}"],
        ["usermod", "-aG", "dialout,video", setup.user],
        ["install", "-d", "-m", "0755", "/etc/pontoon-table"],
        # the journals' folder exists before the first start, for doctor and backups
        ["install", "-d", "-o", setup.user, "-g", setup.user, "-m", "0750", STATE],
        ["systemctl", "daemon-reload"],
        ["udevadm", "control", "--reload-rules"],
        ["udevadm", "trigger", "--subsystem-match=tty"],
        ["systemctl", "enable", SERVICE, KIOSK],
    ]
