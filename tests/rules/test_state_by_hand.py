"""A game's data, its start, its standings and the views the display reads,
each worked out by hand.

The deals are short and stacked, worked out from RULES.md: ``house`` with Dan
banking (player-banked, RULES.md §2; two decks from 8 people, docs/rules.md
options), Ann and Bob staking 2 units each.  Cards of the card rounds are
dealt face down (a player-banked table, docs/rules.md "Flow of a deal"); the
bank's turn up at the bank's turn and every hand is shown when the deal
settles.  Refusals are user-facing (a dealer reads them), so they are pinned
word for word: ``IllegalAction`` with no player capitalises its reason.
"""

from __future__ import annotations

import json
import random

import pytest

from controller.rules import (
    PRESETS,
    BankDecide,
    BetweenDeals,
    Card,
    CardView,
    DealCard,
    Decide,
    DecisionNeed,
    GameOver,
    GameState,
    HandView,
    IllegalAction,
    KittyNeed,
    Phase,
    PlaceStake,
    SellBank,
    StackTop,
    StartDeal,
    apply,
    check_players,
    legal_actions,
    load_ruleset,
    new_game,
    pending,
    ruleset_from_dict,
)
from controller.rules.ruleset import Ruleset
from controller.rules.state import HOUSE, Deal, State, Step

RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "CDHS"


def c(name: str) -> Card:
    return Card.parse(name)


def down(*names: str) -> tuple[CardView, ...]:
    return tuple(CardView(c(n), False) for n in names)


def up(*names: str) -> tuple[CardView, ...]:
    return tuple(CardView(c(n), True) for n in names)


def deal_two(state: GameState, ann: tuple[str, str], bank: tuple[str, str]) -> None:
    """One deal to Ann and the bank (Dan), Ann staking 2, up to Ann's decision."""
    apply(state, StackTop(tuple(c(n) for n in (ann[0], bank[0], ann[1], bank[1]))))
    apply(state, StartDeal())
    apply(state, DealCard(c(ann[0])))
    apply(state, DealCard(c(bank[0])))
    apply(state, PlaceStake("Ann", 2))
    apply(state, DealCard(c(ann[1])))
    apply(state, DealCard(c(bank[1])))


def house_game(counted: int | None = None) -> GameState:
    options = {} if counted is None else {"counted_deals": counted}
    return new_game(load_ruleset("house", options), ["Ann", "Dan"], banker="Dan")


# -- who may sit -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "options", "players", "sentence"),
    [
        ("house", {}, [], "Players must be distinct names, at least one"),
        ("casino", {}, [], "Players must be distinct names, at least one"),
        ("house", {}, ["Ann", "Bob", "Ann"], "Players must be distinct names, at least one"),
        ("house", {}, ["Ann", ""], "Player names must be non-empty and not 'house'"),
        ("casino", {}, [""], "Player names must be non-empty and not 'house'"),
        ("house", {}, ["Ann", "house"], "Player names must be non-empty and not 'house'"),
        ("house", {}, ["Ann", 7], "Player names must be non-empty and not 'house'"),
        ("house", {}, ["Ann"], "A player-banked game needs at least two people"),
        ("traditional", {}, ["Ann"], "A player-banked game needs at least two people"),
        (
            "traditional",
            {},
            [f"P{i}" for i in range(9)],
            "The traditional rules seat at most 8 people, the banker included, not 9",
        ),
        (
            "casino",
            {"max_people": 3},
            ["A", "B", "C", "D"],
            "The casino rules seat at most 3 players, not 4",
        ),
    ],
)
def test_a_table_the_rules_cannot_seat_is_refused_in_one_sentence(
    preset: str, options: dict[str, object], players: list[str], sentence: str
) -> None:
    ruleset = load_ruleset(preset, options)
    with pytest.raises(IllegalAction) as refused:
        check_players(ruleset, players)
    assert str(refused.value) == sentence
    with pytest.raises(IllegalAction) as refused:
        new_game(
            ruleset, players, banker=players[0] if players and not ruleset.house_dealer else None
        )
    assert str(refused.value) == sentence


@pytest.mark.parametrize(
    ("preset", "options", "players"),
    [
        ("casino", {}, ["Ann"]),  # one player against the house dealer
        ("house", {}, ["Ann", "Dan"]),  # two people, one of them banks
        ("traditional", {}, [f"P{i}" for i in range(8)]),  # 8, the banker included
        ("casino", {"max_people": 3}, ["A", "B", "C"]),
        ("house", {}, [f"P{i}" for i in range(12)]),  # house: no limit
        ("casino", {}, [f"P{i}" for i in range(12)]),
    ],
)
def test_a_table_the_rules_can_seat_is_accepted(
    preset: str, options: dict[str, object], players: list[str]
) -> None:
    ruleset = load_ruleset(preset, options)
    check_players(ruleset, players)
    state = new_game(ruleset, players, banker=None if ruleset.house_dealer else players[0])
    assert state.players == players


