from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from dealer_display.app import create_app
from dealer_display.manual import ManualTable

TOKEN = "test-dealer-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def table() -> ManualTable:
    return ManualTable(rules="house", players=["Ann", "Bob", "Cat", "Dan"], banker="Dan", seed=3)


@pytest.fixture
def client(table: ManualTable) -> Iterator[TestClient]:
    with TestClient(create_app(table, token=TOKEN)) as c:
        yield c
