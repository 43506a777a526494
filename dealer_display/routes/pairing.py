"""Pairing the dealer's tablet: a code from the dealer panel in, a session cookie out.

``POST /api/pair`` is the one open door, and it opens only with the code the
dealer panel shows at the table (:mod:`controller.pairing` limits the tries).
``GET /api/session`` tells a page whether it is paired (and nothing else);
``POST /api/unpair`` ends the caller's own session.  Listing and ending the
sessions needs the token or a session, like every dealer route.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from controller.pairing import SESSION_TTL_S

from ..auth import (
    SESSION_COOKIE,
    PairingLink,
    TokenGuard,
    bearer_token,
    same_origin,
    token_matches,
)
from .commands import Answer

#: refusal status per reason (``controller.pairing.PairResult.reason``)
STATUS = {"malformed": 422, "locked": 429}
NO_PANEL = "This table has no dealer panel to show a code: use the dealer's token."


class PairBody(BaseModel):
    code: str = Field(max_length=20, description="The six digits the dealer panel shows.")


def pairing_router(tablets: PairingLink | None, guard: TokenGuard) -> APIRouter:
    router = APIRouter(tags=["tablets"])

    def pairing_on() -> bool:
        return tablets is not None and bool(getattr(tablets, "has_panel", True))

    @router.post(
        "/api/pair",
        summary="Pair this device with the code the dealer panel shows",
        response_model=Answer,
        responses={
            403: {"model": Answer, "description": "Wrong, expired or used code"},
            409: {"model": Answer, "description": "No dealer panel: use the token"},
            422: {"model": Answer, "description": "Not six digits"},
            429: {"model": Answer, "description": "Too many wrong codes: wait"},
        },
    )
    async def pair(body: PairBody, request: Request) -> JSONResponse:
        if tablets is None or not pairing_on():
            return JSONResponse({"ok": False, "message": NO_PANEL}, status_code=409)
        if not same_origin(request):
            return JSONResponse(
                {"ok": False, "message": "Pair from the table's own page."}, status_code=403
            )
        client = request.client.host if request.client else ""
        label = request.headers.get("user-agent", "")
        result = tablets.pair(body.code, client=client, label=label)
        if not result.ok:
            headers = {}
            if result.reason == "locked":
                headers["Retry-After"] = str(int(result.retry_after) + 1)
            return JSONResponse(
                {"ok": False, "message": result.message, "reason": result.reason},
                status_code=STATUS.get(result.reason, 403),
                headers=headers,
            )
        answer = JSONResponse(
            {"ok": True, "message": result.message, "data": {"session": result.session.id}}
        )
        answer.set_cookie(
            SESSION_COOKIE,
            result.token,
            max_age=int(SESSION_TTL_S),
            path="/",
            httponly=True,
            samesite="strict",
        )
        return answer

    @router.get("/api/session", summary="Whether this device may command the table, and how")
    async def session(request: Request) -> dict[str, Any]:
        token = bearer_token(request)
        if token is not None and token_matches(token, guard.token):
            return {"paired": True, "via": "token", "pairing": pairing_on()}
        found = guard.session_of(request)
        if found is not None:
            return {"paired": True, "via": "session", "session": found.id, "pairing": pairing_on()}
        return {"paired": False, "via": None, "pairing": pairing_on()}

    @router.post("/api/unpair", summary="End this tablet's own session")
    async def unpair(request: Request) -> JSONResponse:
        found = guard.session_of(request)
        if found is not None and tablets is not None:
            tablets.revoke(found.id, by="tablet")
        answer = JSONResponse({"ok": True, "message": "This tablet is no longer paired."})
        answer.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
        return answer

    need = [Depends(guard)]

    @router.get("/api/sessions", dependencies=need, summary="The paired tablets")
    async def sessions() -> dict[str, Any]:
        return {"sessions": tablets.sessions() if tablets is not None else []}

    @router.post("/api/sessions/{sid}/revoke", dependencies=need, summary="Unpair one tablet")
    async def revoke(sid: str) -> JSONResponse:
        if tablets is None or not tablets.revoke(sid[:40]):
            return JSONResponse(
                {"ok": False, "message": "There is no such tablet session."}, status_code=404
            )
        return JSONResponse({"ok": True, "message": "Tablet unpaired."})

    @router.post("/api/sessions/revoke-all", dependencies=need, summary="Unpair every tablet")
    async def revoke_all() -> JSONResponse:
        count = tablets.revoke_all() if tablets is not None else 0
        return JSONResponse({"ok": True, "message": f"{count} tablet(s) unpaired."})

    return router
