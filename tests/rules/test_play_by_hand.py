"""Each action's handler (``apply``, ``controller/rules/play.py``) worked out by
hand from RULES.md and SCENARIO.md: what it accepts, what it changes, and the
exact sentence of each refusal, for the points the mutation run of the
`rules-play` batch (docs/testing.md, docs/mutation/rules-play.md) found no
test pinning.

A refusal is a sentence a dealer reads (RULES.md §7 "refused with a clear
message"; docs/rules.md, ``IllegalAction``): "<who> <reason>" when it names a
player, else the reason with a capital letter.  A refusal changes nothing.

Every expected value is derived in the docstring or comment beside it, never
printed by the engine and pasted back.  The table is Ann, Bob and Dan with
Dan banking unless said otherwise, so the seats run Ann, Bob from the
banker's left (RULES.md §2.1).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from controller.rules import (
    PRESETS,
    Action,
    BankDecide,
    BankNeed,
    BetweenDeals,
    Card,
    CardNeed,
    DealCard,
    Decide,
    DecisionNeed,
    GameState,
    IllegalAction,
    KittyNeed,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    SellBank,
    ShootNeed,
    StackTop,
    StakeNeed,
    StartDeal,
    VoidDeal,
    apply,
    load_ruleset,
    new_game,
    pending,
)

PLAYERS = ["Ann", "Bob", "Dan"]


def _game(preset: str, options: dict[str, Any] | None = None, **kw: Any) -> GameState:
    rules = load_ruleset(preset, options or {})
    return new_game(rules, kw.pop("players", PLAYERS), banker=kw.pop("banker", "Dan"), seed=7)


def _refused(state: GameState, action: Action) -> IllegalAction:
    saved = state.to_json()
    with pytest.raises(IllegalAction) as refused:
        apply(state, action)
    assert state.to_json() == saved  # a refusal changes nothing
    return refused.value


def _says(state: GameState, action: Action, sentence: str, player: str | None) -> None:
    refusal = _refused(state, action)
    assert (str(refusal), refusal.player) == (sentence, player)


def _stack(state: GameState, cards: str) -> None:
    apply(state, StackTop(tuple(Card.parse(c) for c in cards.split())))


def _deal_while_due(state: GameState) -> None:
    """Deal from the top of the pack while the table waits for a card."""
    while isinstance(pending(state), CardNeed):
        apply(state, DealCard(state.pack.peek()))


def _any(value: object) -> Any:
    """A value of the wrong type, as a journal or a panel might send it."""
    return value


# ---------------------------------------- the kitty (§4)
def test_a_table_without_shoot_bets_has_no_kitty() -> None:
    """traditional has no kitty (RULES.md §7, shoot_bets only in shoot): a
    kitty is refused naming no one."""
    state = _game("traditional")
    _says(state, PutKitty(5), "There is no kitty at this table", None)


@pytest.mark.parametrize(
    ("amount", "sentence"),
    [
        (0, "Dan cannot put up 0: a kitty is 4 to 8"),
        (2, "Dan cannot put up 2: a kitty is 4 to 8"),  # half the minimum
        (3, "Dan cannot put up 3: a kitty is 4 to 8"),
        (9, "Dan cannot put up 9: a kitty is 4 to 8"),
        (12, "Dan cannot put up 12: a kitty is 4 to 8"),
        (-4, "Dan cannot put up -4: a kitty is 4 to 8"),
        (_any("5"), "Dan must give a number for the kitty"),
        (Fraction(9, 2), "Dan must give whole units for the kitty"),
    ],
)
def test_a_new_kitty_is_between_the_minimum_and_maximum_stake(amount: Any, sentence: str) -> None:
    """shoot with stakes 4 to 8: "the banker puts up a kitty, an amount between
    the minimum and maximum stake" (§4), whole units (docs/rules.md)."""
    state = _game("shoot", {"min_stake": 4, "max_stake": 8})
    _says(state, PutKitty(amount), sentence, "Dan")
    assert isinstance(pending(state), KittyNeed)


@pytest.mark.parametrize("amount", [4, 6, 8])
def test_a_new_kitty_at_either_limit_is_put_up(amount: int) -> None:
    """4 and 8 are the limits themselves, so they are allowed; with the kitty
    up the table waits for the next deal, no longer for a kitty."""
    state = _game("shoot", {"min_stake": 4, "max_stake": 8})
    apply(state, PutKitty(amount))
    assert state.kitty_units == amount
    assert pending(state) == BetweenDeals("Dan", 1, True, True)


