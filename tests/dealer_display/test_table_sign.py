"""The sign on the TV at the table: stake limits, what pays more than evens,
who takes a tie, word for word.

Every expected sign is worked out by hand from the rule book
(../shared/spec/RULES.md): the limits from §7's `min_stake / max_stake` row,
the payouts from its `pay_pontoon / pay_five_card` and `three_of_a_kind_pays`
rows (a ratio of 2 is "double", 3/2 is "3 to 2", a whole N is "N to 1"), who
takes a tie from its `ties` and `dealer` rows (a player banker is "the bank",
a house dealer "the dealer"), shoot bets from `shoot_bets`, and "a five-card
trick always wins" from §6 (`ponton`).  None of it is read from the code.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.rules import load_ruleset
from dealer_display.app import create_app
from dealer_display.manual import ManualTable
from dealer_display.views import public_view, table_sign

#: preset -> the sign worked out from RULES.md §7 (and §6 for ponton)
SIGNS: dict[str, dict[str, Any]] = {
    # §7: 1 / 5; pontoon and five-card trick pay 2 (double); ties: banker, a
    # player banker, so "the bank"
    "house": {
        "min_stake": 1,
        "max_stake": 5,
        "pays": ["Pontoon pays double", "Five-card trick pays double"],
        "ties": "Ties go to the bank",
    },
    # §7: agreed, default 1 / 10; otherwise as house
    "traditional": {
        "min_stake": 1,
        "max_stake": 10,
        "pays": ["Pontoon pays double", "Five-card trick pays double"],
        "ties": "Ties go to the bank",
    },
    # §7: as traditional, and shoot_bets: yes
    "shoot": {
        "min_stake": 1,
        "max_stake": 10,
        "pays": [
            "Pontoon pays double",
            "Five-card trick pays double",
            "Shoot bets on the kitty",
        ],
        "ties": "Ties go to the bank",
    },
    # §7: table limits, default 1 / 100; pays 1.5 / 1.5 (3 to 2); ties: dealer, a house dealer
    "casino": {
        "min_stake": 1,
        "max_stake": 100,
        "pays": ["Pontoon pays 3 to 2", "Five-card trick pays 3 to 2"],
        "ties": "Ties go to the dealer",
    },
    # §7: 1 / 100; pays 2 / 1.5; three of a kind 1:1 (§6: "at once"); §6: a
    # five-card trick always wins; ties: dealer
    "ponton": {
        "min_stake": 1,
        "max_stake": 100,
        "pays": [
            "Pontoon pays double",
            "Five-card trick pays 3 to 2",
            "Three of a kind pays 1 to 1 at once",
            "A five-card trick always wins",
        ],
        "ties": "Ties go to the dealer",
    },
}


@pytest.mark.parametrize("preset", sorted(SIGNS))
def test_each_presets_sign_word_for_word(preset: str) -> None:
    assert table_sign(load_ruleset(preset)) == SIGNS[preset]


@pytest.mark.parametrize(
    ("ratio", "words"),
    [
        # a whole ratio other than 2 is "N to 1"; 2 is "double"; a half is "N to 2"
        (3, "Pontoon pays 3 to 1"),
        (1, "Pontoon pays 1 to 1"),
        ("5/2", "Pontoon pays 5 to 2"),
        (2, "Pontoon pays double"),
    ],
)
def test_a_payout_ratio_is_said_as_a_sign_says_it(ratio: Any, words: str) -> None:
    sign = table_sign(load_ruleset("house", {"pay_pontoon": ratio}))
    assert sign["pays"][0] == words
    # the five-card trick keeps house's 2
    assert sign["pays"][1] == "Five-card trick pays double"


def test_a_three_of_a_kind_rate_is_said_as_a_ratio() -> None:
    """ponton with three_of_a_kind_pays 3/2: "3 to 2 at once"; 0 (off) takes
    the line away, and the five-card-trick line stays last."""
    sign = table_sign(load_ruleset("ponton", {"three_of_a_kind_pays": "3/2"}))
    assert sign["pays"][2] == "Three of a kind pays 3 to 2 at once"
    off = table_sign(load_ruleset("ponton", {"three_of_a_kind_pays": 0}))
    assert off["pays"] == [
        "Pontoon pays double",
        "Five-card trick pays 3 to 2",
        "A five-card trick always wins",
    ]


@pytest.mark.parametrize(
    ("preset", "words"),
    [
        # ties: push returns the stake, whoever deals
        ("house", "Ties: stake returned"),
        ("casino", "Ties: stake returned"),
    ],
)
def test_ties_pushed_say_the_stake_is_returned(preset: str, words: str) -> None:
    assert table_sign(load_ruleset(preset, {"ties": "push"}))["ties"] == words


def test_the_tv_shows_the_limits_this_table_plays_to_not_the_presets() -> None:
    """A house table set to stakes of 2 to 20 with ties pushed: the players'
    screen must say 2 and 20 and "stake returned", which is what the dealer
    will hold them to (house's own sign says 1, 5 and "the bank")."""
    table = ManualTable(rules="house", players=["Ann", "Ben", "Cat"],
                        options={"min_stake": 2, "max_stake": 20, "ties": "push"})
    client = TestClient(create_app(table, token="sign-token-123"))
    sign = client.get("/api/public").json()["sign"]
    assert sign == {
        "min_stake": 2,
        "max_stake": 20,
        "pays": ["Pontoon pays double", "Five-card trick pays double"],
        "ties": "Ties: stake returned",
    }


def test_a_snapshot_without_options_shows_its_presets_sign() -> None:
    """A snapshot written before tables sent their options (or by a client
    that leaves them out) still gets its preset's sign."""
    assert public_view({"rules": "casino"})["sign"] == SIGNS["casino"]


def test_no_sign_rather_than_a_wrong_one() -> None:
    """An unknown preset, or options this build cannot read, show no sign: a
    sign with the wrong limits would mislead every player at the table."""
    assert public_view({"rules": "blackjack"})["sign"] is None
    assert public_view({"rules": "house", "options": {"max_stake": "lots"}})["sign"] is None
    assert public_view({"rules": "house", "options": {"no_such_option": 1}})["sign"] is None
    assert public_view({"rules": "house", "options": ["max_stake", 5]})["sign"] is None
