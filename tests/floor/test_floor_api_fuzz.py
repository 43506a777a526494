"""Schemathesis against the floor page's own OpenAPI schema: no input gets a 500.

The app is built over a Floor holding a real table's game (the old journal in
tests/data) on SQLite.  Every operation is called with valid and invalid data,
with the floor's token and with a wrong one; every answer must be below 500
and every refusal must carry a sentence (``detail``).  Few derandomized
examples in CI; ``PROVE_EXAMPLES=500`` runs a longer campaign.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from floor_rows import OLD_JOURNAL, entries_of
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from floor.app import create_floor_app
from floor.ingest import Floor
from floor.messages import encode_entry, topic
from floor.store import open_store

TOKEN = "prove-floor-token-0123"
EXAMPLES = int(os.environ.get("PROVE_EXAMPLES", "25"))

_folder = Path(tempfile.mkdtemp(prefix="floor-fuzz-"))
# (the schema is built at import, so its store cannot live in a fixture's tmp_path)
atexit.register(shutil.rmtree, _folder, True)
floor = Floor(open_store(f"sqlite:///{_folder / 'floor.db'}"))
floor.handle(
    [(topic("table-1", "journal"), encode_entry(e)) for e in entries_of(OLD_JOURNAL, "table-1")]
)
schema = schemathesis.openapi.from_asgi("/openapi.json", create_floor_app(floor, token=TOKEN))


def _check(case: Any, headers: dict[str, str]) -> None:
    response = case.call(headers=headers)
    assert response.status_code < 500, (response.status_code, response.text[:300])
    case.validate_response(response, checks=[not_a_server_error])
    if 400 <= response.status_code < 500:
        detail = response.json().get("detail")
        assert isinstance(detail, str) and detail, f"a {response.status_code}: {response.text!r}"


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize="PROVE_EXAMPLES" not in os.environ,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_input_gets_a_server_error(case: Any) -> None:
    _check(case, {"Authorization": f"Bearer {TOKEN}"})
    _check(case, {"Authorization": "Bearer wrong-token-xx"})