def test_between_deals_the_banker_adds_at_least_1_to_the_kitty() -> None:
    """ "Between deals the banker may add to the kitty" (§4): any whole amount
    of 1 or more (docs/rules.md, Kitty).  Kitty 5, add 1: 6; add 10 (more
    than the maximum stake is fine for an addition): 16.  Adding 0 or less
    is refused."""
    state = _game("shoot")
    apply(state, PutKitty(5))
    apply(state, PutKitty(1))
    assert state.kitty_units == 6
    apply(state, PutKitty(10))
    assert state.kitty_units == 16
    for amount in (0, -1):
        _says(state, PutKitty(amount), "Dan must add at least 1 to the kitty", "Dan")
    _says(state, PutKitty(Fraction(1, 2)), "Dan must give whole units for the kitty", "Dan")
    assert state.balances_units() == {"Ann": 0, "Bob": 0, "Dan": 0}  # the kitty moves no balance


def test_a_kitty_during_a_deal_is_refused() -> None:
    """The kitty is put up or added to between deals only (§4); the deal's
    first card is due to Ann."""
    state = _game("shoot")
    apply(state, PutKitty(5))
    apply(state, StartDeal())
    _says(
        state,
        PutKitty(1),
        "Dan cannot put up a kitty now: the table waits for a card for Ann",
        "Dan",
    )


def test_no_deal_before_the_kitty() -> None:
    """ "A new banker must put up a kitty before their first deal" (§4)."""
    state = _game("shoot")
    _says(state, StartDeal(), "Dan must put up a kitty before the deal", None)


# ---------------------------------------- selling the bank (§3)
def test_the_bank_is_not_for_sale_at_a_house_table() -> None:
    """house: "Not part of house: selling the bank" (§2.8)."""
    state = _game("house")
    _says(state, SellBank("Ann", 3), "The bank cannot be sold at this table", None)


@pytest.mark.parametrize(
    ("action", "sentence"),
    [
        (SellBank("Zed", 3), "Dan cannot sell the bank to Zed: not at the table"),
        (SellBank("Dan", 3), "Dan cannot sell the bank to themselves"),
        (SellBank("Ann", -1), "Dan cannot sell the bank for a negative price"),
        (SellBank("Ann", _any("3")), "Dan must give a number for the price"),
        (SellBank("Ann", Fraction(5, 2)), "Dan must give whole units for the price"),
    ],
)
def test_a_sale_the_rules_do_not_allow_is_refused(action: SellBank, sentence: str) -> None:
    """traditional: the banker sells "to another player for an agreed price,
    paid buyer to seller" (§3), a whole number of units (docs/rules.md)."""
    state = _game("traditional")
    _says(state, action, sentence, "Dan")


def test_a_sale_moves_the_price_and_the_bank() -> None:
    """traditional: Dan sells to Ann for 3, "paid buyer to seller; the buyer
    banks next" (§3): Ann -3, Dan +3, Bob untouched, Ann banks.  The next
    deal's entry names the sale, {"from": "Dan", "to": "Ann", "price": 3}
    (SCENARIO.md, Output), the price not in its net; the deal after that has
    no sale."""
    state = _game("traditional")
    apply(state, SellBank("Ann", 3))
    assert state.balances_units() == {"Ann": -3, "Bob": 0, "Dan": 3}
    assert state.banker == "Ann"
    assert pending(state) == BetweenDeals("Ann", 1, True, False)
    # Ann banks: the seats run Bob, Dan.  Bob 9C, Dan 8C, Ann 7C; stakes 2;
    # Bob TC (19), Dan TD (18), Ann TH (17).  Both stick, Ann stays on 17:
    # Bob +2, Dan +2, Ann -4.
    _stack(state, "9C 8C 7C TC TD TH")
    apply(state, StartDeal())
    _deal_while_due(state)
    apply(state, PlaceStake("Bob", 2))
    apply(state, PlaceStake("Dan", 2))
    _deal_while_due(state)
    apply(state, Decide("Bob", "stick"))
    apply(state, Decide("Dan", "stick"))
    apply(state, BankDecide("stay"))
    entry = state.results[-1]
    assert entry["banker"] == "Ann"
    assert entry["sale"] == {"from": "Dan", "to": "Ann", "price": 3}
    assert entry["net"] == {"Ann": -4, "Bob": 2, "Dan": 2}
    assert state.balances_units() == {"Ann": -7, "Bob": 2, "Dan": 5}
    apply(state, StartDeal())
    apply(state, VoidDeal())
    assert "sale" not in state.results[-1]


