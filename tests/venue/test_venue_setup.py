"""``pontoon-table setup --systemd``: units that systemd itself accepts.

The units are written into a temporary prefix and checked with
``systemd-analyze verify`` (it parses every directive and checks that each
ExecStart names an executable), with ExecStart pointing at this installation's
real ``pontoon-table`` and, for the kiosk, at executables that exist here
(cage is not installed on a test machine: /bin/sh stands in for it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main

ANALYZE = shutil.which("systemd-analyze")
needs_systemd = pytest.mark.skipif(
    ANALYZE is None,
    reason="systemd-analyze is missing (Debian package systemd; scripts/test.sh installs it "
    "when run as root)",
)
UNITS = Path("etc/systemd/system")


def write(prefix: Path, *extra: str) -> int:
    return main(["setup", "--systemd", "--prefix", str(prefix), "--cage", "/bin/sh",
                 "--chromium", sys.executable, *extra])


def verify(prefix: Path) -> subprocess.CompletedProcess[str]:
    assert ANALYZE is not None
    units = [f"./{name}" for name in ("pontoon-table.service", "pontoon-kiosk.service")]
    return subprocess.run([ANALYZE, "verify", *units], cwd=prefix / UNITS, capture_output=True,
                          text=True, timeout=120, check=False)


def exe() -> str:
    found = Path(sys.executable).parent / "pontoon-table"
    return str(found) if found.exists() else sys.executable


@needs_systemd
def test_the_generated_units_verify(tmp_path: Path) -> None:
    assert write(tmp_path, "--exe", exe(), "--table-id", "table-3", "--port", "8123") == 0
    done = verify(tmp_path)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "")
    service = (tmp_path / UNITS / "pontoon-table.service").read_text()
    assert f"ExecStart={exe()} run --config /etc/pontoon-table/table.toml --no-qr" in service
    assert "Restart=on-failure" in service
    assert "WorkingDirectory=/var/lib/pontoon-table" in service  # journals outside the install
    assert "LogExtraFields=PONTOON_TABLE=table-3" in service
    kiosk = (tmp_path / UNITS / "pontoon-kiosk.service").read_text()
    assert "--kiosk" in kiosk and "http://127.0.0.1:8123/table" in kiosk


@needs_systemd
def test_verify_catches_a_missing_executable(tmp_path: Path) -> None:
    """The check above can fail: a unit whose ExecStart is not there is refused."""
    assert write(tmp_path, "--exe", str(tmp_path / "no-such-program")) == 0
    done = verify(tmp_path)
    assert done.returncode != 0
    assert "no-such-program is not executable" in done.stderr


def test_the_udev_rules_name_the_devices_by_serial(tmp_path: Path) -> None:
    assert write(tmp_path, "--exe", exe(), "--shoe-serial", "E6614C311B2A",
                 "--bus-serial", "FT4ABCDE") == 0
    rules = (tmp_path / "etc/udev/rules.d/99-pontoon-table.rules").read_text()
    joined = rules.replace("\\\n", "")  # a rule continued over two lines is one rule
    shoe, bus = [line for line in joined.splitlines() if line and not line.startswith("#")]
    assert 'ATTRS{serial}=="E6614C311B2A"' in shoe and 'SYMLINK+="pontoon-shoe"' in shoe
    assert 'ATTRS{serial}=="FT4ABCDE"' in bus and 'SYMLINK+="pontoon-bus"' in bus
    assert 'GROUP="dialout"' in shoe and 'GROUP="dialout"' in bus


def test_a_serial_that_would_break_the_rules_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert write(tmp_path, "--shoe-serial", 'x", RUN+="/bin/evil') == 2
    assert "--shoe-serial may hold only letters" in capsys.readouterr().err
    assert not (tmp_path / "etc").exists()


def test_installing_without_root_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    if os.geteuid() == 0:
        pytest.skip("running as root: this test would install the units for real")
    assert main(["setup", "--systemd"]) == 1
    assert "installing needs root" in capsys.readouterr().err
