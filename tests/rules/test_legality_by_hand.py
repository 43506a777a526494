"""``legal_actions`` and ``pending`` at each preset's key choice points, by hand.

The property test compares ``legal_actions`` with what ``apply`` accepts on a
few random games; these tests stop a table at one situation each and compare
the whole list of families (kind, player, word, amount range, halves) with
the list worked out from RULES.md in the comments.  Amounts are table units.
The words come in the order of ``WORDS`` (stick, twist, buy, double, split,
shoot, insurance, even-money), then the void-deal family during a deal.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from controller.rules import (
    CARDS,
    PRESETS,
    BankDecide,
    BankNeed,
    BetweenDeals,
    Card,
    CardNeed,
    DealCard,
    DecisionNeed,
    GameOver,
    KittyNeed,
    LegalAction,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    SellBank,
    ShootNeed,
    StackTop,
    StakeNeed,
    StartDeal,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending,
)

from .byhand import VOID, banked, deal, dealt, forget_made_answers, say, word


@pytest.fixture(autouse=True)
def _cold_caches() -> None:
    """Each test makes its needs and families from empty caches (``byhand``)."""
    forget_made_answers()


START = LegalAction(StartDeal)
STACK = LegalAction(StackTop)


def cards_left(*gone: str) -> LegalAction:
    """The deal-a-card family of a one-deck pack without ``gone``."""
    out = {Card.parse(c) for c in gone}
    return LegalAction(DealCard, cards=frozenset(c for c in CARDS if c not in out))


# ------------------------------------------------------------ house: rising buys, twist, stick
def test_house_first_decision_buy_range_then_narrower_buys_then_twist_only() -> None:
    """Ann TC 4C = 14 against Dan 9H 8H, stake 2 (RULES.md §2.5):
    stick needs 15 -> no; twist -> yes; buy: first buy 1x-2x the original, 2..4;
    split needs equal ranks (T, 4) -> no."""
    s = banked("house", ["TC", "9H"], {"Ann": 2}, ["4C", "8H"])
    assert pending(s) == DecisionNeed("Ann", 1, ("twist", "buy"))
    assert legal_actions(s) == [word("Ann", "twist"), word("Ann", "buy", 2, 4), VOID]
    # buy 3 (stake 5), face down 2D: 16.  Stick now allowed (16 >= 15); the
    # next buy adds at least the original (2) and at most the previous (3)
    say(s, "Ann", "buy", 3)
    assert pending(s) == CardNeed("Ann", 1, False, False, "deal")
    deal(s, "2D")
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "buy", 2, 3), VOID,
    ]
    # twist 3C (19, four cards): once twisted only twist, never buy
    say(s, "Ann", "twist")
    assert pending(s) == CardNeed("Ann", 1, True, False, "deal")
    deal(s, "3C")
    assert pending(s) == DecisionNeed("Ann", 1, ("stick", "twist"))
    assert legal_actions(s) == [word("Ann", "stick"), word("Ann", "twist"), VOID]
    # twist AD: 20 with five cards, a five-card trick, stops by itself; the
    # banker's turn: draw or stay (§2.6)
    say(s, "Ann", "twist")
    deal(s, "AD")
    assert pending(s) == BankNeed("Dan", ("draw", "stay"))
    assert legal_actions(s) == [
        LegalAction(BankDecide, word="draw"), LegalAction(BankDecide, word="stay"), VOID,
    ]
    # Dan draws: a card face up for the bank
    apply(s, BankDecide("draw"))
    assert pending(s) == CardNeed("Dan", 0, True, True, "deal")
    assert legal_actions(s) == [
        cards_left("TC", "9H", "4C", "8H", "2D", "3C", "AD"), VOID,
    ]


def test_house_stick_at_fifteen_not_fourteen_and_a_pair_may_split() -> None:
    """9C 6D = 15: stick allowed (15 or more), no split (9, 6); 8C 8D = 16, a
    pair: stick, twist, buy 1..2 (stake 1: 1x-2x), split."""
    s = banked("house", ["9C", "TH"], {"Ann": 1}, ["6D", "7H"])
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "buy", 1, 2), VOID,
    ]
    s = banked("house", ["8C", "TH"], {"Ann": 1}, ["8D", "7H"])
    assert pending(s) == DecisionNeed("Ann", 1, ("stick", "twist", "buy", "split"))
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "buy", 1, 2), word("Ann", "split"),
        VOID,
    ]


def test_stick_at_sixteen_when_the_table_says_so() -> None:
    """traditional with stick_minimum 16 (RULES.md §3 variation): 15 may not
    stick, 16 may."""
    s = banked("traditional", ["9C", "TH"], {"Ann": 1}, ["6D", "7H"], stick_minimum=16)
    assert legal_actions(s) == [word("Ann", "twist"), word("Ann", "buy", 1, 2), VOID]
    s = banked("traditional", ["9C", "TH"], {"Ann": 1}, ["7D", "7H"], stick_minimum=16)
    assert legal_actions(s)[0] == word("Ann", "stick")


def test_a_fifth_card_may_be_bought_in_house_but_not_past_buy_max_cards() -> None:
    """house: 2C 3D, stake 1, buy 1 (4H: 9), buy 1 (5S: 14): four cards, never
    twisted; a fifth card may be bought [chosen, docs/rules.md] for exactly
    the original 1 (at least the original, at most the previous 1); 14 may
    not stick.  With buy_max_cards 3 the fifth card is a twist only."""
    s = banked("house", ["2C", "TH"], {"Ann": 1}, ["3D", "7H"])
    say(s, "Ann", "buy", 1)
    deal(s, "4H")
    say(s, "Ann", "buy", 1)
    deal(s, "5S")
    assert legal_actions(s) == [word("Ann", "twist"), word("Ann", "buy", 1, 1), VOID]
    s = banked("house", ["2C", "TH"], {"Ann": 1}, ["3D", "7H"], buy_max_cards=3)
    say(s, "Ann", "buy", 1)
    deal(s, "4H")
    assert legal_actions(s) == [word("Ann", "twist"), word("Ann", "buy", 1, 1), VOID]
    say(s, "Ann", "buy", 1)
    deal(s, "5S")
    assert legal_actions(s) == [word("Ann", "twist"), VOID]


def test_two_players_at_the_same_point_each_get_their_own_buttons() -> None:
    """house, Ann and Bob, Dan banks; both hold 13 with stake 2: each is
    offered twist and buy 2..4 under their own name."""
    s = banked(
        "house", ["8C", "9C", "TD"], {"Ann": 2, "Bob": 2}, ["5D", "4D", "7D"],
        players=("Ann", "Bob", "Dan"),
    )
    assert legal_actions(s) == [word("Ann", "twist"), word("Ann", "buy", 2, 4), VOID]
    say(s, "Ann", "twist")
    deal(s, "KS")  # 23: bust
    assert pending(s) == DecisionNeed("Bob", 1, ("twist", "buy"))
    assert legal_actions(s) == [word("Bob", "twist"), word("Bob", "buy", 2, 4), VOID]


def test_split_hands_are_numbered_in_play_order_with_a_limit() -> None:
    """house, max_hands_per_seat 2: Ann 8C 8D (stake 1) splits; one card to
    hand 1 (8H), then to hand 2 (5C).  Hand 1, 8C 8H, is a pair again but a
    third hand is over the limit: stick, twist, buy 1..2.  Hand 2 (8D 5C, 13)
    is played next as hand 2."""
    s = banked("house", ["8C", "TH"], {"Ann": 1}, ["8D", "7H"], max_hands_per_seat=2)
    say(s, "Ann", "split")
    assert pending(s) == CardNeed("Ann", 1, False, False, "deal")
    deal(s, "8H")
    assert pending(s) == CardNeed("Ann", 2, False, False, "deal")
    deal(s, "5C")
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "buy", 1, 2), VOID,
    ]
    say(s, "Ann", "stick")
    assert pending(s) == DecisionNeed("Ann", 2, ("twist", "buy"))


def test_split_aces_only_when_the_table_says_so() -> None:
    """traditional with split_aces_only (§3): 8C 8D may not split, AC AD may
    (AC AD is soft 12: no stick; buy 1..2)."""
    s = banked("traditional", ["8C", "TH"], {"Ann": 1}, ["8D", "7H"], split_aces_only=True)
    assert pending(s) == DecisionNeed("Ann", 1, ("stick", "twist", "buy"))
    s = banked("traditional", ["AC", "TH"], {"Ann": 1}, ["AD", "7H"], split_aces_only=True)
    assert legal_actions(s) == [
        word("Ann", "twist"), word("Ann", "buy", 1, 2), word("Ann", "split"), VOID,
    ]


# ------------------------------------------------------------ casino: double once, split by value
def test_casino_double_once_for_the_original_bet() -> None:
    """casino, Ann stakes 10: 5C 6D = 11 against the dealer's two face-down
    cards (§5): no stand under 15, twist, double for exactly 10, no split
    (values 5, 6).  After the double (9C: 20): stand or twist, no second
    double."""
    s = dealt("casino", {"Ann": 10}, ["5C", "9H", "6D", "7S"])
    assert pending(s) == DecisionNeed("Ann", 1, ("twist", "double"))
    assert legal_actions(s) == [word("Ann", "twist"), word("Ann", "double", 10, 10), VOID]
    say(s, "Ann", "double")
    assert pending(s) == CardNeed("Ann", 1, False, False, "deal")
    deal(s, "9C")
    assert legal_actions(s) == [word("Ann", "stick"), word("Ann", "twist"), VOID]


def test_casino_splits_by_value_and_doubles_after_a_twist() -> None:
    """KC QD: equal values split in casino (§5): stand (20), twist, double 10,
    split.  2C 3D twist 4H (9, three cards) then 2D (11, four): the casino
    doubles while holding four cards or fewer, twisted or not."""
    s = dealt("casino", {"Ann": 10}, ["KC", "9H", "QD", "7S"])
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "double", 10, 10),
        word("Ann", "split"), VOID,
    ]
    s = dealt("casino", {"Ann": 10}, ["2C", "9H", "3D", "7S"])
    say(s, "Ann", "twist")
    deal(s, "4H")
    assert legal_actions(s) == [word("Ann", "twist"), word("Ann", "double", 10, 10), VOID]
    say(s, "Ann", "twist")
    deal(s, "2D")
    assert legal_actions(s) == [word("Ann", "twist"), word("Ann", "double", 10, 10), VOID]


def test_the_dealer_cards_are_named_in_order() -> None:
    """casino: stakes first, then a card to Ann, one face down to the dealer,
    Ann's second, the dealer's second face down (§5)."""
    s = new_game(PRESETS["casino"], ["Ann"], seed=1)
    apply(s, StartDeal())
    apply(s, PlaceStake("Ann", 10))
    assert pending(s) == CardNeed("Ann", 1, False, False, "deal")
    deal(s, "5C")
    assert pending(s) == CardNeed("house", 0, False, True, "deal")
    deal(s, "9H", "6D")
    assert pending(s) == CardNeed("house", 0, False, True, "deal")


# ------------------------------------------------------------ ponton: buy, insurance, even money
def test_ponton_pair_against_an_ace_may_insure_for_half_the_stake() -> None:
    """ponton, stake 10: 7C 7D = 14 against the dealer's AC (§6): no stick
    minimum; twist; buy exactly the original 10; split (same rank); insurance
    exactly half the stake, 5, in halves; even money needs a pontoon."""
    s = dealt("ponton", {"Ann": 10}, ["7C", "AC", "7D"])
    assert pending(s) == DecisionNeed("Ann", 1, ("stick", "twist", "buy", "split", "insurance"))
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "buy", 10, 10),
        word("Ann", "split"), word("Ann", "insurance", 5, 5, halves=True), VOID,
    ]
    # insured: no second insurance
    say(s, "Ann", "insurance", 5)
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "buy", 10, 10),
        word("Ann", "split"), VOID,
    ]


def test_ponton_insurance_on_an_odd_stake_is_a_half_unit() -> None:
    """stake 5: insurance exactly half, 2.5 (docs/rules.md)."""
    s = dealt("ponton", {"Ann": 5}, ["7C", "AC", "7D"])
    assert legal_actions(s)[4] == word("Ann", "insurance", Fraction(5, 2), Fraction(5, 2), True)


def test_ponton_no_insurance_without_the_dealers_ace_nor_after_a_card() -> None:
    """The dealer shows 9C: no insurance.  Against AC, after a twist (2H, 16,
    three cards), insurance is over (before taking any card, §6)."""
    s = dealt("ponton", {"Ann": 10}, ["7C", "9C", "7D"])
    assert pending(s) == DecisionNeed("Ann", 1, ("stick", "twist", "buy", "split"))
    s = dealt("ponton", {"Ann": 10}, ["7C", "AC", "7D"])
    say(s, "Ann", "twist")
    deal(s, "2H")
    assert legal_actions(s) == [word("Ann", "stick"), word("Ann", "twist"), VOID]


def test_ponton_pontoon_against_an_ace_may_take_even_money_or_play_on() -> None:
    """AS KD against AC: even money instead of insurance (§6); ``stick`` is
    the word that plays on (docs/rules.md); nothing else at 21."""
    s = dealt("ponton", {"Ann": 10}, ["AS", "AC", "KD"])
    assert pending(s) == DecisionNeed("Ann", 1, ("stick", "even-money"))
    assert legal_actions(s) == [word("Ann", "stick"), word("Ann", "even-money"), VOID]


def test_ponton_buys_the_third_and_fourth_cards_only() -> None:
    """2C 3D against 9C, stake 10: buy (4H, 9: three cards), buy again (5S,
    14: four cards) -- the 3rd and 4th cards may be bought, a 5th is always a
    twist (§6)."""
    s = dealt("ponton", {"Ann": 10}, ["2C", "9C", "3D"])
    say(s, "Ann", "buy")
    deal(s, "4H")
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "buy", 10, 10), VOID,
    ]
    say(s, "Ann", "buy")
    deal(s, "5S")
    assert legal_actions(s) == [word("Ann", "stick"), word("Ann", "twist"), VOID]


def test_ponton_split_is_unlimited_but_aces_split_once() -> None:
    """ponton splits as often as wanted (max_hands_per_seat unlimited); with
    split_aces_one_card off, AS AD split gives AS AH, which may not split
    again (aces only once, §6)."""
    s = dealt("ponton", {"Ann": 10}, ["7C", "9C", "7D"])
    say(s, "Ann", "split")
    deal(s, "7H", "2C")  # hand 1: 7C 7H, a pair again
    assert "split" in pending(s).words  # type: ignore[union-attr]
    s = dealt("ponton", {"Ann": 10}, ["AS", "9C", "AD"], split_aces_one_card=False)
    assert "split" in pending(s).words  # type: ignore[union-attr]
    say(s, "Ann", "split")
    deal(s, "AH", "2C")  # hand 1: AS AH, soft 12
    assert pending(s) == DecisionNeed("Ann", 1, ("stick", "twist", "buy"))


# ------------------------------------------------------------ shoot: the kitty's room
def test_shoot_bets_fit_the_kitty_and_a_bust_hands_bet_makes_room() -> None:
    """shoot, kitty 10, Ann and Bob stake 2, Dan banks (§4).

    Before the second card Ann may shoot 0..10; she shoots 4, leaving Bob
    0..6.  Ann 8C 5D = 13: two cards, no shoot; twist 2H (15): a shoot bet
    before the fourth card, up to 10 - 4 = 6.  She shoots 2: she must now
    take the fourth card (no stick), twist only.  KS: 25, bust; her 4 + 2
    go into the kitty (16).  Bob 9C 4D = 13, twist 2S (15): he may shoot up to
    the whole 16 (no open bets left).
    """
    s = new_game(PRESETS["shoot"], ["Ann", "Bob", "Dan"], banker="Dan", seed=1)
    apply(s, PutKitty(10))
    apply(s, StartDeal())
    deal(s, "8C", "9C", "TD")
    apply(s, PlaceStake("Ann", 2))
    apply(s, PlaceStake("Bob", 2))
    assert pending(s) == ShootNeed("Ann", 10)
    assert legal_actions(s) == [LegalAction(PlaceShoot, "Ann", None, 0, 10), VOID]
    apply(s, PlaceShoot("Ann", 4))
    assert pending(s) == ShootNeed("Bob", 6)
    assert legal_actions(s) == [LegalAction(PlaceShoot, "Bob", None, 0, 6), VOID]
    apply(s, PlaceShoot("Bob", 0))
    deal(s, "5D", "4D", "7D")
    assert legal_actions(s) == [word("Ann", "twist"), word("Ann", "buy", 2, 4), VOID]
    say(s, "Ann", "twist")
    deal(s, "2H")
    assert pending(s) == DecisionNeed("Ann", 1, ("stick", "twist", "shoot"))
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "shoot", 1, 6), VOID,
    ]
    say(s, "Ann", "shoot", 2)
    assert legal_actions(s) == [word("Ann", "twist"), VOID]
    say(s, "Ann", "twist")
    deal(s, "KS")
    assert s.kitty_units == 16
    say(s, "Bob", "twist")
    deal(s, "2S")
    assert legal_actions(s) == [
        word("Bob", "stick"), word("Bob", "twist"), word("Bob", "shoot", 1, 16), VOID,
    ]


def test_shoot_needs_room_of_one_unit_in_the_kitty() -> None:
    """kitty 1 (the minimum): with no shoot bet yet, Ann at three cards may
    shoot exactly 1; when she shot the 1 before her second card, the kitty
    has no room: no shoot."""
    s = banked("shoot", ["8C", "TD"], {"Ann": 2}, ["5D", "7D"], kitty=1, shoots={"Ann": 0})
    say(s, "Ann", "twist")
    deal(s, "2H")
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "shoot", 1, 1), VOID,
    ]
    s = banked("shoot", ["8C", "TD"], {"Ann": 2}, ["5D", "7D"], kitty=1, shoots={"Ann": 1})
    say(s, "Ann", "twist")
    deal(s, "2H")
    assert legal_actions(s) == [word("Ann", "stick"), word("Ann", "twist"), VOID]


def test_a_new_split_hand_may_shoot_first_and_again_before_its_fourth_card() -> None:
    """shoot, kitty 10, Ann stakes 2 and shoots 3; 8C 8D, split: hand 1 8C 2C,
    hand 2 8D 3C.  The shoot bet stays with hand 1, which (two cards, not a
    new hand) may not shoot: twist, buy 2..4.  Hand 2, new, may shoot first,
    up to 10 - 3 = 7; after shooting 2 it may not shoot again at two cards;
    twist 4C (15, three cards): before the fourth card, up to 10 - 5 = 5."""
    s = banked("shoot", ["8C", "TD"], {"Ann": 2}, ["8D", "7D"], kitty=10, shoots={"Ann": 3})
    assert pending(s) == DecisionNeed("Ann", 1, ("stick", "twist", "buy", "split"))
    say(s, "Ann", "split")
    deal(s, "2C", "3C")
    assert legal_actions(s) == [word("Ann", "twist"), word("Ann", "buy", 2, 4), VOID]
    say(s, "Ann", "twist")
    deal(s, "9S")  # 19
    say(s, "Ann", "stick")
    assert pending(s) == DecisionNeed("Ann", 2, ("twist", "buy", "shoot"))
    assert legal_actions(s) == [
        word("Ann", "twist"), word("Ann", "buy", 2, 4), word("Ann", "shoot", 1, 7), VOID,
    ]
    say(s, "Ann", "shoot", 2)
    assert legal_actions(s) == [word("Ann", "twist"), word("Ann", "buy", 2, 4), VOID]
    say(s, "Ann", "twist")
    deal(s, "4C")
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "shoot", 1, 5), VOID,
    ]


def test_a_split_hand_that_splits_again_has_had_its_first_word() -> None:
    """shoot, kitty 10, no shoot bet: 8C 8D split, hand 1 8C 2C, hand 2 8D 8H.
    Hand 1 twists 9S (19) and sticks.  Hand 2, a new pair, may shoot 1..10
    first; it splits instead (8D 3C, hand 3 8H 4C): its split was its first
    word, so at two cards it may no longer shoot; hand 3 may."""
    s = banked("shoot", ["8C", "TD"], {"Ann": 2}, ["8D", "7D"], kitty=10, shoots={"Ann": 0})
    say(s, "Ann", "split")
    deal(s, "2C", "8H")
    say(s, "Ann", "twist")
    deal(s, "9S")
    say(s, "Ann", "stick")
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "buy", 2, 4), word("Ann", "split"),
        word("Ann", "shoot", 1, 10), VOID,
    ]
    say(s, "Ann", "split")
    deal(s, "3C", "4C")
    assert pending(s) == DecisionNeed("Ann", 2, ("twist", "buy"))
    say(s, "Ann", "twist")
    deal(s, "9D")  # hand 2: 8D 3C 9D = 20
    say(s, "Ann", "stick")
    assert pending(s) == DecisionNeed("Ann", 3, ("twist", "buy", "shoot"))


# ------------------------------------------------------------ between deals, the cut, the end
def test_the_kitty_comes_first_then_the_deal_a_sale_or_more_kitty() -> None:
    """shoot, Dan banks: before a kitty, put one up (1..10, the stakes'
    limits) or sell the bank to Ann or Bob (any price from 0); with a kitty:
    start, stack cards, add to the kitty (at least 1), or sell (§4)."""
    s = new_game(PRESETS["shoot"], ["Ann", "Bob", "Dan"], banker="Dan", seed=1)
    assert pending(s) == KittyNeed("Dan", 1, 10, True)
    sale = LegalAction(SellBank, minimum=0, maximum=None, names=("Ann", "Bob"))
    assert legal_actions(s) == [LegalAction(PutKitty, minimum=1, maximum=10), sale]
    apply(s, PutKitty(5))
    assert pending(s) == BetweenDeals("Dan", 1, True, True)
    assert legal_actions(s) == [
        START, STACK, LegalAction(PutKitty, minimum=1, maximum=None), sale,
    ]


def test_house_between_deals_and_the_stakes() -> None:
    """house (no sale, no kitty): start or stack.  Then the first card round,
    Ann (1) and the banker Dan (0, face down), and Ann's stake, 1..5."""
    s = new_game(PRESETS["house"], ["Ann", "Dan"], banker="Dan", seed=1)
    assert pending(s) == BetweenDeals("Dan", 1, False, False)
    assert legal_actions(s) == [START, STACK]
    apply(s, StartDeal())
    assert pending(s) == CardNeed("Ann", 1, False, False, "deal")
    assert legal_actions(s) == [cards_left(), VOID]
    deal(s, "TC")
    assert pending(s) == CardNeed("Dan", 0, False, True, "deal")
    assert legal_actions(s) == [cards_left("TC"), VOID]
    deal(s, "9H")
    assert pending(s) == StakeNeed("Ann", 1, 5, ("Ann",))
    assert legal_actions(s) == [LegalAction(PlaceStake, "Ann", None, 1, 5), VOID]