# -- how a game starts -------------------------------------------------------------


def test_a_player_banked_game_without_a_banker_starts_with_the_cut() -> None:
    """docs/rules.md "The cut": the new pack is shuffled with the seed (shuffle 1)
    and every player cuts, in seating order."""
    state = new_game(PRESETS["traditional"], ["Ann", "Bob", "Cat"], seed=11)
    assert state.phase is Phase.CUT and state.banker is None
    assert state.cut == {"contenders": ["Ann", "Bob", "Cat"], "cards": [], "out": []}
    order = [r + s for r in RANK_LETTERS for s in SUIT_LETTERS]
    random.Random("pontoon-table:11:1").shuffle(order)
    assert [str(x) for x in state.pack.cards()] == order and state.pack.shuffles == 1
    assert state.seed == 11 and state.pack.seed == 11


def test_the_seed_is_0_unless_given() -> None:
    state = new_game(PRESETS["traditional"], ["Ann", "Bob"], banker="Bob")
    order = [r + s for r in RANK_LETTERS for s in SUIT_LETTERS]
    random.Random("pontoon-table:0:1").shuffle(order)
    assert state.seed == 0 and [str(x) for x in state.pack.cards()] == order


def test_a_named_banker_banks_from_the_first_deal() -> None:
    state = new_game(PRESETS["traditional"], ["Ann", "Bob"], banker="Bob", seed=3)
    assert state.phase is Phase.BETWEEN and state.banker == "Bob" and state.next_banker() == "Bob"
    assert state.need == BetweenDeals("Bob", 1, True, False)


def test_the_house_deals_in_a_house_dealer_game() -> None:
    for banker in (None, HOUSE):
        state = new_game(PRESETS["casino"], ["Ann", "Bob"], banker=banker)
        assert state.banker == HOUSE and state.phase is Phase.BETWEEN and state.cut is None
        assert state.balances == {"Ann": 0, "Bob": 0, HOUSE: 0}
    with pytest.raises(IllegalAction) as refused:
        new_game(PRESETS["casino"], ["Ann", "Bob"], banker="Ann")
    assert str(refused.value) == "The casino dealer is the house, not Ann"


def test_a_banker_not_at_the_table_is_refused() -> None:
    with pytest.raises(IllegalAction) as refused:
        new_game(PRESETS["traditional"], ["Ann", "Bob"], banker="Zed")
    assert str(refused.value) == "The banker Zed is not at the table"


def test_a_new_game_has_no_money_moved_and_no_deal() -> None:
    state = new_game(PRESETS["house"], ["Ann", "Bob", "Dan"], banker="Dan")
    assert state.balances == {"Ann": 0, "Bob": 0, "Dan": 0}
    assert state.balances_units() == {"Ann": 0, "Bob": 0, "Dan": 0} and state.balance("Bob") == 0
    assert state.kitty == 0 and state.kitty_units == 0 and state.kitty_needed is False
    assert state.deal is None and state.entries == 0 and state.counted == 0
    assert state.deal_number == 0 and state.results == [] and state.last_result() is None
    assert state.sale is None and state.cut is None and not state.game_over
    assert state.hand_views() == [] and state.bank_view() is None and state.turn() is None
    # a shoot table waits for the banker's kitty first (RULES.md §4)
    shoot = new_game(PRESETS["shoot"], ["Ann", "Dan"], banker="Dan")
    assert shoot.kitty_needed is True and isinstance(shoot.need, KittyNeed)


@pytest.mark.parametrize(
    ("preset", "options", "people", "decks"),
    [
        # docs/rules.md: house, one deck, two from 8 people, the banker included
        ("house", {}, 7, 1),
        ("house", {}, 8, 2),
        # a house dealer counts as one of the people
        ("casino", {"packs": "auto"}, 6, 1),
        ("casino", {"packs": "auto"}, 7, 2),
        ("casino", {}, 2, 6),  # casino: six decks
    ],
)
def test_the_shoe_holds_one_or_two_decks_by_the_people_at_the_table(
    preset: str, options: dict[str, object], people: int, decks: int
) -> None:
    ruleset = load_ruleset(preset, options)
    players = [f"P{i}" for i in range(people)]
    state = new_game(ruleset, players, banker=None if ruleset.house_dealer else players[0])
    assert state.pack.packs == decks and len(state.pack) == 52 * decks


