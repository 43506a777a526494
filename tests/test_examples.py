"""The example files shipped for organisers must stay valid as the code moves."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "table.toml"


def _check(config: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_the_example_table_configuration_passes_the_check() -> None:
    result = _check(EXAMPLE)
    assert result.returncode == 0, result.stderr
    assert "4 seats" in result.stdout


def test_a_typo_in_the_example_is_refused_naming_the_key(tmp_path: Path) -> None:
    broken = tmp_path / "table.toml"
    broken.write_text(EXAMPLE.read_text().replace("panel_address = 3", "panel_adress = 3"))
    result = _check(broken)
    assert result.returncode != 0
    assert "panel_adress" in result.stderr
    assert "Traceback" not in result.stderr
