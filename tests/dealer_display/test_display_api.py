"""The HTTP API, pages, card images and authorisation, over a real engine table."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from dealer_display import app as app_module
from dealer_display.cards_svg import ALL_CARDS
from dealer_display.manual import ManualTable

TOKEN = "test-dealer-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}

STATIC = Path(app_module.__file__).parent / "static"
EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.I)


def test_pages_and_assets_are_served_locally(client: TestClient) -> None:
    for page in ("/dealer", "/table", "/training"):
        r = client.get(page)
        assert r.status_code == 200
        assert "text/html" in r.headers["content-type"]
        assert not EXTERNAL.search(r.text), f"{page} loads something from outside"
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', r.text):
            assert client.get(asset).status_code == 200, asset
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        assert "cdn" not in text.lower() and not EXTERNAL.search(text), path.name


def test_swagger_docs_work_offline(client: TestClient) -> None:
    r = client.get("/docs")
    assert r.status_code == 200
    assert not EXTERNAL.search(r.text), "the docs page loads from a CDN"
    for asset in re.findall(r'(?:src|href)="(/[^"]+)"', r.text):
        assert client.get(asset).status_code == 200, asset
    spec = client.get("/openapi.json").json()
    assert "/api/confirm-card" in spec["paths"] and "/api/public" in spec["paths"]


def test_every_card_and_the_back_have_an_image(client: TestClient) -> None:
    assert len(set(ALL_CARDS)) == 52
    for name in [*ALL_CARDS, "back", "10H"]:
        r = client.get(f"/cards/{name}.svg")
        assert r.status_code == 200, name
        assert r.headers["content-type"].startswith("image/svg+xml")
        assert r.text.startswith("<svg") and r.text.endswith("</svg>")
    assert client.get("/cards/ZZ.svg").status_code == 404
    assert client.get("/cards/1H.svg").status_code == 404


def _changing_routes(client: TestClient) -> list[APIRoute]:
    app = client.app
    routes = [r for r in app.routes if isinstance(r, APIRoute) and r.methods & {"POST", "PUT",
                                                                               "PATCH", "DELETE"}
              and r.path not in ("/api/pair", "/api/unpair")]  # open: test_prove_security.py
    assert len(routes) >= 14
    return routes


def test_every_changing_endpoint_refuses_a_missing_or_wrong_token(
    client: TestClient, table: ManualTable
) -> None:
    before = table.publisher.version
    for route in _changing_routes(client):
        path = route.path.replace("{sid}", "abcd1234")
        method = sorted(route.methods)[0]
        r = client.request(method, path, json={})
        assert r.status_code == 401, (path, r.status_code)
        for bad in ("Bearer wrong-token", f"Basic {TOKEN}", "Bearer ", TOKEN):
            r = client.request(method, path, json={}, headers={"Authorization": bad})
            assert r.status_code in (401, 403), (path, bad, r.status_code)
    assert table.publisher.version == before, "a refused request changed the table"
    assert client.get("/api/dealer").status_code == 401
    assert client.get("/api/dealer", headers={"Authorization": "Bearer no"}).status_code == 403


def test_read_only_views_need_no_token(client: TestClient) -> None:
    assert client.get("/api/public").status_code == 200
    assert client.get("/table").status_code == 200


def _play_first_cards(client: TestClient, table: ManualTable) -> None:
    assert client.post("/api/next-deal", headers=AUTH).json()["ok"]
    for _ in range(4):  # first round: Ann, Bob, Cat, then the bank
        card = str(table.state.pack.peek())
        r = client.post("/api/confirm-card", json={"code": card}, headers=AUTH)
        assert r.status_code == 200 and r.json()["ok"], r.text


def test_dealer_commands_drive_the_table_and_refusals_say_why(
    client: TestClient, table: ManualTable
) -> None:
    _play_first_cards(client, table)
    dealer = client.get("/api/dealer", headers=AUTH).json()
    assert dealer["phase"] == "stakes"
    assert dealer["next"].startswith("Stakes")
    ann = next(s for s in dealer["seats"] if s["name"] == "Ann")
    assert ann["hands"][0]["cards"][0]["face_up"] is False
    assert "code" in ann["hands"][0]["cards"][0]  # the dealer sees it

    r = client.post("/api/decide", json={"seat": "Ann", "decision": "stake", "amount": 9},
                    headers=AUTH)
    assert r.status_code == 409
    assert "1 to 5" in r.json()["message"]
    r = client.post("/api/confirm-card", json={"code": "AS"}, headers=AUTH)
    assert r.status_code == 409 and "No card is due" in r.json()["message"]
    r = client.post("/api/decide", json={"seat": "Ann", "decision": "stake", "amount": 2},
                    headers=AUTH)
    assert r.status_code == 200
    public = client.get("/api/public").json()
    ann_public = next(s for s in public["seats"] if s["name"] == "Ann")
    assert ann_public["hands"][0]["stake"] == 2
    assert ann_public["hands"][0]["cards"] == [{"face_up": False}]
    assert "total" not in ann_public["hands"][0]

    assert client.post("/api/pause", headers=AUTH).json()["ok"]
    assert client.get("/api/public").json()["notice"] == "The table is paused."
    r = client.post("/api/decide", json={"seat": "Bob", "decision": "stake", "amount": 2},
                    headers=AUTH)
    assert r.status_code == 409 and "paused" in r.json()["message"]
    assert client.post("/api/resume", headers=AUTH).json()["ok"]


def test_bad_bodies_get_clear_answers(client: TestClient) -> None:
    r = client.post("/api/confirm-card", content=b"{" + b" " * 40_000 + b"}",
                    headers={**AUTH, "content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/confirm-card", json={"code": "X" * 50}, headers=AUTH)
    assert r.status_code == 422
    r = client.post("/api/confirm-card", json={"code": "ZZ"}, headers=AUTH)
    assert r.status_code == 409 and "unknown card" in r.json()["message"].lower()


def test_public_socket_gets_snapshot_then_changes(client: TestClient, table: ManualTable) -> None:
    with client.websocket_connect("/ws/public") as ws:
        first = json.loads(ws.receive_text())
        assert first["type"] == "snapshot"
        assert first["view"]["deal"]["banker"] == "Dan"
        client.post("/api/next-deal", headers=AUTH)
        patch = json.loads(ws.receive_text())
        assert patch["type"] == "patch" and patch["version"] == first["version"] + 1
        assert patch["set"]["deal"]["number"] == 1
        card = str(table.state.pack.peek())
        client.post("/api/confirm-card", json={"code": card}, headers=AUTH)
        patch = json.loads(ws.receive_text())
        ann = next(s for s in patch["set"]["seats"] if s["name"] == "Ann")
        assert ann["hands"][0]["cards"] == [{"face_up": False}]
        assert card not in json.dumps(patch)


def test_dealer_socket_needs_the_token_first(client: TestClient, table: ManualTable) -> None:
    with client.websocket_connect("/ws/dealer") as ws:
        ws.send_text(json.dumps({"token": "wrong"}))
        msg = json.loads(ws.receive_text())
        assert msg["type"] == "error"
        closed = ws.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 4403
    _play_first_cards(client, table)
    with client.websocket_connect("/ws/dealer") as ws:
        ws.send_text(json.dumps({"token": TOKEN}))
        msg = json.loads(ws.receive_text())
        assert msg["type"] == "snapshot"
        ann = next(s for s in msg["view"]["seats"] if s["name"] == "Ann")
        assert "code" in ann["hands"][0]["cards"][0]


def test_server_binds_to_localhost_by_default(
    monkeypatch: pytest.MonkeyPatch, table: ManualTable
) -> None:
    """What uvicorn is told to bind when the caller names no host."""
    import uvicorn

    bound: list[str] = []

    async def no_listening(server: uvicorn.Server, *args: object, **kwargs: object) -> None:
        bound.append(server.config.host)

    monkeypatch.setattr(uvicorn.Server, "serve", no_listening)
    asyncio.run(app_module.serve(app_module.create_app(table, token=TOKEN)))
    assert bound == ["127.0.0.1"]
