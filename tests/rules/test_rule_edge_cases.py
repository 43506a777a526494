"""Points found by the rules review (see ``tests/scenarios/own`` for the rest)."""

from __future__ import annotations

from typing import Any

import pytest

from controller.scenario import ScenarioError, load_scenario, run_scenario


def run(**scenario: Any) -> dict[str, Any]:
    return run_scenario(load_scenario(scenario))


@pytest.mark.parametrize(("pays", "ann", "bob"), [("double", -20, -10), ("ranking", -10, -5)])
def test_bank_pontoon_pays_option_also_binds_a_house_dealer(pays: str, ann: int, bob: int) -> None:
    # the casino dealer's pontoon shows only at its turn; with "double" every live
    # hand pays twice (a player pontoon too), with "ranking" the tie goes to the dealer
    r = run(rules="casino", options={"bank_pontoon_pays": pays}, players=["Ann", "Bob"],
            deals=[{"top": ["AH", "9C", "AS", "QD", "9D", "KD"], "stakes": {"Ann": 10, "Bob": 5},
                    "actions": {"Bob": ["stick"]}}])
    assert r["deals"][0]["net"] == {"Ann": ann, "Bob": bob, "house": -ann - bob}


def test_bust_cards_go_under_the_pack_at_once_the_rest_after_the_deal() -> None:
    # Ann busts with TC 6C KH: her cards go under the pack at once, in her hand's
    # order; every player is bust, so the bank does not play, and its 9D 8D follow
    # at the end of the deal.  All at the end in dealt order would be TC 9D 6C 8D KH.
    from controller.rules import (
        BetweenDeals,
        DealCard,
        Decide,
        PlaceStake,
        StackTop,
        StartDeal,
        apply,
        load_ruleset,
        new_game,
        pending,
    )

    s = new_game(load_ruleset("house"), ["Ann", "Ben"], banker="Ben", seed=9)
    apply(s, StackTop(("TC", "9D", "6C", "8D", "KH")))
    apply(s, StartDeal())
    for _ in range(2):
        apply(s, DealCard(s.pack.peek()))
    apply(s, PlaceStake("Ann", 1))
    for _ in range(2):
        apply(s, DealCard(s.pack.peek()))
    apply(s, Decide("Ann", "twist"))
    apply(s, DealCard(s.pack.peek()))  # KH: 26, bust
    assert isinstance(pending(s), BetweenDeals)
    assert [str(c) for c in s.pack.cards()[-5:]] == ["TC", "6C", "KH", "9D", "8D"]
    assert len(s.pack) == 52 and s.results[-1]["shuffle"] is False


@pytest.mark.parametrize("options", [0, "", [], "stick_minimum"])
def test_options_that_are_not_an_object_are_refused(options: Any) -> None:
    with pytest.raises(ScenarioError, match="options must be an object"):
        run(rules="house", options=options, players=["Ann", "Ben"], banker="Ben", deals=[])
