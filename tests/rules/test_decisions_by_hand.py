"""Each decision word's refusals, sentence by sentence, and what each accepted
word does, worked out by hand from RULES.md.

A refusal is read by the dealer (RULES.md §7: "refused with a clear
message"), so the whole sentence is pinned: "<player> <reason>".  Each case
stops a table at one situation (``byhand``) and tries one ``Decide``; a
refusal must change nothing and name the player, the hand and the decision
as written (docs/rules.md, ``IllegalAction``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from controller.rules import (
    CARDS,
    PRESETS,
    BankDecide,
    Card,
    CardNeed,
    Decide,
    DecisionNeed,
    GameState,
    IllegalAction,
    apply,
    new_game,
    pending,
)
from controller.rules.hands import Hand
from controller.rules.legality import word_range

from .byhand import banked, deal, dealt, forget_made_answers, say

WORDS = "stick, twist, buy, double, split, shoot, insurance, even-money"


@pytest.fixture(autouse=True)
def _cold_caches() -> None:
    """Each test makes its needs and families from empty caches (``byhand``)."""
    forget_made_answers()


# ------------------------------------------------------------ the situations
def house_14() -> GameState:
    """house, Ann TC 4C = 14 against Dan 9H 8H, stake 2: twist or buy 2..4."""
    return banked("house", ["TC", "9H"], {"Ann": 2}, ["4C", "8H"])


def house_16_after_buying_3() -> GameState:
    """house_14, buy 3 (2D: 16, three cards): next buy 2..3 (§2.5)."""
    s = house_14()
    say(s, "Ann", "buy", 3)
    return deal(s, "2D")


def house_16_after_a_twist() -> GameState:
    """house_14, twist 2D: 16, three cards, twisted."""
    s = house_14()
    say(s, "Ann", "twist")
    return deal(s, "2D")


def house_pair_of_eights(**options: Any) -> GameState:
    """Ann 8C 8D = 16, stake 1."""
    return banked("house", ["8C", "TH"], {"Ann": 1}, ["8D", "7H"], **options)


def house_split_eights_limit_2() -> GameState:
    """max_hands_per_seat 2: 8C 8D split, hand 1 8C 8H (hand 2 8D 5C)."""
    s = house_pair_of_eights(max_hands_per_seat=2)
    say(s, "Ann", "split")
    return deal(s, "8H", "5C")


def ponton_sevens_vs_ace(stake: int = 10) -> GameState:
    """ponton, Ann 7C 7D = 14 against the dealer's AC."""
    return dealt("ponton", {"Ann": stake}, ["7C", "AC", "7D"])


def ponton_sevens_vs_nine() -> GameState:
    return dealt("ponton", {"Ann": 10}, ["7C", "9C", "7D"])


def ponton_insured() -> GameState:
    s = ponton_sevens_vs_ace()
    return say(s, "Ann", "insurance", 5)


def ponton_twisted_vs_ace() -> GameState:
    """7C 7D twist 2H: 16, three cards."""
    s = ponton_sevens_vs_ace()
    say(s, "Ann", "twist")
    return deal(s, "2H")


def ponton_pontoon_vs_ace() -> GameState:
    """AS KD against AC: a pontoon that may take even money."""
    return dealt("ponton", {"Ann": 10}, ["AS", "AC", "KD"])


def ponton_four_bought_cards() -> GameState:
    """2C 3D against 9C, buy (4H), buy (5S): 14 with four cards."""
    s = dealt("ponton", {"Ann": 10}, ["2C", "9C", "3D"])
    say(s, "Ann", "buy")
    deal(s, "4H")
    say(s, "Ann", "buy")
    return deal(s, "5S")


def ponton_split_aces_again() -> GameState:
    """split_aces_one_card off: AS AD split, hand 1 AS AH."""
    s = dealt("ponton", {"Ann": 10}, ["AS", "9C", "AD"], split_aces_one_card=False)
    say(s, "Ann", "split")
    return deal(s, "AH", "2C")


def casino_eleven(**options: Any) -> GameState:
    """casino, Ann 5C 6D = 11, stake 10, against two face-down cards."""
    return dealt("casino", {"Ann": 10}, ["5C", "9H", "6D", "7S"], **options)


def casino_doubled() -> GameState:
    s = casino_eleven()
    say(s, "Ann", "double")
    return deal(s, "9C")