def test_the_bank_may_be_given_away_for_nothing() -> None:
    """A price of 0 is not negative: the bank passes, no balance moves."""
    state = _game("traditional")
    apply(state, SellBank("Bob", 0))
    assert state.banker == "Bob"
    assert state.balances_units() == {"Ann": 0, "Bob": 0, "Dan": 0}


def test_a_shoot_bank_sold_leaves_the_buyer_to_put_up_a_kitty() -> None:
    """shoot: Dan puts up 5 and sells to Ann for 2.  "When the bank changes
    hands, the old banker takes the kitty's contents and the new banker puts
    up a new kitty" (§4); the kitty moves no balance (docs/rules.md), so
    Ann -2, Dan +2, the kitty is 0 and the table waits for Ann's kitty (1 to
    10, the stakes of shoot; she may sell on)."""
    state = _game("shoot")
    apply(state, PutKitty(5))
    apply(state, SellBank("Ann", 2))
    assert state.balances_units() == {"Ann": -2, "Bob": 0, "Dan": 2}
    assert state.kitty_units == 0
    assert pending(state) == KittyNeed("Ann", 1, 10, True)
    _says(state, StartDeal(), "Ann must put up a kitty before the deal", None)


def test_a_banker_who_owes_a_kitty_may_sell_instead() -> None:
    """ "When the kitty is empty the banker must put up a new kitty or sell the
    bank" (§4): a sale while the kitty is owed is accepted."""
    state = _game("shoot")
    apply(state, SellBank("Bob", 1))
    assert state.banker == "Bob"
    assert pending(state) == KittyNeed("Bob", 1, 10, True)


def test_a_sale_during_a_deal_is_refused() -> None:
    """The bank is sold between deals (§3)."""
    state = _game("traditional")
    apply(state, StartDeal())
    _says(
        state,
        SellBank("Ann", 3),
        "Dan cannot sell the bank now: the table waits for a card for Ann",
        "Dan",
    )


# ---------------------------------------- stakes (§2.2, §3)
def _at_stakes(options: dict[str, Any] | None = None) -> GameState:
    """traditional, first cards dealt: the table waits for the stakes."""
    state = _game("traditional", options)
    apply(state, StartDeal())
    _deal_while_due(state)
    assert isinstance(pending(state), StakeNeed)
    return state


def test_a_stake_before_the_deal_is_refused() -> None:
    """Stakes come after the first card (§2.1, 2.2)."""
    state = _game("traditional")
    _says(
        state,
        PlaceStake("Ann", 2),
        "Ann cannot stake now: the table waits for the next deal",
        "Ann",
    )


@pytest.mark.parametrize(
    ("action", "sentence", "who"),
    [
        (PlaceStake("Dan", 4), "Dan is the banker and does not stake", "Dan"),  # §2.2
        (PlaceStake("Zed", 4), "Zed is not at the table", "Zed"),
        (PlaceStake("Ann", 0), "Ann cannot stake 0: stakes are 4 to 8", "Ann"),
        (PlaceStake("Ann", 2), "Ann cannot stake 2: stakes are 4 to 8", "Ann"),  # half the minimum
        (PlaceStake("Ann", 3), "Ann cannot stake 3: stakes are 4 to 8", "Ann"),
        (PlaceStake("Ann", 9), "Ann cannot stake 9: stakes are 4 to 8", "Ann"),
        (PlaceStake("Ann", 12), "Ann cannot stake 12: stakes are 4 to 8", "Ann"),
        (PlaceStake("Bob", -4), "Bob cannot stake -4: stakes are 4 to 8", "Bob"),
        (PlaceStake("Ann", _any("4")), "Ann must give a number for the stake", "Ann"),
        (PlaceStake("Ann", Fraction(9, 2)), "Ann must give whole units for the stake", "Ann"),
    ],
)
def test_a_stake_outside_the_agreed_limits_is_refused(
    action: PlaceStake, sentence: str, who: str
) -> None:
    """traditional with stakes agreed at 4 to 8 (§3, min_stake/max_stake)."""
    state = _at_stakes({"min_stake": 4, "max_stake": 8})
    _says(state, action, sentence, who)