def test_stakes_are_waited_for_from_everyone_and_follow_the_limits() -> None:
    """traditional (1..10), Ann and Bob, Dan banks: either may stake first;
    when Bob has, only Ann is waited for.  The same table under house
    limits (1..5) offers 1..5."""
    s = new_game(PRESETS["traditional"], ["Ann", "Bob", "Dan"], banker="Dan", seed=1)
    apply(s, StartDeal())
    deal(s, "TC", "9C", "8C")
    assert pending(s) == StakeNeed("Ann", 1, 10, ("Ann", "Bob"))
    assert legal_actions(s) == [
        LegalAction(PlaceStake, "Ann", None, 1, 10), LegalAction(PlaceStake, "Bob", None, 1, 10),
        VOID,
    ]
    apply(s, PlaceStake("Bob", 3))
    assert pending(s) == StakeNeed("Ann", 1, 10, ("Ann",))
    assert legal_actions(s) == [LegalAction(PlaceStake, "Ann", None, 1, 10), VOID]
    s = new_game(PRESETS["house"], ["Ann", "Bob", "Dan"], banker="Dan", seed=1)
    apply(s, StartDeal())
    deal(s, "TC", "9C", "8C")
    apply(s, PlaceStake("Bob", 3))
    assert pending(s) == StakeNeed("Ann", 1, 5, ("Ann",))
    assert legal_actions(s) == [LegalAction(PlaceStake, "Ann", None, 1, 5), VOID]


