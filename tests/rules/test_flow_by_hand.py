"""The flow of a deal (``controller/rules/flow.py``) worked out by hand from
RULES.md: which card is due to whom and face up or down, when a hand or the
bank stops by itself, the house dealer's drawing rule, and when the bank does
not play, for the points the mutation run of the `rules-play` batch
(docs/testing.md, docs/mutation/rules-play.md) found no test pinning.

Every expected value is derived in the docstring beside it, never printed by
the engine and pasted back.  Cards are stacked on top of the pack in the order
they are dealt (SCENARIO.md, Draw order).
"""

from __future__ import annotations

from typing import Any

import pytest

from controller.rules import (
    PRESETS,
    BankDecide,
    BankNeed,
    BetweenDeals,
    Card,
    CardNeed,
    DealCard,
    Decide,
    DecisionNeed,
    GameState,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    StackTop,
    StakeNeed,
    StartDeal,
    apply,
    load_ruleset,
    new_game,
    pending,
)


def _stack(state: GameState, cards: str) -> None:
    apply(state, StackTop(tuple(Card.parse(c) for c in cards.split())))


def _deal_while_due(state: GameState) -> None:
    while isinstance(pending(state), CardNeed):
        apply(state, DealCard(state.pack.peek()))


def _faces(cards: Any) -> list[tuple[str, bool]]:
    return [(str(c.card), c.face_up) for c in cards]


def _dealer(preset: str, cards: str, options: dict[str, Any] | None = None) -> GameState:
    """A house dealer against Ann, who stakes 10 and sticks on her two cards."""
    state = new_game(load_ruleset(preset, options or {}), ["Ann"], seed=7)
    _stack(state, cards)
    apply(state, StartDeal())
    apply(state, PlaceStake("Ann", 10))
    _deal_while_due(state)
    apply(state, Decide("Ann", "stick"))
    return state


def _bank_cards(state: GameState) -> list[str]:
    bank = state.bank_view()
    assert bank is not None
    return [str(c.card) for c in bank.cards]


# ---------------------------------------- the deal's rounds
def test_a_casino_round_stakes_first_then_two_face_down_cards_each() -> None:
    """casino: each seat bets, then "two cards to each seat and two to the
    dealer, both dealer cards face down" (§5), seat first in each round."""
    state = new_game(PRESETS["casino"], ["Ann", "Bob"], seed=7)
    apply(state, StartDeal())
    assert pending(state) == StakeNeed("Ann", 1, 100, ("Ann", "Bob"))
    apply(state, PlaceStake("Ann", 10))
    apply(state, PlaceStake("Bob", 10))
    due = []
    while isinstance(need := pending(state), CardNeed):
        due.append((need.recipient, need.hand, need.face_up, need.to_bank))
        apply(state, DealCard(state.pack.peek()))
    assert (
        due
        == [
            ("Ann", 1, False, False),
            ("Bob", 1, False, False),
            ("house", 0, False, True),
        ]
        * 2
    )
    assert isinstance(pending(state), DecisionNeed)


def test_the_ponton_dealer_takes_one_card_face_up() -> None:
    """ponton: "two cards to each seat, one card to the dealer (face up)"
    (§6): Ann, the dealer (up), then Ann's second card and no dealer card."""
    state = new_game(PRESETS["ponton"], ["Ann"], seed=7)
    apply(state, StartDeal())
    apply(state, PlaceStake("Ann", 10))
    due = []
    while isinstance(need := pending(state), CardNeed):
        due.append((need.recipient, need.face_up, need.to_bank))
        apply(state, DealCard(state.pack.peek()))
    assert due == [("Ann", False, False), ("house", True, True), ("Ann", False, False)]


def test_a_player_banker_deals_round_stakes_round() -> None:
    """traditional, Ann and Bob against Dan: one face-down card to each
    player from the banker's left and then to the banker; the stakes; the
    second face-down card in the same order (§2.1-2.3)."""
    state = new_game(PRESETS["traditional"], ["Ann", "Bob", "Dan"], banker="Dan", seed=7)
    apply(state, StartDeal())
    due = []
    for _ in range(2):
        while isinstance(need := pending(state), CardNeed):
            due.append((need.recipient, need.face_up, need.to_bank))
            apply(state, DealCard(state.pack.peek()))
        if isinstance(pending(state), StakeNeed):
            apply(state, PlaceStake("Ann", 1))
            apply(state, PlaceStake("Bob", 1))
    assert due == [("Ann", False, False), ("Bob", False, False), ("Dan", False, True)] * 2


