"""Suite-wide switches: the ``timing`` tests and parallel runs (docs/testing.md).

``scripts/test.sh`` runs the suite in two passes: everything but the
``timing`` tests on several pytest-xdist workers (``--timing=skip``), then the
``timing`` tests alone in one process (``--timing=only``).  A ``timing`` test
holds a real-time interval to a bound that a busy neighbour could break (an
ack within 20 ms, a poll within half a cycle); beside another worker's
Chromium or recogniser it could fail for no fault of the code.  Every other
test waits for conditions, never for the clock, and runs in parallel.

Without the option (plain ``pytest``) every test runs, as before.  A run on
workers that did not pass ``--timing=skip`` still keeps the ``timing`` tests
off each other: they are put in one ``xdist_group`` (honoured by
``--dist loadgroup``), so they run one after another on one worker.
"""

from __future__ import annotations

import pytest

TIMING_GROUP = "timing"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--timing",
        choices=("all", "skip", "only"),
        default="all",
        help="the tests marked timing: run them with the rest (all, the default), "
        "leave them out (skip: the parallel pass), or run only them (only: the serial pass)",
    )


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups (its loadgroup suffix)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mode = config.getoption("timing")
    keep: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        timed = item.get_closest_marker("timing") is not None
        if timed:
            item.add_marker(pytest.mark.xdist_group(TIMING_GROUP))
        if mode == "all" or timed == (mode == "only"):
            keep.append(item)
        else:
            dropped.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
