"""``pontoon-table setup --systemd``: make the box start the table by itself.

Writes the table service, the kiosk service and the udev rules
(:mod:`controller.venue_setup`) and, as root, installs them: the ``pontoon``
user in the ``dialout`` group, ``systemctl enable``.  ``--prefix DIR`` writes
the same files under DIR and runs nothing (to look at them, or to build an
image); ``--dry-run`` prints them.  Journals are never touched.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from controller.venue_setup import CONFIG, Setup, commands, files


def _default_exe() -> str:
    """This installation's ``pontoon-table``; for one made by the bundle's install.sh,
    through ``PREFIX/current``, so that an update (a new venv) needs no new units."""
    venv = Path(sys.executable).parent.parent
    for here in (venv.parent / "current" / "bin" / "pontoon-table",
                 venv / "bin" / "pontoon-table"):
        if here.exists():
            return str(here)
    return shutil.which("pontoon-table") or "/opt/pontoon-table/venv/bin/pontoon-table"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--systemd", action="store_true", required=True,
                        help="write the systemd units and udev rules")
    parser.add_argument("--prefix", type=Path, default=None,
                        help="write the files under this folder and install nothing")
    parser.add_argument("--dry-run", action="store_true", help="print the files, write nothing")
    parser.add_argument("--user", default="pontoon",
                        help="the user the table runs as (default: pontoon, created if missing)")
    parser.add_argument("--table-id", default="table",
                        help="the id in the table's logs (journalctl PONTOON_TABLE=ID)")
    parser.add_argument("--port", type=int, default=8000,
                        help="the display's port, for the kiosk's /table page (default 8000)")
    parser.add_argument("--exe", default=None,
                        help="the pontoon-table executable (default: this installation's)")
    parser.add_argument("--config", default=CONFIG, help=f"the table's file (default {CONFIG})")
    parser.add_argument("--cage", default="/usr/bin/cage", help="the cage executable")
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium executable")
    parser.add_argument("--shoe-serial", default=None, help="the shoe's USB serial number")
    parser.add_argument("--bus-serial", default=None,
                        help="the USB-RS-485 adapter's USB serial number")


def run(args: argparse.Namespace) -> int:
    setup = Setup(exe=args.exe or _default_exe(), table_id=args.table_id, user=args.user,
                  port=args.port, cage=args.cage, chromium=args.chromium, config=args.config,
                  shoe_serial=args.shoe_serial, bus_serial=args.bus_serial)
    try:
        written = files(setup)
    except ValueError as exc:
        print(f"pontoon-table setup: {exc}", file=sys.stderr)
        return 2
    install = args.prefix is None and not args.dry_run
    if args.dry_run:
        for path, text in written.items():
            print(f"# --- {path}\n{text}")
    if install and os.geteuid() != 0:
        print("pontoon-table setup: installing needs root (sudo), or use --prefix DIR / "
              "--dry-run to only write the files", file=sys.stderr)
        return 1
    if not args.dry_run:
        root = args.prefix if args.prefix is not None else Path("/")
        for path, text in written.items():
            target = root / path.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target}")
    todo = commands(setup)
    if not install:
        print("as root, installing would then run:")
        for command in todo:
            print("  " + shlex.join(command))
        return 0
    for command in todo:
        done = subprocess.run(command, check=False)
        if done.returncode != 0:
            print(f"pontoon-table setup: `{shlex.join(command)}` failed "
                  f"(exit {done.returncode})", file=sys.stderr)
            return 1
    print(f"installed. Put the table's file at {args.config} (journal under "
          "/var/lib/pontoon-table), check it with `pontoon-table doctor --config "
          f"{args.config}`, then `systemctl start pontoon-table pontoon-kiosk`.")
    return 0
