"""The five presets and their options, for the test-only reference.

Values come from RULES.md §2-§7. The option *names* and their value words
(``ties: push``, ``dealer_draws: to_16``...) are the public scenario
interface: they are the words the scenario files use and ``docs/rules.md``
lists; their meaning is taken from RULES.md, not from the engine's code.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any


class Refused(Exception):
    """A scenario the rules refuse: the replay exits 2 with this one line."""


HOUSE: dict[str, Any] = {
    "packs": "auto",
    "two_packs_at": 8,
    "dealer": "player",
    "counted_deals": 8,
    "min_stake": 1,
    "max_stake": 5,
    "stick_minimum": 15,
    "split_by": "rank",
    "max_hands_per_seat": 4,
    "split_aces_only": False,
    "split_aces_once": False,
    "split_aces_one_card": False,
    "buy": "rising",
    "buy_max_cards": 4,
    "twist_then_buy": False,
    "bank_pontoon_pays": "double",
    "ties": "banker",
    "banker_five_card": "pontoons_only",
    "five_card_always_wins": False,
    "pay_pontoon": 2,
    "pay_five_card": 2,
    "dealer_draws": "choice",
    "dealer_stops_at_five": True,
    "dealer_initial_cards": 2,
    "bank_transfer": True,
    "bank_sale": False,
    "shoot_bets": False,
    "insurance": False,
    "even_money": False,
    "three_of_a_kind_pays": 0,
    "reshuffle": "after_pontoon",
}

TRADITIONAL = dict(HOUSE)
TRADITIONAL.update({"packs": 1, "counted_deals": None, "max_stake": 10, "bank_sale": True})

SHOOT = dict(TRADITIONAL)
SHOOT.update({"shoot_bets": True})

CASINO = dict(HOUSE)
CASINO.update(
    {
        "packs": 6,
        "dealer": "house",
        "counted_deals": None,
        "max_stake": 100,
        "split_by": "value",
        "buy": "double",
        "twist_then_buy": True,  # the casino's double may follow a twist (§5 sets no limit)
        "bank_pontoon_pays": "ranking",
        "ties": "dealer",
        "banker_five_card": "ranking",
        "pay_pontoon": Fraction(3, 2),
        "pay_five_card": Fraction(3, 2),
        "dealer_draws": "hit_soft_17",
        "bank_transfer": False,
        "reshuffle": "every_round",
    }
)

PONTON = dict(HOUSE)
PONTON.update(
    {
        "packs": 6,
        "dealer": "house",
        "counted_deals": None,
        "max_stake": 100,
        "stick_minimum": 0,
        "max_hands_per_seat": None,
        "split_aces_once": True,
        "split_aces_one_card": True,
        "buy": "equal",
        "buy_max_cards": 3,
        "bank_pontoon_pays": "ranking",
        "ties": "dealer",
        "banker_five_card": "ranking",
        "five_card_always_wins": True,
        "pay_pontoon": 2,
        "pay_five_card": Fraction(3, 2),
        "dealer_draws": "to_16",
        "dealer_initial_cards": 1,
        "bank_transfer": False,
        "insurance": True,
        "even_money": True,
        "three_of_a_kind_pays": 1,
        "reshuffle": "every_round",
    }
)

PRESETS: dict[str, dict[str, Any]] = {
    "house": HOUSE,
    "traditional": TRADITIONAL,
    "shoot": SHOOT,
    "casino": CASINO,
    "ponton": PONTON,
}

CHOICES = {
    "dealer": ["player", "house"],
    "split_by": ["rank", "value"],
    "buy": ["rising", "double", "equal", "none"],
    "bank_pontoon_pays": ["double", "ranking"],
    "ties": ["banker", "dealer", "push"],
    "banker_five_card": ["pontoons_only", "ranking"],
    "dealer_draws": ["choice", "hit_soft_17", "to_16"],
    "reshuffle": ["after_pontoon", "every_round"],
}
FLAGS = [
    "split_aces_only",
    "split_aces_once",
    "split_aces_one_card",
    "twist_then_buy",
    "five_card_always_wins",
    "dealer_stops_at_five",
    "bank_transfer",
    "bank_sale",
    "shoot_bets",
    "insurance",
    "even_money",
]


def _whole(name: str, value: object, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refused(f"option {name}: {value!r} is not a whole number")
    if value != int(value) or value < low or (high is not None and value > high):
        top = "" if high is None else f" to {high}"
        raise Refused(f"option {name}: {value!r} makes no sense (allowed: {low}{top})")
    return int(value)


def _halves(name: str, value: object, low: Fraction) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refused(f"option {name}: {value!r} is not a number")
    amount = Fraction(value)
    if amount < low or (amount * 2).denominator != 1:
        raise Refused(f"option {name}: {value!r} makes no sense (a multiple of 0.5 from {low})")
    return amount


def load(preset: object, options: object) -> dict[str, Any]:
    """The preset's values with the scenario's options laid over them, checked."""
    if preset is None:
        preset = "house"
    if not isinstance(preset, str) or preset not in PRESETS:
        raise Refused(f"unknown rules {preset!r}: use one of {', '.join(PRESETS)}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise Refused("options must be an object of option: value")
    rules = dict(PRESETS[preset])
    for name, value in options.items():
        if name not in rules:
            raise Refused(f"unknown option {name}")
        if name in FLAGS:
            if not isinstance(value, bool):
                raise Refused(f"option {name}: {value!r} must be true or false")
            rules[name] = value
        elif name in CHOICES:
            if value not in CHOICES[name]:
                raise Refused(f"option {name}: {value!r} is not one of {', '.join(CHOICES[name])}")
            rules[name] = value
        elif name == "packs":
            rules[name] = "auto" if value == "auto" else _whole(name, value, 1, 8)
        elif name == "two_packs_at":
            rules[name] = _whole(name, value, 2)
        elif name == "counted_deals":
            rules[name] = None if value in (None, "none") else _whole(name, value, 1)
        elif name in ("min_stake", "max_stake"):
            rules[name] = _whole(name, value, 1)
        elif name == "stick_minimum":
            rules[name] = _whole(name, value, 0, 21)
        elif name == "max_hands_per_seat":
            rules[name] = None if value in (None, "unlimited") else _whole(name, value, 1)
        elif name == "buy_max_cards":
            rules[name] = _whole(name, value, 2, 4)
        elif name == "dealer_initial_cards":
            rules[name] = _whole(name, value, 1, 2)
        elif name in ("pay_pontoon", "pay_five_card"):
            rules[name] = _halves(name, value, Fraction(1, 2))
        elif name == "three_of_a_kind_pays":
            rules[name] = _halves(name, value, Fraction(0))
        else:  # pragma: no cover - every option of the table is handled above
            raise Refused(f"unknown option {name}")
    if rules["min_stake"] > rules["max_stake"]:
        raise Refused("options min_stake and max_stake: the minimum is above the maximum")
    if rules["dealer"] == "house" and (rules["shoot_bets"] or rules["bank_sale"]):
        raise Refused("options shoot_bets and bank_sale need a player banker (dealer: player)")
    if rules["ties"] == "dealer":
        rules["ties"] = "banker"
    for name in ("pay_pontoon", "pay_five_card", "three_of_a_kind_pays"):
        rules[name] = Fraction(rules[name])
    rules["preset"] = preset
    return rules