# ---------------------------------------- the dealer's rule (§5, §6)
def test_the_casino_dealer_hits_a_soft_17() -> None:
    """casino: "dealer draws to 16, draws on soft 17" (§5).  Ann TC 9C (19)
    sticks; the dealer's AH 6D is a soft 17, so a face-up card is due to the
    dealer; 2C makes a soft 19 and he stands.  19 against 19: ties go to
    the dealer, Ann -10."""
    state = _dealer("casino", "TC AH 9C 6D 2C")
    assert pending(state) == CardNeed("house", 0, True, to_bank=True)
    apply(state, DealCard(Card.parse("2C")))
    assert isinstance(pending(state), BetweenDeals)
    assert _bank_cards(state) == ["AH", "6D", "2C"]
    assert state.results[-1]["net"] == {"Ann": -10, "house": 10}


def test_the_casino_dealer_draws_to_16() -> None:
    """casino: TD 6S is 16, he draws: 3C makes 19, he stands; Ann's 19 ties,
    the dealer's: Ann -10."""
    state = _dealer("casino", "TC TD 9C 6S 3C")
    assert pending(state) == CardNeed("house", 0, True, to_bank=True)
    apply(state, DealCard(Card.parse("3C")))
    assert isinstance(pending(state), BetweenDeals)
    assert state.results[-1]["net"] == {"Ann": -10, "house": 10}


def test_the_casino_dealer_stands_on_hard_17_soft_18_and_19() -> None:
    """casino: "stands on hard 17 and above" (§5); soft 18 is above 17 too.
    Against Ann's 19: 17 and 18 lose (Ann +10), 19 ties (Ann -10).  No card
    is drawn."""
    for cards, ann in (("TD 7S", 10), ("AH 7D", 10), ("TD 9S", -10)):
        first, second = cards.split()
        state = _dealer("casino", f"TC {first} 9C {second}")
        assert isinstance(pending(state), BetweenDeals), cards
        assert _bank_cards(state) == [first, second]
        assert state.results[-1]["net"]["Ann"] == ann


def test_the_ponton_dealer_stands_on_any_17() -> None:
    """ponton: "dealer then draws until the total is 17 or more" (§6), soft or
    hard.  The dealer shows AH; Ann's TC 9C (19) sticks; the dealer draws
    6D: a soft 17, he stands.  Ann's 19 wins 1:1, +10.  With TD up, 7S makes
    a hard 17: he stands too."""
    for up, drawn in (("AH", "6D"), ("TD", "7S")):
        state = _dealer("ponton", f"TC {up} 9C {drawn}")
        assert pending(state) == CardNeed("house", 0, True, to_bank=True)
        apply(state, DealCard(Card.parse(drawn)))
        assert isinstance(pending(state), BetweenDeals), up
        assert _bank_cards(state) == [up, drawn]
        assert state.results[-1]["net"] == {"Ann": 10, "house": -10}


def test_the_casino_dealer_stops_at_five_cards() -> None:
    """casino: the dealer "stops at five cards" [chosen] (§5): 2C 3C, then 2D,
    3D, 4C: 14 with five cards, and no sixth card.  A five-card trick beats
    Ann's 19 by the ranking (§1, §5): Ann -10."""
    state = _dealer("casino", "TC 2C 9C 3C 2D 3D 4C")
    _deal_while_due(state)
    assert isinstance(pending(state), BetweenDeals)
    assert _bank_cards(state) == ["2C", "3C", "2D", "3D", "4C"]
    assert state.results[-1]["net"] == {"Ann": -10, "house": 10}


def test_without_the_five_card_stop_the_dealer_draws_on() -> None:
    """The same cards with `dealer_stops_at_five` off (an option, RULES.md
    §5 [chosen]): at 14 with five cards a sixth card is due to the dealer."""
    state = _dealer("casino", "TC 2C 9C 3C 2D 3D 4C", {"dealer_stops_at_five": False})
    for card in ("2D", "3D", "4C"):
        apply(state, DealCard(Card.parse(card)))
    assert pending(state) == CardNeed("house", 0, True, to_bank=True)


