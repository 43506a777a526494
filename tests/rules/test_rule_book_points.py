"""The points of issue 22, each a scenario whose result is worked out by hand.

Five points where the engine was wrong against RULES.md / SCENARIO.md, and four
that the rule book now decides the way the engine already played them.  Every
expected number below is derived in the comment beside it from the rule book
(never printed by the engine and pasted back).

Ponton's draw order (SCENARIO.md): stakes, a first card to each seat then the
dealer's one card face up, a second card to each seat, the players in turn, then
the dealer, who draws until 17 or more.  Player-banked: first card to each
player from the banker's left then the banker, stakes (and shoot bets), second
card in the same order.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.rules import IllegalAction, load_ruleset, new_game
from controller.scenario import ScenarioError, load_scenario, run_scenario

ROOT = Path(__file__).resolve().parent.parent.parent


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


def replay(tmp_path: Path, scenario: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", "replay", str(path)],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )


PONTON = {"rules": "ponton", "seed": 1, "players": ["Ann"]}
HOUSE2 = {"rules": "house", "seed": 1, "players": ["Ann", "Ben"], "banker": "Ben"}


# ------------------------------------------------------------ 1. a pontoon facing an ace
def test_a_pontoon_facing_the_dealers_ace_takes_no_stick(tmp_path: Path) -> None:
    # Ann AS, dealer AC, Ann KD: a pontoon facing the ace; it ends by itself, so
    # the `stick` is a word left over (SCENARIO.md), exit 2 with one line
    scenario = {**PONTON, "deals": [{"top": ["AS", "AC", "KD", "9H"], "stakes": {"Ann": 10},
                                     "actions": {"Ann": ["stick"]}}]}
    msg = fails(**scenario)
    assert msg == "deal 1, Ann, hand 1, decision 'stick': left over after Ann's hands ended"
    done = replay(tmp_path, scenario)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == msg


def test_a_pontoon_facing_the_ace_with_no_word_plays_on() -> None:
    # no word: the pontoon stands; the dealer AC draws 9H: 20; a pontoon pays
    # 2:1 on stake 10: Ann +20, house -20
    r = run(**PONTON, deals=[{"top": ["AS", "AC", "KD", "9H"], "stakes": {"Ann": 10}}])
    assert r["deals"][0]["bank"] == {"cards": ["AC", "9H"], "total": 20}
    assert r["balances"] == {"Ann": 20, "house": -20}


def test_even_money_is_the_pontoons_only_word_insurance_is_left_over() -> None:
    # even money is offered instead of insurance (§6): the pontoon cannot insure,
    # so `insurance 5` is not taken by the hand and is left over
    msg = fails(**PONTON, deals=[{"top": ["AS", "AC", "KD", "9H"], "stakes": {"Ann": 10},
                                  "actions": {"Ann": ["insurance 5"]}}])
    assert msg == "deal 1, Ann, hand 1, decision 'insurance 5': left over after Ann's hands ended"


# ------------------------------------------------------------ 2. even money on split hands
def test_even_money_on_a_split_hand_that_is_a_pontoon() -> None:
    # Ann KC KD, dealer AC.  split: KC gets AH (hand 1, a pontoon: a split hand's
    # first two cards count, §1), KD gets 9S (hand 2, 19).
    # hand 1 takes even money: +10 at once.  hand 2 sticks at 19; the dealer
    # AC 7H = soft 18 stops (17 or more); 19 beats 18: +10.  Ann +20, house -20.
    r = run(**PONTON, deals=[{"top": ["KC", "AC", "KD", "AH", "9S", "7H"], "stakes": {"Ann": 10},
                              "actions": {"Ann": ["split", "even-money", "stick"]}}])
    h = hands(r)
    assert h[("Ann", 1)]["cards"] == ["KC", "AH"] and h[("Ann", 1)]["net"] == 10
    assert h[("Ann", 2)]["cards"] == ["KD", "9S"] and h[("Ann", 2)]["net"] == 10
    assert r["deals"][0]["bank"] == {"cards": ["AC", "7H"], "total": 18}
    assert r["balances"] == {"Ann": 20, "house": -20}


def test_even_money_on_a_split_ace_that_makes_a_pontoon() -> None:
    # Ann AS AD, dealer AC.  split aces, one card each: AS KH (hand 1), AD QS
    # (hand 2), both pontoons facing the ace.  hand 1 takes even money: +10;
    # hand 2 says nothing and plays on; the dealer AC 9D = 20; the pontoon pays
    # 2:1: +20.  Ann +30, house -30.
    r = run(**PONTON, deals=[{"top": ["AS", "AC", "AD", "KH", "QS", "9D"], "stakes": {"Ann": 10},
                              "actions": {"Ann": ["split", "even-money"]}}])
    h = hands(r)
    assert h[("Ann", 1)]["net"] == 10 and h[("Ann", 2)]["net"] == 20
    assert r["deals"][0]["bank"]["cards"] == ["AC", "9D"]
    assert r["balances"] == {"Ann": 30, "house": -30}


# ------------------------------------------------------------ 3. the dealer's second card only
def test_open_insurance_alone_makes_the_dealer_draw_its_second_card_only() -> None:
    # Ann KC 6D (16), dealer AC.  insurance 5, twist TS: 26, bust (-10).  No hand
    # is live but the insurance is open: the dealer draws its second card, 5H
    # (AC 5H = 16), and no more, though 16 is under 17.  No dealer pontoon: the
    # insurance is lost (-5).  Ann -15, house +15; 9C stays in the shoe.
    r = run(**PONTON, deals=[{"top": ["KC", "AC", "6D", "TS", "5H", "9C"], "stakes": {"Ann": 10},
                              "actions": {"Ann": ["insurance 5", "twist"]}}])
    assert r["deals"][0]["bank"] == {"cards": ["AC", "5H"], "total": 16}
    assert hands(r)[("Ann", 1)]["net"] == -15
    assert r["balances"] == {"Ann": -15, "house": 15}


def test_the_second_card_settles_the_insurance_of_a_bust_and_a_paid_hand() -> None:
    # Ann AS KD: a pontoon facing AC, takes even money (+10).  Bob 9C 6D (15)
    # insures 5 and twists 8H: 23, bust (-10).  Both hands are over; the dealer
    # draws its second card KH: a pontoon, so Bob's insurance pays 2:1 (+10),
    # and stops there.  Ann +10, Bob 0, house -10.
    r = run(rules="ponton", seed=1, players=["Ann", "Bob"],
            deals=[{"top": ["AS", "9C", "AC", "KD", "6D", "8H", "KH", "5C"],
                    "stakes": {"Ann": 10, "Bob": 10},
                    "actions": {"Ann": ["even-money"], "Bob": ["insurance 5", "twist"]}}])
    d = r["deals"][0]
    assert d["bank"] == {"cards": ["AC", "KH"], "total": 21}
    assert d["net"] == {"Ann": 10, "Bob": 0, "house": -10}


def test_with_no_insurance_open_the_dealer_draws_nothing() -> None:
    # Ann's even money leaves no live hand and no insurance: the dealer keeps AC
    r = run(**PONTON, deals=[{"top": ["AS", "AC", "KD", "9H"], "stakes": {"Ann": 10},
                              "actions": {"Ann": ["even-money"]}}])
    assert r["deals"][0]["bank"] == {"cards": ["AC"], "total": 11}
    assert r["balances"] == {"Ann": 10, "house": -10}


# ------------------------------------------------------------ 4. amounts are JSON numbers
def test_a_stake_written_as_text_is_refused_naming_player_and_amount(tmp_path: Path) -> None:
    scenario = {**HOUSE2, "deals": [{"top": ["9C", "TC", "9D", "7S"], "stakes": {"Ann": "3"},
                                     "actions": {"Ann": ["stick"]}, "bank": ["stay"]}]}
    msg = fails(**scenario)
    assert msg.startswith("deal 1, Ann, hand 1, stake '3': not an amount")
    assert "JSON number" in msg
    done = replay(tmp_path, scenario)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.strip() == msg


def test_a_stake_written_as_a_json_number_is_accepted() -> None:
    # Ann 9C 9D = 18 sticks, Ben TC 7S = 17 stays: Ann wins her stake 3 (3.0 is
    # the same JSON number)
    for stake in (3, 3.0):
        r = run(**HOUSE2, deals=[{"top": ["9C", "TC", "9D", "7S"], "stakes": {"Ann": stake},
                                  "actions": {"Ann": ["stick"]}, "bank": ["stay"]}])
        assert r["balances"] == {"Ann": 3, "Ben": -3}


SHOOT3 = {"rules": "shoot", "seed": 3, "players": ["Ann", "Bob", "Cat"], "banker": "Cat"}


@pytest.mark.parametrize(
    ("deal", "start"),
    [
        ({"kitty": 10, "stakes": {"Ann": 2, "Bob": 1}, "shoots": {"Ann": "2"}},
         "deal 1, Ann, hand 1, shoot '2': not an amount"),
        ({"kitty": "10", "stakes": {"Ann": 2, "Bob": 1}},
         "deal 1, Cat (banker), kitty '10': not an amount"),
        ({"sell_bank": {"to": "Bob", "price": "5"}, "kitty": 10, "stakes": {"Ann": 2, "Cat": 1}},
         "deal 1, Cat (banker), sell_bank price '5': not an amount"),
    ],
)
def test_every_amount_field_written_as_text_is_refused(deal: dict[str, Any], start: str) -> None:
    msg = fails(**SHOOT3, deals=[{"top": ["9C", "8C", "TC", "TD", "9D", "8H"], **deal}])
    assert msg.startswith(start) and "JSON number" in msg, msg


# ------------------------------------------------------------ 5. at most 8 people
NINE = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9"]


@pytest.mark.parametrize("preset", ["traditional", "shoot"])
def test_traditional_and_shoot_seat_at_most_eight_people(preset: str, tmp_path: Path) -> None:
    # §3: 2 to 8 people, the banker included; a ninth is refused
    scenario = {"rules": preset, "players": NINE, "banker": "P1", "deals": []}
    msg = fails(**scenario)
    assert msg == f"The {preset} rules seat at most 8 people, the banker included, not 9"
    done = replay(tmp_path, scenario)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.strip() == msg
    with pytest.raises(IllegalAction, match="at most 8 people"):
        new_game(load_ruleset(preset), NINE, banker="P1")
    # eight people, the banker among them, may play: no deal, every balance 0
    r = run(rules=preset, players=NINE[:8], banker="P1", deals=[])
    assert r["balances"] == {p: 0 for p in NINE[:8]}


def test_house_has_no_such_limit() -> None:
    # house: two packs from 8 people (§2), no upper limit stated
    assert new_game(load_ruleset("house"), NINE, banker="P1").pack.packs == 2


# ------------------------------------------------------------ now decided by the rule book
def test_a_plain_buy_is_accepted_when_the_rules_leave_one_amount() -> None:
    # house, Ann stake 1: 2C 3D = 5 against Ben's TC 7S = 17.  `buy 1` (first
    # buy: 1 to 2) gives 9H: 14, stake 2; then a buy may add 1 (original) to 1
    # (previous): exactly one amount, so plain `buy` adds 1: 5D, 19, stake 3.
    # Ann sticks, Ben stays at 17: 19 beats 17, Ann +3, Ben -3.
    deal = {"top": ["2C", "TC", "3D", "7S", "9H", "5D"], "stakes": {"Ann": 1},
            "actions": {"Ann": ["buy 1", "buy", "stick"]}, "bank": ["stay"]}
    r = run(**HOUSE2, deals=[deal])
    assert hands(r)[("Ann", 1)]["stake"] == 3
    assert r["balances"] == {"Ann": 3, "Ben": -3}
    # the first buy leaves 1 or 2: a plain `buy` there must say how much
    msg = fails(**HOUSE2, deals=[dict(deal, actions={"Ann": ["buy", "buy", "stick"]})])
    assert msg == "deal 1, Ann, hand 1, decision 'buy': must say how much to buy (1 to 2)"


def test_an_insured_hand_cannot_take_even_money() -> None:
    # Ann AS AD, dealer AC: insures 5 (half of 10), splits the aces: AS KH
    # (hand 1, a pontoon, but insured: no even money, it stands) and AD 5C
    # (hand 2, soft 16, one card only).  The dealer AC 6H = soft 17 stops.
    # hand 1: pontoon vs 17 pays 2:1 (+20), insurance lost (-5, in hand 1's
    # net): +15.  hand 2: 16 vs 17: -10.  Ann +5, house -5.
    deal = {"top": ["AS", "AC", "AD", "KH", "5C", "6H"], "stakes": {"Ann": 10},
            "actions": {"Ann": ["insurance 5", "split"]}}
    r = run(**PONTON, deals=[deal])
    h = hands(r)
    assert h[("Ann", 1)]["net"] == 15 and h[("Ann", 2)]["net"] == -10
    assert r["balances"] == {"Ann": 5, "house": -5}
    # asking even money on the insured pontoon: no hand takes it, it is left over
    msg = fails(**PONTON, deals=[dict(deal, actions={"Ann": ["insurance 5", "split",
                                                              "even-money"]})])
    assert msg == "deal 1, Ann, hand 2, decision 'even-money': left over after Ann's hands ended"


def test_a_hand_that_took_even_money_cannot_insure() -> None:
    msg = fails(**PONTON, deals=[{"top": ["AS", "AC", "KD", "9H"], "stakes": {"Ann": 10},
                                  "actions": {"Ann": ["even-money", "insurance 5"]}}])
    assert msg == "deal 1, Ann, hand 1, decision 'insurance 5': left over after Ann's hands ended"


@pytest.mark.parametrize(
    ("scenario", "reason"),
    [
        ({**HOUSE2, "deals": [{"top": ["9C", "TC", "9D", "7S"], "stakes": {"Ann": 2.5},
                               "actions": {"Ann": ["stick"]}, "bank": ["stay"]}]},
         "deal 1, Ann, hand 1, decision 'stake 2.5': must give whole units for the stake"),
        ({**HOUSE2, "deals": [{"top": ["2C", "TC", "3D", "7S", "9H"], "stakes": {"Ann": 2},
                               "actions": {"Ann": ["buy 2.5", "stick"]}, "bank": ["stay"]}]},
         "deal 1, Ann, hand 1, decision 'buy 2.5': must give whole units for the buy"),
        ({"rules": "traditional", "players": ["Ann", "Ben"], "banker": "Ben",
          "deals": [{"sell_bank": {"to": "Ann", "price": 2.5}, "stakes": {"Ben": 1}}]},
         "deal 1, Ben, decision 'sell bank to Ann': must give whole units for the price"),
        ({**PONTON, "deals": [{"top": ["9C", "AC", "8D", "6D"], "stakes": {"Ann": 5},
                               "actions": {"Ann": ["insurance 2", "stick"]}}]},
         "deal 1, Ann, hand 1, decision 'insurance 2': cannot insure for 2: the amount must be "
         "exactly 2.5"),
        ({**PONTON, "deals": [{"top": ["9C", "AC", "8D", "6D"], "stakes": {"Ann": 5},
                               "actions": {"Ann": ["insurance 3", "stick"]}}]},
         "deal 1, Ann, hand 1, decision 'insurance 3': cannot insure for 3: the amount must be "
         "exactly 2.5"),
    ],
)
def test_whole_units_and_insurance_exactly_half(scenario: dict[str, Any], reason: str) -> None:
    assert fails(**scenario) == reason


def test_insurance_of_half_an_odd_stake_is_paid_two_to_one() -> None:
    # Ann 9C 8D = 17, stake 5, dealer AC: insurance 2.5 (exactly half), stick.
    # The dealer draws KH: a pontoon.  The stake is lost to it (-5); the
    # insurance pays 2:1 (+5).  Ann 0, house 0.
    r = run(**PONTON, deals=[{"top": ["9C", "AC", "8D", "KH"], "stakes": {"Ann": 5},
                              "actions": {"Ann": ["insurance 2.5", "stick"]}}])
    assert hands(r)[("Ann", 1)]["net"] == 0
    assert r["balances"] == {"Ann": 0, "house": 0}


def test_a_shoot_bet_of_zero_is_no_shoot_bet() -> None:
    # shoot, Cat banks with a kitty of 10.  Ann 9C TD = 19, Bob 8C 9D = 17, Cat
    # TC 8H = 18.  Ann shoots 0: no bet; Bob shoots 3.  Ann beats 18: +2 on her
    # stake and nothing from the kitty.  Bob loses 17 to 18: -1, and his shoot
    # bet goes into the kitty: -3 (kitty 13).  Net Ann +2, Bob -4, Cat +2.
    r = run(**SHOOT3, deals=[{"kitty": 10, "top": ["9C", "8C", "TC", "TD", "9D", "8H"],
                              "stakes": {"Ann": 2, "Bob": 1}, "shoots": {"Ann": 0, "Bob": 3},
                              "actions": {"Ann": ["stick"], "Bob": ["stick"]},
                              "bank": ["stay"]}])
    d = r["deals"][0]
    h = hands(r)
    assert h[("Ann", 1)]["shoot"] == 0 and h[("Ann", 1)]["net"] == 2
    assert h[("Bob", 1)]["shoot"] == 3 and h[("Bob", 1)]["net"] == -4
    assert d["kitty"] == 13 and d["net"] == {"Ann": 2, "Bob": -4, "Cat": 2}
