"""The dealer's token: who may change anything at the table.

Read-only views are open (the players' screen needs no secret), every endpoint
that changes something requires the token from the table configuration.  HTTP
clients send ``Authorization: Bearer <token>``; a browser WebSocket cannot set
headers, so the dealer socket takes the token as its first message instead (not
in the URL, which ends up in logs and browser history).  Comparison is
constant-time so the token cannot be guessed byte by byte from response times.
"""

from __future__ import annotations

import hmac

from fastapi import HTTPException, Request, status

BEARER = "bearer"


def token_matches(given: str | None, expected: str) -> bool:
    """Constant-time comparison; an empty or missing token never matches."""
    if not given or not expected:
        return False
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != BEARER:
        return None
    return value.strip() or None


class TokenGuard:
    """FastAPI dependency refusing a request without the dealer's token.

    ``who`` names the secret in the refusals: the event floor's page uses the
    same guard for the organiser's token.
    """

    def __init__(self, token: str, who: str = "the dealer's token") -> None:
        if not token:
            raise ValueError(f"{who} must not be empty")
        self.token = token
        self.who = who

    def __call__(self, request: Request) -> None:
        given = bearer_token(request)
        if given is None:
            raise HTTPException(
                status.HTTP_401_UNAUTHORIZED,
                detail=f"This needs {self.who} (Authorization: Bearer ...).",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if not token_matches(given, self.token):
            raise HTTPException(
                status.HTTP_403_FORBIDDEN, detail=f"That is not {self.who}."
            )
