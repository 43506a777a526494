"""Every example scenario through the real ``pontoon-table replay`` command.

``scenarios/`` holds the shared examples; ``scenarios/own/`` the rules review's
scenarios, one per rule and option, each expected result worked out by hand
from RULES.md before the engine was run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "scenarios"
CASES = sorted(
    p
    for folder in (HERE, HERE / "own")
    for p in folder.glob("*.json")
    if not p.name.endswith(".expected.json")
)


def replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).parent.parent,
    )


@pytest.mark.parametrize("path", CASES, ids=[p.parent.name + "/" + p.stem for p in CASES])
def test_example_scenario(path: Path) -> None:
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    done = replay(path)
    if "exit" in expected:
        assert done.returncode == expected["exit"]
        assert done.stdout == ""
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        for word in expected["stderr_mentions"]:
            assert word in lines[0]
    else:
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == expected


def test_examples_exist() -> None:
    assert len([p for p in CASES if p.parent == HERE]) >= 8
    assert len([p for p in CASES if p.parent.name == "own"]) >= 60