def test_stakes_at_the_limits_are_taken_and_each_player_stakes_once() -> None:
    """Stakes 4 to 8: Ann stakes the minimum, 4, and may not stake again;
    Bob the maximum, 8.  Each hand carries its stake, and with every stake
    in the second card is due, Ann's first (§2.3)."""
    state = _at_stakes({"min_stake": 4, "max_stake": 8})
    apply(state, PlaceStake("Ann", 4))
    _says(state, PlaceStake("Ann", 5), "Ann has already staked", "Ann")
    assert pending(state) == StakeNeed("Bob", 4, 8, ("Bob",))
    apply(state, PlaceStake("Bob", 8))
    assert [(v.player, v.stake) for v in state.hand_views()] == [("Ann", 4), ("Bob", 8)]
    assert pending(state) == CardNeed("Ann", 1, False)


def test_stakes_may_come_in_any_order() -> None:
    """Bob may stake before Ann; the table then waits for Ann's alone."""
    state = _at_stakes()
    apply(state, PlaceStake("Bob", 3))
    assert pending(state) == StakeNeed("Ann", 1, 10, ("Ann",))
    apply(state, PlaceStake("Ann", 10))
    assert [(v.player, v.stake) for v in state.hand_views()] == [("Ann", 10), ("Bob", 3)]


# ---------------------------------------- shoot bets (§4)
def _at_shoots(kitty: int) -> GameState:
    """shoot, Dan's kitty put up, first cards dealt, Ann and Bob stake 2."""
    state = _game("shoot")
    apply(state, PutKitty(kitty))
    apply(state, StartDeal())
    _deal_while_due(state)
    apply(state, PlaceStake("Ann", 2))
    apply(state, PlaceStake("Bob", 2))
    return state


def test_a_shoot_bet_out_of_turn_is_refused() -> None:
    """Shoot bets come after the stakes, each player in turn from the
    banker's left (§4): first Ann's, so Bob's is refused; and before the
    stakes none is taken."""
    state = _game("shoot")
    apply(state, PutKitty(5))
    apply(state, StartDeal())
    _deal_while_due(state)
    _says(
        state,
        PlaceShoot("Ann", 1),
        "Ann cannot place a shoot bet now: the table waits for Ann's stake",
        "Ann",
    )
    apply(state, PlaceStake("Ann", 2))
    apply(state, PlaceStake("Bob", 2))
    _says(
        state,
        PlaceShoot("Bob", 1),
        "Bob cannot place a shoot bet now: the table waits for Ann's shoot bet",
        "Bob",
    )


@pytest.mark.parametrize(
    ("amount", "sentence"),
    [
        (6, "Ann cannot shoot 6: the kitty allows 0 to 5"),
        (-1, "Ann cannot shoot -1: the kitty allows 0 to 5"),
        (_any("1"), "Ann must give a number for the shoot bet"),
        (Fraction(3, 2), "Ann must give whole units for the shoot bet"),
    ],
)
def test_a_shoot_bet_beyond_the_kitty_is_refused(amount: Any, sentence: str) -> None:
    """Kitty 5: "a shoot bet of any size, as long as all open shoot bets
    together do not exceed the kitty" (§4): 0 to 5 for the first."""
    state = _at_shoots(5)
    _says(state, PlaceShoot("Ann", amount), sentence, "Ann")
    assert pending(state) == ShootNeed("Ann", 5)


def test_the_open_shoot_bets_share_the_kitty() -> None:
    """Kitty 5: Ann shoots 3, so Bob may shoot 0 to 2 (§4): 3 is refused, 2,
    all that is left, is taken.  The second card is then due to Ann."""
    state = _at_shoots(5)
    apply(state, PlaceShoot("Ann", 3))
    assert pending(state) == ShootNeed("Bob", 2)
    _says(state, PlaceShoot("Bob", 3), "Bob cannot shoot 3: the kitty allows 0 to 2", "Bob")
    apply(state, PlaceShoot("Bob", 2))
    assert [(v.player, v.shoot) for v in state.hand_views()] == [("Ann", 3), ("Bob", 2)]
    assert pending(state) == CardNeed("Ann", 1, False)


