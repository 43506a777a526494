"""Cards, card sets, hands and the pack, each worked out by hand.

Every expected value below comes from the card encoding documented in
``controller/rules/cards.py`` and docs/rules.md (a card's code is
``rank * 4 + suit``, ranks A 2 3 4 5 6 7 8 9 T J Q K, suits C D H S, so AC is
0, AS 3, 2C 4, TC 36 and KS 51), from RULES.md §1 (values, totals, bust,
pontoon, five-card trick, cutting order) and from docs/rules.md's promises for
the pack (canonical order, ``take`` from anywhere, ``stack_top``,
``to_bottom``, a shuffle seeded with ``random.Random("pontoon-table:{seed}:{counter}")``).
Refusals are user-facing (a dealer reads them), so they are pinned word for word.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from controller.rules import (
    Card,
    DealCard,
    Pack,
    PackError,
    PlaceStake,
    StackTop,
    StartDeal,
    apply,
    hand_total,
    is_bust,
    is_pontoon,
    is_soft,
    load_ruleset,
    new_game,
)
from controller.rules.cards import (
    CardSet,
    is_ace,
    is_ten_card,
    rank_of,
    same_rank,
    suit_of,
)
from controller.rules.hands import Hand, is_five_card_trick

#: written out by hand from RULES.md §1 (T for 10) and the suit order C D H S
RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "CDHS"
#: RULES.md §1: A is 1 (or 11, the hand decides), ten-cards 10, others face value
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9}
VALUE.update({"T": 10, "J": 10, "Q": 10, "K": 10})
#: RULES.md §1: for cutting A is high, then K Q J 10 9 ... 2 (2 lowest)
CUT = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9}
CUT.update({"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14})


def every_name() -> list[str]:
    """The 52 names in code order: code = rank index * 4 + suit index."""
    return [r + s for r in RANK_LETTERS for s in SUIT_LETTERS]


def c(name: str) -> Card:
    return Card.parse(name)


# -- cards ------------------------------------------------------------------------


def test_the_code_of_a_card_is_its_rank_times_four_plus_its_suit() -> None:
    """A few codes worked out by hand: AC = 0*4+0 = 0, AS = 0*4+3 = 3,
    2C = 1*4+0 = 4, 9S = 8*4+3 = 35, TC = 9*4+0 = 36, JD = 10*4+1 = 41,
    QH = 11*4+2 = 46, KS = 12*4+3 = 51."""
    by_hand = {"AC": 0, "AS": 3, "2C": 4, "9S": 35, "TC": 36, "JD": 41, "QH": 46, "KS": 51}
    for name, code in by_hand.items():
        assert int(c(name)) == code, name
    assert [str(Card(code)) for code in range(52)] == every_name()


def test_every_code_reads_back_its_rank_suit_value_and_cut_order() -> None:
    for code, name in enumerate(every_name()):
        rank, suit = name[0], name[1]
        card = Card(code)
        assert rank_of(code) == RANK_LETTERS.index(rank), name
        assert suit_of(code) == SUIT_LETTERS.index(suit), name
        assert card.rank == rank and card.suit == suit, name
        assert card.rank_index == RANK_LETTERS.index(rank), name
        assert card.value == VALUE[rank], name
        assert card.cut_rank == CUT[rank], name


def test_only_the_four_aces_are_aces_and_only_ten_to_king_are_ten_cards() -> None:
    """Codes 0-3 are the aces; 4 (2C) is the first card that is not.
    Ten-cards are T J Q K, codes 36 (TC) to 51 (KS); 35 (9S) is not one."""
    for code, name in enumerate(every_name()):
        assert is_ace(code) is (name[0] == "A"), name
        assert Card(code).is_ace is (name[0] == "A"), name
        assert is_ten_card(code) is (name[0] in "TJQK"), name
        assert Card(code).is_ten_card is (name[0] in "TJQK"), name


def test_same_rank_compares_ranks_never_suits() -> None:
    for a, a_name in enumerate(every_name()):
        for b, b_name in enumerate(every_name()):
            assert same_rank(a, b) is (a_name[0] == b_name[0]), (a_name, b_name)


def test_cards_are_read_as_rules_md_writes_them() -> None:
    """RULES.md §1: rank then suit, 10 or T for ten, any case, spaces around ignored."""
    assert c("10H") == c("TH") == c("th") == c(" 10h ") == Card(9 * 4 + 2)
    assert c("AS") == Card(3) and c("ks") == Card(51) and c("2c") == Card(4)
    card = c("QD")
    assert Card.parse(card) is card


def test_what_is_not_a_card_is_refused_in_words() -> None:
    rule = "(write rank A 2-10 J Q K, T for 10, then suit C D H S)"
    for bad in ("1H", "AX", "", "10", "KHH", "11H", "100H"):
        with pytest.raises(ValueError) as refused:
            Card.parse(bad)
        assert str(refused.value) == f"unknown card {bad!r} {rule}"
    for bad_type in (5, None, 3.0):
        with pytest.raises(ValueError) as refused:
            Card.parse(bad_type)  # type: ignore[arg-type]
        assert str(refused.value) == f"not a card: {bad_type!r}"


# -- card sets ----------------------------------------------------------------------


def test_an_empty_card_set_holds_nothing() -> None:
    empty = CardSet()
    assert len(empty) == 0 and list(empty) == [] and empty == frozenset()
    assert all(code not in empty for code in range(52))


def test_a_card_set_holds_exactly_its_cards_in_code_order() -> None:
    """{KD, AS}: KD is 12*4+1 = 49, AS 3; listed by code, AS first."""
    two = CardSet.of([c("KD"), c("AS")])
    assert list(two) == [c("AS"), c("KD")] and len(two) == 2
    assert [str(x) for x in two] == ["AS", "KD"]
    for code, name in enumerate(every_name()):
        assert (code in two) is (name in ("AS", "KD")), name
        assert (Card(code) in two) is (name in ("AS", "KD")), name
    # the first and the last code, together
    ends = CardSet.of([c("AC"), c("KS")])
    assert c("AC") in ends and c("KS") in ends and 0 in ends and 51 in ends
    assert list(ends) == [c("AC"), c("KS")]
    # every card
    full = CardSet.of(range(52))
    assert len(full) == 52 and list(full) == [Card(i) for i in range(52)]


def test_a_card_set_answers_other_values_as_a_frozenset_would() -> None:
    """Outside 0-51, and for anything not an int, ``in`` says what
    ``frozenset`` says: 3.0 equals the code 3 (AS), 3.5 and "AS" equal no card."""
    two: Any = CardSet.of([c("KD"), c("AS")])  # asked about any value
    assert -1 not in two and 52 not in two and 53 not in two
    assert 3.0 in two and 3.5 not in two and "AS" not in two and None not in two
    assert 2.0 not in two  # AH is not in the set


def test_a_card_set_equals_and_hashes_like_the_frozenset_of_its_cards() -> None:
    two = CardSet.of([c("KD"), c("AS")])
    assert two == frozenset({c("AS"), c("KD")}) and two == {3, 49}
    assert two == CardSet.of([c("AS"), c("KD")])
    assert hash(two) == hash(frozenset({c("AS"), c("KD")}))
    assert two != CardSet.of([c("AS")]) and two != CardSet.of([c("AS"), c("KS")])
    assert CardSet.of([c("AS")]) != frozenset({c("AS"), c("KD")})  # a subset is not equal
    assert two != frozenset({c("AS"), c("KS")})  # same size, another card
    assert two != frozenset({c("AS")}) and two != set()
    assert (two == 3) is False and two != [3, 49]
    # set operations give plain frozensets
    both = two & {c("KD"), c("KS")}
    assert both == frozenset({c("KD")}) and type(both) is frozenset
    assert two | {c("KS")} == frozenset({c("AS"), c("KD"), c("KS")})


# -- hands ------------------------------------------------------------------------


def test_a_new_hand_has_its_stake_and_nothing_else() -> None:
    """Before any card a hand holds nothing: total 0, no ace, no story
    (docs/rules.md: ``Hand``, cards, stake and story)."""
    hand = Hand(6)
    assert hand.cards == [] and hand.up == [] and hand.seqs == []
    assert hand.hard == 0 and hand.total == 0 and not hand.ace and not hand.soft
    assert hand.stake == 6 and hand.original == 6
    assert hand.last_buy == 0 and hand.shoot == 0 and hand.words == 0 and hand.net == 0
    story: tuple[str, ...] = (
        "twisted",
        "doubled",
        "split_new",
        "split_ace",
        "shoot4",
        "shoot_start",
    )
    story += ("must_draw", "done", "bust", "paid", "declared")
    assert [name for name in story if getattr(hand, name)] == []
    assert Hand().stake == 0 and Hand().original == 0


def test_cards_added_one_by_one_keep_the_total() -> None:
    """AS up (seq 1), 6D down (seq 2): soft 17 (1+6+10); 9C up (seq 3): the ace
    must count 1, hard 16; KH: 26, bust."""
    hand = Hand(2)
    hand.add(c("AS"), True, 1)
    assert hand.total == 11 and hand.soft and hand.ace
    hand.add(c("6D"), False, 2)
    assert hand.cards == [c("AS"), c("6D")] and hand.up == [True, False] and hand.seqs == [1, 2]
    assert hand.hard == 7 and hand.total == 17 and hand.soft
    hand.add(c("9C"), True, 3)
    assert hand.hard == 16 and hand.total == 16 and not hand.soft and hand.ace
    hand.add(c("KH"), True, 4)
    assert hand.hard == 26 and hand.total == 26
    no_ace = Hand()
    no_ace.add(c("2C"), True, 1)  # code 4, the first card that is no ace
    no_ace.add(c("9H"), True, 2)
    assert no_ace.total == 11 and not no_ace.ace and not no_ace.soft


def test_totals_of_card_lists_by_hand() -> None:
    """RULES.md §1.  2C 9H: 2+9 = 11, no ace to count as 11.  AC 9H: 1+9+10 = 20,
    soft.  KS QD AC: 21 with the ace as 1, not bust; KS QD 2C: 22, bust."""
    assert hand_total([c("2C"), c("9H")]) == 11 and not is_soft([c("2C"), c("9H")])
    assert hand_total([c("2S"), c("2H"), c("2D")]) == 6
    assert hand_total([c("AC"), c("9H")]) == 20 and is_soft([c("AC"), c("9H")])
    assert hand_total([c("AC")]) == 11 and hand_total([]) == 0
    assert (
        not is_bust([c("KS"), c("QD"), c("AC")]) and hand_total([c("KS"), c("QD"), c("AC")]) == 21
    )
    assert is_bust([c("KS"), c("QD"), c("2C")]) and hand_total([c("KS"), c("QD"), c("2C")]) == 22
    assert not is_bust([c("KS"), c("QD")])
    assert is_pontoon([c("AC"), c("TC")]) and is_pontoon([c("KS"), c("AD")])
    assert not is_pontoon([c("2C"), c("KS")]) and not is_pontoon([c("AC"), c("9S")])
    assert is_five_card_trick([c("2C"), c("2D"), c("2H"), c("2S"), c("AC")])
    assert not is_five_card_trick([c("2C"), c("2D"), c("2H"), c("2S")])
    assert not is_five_card_trick([c("TC"), c("2D"), c("2H"), c("2S"), c("8C")])  # 24


def test_a_hand_without_an_ace_is_plainly_not_soft_and_no_pontoon() -> None:
    """``soft``, ``pontoon`` and ``five`` are yes-or-no answers (the display's
    ``HandView`` carries them as ``bool``): 2C 9H is 11, hard, no pontoon."""
    hand = Hand()
    for seq, name in enumerate(["2C", "9H"], 1):
        hand.add(c(name), True, seq)
    assert hand.soft is False and hand.pontoon is False and hand.five is False
    assert Hand().soft is False and Hand().pontoon is False


def test_the_views_of_hands_in_play_are_plain_booleans() -> None:
    """house, Dan banks: Ann TC, Dan 9H, Ann stakes 2, Ann 8C, Dan 8H.  Ann's
    hand is 18 (10+8), hard, neither done nor bust, no pontoon, her turn; the
    bank is 17 (9+8), waiting.  Every flag the display reads is True or False."""
    state = new_game(load_ruleset("house", {"counted_deals": 1}), ["Ann", "Dan"], banker="Dan")
    apply(state, StackTop(tuple(c(n) for n in ["TC", "9H", "8C", "8H"])))
    apply(state, StartDeal())
    apply(state, DealCard(c("TC")))
    apply(state, DealCard(c("9H")))
    apply(state, PlaceStake("Ann", 2))
    apply(state, DealCard(c("8C")))
    apply(state, DealCard(c("8H")))
    (ann,) = state.hand_views()
    assert (ann.player, ann.hand, ann.total, ann.stake) == ("Ann", 1, 18, 2)
    flags = (ann.soft, ann.done, ann.bust, ann.pontoon, ann.five_card_trick, ann.in_turn)
    assert flags == (False, False, False, False, False, True)
    assert all(type(flag) is bool for flag in flags)
    bank = state.bank_view()
    assert bank is not None and (bank.player, bank.hand, bank.total) == ("Dan", 0, 17)
    flags = (bank.soft, bank.done, bank.bust, bank.pontoon, bank.five_card_trick, bank.in_turn)
    assert flags == (False, False, False, False, False, False)
    assert all(type(flag) is bool for flag in flags)


def test_showing_a_hand_turns_every_card_up() -> None:
    hand = Hand()
    hand.add(c("AS"), False, 1)
    hand.add(c("6D"), False, 2)
    hand.show()
    assert hand.up == [True, True]
    Hand().show()  # nothing to show: no error


def test_a_hand_goes_to_json_by_card_names_and_back_unchanged() -> None:
    hand = Hand(4)
    hand.add(c("AS"), True, 7)
    hand.add(c("10D"), False, 9)
    hand.doubled = True
    hand.net = -8
    d = hand.to_dict()
    assert d["cards"] == ["AS", "TD"] and d["up"] == [True, False] and d["seqs"] == [7, 9]
    assert d["stake"] == 4 and d["doubled"] is True and d["net"] == -8
    assert set(d) == set(Hand.__slots__)
    again = Hand.from_dict(json.loads(json.dumps(d)))
    assert again.to_dict() == d
    assert again.cards == [3, 9 * 4 + 1] and again.total == 21 and again.pontoon
    assert again.up == [True, False] and again.seqs == [7, 9]
    # the read-back lists are the hand's own, not the dict's
    again.add(c("2C"), True, 10)
    assert d["up"] == [True, False] and d["seqs"] == [7, 9]


# -- the pack -----------------------------------------------------------------------


def test_a_new_pack_lies_in_canonical_order() -> None:
    """docs/rules.md: a canonical order, code order AC AD AH AS 2C ... KS."""
    pack = Pack()
    assert len(pack) == 52 and pack.packs == 1 and pack.seed == 0 and pack.shuffles == 0
    assert [str(x) for x in pack.cards()] == every_name()
    assert pack.to_dict() == {"packs": 1, "seed": 0, "shuffles": 0, "cards": every_name()}
    two = Pack(2, seed=4)
    assert len(two) == 104 and [str(x) for x in two.cards()] == every_name() * 2
    assert all(two.count(code) == 2 for code in range(52))
    assert two.present() == CardSet.of(range(52))


def test_the_top_card_is_peeked_and_drawn_first() -> None:
    pack = Pack()
    assert pack.peek() == c("AC") and len(pack) == 52
    assert pack.draw() == c("AC") and pack.draw() == c("AD")
    assert pack.peek() == c("AH") and len(pack) == 50
    assert c("AC") not in pack and c("AD") not in pack and c("AH") in pack


def test_an_empty_pack_says_so() -> None:
    pack = Pack()
    for _ in range(52):
        pack.draw()
    for read in (pack.peek, pack.draw):
        with pytest.raises(PackError) as refused:
            read()
        assert str(refused.value) == "the pack is empty"
    assert len(pack) == 0 and len(pack.present()) == 0


def test_what_is_in_the_pack() -> None:
    """A card is in the pack while a copy is left; ``in`` for anything else
    says what the list of cards would (3.5 and "AS" are no card)."""
    pack = Pack()
    for code in range(52):
        assert code in pack and Card(code) in pack
    assert -1 not in pack and 52 not in pack and 53 not in pack
    assert "AS" not in pack and 3.5 not in pack and None not in pack
    assert 3.0 in pack  # equal to the code of AS, as in a list
    pack.take(c("AS"))
    assert c("AS") not in pack and 3 not in pack and 3.0 not in pack
    assert c("AC") in pack and c("KS") in pack
    two = Pack(2)
    two.take(c("KS"))
    assert c("KS") in two and two.count(c("KS")) == 1
    two.take(c("KS"))
    assert c("KS") not in two and two.count(c("KS")) == 0


def test_a_card_is_taken_from_wherever_it_is() -> None:
    """Taking 2C (code 4, fifth from the top) leaves AC on top and the rest in order;
    taking the second card (AD) leaves AC on top too; taking the top card (AC) leaves AH."""
    pack = Pack()
    assert pack.take(c("2C")) == c("2C")
    rest = [n for n in every_name() if n != "2C"]
    assert [str(x) for x in pack.cards()] == rest
    assert pack.take(c("AD")) == c("AD")
    rest.remove("AD")
    assert [str(x) for x in pack.cards()] == rest
    assert pack.take(c("AC")) == c("AC")
    rest.remove("AC")
    assert [str(x) for x in pack.cards()] == rest and pack.peek() == c("AH")
    assert pack.present() == CardSet.of(c(n) for n in rest)
    assert len(pack.present()) == 49 and len(pack) == 49
    assert [pack.count(c(n)) for n in ("AC", "AD", "AH", "2C", "2D")] == [0, 0, 1, 0, 1]


def test_a_card_taken_twice_is_refused_naming_the_decks() -> None:
    one = Pack()
    one.take(c("QH"))
    with pytest.raises(PackError) as refused:
        one.take(c("QH"))
    assert str(refused.value) == "QH is not in the pack (it is already out)"
    two = Pack(2)
    two.take(c("QH"))
    two.take(c("QH"))
    with pytest.raises(PackError) as refused:
        two.take(c("QH"))
    assert str(refused.value) == "QH is not in the pack (all 2 are already out)"
    three = Pack(3)
    for _ in range(3):
        three.take(c("AC"))
    with pytest.raises(PackError) as refused:
        three.take(c("AC"))
    assert str(refused.value) == "AC is not in the pack (all 3 are already out)"
    assert len(three) == 153


def test_cards_stacked_on_top_come_out_in_the_order_given() -> None:
    pack = Pack()
    pack.stack_top([c("KS")])  # the one KS of a single deck
    assert pack.peek() == c("KS") and len(pack) == 52
    pack.stack_top([c("2D"), c("AC"), c("KS")])
    assert [str(x) for x in pack.cards()[:4]] == ["2D", "AC", "KS", "AD"]
    assert len(pack) == 52 and pack.present() == CardSet.of(range(52))
    two = Pack(2)
    two.stack_top([c("5H"), c("5H")])  # both copies
    assert [str(x) for x in two.cards()[:3]] == ["5H", "5H", "AC"]


def test_stacking_what_is_not_there_is_refused_and_changes_nothing() -> None:
    """1 deck: AS twice when one is left; 2 decks: AS three times when two are
    left, AS twice when one is left; a card already out, once or twice."""
    cases = [
        (1, [], ["AS", "AS"], "AS cannot be stacked 2 times: 1 left in the pack of 1 deck(s)"),
        (2, [], ["AS"] * 3, "AS cannot be stacked 3 times: 2 left in the pack of 2 deck(s)"),
        (2, ["AS"], ["AS", "AS"], "AS cannot be stacked 2 times: 1 left in the pack of 2 deck(s)"),
        (1, ["7C"], ["7C"], "7C is not in the pack (it is already out)"),
        (1, ["7C"], ["2D", "7C", "7C"], "7C is not in the pack (it is already out)"),
        (2, ["7C", "7C"], ["7C"], "7C is not in the pack (it is already out)"),
    ]
    for decks, taken, stacked, sentence in cases:
        pack = Pack(decks)
        for name in taken:
            pack.take(c(name))
        before = pack.to_dict()
        with pytest.raises(PackError) as refused:
            pack.stack_top([c(n) for n in stacked])
        assert str(refused.value) == sentence
        assert pack.to_dict() == before


def test_used_cards_go_under_the_pack_and_count_again() -> None:
    pack = Pack()
    first = [pack.draw() for _ in range(3)]  # AC AD AH
    assert pack.present() == CardSet.of(range(3, 52))
    pack.to_bottom([first[2], first[0]])  # AH, then AC
    assert [str(x) for x in pack.cards()[-2:]] == ["AH", "AC"] and len(pack) == 51
    assert pack.present() == CardSet.of([x for x in range(52) if x != 1])
    assert pack.count(c("AH")) == 1 and pack.count(c("AC")) == 1 and pack.count(c("AD")) == 0
    assert c("AH") in pack and c("AD") not in pack
    two = Pack(2)
    two.take(c("9D"))
    two.to_bottom([c("9D")])
    assert two.count(c("9D")) == 2 and len(two) == 104
    pack.to_bottom([])
    assert len(pack) == 51


def test_a_shuffle_is_seeded_from_the_game_seed_and_its_counter() -> None:
    """docs/rules.md: shuffle number n of seed s uses
    ``random.Random("pontoon-table:{s}:{n}")``, shuffling as ``Random.shuffle``."""
    pack = Pack(1, seed=7)
    pack.shuffle()
    expected = every_name()
    random.Random("pontoon-table:7:1").shuffle(expected)
    assert [str(x) for x in pack.cards()] == expected and pack.shuffles == 1
    pack.shuffle()
    random.Random("pontoon-table:7:2").shuffle(expected)
    assert [str(x) for x in pack.cards()] == expected and pack.shuffles == 2
    # the default seed is 0
    default = Pack()
    default.shuffle()
    zero = every_name()
    random.Random("pontoon-table:0:1").shuffle(zero)
    assert [str(x) for x in default.cards()] == zero


def test_a_shuffle_gathers_the_used_cards_back() -> None:
    pack = Pack(1, seed=2)
    out = [pack.draw() for _ in range(5)]
    assert len(pack) == 47 and c("AC") not in pack
    pack.shuffle(out)
    assert len(pack) == 52 and sorted(pack.cards()) == [Card(i) for i in range(52)]
    assert pack.present() == CardSet.of(range(52)) and pack.count(c("AC")) == 1
    expected = every_name()[5:] + every_name()[:5]  # the five go under, then the shuffle
    random.Random("pontoon-table:2:1").shuffle(expected)
    assert [str(x) for x in pack.cards()] == expected


def test_a_copy_of_the_pack_is_equal_and_independent() -> None:
    pack = Pack(2, seed=5)
    pack.shuffle()
    pack.take(c("JS"))
    pack.take(c("JS"))
    pack.take(c("4H"))
    copy = pack.copy()
    assert copy.to_dict() == pack.to_dict() and len(copy) == 101
    assert copy.present() == pack.present() and c("JS") not in copy
    assert copy.count(c("4H")) == 1 and copy.count(c("JS")) == 0
    top = copy.draw()
    assert len(pack) == 101 and pack.peek() == top and copy.count(top) == pack.count(top) - 1
    copy.to_bottom([c("JS")])
    assert c("JS") not in pack and c("JS") in copy
    # both shuffle on from the same counter
    original = pack.copy()
    original.shuffle()
    again = pack.copy()
    again.shuffle()
    assert again.cards() == original.cards() and again.shuffles == 2


def test_a_pack_goes_to_json_and_back() -> None:
    """Taking 50 cards leaves KH KS; a written pack with 10H (read as TH)
    twice in 2 decks counts it twice."""
    pack = Pack(1, seed=7)
    for name in every_name()[:50]:
        pack.take(c(name))
    assert pack.to_dict() == {"packs": 1, "seed": 7, "shuffles": 0, "cards": ["KH", "KS"]}
    written = {"packs": 2, "seed": 3, "shuffles": 4, "cards": ["KS", "10H", "AD", "TH"]}
    back = Pack.from_dict(json.loads(json.dumps(written)))
    assert back.to_dict() == {**written, "cards": ["KS", "TH", "AD", "TH"]}
    assert len(back) == 4 and back.packs == 2 and back.seed == 3 and back.shuffles == 4
    assert back.count(c("TH")) == 2 and back.count(c("KS")) == 1 and back.count(c("AC")) == 0
    assert back.present() == frozenset({c("KS"), c("TH"), c("AD")})
    assert c("AC") not in back and c("TH") in back and c("AD") in back
    back.take(c("TH"))
    assert c("TH") in back and back.present() == frozenset({c("KS"), c("TH"), c("AD")})
    back.take(c("TH"))
    assert back.present() == frozenset({c("KS"), c("AD")})
    # shuffle 5 of seed 3 (the counter goes on from 4), of what is left: KS AD
    back.shuffle()
    expected = ["KS", "AD"]
    random.Random("pontoon-table:3:5").shuffle(expected)
    assert [str(x) for x in back.cards()] == expected
    empty = Pack.from_dict({"packs": 1, "seed": 0, "shuffles": 0, "cards": []})
    assert len(empty.present()) == 0 and 0 not in empty
