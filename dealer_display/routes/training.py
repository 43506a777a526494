"""The training desk's routes: a trainee deals and settles, the engine marks the work."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from ..training import TrainingDesk, TrainingError, UnknownSession
from .commands import Answer

#: a refusal's shape (a wrong body is answered the same way, see app._plain_refusal)
REFUSED: dict[int | str, dict[str, Any]] = {
    404: {"model": Answer, "description": "No such session"},
    409: {"model": Answer, "description": "Refused: the message says why"},
    422: {"model": Answer, "description": "The body has the wrong shape: the message says how"},
}


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


def training_router(desk: TrainingDesk, guard: Callable[..., Any]) -> APIRouter:
    """Reading a session is open; every change needs the dealer's token."""
    router = APIRouter(tags=["training"], responses=REFUSED)
    need_token = [Depends(guard)]

    def training_answer(call: Callable[[], dict[str, Any]]) -> JSONResponse:
        try:
            return JSONResponse(call())
        except TrainingError as exc:
            code = 404 if isinstance(exc, UnknownSession) else 409
            return JSONResponse({"ok": False, "message": str(exc)}, status_code=code)

    @router.post("/api/training", dependencies=need_token, summary="Start a training session")
    async def training_new(body: NewTraining) -> JSONResponse:
        return training_answer(lambda: desk.start(body.rules, body.players, body.seed, body.top))

    @router.get("/api/training/{sid}", summary="A training session's state")
    async def training_get(sid: str) -> JSONResponse:
        return training_answer(lambda: desk.get(sid).view())

    @router.post("/api/training/{sid}/deal", dependencies=need_token,
                 summary="The trainee deals the next card")
    async def training_deal(sid: str, body: TraineeDeal) -> JSONResponse:
        return training_answer(lambda: desk.get(sid).deal(body.seat, body.face_up))

    @router.post("/api/training/{sid}/expose", dependencies=need_token,
                 summary="The trainee turns a bust hand face up")
    async def training_expose(sid: str, body: TraineeExpose) -> JSONResponse:
        return training_answer(lambda: desk.get(sid).expose(body.seat, body.hand))

    @router.post("/api/training/{sid}/settle", dependencies=need_token,
                 summary="The trainee settles the deal")
    async def training_settle(sid: str, body: TraineeSettle) -> JSONResponse:
        return training_answer(
            lambda: desk.get(sid).settle(body.payouts, body.next_banker)
        )

    @router.post("/api/training/{sid}/end", dependencies=need_token,
                 summary="End the session and get its report")
    async def training_end(sid: str) -> JSONResponse:
        return training_answer(lambda: desk.get(sid).end())

    @router.get("/api/training/{sid}/report",
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

    return router
