"""Nobody changes the table without the dealer's token, and the server stays small and local.

Routes are taken from the app's own route table, so a route added later is
checked (or, if it opens a new kind of door, fails here until it is
classified).  Every changing request is sent with no token and a wrong one and
must be refused with the table's snapshot unchanged.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient

import dealer_display.__main__ as display_main
from controller.config import DisplayConfig
from dealer_display import app as app_module
from dealer_display import auth
from dealer_display.app import create_app, serve
from dealer_display.limits import DEFAULT_MAX_BODY, MAX_WS_MESSAGE
from dealer_display.manual import ManualTable
from hardware_sim.table import cli as sim_command

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "prove-dealer-token-0123"
GOOD = {"Authorization": f"Bearer {TOKEN}"}
BAD_TOKENS: list[dict[str, str]] = [
    {},
    {"Authorization": "Bearer"},
    {"Authorization": "Bearer "},
    {"Authorization": f"Bearer {TOKEN[:-1]}"},
    {"Authorization": f"Bearer {TOKEN}x"},
    {"Authorization": f"Bearer {TOKEN.upper()}"},
    {"Authorization": f"Basic {TOKEN}"},
    {"Authorization": TOKEN},
    {"X-Token": TOKEN},
]
#: GET routes anyone may read: pages, card images, the redacted public view,
#: the API description and a training session (a practice table, no real cards).
OPEN_GETS = {
    "/", "/dealer", "/table", "/training", "/favicon.ico", "/cards/{name}.svg", "/api/public",
    "/api/training/{sid}", "/api/training/{sid}/report", "/openapi.json", "/docs", "/redoc",
    "/docs/oauth2-redirect",
    "/api/session",  # says whether the caller is paired, nothing else
}
#: POST routes anyone may call: pairing opens only with the code the dealer
#: panel shows at the table (controller/pairing.py), unpairing ends only the
#: caller's own session; neither changes the game.
OPEN_POSTS = {"/api/pair", "/api/unpair"}
CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
BODIES: dict[str, dict[str, Any]] = {
    "/api/confirm-card": {"code": "AS"},
    "/api/misdeal": {"choice": "void"},
    "/api/decide": {"seat": "Ann", "decision": "stick"},
    "/api/training": {},
    "/api/training/{sid}/deal": {"seat": "Ann", "face_up": False},
    "/api/training/{sid}/expose": {"seat": "Ann", "hand": 1},
    "/api/training/{sid}/settle": {"payouts": {"Ann": 1}},
}


@pytest.fixture
def table() -> ManualTable:
    return ManualTable(rules="house", players=["Ann", "Bob", "Cat", "Dan"], banker="Dan", seed=3)


@pytest.fixture
def client(table: ManualTable) -> Iterator[TestClient]:
    with TestClient(create_app(table, token=TOKEN)) as c:
        yield c


def _state(client: TestClient, table: ManualTable) -> str:
    training = client.app.state.training  # type: ignore[attr-defined]
    sessions = {sid: s.view() for sid, s in getattr(training, "_sessions", {}).items()}
    return json.dumps([table.snapshot(), sessions], sort_keys=True, default=str)


def _routes(client: TestClient) -> Iterator[tuple[str, str]]:
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, APIRoute) or (
            hasattr(route, "methods") and hasattr(route, "path") and route.methods
        ):
            for method in sorted(route.methods):
                if method != "HEAD":
                    yield method, route.path


def _url(path: str, sid: str) -> str:
    return path.replace("{sid}", sid).replace("{name}", "AS")


def test_every_changing_route_refuses_a_missing_or_wrong_token(
    client: TestClient, table: ManualTable
) -> None:
    started = client.post("/api/training", json={}, headers=GOOD)
    assert started.status_code == 200, started.text
    sid = started.json()["id"] if "id" in started.json() else started.json()["session"]
    routes = [(m, p) for m, p in _routes(client) if m in CHANGING and p not in OPEN_POSTS]
    assert len(routes) >= 15, routes  # the dealer commands and the training desk
    before = _state(client, table)
    refused = Counter[int]()
    for method, path in routes:
        for headers in BAD_TOKENS:
            response = client.request(
                method, _url(path, sid), headers=headers, json=BODIES.get(path, {})
            )
            assert response.status_code in (401, 403), (method, path, headers, response.text)
            assert response.json()["detail"], "a refusal must say why"
            refused[response.status_code] += 1
    assert _state(client, table) == before, "a refused request changed the table"
    assert refused[401] and refused[403]


def test_the_open_pairing_routes_grant_nothing_without_the_panels_code(
    client: TestClient, table: ManualTable
) -> None:
    """No code was shown on a panel, so no guess (nor the token itself) pairs."""
    assert client.post("/api/pair", json={"code": "123456"}).status_code == 409  # no panel
    table.tablets.has_panel = True  # as if the bus had a dealer panel
    opened = {p for m, p in _routes(client) if m in CHANGING} & OPEN_POSTS
    assert opened == OPEN_POSTS
    before = _state(client, table)
    for code in ("000000", "123456", TOKEN, "", "99999x"):
        response = client.post("/api/pair", json={"code": code})
        assert response.status_code in (403, 422, 429), (code, response.text)
        assert "set-cookie" not in response.headers
    assert client.post("/api/unpair").status_code == 200
    assert client.get("/api/session").json()["paired"] is False
    assert client.post("/api/next-deal").status_code == 401
    assert _state(client, table) == before


def test_every_read_route_is_either_public_or_guarded(client: TestClient) -> None:
    gets = {p for m, p in _routes(client) if m == "GET"}
    guarded = gets - OPEN_GETS
    assert "/api/dealer" in guarded
    for path in guarded:
        for headers in BAD_TOKENS:
            response = client.get(_url(path, "nosuch"), headers=headers)
            assert response.status_code in (401, 403), (path, headers, response.status_code)
    assert client.get("/api/dealer", headers=GOOD).status_code == 200


def test_only_the_two_known_websockets_exist(client: TestClient) -> None:
    sockets = {r.path for r in client.app.routes if isinstance(r, APIWebSocketRoute)}  # type: ignore[attr-defined]
    assert sockets == {"/ws/public", "/ws/dealer"}


@pytest.mark.parametrize(
    "first", [None, "", "not json", "[]", '{"token": 5}', '{"token": ""}',
              json.dumps({"token": TOKEN[:-1]}), json.dumps({"token": TOKEN + " "}),
              json.dumps({"tok": TOKEN})],
)
@pytest.mark.timeout(30)
def test_dealer_socket_refuses_a_missing_or_wrong_token(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, first: str | None
) -> None:
    monkeypatch.setattr(app_module, "AUTH_TIMEOUT_S", 0.3)
    with client.websocket_connect("/ws/dealer") as ws:
        if first is not None:
            ws.send_text(first)
        error = ws.receive_json()
        assert error == {"type": "error", "message": "That is not the dealer's token."}
        closed = ws.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 4403


def test_dealer_socket_with_the_token_gets_the_full_view(
    client: TestClient, table: ManualTable
) -> None:
    """After the first round (house rules: every card face down), the dealer's
    socket names each card dealt, which the public view must not."""
    assert client.post("/api/next-deal", headers=GOOD).json()["ok"]
    dealt = []
    for _ in range(4):  # Ann, Bob, Cat, then the bank (Dan)
        dealt.append(str(table.state.pack.peek()))
        assert client.post("/api/confirm-card", json={"code": dealt[-1]}, headers=GOOD).json()["ok"]
    with client.websocket_connect("/ws/dealer") as ws:
        ws.send_text(json.dumps({"token": TOKEN}))
        message = ws.receive_json()
    assert message["type"] == "snapshot"
    assert message["view"] == client.get("/api/dealer", headers=GOOD).json()
    seen = [card for seat in message["view"]["seats"] for hand in seat["hands"]
            for card in hand["cards"]] + message["view"]["bank"]["cards"]
    assert sorted(c["code"] for c in seen) == sorted(dealt)
    assert not any(c["face_up"] for c in seen)
    public = json.dumps(client.get("/api/public").json())
    assert not any(f'"{code}"' in public for code in dealt)


def test_tokens_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = auth.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(auth.hmac, "compare_digest", spy)
    table = ManualTable(rules="house", players=["Ann", "Bob"], banker="Bob", seed=1)
    with TestClient(create_app(table, token=TOKEN)) as client:
        assert client.post("/api/pause", headers={"Authorization": "Bearer " + "x" * 23}
                           ).status_code == 403
        assert client.post("/api/pause", headers=GOOD).status_code == 200
        with client.websocket_connect("/ws/dealer") as ws:
            ws.send_text(json.dumps({"token": "y" * 23}))
            assert ws.receive_json()["type"] == "error"
    assert len(calls) == 3 and calls[1] == (TOKEN.encode(), TOKEN.encode())


def _token_equality_comparisons(path: Path) -> list[str]:
    """``==``/``!=``/``in`` between anything named *token*: a timing leak."""
    found = []
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(
            isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops
        ):
            names = [ast.unparse(x) for x in [node.left, *node.comparators]]
            if any("token" in n.lower() and "type" not in n.lower() for n in names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_token_is_compared_with_a_plain_equality() -> None:
    files = [*(ROOT / "dealer_display").rglob("*.py"), *(ROOT / "controller").rglob("*.py")]
    found = [hit for f in files for hit in _token_equality_comparisons(f)]
    assert not found, found


def test_the_server_binds_to_localhost_by_default(
    monkeypatch: pytest.MonkeyPatch, table: ManualTable
) -> None:
    import uvicorn

    bound: list[str] = []

    async def no_listening(server: uvicorn.Server, *args: Any, **kwargs: Any) -> None:
        bound.append(server.config.host)

    monkeypatch.setattr(uvicorn.Server, "serve", no_listening)
    asyncio.run(serve(create_app(table, token=TOKEN)))
    assert bound == ["127.0.0.1"]  # what uvicorn is told to bind, left to the default
    assert DisplayConfig(token="x" * 12).host == "127.0.0.1"
    import argparse

    parser = argparse.ArgumentParser()
    sim_command.add_arguments(parser)
    assert parser.parse_args([]).host == "127.0.0.1"

    seen: dict[str, Any] = {}

    async def fake_serve(app: Any, *, host: str = "?", port: int = 0, **_: Any) -> None:
        seen.update(host=host, port=port)
        await asyncio.sleep(0)

    monkeypatch.setattr(display_main, "serve", fake_serve)
    assert display_main.main(["--token", TOKEN]) == 0
    assert seen["host"] == "127.0.0.1"


def test_request_bodies_are_bounded(client: TestClient, table: ManualTable) -> None:
    before = _state(client, table)
    big = b'{"seat": "Ann", "decision": "' + b"x" * (DEFAULT_MAX_BODY + 10) + b'"}'
    response = client.post("/api/decide", content=big, headers={**GOOD, "content-type":
                                                                "application/json"})
    assert response.status_code == 413 and "too large" in response.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: chunked transfer
        yield b'{"seat": "Ann", "decision": "'
        for _ in range(64):
            yield b"y" * 1024
        yield b'"}'

    response = client.post("/api/decide", content=chunks(), headers={**GOOD, "content-type":
                                                                     "application/json"})
    assert response.status_code == 413
    response = client.post("/api/decide", content=b"{}", headers={
        **GOOD, "content-type": "application/json", "content-length": "99999999999999999999"})
    assert response.status_code == 413
    assert _state(client, table) == before
    # a normal-sized command still works afterwards
    assert client.post("/api/pause", headers=GOOD).status_code == 200


def test_socket_messages_are_bounded_on_the_real_server(table: ManualTable) -> None:
    """Through uvicorn itself (the TestClient has no message limit): a message
    past ``MAX_WS_MESSAGE`` closes that socket with 1009, the server goes on."""
    import socket

    import websockets.asyncio.client as ws_client
    from websockets.exceptions import ConnectionClosed

    app = create_app(table, token=TOKEN)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def scenario() -> tuple[int | None, str]:
        server = asyncio.create_task(serve(app, port=port))
        try:
            for _ in range(200):
                try:
                    async with ws_client.connect(f"ws://127.0.0.1:{port}/ws/public"):
                        break
                except OSError:
                    await asyncio.sleep(0.05)
            async with ws_client.connect(f"ws://127.0.0.1:{port}/ws/public") as ws:
                await ws.recv()  # the first view
                await ws.send("x" * (MAX_WS_MESSAGE + 1))
                code: int | None = None
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 10)
                except ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd is not None else None
            async with ws_client.connect(f"ws://127.0.0.1:{port}/ws/public") as ws:
                view = await asyncio.wait_for(ws.recv(), 10)
            return code, str(view)
        finally:
            server.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await server

    code, view = asyncio.run(scenario())
    assert code == 1009  # "message too big"
    assert json.loads(view)  # a new client is still served