# -- a deal, as the display sees it ---------------------------------------------------


def test_the_views_follow_a_deal_from_the_cards_to_the_settlement() -> None:
    """house, Dan banks, one counted deal: Ann TC 8C = 18 (hard), Dan 9H 8H = 17.
    Ann decides first (her turn, hand 1); she sticks; the bank's cards turn up
    at its turn (Dan, hand 0); Dan stays on 17; 18 beats 17, Ann wins her
    stake 1:1 (RULES.md §2): net +2 for Ann, -2 for Dan, every card shown."""
    state = house_game(counted=1)
    deal_two(state, ("TC", "8C"), ("9H", "8H"))
    assert state.turn() == ("Ann", 1)
    ann = HandView(
        player="Ann", hand=1, cards=down("TC", "8C"), total=18, soft=False, stake=2, shoot=0,
        net=0, done=False, bust=False, pontoon=False, five_card_trick=False, in_turn=True,
    )  # fmt: skip
    bank = HandView(
        player="Dan", hand=0, cards=down("9H", "8H"), total=17, soft=False, stake=0, shoot=0,
        net=0, done=False, bust=False, pontoon=False, five_card_trick=False, in_turn=False,
    )  # fmt: skip
    assert state.hand_views() == [ann] and state.bank_view() == bank
    apply(state, Decide("Ann", "stick"))
    assert state.turn() == ("Dan", 0)
    after_stick = HandView(
        player="Ann", hand=1, cards=down("TC", "8C"), total=18, soft=False, stake=2, shoot=0,
        net=0, done=True, bust=False, pontoon=False, five_card_trick=False, in_turn=False,
    )  # fmt: skip
    assert state.hand_views() == [after_stick]
    bank_turn = HandView(
        player="Dan", hand=0, cards=up("9H", "8H"), total=17, soft=False, stake=0, shoot=0,
        net=0, done=False, bust=False, pontoon=False, five_card_trick=False, in_turn=True,
    )  # fmt: skip
    assert state.bank_view() == bank_turn
    apply(state, BankDecide("stay"))
    assert state.turn() is None and state.game_over and isinstance(state.need, GameOver)
    settled = HandView(
        player="Ann", hand=1, cards=up("TC", "8C"), total=18, soft=False, stake=2, shoot=0,
        net=2, done=True, bust=False, pontoon=False, five_card_trick=False, in_turn=False,
    )  # fmt: skip
    assert state.hand_views() == [settled]
    view = state.bank_view()
    assert view is not None and view.cards == up("9H", "8H") and view.in_turn is False
    assert (view.stake, view.shoot, view.net, view.hand) == (0, 0, 0, 0)
    (outcome,) = state.outcomes()
    assert (outcome.player, outcome.hand, outcome.why) == ("Ann", 1, "higher")
    assert outcome.multiple == 1
    assert state.balances == {"Ann": 4, "Dan": -4}  # half units inside (docs/rules.md)
    assert state.balance("Ann") == 2 and state.balances_units() == {"Ann": 2, "Dan": -2}


def test_a_soft_pontoon_and_a_bust_read_so_in_the_views() -> None:
    """Ann AS KD: a pontoon, soft 21, done by itself (RULES.md §1: a hand stops at 21).
    Dan QH 6S 9C: 16 then 25, bust."""
    state = house_game(counted=1)
    deal_two(state, ("AS", "KD"), ("QH", "6S"))
    (ann,) = state.hand_views()
    assert (ann.total, ann.soft, ann.pontoon, ann.done, ann.bust) == (21, True, True, True, False)
    assert state.turn() == ("Dan", 0)
    apply(state, BankDecide("draw"))
    apply(state, DealCard(c("9C")))
    bank = state.bank_view()
    assert bank is not None and (bank.total, bank.bust, bank.done) == (25, True, True)


# -- standings, winners, results ------------------------------------------------------


