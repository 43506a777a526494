"""``GameState.outcomes()``: the rule that settled each hand, told by the engine.

Screens explain a payout with it ("stake 3 × 2 for a five-card trick"), so it
must agree with the money the engine actually booked.  The check is
arithmetic, not the rules again: for every settled hand of random legal games
in every preset, stake × multiple, plus or minus the shoot, plus the insurance,
is the hand's net, and a player's hands add up to the deal's recorded net.
The verdicts are also checked for the sign their names promise.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from controller.rules import (
    PRESETS,
    BankDecide,
    BankNeed,
    BetweenDeals,
    CardNeed,
    DealCard,
    Decide,
    GameOver,
    GameState,
    PlaceStake,
    StackTop,
    StartDeal,
    apply,
    new_game,
    pending,
)
from controller.rules.cards import Card

from .randomplay import random_action

#: the sign of ``multiple`` each verdict promises (None: depends on the rule's pay)
SIGNS = {
    "bust": -1, "lower": -1, "tie": -1, "bank_pontoon": -1, "bank_five_card": -1,
    "push": 0, "bank_bust": 1, "higher": 1, "beats_bank_five_card": 1, "five_card_always": 1,
    "even_money": 1, "three_of_a_kind": 1,
}
PAID_DURING_THE_DEAL = {"even_money", "three_of_a_kind"}


def _sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


def _check_settled(state: GameState) -> int:
    outcomes = state.outcomes()
    result = state.last_result()
    assert result is not None
    if result["void"]:
        assert outcomes == []
        return 0
    per_player: dict[str, Fraction] = {}
    for o in outcomes:
        assert o.why in SIGNS, o
        assert _sign(o.multiple) == SIGNS[o.why], o
        shoot = Fraction(0)
        if o.shoot and o.why not in PAID_DURING_THE_DEAL:
            shoot = Fraction(o.shoot) if o.multiple > 0 else -Fraction(o.shoot)
        expected = Fraction(o.stake) * o.multiple + shoot + Fraction(o.insurance_net)
        assert Fraction(o.net) == expected, o
        if o.why == "bust":
            assert o.total > 21
        per_player[o.player] = per_player.get(o.player, Fraction(0)) + Fraction(o.net)
    for player, net in per_player.items():
        assert net == Fraction(result["net"][player]), (player, result)
    return len(outcomes)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_outcomes_agree_with_the_money_booked(preset: str) -> None:
    checked = 0
    for seed in range(25):
        rng = random.Random(seed)
        players = [f"P{i}" for i in range(rng.randint(2, 6))]
        state = new_game(PRESETS[preset], players, seed=seed)
        settled = 0
        for _ in range(600):
            need = pending(state)
            if isinstance(need, GameOver):
                break
            if isinstance(need, BetweenDeals) and state.results and len(state.results) > settled:
                settled = len(state.results)
                checked += _check_settled(state)
            elif state.deal is not None and state.deal.step != "done":
                assert state.outcomes() == []  # a deal in play has no outcomes yet
            apply(state, random_action(rng, state))
    assert checked > 100, checked  # enough hands were settled to mean something


def test_a_five_card_trick_a_tie_and_a_bust_by_hand() -> None:
    """House rules, Dan banks, cards stacked (worked out by hand):
    Ann TC 6C twists KC: bust (26) — stake lost.  Bob TD 7D sticks on 17 against the
    bank's TH 7H = 17 — a tie, which the bank wins.  Cat 2C 3C twists 2D 4C 2H — a
    five-card trick (13), paid double whatever the bank's 17."""
    state = new_game(PRESETS["house"], ["Ann", "Bob", "Cat", "Dan"], banker="Dan", seed=1)
    top = ["TC", "TD", "2C", "TH", "6C", "7D", "3C", "7H", "KC", "2D", "4C", "2H"]
    apply(state, StackTop(tuple(Card.parse(c) for c in top)))
    apply(state, StartDeal())
    script = iter(
        [PlaceStake("Ann", 2), PlaceStake("Bob", 3), PlaceStake("Cat", 1)]
        + [Decide("Ann", "twist"), Decide("Bob", "stick")]
        + [Decide("Cat", "twist")] * 3
    )
    for _ in range(60):
        need = pending(state)
        if isinstance(need, BetweenDeals):
            break
        if isinstance(need, CardNeed):
            apply(state, DealCard(state.pack.peek()))
        elif isinstance(need, BankNeed):
            apply(state, BankDecide("stay"))
        else:
            apply(state, next(script))
    verdicts = {o.player: (o.kind, o.multiple, o.why) for o in state.outcomes()}
    assert verdicts == {
        "Ann": ("total", -1, "bust"),
        "Bob": ("total", -1, "tie"),
        "Cat": ("five_card", 2, "higher"),
    }
