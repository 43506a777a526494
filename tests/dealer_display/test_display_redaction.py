"""No public payload ever carries a card that is face down at that moment.

Random games of every preset are played on the real rules engine (simulated
people choosing among the legal decisions, voids included); after every move
the public view and the public socket's message are searched for card codes,
and those must be a sub-multiset of the cards face up in the full snapshot.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.rules import PRESETS
from dealer_display import autoplay
from dealer_display.app import create_app
from dealer_display.cards_svg import ALL_CARDS
from dealer_display.manual import ManualTable
from dealer_display.views import public_view

CODES = frozenset(ALL_CARDS)


def card_codes(payload: Any) -> Counter[str]:
    """Every card code anywhere in a JSON value, keys included."""
    found: Counter[str] = Counter()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if value.upper() in CODES or value.upper().replace("10", "T") in CODES:
                found[value.upper().replace("10", "T")] += 1
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(k)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(payload)
    return found


def faces(snapshot: dict[str, Any]) -> tuple[Counter[str], Counter[str]]:
    """Face-up and face-down cards on the table in a full snapshot."""
    up: Counter[str] = Counter()
    down: Counter[str] = Counter()
    bank = [snapshot["bank"]] if snapshot["bank"] else []  # no bank before the cut
    hands = [h for s in snapshot["seats"] for h in s["hands"]] + bank
    for hand in hands:
        for card in hand["cards"]:
            (up if card["face_up"] else down)[card["code"]] += 1
    return up, down


def check(snapshot: dict[str, Any], payload: Any) -> int:
    up, down = faces(snapshot)
    shown = card_codes(payload)
    assert not shown - up, f"public payload shows {dict(shown - up)}; face down: {dict(down)}"
    return sum(down.values())


@pytest.mark.parametrize("preset", PRESETS)
def test_public_view_never_shows_a_face_down_card(preset: str) -> None:
    hidden_seen = shown_seen = moves = 0
    for game in range(12):
        rng = random.Random(f"{preset}-{game}")
        players = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"][: rng.randint(2, 8)]
        table = ManualTable(rules=preset, players=players, seed=game)

        def on_publish(snapshot: dict[str, Any]) -> None:
            nonlocal hidden_seen, shown_seen
            view = public_view(snapshot)
            hidden_seen += check(snapshot, view)
            shown_seen += sum(card_codes(view).values())

        table.publisher.add_listener(on_publish)

        async def play(table: ManualTable = table, rng: random.Random = rng) -> int:
            n = 0
            while n < 250 and await autoplay.step(table, rng, void_chance=0.01):
                n += 1
            return n

        moves += asyncio.run(play())
    # The check had something to find: face-down cards existed and face-up ones were shown.
    assert moves > 500
    assert hidden_seen > 100
    assert shown_seen > 100


def test_public_socket_never_carries_a_face_down_card() -> None:
    table = ManualTable(rules="house", players=["Ann", "Bob", "Cat", "Dan", "Eve"], seed=11)
    rng = random.Random(11)
    hidden = 0
    with (
        TestClient(create_app(table, token="redaction-token")) as client,
        client.websocket_connect("/ws/public") as ws,
    ):
        channel = client.app.state.hub["public"]
        msg = json.loads(ws.receive_text())
        check(table.snapshot(), msg)
        for _ in range(300):
            version = channel.version
            assert client.portal is not None
            if not client.portal.call(autoplay.step, table, rng):
                break
            if channel.version == version:
                continue  # nothing public changed, nothing sent
            msg = json.loads(ws.receive_text())
            assert msg["version"] == channel.version
            hidden += check(table.snapshot(), msg)
    assert hidden > 50


def _keys(payload: Any) -> set[str]:
    if isinstance(payload, dict):
        return set(payload) | {k for v in payload.values() for k in _keys(v)}
    if isinstance(payload, list):
        return {k for v in payload for k in _keys(v)}
    return set()


def test_link_counters_reach_the_dealer_view_never_the_public_one() -> None:
    """Issue 17, finding 3: each link's drop counters are for the dealer's
    devices panel; the players' screen gets no link figures at all, and a shoe
    reboot alarm only the calm sentence."""
    from controller.core import LinkChanged
    from controller.snapshot import build_snapshot
    from dealer_display.views import dealer_view

    table = ManualTable()
    core = table.core
    core.handle(LinkChanged("shoe", True))
    core.note_link_counts("shoe", {"crc_errors": 5, "retransmissions": 2})
    snapshot = dict(build_snapshot(core))
    dealer = dealer_view(snapshot)
    assert dealer["links"]["shoe"]["counters"]["crc_errors"] == 5
    public = public_view(snapshot)
    assert not {"links", "counters", "crc_errors", "retransmissions"} & _keys(public)
    snapshot["hold"] = {"reason": "shoe_rebooted", "message": "The shoe restarted ...",
                        "choices": []}
    assert public_view(snapshot)["notice"] == (
        "One moment: the dealer is checking the cards on the table.")


def test_hands_are_laid_open_at_settlement() -> None:
    """RULES.md §2.7: the live hands are compared with the bank's, so the TV
    shows them once the deal is settled. Worked by hand: house, Dan banks;
    Ann 7C 9C = 16 sticks, Ben 8D TD = 18 sticks, Dan QH 2S = 12 stays: both
    players beat 12 and win their stake of 2."""

    async def play() -> ManualTable:
        table = ManualTable(rules="house", players=["Ann", "Ben", "Dan"], banker="Dan")
        assert (await table.command("next_deal")).ok
        for code in ["7C", "8D", "QH"]:
            assert (await table.command("confirm_card", {"code": code})).ok
        for name in ["Ann", "Ben"]:
            stake = {"seat": name, "decision": "stake", "amount": 2}
            assert (await table.command("decide", stake)).ok
        for code in ["9C", "TD", "2S"]:
            assert (await table.command("confirm_card", {"code": code})).ok
        for name in ["Ann", "Ben"]:
            assert (await table.command("decide", {"seat": name, "decision": "stick"})).ok
        assert (await table.command("bank_stay")).ok
        return table

    view = public_view(dict(asyncio.run(play()).snapshot()))
    shown = {s["name"]: [c.get("code") for c in s["hands"][0]["cards"]]
             for s in view["seats"] if s["hands"]}
    assert shown == {"Ann": ["7C", "9C"], "Ben": ["8D", "TD"]}
    assert {s["name"]: s["hands"][0].get("total") for s in view["seats"] if s["hands"]} == {
        "Ann": 16, "Ben": 18}
    assert view["last_deal"]["net"] == {"Ann": 2, "Ben": 2, "Dan": -4}
