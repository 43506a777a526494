"""axe-core in a Playwright page: inject ``axe.min.js`` and run ``axe.run()``.

axe-core comes from the npm registry (``scripts/test.sh`` installs it under
``.cache/axe``); nothing is fetched by the page itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
#: the impacts that fail a page
BLOCKING = ("serious", "critical")


def axe_violations(page: Any, *, blocking: tuple[str, ...] = BLOCKING) -> list[dict[str, Any]]:
    """The page's axe-core violations of the given impacts, each with its nodes' selectors."""
    if not AXE.exists():
        pytest.fail("axe-core is missing: run scripts/test.sh "
                    "(npm install --prefix .cache/axe axe-core@4)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => (await axe.run(document)).violations.map(v => ({"
                           "id: v.id, impact: v.impact, help: v.help,"
                           "nodes: v.nodes.slice(0, 5).map(n => ({target: n.target.join(' '),"
                           "summary: n.failureSummary}))}))")
    return [v for v in result if v["impact"] in blocking]


def describe(violations: list[dict[str, Any]]) -> str:
    """One line per violation and node, for an assertion message."""
    lines = []
    for v in violations:
        for n in v["nodes"]:
            lines.append(f"{v['impact']} {v['id']} ({v['help']}): {n['target']}: {n['summary']}")
    return "\n".join(lines)
