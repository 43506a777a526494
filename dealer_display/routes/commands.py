"""The dealer commands' HTTP routes, generated from the one command registry.

Nothing here names a command: every entry of
:data:`controller.dealer_commands.COMMANDS` becomes a ``POST`` at its path,
with the command's pydantic model as the request body (so the OpenAPI document
shows its schema), the dealer's token required, and the table's answer as
``{"ok", "message"}`` (200 when done, 409 when refused).  Commands are grouped
into one router per resource (table, deal, cards, seats, bank, alarms), which
are also the OpenAPI tags.  A new command in the registry is served here with
no change to this file.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from controller.dealer_commands import COMMANDS, DealerCommand, NoArgs
from controller.publish import CommandResult, TableLink

log = logging.getLogger(__name__)


class Answer(BaseModel):
    """A dealer command's answer: done, or refused with one plain sentence."""

    ok: bool
    message: str = ""
    data: dict[str, Any] | None = None


RESPONSES: dict[int | str, dict[str, Any]] = {
    401: {"description": "No dealer's token"},
    403: {"description": "Wrong dealer's token"},
    409: {"model": Answer, "description": "Refused: the message says why"},
    422: {"model": Answer, "description": "The body has the wrong shape: the message says how"},
}


def answer(result: CommandResult) -> JSONResponse:
    return JSONResponse(result.to_json(), status_code=200 if result.ok else 409)


def _handler(
    table: TableLink, spec: DealerCommand
) -> Callable[..., Awaitable[JSONResponse]]:
    async def run(body: BaseModel | None = None) -> JSONResponse:
        args = None if body is None else body.model_dump()
        try:
            result = await table.command(spec.name, args)
        except Exception as exc:  # the table answers refusals itself; this is a fault
            log.exception("dealer command %s failed", spec.name)
            result = CommandResult.refused(f"The table could not do that: {exc}")
        return answer(result)

    # FastAPI reads the body's model from the signature: give it this command's.
    params = []
    if spec.args is not NoArgs:
        params.append(
            inspect.Parameter("body", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                              annotation=spec.args)
        )
    run.__signature__ = inspect.Signature(params, return_annotation=JSONResponse)  # type: ignore[attr-defined]
    run.__name__ = spec.name
    run.__doc__ = spec.summary
    return run


def command_routers(table: TableLink, guard: Callable[..., Any]) -> list[APIRouter]:
    """One router per resource, holding a route for each of its commands."""
    routers: dict[str, APIRouter] = {}
    for spec in COMMANDS.values():
        router = routers.get(spec.resource)
        if router is None:
            router = routers[spec.resource] = APIRouter(
                tags=[f"dealer: {spec.resource}"], dependencies=[Depends(guard)],
                responses=RESPONSES,
            )
        router.add_api_route(
            spec.path,
            _handler(table, spec),
            methods=["POST"],
            summary=spec.summary,
            response_model=Answer,
            name=spec.name,
            operation_id=spec.name,
        )
    return list(routers.values())
