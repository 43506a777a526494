"""The engine's actions as the journal stores them, and the families of legal
actions, checked against values written out by hand.

The JSON form (``action_to_dict`` / ``action_from_dict``, "for the journal":
docs/architecture.md) is the action's class name under ``"type"`` and each
field under its own name: cards in the two-character form with ``T`` for ten
(SCENARIO.md, Output), whole amounts as JSON numbers and half units (an
insurance of 2.5, RULES.md §6) as the fraction's text ``"5/2"``.  Every row of
the journal is read back with it, so a round trip must give the very same
action.

``LegalAction.accepts`` is the check docs/architecture.md describes: the kind,
the player and word when pinned, the amount within ``minimum..maximum``
(``maximum`` None: no upper limit), whole unless ``halves``, a word with no
range takes no amount, and a fixed amount (``minimum == maximum``, a plain
``buy``) may be left out; ``cards`` and ``names`` list what may be dealt or
whom the bank may be sold to.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from controller.rules import (
    Action,
    BankDecide,
    Card,
    DealCard,
    Decide,
    IllegalAction,
    LegalAction,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    SellBank,
    StackTop,
    StartDeal,
    VoidDeal,
    action_from_dict,
    action_to_dict,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
)
from controller.rules.actions import make_family


def c(text: str) -> Card:
    return Card.parse(text)


# --------------------------------------------------------------- the JSON form
#: (action, its JSON form written by hand)
FORMS: list[tuple[Action, dict[str, Any]]] = [
    (StartDeal(), {"type": "StartDeal"}),
    (StackTop((c("AS"), c("10H"), c("QD"))), {"type": "StackTop", "cards": ["AS", "TH", "QD"]}),
    (StackTop(()), {"type": "StackTop", "cards": []}),
    (DealCard(c("10C")), {"type": "DealCard", "card": "TC"}),
    (DealCard(c("2D")), {"type": "DealCard", "card": "2D"}),
    (PlaceStake("Ann", 3), {"type": "PlaceStake", "player": "Ann", "amount": 3}),
    (PlaceShoot("Bob", 0), {"type": "PlaceShoot", "player": "Bob", "amount": 0}),
    (PlaceShoot("Bob", 4), {"type": "PlaceShoot", "player": "Bob", "amount": 4}),
    (Decide("Ann", "twist"), {"type": "Decide", "player": "Ann", "word": "twist", "amount": None}),
    (Decide("Ann", "buy", 3), {"type": "Decide", "player": "Ann", "word": "buy", "amount": 3}),
    # insurance is exactly half the stake: 2.5 on a stake of 5 (RULES.md §6)
    (
        Decide("Cat", "insurance", Fraction(5, 2)),
        {"type": "Decide", "player": "Cat", "word": "insurance", "amount": "5/2"},
    ),
    (BankDecide("draw"), {"type": "BankDecide", "word": "draw"}),
    (BankDecide("stay"), {"type": "BankDecide", "word": "stay"}),
    (PutKitty(5), {"type": "PutKitty", "amount": 5}),
    (SellBank("Cat", 4), {"type": "SellBank", "to": "Cat", "price": 4}),
    (SellBank("Cat", Fraction(7, 2)), {"type": "SellBank", "to": "Cat", "price": "7/2"}),
    (VoidDeal(), {"type": "VoidDeal", "reason": "voided by the dealer"}),
    (VoidDeal("the pack ran out"), {"type": "VoidDeal", "reason": "the pack ran out"}),
]


@pytest.mark.parametrize(("action", "form"), FORMS, ids=[str(f) for _, f in FORMS])
def test_each_action_has_its_json_form_and_reads_back_as_itself(
    action: Action, form: dict[str, Any]
) -> None:
    written = action_to_dict(action)
    assert written == form
    # the form survives the journal's JSON text and gives the very same action
    read = action_from_dict(json.loads(json.dumps(written)))
    assert read == action and type(read) is type(action)


def test_a_whole_fraction_is_written_as_a_plain_number() -> None:
    """A stake of 4 held as a fraction (4/1) is the JSON number 4, not "4"."""
    form = action_to_dict(PlaceStake("Ann", Fraction(4)))
    assert form == {"type": "PlaceStake", "player": "Ann", "amount": 4}
    assert type(form["amount"]) is int
    half = action_to_dict(Decide("Ann", "insurance", Fraction(1, 2)))["amount"]
    assert half == "1/2"


def test_cards_and_amounts_read_back_as_cards_and_fractions() -> None:
    """Text is turned back into the engine's types: a card code into a Card
    (``10H`` and ``th`` are the ten of hearts, RULES.md §1), a stack into a
    tuple of cards, an amount or price in fraction text into a Fraction."""
    deal = action_from_dict({"type": "DealCard", "card": "th"})
    assert isinstance(deal, DealCard) and deal.card == c("TH") and isinstance(deal.card, Card)
    stack = action_from_dict({"type": "StackTop", "cards": ["10H", "as"]})
    assert isinstance(stack, StackTop) and stack.cards == (c("TH"), c("AS"))
    assert type(stack.cards) is tuple
    insure = action_from_dict(
        {"type": "Decide", "player": "Cat", "word": "insurance", "amount": "5/2"}
    )
    assert isinstance(insure, Decide) and insure.amount == Fraction(5, 2)
    assert isinstance(insure.amount, Fraction)
    sale = action_from_dict({"type": "SellBank", "to": "Cat", "price": "7/2"})
    assert isinstance(sale, SellBank) and sale.price == Fraction(7, 2)
    # a number stays the number it is
    stake = action_from_dict({"type": "PlaceStake", "player": "Ann", "amount": 3})
    assert isinstance(stake, PlaceStake) and stake.amount == 3 and type(stake.amount) is int


def test_fields_left_out_take_their_defaults() -> None:
    """A decision with no amount (older rows), a void deal with no reason."""
    assert action_from_dict({"type": "Decide", "player": "Ann", "word": "stick"}) == Decide(
        "Ann", "stick", None
    )
    assert action_from_dict({"type": "VoidDeal"}) == VoidDeal("voided by the dealer")


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"type": "Shuffle"}, "unknown action type 'Shuffle'"),
        ({"type": "decide", "player": "Ann", "word": "stick"}, "unknown action type 'decide'"),
        ({"player": "Ann", "word": "stick"}, "unknown action type None"),
        ({"type": None}, "unknown action type None"),
        ({"type": "None"}, "unknown action type 'None'"),
        (
            {"type": "DealCard", "card": "1X"},
            "unknown card '1X' (write rank A 2-10 J Q K, T for 10, then suit C D H S)",
        ),
        (
            {"type": "StackTop", "cards": ["AS", "ZZ"]},
            "unknown card 'ZZ' (write rank A 2-10 J Q K, T for 10, then suit C D H S)",
        ),
        ({"type": "DealCard", "card": 7}, "not a card: 7"),
    ],
)
def test_malformed_action_json_is_refused_in_words(form: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as refused:
        action_from_dict(form)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    "form",
    [
        {"type": "PlaceStake", "player": "Ann"},
        {"type": "DealCard"},
        {"type": "Decide", "word": "stick"},
        {"type": "SellBank", "price": 3},
    ],
)
def test_an_action_missing_a_field_is_refused(form: dict[str, Any]) -> None:
    """No action is made up with a field missing: the row is refused."""
    with pytest.raises(TypeError):
        action_from_dict(form)


# ------------------------------------------------------------- IllegalAction
def test_a_refusal_with_a_player_starts_with_the_name() -> None:
    refusal = IllegalAction("cannot buy after twisting", player="Ann", hand=2, decision="buy 3")
    assert str(refusal) == "Ann cannot buy after twisting"
    assert refusal.reason == "cannot buy after twisting"
    assert (refusal.player, refusal.hand, refusal.decision) == ("Ann", 2, "buy 3")


def test_a_refusal_without_a_player_is_a_sentence_with_a_capital() -> None:
    refusal = IllegalAction("the pack is empty")
    assert str(refusal) == "The pack is empty"
    assert refusal.reason == "the pack is empty"
    assert (refusal.player, refusal.hand, refusal.decision) == (None, None, None)
    assert str(IllegalAction("x")) == "X"
    assert str(IllegalAction("")) == ""
    assert isinstance(refusal, ValueError)


# ------------------------------------------------------------ LegalAction
def _buy(lo: Any, hi: Any, *, halves: bool = False) -> LegalAction:
    return LegalAction(Decide, player="Ann", word="buy", minimum=lo, maximum=hi, halves=halves)


ACCEPTS: list[tuple[str, LegalAction, Action, bool]] = [
    # kind
    ("the start of a deal", LegalAction(StartDeal), StartDeal(), True),
    ("another kind", LegalAction(StartDeal), VoidDeal(), False),
    ("the bank's word for a player's family", LegalAction(Decide), BankDecide("stay"), False),
    # player and word pinned
    ("Ann's twist", LegalAction(Decide, "Ann", "twist"), Decide("Ann", "twist"), True),
    (
        "Bob's twist for Ann's family",
        LegalAction(Decide, "Ann", "twist"),
        Decide("Bob", "twist"),
        False,
    ),
    (
        "Ann's stick for a twist family",
        LegalAction(Decide, "Ann", "twist"),
        Decide("Ann", "stick"),
        False,
    ),
    (
        "any player when none is pinned",
        LegalAction(Decide, word="twist"),
        Decide("Bob", "twist"),
        True,
    ),
    ("any word when none is pinned", LegalAction(BankDecide), BankDecide("draw"), True),
    ("the bank's word pinned", LegalAction(BankDecide, word="stay"), BankDecide("draw"), False),
    # a word with no range takes no amount
    (
        "a twist with an amount",
        LegalAction(Decide, "Ann", "twist"),
        Decide("Ann", "twist", 1),
        False,
    ),
    (
        "a twist with amount 0",
        LegalAction(Decide, "Ann", "twist"),
        Decide("Ann", "twist", 0),
        False,
    ),
    # a first buy on an original stake of 2 adds 2 to 4 (RULES.md §2)
    ("buy 2 of 2..4", _buy(2, 4), Decide("Ann", "buy", 2), True),
    ("buy 3 of 2..4", _buy(2, 4), Decide("Ann", "buy", 3), True),
    ("buy 4 of 2..4", _buy(2, 4), Decide("Ann", "buy", 4), True),
    ("buy 1 of 2..4", _buy(2, 4), Decide("Ann", "buy", 1), False),
    ("buy 5 of 2..4", _buy(2, 4), Decide("Ann", "buy", 5), False),
    ("buy 5/2 of 2..4, whole units only", _buy(2, 4), Decide("Ann", "buy", Fraction(5, 2)), False),
    ("buy 3 as a fraction 3/1", _buy(2, 4), Decide("Ann", "buy", Fraction(3)), True),
    ("a plain buy when the amount is not fixed", _buy(2, 4), Decide("Ann", "buy"), False),
    ("buy True (a bool is no amount)", _buy(1, 4), Decide("Ann", "buy", True), False),
    ("buy '3' (text is no amount)", _buy(2, 4), Decide("Ann", "buy", "3"), False),  # type: ignore[arg-type]
    ("buy 3.0 (a float is no amount)", _buy(2, 4), Decide("Ann", "buy", 3.0), False),  # type: ignore[arg-type]
    # a plain buy is accepted when the rules leave exactly one amount
    ("a plain buy of a fixed 2", _buy(2, 2), Decide("Ann", "buy"), True),
    ("buy 2 of a fixed 2", _buy(2, 2), Decide("Ann", "buy", 2), True),
    ("buy 3 of a fixed 2", _buy(2, 2), Decide("Ann", "buy", 3), False),
    # no upper limit
    ("a kitty of 1000, no maximum", LegalAction(PutKitty, minimum=1), PutKitty(1000), True),
    ("a kitty of 0, minimum 1", LegalAction(PutKitty, minimum=1), PutKitty(0), False),
    # insurance: exactly half the stake of 5, in half units (RULES.md §6)
    (
        "insurance 5/2",
        _ins := LegalAction(Decide, "Cat", "insurance", Fraction(5, 2), Fraction(5, 2), True),
        Decide("Cat", "insurance", Fraction(5, 2)),
        True,
    ),
    ("insurance 2", _ins, Decide("Cat", "insurance", 2), False),
    ("insurance 3", _ins, Decide("Cat", "insurance", 3), False),
    ("insurance, the amount left out", _ins, Decide("Cat", "insurance"), True),
    (
        "a half unit where halves are allowed",
        LegalAction(PlaceShoot, "Ann", None, 0, 4, True),
        PlaceShoot("Ann", Fraction(3, 2)),
        True,
    ),
    (
        "a quarter where halves are allowed",
        LegalAction(PlaceShoot, "Ann", None, 0, 4, True),
        PlaceShoot("Ann", Fraction(5, 4)),
        False,
    ),
    (
        "no shoot bet (0) within 0..4",
        LegalAction(PlaceShoot, "Ann", None, 0, 4),
        PlaceShoot("Ann", 0),
        True,
    ),
    # a sale: the price is the amount, the buyer one of the names
    (
        "a sale to Cat for 3",
        _sale := LegalAction(SellBank, minimum=1, names=("Ann", "Cat")),
        SellBank("Cat", 3),
        True,
    ),
    ("a sale to Bob, not a name", _sale, SellBank("Bob", 3), False),
    ("a sale for 0", _sale, SellBank("Ann", 0), False),
    ("a sale for 1/2, whole units only", _sale, SellBank("Ann", Fraction(1, 2)), False),
    # the cards that may be dealt
    (
        "a card in the set",
        _deal := LegalAction(DealCard, cards=frozenset({c("AS"), c("TH")})),
        DealCard(c("TH")),
        True,
    ),
    ("a card not in the set", _deal, DealCard(c("KH")), False),
    ("a stack when only deals are legal", _deal, StackTop((c("AS"),)), False),
]


@pytest.mark.parametrize(
    ("family", "action", "expected"),
    [case[1:] for case in ACCEPTS],
    ids=[case[0] for case in ACCEPTS],
)
def test_a_family_accepts_exactly_its_actions(
    family: LegalAction, action: Action, expected: bool
) -> None:
    assert family.accepts(action) is expected


def test_the_engines_quick_family_is_the_same_object_as_the_plain_one() -> None:
    """``make_family`` builds "the very same (equal, frozen) object" as
    ``LegalAction(...)`` (its docstring): every field in its place."""
    cards = frozenset({c("AS")})
    made = make_family(SellBank, "Ann", "sell", 1, 9, True, cards, ("Bob", "Cat"))
    plain = LegalAction(SellBank, "Ann", "sell", 1, 9, True, cards, ("Bob", "Cat"))
    assert made == plain and hash(made) == hash(plain)
    assert (made.kind, made.player, made.word, made.minimum, made.maximum) == (
        SellBank,
        "Ann",
        "sell",
        1,
        9,
    )
    assert (made.halves, made.cards, made.names) == (True, cards, ("Bob", "Cat"))
    assert make_family(Decide) == LegalAction(Decide)
    bare = make_family(Decide)
    assert (bare.player, bare.word, bare.minimum, bare.maximum) == (None, None, None, None)
    assert (bare.halves, bare.cards, bare.names) == (False, None, None)


def test_a_house_hand_of_12_may_twist_or_buy_2_to_4_but_not_stick() -> None:
    """RULES.md §2's worked example: original stake 2, hand 8+4 = 12.  Under
    21 it may twist or buy; the first buy adds 2 to 4 units; it may not stick
    under 15.  The families the engine offers accept exactly that."""
    state = new_game(load_ruleset("house"), ["Ann", "Bob"], banker="Bob", seed=1)
    apply(state, StackTop((c("8C"), c("9H"), c("4D"), c("9S"))))
    apply(state, StartDeal())
    apply(state, DealCard(c("8C")))
    apply(state, DealCard(c("9H")))
    apply(state, PlaceStake("Ann", 2))
    apply(state, DealCard(c("4D")))
    apply(state, DealCard(c("9S")))
    families = legal_actions(state)

    def legal(action: Action) -> bool:
        return any(f.accepts(action) for f in families)

    assert legal(Decide("Ann", "twist"))
    assert [legal(Decide("Ann", "buy", n)) for n in (1, 2, 3, 4, 5)] == [
        False,
        True,
        True,
        True,
        False,
    ]
    assert not legal(Decide("Ann", "buy"))  # 2..4: the amount must be given
    assert not legal(Decide("Ann", "stick"))
    assert not legal(Decide("Ann", "split"))  # 8 and 4 are not a pair
    assert not legal(Decide("Bob", "twist"))
    assert not legal(BankDecide("stay"))
