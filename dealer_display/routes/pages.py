"""The pages, the favicon and the card images: static, no token, nothing decided."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, RedirectResponse, Response

from ..cards_svg import back_svg, card_svg

STATIC = Path(__file__).parent.parent / "static"
PAGES = {"dealer": "dealer.html", "table": "table.html", "training": "training.html"}
SVG_HEADERS = {"Cache-Control": "public, max-age=86400"}


def pages_router() -> APIRouter:
    router = APIRouter()

    @router.get("/", include_in_schema=False)
    async def index() -> RedirectResponse:
        return RedirectResponse("/table")

    def page(name: str) -> Callable[[], Any]:
        async def serve_page() -> FileResponse:
            return FileResponse(STATIC / PAGES[name], headers={"Cache-Control": "no-cache"})

        return serve_page

    for name in PAGES:
        router.add_api_route(f"/{name}", page(name), include_in_schema=False, methods=["GET"])

    @router.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(back_svg(), media_type="image/svg+xml", headers=SVG_HEADERS)

    @router.get("/cards/{name}.svg", tags=["cards"], summary="A card image (or 'back')")
    async def card_image(name: str) -> Response:
        if name == "back":
            return Response(back_svg(), media_type="image/svg+xml", headers=SVG_HEADERS)
        try:
            svg = card_svg(name.upper().replace("10", "T"))
        except ValueError:
            raise HTTPException(404, f"There is no card {name!r}.") from None
        return Response(svg, media_type="image/svg+xml", headers=SVG_HEADERS)

    return router
