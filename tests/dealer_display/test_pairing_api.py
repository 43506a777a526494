"""The pairing routes over HTTP (a hand-run table given a dealer panel's code).

Expected results by hand from docs/display.md (Tablets): the code pairs once,
the cookie is HttpOnly and SameSite=Strict, a cookie sent by another site's
page (a foreign ``Origin``) opens nothing, sessions are listed and ended by
id, and a tablet may end its own session.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from dealer_display.app import create_app
from dealer_display.auth import SESSION_COOKIE
from dealer_display.manual import ManualTable
from firmware_bridge.wire import Button

TOKEN = "pairing-api-token-01234"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def table() -> ManualTable:
    t = ManualTable(rules="house", players=["Ann", "Bob"], banker="Bob", seed=2)
    t.tablets.has_panel = True  # as if the bus had a dealer panel
    return t


@pytest.fixture
def client(table: ManualTable) -> Iterator[TestClient]:
    with TestClient(create_app(table, token=TOKEN)) as c:
        yield c


def code_on_panel(table: ManualTable) -> str:
    for ms in (10, 20, 30):
        table.tablets.press(Button.CONFIRM, ms, 1)
    text = table.tablets.panel_text()
    assert text is not None
    return text.split("\n")[1][:6]


def test_a_code_gives_a_strict_httponly_session_that_commands(
    client: TestClient, table: ManualTable
) -> None:
    r = client.post("/api/pair", json={"code": code_on_panel(table)})
    assert r.status_code == 200, r.text
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert client.get("/api/session").json()["via"] == "session"
    assert client.post("/api/pause").json()["ok"]
    assert client.get("/api/dealer").status_code == 200
    # the same cookie from another site's page opens nothing
    foreign = {"Origin": "http://evil.example"}
    assert client.post("/api/resume", headers=foreign).status_code == 401
    assert client.post("/api/resume", headers={"Origin": "http://testserver"}).json()["ok"]


def test_sessions_are_listed_and_ended_and_a_tablet_can_leave(
    client: TestClient, table: ManualTable
) -> None:
    assert client.post("/api/pair", json={"code": code_on_panel(table)}).status_code == 200
    mine = client.cookies[SESSION_COOKIE]
    listed = client.get("/api/sessions", headers=AUTH).json()["sessions"]
    assert len(listed) == 1 and mine not in str(listed)  # the secret is never listed
    assert client.post("/api/unpair").status_code == 200
    client.cookies.set(SESSION_COOKIE, mine)  # a copy kept by someone: dead too
    assert client.post("/api/pause").status_code == 401
    client.cookies.clear()
    assert client.post("/api/pair", json={"code": code_on_panel(table)}).status_code == 200
    sid = client.get("/api/session").json()["session"]
    assert client.post(f"/api/sessions/{sid}/revoke", headers=AUTH).json()["ok"]
    assert client.post("/api/pause").status_code == 401
    assert client.post("/api/sessions/nosuch/revoke", headers=AUTH).status_code == 404


def test_a_malformed_code_is_one_sentence_and_a_table_without_panel_says_so(
    client: TestClient, table: ManualTable
) -> None:
    r = client.post("/api/pair", json={"code": "12ab"})
    assert r.status_code == 422 and r.json()["message"].startswith("The code is the six digits")
    table.tablets.has_panel = False
    r = client.post("/api/pair", json={"code": "123456"})
    assert r.status_code == 409 and "token" in r.json()["message"]
    assert client.get("/api/session").json() == {"paired": False, "via": None, "pairing": False}


def test_the_box_prints_where_a_tablet_pairs_or_why_none_can() -> None:
    """Loopback: no tablet can reach it, and the config key to change is named."""
    import io

    from dealer_display.address import print_pairing_hint

    out = io.StringIO()
    assert print_pairing_hint("http://10.0.0.7:8000/", out=out) == "http://10.0.0.7:8000/dealer"
    assert "press CONFIRM three times" in out.getvalue() and "token" not in out.getvalue()
    out = io.StringIO()
    print_pairing_hint("http://127.0.0.1:8000/", out=out)
    assert "[display] host" in out.getvalue()
