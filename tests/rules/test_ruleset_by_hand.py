"""The five presets and their options, written out by hand from RULES.md.

RULES.md §7 gives every preset's value of each option; the sections of each
preset (§2-§6) and docs/rules.md's option table give the rest (which values
are **[chosen]**).  Each expected value below is copied from there by hand,
with the place it comes from, never from ``PRESETS``.  ``options()`` is the
JSON form the journal's ``game`` row pins (docs/rules.md: "The journal's
``game`` row pins the whole ruleset"), with fractions as numbers.

Refusals (RULES.md §7: "Unknown options and values that make no sense ... are
refused with a clear message"; docs/rules.md: "raise ``RulesetError`` with one
sentence") are pinned word for word: an organiser reads them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from controller.rules import load_ruleset, ruleset_from_dict, ruleset_to_dict
from controller.rules import ruleset as ruleset_module
from controller.rules.ruleset import RulesetError, decision_words


@pytest.fixture
def fresh_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """``decision_words`` keeps its answers for the life of the process; start
    from none, as a new process does, so the answers below are worked out."""
    monkeypatch.setattr(ruleset_module, "_DECISION_WORDS", {})


#: house (RULES.md §2 and §7's "house" column)
HOUSE: dict[str, Any] = {
    "packs": None,  # 1, 2 at 8 or more people [chosen]: "auto"
    "two_packs_at": 8,
    "max_people": None,  # docs/rules.md: unlimited but in traditional and shoot
    "dealer": "player",  # a player banker, rotating
    "counted_deals": 8,
    "min_stake": 1,
    "max_stake": 5,
    "stick_minimum": 15,
    "split_by": "rank",
    "max_hands_per_seat": 4,
    "split_aces_only": False,  # a traditional variation, off
    "split_aces_once": False,
    "split_aces_one_card": False,
    "buy": "rising",  # 1x-2x original, then original..previous
    "buy_max_cards": 4,  # a fifth card may be bought [chosen, as source 001]
    "twist_then_buy": False,
    "bank_pontoon_pays": "double",  # 2x stake
    "five_card_always_wins": False,
    "ties": "banker",
    "banker_five_card": "pontoons_only",  # pays pontoons only, others lose 2x
    "pay_pontoon": 2,
    "pay_five_card": 2,
    "dealer_draws": "choice",  # banker's choice
    "dealer_stops_at_five": True,  # §2.6: the banker stops at five cards
    "dealer_initial_cards": 2,
    "bank_transfer": True,  # on an unsplit pontoon
    "bank_sale": False,
    "shoot_bets": False,
    "insurance": False,
    "even_money": False,
    "three_of_a_kind_pays": 0,  # no
    "reshuffle": "after_pontoon",  # after any pontoon
}

#: traditional: as house, except (§3): one pack, 2 to 8 people, agreed
#: stakes (default 1 / 10), no fixed number of deals, the bank may be sold
TRADITIONAL = {
    **HOUSE,
    "packs": 1,
    "max_people": 8,
    "counted_deals": None,
    "max_stake": 10,
    "bank_sale": True,
}

#: shoot: as traditional plus shoot bets (§4)
SHOOT = {**TRADITIONAL, "shoot_bets": True}

#: casino (§5, §7's "casino" column)
CASINO = {
    **HOUSE,
    "packs": 6,
    "dealer": "house",
    "counted_deals": None,
    "max_stake": 100,  # table limits, default 1 / 100
    "split_by": "value",
    "buy": "double",  # double once, with four cards or fewer
    "buy_max_cards": 4,
    "twist_then_buy": True,  # "—": a hand may double after twisting (§5 sets no such limit)
    "bank_pontoon_pays": "ranking",
    "banker_five_card": "ranking",
    "pay_pontoon": 1.5,  # 3:2
    "pay_five_card": 1.5,
    "dealer_draws": "hit_soft_17",  # to 16, hits soft 17
    "bank_transfer": False,  # "—": no player banker
    "reshuffle": "every_round",  # shuffled before every round
}

#: ponton (§6, §7's "ponton" column)
PONTON = {
    **HOUSE,
    "packs": 6,
    "dealer": "house",
    "counted_deals": None,
    "max_stake": 100,
    "stick_minimum": 0,  # no minimum total to stand [chosen]
    "max_hands_per_seat": None,  # unlimited (aces: 2)
    "split_aces_once": True,  # aces only once
    "split_aces_one_card": True,  # each split ace gets one card only
    "buy": "equal",  # equal to the original, 3rd/4th card
    "buy_max_cards": 3,  # the 3rd and 4th cards may be bought: bought holding 3 at most
    "five_card_always_wins": True,
    "bank_pontoon_pays": "ranking",
    "banker_five_card": "ranking",
    "pay_pontoon": 2,  # pontoon 2:1
    "pay_five_card": 1.5,  # five-card trick 3:2
    "dealer_draws": "to_16",
    "dealer_initial_cards": 1,  # one card to the dealer, face up
    "bank_transfer": False,
    "insurance": True,
    "even_money": True,
    "three_of_a_kind_pays": 1,  # 1:1
    "reshuffle": "every_round",  # [chosen]
}

BY_HAND = {
    "house": HOUSE,
    "traditional": TRADITIONAL,
    "shoot": SHOOT,
    "casino": CASINO,
    "ponton": PONTON,
}


@pytest.mark.parametrize("preset", list(BY_HAND))
def test_every_option_of_every_preset_is_the_rule_books(preset: str) -> None:
    rules = load_ruleset(preset)
    assert rules.preset == preset
    assert rules.options() == BY_HAND[preset]
    assert ruleset_to_dict(rules) == {"preset": preset, "options": BY_HAND[preset]}


@pytest.mark.parametrize("preset", list(BY_HAND))
def test_pays_are_whole_numbers_or_one_and_a_half_in_the_json_form(preset: str) -> None:
    """Fractions as numbers: 2 is the whole number 2, 3:2 the number 1.5."""
    options = load_ruleset(preset).options()
    for name in ("pay_pontoon", "pay_five_card", "three_of_a_kind_pays"):
        value = options[name]
        assert type(value) is (float if value == 1.5 else int), (name, value)


def test_the_pays_are_fractions_in_the_rules() -> None:
    casino, ponton = load_ruleset("casino"), load_ruleset("ponton")
    assert casino.pay_pontoon == Fraction(3, 2) and casino.pay_five_card == Fraction(3, 2)
    assert ponton.pay_pontoon == 2 and ponton.pay_five_card == Fraction(3, 2)
    assert ponton.three_of_a_kind_pays == 1 and load_ruleset("house").three_of_a_kind_pays == 0


@pytest.mark.parametrize(
    ("preset", "people", "packs"),
    [
        ("house", 2, 1),
        ("house", 7, 1),
        ("house", 8, 2),  # eight people, banker included: two packs [chosen]
        ("house", 9, 2),
        ("traditional", 8, 1),  # one 52-card pack (§3)
        ("shoot", 8, 1),
        ("casino", 1, 6),  # six packs (§5)
        ("casino", 9, 6),
        ("ponton", 2, 6),
    ],
)
def test_the_packs_in_the_shoe(preset: str, people: int, packs: int) -> None:
    assert load_ruleset(preset).packs_for(people) == packs


def test_two_packs_from_the_number_of_people_asked() -> None:
    rules = load_ruleset("house", {"two_packs_at": 5})
    assert [rules.packs_for(n) for n in (3, 4, 5, 6)] == [1, 1, 2, 2]
    assert load_ruleset("house", {"packs": 3}).packs_for(2) == 3
    assert load_ruleset("traditional", {"packs": "auto"}).packs_for(8) == 2


@pytest.mark.parametrize(
    ("preset", "house_dealer"),
    [
        ("house", False),
        ("traditional", False),
        ("shoot", False),
        ("casino", True),
        ("ponton", True),
    ],
)
def test_who_banks(preset: str, house_dealer: bool) -> None:
    assert load_ruleset(preset).house_dealer is house_dealer


@pytest.mark.parametrize(
    ("preset", "options", "words"),
    [
        # RULES.md §2: stick, twist, buy, split; no double, no shoot bets, no insurance
        ("house", {}, ("stick", "twist", "buy", "split")),
        ("traditional", {}, ("stick", "twist", "buy", "split")),
        ("shoot", {}, ("stick", "twist", "buy", "split", "shoot")),  # §4
        ("casino", {}, ("stick", "twist", "double", "split")),  # §5: double, not buy
        ("ponton", {}, ("stick", "twist", "buy", "split", "insurance", "even-money")),  # §6
        ("house", {"buy": "none"}, ("stick", "twist", "split")),
        ("house", {"buy": "equal"}, ("stick", "twist", "buy", "split")),
        ("house", {"buy": "double"}, ("stick", "twist", "double", "split")),
        ("shoot", {"buy": "double"}, ("stick", "twist", "double", "split", "shoot")),
        ("ponton", {"even_money": False}, ("stick", "twist", "buy", "split", "insurance")),
        ("ponton", {"insurance": False}, ("stick", "twist", "buy", "split", "even-money")),
        ("ponton", {"buy": "none"}, ("stick", "twist", "split", "insurance", "even-money")),
    ],
)
def test_the_decision_words_a_ruleset_can_allow(
    preset: str, options: dict[str, Any], words: tuple[str, ...], fresh_words: None
) -> None:
    assert decision_words(load_ruleset(preset, options)) == words


def test_the_decision_words_of_one_ruleset_do_not_leak_into_another(fresh_words: None) -> None:
    """Asked in turn, rulesets that differ in one point each get their own words."""
    order: list[tuple[dict[str, Any], tuple[str, ...]]] = [
        ({}, ("stick", "twist", "buy", "split")),
        ({"buy": "none"}, ("stick", "twist", "split")),
        ({"buy": "double"}, ("stick", "twist", "double", "split")),
        ({"buy": "equal"}, ("stick", "twist", "buy", "split")),
        ({}, ("stick", "twist", "buy", "split")),
    ]
    for options, words in order:
        assert decision_words(load_ruleset("house", options)) == words
    ponton: list[tuple[dict[str, Any], tuple[str, ...]]] = [
        ({}, ("stick", "twist", "buy", "split", "insurance", "even-money")),
        ({"even_money": False}, ("stick", "twist", "buy", "split", "insurance")),
        ({"insurance": False}, ("stick", "twist", "buy", "split", "even-money")),
        (
            {"insurance": False, "even_money": False, "dealer_initial_cards": 2},
            ("stick", "twist", "buy", "split"),
        ),
    ]
    for options, words in ponton:
        assert decision_words(load_ruleset("ponton", options)) == words
    for preset, words in [
        ("shoot", ("stick", "twist", "buy", "split", "shoot")),
        ("house", ("stick", "twist", "buy", "split")),
        ("ponton", ("stick", "twist", "buy", "split", "insurance", "even-money")),
        ("casino", ("stick", "twist", "double", "split")),
    ]:
        assert decision_words(load_ruleset(preset)) == words


# ------------------------------------------------------------ options accepted
@pytest.mark.parametrize(
    ("preset", "options", "expected"),
    [
        ("traditional", {"stick_minimum": 16}, {"stick_minimum": 16}),  # §3's variation
        ("traditional", {"split_aces_only": True}, {"split_aces_only": True}),
        ("house", {"ties": "push"}, {"ties": "push"}),
        ("house", {"ties": "dealer"}, {"ties": "banker"}),  # the dealer is the banker
        ("house", {"ties": "house"}, {"ties": "banker"}),
        ("house", {"ties": "banker"}, {"ties": "banker"}),
        ("house", {"pay_pontoon": 1.5}, {"pay_pontoon": 1.5}),
        ("house", {"pay_pontoon": "2.5"}, {"pay_pontoon": 2.5}),
        ("house", {"pay_pontoon": "3/2"}, {"pay_pontoon": 1.5}),
        ("house", {"pay_five_card": 3}, {"pay_five_card": 3}),
        ("house", {"pay_five_card": Fraction(1, 2)}, {"pay_five_card": 0.5}),
        ("house", {"three_of_a_kind_pays": 0}, {"three_of_a_kind_pays": 0}),
        ("house", {"packs": "auto"}, {"packs": None}),
        ("traditional", {"packs": None}, {"packs": None}),
        ("house", {"packs": 1}, {"packs": 1}),
        ("house", {"packs": 8}, {"packs": 8}),
        ("traditional", {"max_people": "unlimited"}, {"max_people": None}),
        ("house", {"counted_deals": "none"}, {"counted_deals": None}),
        ("house", {"counted_deals": 1}, {"counted_deals": 1}),
        ("ponton", {"max_hands_per_seat": 2}, {"max_hands_per_seat": 2}),
        ("house", {"max_hands_per_seat": "unlimited"}, {"max_hands_per_seat": None}),
        ("house", {"stick_minimum": 0}, {"stick_minimum": 0}),
        ("house", {"stick_minimum": 21}, {"stick_minimum": 21}),
        ("house", {"two_packs_at": 2}, {"two_packs_at": 2}),
        ("house", {"buy_max_cards": 2}, {"buy_max_cards": 2}),
        ("house", {"min_stake": 5}, {"min_stake": 5}),  # equal to max_stake 5
        ("house", {"min_stake": 2, "max_stake": 3}, {"min_stake": 2, "max_stake": 3}),
        (
            "ponton",
            {"dealer_initial_cards": 2, "insurance": False, "even_money": False},
            {"dealer_initial_cards": 2, "insurance": False, "even_money": False},
        ),
        ("casino", {"dealer_draws": "to_16"}, {"dealer_draws": "to_16"}),
        (
            "casino",
            {"dealer": "player", "dealer_draws": "choice"},
            {"dealer": "player", "dealer_draws": "choice"},
        ),
        ("house", {"reshuffle": "every_round"}, {"reshuffle": "every_round"}),
    ],
)
def test_an_option_changes_that_point_and_nothing_else(
    preset: str, options: dict[str, Any], expected: dict[str, Any]
) -> None:
    rules = load_ruleset(preset, options)
    assert rules.preset == preset
    assert rules.options() == {**BY_HAND[preset], **expected}


def test_no_options_is_the_preset_itself() -> None:
    assert load_ruleset("casino", {}).options() == CASINO
    assert load_ruleset("casino", None).options() == CASINO
    assert load_ruleset().preset == "house" and load_ruleset().options() == HOUSE


# ------------------------------------------------------------ refusals
@pytest.mark.parametrize(
    ("preset", "options", "message"),
    [
        ("house", {"colour": "red"}, "unknown option 'colour'"),
        ("house", {"preset": "casino"}, "unknown option 'preset'"),
        ("house", {"insurance": "yes"}, "option insurance must be true or false, not 'yes'"),
        ("house", {"shoot_bets": 1}, "option shoot_bets must be true or false, not 1"),
        ("house", {"ties": "draw"}, "option ties must be one of banker, push, not 'draw'"),
        ("house", {"split_by": 3}, "option split_by must be one of rank, value, not 3"),
        # a value that is not text is refused too, even one that cannot be a key
        (
            "house",
            {"ties": ["push"]},
            "option ties must be one of banker, push, not ['push']",
        ),
        (
            "house",
            {"dealer_draws": "always"},
            "option dealer_draws must be one of choice, hit_soft_17, to_16, not 'always'",
        ),
        (
            "house",
            {"buy": "Rising"},
            "option buy must be one of rising, double, equal, none, not 'Rising'",
        ),
        ("house", {"pay_pontoon": "abc"}, "option pay_pontoon must be a number, not 'abc'"),
        ("house", {"pay_pontoon": "1/0"}, "option pay_pontoon must be a number, not '1/0'"),
        ("house", {"pay_pontoon": True}, "option pay_pontoon must be a number, not True"),
        # JSON's Infinity and NaN read as floats
        ("house", {"pay_pontoon": float("inf")}, "option pay_pontoon must be a number, not inf"),
        (
            "house",
            {"pay_five_card": float("nan")},
            "option pay_five_card must be a number, not nan",
        ),
        ("house", {"pay_five_card": None}, "option pay_five_card must be a number, not None"),
        ("house", {"pay_five_card": [2]}, "option pay_five_card must be a number, not [2]"),
        ("house", {"pay_pontoon": -1}, "option pay_pontoon cannot be negative (-1)"),
        ("house", {"pay_pontoon": -0.5}, "option pay_pontoon cannot be negative (-0.5)"),
        (
            "house",
            {"pay_pontoon": 1.25},
            "option pay_pontoon must be a whole or half number (the table pays in half units)",
        ),
        (
            "house",
            {"three_of_a_kind_pays": 0.1},
            "option three_of_a_kind_pays must be a whole or half number"
            " (the table pays in half units)",
        ),
        ("house", {"stick_minimum": 22}, "option stick_minimum must be 0 to 21, not 22"),
        ("house", {"stick_minimum": -1}, "option stick_minimum must be 0 to 21, not -1"),
        ("house", {"packs": 9}, "option packs must be 1 to 8, not 9"),
        ("house", {"packs": 0}, "option packs must be 1 to 8, not 0"),
        ("house", {"min_stake": 0}, "option min_stake must be at least 1, not 0"),
        ("house", {"two_packs_at": 1}, "option two_packs_at must be at least 2, not 1"),
        ("house", {"buy_max_cards": 1}, "option buy_max_cards must be 2 to 4, not 1"),
        ("house", {"buy_max_cards": 5}, "option buy_max_cards must be 2 to 4, not 5"),
        (
            "ponton",
            {"dealer_initial_cards": 0},
            "option dealer_initial_cards must be 1 to 2, not 0",
        ),
        ("house", {"min_stake": None}, "option min_stake must be a whole number, not None"),
        ("house", {"min_stake": "none"}, "option min_stake must be a whole number, not 'none'"),
        (
            "house",
            {"two_packs_at": "auto"},
            "option two_packs_at must be a whole number, not 'auto'",
        ),
        ("house", {"max_stake": 2.0}, "option max_stake must be a whole number, not 2.0"),
        ("house", {"max_stake": True}, "option max_stake must be a whole number, not True"),
        (
            "house",
            {"counted_deals": "eight"},
            "option counted_deals must be a whole number, not 'eight'",
        ),
        ("house", {"counted_deals": 0}, "option counted_deals must be at least 1, not 0"),
        # combinations that cannot be played
        ("house", {"min_stake": 6}, "min_stake 6 is above max_stake 5"),
        ("traditional", {"max_stake": 0}, "option max_stake must be at least 1, not 0"),
        ("casino", {"min_stake": 101}, "min_stake 101 is above max_stake 100"),
        (
            "casino",
            {"dealer_draws": "choice"},
            "a house dealer needs a drawing rule (dealer_draws)",
        ),
        (
            "casino",
            {"shoot_bets": True},
            "option shoot_bets needs a player banker (dealer: player)",
        ),
        ("casino", {"bank_sale": True}, "option bank_sale needs a player banker (dealer: player)"),
        (
            "ponton",
            {"bank_transfer": True},
            "option bank_transfer needs a player banker (dealer: player)",
        ),
        ("casino", {"counted_deals": 8}, "counted_deals needs a player banker (dealer: player)"),
        ("house", {"dealer": "house"}, "a house dealer needs a drawing rule (dealer_draws)"),
        (
            "house",
            {"dealer": "house", "dealer_draws": "to_16"},
            "option bank_transfer needs a player banker (dealer: player)",
        ),
        (
            "house",
            {"dealer": "house", "dealer_draws": "to_16", "bank_transfer": False},
            "counted_deals needs a player banker (dealer: player)",
        ),
        ("casino", {"dealer": "player"}, "a player banker draws by choice (dealer_draws: choice)"),
        (
            "house",
            {"dealer_draws": "to_16"},
            "a player banker draws by choice (dealer_draws: choice)",
        ),
        (
            "house",
            {"dealer_initial_cards": 1},
            "a player banker takes two cards (dealer_initial_cards: 2)",
        ),
        (
            "house",
            {"insurance": True},
            "insurance and even money need a house dealer (dealer: house)",
        ),
        (
            "house",
            {"even_money": True},
            "insurance and even money need a house dealer (dealer: house)",
        ),
        (
            "casino",
            {"insurance": True},
            "insurance and even money need a dealer card shown (dealer_initial_cards: 1)",
        ),
        (
            "casino",
            {"even_money": True},
            "insurance and even money need a dealer card shown (dealer_initial_cards: 1)",
        ),
        (
            "ponton",
            {"dealer_initial_cards": 2},
            "insurance and even money need a dealer card shown (dealer_initial_cards: 1)",
        ),
        (
            "ponton",
            {"dealer_initial_cards": 2, "insurance": False},
            "insurance and even money need a dealer card shown (dealer_initial_cards: 1)",
        ),
    ],
)
def test_nonsense_is_refused_in_one_sentence(
    preset: str, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(preset, options)
    assert str(refused.value) == message


def test_an_unknown_preset_is_refused_naming_the_five() -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset("blackjack")
    assert str(refused.value) == (
        "unknown rules preset 'blackjack' (choose house, traditional, shoot, casino, ponton)"
    )


@pytest.mark.parametrize("options", [["stick_minimum"], "stick_minimum=16", 16])
def test_options_that_are_not_an_object_are_refused(options: Any) -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset("house", options)
    assert str(refused.value) == "options must be an object of option names and values"


def test_a_refusal_is_a_value_error() -> None:
    """Callers that catch ValueError (a bad scenario file) catch it too."""
    assert issubclass(RulesetError, ValueError)


# ------------------------------------------------------------ the pinned form
@pytest.mark.parametrize("preset", list(BY_HAND))
def test_the_pinned_form_reads_back_as_the_same_rules(preset: str) -> None:
    rules = load_ruleset(preset)
    assert ruleset_from_dict({"preset": preset, "options": BY_HAND[preset]}) == rules
    assert ruleset_from_dict(ruleset_to_dict(rules)) == rules


def test_a_pinned_option_wins_over_the_preset() -> None:
    """A casino game pinned with a table limit of 50 and dealer on soft 17
    standing (to_16) keeps both; the options it does not name are casino's."""
    pinned = {"preset": "casino", "options": {**CASINO, "max_stake": 50, "dealer_draws": "to_16"}}
    rules = ruleset_from_dict(pinned)
    assert rules.preset == "casino"
    assert rules.options() == {**CASINO, "max_stake": 50, "dealer_draws": "to_16"}


