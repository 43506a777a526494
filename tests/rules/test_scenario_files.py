"""Every scenario file played by the engine in this process (no ``replay``
subprocess), compared with its expected result.

``tests/test_scenarios.py`` plays the same files through the real command
line; this copy exists so that a tool that maps tests to the code they reach
(the mutation run, docs/testing.md) sees the scenarios exercise the engine,
and it runs in about a second.  The expected files are not the engine's word:
``tests/test_reference_scenarios.py`` checks every one against
``tests/reference``, the second engine written from RULES.md and SCENARIO.md
alone, and the disagreements were judged by hand (``scenarios/README.md``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.scenario import ScenarioError, load_scenario, run_scenario

HERE = Path(__file__).parent.parent / "scenarios"
CASES = sorted(
    p
    for folder in (HERE, HERE / "own")
    for p in folder.glob("*.json")
    if not p.name.endswith(".expected.json")
)


@pytest.mark.parametrize("path", CASES, ids=[p.parent.name + "/" + p.stem for p in CASES])
def test_the_engine_gives_the_expected_result(path: Path) -> None:
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    try:
        got = run_scenario(load_scenario(path))
    except ScenarioError as refusal:
        assert "exit" in expected, f"the engine refuses {path.name}: {refusal}"
        for word in expected["stderr_mentions"]:
            assert word in str(refusal).replace("\n", " ")
        return
    assert "exit" not in expected, f"the engine plays {path.name}, expected a refusal"
    assert got == expected


def test_there_are_scenarios() -> None:
    assert len(CASES) >= 80