def casino_twisted_no_twist_then_buy() -> GameState:
    s = casino_eleven(twist_then_buy=False)
    say(s, "Ann", "twist")
    return deal(s, "2H")


def casino_four_cards_buy_max_3() -> GameState:
    """buy_max_cards 3: 5C 6D twist 2H, 3H: 16, four cards."""
    s = casino_eleven(buy_max_cards=3)
    say(s, "Ann", "twist")
    return deal(s, "2H")


def casino_four_cards_max_3() -> GameState:
    s = casino_four_cards_buy_max_3()
    say(s, "Ann", "twist")
    return deal(s, "3H")


def shoot_13() -> GameState:
    """shoot, kitty 10, Ann 8C 5D = 13 (stake 2, shot 4 before her second card)."""
    return banked("shoot", ["8C", "TD"], {"Ann": 2}, ["5D", "7D"], kitty=10, shoots={"Ann": 4})


def shoot_15() -> GameState:
    """shoot_13, twist 2H: 15 with three cards; room 10 - 4 = 6."""
    s = shoot_13()
    say(s, "Ann", "twist")
    return deal(s, "2H")


def shoot_15_shot() -> GameState:
    """shoot_15, shoot 2: the fourth card must come."""
    return say(shoot_15(), "Ann", "shoot", 2)


def shoot_15_kitty_full() -> GameState:
    """kitty 1, Ann shot 1 before her second card; 8C 5D twist 2H: 15."""
    s = banked("shoot", ["8C", "TD"], {"Ann": 2}, ["5D", "7D"], kitty=1, shoots={"Ann": 1})
    say(s, "Ann", "twist")
    return deal(s, "2H")


def traditional_aces_only() -> GameState:
    return banked("traditional", ["8C", "TH"], {"Ann": 1}, ["8D", "7H"], split_aces_only=True)


def house_no_buy() -> GameState:
    return banked("house", ["TC", "9H"], {"Ann": 2}, ["4C", "8H"], buy="none")