def test_the_cut_deals_cards_and_allows_stacking_only_before_it_begins() -> None:
    """No banker: the cut, one face-up card each in seating order (§1, §2).
    Cards may be stacked on the pack before the cut's first card, not after
    (``apply`` refuses it there).  Ann 5C, Dan 5D tie: they cut again, and
    stacking is allowed again before the new round.  Ann KC, Dan 2C: Ann
    banks; the next deal is the first."""
    s = new_game(PRESETS["house"], ["Ann", "Dan"], seed=1)
    assert pending(s) == CardNeed("Ann", 0, True, False, "cut")
    assert legal_actions(s) == [cards_left(), STACK]
    deal(s, "5C")
    assert pending(s) == CardNeed("Dan", 0, True, False, "cut")
    assert legal_actions(s) == [cards_left("5C")]
    deal(s, "5D")
    assert pending(s) == CardNeed("Ann", 0, True, False, "cut")
    assert legal_actions(s) == [cards_left("5C", "5D"), STACK]
    deal(s, "KC", "2C")
    assert pending(s) == BetweenDeals("Ann", 1, False, False)


def test_a_game_over_allows_nothing() -> None:
    """house with one counted deal: Ann TC 8C (18) sticks, Dan 9H 8H (17)
    stays: Ann wins her stake 2 and the game is over (§2.7); Ann is the
    winner, and nothing is legal."""
    s = banked("house", ["TC", "9H"], {"Ann": 2}, ["8C", "8H"], counted_deals=1)
    say(s, "Ann", "stick")
    apply(s, BankDecide("stay"))
    assert s.balances_units() == {"Ann": 2, "Dan": -2}
    assert pending(s) == GameOver(("Ann",))
    assert legal_actions(s) == []


