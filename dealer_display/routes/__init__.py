"""The display's HTTP API, one ``APIRouter`` module per resource.

``pages`` (pages, favicon, card images), ``views`` (the dealer's and the
public view), ``commands`` (every dealer command, generated from
:mod:`controller.dealer_commands`, one router per resource) and ``training``
(the training desk).  The live sockets stay in :mod:`dealer_display.app`.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI


def mount(app: FastAPI, router: APIRouter) -> None:
    """Add ``router``'s routes to ``app`` as its own routes.

    The router's tags, dependencies and responses are already merged into each
    route when it is added to the router, so the routes stand alone; copying
    them (rather than ``include_router``, which newer FastAPI keeps as one
    opaque entry) keeps ``app.routes`` a flat list of every API route, which
    the security tests walk.
    """
    app.router.routes.extend(router.routes)