def test_no_shoot_bet_and_the_whole_kitty() -> None:
    """Kitty 5: Ann shoots 0, no bet (SCENARIO.md: `shoots: {"Ann": 0}`), so
    Bob may take the whole kitty, 5."""
    state = _at_shoots(5)
    apply(state, PlaceShoot("Ann", 0))
    assert pending(state) == ShootNeed("Bob", 5)
    apply(state, PlaceShoot("Bob", 5))
    assert [(v.player, v.shoot) for v in state.hand_views()] == [("Ann", 0), ("Bob", 5)]


# ---------------------------------------- the banker's turn (§2.6)
def _at_bank_turn() -> GameState:
    """traditional, Ann against Dan: Ann 9C, Dan 8H, stake 2, Ann 8C (17),
    Dan 6H (14); Ann sticks, and it is the banker's turn."""
    state = _game("traditional", players=["Ann", "Dan"])
    _stack(state, "9C 8H 8C 6H 3D")
    apply(state, StartDeal())
    _deal_while_due(state)
    apply(state, PlaceStake("Ann", 2))
    _deal_while_due(state)
    return state


def test_the_banker_decides_only_at_the_banks_turn() -> None:
    """While Ann's hand is in play the banker's word is refused, naming him."""
    state = _at_bank_turn()
    _says(
        state,
        BankDecide("draw"),
        "Dan cannot draw now: the table waits for Ann's decision on hand 1",
        "Dan",
    )
    apply(state, Decide("Ann", "stick"))
    assert pending(state) == BankNeed("Dan", ("draw", "stay"))


def test_the_banker_says_draw_or_stay() -> None:
    """Any other word is refused, naming the banker and the word."""
    state = _at_bank_turn()
    apply(state, Decide("Ann", "stick"))
    refusal = _refused(state, BankDecide("hit"))
    assert str(refusal) == "Dan cannot 'hit': the banker says draw or stay"
    assert (refusal.player, refusal.decision) == ("Dan", "hit")


def test_the_banker_draws_face_up_and_stays() -> None:
    """At his turn the banker turns both cards up and draws face-up cards
    (§2.6): after "draw" a face-up card is due to the bank (hand 0).  3D
    makes 8H 6H 3D = 17; he stays, and 17 against Ann's 17 is a tie, the
    banker's (§2.7): Ann -2, Dan +2."""
    state = _at_bank_turn()
    apply(state, Decide("Ann", "stick"))
    apply(state, BankDecide("draw"))
    assert pending(state) == CardNeed("Dan", 0, True, to_bank=True)
    apply(state, DealCard(Card.parse("3D")))
    bank = state.bank_view()
    assert bank is not None
    assert [(str(c.card), c.face_up) for c in bank.cards] == [
        ("8H", True),
        ("6H", True),
        ("3D", True),
    ]
    assert pending(state) == BankNeed("Dan", ("draw", "stay"))
    apply(state, BankDecide("stay"))
    assert isinstance(pending(state), BetweenDeals)
    assert state.results[-1]["net"] == {"Ann": -2, "Dan": 2}


# ---------------------------------------- cards
def test_a_card_that_is_not_due_is_refused() -> None:
    """A card comes off the shoe only when one is due; the refusal names no
    player (the dealer dealt it) and says what the table waits for."""
    state = _game("traditional", players=["Ann", "Dan"])
    five = Card.parse("5C")
    _says(state, DealCard(five), "Cannot deal 5C now: the table waits for the next deal", None)
    _stack(state, "9C 8H 8C 6H")
    apply(state, StartDeal())
    _deal_while_due(state)
    _says(state, DealCard(five), "Cannot deal 5C now: the table waits for Ann's stake", None)


