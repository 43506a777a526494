"""Who may change anything at the table: the dealer's token, or a paired tablet.

Read-only public views are open (the players' screen needs no secret); every
dealer endpoint needs one of two proofs:

* the **token** from the table configuration, for scripts: HTTP clients send
  ``Authorization: Bearer <token>``; a browser WebSocket cannot set headers,
  so the dealer socket takes it as its first message instead (not in the URL,
  which ends up in logs and browser history);
* a **tablet session**: the cookie :data:`SESSION_COOKIE` a tablet got by
  entering the code the dealer panel showed (``POST /api/pair``, see
  :mod:`controller.pairing`).  It is HttpOnly (no script reads it) and
  SameSite=Strict (no other site's page sends it); on top of that a request
  carrying an ``Origin`` that is not this server's own is refused, so neither
  a cross-site form nor a cross-site WebSocket can ride on the cookie.

Comparisons are constant-time so the token cannot be guessed byte by byte
from response times.  Nothing public (``/table``, ``/api/public``,
``/ws/public``) ever grants control: only the panel at the table shows codes.
"""

from __future__ import annotations

import hmac
from typing import Any, Protocol
from urllib.parse import urlsplit

from fastapi import HTTPException, Request, status
from starlette.requests import HTTPConnection

BEARER = "bearer"
SESSION_COOKIE = "pontoon_dealer"


class PairingLink(Protocol):
    """The table's paired tablets, as the display uses them
    (:class:`controller.tablets.Tablets`)."""

    #: whether a dealer panel shows codes (else only the token opens the dealer's side)
    has_panel: bool

    def pair(self, code: str, *, client: str = "", label: str = "") -> Any: ...

    def session(self, token: str | None) -> Any: ...

    def alive(self, session_id: str) -> bool: ...

    def sessions(self) -> list[dict[str, Any]]: ...

    def revoke(self, session_id: str, *, by: str = "dealer") -> bool: ...

    def revoke_all(self, *, by: str = "dealer") -> int: ...


def token_matches(given: str | None, expected: str) -> bool:
    """Constant-time comparison; an empty or missing token never matches."""
    if not given or not expected:
        return False
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def bearer_token(request: HTTPConnection) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != BEARER:
        return None
    return value.strip() or None


def same_origin(conn: HTTPConnection) -> bool:
    """No ``Origin`` (not a browser's cross-site request), or this server's own."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    host = conn.headers.get("host", "")
    return bool(host) and urlsplit(origin).netloc.lower() == host.lower()


class TokenGuard:
    """FastAPI dependency refusing a request with neither the token nor a tablet session.

    ``who`` names the secret in the refusals: the event floor's page uses the
    same guard for the organiser's token (and has no tablets).
    """

    def __init__(
        self, token: str, tablets: PairingLink | None = None, who: str = "the dealer's token"
    ) -> None:
        if not token:
            raise ValueError(f"{who} must not be empty")
        self.token = token
        self.who = who
        self.tablets = tablets

    def session_of(self, conn: HTTPConnection) -> Any:
        """The tablet session ``conn``'s cookie proves (None: none, or a foreign origin)."""
        if self.tablets is None:
            return None
        cookie = conn.cookies.get(SESSION_COOKIE)
        if not cookie or not same_origin(conn):
            return None
        return self.tablets.session(cookie)

    def __call__(self, request: Request) -> None:
        given = bearer_token(request)
        if given is None:
            if self.session_of(request) is not None:
                return
            raise HTTPException(
                status.HTTP_401_UNAUTHORIZED,
                detail=f"This needs {self.who} (Authorization: Bearer ...){self._or_tablet}.",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if not token_matches(given, self.token):
            raise HTTPException(status.HTTP_403_FORBIDDEN, detail=f"That is not {self.who}.")

    @property
    def _or_tablet(self) -> str:
        return "" if self.tablets is None else " or a paired tablet"
