"""Our own scenarios, one per rule and option, worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest

from controller.scenario import ScenarioError, load_scenario, run_scenario


def run(**scenario: Any) -> dict[str, Any]:
    return run_scenario(load_scenario(scenario))


def fails(**scenario: Any) -> str:
    with pytest.raises(ScenarioError) as info:
        run(**scenario)
    message = str(info.value)
    assert "\n" not in message
    return message


def hands(result: dict[str, Any], deal: int = 1) -> dict[tuple[str, int], dict[str, Any]]:
    return {(h["player"], h["hand"]): h for h in result["deals"][deal - 1]["hands"]}


HOUSE2 = {"rules": "house", "seed": 1, "players": ["Ann", "Ben"], "banker": "Ben"}


# ---------------------------------------------------------------- house
def test_banker_bust_pays_pontoon_and_five_card_trick_double_and_moves_the_bank() -> None:
    r = run(
        rules="house", seed=1, players=["Ann", "Bob", "Cat"], banker="Cat",
        deals=[{
            "top": ["AS", "5C", "TD", "KH", "6D", "6S", "2C", "3C", "4C", "KC"],
            "stakes": {"Ann": 2, "Bob": 3},
            "actions": {"Bob": ["twist", "twist", "twist"]},
            "bank": ["draw"],
        }],
    )
    d = r["deals"][0]
    assert d["net"] == {"Ann": 4, "Bob": 6, "Cat": -10}
    assert d["bank"] == {"cards": ["TD", "6S", "KC"], "total": 26}
    assert hands(r)[("Bob", 1)]["total"] == 20
    assert d["shuffle"] is True and d["next_banker"] == "Ann"


def test_stick_minimum_15_and_the_16_option() -> None:
    deal = {"top": ["9C", "TC", "6D", "7S"], "stakes": {"Ann": 1},
            "actions": {"Ann": ["stick"]}, "bank": ["stay"]}
    assert run(**HOUSE2, deals=[deal])["balances"] == {"Ann": -1, "Ben": 1}
    msg = fails(**HOUSE2, options={"stick_minimum": 16}, deals=[deal])
    assert msg == "deal 1, Ann, hand 1, decision 'stick': cannot stick under 16 (the hand makes 15)"
    deal14 = dict(deal, top=["8C", "TC", "6D", "7S"])
    assert "cannot stick under 15" in fails(**HOUSE2, deals=[deal14])


@pytest.mark.parametrize(
    ("words", "why"),
    [
        (["buy 5", "stick"], "cannot buy 5: the amount must be 2 to 4"),
        (["buy 1", "stick"], "cannot buy 1: the amount must be 2 to 4"),
        (["buy 3", "buy 4", "stick"], "cannot buy 4: the amount must be 2 to 3"),
        (["buy", "stick"], "must say how much to buy (2 to 4)"),
    ],
)
def test_buy_amounts(words: list[str], why: str) -> None:
    deal = {"top": ["2C", "TC", "3D", "7S", "2H", "2S", "4D"], "stakes": {"Ann": 2},
            "actions": {"Ann": words}, "bank": ["stay"]}
    assert fails(**HOUSE2, deals=[deal]).endswith(why)


def test_later_buys_may_repeat_the_previous_amount_and_a_fifth_card_may_be_bought() -> None:
    deal = {"top": ["2C", "TC", "3D", "7S", "2H", "2S", "4D"], "stakes": {"Ann": 2},
            "actions": {"Ann": ["buy 3", "buy 3", "buy 2"]}, "bank": ["stay"]}
    r = run(**HOUSE2, deals=[deal])
    ann = hands(r)[("Ann", 1)]
    assert ann["stake"] == 10 and ann["total"] == 13 and ann["net"] == 20  # five-card trick


def test_split_needs_equal_ranks_in_house_and_aces_only_variation() -> None:
    deal = {"top": ["KC", "TC", "QD", "7S"], "stakes": {"Ann": 2},
            "actions": {"Ann": ["split"]}, "bank": ["stay"]}
    assert fails(**HOUSE2, deals=[deal]).endswith("can split only two cards of the same rank")
    eights = {"top": ["8C", "TC", "8D", "7S", "2C", "3C"], "stakes": {"Ann": 2},
              "actions": {"Ann": ["split", "stick", "stick"]}, "bank": ["stay"]}
    msg = fails(rules="traditional", seed=1, players=["Ann", "Ben"], banker="Ben",
                options={"split_aces_only": True}, deals=[eights])
    assert msg == "deal 1, Ann, hand 1, decision 'split': can split only aces at this table"


def test_resplit_hands_are_numbered_in_play_order() -> None:
    # Ann: 8C 8D; split -> h1 8C+8H (splits again: h1 8C+2C, new h2 8H+3C), old h2 8D+KC
    deal = {"top": ["8C", "TC", "8D", "7S", "8H", "KC", "2C", "3C", "9D", "9S"],
            "stakes": {"Ann": 1},
            "actions": {"Ann": ["split", "split", "twist", "stick", "twist", "stick", "stick"]},
            "bank": ["stay"]}
    r = run(**HOUSE2, deals=[deal])
    h = hands(r)
    assert [h[("Ann", i)]["cards"] for i in (1, 2, 3)] == [
        ["8C", "2C", "9D"], ["8H", "3C", "9S"], ["8D", "KC"]
    ]
    assert [h[("Ann", i)]["net"] for i in (1, 2, 3)] == [1, 1, 1]


def test_a_ninth_counted_deal_is_an_error() -> None:
    deal = {"top": ["TC", "TD", "9C", "8D"], "stakes": {"Ann": 1},
            "actions": {"Ann": ["stick"]}, "bank": ["stay"]}
    r = run(**HOUSE2, deals=[deal] * 8)
    assert r["balances"] == {"Ann": 8, "Ben": -8} and r["winners"] == ["Ann"]
    assert "game is over after 8 counted deals" in fails(**HOUSE2, deals=[deal] * 9)


def test_the_cut_chooses_the_banker_ties_cut_again() -> None:
    r = run(
        rules="house", seed=4, players=["Ann", "Bob", "Cat"],
        cut=["5C", "KD", "KH", "3C", "9H"],
        deals=[{"top": ["TC", "TD", "9S", "9C", "8C", "8S"], "stakes": {"Ann": 1, "Bob": 2},
                "actions": {"Ann": ["stick"], "Bob": ["stick"]}, "bank": ["stay"]}],
    )
    assert r["deals"][0]["banker"] == "Cat"
    assert r["balances"] == {"Ann": 1, "Bob": 2, "Cat": -3}


def test_shared_wins() -> None:
    r = run(
        rules="house", seed=1, players=["Ann", "Bob", "Cat"], banker="Cat",
        deals=[{"top": ["TC", "TD", "9S", "9C", "9D", "8S"], "stakes": {"Ann": 2, "Bob": 2},
                "actions": {"Ann": ["stick"], "Bob": ["stick"]}, "bank": ["stay"]}],
    )
    assert r["winners"] == ["Ann", "Bob"]


def test_two_packs_from_eight_people() -> None:
    from controller.rules import load_ruleset, new_game

    names = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]
    assert new_game(load_ruleset("house"), names[:7], banker="P1").pack.packs == 1
    assert len(new_game(load_ruleset("house"), names, banker="P1").pack) == 104
    assert new_game(load_ruleset("house", {"packs": 1}), names, banker="P1").pack.packs == 1
    assert new_game(load_ruleset("traditional"), names, banker="P1").pack.packs == 1


# ---------------------------------------------------------------- traditional
def test_selling_the_bank_moves_balances_but_not_the_deal_net() -> None:
    r = run(
        rules="traditional", seed=2, players=["Ann", "Bob", "Cat"], banker="Cat",
        deals=[{"sell_bank": {"to": "Bob", "price": 5},
                "top": ["9C", "TC", "TD", "9D", "8D", "7C"], "stakes": {"Cat": 2, "Ann": 3},
                "actions": {"Cat": ["stick"], "Ann": ["stick"]}, "bank": ["stay"]}],
    )
    d = r["deals"][0]
    assert d["sale"] == {"from": "Cat", "to": "Bob", "price": 5}
    assert d["banker"] == "Bob" and d["net"] == {"Ann": 3, "Bob": -5, "Cat": 2}
    assert r["balances"] == {"Ann": 3, "Bob": -10, "Cat": 7}


def test_traditional_stakes_are_within_the_agreed_limits() -> None:
    deal = {"top": ["9C", "TC", "9D", "7S"], "stakes": {"Ann": 11},
            "actions": {"Ann": ["stick"]}, "bank": ["stay"]}
    base = {"rules": "traditional", "seed": 1, "players": ["Ann", "Ben"], "banker": "Ben"}
    assert "stakes are 1 to 10" in fails(**base, deals=[deal])
    assert run(**base, options={"max_stake": 20}, deals=[deal])["balances"]["Ann"] == 11


# ---------------------------------------------------------------- shoot
def test_shoot_bank_transfer_old_banker_takes_kitty_new_banker_puts_one_up() -> None:
    deal1 = {"kitty": 10, "top": ["AS", "9C", "7D", "KH", "9D", "TD"],
             "stakes": {"Ann": 2, "Bob": 1}, "shoots": {"Ann": 3, "Bob": 2},
             "actions": {"Bob": ["stick"]}, "bank": ["stay"]}
    deal2 = {"kitty": 4, "top": ["TC", "TH", "9S", "8C", "7H", "9H"],
             "stakes": {"Bob": 1, "Cat": 2},
             "actions": {"Bob": ["stick"], "Cat": ["stick"]}, "bank": ["stay"]}
    base = {"rules": "shoot", "seed": 3, "players": ["Ann", "Bob", "Cat"], "banker": "Cat"}
    r = run(**base, deals=[deal1, deal2])
    d1, d2 = r["deals"]
    assert d1["net"] == {"Ann": 7, "Bob": 3, "Cat": -10} and d1["kitty"] == 5
    assert d1["next_banker"] == "Ann"
    assert d2["banker"] == "Ann" and d2["kitty"] == 4
    assert d2["net"] == {"Ann": 3, "Bob": -1, "Cat": -2}
    assert r["balances"] == {"Ann": 10, "Bob": 2, "Cat": -12}
    no_kitty = dict(deal2)
    del no_kitty["kitty"]
    assert "Ann must put up a kitty" in fails(**base, deals=[deal1, no_kitty])


def test_shoot_bets_are_capped_by_the_kitty_and_a_bust_frees_room() -> None:
    base = {"rules": "shoot", "seed": 3, "players": ["Ann", "Bob", "Cat"], "banker": "Cat"}
    over = {"kitty": 5, "top": ["9C", "5C", "TC", "9D", "6D", "8H"],
            "stakes": {"Ann": 1, "Bob": 1}, "shoots": {"Ann": 3, "Bob": 3},
            "actions": {"Ann": ["stick"], "Bob": ["stick"]}, "bank": ["stay"]}
    assert "the kitty allows 0 to 2" in fails(**base, deals=[over])
    # Ann busts (her 3 goes to the kitty: 8) so Bob may then shoot 5 more before a 4th card
    ok = {"kitty": 5, "top": ["9C", "5C", "TC", "6D", "3D", "8H", "KS", "2H", "4H", "2S"],
          "stakes": {"Ann": 1, "Bob": 1}, "shoots": {"Ann": 3, "Bob": 0},
          "actions": {"Ann": ["twist"], "Bob": ["twist", "shoot 5", "twist", "twist"]},
          "bank": ["stay"]}
    r = run(**base, deals=[ok])
    h = hands(r)
    assert h[("Ann", 1)]["net"] == -4 and h[("Bob", 1)]["shoot"] == 5
    # Bob 5+3+2+4+2: a five-card trick beats 18: stake 1 wins 2, shoot 5 paid 1:1
    assert h[("Bob", 1)]["net"] == 7 and r["deals"][0]["kitty"] == 3


def test_banker_pontoon_in_shoot_takes_every_shoot_bet_and_double_stakes() -> None:
    r = run(rules="shoot", seed=3, players=["Ann", "Bob", "Cat"], banker="Cat",
            deals=[{"kitty": 10, "top": ["9C", "5C", "AS", "9D", "6D", "KH"],
                    "stakes": {"Ann": 2, "Bob": 1}, "shoots": {"Ann": 4, "Bob": 3}}])
    d = r["deals"][0]
    assert d["net"] == {"Ann": -8, "Bob": -5, "Cat": 13} and d["kitty"] == 17


# ---------------------------------------------------------------- casino
def test_casino_split_by_value_and_ties_go_to_the_dealer() -> None:
    r = run(rules="casino", seed=1, players=["Ann"],
            deals=[{"top": ["KC", "9H", "QD", "7C", "9D", "8S", "2C"], "stakes": {"Ann": 10},
                    "actions": {"Ann": ["split", "stick", "stick"]}}])
    h = hands(r)
    assert h[("Ann", 1)]["net"] == 10 and h[("Ann", 2)]["net"] == -10
    assert r["deals"][0]["bank"]["total"] == 18


def test_casino_double_and_dealer_hits_soft_17() -> None:
    r = run(rules="casino", seed=1, players=["Ann"],
            deals=[{"top": ["5C", "AH", "6D", "6H", "9S", "5D", "KD"], "stakes": {"Ann": 10},
                    "actions": {"Ann": ["double", "stick"]}}])
    assert r["deals"][0]["bank"] == {"cards": ["AH", "6H", "5D", "KD"], "total": 22}
    assert hands(r)[("Ann", 1)]["stake"] == 20 and r["balances"] == {"Ann": 20, "house": -20}
    buy = {"top": ["5C", "AH", "6D", "6H", "9S"], "stakes": {"Ann": 10},
           "actions": {"Ann": ["buy 10", "stick"]}}
    assert "cannot buy at this table" in fails(rules="casino", seed=1, players=["Ann"],
                                               deals=[buy])


def test_casino_pontoon_against_dealer_pontoon_loses() -> None:
    r = run(rules="casino", seed=1, players=["Ann"],
            deals=[{"top": ["AS", "AH", "KD", "QH"], "stakes": {"Ann": 10}}])
    assert r["balances"] == {"Ann": -10, "house": 10}


# ---------------------------------------------------------------- ponton
PONTON = {"rules": "ponton", "seed": 1, "players": ["Ann"]}


def test_ponton_insurance_pays_two_to_one_on_a_dealer_pontoon() -> None:
    r = run(**PONTON, deals=[{"top": ["9C", "AC", "8D", "KH"], "stakes": {"Ann": 10},
                              "actions": {"Ann": ["insurance 5", "stick"]}}])
    assert r["balances"] == {"Ann": 0, "house": 0}
    r = run(**PONTON, deals=[{"top": ["9C", "AC", "8D", "6D"], "stakes": {"Ann": 5},
                              "actions": {"Ann": ["insurance 2.5", "stick"]}}])
    assert r["balances"] == {"Ann": -7.5, "house": 7.5}
    bad = {"top": ["9C", "AC", "8D", "6D"], "stakes": {"Ann": 10},
           "actions": {"Ann": ["insurance 4", "stick"]}}
    assert "exactly 5" in fails(**PONTON, deals=[bad])


def test_ponton_even_money_or_playing_the_pontoon_on() -> None:
    r = run(**PONTON, deals=[{"top": ["AS", "AC", "KD"], "stakes": {"Ann": 10},
                              "actions": {"Ann": ["even-money"]}}])
    assert r["deals"][0]["bank"]["cards"] == ["AC"] and r["balances"]["Ann"] == 10
    r = run(**PONTON, deals=[{"top": ["AS", "AC", "KD", "9H"], "stakes": {"Ann": 10}}])
    assert r["balances"]["Ann"] == 20


def test_ponton_five_card_trick_beats_a_dealer_pontoon() -> None:
    r = run(**PONTON, deals=[{"top": ["2C", "AC", "3D", "2H", "3H", "4S", "KC"],
                              "stakes": {"Ann": 10},
                              "actions": {"Ann": ["twist", "twist", "twist"]}}])
    assert r["balances"]["Ann"] == 15


def test_ponton_split_aces_get_one_card_each() -> None:
    r = run(**PONTON, deals=[{"top": ["AC", "9S", "AD", "KH", "5C", "8H"],
                              "stakes": {"Ann": 10}, "actions": {"Ann": ["split"]}}])
    h = hands(r)
    assert h[("Ann", 1)]["net"] == 20 and h[("Ann", 2)]["net"] == -10


def test_ponton_buy_only_third_and_fourth_and_not_after_a_twist() -> None:
    deal = {"top": ["2C", "9S", "3D", "2H", "3H", "4S", "8H"], "stakes": {"Ann": 10},
            "actions": {"Ann": ["buy", "buy", "buy"]}}
    assert "cannot buy card 5, only twist" in fails(**PONTON, deals=[deal])
    r = run(**PONTON, deals=[dict(deal, actions={"Ann": ["buy", "buy 10", "twist"]})])
    assert hands(r)[("Ann", 1)]["stake"] == 30 and r["balances"]["Ann"] == 45


# ---------------------------------------------------------------- void deals
def test_void_deal_when_the_pack_runs_out_is_not_counted_and_played_again() -> None:
    from controller.rules import DealCard, PlaceStake, StartDeal, apply, load_ruleset, new_game

    s = new_game(load_ruleset("house"), ["Ann", "Ben"], banker="Ben", seed=3)
    apply(s, StartDeal())
    apply(s, DealCard(s.pack.peek()))
    apply(s, DealCard(s.pack.peek()))
    apply(s, PlaceStake("Ann", 3))
    while len(s.pack) > 1:  # cards lost from the shoe: the model runs dry
        s.pack.draw()
    apply(s, DealCard(s.pack.peek()))  # Ann's second card; the bank's cannot come
    entry = s.results[-1]
    assert entry["void"] and not entry["counted"] and entry["net"] == {"Ann": 0, "Ben": 0}
    assert s.counted == 0 and s.entries == 1 and s.balances == {"Ann": 0, "Ben": 0}
    assert entry["hands"][0]["stake"] == 3 and entry["next_banker"] == "Ben"
    apply(s, StartDeal())
    assert s.deal is not None and s.deal.number == 2


def test_void_entry_has_zero_nets_and_shuffles() -> None:
    from controller.rules import StartDeal, VoidDeal, apply, load_ruleset, new_game, pending

    s = new_game(load_ruleset("house"), ["Ann", "Ben"], banker="Ben", seed=3)
    apply(s, StartDeal())
    apply(s, __import__("controller.rules", fromlist=["DealCard"]).DealCard(s.pack.peek()))
    apply(s, VoidDeal())
    entry = s.results[-1]
    assert entry["void"] and not entry["counted"] and entry["shuffle"]
    assert entry["net"] == {"Ann": 0, "Ben": 0} and s.counted == 0 and len(s.pack) == 52
    assert type(pending(s)).__name__ == "BetweenDeals"


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("deal", "words"),
    [
        ({"stakes": {"Ann": 6}}, ["deal 1", "Ann", "stake 6", "stakes are 1 to 5"]),
        ({"stakes": {}}, ["deal 1", "Ann", "no stake"]),
        ({"stakes": {"Ann": 1, "Ben": 1}}, ["deal 1", "Ben", "banker does not stake"]),
        ({"stakes": {"Ann": 1}, "actions": {}}, ["deal 1", "Ann", "hand 1", "no decision left"]),
        ({"stakes": {"Ann": 1}, "actions": {"Ann": ["stick", "twist"]}, "bank": ["stay"]},
         ["deal 1", "Ann", "'twist'", "left over"]),
        ({"stakes": {"Ann": 1}, "actions": {"Ann": ["stick"]}},
         ["deal 1", "Ben", "no bank decision left"]),
        ({"stakes": {"Ann": 1}, "actions": {"Ann": ["stick"]}, "bank": ["stay", "draw"]},
         ["deal 1", "Ben", "'draw'", "left over"]),
        ({"top": ["ZZ"], "stakes": {"Ann": 1}}, ["deal 1", "unknown card 'ZZ'"]),
        ({"top": ["AS", "AS"], "stakes": {"Ann": 1}}, ["deal 1", "AS cannot be stacked"]),
        ({"stakes": {"Ann": 1}, "actions": {"Ann": ["jump"]}},
         ["deal 1", "Ann", "hand 1", "'jump'"]),
        ({"stakes": {"Ann": 1}, "actions": {"Ann": ["buy x"]}},
         ["deal 1", "Ann", "hand 1", "'buy x'"]),
        ({"stakes": {"Zed": 1}}, ["deal 1", "Zed", "not at the table"]),
    ],
)
def test_errors_name_deal_player_hand_and_decision(deal: dict[str, Any], words: list[str]) -> None:
    deal = {"top": ["9C", "TC", "8D", "7S"], **deal}
    msg = fails(**HOUSE2, deals=[deal])
    for w in words:
        assert w in msg, msg


@pytest.mark.parametrize(
    ("scenario", "words"),
    [
        ({"options": {"colour": "red"}}, ["unknown option 'colour'"]),
        ({"options": {"stick_minimum": 30}}, ["stick_minimum", "0 to 21"]),
        ({"options": {"min_stake": -1}}, ["min_stake"]),
        ({"options": {"min_stake": 8}}, ["min_stake 8 is above max_stake 5"]),
        ({"options": {"split_by": "colour"}}, ["split_by", "rank, value"]),
        ({"options": {"pay_pontoon": 1.25}}, ["pay_pontoon", "half"]),
        ({"rules": "poker"}, ["unknown rules preset 'poker'"]),
        ({"banker": "Zed"}, ["banker 'Zed'"]),
        ({"players": []}, ["players"]),
        ({"deals": {}}, ["deals must be a list"]),
    ],
)
def test_malformed_scenarios_are_refused_clearly(
    scenario: dict[str, Any], words: list[str]
) -> None:
    full = {**HOUSE2, "deals": [], **scenario}
    msg = fails(**full)
    for w in words:
        assert w in msg, msg
