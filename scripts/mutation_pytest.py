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
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import settings

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
