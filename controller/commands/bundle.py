"""``pontoon-table bundle --platform linux-x86_64|linux-aarch64 --out DIR``.

Builds everything a table's box needs to install the table with no network:
``DIR/wheels`` holds the project's wheel and a binary wheel of every
dependency for the target (``pip download --only-binary=:all:`` with the
target's manylinux tags and Python version), and ``DIR/install.sh`` installs
from that folder alone (``--no-index``, the machine's pip configuration
ignored) into its own virtual environment.

Each install goes into a new ``PREFIX/venv-VERSION`` and ``PREFIX/current``
is switched to it only once the install succeeded: a failed update leaves
the running table as it was, and journals (under ``/var/lib/pontoon-table``)
are never in the installation at all.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

#: the box's glibc decides which manylinux wheels run there; Debian 12 and
#: Raspberry Pi OS (bookworm) have glibc 2.36
PLATFORMS: dict[str, list[str]] = {
    arch: [f"manylinux2014_{machine}", f"manylinux_2_28_{machine}", f"manylinux_2_34_{machine}"]
    for arch, machine in (("linux-x86_64", "x86_64"), ("linux-aarch64", "aarch64"))
}

INSTALL_SH = r"""#!/bin/sh
# Installs pontoon-table from this folder with no network, into its own
# virtual environment:  sudo ./install.sh [PREFIX]   (default /opt/pontoon-table)
# Needs Python {python} (Debian: python3 and python3-venv).  Journals are not
# touched: they live in /var/lib/pontoon-table, outside PREFIX.
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
prefix=${{1:-/opt/pontoon-table}}
python=${{PYTHON:-python3}}
version={version}

# only this folder counts: no index, none of the machine's pip settings
export PIP_CONFIG_FILE=/dev/null PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
unset PIP_FIND_LINKS PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_CONSTRAINT PIP_REQUIRE_VIRTUALENV
unset PYTHONPATH PYTHONHOME

if ! "$python" -c 'import sys; sys.exit(sys.version_info[:2] != ({major}, {minor}))'; then
    echo "install.sh: this bundle is for Python {python}; $python is $("$python" -V 2>&1)" >&2
    exit 1
fi
mkdir -p "$prefix"
venv="$prefix/venv-$version"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --no-index --find-links "$here/wheels" \
    "pontoon-table==$version"
"$venv/bin/pontoon-table" rules house >/dev/null
ln -sfn "venv-$version" "$prefix/current"
echo "installed pontoon-table $version in $venv ($prefix/current)"
echo "next: sudo $prefix/current/bin/pontoon-table setup --systemd"
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--platform", required=True, choices=sorted(PLATFORMS),
                        help="the table box's kind: a mini PC (x86_64) or a Raspberry Pi (aarch64)")
    parser.add_argument("--out", required=True, type=Path, help="the folder to fill")
    parser.add_argument("--python-version", default="3.11",
                        help="the box's Python (default 3.11: Debian 12, Raspberry Pi OS)")
    parser.add_argument("--source", type=Path, default=Path(__file__).resolve().parents[2],
                        help="the project's source folder (default: this one)")


def _version(source: Path) -> str:
    project = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))
    return str(project["project"]["version"])


def _pip(*args: str) -> None:
    command = [sys.executable, "-m", "pip", *args]
    done = subprocess.run(command, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"`pip {' '.join(args[:2])} ...` failed (exit {done.returncode}); "
                           "its messages are above")


def run(args: argparse.Namespace) -> int:
    source: Path = args.source
    if not (source / "pyproject.toml").is_file():
        print(f"pontoon-table bundle: {source} is not the project's source folder "
              "(give --source)", file=sys.stderr)
        return 2
    try:
        major, minor = (int(n) for n in args.python_version.split("."))
    except ValueError:
        print(f"pontoon-table bundle: --python-version {args.python_version!r} is not like 3.11",
              file=sys.stderr)
        return 2
    version = _version(source)
    wheels = args.out / "wheels"
    if wheels.exists():
        shutil.rmtree(wheels)
    wheels.mkdir(parents=True)
    platform_args = [arg for tag in PLATFORMS[args.platform] for arg in ("--platform", tag)]
    try:
        _pip("wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(source))
        (project,) = wheels.glob("pontoon_table-*.whl")
        _pip("download", "--quiet", "--only-binary=:all:", *platform_args,
             "--python-version", f"{major}.{minor}", "--implementation", "cp",
             "--dest", str(wheels), str(project))
    except RuntimeError as exc:
        print(f"pontoon-table bundle: {exc}", file=sys.stderr)
        return 1
    script = args.out / "install.sh"
    script.write_text(INSTALL_SH.format(version=version, python=f"{major}.{minor}",
                                        major=major, minor=minor), encoding="utf-8")
    script.chmod(0o755)
    (args.out / "TARGET").write_text(f"{args.platform} python{major}.{minor} "
                                     f"pontoon-table {version}\n", encoding="utf-8")
    count = len(list(wheels.glob("*.whl")))
    size = sum(f.stat().st_size for f in wheels.glob("*.whl")) / 1e6
    print(f"{args.out}: {count} wheels ({size:.0f} MB) for {args.platform}, Python "
          f"{major}.{minor}; on the box: sudo {args.out.name}/install.sh")
    return 0
