"""A pytest plugin for ``scripts/mutation.sh`` only: property tests made small
and repeatable, so mutmut can run them against every mutant.

mutmut runs each test many times (once to map tests to the code they reach,
then once per mutant that test reaches).  A Hypothesis test that draws new
examples each time is slow there and, when a mutant changes how much data a
game draws, reported as flaky; derandomised with no example database it is
the same few games every time.  ``MUTATION_EXAMPLES`` (default 3) caps the
examples per test, ``MUTATION_GAMES`` (default 10) the fixed-seed games of
``tests/rules/test_differential.py``.  Loaded with ``-p mutation_pytest``
(the script puts ``scripts/`` on ``PYTHONPATH``); never used by the suite.

It also empties the rules engine's module-level caches before every test.
mutmut runs the tests once in its own process before it forks a child per
mutant, so without this every child would start with caches filled by the
original code, and a mutant in the code that fills them (the families of
legal actions, the decision words of a ruleset) would never run.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

# module: names of dicts filled on first use (controller/rules)
CACHES = {
    "controller.rules.legality": ("_PAIRS",),
    "controller.rules.pending": ("_MADE", "_DEAL_FAMILIES"),
    "controller.rules.ruleset": ("_DECISION_WORDS",),
}

EXAMPLES = int(os.environ.get("MUTATION_EXAMPLES", "3"))
GAMES = int(os.environ.get("MUTATION_GAMES", "10"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        module: Any = getattr(item, "module", None)
        if module is not None and hasattr(module, "GAMES_PER_PRESET"):
            module.GAMES_PER_PRESET = min(module.GAMES_PER_PRESET, GAMES)
        fn: Any = getattr(item, "obj", None)
        inner = getattr(fn, "hypothesis", None)
        if inner is None:
            continue
        own = getattr(fn, "_hypothesis_internal_use_settings", None)
        fixed = settings(
            own,
            max_examples=min(EXAMPLES, own.max_examples if own else EXAMPLES),
            derandomize=True,
            database=None,
            deadline=None,
            print_blob=False,
        )
        # Hypothesis reads the settings the @settings decorator left on the test
        inner.inner_test._hypothesis_internal_use_settings = fixed
        fn._hypothesis_internal_use_settings = fixed


@pytest.fixture(autouse=True)
def _empty_rule_caches() -> Iterator[None]:
    for module_name, names in CACHES.items():
        module = sys.modules.get(module_name)
        for name in names:
            cache = getattr(module, name, None) if module is not None else None
            if isinstance(cache, dict):
                cache.clear()
    yield
