"""Differential test: random legal games, replayed by the engine and by the
independent reference (``tests/reference``), must give the same result.

A game is played against the real engine by the random legal player of
``randomplay.py`` (every preset, 2 to 8 people, a random mix of options,
splits, buys, insurance, shoot bets, kitties and bank sales), its actions are
written out as a scenario file with every drawn card stacked, and the file is
replayed by ``controller.scenario`` and by ``reference``. The expected
result is the reference's, which was written from the rule book without the
engine's code; only this test imports both.

The one issue-22 point the writer still steps around: a ponton pontoon
facing the dealer's ace that plays on is written with no word (the panel's
"play on" is the engine's `stick`; a scenario gives no word there).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from reference import NotStacked, Refused, replay_file

from controller.rules import (
    PRESETS,
    BankDecide,
    BetweenDeals,
    DealCard,
    Decide,
    DecisionNeed,
    KittyNeed,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    SellBank,
    StartDeal,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending,
)
from controller.scenario import ScenarioError, load_scenario, run_scenario

from .randomplay import is_over, random_action

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]

# Options the random games switch on, per preset: one or two are drawn per game.
OPTION_MENU: dict[str, list[dict[str, Any]]] = {
    "house": [
        {"ties": "push"},
        {"bank_pontoon_pays": "ranking"},
        {"banker_five_card": "ranking"},
        {"twist_then_buy": True},
        {"split_by": "value"},
        {"split_aces_one_card": True},
        {"split_aces_only": True},
        {"stick_minimum": 16},
        {"pay_pontoon": 3, "pay_five_card": 1.5},
        {"bank_transfer": False},
        {"reshuffle": "every_round"},
        {"buy_max_cards": 3},
        {"max_hands_per_seat": 2},
        {"packs": 2},
        {"bank_sale": True},
    ],
    "traditional": [
        {"ties": "push"},
        {"split_aces_only": True},
        {"stick_minimum": 16},
        {"shoot_bets": True},
        {"banker_five_card": "ranking"},
        {"max_stake": 20},
    ],
    "shoot": [
        {"ties": "push"},
        {"bank_pontoon_pays": "ranking"},
        {"split_aces_only": True},
        {"twist_then_buy": True},
        {"min_stake": 2, "max_stake": 6},
    ],
    "casino": [
        {"ties": "push"},
        {"dealer_draws": "to_16"},
        {"pay_pontoon": 2, "pay_five_card": 1},
        {"dealer_stops_at_five": False},
        {"split_by": "rank"},
        {"bank_pontoon_pays": "double"},
        {"max_hands_per_seat": 2},
        {"reshuffle": "after_pontoon"},
    ],
    "ponton": [
        {"five_card_always_wins": False},
        {"three_of_a_kind_pays": 2},
        {"reshuffle": "after_pontoon"},
        {"insurance": False},
        {"even_money": False},
        {"stick_minimum": 15},
        {"ties": "push"},
        {"max_hands_per_seat": 3},
    ],
}


def _amount(value: Any) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else str(float(value))


def _number(value: Any) -> int | float:
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(value)


def random_game(preset: str, seed: int) -> tuple[dict[str, Any] | None, str]:
    """Play one random legal game on the engine and write it as a scenario.

    Returns (scenario, "") or (None, why it was left out).
    """
    rng = random.Random(seed)
    options: dict[str, Any] = {}
    for choice in rng.sample(OPTION_MENU[preset], rng.choice([0, 1, 2])):
        options.update(choice)
    rules = load_ruleset(preset, options)
    people = rng.randint(1 if rules.house_dealer else 2, 8)
    players = NAMES[:people]
    use_cut = not rules.house_dealer and rng.random() < 0.25
    banker = None if rules.house_dealer or use_cut else rng.choice(players)
    state = new_game(rules, players, banker=banker, seed=seed)

    cut: list[str] = []
    deals: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    between: dict[str, Any] = {}
    want = rng.randint(1, 4)
    steps = 0
    while not is_over(state) and state.entries < want:
        steps += 1
        if steps > 3000:
            return None, "too long"
        need = pending(state)
        if isinstance(need, BetweenDeals) and ("kitty" in between or "sell_bank" in between):
            # One sale, then at most one kitty amount, per deal: a scenario
            # deal object holds one of each, applied in that order.
            action: Any = StartDeal()
        else:
            action = random_action(rng, state)
            if isinstance(action, SellBank) and ("kitty" in between or "sell_bank" in between):
                if isinstance(need, KittyNeed):  # the new banker puts up a kitty instead
                    action = PutKitty(rng.randint(int(need.minimum), int(need.maximum)))
                else:
                    action = StartDeal()
        if state.phase == "cut" and isinstance(action, DealCard):
            cut.append(str(action.card))
        elif isinstance(action, StartDeal):
            current = {"top": [], "stakes": {}, "actions": {}, "bank": []}
            current.update(between)
            between = {}
            deals.append(current)
        elif isinstance(action, SellBank):
            between["sell_bank"] = {"to": action.to, "price": _number(action.price)}
        elif isinstance(action, PutKitty):
            if state.phase == "deal":
                return None, "kitty inside a deal"
            between["kitty"] = _number(action.amount)
        elif isinstance(action, DealCard):
            if current["top"].count(str(action.card)) >= state.pack.packs:
                # A bust hand's cards go back under the pack at once, and the
                # random dealer may pick one again; a scenario stacks a deal's
                # cards before it starts, so deal a card not yet out instead.
                (family,) = [la for la in legal_actions(state) if la.kind is DealCard]
                assert family.cards is not None
                fresh = [
                    c
                    for c in sorted(family.cards)
                    if current["top"].count(str(c)) < state.pack.packs
                ]
                if not fresh:
                    return None, "a card dealt twice in one deal"
                action = DealCard(rng.choice(fresh))
            current["top"].append(str(action.card))
        elif isinstance(action, PlaceStake):
            current["stakes"][action.player] = _number(action.amount)
        elif isinstance(action, PlaceShoot):
            current.setdefault("shoots", {})[action.player] = _number(action.amount)
        elif isinstance(action, Decide):
            word = action.word
            if action.amount is not None:
                word = f"{word} {_amount(action.amount)}"
            d = state.deal
            assert d is not None and isinstance(need, DecisionNeed)
            hand = d.hands[d.seat_i][d.hand_i]
            if action.word == "stick" and hand.pontoon:
                # Issue 22 (1): the engine offers `stick` ("play on") to a
                # pontoon facing the dealer's ace, a split hand's too (whose
                # `words` count the split); SCENARIO.md gives that hand no word
                # (it ends by itself), which is what the engine does with none.
                pass
            else:
                current["actions"].setdefault(action.player, []).append(word)
        elif isinstance(action, BankDecide):
            current["bank"].append(action.word)
        apply(state, action)
        if state.results and state.results[-1].get("void"):
            return None, "void deal"
    if not deals:
        return None, "no deal"
    for deal in deals:
        if rules.house_dealer:
            del deal["bank"]
    scenario: dict[str, Any] = {"rules": preset, "options": options, "seed": seed}
    scenario["players"] = players
    if banker is not None:
        scenario["banker"] = banker
    if use_cut:
        scenario["cut"] = cut
    scenario["deals"] = deals
    return scenario, ""


def _engine(path: Path) -> dict[str, Any] | str:
    try:
        return run_scenario(load_scenario(path))
    except ScenarioError as e:
        return f"refused: {e}"


def _reference(path: Path) -> dict[str, Any] | str:
    try:
        return replay_file(path)
    except Refused as e:
        return f"refused: {e}"


GAMES_PER_PRESET = 100


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_engine_and_reference_agree_on_random_games(preset: str, tmp_path: Path) -> None:
    compared = 0
    left_out: dict[str, int] = {}
    for n in range(GAMES_PER_PRESET):
        seed = 1000 * n + sum(map(ord, preset))
        scenario, why = random_game(preset, seed)
        if scenario is None:
            left_out[why] = left_out.get(why, 0) + 1
            continue
        path = tmp_path / f"{preset}-{seed}.json"
        path.write_text(json.dumps(scenario, indent=1))
        try:
            expected = _reference(path)
        except NotStacked:  # pragma: no cover - every drawn card is stacked
            pytest.fail(f"{path.name}: a card was not stacked")
        got = _engine(path)
        assert got == expected, f"{path.name} differs:\n{path.read_text()}"
        compared += 1
    # the exclusions stay rare: most games are compared
    assert compared >= GAMES_PER_PRESET * 0.8, left_out