def test_a_card_the_pack_does_not_hold_is_refused() -> None:
    """One pack: 9C dealt once is out (the pack is "not in the pack"); a name
    that is no card is refused with the way to write one (§1)."""
    state = _game("traditional", players=["Ann", "Dan"])
    _stack(state, "9C 8H")
    apply(state, StartDeal())
    apply(state, DealCard(Card.parse("9C")))
    nine = Card.parse("9C")
    _says(state, DealCard(nine), "Cannot deal 9C: 9C is not in the pack (it is already out)", None)
    _says(
        state,
        DealCard(_any("ZZ")),
        "Cannot deal ZZ: unknown card 'ZZ' (write rank A 2-10 J Q K, T for 10, then suit C D H S)",
        None,
    )


def test_a_card_may_be_named_by_its_text() -> None:
    """The dealer may name the card as written in §1 ("8H", "10H"): the same
    card is dealt as with a parsed one."""
    state = _game("traditional", players=["Ann", "Dan"])
    apply(state, StartDeal())
    apply(state, DealCard(_any("10H")))
    apply(state, DealCard(_any("8H")))
    views = state.hand_views()
    bank = state.bank_view()
    assert bank is not None
    assert [str(c.card) for c in views[0].cards] == ["TH"]
    assert [str(c.card) for c in bank.cards] == ["8H"]


def test_a_hard_21_stands_and_a_hard_22_is_bust() -> None:
    """traditional, Ann and Bob against Dan.  Ann 7C 7D twists 7H: 21 with
    every card counted, not bust (bust is over 21, §1), and her hand stops by
    itself at 21.  Bob TC 5D twists 7S: 22, bust, shown, his stake of 2 goes
    to the banker at once (§2.5)."""
    state = _game("traditional")
    _stack(state, "7C TC 9H 7D 5D 8H 7H 7S")
    apply(state, StartDeal())
    _deal_while_due(state)
    apply(state, PlaceStake("Ann", 2))
    apply(state, PlaceStake("Bob", 2))
    _deal_while_due(state)
    apply(state, Decide("Ann", "twist"))
    apply(state, DealCard(Card.parse("7H")))
    ann = state.hand_views()[0]
    assert (ann.total, ann.bust, ann.done) == (21, False, True)
    assert pending(state) == DecisionNeed("Bob", 1, ("stick", "twist", "buy"))
    apply(state, Decide("Bob", "twist"))
    apply(state, DealCard(Card.parse("7S")))
    bob = state.hand_views()[1]
    assert (bob.total, bob.bust, bob.done, bob.net) == (22, True, True, -2)
    assert all(c.face_up for c in bob.cards)  # a bust hand is shown


def test_the_first_cards_are_face_down_and_the_bank_waits_its_turn() -> None:
    """Every first and second card goes face down, the banker's too (§2.1,
    §2.3); the player's twist is face up, her buy face down (§2.5)."""
    state = _game("traditional", players=["Ann", "Dan"])
    _stack(state, "2C 8H 3C 6H 4C 5C")
    apply(state, StartDeal())
    assert pending(state) == CardNeed("Ann", 1, False)
    apply(state, DealCard(Card.parse("2C")))
    assert pending(state) == CardNeed("Dan", 0, False, to_bank=True)
    _deal_while_due(state)
    apply(state, PlaceStake("Ann", 2))
    _deal_while_due(state)
    apply(state, Decide("Ann", "twist"))
    assert pending(state) == CardNeed("Ann", 1, True)
    apply(state, DealCard(Card.parse("4C")))
    ann = state.hand_views()[0]
    bank = state.bank_view()
    assert bank is not None
    assert [(str(c.card), c.face_up) for c in ann.cards] == [
        ("2C", False),
        ("3C", False),
        ("4C", True),
    ]
    assert [c.face_up for c in bank.cards] == [False, False]


# ---------------------------------------- the cut (§1, §2)
def test_the_cut_ties_cut_again_and_the_cut_cards_go_back() -> None:
    """traditional with no banker: the cut.  Ann 5C, Bob KD, Cat KH: Bob and
    Cat tie on kings and cut again, Bob first (seating order); during the
    cut its cards stay out (49 left after three).  Bob 3C, Cat 9H: Cat banks.
    Then "all cut cards go back and the pack is shuffled" (docs/rules.md,
    The cut): 52 cards, Cat banks, the table waits for the first deal."""
    state = new_game(PRESETS["traditional"], ["Ann", "Bob", "Cat"], seed=3)
    _stack(state, "5C KD KH 3C 9H")
    assert pending(state) == CardNeed("Ann", 0, True, purpose="cut")
    _deal_while_due(state)  # stops once the cut is over
    assert state.banker == "Cat"
    assert len(state.pack) == 52
    assert pending(state) == BetweenDeals("Cat", 1, True, False)