# ------------------------------------------------------------ the refusals
REFUSALS: list[tuple[Callable[[], GameState], Decide, str]] = [
    # stick: the minimum (§2.5 "only at a total of 15 or more"), a shoot's fourth card
    (house_14, Decide("Ann", "stick"), "Ann cannot stick under 15 (the hand makes 14)"),
    (shoot_15_shot, Decide("Ann", "stick"), "Ann must take the fourth card after a shoot bet"),
    (house_14, Decide("Ann", "stick", 1), "Ann cannot stick under 15 (the hand makes 14)"),
    (house_16_after_a_twist, Decide("Ann", "stick", 2), "Ann cannot give an amount with stick"),
    # twist, buy, double at 21 (a pontoon waiting for even money)
    (ponton_pontoon_vs_ace, Decide("Ann", "twist"), "Ann cannot twist at 21"),
    (ponton_pontoon_vs_ace, Decide("Ann", "buy"), "Ann cannot buy at 21"),
    (ponton_pontoon_vs_ace, Decide("Ann", "double"), "Ann cannot double at 21"),
    (ponton_pontoon_vs_ace, Decide("Ann", "twist", 1), "Ann cannot twist at 21"),
    (ponton_pontoon_vs_ace, Decide("Ann", "stick", 1), "Ann cannot give an amount with stick"),
    # buy: the table's word, after a twist, the amounts (§2.5: 2..4, then 2..3)
    (casino_eleven, Decide("Ann", "buy", 10), "Ann cannot buy at this table (the word is double)"),
    (house_no_buy, Decide("Ann", "buy", 2), "Ann cannot buy at this table (only twist)"),
    (house_16_after_a_twist, Decide("Ann", "buy", 2), "Ann cannot buy after twisting"),
    (ponton_four_bought_cards, Decide("Ann", "buy"), "Ann cannot buy card 5, only twist"),
    (house_14, Decide("Ann", "buy"), "Ann must say how much to buy (2 to 4)"),
    (house_14, Decide("Ann", "buy", 5), "Ann cannot buy 5: the amount must be 2 to 4"),
    (house_14, Decide("Ann", "buy", 1), "Ann cannot buy 1: the amount must be 2 to 4"),
    (house_16_after_buying_3, Decide("Ann", "buy"), "Ann must say how much to buy (2 to 3)"),
    (house_16_after_buying_3, Decide("Ann", "buy", 4),
     "Ann cannot buy 4: the amount must be 2 to 3"),
    (ponton_sevens_vs_ace, Decide("Ann", "buy", 5),
     "Ann cannot buy 5: the amount must be exactly 10"),
    (house_14, Decide("Ann", "buy", Fraction(5, 2)), "Ann must give whole units for the buy"),
    (house_14, Decide("Ann", "buy", "3"), "Ann must give a number for the buy"),  # type: ignore[arg-type]
    (house_14, Decide("Ann", "buy", True), "Ann must give a number for the buy"),
    # double: the casino's word, once, after a twist when the table says so
    (house_14, Decide("Ann", "double"), "Ann cannot double at this table (the word is buy)"),
    (casino_doubled, Decide("Ann", "double"), "Ann cannot double twice on one hand"),
    (casino_twisted_no_twist_then_buy, Decide("Ann", "double"), "Ann cannot double after twisting"),
    (casino_four_cards_max_3, Decide("Ann", "double"), "Ann cannot double holding 4 cards"),
    (casino_eleven, Decide("Ann", "double", 5),
     "Ann cannot double 5: the amount must be exactly 10"),
    # split
    (house_16_after_buying_3, Decide("Ann", "split"),
     "Ann can split only a hand's first two cards"),
    (house_14, Decide("Ann", "split"), "Ann can split only two cards of the same rank"),
    (casino_eleven, Decide("Ann", "split"), "Ann can split only two cards of the same value"),
    (traditional_aces_only, Decide("Ann", "split"), "Ann can split only aces at this table"),
    (ponton_split_aces_again, Decide("Ann", "split"), "Ann can split aces only once"),
    (house_split_eights_limit_2, Decide("Ann", "split"), "Ann cannot split into more than 2 hands"),
    (house_pair_of_eights, Decide("Ann", "split", 1), "Ann cannot give an amount with split"),
    # shoot (§4)
    (house_14, Decide("Ann", "shoot", 1), "Ann cannot shoot: no shoot bets at this table"),
    (shoot_13, Decide("Ann", "shoot", 1),
     "Ann can shoot only before a fourth card, or first on a new split hand"),
    (shoot_15_shot, Decide("Ann", "shoot", 1),
     "Ann can shoot only before a fourth card, or first on a new split hand"),
    (shoot_15_kitty_full, Decide("Ann", "shoot", 1),
     "Ann cannot shoot: the kitty has no room left"),
    (shoot_15, Decide("Ann", "shoot", 7), "Ann cannot shoot 7: the amount must be 1 to 6"),
    (shoot_15, Decide("Ann", "shoot", 0), "Ann cannot shoot 0: the amount must be 1 to 6"),
    (shoot_15, Decide("Ann", "shoot"), "Ann must say how much to shoot (1 to 6)"),
    # insurance (§6)
    (house_14, Decide("Ann", "insurance", 1), "Ann cannot insure: no insurance at this table"),
    (ponton_sevens_vs_nine, Decide("Ann", "insurance", 5),
     "Ann can insure only when the dealer's card is an ace"),
    (ponton_insured, Decide("Ann", "insurance", 5),
     "Ann can insure only once, before taking any card"),
    (ponton_twisted_vs_ace, Decide("Ann", "insurance", 5),
     "Ann can insure only once, before taking any card"),
    (ponton_pontoon_vs_ace, Decide("Ann", "insurance", 5),
     "Ann cannot insure a pontoon: it may take even money instead"),
    (ponton_sevens_vs_ace, Decide("Ann", "insurance", 2),
     "Ann cannot insure for 2: the amount must be exactly 5"),
    (ponton_sevens_vs_ace, Decide("Ann", "insurance", Fraction(5, 2)),
     "Ann cannot insure for 2.5: the amount must be exactly 5"),
    (ponton_sevens_vs_ace, Decide("Ann", "insurance", Fraction(1, 3)),
     "Ann cannot use 1/3 for the insurance"),
    # even money (§6)
    (house_14, Decide("Ann", "even-money"), "Ann cannot take even money at this table"),
    (ponton_sevens_vs_ace, Decide("Ann", "even-money"),
     "Ann can take even money only with a pontoon"),
    # not a word
    (house_14, Decide("Ann", "jump"), f"Ann cannot 'jump': the decisions are {WORDS}"),
    (house_14, Decide("Ann", ["twist"]),  # type: ignore[arg-type]
     f"Ann cannot ['twist']: the decisions are {WORDS}"),
]


