"""The floor page: every table, the alarm board, the leaderboard, each table's history.

The same conventions as the dealer display (:mod:`dealer_display.app`): a
static page that asks for a token, a JSON API behind ``Authorization: Bearer``
(:class:`dealer_display.auth.TokenGuard`), a WebSocket that takes the token as
its first message and then sends a snapshot and patches of the view
(:class:`dealer_display.hub.Channel`, bounded per client).  Everything on the
floor page needs the organiser's token: it shows the players' money.

The page decides nothing: tables and alarms come from :class:`floor.board.Board`,
the standings from :class:`floor.standings.Standings` (the rules engine's
replay of the stored rows), a history export from the same code as
``pontoon-table history`` (:func:`controller.commands.history.export_rows`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import (
    Body,
    Depends,
    FastAPI,
    HTTPException,
    Query,
    Request,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from controller.commands.history import export_rows, to_csv
from controller.dealer_commands import explain
from controller.journal import JournalError, Row
from controller.rules import IllegalAction
from dealer_display.auth import TokenGuard, token_matches
from dealer_display.hub import Channel
from dealer_display.limits import MAX_WS_MESSAGE, BodyLimit
from dealer_display.routes.pages import STATIC as DISPLAY_STATIC

from .ingest import Floor
from .messages import TABLE_ID
from .standings import check_rounds

log = logging.getLogger("floor")

STATIC = Path(__file__).parent / "static"
WHO = "the floor's token"
AUTH_TIMEOUT_S = 10.0
#: the page's view is rebuilt at most this often while rows pour in (seconds)
REFRESH_S = 0.05
ROUNDS = "rounds"


def floor_view(floor: Floor, rounds: dict[str, dict[str, list[int]]]) -> dict[str, Any]:
    """Everything the page shows, as one JSON object (top-level keys patch separately)."""
    board = floor.board.view()
    return {
        "tables": board["tables"],
        "alarms": board["alarms"],
        "leaderboard": floor.standings.leaderboard(),
        "rounds": [
            {"name": name, "games": games, "leaderboard": floor.standings.leaderboard(games)}
            for name, games in rounds.items()
        ],
        "counts": floor.status_counts(),
        "broker": floor.broker_up,
    }


def create_floor_app(floor: Floor, *, token: str, rounds: dict[str, Any] | None = None) -> FastAPI:
    """The floor page for ``floor``; call ``app.state.changed()`` after each ingest."""
    guard = TokenGuard(token, who=WHO)
    channel = Channel("floor")
    stored = floor.store.get_setting(ROUNDS)
    state: dict[str, Any] = {
        "rounds": check_rounds(rounds if rounds is not None else (stored or {})),
        "dirty": None,  # an asyncio.Event while the app runs
    }

    def publish() -> None:
        channel.publish(floor_view(floor, state["rounds"]) | {"now": round(time.time(), 3)})

    def changed() -> None:
        """Cue from the subscriber (on the loop): the view is rebuilt soon, once."""
        event: asyncio.Event | None = state["dirty"]
        if event is not None:
            event.set()

    async def refresher() -> None:
        event: asyncio.Event = state["dirty"]
        while True:
            await event.wait()
            event.clear()
            try:
                publish()
            except Exception:  # a view that cannot be built must not stop the page
                log.exception("floor: could not build the page's view")
            await asyncio.sleep(REFRESH_S)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state["dirty"] = asyncio.Event()
        publish()
        task = asyncio.create_task(refresher())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            state["dirty"] = None

    app = FastAPIOffline(
        title="Pontoon event floor",
        description="Every table of the event, its alarms, the leaderboard and the "
        "tables' histories. Every endpoint needs `Authorization: Bearer <floor token>`.",
        version="1",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit)
    app.add_exception_handler(RequestValidationError, _plain_refusal)
    app.state.floor = floor
    app.state.changed = changed
    app.state.channel = channel
    app.mount("/static", StaticFiles(directory=DISPLAY_STATIC), name="static")
    app.mount("/floor-static", StaticFiles(directory=STATIC), name="floor-static")
    needs_token: list[Any] = [Depends(guard)]

    @app.get("/", include_in_schema=False)
    async def index() -> RedirectResponse:
        return RedirectResponse("/floor")

    @app.get("/floor", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "floor.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/floor", dependencies=needs_token, summary="The whole floor view")
    async def view() -> dict[str, Any]:
        return channel.view or floor_view(floor, state["rounds"])

    @app.get("/api/leaderboard", dependencies=needs_token, summary="Players by units")
    async def leaderboard(round: str | None = None) -> dict[str, Any]:
        if round is None:
            return {"round": None, "leaderboard": floor.standings.leaderboard()}
        games = state["rounds"].get(round)
        if games is None:
            raise HTTPException(404, f"There is no round {round!r}.")
        return {"round": round, "leaderboard": floor.standings.leaderboard(games)}

    @app.get("/api/rounds", dependencies=needs_token, summary="The organiser's rounds")
    async def get_rounds() -> dict[str, Any]:
        return {"rounds": state["rounds"]}

    @app.put("/api/rounds", dependencies=needs_token, summary="Group games into rounds")
    async def put_rounds(value: Annotated[Any, Body()]) -> dict[str, Any]:
        """``{round: {table: [game, ...]}}``; kept in the floor's database."""
        try:
            rounds_checked = check_rounds(value)
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        floor.store.set_setting(ROUNDS, rounds_checked)
        state["rounds"] = rounds_checked
        publish()
        return {"ok": True, "rounds": rounds_checked}

    def known_table(table: str) -> str:
        if not TABLE_ID.match(table) or table not in floor.board.tables:
            raise HTTPException(404, f"There is no table {table!r} on this floor.")
        return table

    @app.get("/api/tables/{table}/games", dependencies=needs_token, summary="A table's games")
    async def games(table: str) -> dict[str, Any]:
        return {"table": table, "games": floor.store.games(known_table(table))}

    @app.get(
        "/api/tables/{table}/history",
        dependencies=needs_token,
        summary="A game exported as `pontoon-table history` does (JSON or CSV)",
    )
    async def history(
        table: str,
        game: int | None = Query(None, ge=1),
        format: str = Query("json", pattern="^(json|csv)$"),
    ) -> Response:
        numbers = floor.store.games(known_table(table))
        if not numbers:
            raise HTTPException(404, f"Table {table} has sent no game yet.")
        number = numbers[-1] if game is None else game
        if number not in numbers:
            raise HTTPException(404, f"Table {table} has no game {number} (games: {numbers}).")
        rows = [
            Row(e.seq, e.game, e.kind, json.loads(e.body), json.loads(e.meta), e.at, e.hash)
            for e in floor.store.rows(table, game=number)
        ]
        try:
            data = export_rows(number, rows)
        except (JournalError, IllegalAction) as error:
            raise HTTPException(409, f"Table {table}, game {number}: {error}") from None
        name = f"{table}-game-{number}"
        if format == "csv":
            return Response(
                to_csv(data),
                media_type="text/csv; charset=utf-8",
                headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
            )
        return Response(
            json.dumps(data, indent=2) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}.json"'},
        )

    @app.websocket("/ws/floor")
    async def ws_floor(websocket: WebSocket) -> None:
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
                    json.dumps({"type": "error", "message": f"That is not {WHO}."})
                )
                await websocket.close(code=4403)
            return

        async def drain() -> None:
            with contextlib.suppress(WebSocketDisconnect):
                while True:
                    await websocket.receive_text()

        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await channel.serve(websocket.send_text, until=drain())

    return app


async def _plain_refusal(request: Request, exc: Exception) -> JSONResponse:
    """A request of the wrong shape: one sentence, as the dealer display answers."""
    assert isinstance(exc, RequestValidationError)
    log.info("floor page refused a malformed request to %s: %s", request.url.path, exc.errors())
    return JSONResponse({"detail": explain(list(exc.errors()))}, status_code=422)


async def serve(
    app: FastAPI, *, host: str = "127.0.0.1", port: int = 8100, log_level: str = "warning"
) -> None:
    """Run ``app`` with uvicorn in the caller's loop until cancelled (localhost by default)."""
    import uvicorn

    config = uvicorn.Config(
        app, host=host, port=port, log_level=log_level, lifespan="on", ws_max_size=MAX_WS_MESSAGE
    )
    await uvicorn.Server(config).serve()
