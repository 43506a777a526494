"""The journal pins the whole ruleset (issue 15, item 6).

A game journalled under one software version must resume and replay by the
rules it started with, even when a later version changes a preset's default
(here the house stick minimum and stake limit, patched in ``PRESETS``).  The
deal below is worked out by hand: Ann 9C 7D = 16 on a stake of 4 sticks
(house: the stick minimum is 15, stakes 1 to 5); Ben banks with TC 8D = 18 and
stays; 16 loses to 18, so Ann -4 and Ben +4.  Under the patched defaults
(stick minimum 17, stakes 1 to 3) both the stake and the stick are illegal.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from controller.commands.history import export
from controller.core import GameSetup, TableCore
from controller.journal import Journal
from controller.rules import (
    PRESETS,
    Action,
    BankDecide,
    Card,
    DealCard,
    Decide,
    IllegalAction,
    PlaceStake,
    StartDeal,
    action_to_dict,
)

SETUP = GameSetup("house", ("Ann", "Ben"), banker="Ben", seed=1)
DEAL: list[Action] = [
    StartDeal(),
    DealCard(Card.parse("9C")),  # Ann's first card
    DealCard(Card.parse("TC")),  # Ben's first card
    PlaceStake("Ann", 4),
    DealCard(Card.parse("7D")),  # Ann's second: 16
    DealCard(Card.parse("8D")),  # Ben's second: 18
    Decide("Ann", "stick"),
    BankDecide("stay"),
]


def journal_of(path: Path, setup_row: dict[str, Any]) -> Path:
    journal = Journal(path)
    journal.start_game(setup_row)
    for action in DEAL:
        journal.append(action_to_dict(action), {"source": "test"})
    journal.close()
    return path


def change_house_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """A later software version: the house preset's defaults are not the same."""
    changed = dataclasses.replace(PRESETS["house"], stick_minimum=17, max_stake=3)
    monkeypatch.setitem(PRESETS, "house", changed)


def test_the_setup_row_holds_the_whole_ruleset() -> None:
    row = SETUP.to_json()
    assert row["ruleset"]["preset"] == "house"
    assert row["ruleset"]["options"]["stick_minimum"] == 15
    assert row["ruleset"]["options"]["max_stake"] == 5
    assert GameSetup.from_json(row).to_json() == row


def test_a_journal_resumes_by_its_own_rules_after_a_preset_default_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = journal_of(tmp_path / "table.sqlite", SETUP.to_json())
    change_house_defaults(monkeypatch)
    # the table restarts with its unchanged configuration (preset and overrides)
    core = TableCore(SETUP, Journal(path))
    assert core.state.rules.stick_minimum == 15 and core.state.rules.max_stake == 5
    assert core.state.balances == {"Ann": -8, "Ben": 8}  # half units: -4 and +4
    entry = core.state.results[-1]
    assert entry["net"] == {"Ann": -4, "Ben": 4}
    assert entry["hands"][0]["cards"] == ["9C", "7D"] and entry["bank"]["total"] == 18
    # a new game in the same journal takes today's defaults
    assert GameSetup.from_json(SETUP.to_json()).rules().stick_minimum == 17


def test_a_journal_replays_by_its_own_rules_after_a_preset_default_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = journal_of(tmp_path / "table.sqlite", SETUP.to_json())
    change_house_defaults(monkeypatch)
    exported = export(Journal(path))
    assert exported["balances"] == {"Ann": -4, "Ben": 4}
    assert exported["setup"]["ruleset"]["options"]["stick_minimum"] == 15


def test_an_old_journal_without_a_ruleset_still_loads_from_preset_and_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old_row = {k: v for k, v in SETUP.to_json().items() if k != "ruleset"}
    path = journal_of(tmp_path / "old.sqlite", old_row)
    core = TableCore(SETUP, Journal(path))
    assert core.state.balances == {"Ann": -8, "Ben": 8}
    # with nothing pinned, such a journal can only follow today's defaults, which
    # now refuse its stake of 4: the refusal names the row, no silent change
    change_house_defaults(monkeypatch)
    with pytest.raises(IllegalAction, match="is refused by the rules engine"):
        TableCore(SETUP, Journal(path))