def test_a_pinned_unlimited_or_automatic_option_stays_so() -> None:
    """A traditional game pinned with the packs chosen by the number of people
    ("auto", None in the form) and no limit of people keeps both, although
    traditional itself has one pack and at most 8 people (§3)."""
    pinned = {
        "preset": "traditional",
        "options": {**TRADITIONAL, "packs": None, "max_people": None},
    }
    rules = ruleset_from_dict(pinned)
    assert rules.packs is None and rules.max_people is None
    assert rules.options() == {**TRADITIONAL, "packs": None, "max_people": None}


def test_options_missing_from_the_pinned_form_take_the_presets_value() -> None:
    """An option added since the row was written takes the preset's value."""
    old = {k: v for k, v in PONTON.items() if k not in ("three_of_a_kind_pays", "buy_max_cards")}
    assert ruleset_from_dict({"preset": "ponton", "options": old}).options() == PONTON
    assert ruleset_from_dict({"preset": "shoot"}).options() == SHOOT
    assert ruleset_from_dict({"preset": "house", "options": {"stick_minimum": 16}}).options() == {
        **HOUSE,
        "stick_minimum": 16,
    }


def test_a_pinned_form_with_an_unknown_preset_is_refused() -> None:
    with pytest.raises(RulesetError) as refused:
        ruleset_from_dict({"preset": "blackjack", "options": {}})
    assert str(refused.value) == (
        "unknown rules preset 'blackjack' (choose house, traditional, shoot, casino, ponton)"
    )


def test_a_pinned_form_with_nonsense_is_refused() -> None:
    with pytest.raises(RulesetError) as refused:
        ruleset_from_dict({"preset": "house", "options": {"stick_minimum": 30}})
    assert str(refused.value) == "option stick_minimum must be 0 to 21, not 30"
