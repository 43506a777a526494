"""The cards a scenario deals, in order, as the rules engine itself deals them.

``sim --scenario`` must deal exactly what ``replay`` deals, including the
cards a scenario leaves to the seeded shuffle and the reshuffles between
deals. Rather than mirror the engine's pack handling (a second implementation
that could drift), the simulated shoe is stacked with the sequence the engine
produces when it plays the scenario alone: the same loop as
:func:`controller.scenario.run_scenario`, recording every card it deals. A
scenario the rules refuse part-way deals the cards up to that point, so the
full stack reaches the same error.

Example::

    from controller.scenario import load_scenario
    cards = scenario_cards(load_scenario("tests/scenarios/house-buy-example.json"))
    cards[:5]      # ['8C', 'TC', '4D', '7S', '6H']
"""

from __future__ import annotations

from controller.rules import CardNeed, DealCard, IllegalAction, StackTop, apply, new_game, pending
from controller.scenario import Scenario, ScenarioError, ScenarioScript


def scenario_cards(scenario: Scenario) -> list[str]:
    """Every card the engine deals for ``scenario``, cut cards included, in order."""
    dealt: list[str] = []
    try:
        state = new_game(scenario.rules, scenario.players, banker=scenario.banker,
                         seed=scenario.seed)
    except IllegalAction:
        return dealt
    script = ScenarioScript(scenario)
    try:
        if scenario.cut:
            apply(state, StackTop(tuple(scenario.cut)))
        while True:
            need = pending(state)
            action = script.answer(state, need)
            if action is None:
                if not isinstance(need, CardNeed) or len(state.pack) == 0:
                    break
                action = DealCard(state.pack.peek())
            before = len(state.results)
            apply(state, action)
            if isinstance(action, DealCard):
                dealt.append(str(action.card))
            if len(state.results) > before:
                script.finish_deal(state, void=bool(state.results[-1]["void"]))
    except (IllegalAction, ScenarioError):
        pass  # the full stack meets the same refusal at the same card
    return dealt
