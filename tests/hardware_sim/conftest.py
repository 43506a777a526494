"""Fixtures shared by the simulator's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def deck_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A face cache of the module's own (``PONTOON_CACHE_DIR``), so a test of a
    pre-rendered deck renders it once for the module and never reads faces a
    run of the benchmarks left in the user's cache."""
    folder = tmp_path_factory.mktemp("deck-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PONTOON_CACHE_DIR", str(folder))
        yield folder