def test_standings_and_winners_after_deals() -> None:
    """Deal 1: Ann TC 7C = 17 sticks, Dan 9H 9S = 18 stays: Dan wins 2.
    Deal 2: Ann TC 8C = 18 sticks, Dan 9H 8H = 17 stays: Ann wins 2.
    Deal 3: Ann TC 9C = 19, Dan TH 9S = 19: a tie goes to the banker (house
    ties: banker): Dan wins 2.  After 1: Dan +2, Ann -2; after 2: both 0, in
    seating order; after 3: Dan +2 first."""
    state = house_game()
    assert state.standings() == [("Ann", 0), ("Dan", 0)] and state.winners() == ["Ann", "Dan"]

    def play(ann: tuple[str, str], bank: tuple[str, str]) -> None:
        deal_two(state, ann, bank)
        apply(state, Decide("Ann", "stick"))
        apply(state, BankDecide("stay"))

    play(("TC", "7C"), ("9H", "9S"))
    assert state.standings() == [("Dan", 2), ("Ann", -2)] and state.winners() == ["Dan"]
    first = state.last_result()
    assert first is not None and first == state.results[0]
    play(("TC", "8C"), ("9H", "8H"))
    assert state.standings() == [("Ann", 0), ("Dan", 0)] and state.winners() == ["Ann", "Dan"]
    second = state.last_result()
    assert second is not None and second != first and second == state.results[1]
    play(("TC", "9C"), ("TH", "9S"))
    assert state.standings() == [("Dan", 2), ("Ann", -2)] and state.winners() == ["Dan"]
    assert len(state.results) == 3 and state.last_result() == state.results[2]
    assert state.last_result() not in (first, second)
    assert state.entries == 3 and state.counted == 3


def test_the_house_is_no_player_in_the_standings() -> None:
    """casino: the house's balance is kept, but it neither stands nor wins."""
    state = new_game(PRESETS["casino"], ["Ann", "Bob"])
    state.balances[HOUSE] = 10
    state.balances["Bob"] = 4
    assert state.standings() == [("Bob", 2), ("Ann", 0)] and state.winners() == ["Bob"]
    assert state.balances_units() == {"Ann": 0, "Bob": 2, HOUSE: 5}


def test_the_game_ends_after_its_counted_deals_not_before() -> None:
    """house, counted_deals 2: after one deal the table waits for the next."""
    state = house_game(counted=2)
    deal_two(state, ("TC", "8C"), ("9H", "8H"))
    apply(state, Decide("Ann", "stick"))
    apply(state, BankDecide("stay"))
    assert state.phase is Phase.BETWEEN and not state.game_over and state.counted == 1
    assert state.deal_number == 1


# -- the data and its JSON ----------------------------------------------------------


def _states_along_a_deal() -> list[GameState]:
    """A fresh game, a dealt one at Ann's decision, one at the bank's turn and a settled one."""
    state = house_game()
    seen = [state.copy()]
    deal_two(state, ("TC", "8C"), ("9H", "8H"))
    seen.append(state.copy())
    apply(state, Decide("Ann", "stick"))
    seen.append(state.copy())
    apply(state, BankDecide("stay"))
    seen.append(state.copy())
    cut = new_game(PRESETS["shoot"], ["Ann", "Bob", "Cat"], seed=4)
    seen.append(cut)
    return seen


def test_a_state_round_trips_through_json_losslessly() -> None:
    """docs/rules.md: ``to_json``/``from_json`` round-trip losslessly and
    ``copy()`` is an independent state of the same class."""
    for state in _states_along_a_deal():
        text = state.to_json()
        again = GameState.from_json(text)
        assert type(again) is GameState and again == state and again.to_json() == text
        assert again.to_dict() == state.to_dict()
        assert json.loads(text) == json.loads(json.dumps(state.to_dict()))
        assert again.need == state.need and again.hand_views() == state.hand_views()
        assert again.bank_view() == state.bank_view() and again.turn() == state.turn()
        assert again.standings() == state.standings() and again.results == state.results
        assert again.pack.cards() == state.pack.cards() and again.rules == state.rules
        copy = state.copy()
        assert type(copy) is GameState and copy == state and copy is not state


def test_the_json_names_every_part() -> None:
    state = house_game(counted=1)
    d = json.loads(state.to_json())
    assert sorted(d) == sorted(
        ["rules", "players", "seed", "pack", "phase", "banker", "balances", "kitty",
         "kitty_needed", "deal", "entries", "counted", "results", "keep_results", "sale", "cut"]
    )  # fmt: skip
    assert d["players"] == ["Ann", "Dan"] and d["seed"] == 0 and d["phase"] == "between"
    assert d["banker"] == "Dan" and d["balances"] == {"Ann": 0, "Dan": 0} and d["kitty"] == 0
    assert d["deal"] is None and d["entries"] == 0 and d["counted"] == 0 and d["results"] == []
    assert d["keep_results"] is True and d["kitty_needed"] is False
    assert d["pack"] == state.pack.to_dict() and ruleset_from_dict(d["rules"]) == state.rules
    deal_two(state, ("TC", "8C"), ("9H", "8H"))
    deal = json.loads(state.to_json())["deal"]
    assert deal["step"] == "play" and deal["banker"] == "Dan" and deal["seats"] == ["Ann"]
    assert deal["number"] == 1 and [h["cards"] for h in deal["hands"][0]] == [["TC", "8C"]]
    assert deal["bank"]["cards"] == ["9H", "8H"] and deal["queue"] == []


