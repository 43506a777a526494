"""The floor tests' broker: a real Mosquitto per test, stopped afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from broker_kit import BrokerKit, start_broker

from floor.broker_proc import BrokerError, find_mosquitto


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[BrokerKit]:
    """A running Mosquitto with the init-broker files for tables table-1..table-3."""
    try:
        find_mosquitto()
    except BrokerError as exc:
        pytest.fail(f"{exc}: run scripts/test.sh as root to install it")
    kit = start_broker(tmp_path / "broker", tables=3)
    try:
        yield kit
    finally:
        kit.kill()