def test_the_recut_deals_only_to_the_tied() -> None:
    """Ann KD, Bob 5C, Cat KH: Ann and Cat tie; the recut goes to Ann, then
    to Cat, never to Bob; 49 cards are left during it."""
    state = new_game(PRESETS["traditional"], ["Ann", "Bob", "Cat"], seed=3)
    _stack(state, "KD 5C KH 2C")
    for card in ("KD", "5C", "KH"):
        apply(state, DealCard(Card.parse(card)))
    assert pending(state) == CardNeed("Ann", 0, True, purpose="cut")
    assert len(state.pack) == 49
    apply(state, DealCard(Card.parse("2C")))
    assert pending(state) == CardNeed("Cat", 0, True, purpose="cut")
    apply(state, DealCard(Card.parse("AS")))  # the ace cuts highest (§1)
    assert state.banker == "Cat"


def test_a_cut_that_runs_through_the_pack_goes_on() -> None:
    """Ann and Bob tie 26 times, rank by rank (A A, K K, ... two of each of
    the 13 ranks, then the other two): 52 cards, the whole pack.  The cut
    goes on with its cards shuffled back in (ties cut again until one card
    is highest, §1): 52 in the pack, the next cut card is Ann's.  Ann AS,
    Bob 2C: Ann banks, and the pack holds its 52 cards once each again."""
    state = new_game(PRESETS["traditional"], ["Ann", "Bob"], seed=3)
    ranks = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"]
    order = [r + s for half in ("CD", "HS") for r in ranks for s in half]
    _stack(state, " ".join(order))
    for _ in range(26):
        _deal_two(state)
    assert len(state.pack) == 52
    assert pending(state) == CardNeed("Ann", 0, True, purpose="cut")
    apply(state, DealCard(Card.parse("AS")))
    apply(state, DealCard(Card.parse("2C")))
    assert state.banker == "Ann"
    assert sorted(state.pack.cards()) == sorted(Card.parse(c) for c in order)  # each card once


def _deal_two(state: GameState) -> None:
    apply(state, DealCard(state.pack.peek()))
    apply(state, DealCard(state.pack.peek()))


def test_cards_are_stacked_for_the_cut_only_before_it_starts() -> None:
    """Stacking is allowed at the start of the cut (the scenario's `cut`
    cards, docs/rules.md) and between deals, not once a cut card is out nor
    during a deal."""
    state = new_game(PRESETS["traditional"], ["Ann", "Bob"], seed=3)
    _stack(state, "5C 9H")
    apply(state, DealCard(Card.parse("5C")))
    _says(
        state,
        StackTop((Card.parse("2C"),)),
        "Cannot stack cards on the pack now: the table waits for a cut card",
        None,
    )
    apply(state, DealCard(Card.parse("9H")))
    assert state.banker == "Bob"
    apply(state, StartDeal())
    _says(
        state,
        StackTop((Card.parse("2C"),)),
        "Cannot stack cards on the pack now: the table waits for a card for Ann",
        None,
    )


def test_a_card_stacked_twice_from_one_pack_is_refused() -> None:
    """One pack holds one 9C: stacking it twice is refused in the pack's
    words (SCENARIO.md: "a card stacked twice beyond the packs in play")."""
    state = _game("traditional")
    _says(
        state,
        StackTop((Card.parse("9C"), Card.parse("9C"))),
        "9C cannot be stacked 2 times: 1 left in the pack of 1 deck(s)",
        None,
    )


# ---------------------------------------- deals
def test_a_deal_is_started_and_voided_only_in_its_time() -> None:
    """A deal starts between deals and is voided during one."""
    state = _game("traditional")
    _says(state, VoidDeal(), "Cannot void a deal now: the table waits for the next deal", None)
    apply(state, StartDeal())
    _says(state, StartDeal(), "Cannot start a deal now: the table waits for a card for Ann", None)


def test_what_is_no_action_is_refused() -> None:
    """``apply`` refuses anything that is not one of the actions."""
    state = _game("traditional")
    refusal = _refused(state, _any("stick"))
    assert str(refusal) == "'stick' is not an action"