def test_the_second_deal_is_numbered_two() -> None:
    """After one deal (Ann 18 against 17: +2) the table waits for deal 2."""
    s = banked("traditional", ["TC", "9H"], {"Ann": 2}, ["8C", "8H"])
    say(s, "Ann", "stick")
    apply(s, BankDecide("stay"))
    assert pending(s) == BetweenDeals("Dan", 2, True, False)
    sale = LegalAction(SellBank, minimum=0, maximum=None, names=("Ann",))
    assert legal_actions(s) == [START, STACK, sale]


def test_a_house_dealer_table_between_deals() -> None:
    """casino: the house deals every round; no sale, no kitty."""
    s = new_game(load_ruleset("casino"), ["Ann"], seed=1)
    assert pending(s) == BetweenDeals("house", 1, False, False)
    assert legal_actions(s) == [START, STACK]


# ------------------------------------------------------------ ponton: when even money waits
def test_a_pontoon_against_a_non_ace_stands_by_itself() -> None:
    """ponton, AS KD against 9C: no even money (the dealer's card is no ace),
    so the pontoon stops by itself (§1) and the dealer plays at once: a card
    for the house, face up.  9C 8D = 17 stops; the pontoon pays 2:1 (§6):
    Ann +20."""
    s = dealt("ponton", {"Ann": 10}, ["AS", "9C", "KD"])
    assert pending(s) == CardNeed("house", 0, True, True, "deal")
    deal(s, "8D")
    assert s.balances_units() == {"Ann": 20, "house": -20}