@pytest.mark.parametrize(
    ("situation", "action", "sentence"),
    REFUSALS,
    ids=[f"{f.__name__}-{a.word}-{a.amount}" for f, a, _ in REFUSALS],
)
def test_a_refused_decision_says_why(
    situation: Callable[[], GameState], action: Decide, sentence: str
) -> None:
    state = situation()
    saved = state.to_json()
    with pytest.raises(IllegalAction) as refused:
        apply(state, action)
    assert str(refused.value) == sentence
    assert state.to_json() == saved  # a refusal changes nothing
    assert refused.value.player == "Ann"
    assert refused.value.hand == 1
    text = action.word if action.amount is None else f"{action.word} {action.amount}"
    assert refused.value.decision == text


def test_a_decision_out_of_turn_names_the_need_and_no_hand() -> None:
    """Bob, not at the table's turn, says stick: "the table waits for Ann's
    decision on hand 1"; the refusal names Bob and the decision, no hand."""
    s = house_14()
    with pytest.raises(IllegalAction) as refused:
        apply(s, Decide("Bob", "stick", 2))
    waits = "the table waits for Ann's decision on hand 1"
    assert str(refused.value) == f"Bob cannot stick 2 now: {waits}"
    assert (refused.value.player, refused.value.hand, refused.value.decision) == (
        "Bob", None, "stick 2",
    )


def test_the_cut_card_and_the_dealers_card_are_named() -> None:
    """During the cut the table waits for a cut card; in casino, after Ann's
    first card, for a card for the house dealer."""
    s = new_game(PRESETS["house"], ["Ann", "Dan"], seed=1)
    with pytest.raises(IllegalAction) as refused:
        apply(s, Decide("Ann", "stick"))
    assert str(refused.value) == "Ann cannot stick now: the table waits for a cut card"
    s = dealt("casino", {"Ann": 10}, ["5C"])
    with pytest.raises(IllegalAction) as refused:
        apply(s, Decide("Ann", "stick"))
    assert str(refused.value) == "Ann cannot stick now: the table waits for a card for house"


# ------------------------------------------------------------ what an accepted word does
def test_buy_raises_the_stake_by_the_amount_and_draws_face_down() -> None:
    """RULES.md §2.7 worked example: original 2, 8+4 = 12, buy 3 (stake 5),
    receive a 6: 18, stick; the banker stays at 17: Ann +5."""
    s = banked("house", ["8C", "TH"], {"Ann": 2}, ["4D", "7H"])
    say(s, "Ann", "buy", 3)
    assert pending(s) == CardNeed("Ann", 1, False, False, "deal")
    assert s.hand_views()[0].stake == 5
    deal(s, "6H")
    say(s, "Ann", "stick")
    apply(s, BankDecide("stay"))
    assert s.balances_units() == {"Ann": 5, "Dan": -5}


def test_a_plain_buy_takes_the_one_amount_and_a_whole_fraction_is_a_number() -> None:
    """ponton's buy is the original stake, 10: a plain ``buy`` adds 10 (stake
    20).  house: ``buy Fraction(3)`` is the whole number 3 (stake 2 + 3)."""
    s = dealt("ponton", {"Ann": 10}, ["2C", "9C", "3D"])
    say(s, "Ann", "buy")
    assert s.hand_views()[0].stake == 20
    s = banked("house", ["8C", "TH"], {"Ann": 2}, ["4D", "7H"])
    say(s, "Ann", "buy", Fraction(3))
    assert s.hand_views()[0].stake == 5


def test_twist_draws_face_up_and_keeps_the_stake() -> None:
    s = house_14()
    say(s, "Ann", "twist")
    assert pending(s) == CardNeed("Ann", 1, True, False, "deal")
    assert s.hand_views()[0].stake == 2


def test_double_adds_the_original_bet_and_draws_face_down() -> None:
    """casino stake 10, double: stake 20, a face-down card (§5)."""
    s = casino_eleven()
    say(s, "Ann", "double")
    assert pending(s) == CardNeed("Ann", 1, False, False, "deal")
    assert s.hand_views()[0].stake == 20


