"""The offline install: a wheelhouse built here installs with no index and no network.

``pontoon-table bundle --platform linux-x86_64`` downloads binary wheels for the
target (this test needs the package registry; pip's cache makes reruns fast),
then the bundle's own ``install.sh`` installs into a fresh virtual environment
with pip's index disabled and every proxy pointing at a closed port, so any
attempt to reach the network would fail the install.  The installed command
must then run from its own environment (no PYTHONPATH to this source tree).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from controller.cli import main

pytestmark = pytest.mark.slow


@pytest.mark.skipif(platform.machine() != "x86_64" or sys.version_info[:2] != (3, 11),
                    reason="the bundle under test targets x86_64 and Python 3.11")
def test_a_bundle_installs_offline_into_its_own_venv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "bundle"
    source = Path(__file__).resolve().parents[2] / "pyproject.toml"
    version = tomllib.loads(source.read_text())["project"]["version"]
    assert main(["bundle", "--platform", "linux-x86_64", "--out", str(bundle)]) == 0
    wheels = sorted(p.name for p in (bundle / "wheels").glob("*.whl"))
    for name in ("pontoon_table-", "opencv_python_headless-", "numpy-", "fastapi-", "pyserial-"):
        assert any(w.startswith(name) for w in wheels), name
    closed = "http://127.0.0.1:9"  # the discard port: nothing answers
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("PIP_") and key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PYTHON=getattr(sys, "_base_executable", sys.executable), http_proxy=closed,
               https_proxy=closed, HTTP_PROXY=closed, HTTPS_PROXY=closed)
    prefix = tmp_path / "opt"
    done = subprocess.run(["sh", str(bundle / "install.sh"), str(prefix)], env=env,
                          capture_output=True, text=True, timeout=420, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    installed = prefix / "current" / "bin" / "pontoon-table"
    out = subprocess.run([str(installed), "rules", "house"], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert "stick_minimum" in out
    where = subprocess.run(
        [str(prefix / "current" / "bin" / "python"), "-c",
         "import controller, cv2; print(controller.__file__)"],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60,
        check=True).stdout
    # the code comes from the installed venv (through PREFIX/current), not this tree
    assert Path(where.strip()).resolve().is_relative_to(prefix.resolve() / f"venv-{version}")
