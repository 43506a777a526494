"""The floor page's HTTP API and socket: token, words, order, standings, export.

References: the history export is compared with ``pontoon-table history`` run
on the table's own journal file (the organiser's existing tool); alarm order
and words are worked out by hand from the statuses the test sends.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from floor_rows import OLD_JOURNAL, chain, entries_of
from starlette.websockets import WebSocketDisconnect

from controller.cli import main
from floor.app import create_floor_app
from floor.ingest import Floor
from floor.messages import TableStatus, encode_entry, encode_status, topic
from floor.store import open_store

TOKEN = "floor-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def status(table: str, **fields: object) -> tuple[str, bytes]:
    return topic(table, "status"), encode_status(TableStatus(table=table, **fields))  # type: ignore[arg-type]


@pytest.fixture
def floor(tmp_path: Path) -> Floor:
    clock = Clock()
    floor = Floor(open_store(f"sqlite:///{tmp_path / 'f.db'}"), clock=clock)
    rows = entries_of(OLD_JOURNAL, "table-1")
    floor.handle([(topic("table-1", "journal"), encode_entry(e)) for e in rows])
    floor.handle(
        [
            status(
                "table-1",
                online=True,
                at=1.0,
                phase="deal",
                game=1,
                deal=2,
                last_seq=len(rows),
                holds=("card unsure: put it back",),
                devices={"shoe": {"up": True}, "seat 2": {"up": False}},
            )
        ]
    )
    clock.now = 1060.0
    floor.handle([status("table-2", online=False)])
    clock.now = 1120.0
    floor.handle(
        [
            status(
                "table-1",
                online=True,
                at=2.0,
                phase="deal",
                game=1,
                deal=2,
                last_seq=len(rows),
                holds=("card unsure: put it back",),
                alarms=("the camera is blocked",),
            )
        ]
    )
    return floor


@pytest.fixture
def client(floor: Floor) -> Iterator[TestClient]:
    with TestClient(create_floor_app(floor, token=TOKEN)) as c:
        yield c


def test_every_api_route_needs_the_floors_token(client: TestClient) -> None:
    paths = [
        "/api/floor",
        "/api/leaderboard",
        "/api/rounds",
        "/api/tables/table-1/games",
        "/api/tables/table-1/history",
    ]
    api = {r.path for r in client.app.routes if getattr(r, "path", "").startswith("/api/")}  # type: ignore[attr-defined]
    assert api == {
        "/api/floor",
        "/api/leaderboard",
        "/api/rounds",
        "/api/tables/{table}/games",
        "/api/tables/{table}/history",
    }
    for path in paths:
        assert client.get(path).status_code == 401
        refused = client.get(path, headers={"Authorization": "Bearer nope"})
        assert refused.status_code == 403
        assert refused.json()["detail"] == "That is not the floor's token."
        assert client.get(path, headers=AUTH).status_code == 200
    assert client.put("/api/rounds", json={}).status_code == 401
    assert client.get("/floor").status_code == 200  # the page itself asks for the token


def test_tables_and_alarms_in_plain_words_oldest_first(client: TestClient) -> None:
    view = client.get("/api/floor", headers=AUTH).json()
    one, two = view["tables"]
    assert (one["table"], one["online"], one["phase"], one["game"], one["deal"]) == (
        "table-1",
        True,
        "deal",
        1,
        2,
    )
    assert one["stored"] == 12 and one["last_heard"] == 1120.0
    assert two["table"] == "table-2" and two["online"] is False
    # the hold came at 1000, the offline table at 1060, the camera at 1120
    assert [(a["table"], a["text"], a["since"]) for a in view["alarms"]] == [
        ("table-1", "On hold: card unsure: put it back", 1000.0),
        (
            "table-2",
            "table-2 is offline: its link to the broker is gone (the table plays on "
            "and sends its rows when the link is back)",
            1060.0,
        ),
        ("table-1", "the camera is blocked", 1120.0),
    ]


def test_history_export_is_what_pontoon_table_history_writes(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    for fmt in ("json", "csv"):
        assert main(["history", str(OLD_JOURNAL), "--format", fmt]) == 0
        want = capsys.readouterr().out
        got = client.get(f"/api/tables/table-1/history?format={fmt}&game=1", headers=AUTH)
        assert got.status_code == 200
        assert got.text == want
    assert client.get("/api/tables/table-1/history?game=7", headers=AUTH).status_code == 404
    assert client.get("/api/tables/nobody/history", headers=AUTH).status_code == 404
    assert client.get("/api/tables/table-1/history?format=xml", headers=AUTH).status_code == 422


def test_the_leaderboard_is_the_tables_own_standings_and_rounds_pick_games(
    client: TestClient, floor: Floor, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", str(OLD_JOURNAL)]) == 0
    balances = json.loads(capsys.readouterr().out)["balances"]
    board = client.get("/api/leaderboard", headers=AUTH).json()["leaderboard"]
    assert {p["player"]: p["units"] for p in board} == {
        p: v for p, v in balances.items() if p != "house"
    }
    # a second table's game whose setup seats Ann again: her units add up
    setup = json.loads(entries_of(OLD_JOURNAL, "x")[0].body)
    floor.handle(
        [
            (topic("table-2", "journal"), encode_entry(e))
            for e in chain("table-2", [("game", setup | {"table": "two"})])
        ]
    )
    refused = client.put("/api/rounds", json={"Round 1": {"table-1": [0]}}, headers=AUTH)
    assert refused.status_code == 422 and "whole numbers" in refused.json()["detail"]
    ok = client.put("/api/rounds", json={"Round 1": {"table-2": [1]}}, headers=AUTH)
    assert ok.status_code == 200
    round_one = client.get("/api/leaderboard", params={"round": "Round 1"}, headers=AUTH).json()
    # nothing played yet at table-2: everyone level, ranks shared, names in order
    assert [(p["rank"], p["player"], p["units"]) for p in round_one["leaderboard"]] == [
        (1, "Ann", 0),
        (1, "Ben", 0),
    ]
    assert client.get("/api/leaderboard?round=nope", headers=AUTH).status_code == 404
    # the rounds are kept with the floor's data
    with TestClient(create_floor_app(Floor(floor.store), token=TOKEN)) as again:
        assert again.get("/api/rounds", headers=AUTH).json()["rounds"] == {
            "Round 1": {"table-2": [1]}
        }


def test_the_socket_needs_the_token_then_sends_the_view(client: TestClient) -> None:
    with client.websocket_connect("/ws/floor") as ws:
        ws.send_text(json.dumps({"token": "nope"}))
        assert ws.receive_json() == {"type": "error", "message": "That is not the floor's token."}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4403
    with client.websocket_connect("/ws/floor") as ws:
        ws.send_text(json.dumps({"token": TOKEN}))
        first = ws.receive_json()
        assert first["type"] == "snapshot"
        assert [t["table"] for t in first["view"]["tables"]] == ["table-1", "table-2"]


def test_csv_export_reads_as_a_spreadsheet(client: TestClient) -> None:
    import csv

    text = client.get("/api/tables/table-1/history?format=csv", headers=AUTH).text
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:3] == ["record", "deal", "counted"]
