"""The short soak: one bot-played deal per preset through the whole stack under heavy faults.

The long run is ``benchmarks/soak.py --deals 1000 --jobs 3`` (figures in
docs/reliability.md); this one keeps the harness honest in CI.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from prove_util import load_path

from controller.rules import PRESETS
from controller.scenario import load_scenario, run_scenario

soak = load_path("benchmarks/soak.py")


def test_bot_games_are_valid_scenarios_that_replay_deal_for_deal() -> None:
    for preset in PRESETS:
        for seed in range(6):
            doc = soak.bot_scenario(preset, seed, 5)
            result = run_scenario(load_scenario(doc))
            assert len(result["deals"]) == len(doc["deals"]) == 5, (preset, seed)


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_short_soak_under_heavy_faults_loses_and_doubles_nothing() -> None:
    report = soak.soak(deals=5, faults="heavy", deals_per_game=1, seed=7)
    figures = report.as_dict()
    assert report.ok, (report.failures, report.diverging, report.card_mismatches, report.leaks)
    assert report.deals == 5 and set(report.by_preset) == set(PRESETS)
    assert report.diverging_deals == 0
    assert figures["link"].get("duplicate_events", 0) == 0
    assert figures["link"].get("events_lost", 0) == 0
    # the faults really happened, and the redaction check really saw hidden cards
    assert report.faults["bytes_corrupted"] > 0 and report.faults["frames_duplicated"] > 0
    assert report.snapshots_checked > 20 and report.hidden_cards_seen > 0
    assert figures["memory"]["fds_last"] <= figures["memory"]["fds_first"] + 2


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_shoot_after_a_buy_is_dialled_and_played_as_replay_says(tmp_path: Path) -> None:
    """Issue 8: Ben buys 7, then shoots 4 while a buy is still open.

    Deal 3 of this game was played as "shoot 6" (earlier: "shoot 1") because the
    amount shown followed BUY's range and the simulated player read a stale
    "Buy 7"; the dial now belongs to one word at a time (SHOOT moves it).
    """
    doc = soak.bot_scenario("shoot", 3001, 4)
    assert doc["deals"][2]["actions"]["Ben"][:2] == ["buy 7", "shoot 4"]
    report = soak.SoakReport()
    soak.soak_one(doc, "none", report, tmp_path)
    assert report.ok and report.deals == 4, (report.failures, report.diverging)
    assert report.diverging_deals == 0


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_stalled_game_leaves_a_trace_that_tells_its_story(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dealer walks away after the first round and the stakes: the game
    stalls, and the failure line points to a trace with the people's presses,
    the panels' views and the table's state, ending where it stuck."""
    import logging

    import hardware_sim.table.scenario_run as simulate

    monkeypatch.setattr(simulate, "STEP_TIMEOUT", 3.0)
    deal = simulate.ScenarioRun._deal

    async def dealer_walks_away(run: simulate.ScenarioRun) -> bool:
        if run.pulled >= 5:  # the first round (three players and the bank) and one more
            return False
        return await deal(run)

    monkeypatch.setattr(simulate.ScenarioRun, "_deal", dealer_walks_away)
    doc = soak.bot_scenario("house", 11, 1)
    report = soak.SoakReport()
    levels = {name: logging.getLogger(name).level for name in soak.TRACED}
    soak.soak_one(doc, "none", report, tmp_path, trace_dir=tmp_path / "traces")
    assert len(report.failures) == 1 and "no progress" in report.failures[0]
    trace = tmp_path / "traces" / f"house-{doc['seed']}.log"
    assert f"(trace: {trace})" in report.failures[0]
    text = trace.read_text()
    assert text.startswith(f"house seed {doc['seed']}: RuntimeError")
    assert "presses CONFIRM for PlaceStake" in text  # a person's press
    assert "panel shows [" in text  # a panel's lamps and text
    assert "table: phase first_card" in text and "CardNeed" in text
    # The story ends where the table stuck: five cards were let out (the first
    # round of four, then one), so the last state recorded is the second round
    # waiting, gate open, for a card the dealer never pulls.
    last_state = [line for line in text.splitlines() if " table: phase " in line][-1]
    assert "table: phase second_card, need CardNeed(" in last_state, last_state
    assert last_state.endswith("gate open"), last_state
    # the recorder leaves the loggers as it found them
    assert {name: logging.getLogger(name).level for name in soak.TRACED} == levels
