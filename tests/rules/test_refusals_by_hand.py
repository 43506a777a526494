"""An action out of turn is refused in one sentence that names the player and
what the table waits for instead (a clear answer, never a crash: RULES.md §7
"refused with a clear message"; docs/rules.md, ``IllegalAction``).

Each case is a table stopped at one need, worked out by hand: house with
Dan banking and one counted deal (so the game ends after it), and shoot for
the kitty and the shoot bet.  The expected sentence is "<who> cannot <word>
now: the table waits for <the need>".
"""

from __future__ import annotations

import pytest

from controller.rules import (
    PRESETS,
    Action,
    BankDecide,
    Card,
    DealCard,
    Decide,
    GameState,
    IllegalAction,
    PlaceStake,
    PutKitty,
    StackTop,
    StartDeal,
    apply,
    load_ruleset,
    new_game,
)


def _refusal(state: GameState, action: Action) -> IllegalAction:
    saved = state.to_json()
    with pytest.raises(IllegalAction) as refused:
        apply(state, action)
    assert state.to_json() == saved  # a refusal changes nothing
    return refused.value


def _card(state: GameState) -> None:
    apply(state, DealCard(state.pack.peek()))


def test_each_need_of_a_house_deal_is_named() -> None:
    """Ann TC, Dan 9H, Ann stakes 2, Ann 8C (18), Dan 8H (17): before the
    deal the table waits for the next deal; then for a card for Ann, for
    Ann's stake, for Ann's decision on hand 1 (Dan's "stay" is refused), for
    the banker Dan; after the one counted deal, for nothing."""
    state = new_game(load_ruleset("house", {"counted_deals": 1}), ["Ann", "Dan"], banker="Dan")
    apply(state, StackTop(tuple(Card.parse(c) for c in ["TC", "9H", "8C", "8H"])))
    stick = Decide("Ann", "stick")
    waits = "Ann cannot stick now: the table waits for "
    assert str(_refusal(state, stick)) == waits + "the next deal"
    apply(state, StartDeal())
    assert str(_refusal(state, stick)) == waits + "a card for Ann"
    _card(state)
    _card(state)
    refusal = _refusal(state, stick)
    assert str(refusal) == waits + "Ann's stake" and refusal.player == "Ann"
    apply(state, PlaceStake("Ann", 2))
    _card(state)
    _card(state)
    refusal = _refusal(state, BankDecide("stay"))
    assert str(refusal) == "Dan cannot stay now: the table waits for Ann's decision on hand 1"
    assert refusal.player == "Dan"
    apply(state, stick)
    assert str(_refusal(state, stick)) == waits + "the banker Dan"
    apply(state, BankDecide("stay"))  # 18 against 17: the one counted deal is over
    assert str(_refusal(state, stick)) == waits + "nothing: the game is over"


def test_the_kitty_and_the_shoot_bet_are_named() -> None:
    """shoot, Dan banks: before a kitty the table waits for the kitty from
    Dan; after Ann's stake, for Ann's shoot bet (§4)."""
    state = new_game(PRESETS["shoot"], ["Ann", "Dan"], banker="Dan", seed=5)
    waits = "Ann cannot stick now: the table waits for "
    assert str(_refusal(state, Decide("Ann", "stick"))) == waits + "the kitty from Dan"
    apply(state, PutKitty(5))
    apply(state, StartDeal())
    _card(state)
    _card(state)
    apply(state, PlaceStake("Ann", 2))
    assert str(_refusal(state, Decide("Ann", "stick"))) == waits + "Ann's shoot bet"