# ---------------------------------------- a player banker (§2.6)
def _banker_turn(cards: str) -> GameState:
    """traditional, Ann against Dan: Ann 9C and 8C (17) staking 2, Dan the
    second and fourth cards given; Ann sticks."""
    state = new_game(PRESETS["traditional"], ["Ann", "Dan"], banker="Dan", seed=7)
    _stack(state, cards)
    apply(state, StartDeal())
    _deal_while_due(state)
    apply(state, PlaceStake("Ann", 2))
    _deal_while_due(state)
    apply(state, Decide("Ann", "stick"))
    return state


def test_a_banker_at_five_cards_stops_by_himself() -> None:
    """ "The banker stops at five cards or on bust" (§2.6) and then says no
    `stay` (SCENARIO.md, bank).  Dan 2C 3C draws 2D, 3D, 4C: 14 with five
    cards, a five-card trick: "every other hand loses 2S" (§2.7): Ann -4."""
    state = _banker_turn("9C 2C 8C 3C 2D 3D 4C")
    for _ in range(3):
        apply(state, BankDecide("draw"))
        _deal_while_due(state)
    assert isinstance(pending(state), BetweenDeals)
    assert state.results[-1]["net"] == {"Ann": -4, "Dan": 4}


def test_a_banker_who_busts_stops_by_himself() -> None:
    """Dan 8H 6H draws TD: 24, bust; the deal settles with no `stay`, and
    Ann's 17 wins S (§2.7): +2."""
    state = _banker_turn("9C 8H 8C 6H TD")
    apply(state, BankDecide("draw"))
    apply(state, DealCard(Card.parse("TD")))
    assert isinstance(pending(state), BetweenDeals)
    assert state.results[-1]["net"] == {"Ann": 2, "Dan": -2}


def test_a_banker_may_draw_at_21() -> None:
    """ "unlike a player's, the banker's hand does not stop by itself at 21"
    (§2.6): Dan 8H 6H draws 7D, 21 with three cards, and is still asked."""
    state = _banker_turn("9C 8H 8C 6H 7D")
    apply(state, BankDecide("draw"))
    apply(state, DealCard(Card.parse("7D")))
    assert pending(state) == BankNeed("Dan", ("draw", "stay"))


def test_when_every_player_is_bust_the_bank_does_not_play() -> None:
    """ "If every player hand is bust the banker does not play" (§2.6): Ann TC
    5D twists 7S, 22, bust; the deal is over at once (no banker's turn), Ann
    -2, and the bank keeps its two cards."""
    state = new_game(PRESETS["traditional"], ["Ann", "Dan"], banker="Dan", seed=7)
    _stack(state, "TC 8H 5D 9H 7S")
    apply(state, StartDeal())
    _deal_while_due(state)
    apply(state, PlaceStake("Ann", 2))
    _deal_while_due(state)
    apply(state, Decide("Ann", "twist"))
    apply(state, DealCard(Card.parse("7S")))
    assert isinstance(pending(state), BetweenDeals)
    assert state.results[-1]["net"] == {"Ann": -2, "Dan": 2}
    assert state.results[-1]["bank"] == {"cards": ["8H", "9H"], "total": 17}


def test_one_live_hand_is_enough_for_the_bank_to_play() -> None:
    """Ann busts (TC 5D 7S), Bob sticks on 9C 9D (18): the bank plays, the
    table waits for Dan's word."""
    state = new_game(PRESETS["traditional"], ["Ann", "Bob", "Dan"], banker="Dan", seed=7)
    _stack(state, "TC 9C 8H 5D 9D 9H 7S")
    apply(state, StartDeal())
    _deal_while_due(state)
    apply(state, PlaceStake("Ann", 2))
    apply(state, PlaceStake("Bob", 2))
    _deal_while_due(state)
    apply(state, Decide("Ann", "twist"))
    apply(state, DealCard(Card.parse("7S")))
    apply(state, Decide("Bob", "stick"))
    assert pending(state) == BankNeed("Dan", ("draw", "stay"))
    bank = state.bank_view()
    assert bank is not None
    assert _faces(bank.cards) == [("8H", True), ("9H", True)]  # turned up at his turn (§2.6)