def test_split_gives_two_hands_of_the_original_stake_one_card_each_in_order() -> None:
    """house, stake 3 raised by nothing: 8C 8D split.  One card to hand 1,
    then to hand 2, both face down; the split cards face up (docs/rules.md);
    each hand's stake is the original 3 (§1); hand 1 plays first."""
    s = banked("house", ["8C", "TH"], {"Ann": 3}, ["8D", "7H"])
    say(s, "Ann", "split")
    assert pending(s) == CardNeed("Ann", 1, False, False, "deal")
    deal(s, "2C")
    assert pending(s) == CardNeed("Ann", 2, False, False, "deal")
    deal(s, "3C")
    views = s.hand_views()
    assert [(v.hand, [(str(c.card), c.face_up) for c in v.cards], v.stake) for v in views] == [
        (1, [("8C", True), ("2C", False)], 3),
        (2, [("8D", True), ("3C", False)], 3),
    ]
    assert pending(s) == DecisionNeed("Ann", 1, ("twist", "buy"))


def test_stick_on_three_of_a_kind_is_paid_at_once() -> None:
    """ponton, stake 10: 3C 3D against 9C, twist 3H: 9, three of a kind,
    stick: paid 1:1 at once (§6), +10; no hand is live, the dealer does not
    play: Ann +10, house -10."""
    s = dealt("ponton", {"Ann": 10}, ["3C", "9C", "3D"])
    say(s, "Ann", "twist")
    deal(s, "3H")
    say(s, "Ann", "stick")
    assert s.balances_units() == {"Ann": 10, "house": -10}
    assert s.last_result()["bank"]["cards"] == ["9C"]  # type: ignore[index]


def test_even_money_pays_one_to_one_at_once() -> None:
    """ponton, AS KD against AC, stake 10: even money, 1:1 at once (§6): the
    hand is done and shown, Ann +10; no live hand and no insurance: the
    dealer draws nothing."""
    s = ponton_pontoon_vs_ace()
    say(s, "Ann", "even-money")
    assert s.balances_units() == {"Ann": 10, "house": -10}
    entry = s.last_result()
    assert entry is not None and entry["bank"]["cards"] == ["AC"]
    assert entry["hands"][0]["net"] == 10


def test_insurance_of_half_a_unit_is_settled_on_its_own() -> None:
    """ponton, stake 5, 7C 7D against AC: insurance 2.5 (half the stake),
    stick at 14; the dealer draws KD: a pontoon.  The stake is lost (-5), the
    insurance pays 2:1 (+5): Ann 0 (§6)."""
    s = ponton_sevens_vs_ace(stake=5)
    say(s, "Ann", "insurance", Fraction(5, 2))
    say(s, "Ann", "stick")
    deal(s, "KD")
    assert s.balances_units() == {"Ann": 0, "house": 0}
    # and lost without the dealer's pontoon: stake 5, 7C 7D 14 against AC 9D
    # 20: -5; insurance -2.5: Ann -7.5
    s = ponton_sevens_vs_ace(stake=5)
    say(s, "Ann", "insurance", Fraction(5, 2))
    say(s, "Ann", "stick")
    deal(s, "9D")
    assert s.balances_units() == {"Ann": Fraction(-15, 2), "house": Fraction(15, 2)}


def test_shoot_before_the_fourth_card_then_the_card_comes() -> None:
    """shoot_15 (kitty 10, Ann shot 4), shoot 2: the open bets are 6 and the
    hand must draw: twist is its only word."""
    s = shoot_15_shot()
    assert s.hand_views()[0].shoot == 6
    assert pending(s) == DecisionNeed("Ann", 1, ("twist",))


def test_a_hand_that_splits_again_puts_its_new_hand_right_after_it() -> None:
    """house, stake 1: 8C 8D split, hand 1 8C 8H, hand 2 8D 5C.  Hand 1 splits
    again: the new hand (8H) is played right after the hand it came from
    (§1), so it is hand 2, and 8D 5C becomes hand 3.  One card to hand 1
    (2C), then to the new hand 2 (3C)."""
    s = banked("house", ["8C", "TH"], {"Ann": 1}, ["8D", "7H"])
    say(s, "Ann", "split")
    deal(s, "8H", "5C")
    say(s, "Ann", "split")
    assert pending(s) == CardNeed("Ann", 1, False, False, "deal")
    deal(s, "2C")
    assert pending(s) == CardNeed("Ann", 2, False, False, "deal")
    deal(s, "3C")
    assert [[str(c.card) for c in v.cards] for v in s.hand_views()] == [
        ["8C", "2C"], ["8H", "3C"], ["8D", "5C"],
    ]


