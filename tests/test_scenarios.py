"""Every example scenario through the real ``pontoon-table replay`` command.

``scenarios/`` holds the shared examples (worked out with the rule book);
``scenarios/own/`` the rules review's scenarios, one or more per rule and
option. How their expected results were made, truthfully: the ``own`` files
were first written by dumping the engine's output (issue 20), so each one is
now checked against ``tests/reference`` - a second engine written from
RULES.md and SCENARIO.md alone - by ``test_reference_scenarios.py``, and the
scenarios added since were derived with the reference and worked by hand
(the working is in ``scenarios/README.md``). Where the reference and the
engine disagreed, the point was judged by hand against the rule book: the
three files where the engine was wrong (a `stick` on a ponton pontoon facing
the dealer's ace; two 14-person `traditional` games, now `house` games with
one pack) were put right by hand, and the engine was fixed (issue 22).
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