def test_a_state_read_back_offers_what_the_live_one_offers() -> None:
    """A state read back from JSON (or copied) waits for the same thing and
    offers the same actions as the state that was never written out, at every
    point of a deal: nothing worked out for the old state is kept."""

    def played(stage: int) -> GameState:
        state = house_game()
        if stage >= 1:
            deal_two(state, ("TC", "8C"), ("9H", "8H"))
        if stage >= 2:
            apply(state, Decide("Ann", "stick"))
        return state

    for stage in range(3):
        for again in (GameState.from_json(played(stage).to_json()), played(stage).copy()):
            live = played(stage)
            assert legal_actions(again) == legal_actions(live)
            assert again.need == live.need and pending(again) == pending(live)
    at_decision = GameState.from_json(played(1).to_json())
    need = at_decision.need
    assert isinstance(need, DecisionNeed) and (need.player, need.hand) == ("Ann", 1)
    assert "stick" in need.words and "twist" in need.words


def test_a_bank_sold_between_deals_is_kept_in_the_json() -> None:
    """traditional, Bob banks and sells the bank to Ann for 5 (RULES.md §3)."""
    state = new_game(PRESETS["traditional"], ["Ann", "Bob"], banker="Bob")
    apply(state, SellBank("Ann", 5))
    assert state.sale == {"from": "Bob", "to": "Ann", "price": 5} and state.banker == "Ann"
    again = GameState.from_json(state.to_json())
    assert again.sale == state.sale and again == state and again.banker == "Ann"
    assert again.balances == {"Ann": -10, "Bob": 10}


def test_an_edited_state_is_a_different_state() -> None:
    state = house_game()
    other = state.copy()
    assert other == state
    other.kitty = 2
    assert other != state and state.kitty == 0
    assert state != state.to_dict()  # a dict is not a state
    with pytest.raises(TypeError):
        hash(state)


def test_a_new_deal_starts_empty() -> None:
    """Deal 3, banker Dan, seats Ann and Bob, kitty 6: one empty hand each, at
    the first card round, nothing staked, insured, split, dealt or returned."""
    deal = Deal(3, "Dan", ["Ann", "Bob"], 6)
    assert (deal.number, deal.banker, deal.seats, deal.start_kitty) == (3, "Dan", ["Ann", "Bob"], 6)
    assert deal.step is Step.FIRST and deal.queue == [] and deal.dealt == [] and deal.returned == []
    assert [[h.cards for h in hs] for hs in deal.hands] == [[[]], [[]]] and deal.bank.cards == []
    assert (deal.seat_i, deal.hand_i, deal.shoot_i) == (0, 0, 0)
    assert deal.staked == [False, False] and deal.insurance == [0, 0]
    assert deal.split_aces == [False, False]
    assert not deal.bank_pontoon and not deal.bank_started and not deal.sale
    assert set(deal.to_dict()) == set(Deal.__slots__)  # its JSON names its parts, no more
    back = Deal.from_dict(json.loads(json.dumps(deal.to_dict())))
    assert back.to_dict() == deal.to_dict() and back.step is Step.FIRST


def test_a_deal_in_play_round_trips_with_its_queue() -> None:
    deal = Deal(1, "Dan", ["Ann"], 0)
    deal.queue = [(0, 0, False), (-1, 0, True)]
    deal.step = Step.SECOND
    deal.hands[0][0].add(c("5D"), False, 1)
    d = json.loads(json.dumps(deal.to_dict()))
    assert d["queue"] == [[0, 0, False], [-1, 0, True]] and d["step"] == "second"
    back = Deal.from_dict(d)
    assert back.queue == [(0, 0, False), (-1, 0, True)] and back.step is Step.SECOND
    assert back.hands[0][0].cards == [c("5D")] and back.to_dict() == deal.to_dict()


def test_a_state_of_the_base_class_reads_back_as_such() -> None:
    base = State(Ruleset(preset="house"), ["Ann", "Dan"], 5)
    again = State.from_json(base.to_json())
    assert type(again) is State and again == base and type(base.copy()) is State
