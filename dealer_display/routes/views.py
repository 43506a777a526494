"""The read-only views: what the players may see, and (with the token) what the dealer sees.

The views are described by their schemas (:mod:`dealer_display.schema`) but
returned as built (``response_model=None``): the JSON is exactly what the
sockets send, never re-serialised or filtered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends

from controller.publish import TableLink

from .. import views
from ..hub import Hub
from ..schema import DealerView, PublicView


def views_router(table: TableLink, hub: Hub, guard: Callable[..., Any]) -> APIRouter:
    router = APIRouter(tags=["views"])

    @router.get(
        "/api/public",
        summary="What the players may see",
        response_model=None,
        responses={200: {"model": PublicView, "description": "The public view"}},
    )
    async def public_api() -> dict[str, Any]:
        return hub["public"].view or views.public_view(table.snapshot())

    @router.get(
        "/api/dealer",
        summary="Everything the dealer sees (face-down cards included)",
        dependencies=[Depends(guard)],
        response_model=None,
        responses={200: {"model": DealerView, "description": "The dealer's view"}},
    )
    async def dealer_api() -> dict[str, Any]:
        return hub["dealer"].view or views.dealer_view(table.snapshot())

    return router
