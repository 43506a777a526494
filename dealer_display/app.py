"""The FastAPI application: pages, card images, the HTTP API and the live sockets.

``create_app(table, token=...)`` is all the controller calls; ``table`` is
anything with the :class:`controller.publish.TableLink` shape (the live table,
or :class:`dealer_display.manual.ManualTable` for a table run by hand).  The app
decides nothing about the game: it turns snapshots into the dealer and public
views (:mod:`dealer_display.views`), forwards dealer commands, and keeps the
training sessions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, Field

from controller.dealer_commands import explain
from controller.publish import TableLink, TableSnapshot

from . import views
from .auth import TokenGuard, token_matches
from .cards_svg import back_svg, card_svg
from .hub import DEFAULT_QUEUE_SIZE, Hub
from .limits import DEFAULT_MAX_BODY, MAX_WS_MESSAGE, BodyLimit
from .routes import mount
from .routes.commands import command_routers
from .schema import DealerView, PublicView
from .training import TrainingDesk, TrainingError, UnknownSession

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
PAGES = {"dealer": "dealer.html", "table": "table.html", "training": "training.html"}
#: How long a dealer socket may take to send its token.
AUTH_TIMEOUT_S = 10.0
SVG_HEADERS = {"Cache-Control": "public, max-age=86400"}


class NewTraining(BaseModel):
    rules: str = Field(default="house", max_length=20)
    players: list[str] = Field(default_factory=lambda: ["Ann", "Bob", "Cat", "Dan"], max_length=8)
    seed: int | None = Field(default=None, ge=0, le=2**31)
    top: list[str] | None = Field(
        default=None, max_length=52, description="Cards stacked on top for the first deal."
    )


class TraineeDeal(BaseModel):
    seat: str = Field(max_length=40, description="Whom the trainee deals the next card to.")
    face_up: bool = Field(description="Whether the trainee dealt it face up.")


class TraineeExpose(BaseModel):
    seat: str = Field(max_length=40)
    hand: int = Field(ge=1, le=8)


class TraineeSettle(BaseModel):
    payouts: dict[str, float] = Field(
        description="Per player: units the dealer pays (+) or collects (−); 0 or absent = nothing.",
        max_length=16,
    )
    next_banker: str | None = Field(default=None, max_length=40)


def create_app(
    table: TableLink,
    *,
    token: str,
    title: str = "Pontoon table",
    queue_size: int = DEFAULT_QUEUE_SIZE,
    max_body: int = DEFAULT_MAX_BODY,
) -> FastAPI:
    """The display for ``table``; ``token`` is the dealer's secret from the configuration."""
    guard = TokenGuard(token)
    hub = Hub(queue_size=queue_size)
    desk = TrainingDesk()
    state: dict[str, Any] = {"loop": None, "unsubscribe": None}

    def on_snapshot(snapshot: TableSnapshot) -> None:
        """Listener called by the table's publisher; must only queue, never wait."""
        loop: asyncio.AbstractEventLoop | None = state["loop"]
        if loop is None:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            _publish(snapshot)
        elif not loop.is_closed():
            loop.call_soon_threadsafe(_publish, snapshot)

    def _publish(snapshot: TableSnapshot) -> None:
        try:
            hub["dealer"].publish(views.dealer_view(snapshot))
            hub["public"].publish(views.public_view(snapshot))
        except Exception:  # a bad snapshot must not break the table's publish call
            log.exception("could not build the display views from a snapshot")

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state["loop"] = asyncio.get_running_loop()
        state["unsubscribe"] = table.add_listener(on_snapshot)
        _publish(table.snapshot())
        try:
            yield
        finally:
            state["unsubscribe"]()
            state["loop"] = None

    app = FastAPIOffline(
        title=title,
        description=(
            "Dealer display of a Pontoon table. Read-only views need no token; every "
            "endpoint that changes something needs `Authorization: Bearer <dealer token>`. "
            "Public views never carry a face-down card."
        ),
        version="1",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit, max_body=max_body)
    app.add_exception_handler(RequestValidationError, _plain_refusal)
    app.state.hub = hub
    app.state.table = table
    app.state.training = desk
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    need_token = [Depends(guard)]

    # -- pages -------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> RedirectResponse:
        return RedirectResponse("/table")

    def page(name: str) -> Callable[[], Any]:
        async def serve_page() -> FileResponse:
            return FileResponse(STATIC / PAGES[name], headers={"Cache-Control": "no-cache"})

        return serve_page

    for name in PAGES:
        app.add_api_route(f"/{name}", page(name), include_in_schema=False, methods=["GET"])

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(back_svg(), media_type="image/svg+xml", headers=SVG_HEADERS)

    @app.get("/cards/{name}.svg", tags=["cards"], summary="A card image (or 'back')")
    async def card_image(name: str) -> Response:
        if name == "back":
            return Response(back_svg(), media_type="image/svg+xml", headers=SVG_HEADERS)
        try:
            svg = card_svg(name.upper().replace("10", "T"))
        except ValueError:
            raise HTTPException(404, f"There is no card {name!r}.") from None
        return Response(svg, media_type="image/svg+xml", headers=SVG_HEADERS)

    # -- read-only views ---------------------------------------------------------
    # The views are described by their schemas but returned as built (response_model=None):
    # the JSON is exactly what the sockets send, never re-serialised or filtered.
    @app.get(
        "/api/public",
        tags=["views"],
        summary="What the players may see",
        response_model=None,
        responses={200: {"model": PublicView, "description": "The public view"}},
    )
    async def public_api() -> dict[str, Any]:
        return hub["public"].view or views.public_view(table.snapshot())

    @app.get(
        "/api/dealer",
        tags=["views"],
        summary="Everything the dealer sees (face-down cards included)",
        dependencies=need_token,
        response_model=None,
        responses={200: {"model": DealerView, "description": "The dealer's view"}},
    )
    async def dealer_api() -> dict[str, Any]:
        return hub["dealer"].view or views.dealer_view(table.snapshot())

    # -- dealer commands: generated from controller.dealer_commands.COMMANDS --------
    for router in command_routers(table, guard):
        mount(app, router)

    # -- training ----------------------------------------------------------------
    def training_answer(call: Callable[[], dict[str, Any]]) -> JSONResponse:
        try:
            return JSONResponse(call())
        except TrainingError as exc:
            code = 404 if isinstance(exc, UnknownSession) else 409
            return JSONResponse({"ok": False, "message": str(exc)}, status_code=code)

    @app.post("/api/training", dependencies=need_token, tags=["training"],
              summary="Start a training session")
    async def training_new(body: NewTraining) -> JSONResponse:
        return training_answer(lambda: desk.start(body.rules, body.players, body.seed, body.top))

    @app.get("/api/training/{sid}", tags=["training"], summary="A training session's state")
    async def training_get(sid: str) -> JSONResponse:
        return training_answer(lambda: desk.get(sid).view())

    @app.post("/api/training/{sid}/deal", dependencies=need_token, tags=["training"],
              summary="The trainee deals the next card")
    async def training_deal(sid: str, body: TraineeDeal) -> JSONResponse:
        return training_answer(lambda: desk.get(sid).deal(body.seat, body.face_up))

    @app.post("/api/training/{sid}/expose", dependencies=need_token, tags=["training"],
              summary="The trainee turns a bust hand face up")
    async def training_expose(sid: str, body: TraineeExpose) -> JSONResponse:
        return training_answer(lambda: desk.get(sid).expose(body.seat, body.hand))

    @app.post("/api/training/{sid}/settle", dependencies=need_token, tags=["training"],
              summary="The trainee settles the deal")
    async def training_settle(sid: str, body: TraineeSettle) -> JSONResponse:
        return training_answer(
            lambda: desk.get(sid).settle(body.payouts, body.next_banker)
        )

    @app.post("/api/training/{sid}/end", dependencies=need_token, tags=["training"],
              summary="End the session and get its report")
    async def training_end(sid: str) -> JSONResponse:
        return training_answer(lambda: desk.get(sid).end())

    @app.get("/api/training/{sid}/report", tags=["training"],
             summary="The session's mistakes by kind (JSON, or CSV with ?format=csv)")
    async def training_report(sid: str, format: Literal["json", "csv"] = "json") -> Response:
        try:
            session = desk.get(sid)
        except TrainingError as exc:
            return JSONResponse({"ok": False, "message": str(exc)}, status_code=404)
        if format == "csv":
            return Response(
                session.report_csv(),
                media_type="text/csv",
                headers={"Content-Disposition": f'attachment; filename="training-{sid}.csv"'},
            )
        return JSONResponse(session.report())

    # -- live sockets ------------------------------------------------------------
    async def _drain(websocket: WebSocket) -> None:
        """Read (and ignore) until the client goes away."""
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await websocket.receive_text()

    @app.websocket("/ws/public")
    async def ws_public(websocket: WebSocket) -> None:
        await websocket.accept()
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await hub["public"].serve(websocket.send_text, until=_drain(websocket))

    @app.websocket("/ws/dealer")
    async def ws_dealer(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            async with asyncio.timeout(AUTH_TIMEOUT_S):
                first = await websocket.receive_text()
            given = json.loads(first).get("token")
        except (TimeoutError, WebSocketDisconnect, ValueError, AttributeError):
            given = None
        if not isinstance(given, str) or not token_matches(given, guard.token):
            with contextlib.suppress(Exception):
                await websocket.send_text(
                    json.dumps({"type": "error", "message": "That is not the dealer's token."})
                )
                await websocket.close(code=4403)
            return
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await hub["dealer"].serve(websocket.send_text, until=_drain(websocket))

    app.state.publish_now = _publish
    return app


async def _plain_refusal(request: Request, exc: Exception) -> JSONResponse:
    """A body of the wrong shape: one sentence, never pydantic's error list."""
    assert isinstance(exc, RequestValidationError)
    message = explain(list(exc.errors()))
    return JSONResponse({"ok": False, "message": message}, status_code=422)


async def serve(
    app: FastAPI, *, host: str = "127.0.0.1", port: int = 8000, log_level: str = "warning"
) -> None:
    """Run ``app`` with uvicorn inside the caller's event loop until cancelled.

    Binds to localhost unless told otherwise: the dealer's commands must not be
    reachable from the venue's network by accident.
    """
    import uvicorn

    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, lifespan="on",
                            ws_max_size=MAX_WS_MESSAGE)
    server = uvicorn.Server(config)
    await server.serve()