def test_split_hands_may_not_insure_and_a_split_pontoon_may_take_even_money() -> None:
    """ponton, stake 10, KC KD against AC; split (no insurance: it comes
    before any other word, docs/rules.md): hand 1 KC 9S = 19 has no
    insurance; hand 2 KD AH is a pontoon on a split hand facing the ace: even
    money or play on (§6)."""
    s = dealt("ponton", {"Ann": 10}, ["KC", "AC", "KD"])
    say(s, "Ann", "split")
    deal(s, "9S", "AH")
    assert pending(s) == DecisionNeed("Ann", 1, ("stick", "twist", "buy"))
    say(s, "Ann", "stick")
    assert pending(s) == DecisionNeed("Ann", 2, ("stick", "even-money"))


def test_a_split_hand_two_is_not_offered_insurance() -> None:
    """ponton, 7C 7D against AC, split: hand 1 7C 2C, hand 2 7D 3C.  Neither
    hand may insure (insurance only before any other word, on the seat's
    one hand)."""
    s = dealt("ponton", {"Ann": 10}, ["7C", "AC", "7D"])
    say(s, "Ann", "split")
    deal(s, "2C", "3C")
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "buy", 10, 10), VOID,
    ]
    say(s, "Ann", "stick")
    assert legal_actions(s) == [
        word("Ann", "stick"), word("Ann", "twist"), word("Ann", "buy", 10, 10), VOID,
    ]


