"""Every snapshot the table publishes, and both views of it, match the published schema.

The schema is :mod:`controller.snapshot_schema` (the dealer's snapshot) and
:mod:`dealer_display.schema` (the dealer's and the players' views).  Every
model is closed and validated strictly from the JSON that is sent, so a key
the builder adds without the schema, a key the schema promises that the
builder drops, a tuple, a wrong type or a wrong phase name all fail here.

The games: a scenario through the whole simulated table (ptys, camera, light
faults); every whole-game scenario in ``tests/scenarios`` played on a live
``TableCore`` with device events only (card-outs, camera readings, panel
buttons); the faults a real table meets (an unreadable card, a jammed gate, a
link down, a pause); and hand-run games of every preset on the manual table,
whose snapshots come from the same builder.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from ctrl_drive import OWN_SCENARIOS, SCENARIOS, Driver, drive, expected, setup_for
from pydantic import ValidationError

from controller.core import CardRead, Event, LinkChanged, TableCore
from controller.journal import Journal
from controller.rules import Action, CardNeed
from controller.snapshot import build_snapshot
from controller.snapshot_schema import SNAPSHOT
from dealer_display import autoplay, views
from dealer_display.app import create_app
from dealer_display.manual import ManualTable
from dealer_display.schema import DEALER_VIEW, PUBLIC_VIEW, schema_text
from firmware_bridge.host import ButtonPressed, CardOut, GateForced, GateJammed, ShoeEmpty
from firmware_bridge.wire import ADDRESS_DEALER, Button
from hardware_sim.table.scenario_run import ScenarioRun, play_scenario

PRESETS = ["house", "traditional", "shoot", "casino", "ponton"]
ROOT = Path(__file__).parents[2]


def validate(snapshot: Mapping[str, Any]) -> None:
    """The snapshot and both views, as the JSON the display sends."""
    SNAPSHOT.validate_json(json.dumps(snapshot), strict=True)
    DEALER_VIEW.validate_json(json.dumps(views.dealer_view(dict(snapshot))), strict=True)
    PUBLIC_VIEW.validate_json(json.dumps(views.public_view(dict(snapshot))), strict=True)


class CheckedCore(TableCore):
    """A TableCore that validates its snapshot after every event and every action."""

    checked: ClassVar[int] = 0
    phases: ClassVar[set[str]] = set()

    def _check(self) -> None:
        snapshot = build_snapshot(self)
        validate(snapshot)
        CheckedCore.checked += 1
        CheckedCore.phases.add(snapshot["phase"])

    def handle(self, event: Event) -> None:
        super().handle(event)
        self._check()

    def _record(self, action: Action, meta: Mapping[str, Any] | None = None) -> None:
        super()._record(action, meta)
        self._check()


#: the scenarios that play to their end (the others test refusals and bad files)
WHOLE_GAMES = [p for p in SCENARIOS + OWN_SCENARIOS if "exit" not in expected(p)]


@pytest.mark.parametrize("path", WHOLE_GAMES, ids=lambda p: p.stem)
def test_every_snapshot_of_a_scenario_matches_the_schema(path: Path) -> None:
    before = CheckedCore.checked
    core = CheckedCore(setup_for(path), Journal(":memory:"))
    core._check()
    drive(core, path)
    assert CheckedCore.checked - before > 5


def test_the_scenarios_reached_the_phases_of_a_whole_game() -> None:
    """Guard for the test above: it validated snapshots of every ordinary phase."""
    if CheckedCore.checked == 0:
        pytest.skip("runs after the scenario tests")
    ordinary = {"first_card", "stakes", "second_card", "player_turn", "settlement",
                "between_deals"}
    assert ordinary <= CheckedCore.phases, CheckedCore.phases


def test_the_faults_of_a_real_table_give_snapshots_that_match_the_schema() -> None:
    """Holds, alarms, links, notices and counters, from device events a table meets."""
    path = next(p for p in SCENARIOS if p.name.startswith("house-"))
    core = CheckedCore(setup_for(path), Journal(":memory:"))
    core.handle(LinkChanged("shoe", True))
    driver = Driver(core, path)
    driver.until(lambda c: c.state.deal is not None and isinstance(c.need(), CardNeed))
    core.handle(CardOut(1000, 0))
    # unsure: the dealer must confirm, offered the camera's guesses
    core.handle(CardRead(1000, None, "glare", (("6H", 0.6), ("9H", 0.3))))
    assert build_snapshot(core)["hold"]["reason"] == "unsure_card"
    assert core.command("confirm_card", {"code": str(core.state.pack.peek())}).ok
    core.handle(ButtonPressed(Button.NEXT, address=ADDRESS_DEALER))  # refused mid-deal: a notice
    core.handle(GateForced(0, 0))
    core.handle(ShoeEmpty(0, 0))
    assert build_snapshot(core)["notice"] is not None
    core.handle(LinkChanged("panels", False, reason="cable pulled"))
    zeros = {"crc_errors": 0, "truncated": 0, "oversized": 0, "bad_cobs": 0,
             "out_of_window": 0, "duplicates": 0, "retransmissions": 0, "bad_bodies": 0}
    assert build_snapshot(core)["links"]["panels"] == {"up": False, "reboots": 0, "drops": 1,
                                                   "reason": "cable pulled", "counters": zeros}
    core.note_link_counts("panels", {**zeros, "crc_errors": 4, "retransmissions": 9})
    counts = build_snapshot(core)["links"]["panels"]["counters"]
    assert (counts["crc_errors"], counts["retransmissions"], counts["bad_cobs"]) == (4, 9, 0)
    core.handle(LinkChanged("panels", True, rebooted=True))
    core.handle(GateJammed(0, 0))
    assert [a["kind"] for a in build_snapshot(core)["alarms"]] == ["jam"]
    assert core.command("misdeal", {"choice": "continue"}).ok
    core.handle(LinkChanged("shoe", False, reason="the shoe has lost the session"))
    core.handle(LinkChanged("shoe", True, rebooted=True))  # mid-deal: an alarm
    assert build_snapshot(core)["hold"]["reason"] == "shoe_rebooted"
    assert [a["kind"] for a in build_snapshot(core)["alarms"]] == ["reboot"]
    assert core.command("misdeal", {"choice": "continue"}).ok
    assert core.command("pause").ok
    core._check()
    assert build_snapshot(core)["paused"] is True
    assert core.command("resume").ok
    core._check()


def test_every_snapshot_of_a_game_through_the_simulated_table_matches_the_schema() -> None:
    """The whole simulated stack (emulated shoe and panels on ptys, the simulated
    camera read by the recogniser, light faults): every snapshot it publishes."""
    published: list[Mapping[str, Any]] = []
    listening: list[bool] = []

    async def listen(run: ScenarioRun) -> None:
        if not listening:
            listening.append(True)
            published.append(run.table.snapshot())
            run.table.add_listener(published.append)

    path = ROOT / "tests" / "scenarios" / "house-split-transfer.json"
    assert asyncio.run(play_scenario(path, faults="light", hook=listen)) == expected(path)
    assert len(published) > 50
    for snapshot in published:
        validate(snapshot)
    assert {s["phase"] for s in published} >= {"stakes", "player_turn", "settlement"}


@pytest.mark.parametrize("preset", PRESETS)
def test_every_snapshot_a_hand_run_game_publishes_matches_the_schema(preset: str) -> None:
    rng = random.Random(preset)
    table = ManualTable(rules=preset, players=["Ann", "Bob", "Cat", "Dan", "Eve"], seed=5)
    published: list[dict[str, Any]] = []
    table.add_listener(published.append)

    async def play() -> None:
        for n in range(400):
            if n == 37:
                await table.command("pause")
            if not await autoplay.step(table, rng, void_chance=0.01):
                break

    asyncio.run(play())
    assert len(published) > 100
    for snapshot in published:
        validate(snapshot)
    assert {s["manual"] for s in published} == {True}


def test_the_schema_refuses_what_the_table_must_not_send() -> None:
    """The validation above can fail: a stray key, missing ones, a bad phase or gate."""
    table = ManualTable(rules="house", players=["Ann", "Bob"], banker="Bob", seed=1)
    good = table.snapshot()
    validate(good)
    bad: list[dict[str, Any]] = [
        {**good, "leak": 1},
        {**good, "seats": [{**good["seats"][0], "hands": [{"hand": 1}]}]},
        {**good, "phase": "dealing"},
        {**good, "gate": "ajar"},
        {k: v for k, v in good.items() if k != "dealer_panel"},
    ]
    for snapshot in bad:
        with pytest.raises(ValidationError):
            SNAPSHOT.validate_json(json.dumps(snapshot), strict=True)
    public = views.public_view(good)
    with pytest.raises(ValidationError):
        PUBLIC_VIEW.validate_json(json.dumps({**public, "pack": [1, 2]}), strict=True)


def test_the_snapshots_link_counters_are_the_links_own_drop_counters() -> None:
    """One name for each figure: the snapshot's ``links[name].counters`` keys
    are exactly ``LinkCounters.drops()``'s (the dealer's devices panel reads them)."""
    from controller.snapshot_schema import LinkCounts
    from firmware_bridge.link import LinkCounters

    assert set(LinkCounts.__required_keys__) == set(LinkCounters().drops())


def test_the_schema_is_published_in_the_docs_and_the_openapi_document() -> None:
    docs = (ROOT / "docs" / "display.md").read_text(encoding="utf-8")
    block = docs.split("<!-- schema:begin -->\n```json\n", 1)[1]
    block = block.split("```\n<!-- schema:end -->")[0]
    assert block == schema_text(), "docs/display.md: paste `python -m dealer_display.schema`"
    assert json.loads(block)["$defs"]["Snapshot"]["required"][:3] == ["table", "rules", "phase"]

    app = create_app(ManualTable(), token="schema-token-123")
    openapi = app.openapi()
    for path, name in (("/api/public", "PublicView"), ("/api/dealer", "DealerView")):
        shown = openapi["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
        assert shown["schema"] == {"$ref": f"#/components/schemas/{name}"}
        published = openapi["components"]["schemas"][name]
        own = schema_text_defs()[name]
        assert set(published["properties"]) == set(own["properties"])
        assert published["required"] == own["required"]
        assert published.get("additionalProperties") is False


def schema_text_defs() -> dict[str, Any]:
    defs: dict[str, Any] = json.loads(schema_text())["$defs"]
    return defs