def test_even_money_shows_the_hand_and_pays_it_while_others_play() -> None:
    """ponton, Ann AS KD and Bob 9H 7H against AC, stakes 10: Ann takes even
    money: her hand is done, shown and paid 1:1 (+10) at once (§6), and Bob
    plays next."""
    s = dealt("ponton", {"Ann": 10, "Bob": 10}, ["AS", "9H", "AC", "KD", "7H"])
    say(s, "Ann", "even-money")
    assert pending(s) == DecisionNeed("Bob", 1, ("stick", "twist", "buy", "insurance"))
    ann = s.hand_views()[0]
    assert [(str(c.card), c.face_up) for c in ann.cards] == [("AS", True), ("KD", True)]
    assert (ann.done, ann.net) == (True, 10)


def test_a_bust_split_hand_returns_each_of_its_cards_once() -> None:
    """house, one pack: 8C 8D split (2C to hand 1, 5C to hand 2); hand 1
    twists 9S (19) and sticks; hand 2 twists KS: 23, bust, its three cards go
    under the pack at once (§2.5).  Dan stays at 17: hand 1 wins 1, hand 2
    lost 1.  No pontoon: the rest go to the bottom; the pack again holds each
    of the 52 cards once."""
    s = banked("house", ["8C", "9H"], {"Ann": 1}, ["8D", "8H"])
    say(s, "Ann", "split")
    deal(s, "2C", "5C")
    say(s, "Ann", "twist")
    deal(s, "9S")
    say(s, "Ann", "stick")
    say(s, "Ann", "twist")
    deal(s, "KS")
    apply(s, BankDecide("stay"))
    assert s.balances_units() == {"Ann": 0, "Dan": 0}
    assert len(s.pack) == 52 and s.pack.present() == frozenset(CARDS)


# ------------------------------------------------------------ hands play never asks about
def test_the_word_rules_refuse_a_sixth_card_whatever_asks() -> None:
    """``legality.word_range`` answers for any hand, not only the ones play
    reaches (a hand stops by itself at five cards, §1, so ``apply`` never
    asks): with five cards under 21 no twist, buy or double (§2.5, §5: twist
    "under five cards"; a 5th card is the last); with four, twist is fine."""
    five = Hand.of([Card.parse(c) for c in ["2C", "2D", "3C", "3D", "4C"]])  # 14
    four = Hand.of([Card.parse(c) for c in ["2C", "2D", "3C", "3D"]])  # 10
    for h in (five, four):
        h.original = h.stake = 2
    house = house_14()
    assert house.deal is not None
    assert word_range(house, house.deal, five, "twist") == "cannot twist a sixth card"
    assert word_range(house, house.deal, five, "buy") == "cannot buy a sixth card"
    assert word_range(house, house.deal, four, "twist") is None
    casino = casino_eleven()
    assert casino.deal is not None
    assert word_range(casino, casino.deal, five, "double") == "cannot double a sixth card"


def test_the_even_money_rule_refuses_an_insured_hand_and_a_dealer_without_ace() -> None:
    """§6: even money is for a pontoon while the dealer's card is an ace, and
    a hand that took insurance cannot take it.  Play never asks (such a
    pontoon stops by itself), the rule still answers: a pontoon AS KD as the
    seat's insured first hand against AC, then against the dealer's 9C."""
    s = ponton_insured()
    assert s.deal is not None
    pontoon = Hand.of([Card.parse("AS"), Card.parse("KD")])
    expected = "cannot take even money on an insured hand"
    assert word_range(s, s.deal, pontoon, "even-money") == expected
    # and against the dealer's 9C (a pontoon there stops by itself, §1)
    s = ponton_sevens_vs_nine()
    assert s.deal is not None
    expected = "can take even money only when the dealer's card is an ace"
    assert word_range(s, s.deal, pontoon, "even-money") == expected