# ---------------------------------------- hands that stop by themselves (§1)
def test_a_players_fifth_card_ends_the_hand() -> None:
    """ "A player's hand stops by itself ... at a fifth card that is not bust"
    (§1): Ann 2C 3C twists 2D, 3D, 4C: 14 with five cards, a five-card
    trick, done with no `stick` (15 would be needed to stick, §2.5); the
    banker's turn follows."""
    state = new_game(PRESETS["traditional"], ["Ann", "Dan"], banker="Dan", seed=7)
    _stack(state, "2C 9H 3C 8H 2D 3D 4C")
    apply(state, StartDeal())
    _deal_while_due(state)
    apply(state, PlaceStake("Ann", 2))
    _deal_while_due(state)
    for card in ("2D", "3D", "4C"):
        apply(state, Decide("Ann", "twist"))
        apply(state, DealCard(Card.parse(card)))
    ann = state.hand_views()[0]
    assert (ann.total, ann.five_card_trick, ann.done, ann.bust) == (14, True, True, False)
    assert pending(state) == BankNeed("Dan", ("draw", "stay"))


def test_a_player_at_21_with_three_cards_stops_and_the_next_plays() -> None:
    """Ann TC 5D twists 6H: 21, she stops by itself (§1); Bob's hand is next."""
    state = new_game(PRESETS["traditional"], ["Ann", "Bob", "Dan"], banker="Dan", seed=7)
    _stack(state, "TC 9C 9H 5D 8C 8H 6H")
    apply(state, StartDeal())
    _deal_while_due(state)
    apply(state, PlaceStake("Ann", 2))
    apply(state, PlaceStake("Bob", 2))
    _deal_while_due(state)
    apply(state, Decide("Ann", "twist"))
    apply(state, DealCard(Card.parse("6H")))
    ann = state.hand_views()[0]
    assert (ann.total, ann.done) == (21, True)
    assert pending(state) == DecisionNeed("Bob", 1, ("stick", "twist", "buy"))


def test_ponton_split_aces_take_one_card_each_and_stop() -> None:
    """ponton: "aces only once, and each split ace gets one card only" (§6).
    Ann AC AD, the dealer 9S up; she splits: AC gets KH, a pontoon (split
    hands count, §1), declared and so shown; AD gets 5C (16) and stops too,
    with no word.  The split cards are turned face up, the card dealt to a
    split hand face down (docs/rules.md).  The dealer's draw is next."""
    state = new_game(PRESETS["ponton"], ["Ann"], seed=7)
    _stack(state, "AC 9S AD KH 5C 8H")
    apply(state, StartDeal())
    apply(state, PlaceStake("Ann", 10))
    _deal_while_due(state)
    apply(state, Decide("Ann", "split"))
    apply(state, DealCard(Card.parse("KH")))
    apply(state, DealCard(Card.parse("5C")))
    assert pending(state) == CardNeed("house", 0, True, to_bank=True)
    one, two = state.hand_views()
    assert (one.pontoon, one.done, _faces(one.cards)) == (True, True, [("AC", True), ("KH", True)])
    assert (two.total, two.done, _faces(two.cards)) == (16, True, [("AD", True), ("5C", False)])


def test_the_insurance_card_is_dealt_face_up_and_is_the_last() -> None:
    """ponton: Ann KC 6D against the dealer's AC insures 5 and twists TS: 26,
    bust.  No hand is live but the insurance is open, so the dealer draws
    its second card, and only that (§1, §6): face up, like every card the
    dealer draws at its turn.  5H: AC 5H, no pontoon, the insurance is lost
    and the deal is over though 16 is under 17: Ann -10 - 5 = -15."""
    state = new_game(PRESETS["ponton"], ["Ann"], seed=7)
    _stack(state, "KC AC 6D TS 5H")
    apply(state, StartDeal())
    apply(state, PlaceStake("Ann", 10))
    _deal_while_due(state)
    apply(state, Decide("Ann", "insurance", 5))
    apply(state, Decide("Ann", "twist"))
    apply(state, DealCard(Card.parse("TS")))
    assert pending(state) == CardNeed("house", 0, True, to_bank=True)
    apply(state, DealCard(Card.parse("5H")))
    assert isinstance(pending(state), BetweenDeals)
    assert state.results[-1]["net"] == {"Ann": -15, "house": 15}


