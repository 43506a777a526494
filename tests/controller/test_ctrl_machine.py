"""The state machines: the committed diagram is current; phases move only on declared edges."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.machine import PHASES, PhaseError, TableMachine, diagram

DOC = Path(__file__).parent.parent.parent / "docs" / "table-states.md"


def test_committed_diagram_is_current() -> None:
    assert DOC.read_text() == diagram(), (
        "docs/table-states.md is stale: run python -m controller.machine > docs/table-states.md"
    )


def test_every_phase_appears_in_the_diagram() -> None:
    text = diagram()
    for phase in PHASES:
        assert f'state "{phase}"' in text


def test_undeclared_moves_are_refused() -> None:
    machine = TableMachine()
    machine.reset("stakes")
    with pytest.raises(PhaseError, match="cannot go from stakes to banker_turn"):
        machine.sync("banker_turn")
    assert machine.phase == "stakes"


def test_second_round_passes_the_pontoon_check() -> None:
    machine = TableMachine()
    machine.reset("second_card")
    assert machine.sync("player_turn") == ["round_done", "players_play"]
    assert machine.phase == "player_turn"


def test_holds_show_the_most_serious_and_release_in_any_order() -> None:
    machine = TableMachine()
    machine.hold("dealer", "paused")
    machine.hold("unsure_card", "which card?")
    assert machine.hold_state == "unsure_card"
    machine.hold("link_down", "cable")
    assert machine.hold_state == "link_down"
    assert not machine.release("link_down")
    assert machine.hold_state == "unsure_card"
    assert not machine.release("unsure_card")
    assert machine.hold_state == "dealer"
    assert machine.release("dealer")
    assert machine.hold_state == "running" and machine.running
