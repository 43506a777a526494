"""Schemathesis against the display's own OpenAPI schema: no input gets a 500.

The app is built with ``create_app`` over the in-process ``ManualTable`` (what
``python -m dealer_display`` serves).  Every operation is called with valid
and invalid data (schemathesis' positive and negative modes), once with the
dealer's token and once without; every answer must be below 500, and every
refusal must carry a message a dealer can read (``detail`` or ``message``).
Examples are few and derandomized so the CI run stays short and repeatable;
``PROVE_EXAMPLES=500`` runs a longer, random campaign.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from dealer_display.app import create_app
from dealer_display.manual import ManualTable

TOKEN = "prove-dealer-token-0123"
EXAMPLES = int(os.environ.get("PROVE_EXAMPLES", "25"))

table = ManualTable(rules="house", players=["Ann", "Bob", "Cat", "Dan"], banker="Dan", seed=3)
app = create_app(table, token=TOKEN)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


def _refusal_is_readable(response: Any) -> None:
    if 400 <= response.status_code < 500:
        body = response.json()
        text = body.get("detail") or body.get("message")
        assert text, f"a {response.status_code} without a message: {body!r}"


def _check(case: Any, headers: dict[str, str]) -> None:
    response = case.call(headers=headers)
    assert response.status_code < 500, (response.status_code, response.text[:300])
    case.validate_response(response, checks=[not_a_server_error])
    _refusal_is_readable(response)


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
