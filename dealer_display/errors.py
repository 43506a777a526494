"""Refusals of malformed requests, as one plain sentence.

FastAPI answers a body that fails validation with a list of pydantic errors
(locations, types, inputs).  The dealer's tablet shows a refusal in a toast,
often in the middle of a hold, so the answer keeps FastAPI's error shape
(``{"detail": ...}``, as every other HTTP refusal of this app) but with
``detail`` a single sentence a dealer can read.  The full list still goes to
the log for whoever debugs a client.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

log = logging.getLogger(__name__)

#: where pydantic says a value came from; not part of the field's name
_SOURCES = {"body", "query", "path", "header", "cookie"}


def plain_validation_message(errors: Sequence[Mapping[str, Any]]) -> str:
    """One sentence for the first validation error (the dealer fixes one thing at a time)."""
    if not errors:
        return "The table could not read that request."
    first = errors[0]
    kind = str(first.get("type", ""))
    if kind == "json_invalid":
        return "The request is not valid JSON."
    parts = [str(p) for p in first.get("loc", ()) if p not in _SOURCES]
    field = parts[0] + (f" ({', '.join(parts[1:])})" if len(parts) > 1 else "") if parts else ""
    if not field:
        return "The request needs a JSON body."
    if kind == "missing":
        return f"The request is missing its {field}."
    msg = str(first.get("msg", "")).strip().rstrip(".")
    if not msg:
        return f"The {field} given is not valid."
    # pydantic's message, lower-cased after its own prefix ("Value error, ...")
    msg = msg.removeprefix("Value error, ")
    return f"The {field} given is not valid: {msg[:1].lower()}{msg[1:]}."


async def validation_refusal(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI exception handler for :class:`RequestValidationError`."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    log.info("refused a malformed request to %s: %s", request.url.path, errors)
    return JSONResponse({"detail": plain_validation_message(errors)}, status_code=422)