def test_a_bank_that_stopped_is_done() -> None:
    """The bank's hand is over when it busts, stops at five cards or the
    dealer stands (§2.6, §5): its view says done.  Dan busts on 8H 6H TD;
    Dan stops at five with 2C 3C 2D 3D 4C; the casino dealer stands on
    TD 7S (hard 17) and at five cards 2C 3C 2D 3D 4C."""
    bust = _banker_turn("9C 8H 8C 6H TD")
    apply(bust, BankDecide("draw"))
    apply(bust, DealCard(Card.parse("TD")))
    five = _banker_turn("9C 2C 8C 3C 2D 3D 4C")
    for _ in range(3):
        apply(five, BankDecide("draw"))
        _deal_while_due(five)
    stands = _dealer("casino", "TC TD 9C 7S")
    casino_five = _dealer("casino", "TC 2C 9C 3C 2D 3D 4C")
    _deal_while_due(casino_five)
    for state in (bust, five, stands, casino_five):
        bank = state.bank_view()
        assert bank is not None
        assert isinstance(pending(state), BetweenDeals)
        assert bank.done, _bank_cards(state)


def test_a_dealer_who_must_draw_from_an_empty_pack_voids_the_deal() -> None:
    """casino with one pack and no stick minimum (options `packs`, and
    `stick_minimum` 0-21, RULES.md §7), 25 seats against the dealer: 25 × 2
    cards and the dealer's 2C 3C use all 52.  Every seat sticks (a pontoon or
    21 stands by itself); the dealer's 5 must draw, but "when a card is due
    and the pack is empty the deal is void" (docs/rules.md, Flow of a deal;
    RULES.md §2.8): at once, listed void, not counted, every net 0, and the
    table waits for deal 2."""
    seats = [f"P{i:02}" for i in range(1, 26)]
    state = new_game(load_ruleset("casino", {"packs": 1, "stick_minimum": 0}), seats, seed=7)
    rest = [f"{r}{s}" for r in "A23456789TJQK" for s in "CDHS" if f"{r}{s}" not in ("2C", "3C")]
    _stack(state, " ".join([*rest[:25], "2C", *rest[25:], "3C"]))
    apply(state, StartDeal())
    for seat in seats:
        apply(state, PlaceStake(seat, 1))
    _deal_while_due(state)
    while isinstance(need := pending(state), DecisionNeed):
        apply(state, Decide(need.player, "stick"))
    assert len(state.pack) == 52  # the void deal's cards are all back
    assert pending(state) == BetweenDeals("house", 2, False, False)
    entry = state.results[-1]
    assert (entry["void"], entry["counted"]) == (True, False)
    assert set(entry["net"].values()) == {0}


@pytest.mark.parametrize("preset", ["traditional", "shoot", "casino"])
def test_a_pack_used_up_by_the_first_round_voids_the_deal(preset: str) -> None:
    """One pack (option `packs`) and 52 people (option `max_people`, RULES.md
    §7): the first card round takes all 52 cards, the banker's or dealer's
    included (51 seats and the house dealer in casino).  The second round is
    then due with none left: "when a card is due and the pack is empty the
    deal is void" (docs/rules.md, Flow of a deal; RULES.md §2.8), at once,
    after the stakes (traditional), the shoot bets (shoot: a kitty of 1,
    no shoot bet) or the first round itself (casino: stakes come first)."""
    people = [f"P{i:02}" for i in range(1, 53)]
    seats = people[:51]  # P52 banks, so the seats run P01 to P51 from his left
    rules = load_ruleset(preset, {"packs": 1, "max_people": "unlimited"})
    if preset == "casino":
        state = new_game(rules, seats, seed=7)
    else:
        state = new_game(rules, people, banker="P52", seed=7)
    if preset == "shoot":
        apply(state, PutKitty(1))
    apply(state, StartDeal())
    for _ in range(2):
        _deal_while_due(state)
        if isinstance(pending(state), StakeNeed):
            for seat in seats:
                apply(state, PlaceStake(seat, 1))
    if preset == "shoot":
        for seat in seats:
            apply(state, PlaceShoot(seat, 0))
    banker = "house" if preset == "casino" else "P52"
    assert pending(state) == BetweenDeals(banker, 2, preset != "casino", preset == "shoot")
    entry = state.results[-1]
    assert (entry["void"], entry["counted"]) == (True, False)
    assert len(state.pack) == 52
