"""Settled and voided deals worked out by hand from RULES.md (house, shoot and
ponton), for the points the mutation run (docs/testing.md) found no test
pinning: the outcome of each hand by number and standing, a voided deal's
kitty, numbering and shuffle, and a negative half amount in a refusal.

Every expected value is derived in the comment beside it from the rule book,
never printed by the engine and pasted back.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

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
    GameState,
    IllegalAction,
    KittyNeed,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    StackTop,
    StakeNeed,
    StartDeal,
    VoidDeal,
    apply,
    load_ruleset,
    new_game,
    pending,
)
from controller.rules.money import out, units
from controller.scenario import ScenarioError, load_scenario, run_scenario


def _stack(state: GameState, cards: str) -> None:
    apply(state, StackTop(tuple(Card.parse(c) for c in cards.split())))


def _play(state: GameState, script: Iterator[Action], *, until: type = BetweenDeals) -> None:
    """Cards from the top of the pack, the bank stays, the script for the rest."""
    for _ in range(60):
        need = pending(state)
        if isinstance(need, until):
            return
        if isinstance(need, CardNeed):
            apply(state, DealCard(state.pack.peek()))
        elif isinstance(need, BankNeed):
            apply(state, BankDecide("stay"))
        else:
            apply(state, next(script))
    raise AssertionError("the deal did not end")  # pragma: no cover


def test_each_hand_is_told_by_its_number_and_its_standing() -> None:
    """house, Dan banks; first cards Ann AS, Bob 8C, Dan TH, second cards Ann
    KD, Bob 8D, Dan 7H.  Ann: AS KD, a pontoon, stands (§2.5) and beats the
    bank's 17: paid 2:1 on stake 2, +4.  Bob splits his eights (§2.5): hand 1
    8C 9C = 17, hand 2 8D TC = 18, both stick.  The bank stays on 17: hand 1
    ties and a tie is the banker's (-2), hand 2 is higher (+2).  Nobody
    insured (no such bet in house): insurance 0 on every hand."""
    state = new_game(PRESETS["house"], ["Ann", "Bob", "Dan"], banker="Dan", seed=5)
    _stack(state, "AS 8C TH KD 8D 7H 9C TC")
    apply(state, StartDeal())
    script = [PlaceStake("Ann", 2), PlaceStake("Bob", 2), Decide("Bob", "split")]
    _play(state, iter(script + [Decide("Bob", "stick")] * 2))
    told = [
        (o.player, o.hand, o.kind, o.total, o.multiple, o.why, o.insurance, o.insurance_net, o.net)
        for o in state.outcomes()
    ]
    assert told == [
        ("Ann", 1, "pontoon", 21, Fraction(2), "higher", 0, 0, 4),
        ("Bob", 1, "total", 17, Fraction(-1), "tie", 0, 0, -2),
        ("Bob", 2, "total", 18, Fraction(1), "higher", 0, 0, 2),
    ]


def test_a_void_deal_gives_the_kitty_back_shuffles_and_is_played_again() -> None:
    """shoot, Dan banks with a kitty of 10.  Deal 1: first cards Ann TC, Bob
    8C, Dan 9H; Ann and Bob stake 2, Ann shoots 2 and Bob nothing;
    second cards Ann 6C (16), Bob 9D (17), Dan TH (19).  Ann twists 9C: 25,
    bust, so her shoot bet goes into the kitty at once (§4): 12.  Bob sticks.
    The deal is voided at the bank's turn: "every stake and payment of that
    deal is undone, the cards are shuffled, and the deal is played again"
    (§2, item 8): the kitty is 10 again, the pack has all 52 cards and its 45
    undealt cards are no longer in their old order (a shuffle, not the used
    cards put under), and the next deal is number 2 (every deal is numbered;
    a void one only does not count toward the eight).  A second void, of
    deal 2, makes the next deal number 3.  The state's JSON round trip stays
    exact after a void, as after any action (docs/rules.md)."""
    state = new_game(PRESETS["shoot"], ["Ann", "Bob", "Dan"], banker="Dan", seed=5)
    apply(state, PutKitty(10))
    _stack(state, "TC 8C 9H 6C 9D TH 9C")
    before = state.pack.cards()
    apply(state, StartDeal())
    script = [PlaceStake("Ann", 2), PlaceStake("Bob", 2), PlaceShoot("Ann", 2)]
    script += [PlaceShoot("Bob", 0), Decide("Ann", "twist"), Decide("Bob", "stick")]
    _play(state, iter(script), until=BankNeed)
    assert state.kitty == 2 * 12  # half units: the shoot bet of 2 is in the kitty
    apply(state, VoidDeal())
    assert state.kitty == 2 * 10
    after = state.pack.cards()
    assert sorted(after) == sorted(before) and len(after) == 52
    assert after[:45] != before[7:]  # the undealt cards were shuffled, not left in order
    # and the state after a void saves and loads exactly, as after any action
    assert GameState.from_json(state.to_json()) == state
    need = pending(state)
    assert isinstance(need, BetweenDeals) and need.next_deal == 2
    apply(state, StartDeal())
    apply(state, VoidDeal())
    need = pending(state)
    assert isinstance(need, BetweenDeals) and need.next_deal == 3


def test_a_negative_half_amount_is_quoted_with_its_sign() -> None:
    """ponton, Ann stakes 3 against the dealer's ace: insurance is exactly
    half the stake, 1.5 (§6).  An insurance of -1.5 is refused, and the
    refusal quotes the amount as given, sign included: "-1.5"."""
    scenario = {
        "rules": "ponton",
        "seed": 1,
        "players": ["Ann"],
        "deals": [
            {
                "top": ["KC", "AC", "6D", "TS", "5H", "9C"],
                "stakes": {"Ann": 3},
                "actions": {"Ann": ["insurance -1.5", "twist"]},
            }
        ],
    }
    try:
        run_scenario(load_scenario(scenario))
    except ScenarioError as refusal:
        assert str(refusal) == (
            "deal 1, Ann, hand 1, decision 'insurance -1.5': "
            "cannot insure for -1.5: the amount must be exactly 1.5"
        )
    else:  # pragma: no cover
        raise AssertionError("a negative insurance was accepted")


def test_insurance_belongs_to_the_first_hand_of_a_split_seat() -> None:
    """ponton, Ann stakes 10 on 8C 8D against the dealer's AC, insures for
    half the stake, 5 (§6), then splits.  Hand 1 8C TC = 18, hand 2 8D 9C =
    17, both stick; the dealer's second card is 9H: AC 9H = 20, no pontoon,
    so the insurance is lost (-5) and both hands are lower (-10 each).  The
    insurance is told on hand 1 only (docs/rules.md: hand 1's net carries
    it): hand 1 insurance 5, insurance net -5, net -15; hand 2 insurance 0,
    insurance net 0, net -10."""
    state = new_game(PRESETS["ponton"], ["Ann"], seed=5)
    _stack(state, "8C AC 8D TC 9C 9H")
    apply(state, StartDeal())
    script = [PlaceStake("Ann", 10), Decide("Ann", "insurance", 5), Decide("Ann", "split")]
    _play(state, iter(script + [Decide("Ann", "stick")] * 2))
    told = [(o.hand, o.total, o.why, o.insurance, o.insurance_net, o.net) for o in state.outcomes()]
    assert told == [(1, 18, "lower", 5, -5, -15), (2, 17, "lower", 0, 0, -10)]


def test_half_units_read_back_as_table_units_at_any_size() -> None:
    """docs/rules.md: money is kept in half units and read back in table
    units, an ``int`` when whole.  By hand: 0 -> 0, 1 -> 1/2, -3 -> -3/2, and
    past the usual amounts 4096 -> 2048, 4097 -> 4097/2, 4098 -> 2049."""
    for half, expected in [
        (0, 0),
        (1, Fraction(1, 2)),
        (-3, Fraction(-3, 2)),
        (-4, -2),
        (4096, 2048),
        (4097, Fraction(4097, 2)),
        (4098, 2049),
    ]:
        got = units(half)
        assert got == expected and type(got) is type(expected), (half, got)


def test_two_five_card_tricks_tie_and_the_tie_rule_decides() -> None:
    """casino (the dealer's five-card trick "by ranking", §7): Ann 2C 3C,
    twists 2D 3D 4C: a five-card trick of 14, standing by itself.  The
    dealer's 2H 3H draws 2S 3S 4H to 14 and stops at five cards (§5): a
    five-card trick too.  Same rank, so a tie: with ``ties: push`` the stake
    10 is returned (multiple 0, "push"); by the preset's own rule ties go to
    the dealer (-10, "tie")."""
    for options, multiple, why, net in [({"ties": "push"}, 0, "push", 0), ({}, -1, "tie", -10)]:
        state = new_game(load_ruleset("casino", options), ["Ann"], seed=5)
        _stack(state, "2C 2H 3C 3H 2D 3D 4C 2S 3S 4H")
        apply(state, StartDeal())
        _play(state, iter([PlaceStake("Ann", 10)] + [Decide("Ann", "twist")] * 3))
        (told,) = state.outcomes()
        assert (told.kind, told.total, told.multiple, told.why, told.net) == (
            "five_card",
            14,
            Fraction(multiple),
            why,
            net,
        ), options


def test_a_kitty_emptied_by_a_winning_shoot_bet_must_be_put_up_again() -> None:
    """shoot, Dan banks with a kitty of 2 (the least stake is 1).  Ann TC,
    Dan 9H; Ann stakes 2 and shoots 2, the whole kitty; second cards Ann 9C
    (19), Dan 8H (17).  Ann sticks, Dan stays: 19 beats 17, so her shoot bet
    is paid 1:1 from the kitty (§4), which is now empty.  "When the kitty is
    empty the banker must put up a new kitty or sell the bank" (§4): before
    deal 2 the table waits for Dan's kitty, and a deal cannot start."""
    state = new_game(PRESETS["shoot"], ["Ann", "Dan"], banker="Dan", seed=5)
    apply(state, PutKitty(2))
    _stack(state, "TC 9H 9C 8H")
    apply(state, StartDeal())
    script = iter([PlaceStake("Ann", 2), PlaceShoot("Ann", 2), Decide("Ann", "stick")])
    _play(state, script, until=KittyNeed)
    # half units: Ann wins her stake 2 and her shoot bet 2, +4; Dan -4
    assert state.kitty == 0 and state.balances == {"Ann": 2 * 4, "Dan": -2 * 4}
    need = pending(state)
    assert isinstance(need, KittyNeed) and need.banker == "Dan"
    with pytest.raises(IllegalAction):
        apply(state, StartDeal())


def test_a_stake_that_is_not_a_whole_number_is_refused_in_plain_words() -> None:
    """house, Ann's stake is asked for (1 to 5 whole units, §2).  Each of
    these is refused, naming Ann and saying why, and changes nothing: no
    amount, a word, ``True`` (a yes/no is not a number), 5/4 (not even a half
    unit) and 5/2 (a half unit where only whole units are staked)."""
    state = new_game(PRESETS["house"], ["Ann", "Dan"], banker="Dan", seed=5)
    apply(state, StartDeal())
    _play(state, iter([]), until=StakeNeed)
    saved = state.to_json()
    for amount, words in [
        (None, "must give a number for the stake"),
        ("5", "must give a number for the stake"),
        (True, "must give a number for the stake"),
        (Fraction(5, 4), "cannot use 5/4 for the stake"),
        (Fraction(5, 2), "must give whole units for the stake"),
    ]:
        with pytest.raises(IllegalAction) as refusal:
            apply(state, PlaceStake("Ann", amount))  # type: ignore[arg-type]
        assert str(refusal.value) == f"Ann {words}" and refusal.value.player == "Ann"
        assert state.to_json() == saved


def test_amounts_in_json_are_whole_numbers_when_whole() -> None:
    """docs/rules.md: output shows 7.5 for a half, and a whole amount as a
    whole number (7, not 7.0).  By hand, from half units: 14 -> 7, 15 ->
    7.5, -4 -> -2, -3 -> -1.5, 0 -> 0."""
    for half, expected in [(14, 7), (15, 7.5), (-4, -2), (-3, -1.5), (0, 0)]:
        got = out(half)
        assert got == expected and type(got) is type(expected), (half, got)
