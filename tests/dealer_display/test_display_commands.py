"""Every dealer command in the registry is served by the display, works, and refuses plainly.

The test walks :data:`controller.dealer_commands.COMMANDS`, so a command added
there is checked here with no new test: its route is in the OpenAPI document
with the command's own body schema, the core has its handler, a call at a
moment the rules allow it works over HTTP, and a call at a moment they do not
(or with a body of the wrong shape) is refused with one plain sentence, never
a JSON error list.  The legal and illegal moments are set up by hand below,
from the rules (docs/rules.md): which phase allows which move.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from controller.core import CardRead, TableCore
from controller.dealer_commands import COMMANDS, NoArgs
from controller.rules import actions as engine_actions
from dealer_display.app import create_app
from dealer_display.manual import ManualTable
from firmware_bridge.host import CardOut

TOKEN = "commands-dealer-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}

Setup = Callable[[ManualTable], dict[str, Any]]


def _house() -> ManualTable:
    return ManualTable(rules="house", players=["Ann", "Bob", "Cat", "Dan"], banker="Dan", seed=3)


def _traditional() -> ManualTable:
    # A banker named up front: no cut, the game waits between deals (bank sale allowed).
    return ManualTable(rules="traditional", players=["Ann", "Bob", "Cat"], banker="Cat", seed=3)


def _ok(table: ManualTable, name: str, args: dict[str, Any] | None = None) -> None:
    result = table.core.command(name, args)
    table.refresh()  # what Table.command does after the core's answer
    assert result.ok, (name, args, result.message)


def _in_deal(table: ManualTable) -> None:
    _ok(table, "next_deal")


def _first_round(table: ManualTable) -> None:
    """Deal 1 started and its first round dealt (Ann, Bob, Cat, then the bank): stakes due."""
    _in_deal(table)
    for _ in range(4):
        _ok(table, "confirm_card", {"code": str(table.next_card())})
    assert table.snapshot()["pending"]["kind"] == "stakes"


def _to_bank_turn(table: ManualTable) -> None:
    """Play deal 1 (least stakes, stick when allowed) until the bank must draw or stay."""
    _in_deal(table)
    for _ in range(200):
        need = table.snapshot()["pending"]
        kind = need["kind"]
        if kind == "bank":
            return
        if kind == "card":
            _ok(table, "confirm_card", {"code": str(table.next_card())})
        elif kind == "stakes":
            _ok(table, "decide", {"seat": need["waiting"][0], "decision": "stake",
                                  "amount": need["minimum"]})
        elif kind == "decision":
            word = "stick" if "stick" in need["words"] else need["words"][0]
            _ok(table, "decide", {"seat": need["player"], "decision": word})
        else:
            raise AssertionError(f"the deal reached {kind} before the bank's turn")
    raise AssertionError("the bank's turn never came")


def _alarm(table: ManualTable) -> None:
    """The shoe reports a card nobody was due (between deals): a misdeal alarm opens."""
    table.feed(CardOut(1, 0))
    table.feed(CardRead(1, "AS"))
    assert [a["kind"] for a in table.snapshot()["alarms"]] == ["misdeal"]


def _paused(table: ManualTable) -> None:
    _ok(table, "pause")


#: per command: the table to start from, how to reach a moment where the command
#: is allowed, and the body it is called with then
LEGAL: dict[str, tuple[Callable[[], ManualTable], Callable[[ManualTable], None], Setup]] = {
    "pause": (_house, lambda t: None, lambda t: {}),
    "resume": (_house, _paused, lambda t: {}),
    "new_game": (_house, _first_round, lambda t: {}),
    "next_deal": (_house, lambda t: None, lambda t: {}),
    "void_deal": (_house, _in_deal, lambda t: {}),
    "confirm_card": (_house, _in_deal, lambda t: {"code": str(t.next_card())}),
    "stack_top": (_house, lambda t: None, lambda t: {"cards": ["AS", "KD"]}),
    "decide": (_house, _first_round, lambda t: {"seat": "Ann", "decision": "stake",
                                                 "amount": 2}),
    "bank_draw": (_house, _to_bank_turn, lambda t: {}),
    "bank_stay": (_house, _to_bank_turn, lambda t: {}),
    "sell_bank": (_traditional, lambda t: None, lambda t: {"to": "Ann", "price": 3}),
    "misdeal": (_house, _alarm, lambda t: {"choice": "return"}),
}

#: per command: a moment the rules (or the table) refuse it, and the body sent then
ILLEGAL: dict[str, tuple[Callable[[], ManualTable], Callable[[ManualTable], None], Setup]] = {
    "resume": (_house, _alarm, lambda t: {}),  # an open alarm holds the table
    "next_deal": (_house, _in_deal, lambda t: {}),  # a deal is on
    "void_deal": (_house, lambda t: None, lambda t: {}),  # no deal to void
    "confirm_card": (_house, lambda t: None, lambda t: {"code": "AS"}),  # no card due
    "stack_top": (_house, _in_deal, lambda t: {"cards": ["AS"]}),  # only between deals
    "decide": (_house, _first_round, lambda t: {"seat": "Ann", "decision": "stake",
                                                 "amount": 9}),  # house stakes are 1 to 5
    "bank_draw": (_house, lambda t: None, lambda t: {}),  # not the bank's turn
    "bank_stay": (_house, _paused, lambda t: {}),  # paused
    "sell_bank": (_house, lambda t: None, lambda t: {"to": "Ann", "price": 3}),  # no bank sale
    "misdeal": (_house, lambda t: None, lambda t: {"choice": "return"}),  # no alarm
}
#: commands a dealer may always give (the rules never forbid pausing or a new game)
ALWAYS_ALLOWED = {"pause", "new_game"}


@pytest.fixture
def openapi() -> dict[str, Any]:
    with TestClient(create_app(_house(), token=TOKEN)) as client:
        doc: dict[str, Any] = client.get("/openapi.json").json()
    return doc


@pytest.fixture
def make_client() -> Iterator[Callable[[ManualTable], TestClient]]:
    clients: list[TestClient] = []

    def make(table: ManualTable) -> TestClient:
        client = TestClient(create_app(table, token=TOKEN))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def assert_plain_sentence(body: Any) -> None:
    """One sentence a dealer reads: no JSON error list, no repr, one line, a full stop."""
    assert isinstance(body, dict) and body.get("ok") is False, body
    assert set(body) <= {"ok", "message", "data"}, body
    message = body["message"]
    assert isinstance(message, str) and 3 < len(message) < 200, body
    assert "\n" not in message and not any(c in message for c in "{}[]"), message
    assert message[0].isupper() and message.endswith((".", "!", "?")), message
    for word in ("validation error", "Traceback", "type=", "input_value"):
        assert word not in message, message


def test_the_registry_and_the_cases_cover_the_same_commands() -> None:
    assert set(LEGAL) == set(COMMANDS)
    assert set(ILLEGAL) | ALWAYS_ALLOWED == set(COMMANDS)
    assert not set(ILLEGAL) & ALWAYS_ALLOWED


def test_every_engine_action_a_dealer_enters_has_a_command() -> None:
    """By hand, from docs/rules.md: which command enters each of the engine's actions.

    A new action in the rules engine fails here until a dealer command reaches it.
    """
    reaches = {
        "StartDeal": "next_deal",
        "StackTop": "stack_top",
        "DealCard": "confirm_card",
        "PlaceStake": "decide",
        "PlaceShoot": "decide",
        "Decide": "decide",
        "BankDecide": "bank_draw",
        "PutKitty": "decide",
        "SellBank": "sell_bank",
        "VoidDeal": "void_deal",
    }
    kinds = {kind.__name__ for kind in engine_actions.Action.__args__}  # type: ignore[attr-defined]
    assert kinds == set(reaches)
    assert set(reaches.values()) <= set(COMMANDS)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_core_handles_the_command_with_the_models_fields(name: str) -> None:
    spec = COMMANDS[name]
    handler = getattr(TableCore, name)
    params = [p for p in inspect.signature(handler).parameters if p != "self"]
    assert params == list(spec.args.model_fields), (name, params)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_route_is_in_the_openapi_document_with_the_commands_body(
    name: str, openapi: dict[str, Any]
) -> None:
    spec = COMMANDS[name]
    operation = openapi["paths"][spec.path]["post"]
    assert operation["summary"] == spec.summary
    assert {"200", "409"} <= set(operation["responses"])
    if spec.args is NoArgs:
        assert "requestBody" not in operation
        return
    ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    published = openapi["components"]["schemas"][ref.rsplit("/", 1)[1]]
    own = spec.args.model_json_schema(ref_template="#/components/schemas/{model}")
    assert set(published["properties"]) == set(own["properties"])
    for field, schema in own["properties"].items():
        shown = published["properties"][field]
        for key in ("type", "description", "maxLength", "minLength", "maxItems", "items"):
            assert shown.get(key) == schema.get(key), (name, field, key)
        kinds = [s.get("type") for s in schema.get("anyOf", [])]
        assert [s.get("type") for s in shown.get("anyOf", [])] == kinds, (name, field)
    assert sorted(published.get("required", [])) == sorted(own.get("required", []))
    assert operation["responses"]["422"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Answer"
    }


def test_every_dealer_post_route_comes_from_the_registry() -> None:
    app = create_app(_house(), token=TOKEN)
    posts = {r.path for r in app.routes if isinstance(r, APIRoute) and "POST" in r.methods}
    # the training desk and the tablets' pairing (dealer_display/routes/pairing.py) are
    # not table commands
    dealer = {p for p in posts if not p.startswith(("/api/training", "/api/sessions"))
              and p not in ("/api/pair", "/api/unpair")}
    assert dealer == {c.path for c in COMMANDS.values()}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_legal_call_works_over_http(
    name: str, make_client: Callable[[ManualTable], TestClient]
) -> None:
    new_table, reach, body = LEGAL[name]
    table = new_table()
    client = make_client(table)
    reach(table)
    before = table.publisher.version
    r = client.post(COMMANDS[name].path, json=body(table), headers=AUTH)
    assert r.status_code == 200, (name, r.text)
    assert r.json()["ok"] is True
    assert table.publisher.version > before, "the table did not publish the change"


def test_the_legal_calls_did_what_they_say(
    make_client: Callable[[ManualTable], TestClient],
) -> None:
    """Spot checks of the effect, worked out by hand from the rules."""
    table = _house()
    client = make_client(table)
    client.post("/api/stack-top", json={"cards": ["AS", "KD"]}, headers=AUTH)
    assert str(table.next_card()) == "AS"
    client.post("/api/next-deal", headers=AUTH)
    client.post("/api/confirm-card", json={"code": "AS"}, headers=AUTH)
    ann = next(s for s in table.snapshot()["seats"] if s["name"] == "Ann")
    assert ann["hands"][0]["cards"] == [{"code": "AS", "face_up": False}]

    trad = _traditional()
    client = make_client(trad)
    assert client.post("/api/bank/sell", json={"to": "Ann", "price": 3}, headers=AUTH).json()["ok"]
    # Ann paid Cat 3 units for the bank (both start level): Ann -3, Cat +3, Ann banks.
    balances = {s["name"]: s["balance"] for s in trad.snapshot()["seats"]}
    assert balances["Ann"] - balances["Bob"] == -3 and balances["Cat"] - balances["Bob"] == 3
    assert trad.snapshot()["deal"]["banker"] == "Ann"


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_an_illegal_call_is_refused_in_one_plain_sentence(
    name: str, make_client: Callable[[ManualTable], TestClient]
) -> None:
    new_table, reach, body = ILLEGAL[name]
    table = new_table()
    client = make_client(table)
    reach(table)
    r = client.post(COMMANDS[name].path, json=body(table), headers=AUTH)
    assert r.status_code == 409, (name, r.text)
    assert_plain_sentence(r.json())


@pytest.mark.parametrize("name", [n for n, c in COMMANDS.items() if c.args is not NoArgs])
def test_a_body_of_the_wrong_shape_is_refused_in_one_plain_sentence(
    name: str, make_client: Callable[[ManualTable], TestClient]
) -> None:
    table = _house()
    client = make_client(table)
    before = table.publisher.version
    for body in ({}, {"code": 5, "cards": "AS", "choice": [], "seat": {}, "to": None,
                      "price": "lots", "decision": ""}, [1, 2]):
        r = client.post(COMMANDS[name].path, json=body, headers=AUTH)
        assert r.status_code == 422, (name, body, r.text)
        assert_plain_sentence(r.json())
    r = client.post(COMMANDS[name].path, content=b"{not json",
                    headers={**AUTH, "content-type": "application/json"})
    assert r.status_code == 422
    assert_plain_sentence(r.json())
    assert table.publisher.version == before


def test_the_core_refuses_unknown_commands_and_bad_arguments_plainly() -> None:
    core = _house().core
    for result in (
        core.command("shuffle"),
        core.command("_record"),
        core.command("decide", {"seat": "Ann"}),
        core.command("stack_top", {"cards": ["AS", "TOOLONG"]}),
    ):
        assert_plain_sentence(result.to_json())


def test_a_manual_table_journalled_on_disk_resumes_where_it_stopped(tmp_path: Path) -> None:
    """The hand-run table keeps the live table's journal: a restart loses nothing."""
    path = tmp_path / "manual.sqlite"
    first = ManualTable(rules="house", players=["Ann", "Bob"], banker="Bob", seed=2,
                        journal=path)
    _ok(first, "next_deal")
    dealt = str(first.next_card())
    _ok(first, "confirm_card", {"code": dealt})
    first.core.journal.close()
    again = ManualTable(rules="house", players=["Ann", "Bob"], banker="Bob", seed=2,
                        journal=path)
    ann = next(s for s in again.snapshot()["seats"] if s["name"] == "Ann")
    assert ann["hands"][0]["cards"] == [{"code": dealt, "face_up": False}]
    assert again.snapshot()["deal"]["number"] == 1
