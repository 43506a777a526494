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
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from controller.dealer_commands import explain
from controller.publish import TableLink, TableSnapshot

from . import views
from .auth import PairingLink, TokenGuard, same_origin, token_matches
from .hub import DEFAULT_QUEUE_SIZE, Hub
from .limits import DEFAULT_MAX_BODY, MAX_WS_MESSAGE, BodyLimit
from .routes import mount
from .routes.commands import command_routers
from .routes.pages import STATIC, pages_router
from .routes.pairing import pairing_router
from .routes.training import training_router
from .routes.views import views_router
from .training import TrainingDesk

log = logging.getLogger(__name__)

#: How long a dealer socket may take to send its token.
AUTH_TIMEOUT_S = 10.0


def create_app(
    table: TableLink,
    *,
    token: str,
    title: str = "Pontoon table",
    queue_size: int = DEFAULT_QUEUE_SIZE,
    max_body: int = DEFAULT_MAX_BODY,
    tablets: PairingLink | None = None,
) -> FastAPI:
    """The display for ``table``; ``token`` is the dealer's secret from the configuration.

    ``tablets`` pairs the dealer's tablets (default: the table's own,
    ``controller.table.Table.tablets``, when it has them).
    """
    if tablets is None:
        tablets = getattr(table, "tablets", None)
    guard = TokenGuard(token, tablets)
    hub = Hub(queue_size=queue_size)
    desk = TrainingDesk()
    state: dict[str, Any] = {"loop": None, "unsubscribe": None}
    #: open dealer sockets proved by a tablet session: session id -> "close now"
    tablet_sockets: dict[asyncio.Event, str] = {}

    def close_revoked() -> None:
        """Close every dealer socket whose tablet session has ended."""
        for closed, sid in list(tablet_sockets.items()):
            if tablets is None or not tablets.alive(sid):
                closed.set()

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
        close_revoked()  # an expired session's socket goes at the next snapshot

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

    mount(app, pages_router())
    mount(app, views_router(table, hub, guard))

    # -- dealer commands: generated from controller.dealer_commands.COMMANDS --------
    for router in command_routers(table, guard):
        mount(app, router)

    mount(app, training_router(desk, guard))
    mount(app, pairing_router(tablets, guard))
    on_revoke = getattr(tablets, "on_revoke", None)
    if isinstance(on_revoke, list):
        on_revoke.append(close_revoked)

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

    async def _drain_until(websocket: WebSocket, closed: asyncio.Event) -> None:
        """Drain until the client goes away or its tablet session ends."""
        drain = asyncio.ensure_future(_drain(websocket))
        ended = asyncio.ensure_future(closed.wait())
        try:
            await asyncio.wait({drain, ended}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (drain, ended):
                task.cancel()

    @app.websocket("/ws/dealer")
    async def ws_dealer(websocket: WebSocket) -> None:
        session = guard.session_of(websocket)
        await websocket.accept()
        if not same_origin(websocket):  # another site's page: no cookie, no token
            with contextlib.suppress(Exception):
                await websocket.send_text(json.dumps({
                    "type": "error", "message": "The dealer socket is for the table's own pages."}))
                await websocket.close(code=4403)
            return
        if session is not None:  # a paired tablet: its cookie came with the handshake
            closed = asyncio.Event()
            tablet_sockets[closed] = session.id
            try:
                with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                    await hub["dealer"].serve(websocket.send_text,
                                              until=_drain_until(websocket, closed))
                if closed.is_set():
                    with contextlib.suppress(Exception):
                        await websocket.send_text(json.dumps(
                            {"type": "error", "message": "This tablet was unpaired."}))
                        await websocket.close(code=4401)
            finally:
                tablet_sockets.pop(closed, None)
            return
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
    """A body of the wrong shape: one sentence, never pydantic's error list
    (the dealer reads it in a toast, often in the middle of a hold); the
    list itself goes to the log for whoever debugs a client."""
    assert isinstance(exc, RequestValidationError)
    log.info("refused a malformed request to %s: %s", request.url.path, exc.errors())
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