def test_an_insured_first_hand_that_becomes_a_pontoon_takes_no_even_money() -> None:
    """ponton, KC KD against AC: insurance 5, then split: hand 1 KC AH is a
    pontoon, but the insured hand cannot also take even money (§6): it stops
    by itself, and hand 2 (KD 9S) is played."""
    s = dealt("ponton", {"Ann": 10}, ["KC", "AC", "KD"])
    say(s, "Ann", "insurance", 5)
    say(s, "Ann", "split")
    deal(s, "AH", "9S")
    assert pending(s) == DecisionNeed("Ann", 2, ("stick", "twist", "buy"))


def test_split_aces_take_one_card_each_in_ponton() -> None:
    """ponton, AS AD against 9C, split: each split ace gets one card only
    (§6): AS 5C and AD 6C both stop, and the dealer plays."""
    s = dealt("ponton", {"Ann": 10}, ["AS", "9C", "AD"])
    say(s, "Ann", "split")
    deal(s, "5C", "6C")
    assert pending(s) == CardNeed("house", 0, True, True, "deal")


# ------------------------------------------------------------ made once, shared (docs/rules.md)
def _same_objects(a: list[LegalAction], b: list[LegalAction]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def test_each_answer_is_worked_out_once_per_state_version() -> None:
    """docs/rules.md: ``pending`` and ``legal_actions`` are worked out once per
    state version (cached on the state) and a decision's words and ranges
    once, shared by both: asked twice, the very same objects come back.  At
    every kind of need: kitty, between deals, a card, a stake, a shoot bet,
    a decision, the bank, the end."""
    from controller.rules.pending import decision_ranges

    s = new_game(PRESETS["shoot"], ["Ann", "Dan"], banker="Dan", seed=1)
    seen = []

    def check() -> None:
        need = pending(s)
        assert pending(s) is need
        assert _same_objects(legal_actions(s), legal_actions(s))
        seen.append(type(need).__name__)

    check()  # KittyNeed
    apply(s, PutKitty(5))
    check()  # BetweenDeals
    apply(s, StartDeal())
    check()  # CardNeed
    deal(s, "8C", "TD")
    check()  # StakeNeed
    apply(s, PlaceStake("Ann", 2))
    check()  # ShootNeed
    apply(s, PlaceShoot("Ann", 0))
    deal(s, "8D", "7D")
    check()  # DecisionNeed
    assert decision_ranges(s) is decision_ranges(s)
    say(s, "Ann", "stick")
    check()  # BankNeed
    assert seen == [
        "KittyNeed", "BetweenDeals", "CardNeed", "StakeNeed", "ShootNeed", "DecisionNeed",
        "BankNeed",
    ]
    over = banked("house", ["TC", "9H"], {"Ann": 2}, ["8C", "8H"], counted_deals=1)
    say(over, "Ann", "stick")
    apply(over, BankDecide("stay"))
    assert pending(over) is pending(over)


def test_needs_and_families_are_made_once_and_shared_between_states() -> None:
    """docs/rules.md: needs and families are immutable values made once and
    shared between states: two tables at the same point get the very same
    objects (the cut card, the first card, the stake, the decision, the
    bank)."""
    a = new_game(PRESETS["house"], ["Ann", "Dan"], seed=1)
    b = new_game(PRESETS["house"], ["Ann", "Dan"], seed=2)
    assert pending(a) is pending(b)  # the cut card for Ann
    assert _same_objects(legal_actions(a), legal_actions(b))
    for s in (a, b):
        deal(s, "KC", "2C")  # Ann banks
        apply(s, StartDeal())
    assert pending(a) is pending(b)  # a card for Dan
    assert _same_objects(legal_actions(a), legal_actions(b))
    for s in (a, b):
        deal(s, "TC", "9H")
    assert pending(a) is pending(b)  # Dan's stake
    assert _same_objects(legal_actions(a), legal_actions(b))
    for s in (a, b):
        apply(s, PlaceStake("Dan", 2))
        deal(s, "4C", "8H")
    assert pending(a) is pending(b)  # Dan's decision at 14
    assert _same_objects(legal_actions(a), legal_actions(b))
    for s in (a, b):
        say(s, "Dan", "twist")
        deal(s, "5C")
        say(s, "Dan", "stick")  # 19
    assert pending(a) is pending(b) == BankNeed("Ann", ("draw", "stay"))
    assert _same_objects(legal_actions(a), legal_actions(b))


def test_the_bank_is_named_for_each_banker() -> None:
    """Two tables at the banker's turn, Dan banking at one and Ann at the
    other: each need names its own banker."""
    a = banked("house", ["TC", "9H"], {"Ann": 2}, ["8C", "8H"])
    b = banked("house", ["TC", "9H"], {"Dan": 2}, ["8C", "8H"], players=("Dan", "Ann"))
    say(a, "Ann", "stick")
    say(b, "Dan", "stick")
    assert (pending(a), pending(b)) == (
        BankNeed("Dan", ("draw", "stay")), BankNeed("Ann", ("draw", "stay")),
    )


def test_without_even_money_a_pontoon_facing_the_ace_does_not_wait() -> None:
    """ponton with even_money off (docs/rules.md: a pontoon facing the ace
    does not wait and cannot insure): AS KD against AC stops by itself and
    the dealer plays."""
    s = dealt("ponton", {"Ann": 10}, ["AS", "AC", "KD"], even_money=False)
    assert pending(s) == CardNeed("house", 0, True, True, "deal")


def test_the_seats_insurance_is_the_first_hands_so_a_second_hand_takes_even_money() -> None:
    """ponton, KC KD against AC: insurance 5 (it belongs to hand 1, docs/rules.md),
    split: hand 1 KC 9S, hand 2 KD AH, a pontoon, which may take even money
    (§6: every pontoon hand, split included)."""
    s = dealt("ponton", {"Ann": 10}, ["KC", "AC", "KD"])
    say(s, "Ann", "insurance", 5)
    say(s, "Ann", "split")
    deal(s, "9S", "AH")
    say(s, "Ann", "stick")
    assert pending(s) == DecisionNeed("Ann", 2, ("stick", "even-money"))
