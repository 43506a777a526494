"""Rulesets: the five presets of RULES.md and validated option overrides.

Every point of the rule book that a table might want differently is an option
here rather than an ``if preset == ...`` in the engine, so a table organiser can
read (``pontoon-table rules PRESET``) exactly what they are choosing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .actions import WORDS


class RulesetError(ValueError):
    """An unknown preset, an unknown option or a value that makes no sense."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One complete set of rules; the engine reads only these fields."""

    preset: str = "house"
    #: decks in the shoe; ``None`` = one deck, two from ``two_packs_at`` people
    packs: int | None = None
    two_packs_at: int = 8
    #: the most people at the table, a player-banker included (a house dealer is
    #: not one of them); ``None``: no limit.  Traditional and shoot: 8 (RULES.md §3)
    max_people: int | None = None
    #: "player": a player banks in turn; "house": a house dealer plays every seat
    dealer: str = "player"
    counted_deals: int | None = 8
    min_stake: int = 1
    max_stake: int = 5
    stick_minimum: int = 15
    #: "rank" (two kings) or "value" (king and queen)
    split_by: str = "rank"
    max_hands_per_seat: int | None = 4
    split_aces_only: bool = False
    split_aces_once: bool = False
    split_aces_one_card: bool = False
    #: "rising" (1x-2x original, then original..previous), "double" (casino,
    #: once per hand), "equal" (ponton, equal to the original), "none"
    buy: str = "rising"
    #: the most cards a hand may hold when it buys or doubles (4: a fifth card may be bought)
    buy_max_cards: int = 4
    twist_then_buy: bool = False
    #: "double": every player pays 2x at once; "ranking": settled like any hand
    bank_pontoon_pays: str = "double"
    #: a player's five-card trick wins whatever the dealer holds (ponton)
    five_card_always_wins: bool = False
    #: "banker": ties go to the banker/dealer; "push": the stake is returned
    ties: str = "banker"
    #: "pontoons_only": a banker five-card trick pays pontoons, others lose 2x;
    #: "ranking": settled by the ranking
    banker_five_card: str = "pontoons_only"
    pay_pontoon: Fraction = Fraction(2)
    pay_five_card: Fraction = Fraction(2)
    #: "choice" (the banker draws or stays), "hit_soft_17", "to_16"
    dealer_draws: str = "choice"
    dealer_stops_at_five: bool = True
    #: dealer cards before the players play (ponton: 1, face up)
    dealer_initial_cards: int = 2
    bank_transfer: bool = True
    bank_sale: bool = False
    shoot_bets: bool = False
    insurance: bool = False
    even_money: bool = False
    #: 0 = not paid; otherwise paid at once at this rate
    three_of_a_kind_pays: Fraction = Fraction(0)
    #: "after_pontoon" or "every_round"
    reshuffle: str = "after_pontoon"

    @property
    def house_dealer(self) -> bool:
        return self.dealer == "house"

    def packs_for(self, people: int) -> int:
        if self.packs is not None:
            return self.packs
        return 2 if people >= self.two_packs_at else 1

    def options(self) -> dict[str, Any]:
        """Every option with a JSON-friendly value (fractions as numbers)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "preset":
                continue
            value = getattr(self, f.name)
            if isinstance(value, Fraction):
                value = int(value) if value.denominator == 1 else float(value)
            out[f.name] = value
        return out


PRESETS: dict[str, Ruleset] = {
    "house": Ruleset(preset="house"),
    "traditional": Ruleset(
        preset="traditional",
        packs=1,
        max_people=8,
        counted_deals=None,
        max_stake=10,
        bank_sale=True,
    ),
    "shoot": Ruleset(
        preset="shoot",
        packs=1,
        max_people=8,
        counted_deals=None,
        max_stake=10,
        bank_sale=True,
        shoot_bets=True,
    ),
    "casino": Ruleset(
        preset="casino",
        packs=6,
        dealer="house",
        counted_deals=None,
        max_stake=100,
        split_by="value",
        buy="double",
        twist_then_buy=True,
        bank_pontoon_pays="ranking",
        banker_five_card="ranking",
        pay_pontoon=Fraction(3, 2),
        pay_five_card=Fraction(3, 2),
        dealer_draws="hit_soft_17",
        bank_transfer=False,
        reshuffle="every_round",
    ),
    "ponton": Ruleset(
        preset="ponton",
        packs=6,
        dealer="house",
        counted_deals=None,
        max_stake=100,
        stick_minimum=0,
        max_hands_per_seat=None,
        split_aces_once=True,
        split_aces_one_card=True,
        buy="equal",
        buy_max_cards=3,
        five_card_always_wins=True,
        bank_pontoon_pays="ranking",
        banker_five_card="ranking",
        pay_pontoon=Fraction(2),
        pay_five_card=Fraction(3, 2),
        dealer_draws="to_16",
        dealer_initial_cards=1,
        bank_transfer=False,
        insurance=True,
        even_money=True,
        three_of_a_kind_pays=Fraction(1),
        reshuffle="every_round",
    ),
}

_CHOICES: dict[str, tuple[str, ...]] = {
    "dealer": ("player", "house"),
    "split_by": ("rank", "value"),
    "buy": ("rising", "double", "equal", "none"),
    "bank_pontoon_pays": ("double", "ranking"),
    "ties": ("banker", "push"),
    "banker_five_card": ("pontoons_only", "ranking"),
    "dealer_draws": ("choice", "hit_soft_17", "to_16"),
    "reshuffle": ("after_pontoon", "every_round"),
}
_ALIASES: dict[str, dict[str, str]] = {"ties": {"dealer": "banker", "house": "banker"}}
_BOOLS = {f.name for f in dataclasses.fields(Ruleset) if f.type in ("bool", bool)}
_PAYS = {"pay_pontoon", "pay_five_card", "three_of_a_kind_pays"}
#: int options: (minimum, maximum or None, whether None/"unlimited" is allowed)
_INTS: dict[str, tuple[int, int | None, bool]] = {
    "packs": (1, 8, True),
    "two_packs_at": (2, None, False),
    "max_people": (1, None, True),
    "counted_deals": (1, None, True),
    "min_stake": (1, None, False),
    "max_stake": (1, None, False),
    "stick_minimum": (0, 21, False),
    "max_hands_per_seat": (1, None, True),
    "buy_max_cards": (2, 4, False),
    "dealer_initial_cards": (1, 2, False),
}


def _convert(name: str, value: Any) -> Any:
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise RulesetError(f"option {name} must be true or false, not {value!r}")
        return value
    if name in _CHOICES:
        if isinstance(value, str):
            value = _ALIASES.get(name, {}).get(value, value)
        if value not in _CHOICES[name]:
            allowed = ", ".join(_CHOICES[name])
            raise RulesetError(f"option {name} must be one of {allowed}, not {value!r}")
        return value
    if name in _PAYS:
        try:
            if isinstance(value, bool) or not isinstance(value, int | float | str | Fraction):
                raise ValueError
            pay = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise RulesetError(f"option {name} must be a number, not {value!r}") from None
        if pay < 0:
            raise RulesetError(f"option {name} cannot be negative ({value})")
        if (pay * 2).denominator != 1:
            raise RulesetError(
                f"option {name} must be a whole or half number (the table pays in half units)"
            )
        return pay
    low, high, nullable = _INTS[name]
    if nullable and (value is None or value in ("auto", "unlimited", "none")):
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError(f"option {name} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise RulesetError(f"option {name} must be {span}, not {value}")
    return value


def load_ruleset(preset: str = "house", options: Mapping[str, Any] | None = None) -> Ruleset:
    """A preset with ``options`` overriding single points; refuses nonsense clearly."""
    if preset not in PRESETS:
        raise RulesetError(f"unknown rules preset {preset!r} (choose {', '.join(PRESETS)})")
    base = PRESETS[preset]
    if not options:
        return base
    if not isinstance(options, Mapping):
        raise RulesetError("options must be an object of option names and values")
    known = {f.name for f in dataclasses.fields(Ruleset)} - {"preset"}
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if name not in known:
            raise RulesetError(f"unknown option {name!r}")
        changes[name] = _convert(name, value)
    rules = dataclasses.replace(base, **changes)
    _check(rules)
    return rules


def _check(r: Ruleset) -> None:
    """Combinations that cannot be played."""
    if r.min_stake > r.max_stake:
        raise RulesetError(f"min_stake {r.min_stake} is above max_stake {r.max_stake}")
    if r.house_dealer:
        if r.dealer_draws == "choice":
            raise RulesetError("a house dealer needs a drawing rule (dealer_draws)")
        for name in ("shoot_bets", "bank_sale", "bank_transfer"):
            if getattr(r, name):
                raise RulesetError(f"option {name} needs a player banker (dealer: player)")
        if r.counted_deals is not None:
            raise RulesetError("counted_deals needs a player banker (dealer: player)")
    else:
        if r.dealer_draws != "choice":
            raise RulesetError("a player banker draws by choice (dealer_draws: choice)")
        if r.dealer_initial_cards != 2:
            raise RulesetError("a player banker takes two cards (dealer_initial_cards: 2)")
        if r.insurance or r.even_money:
            raise RulesetError("insurance and even money need a house dealer (dealer: house)")
    if (r.insurance or r.even_money) and r.dealer_initial_cards != 1:
        raise RulesetError(
            "insurance and even money need a dealer card shown (dealer_initial_cards: 1)"
        )


def ruleset_to_dict(rules: Ruleset) -> dict[str, Any]:
    return {"preset": rules.preset, "options": rules.options()}


def ruleset_from_dict(data: Mapping[str, Any]) -> Ruleset:
    """The ruleset ``ruleset_to_dict`` wrote, whatever the presets say today:
    every option stored wins over the preset's current default (an option
    added since it was written takes the preset's value)."""
    preset = str(data["preset"])
    base = PRESETS.get(preset)
    if base is None:
        return load_ruleset(preset)  # refuses the unknown preset clearly
    opts = dict(data.get("options", {}))
    current = base.options()
    diff = {k: v for k, v in opts.items() if current.get(k) != v}
    return load_ruleset(preset, diff)


_DECISION_WORDS: dict[tuple[str, bool, bool, bool], tuple[str, ...]] = {}


def decision_words(r: Ruleset) -> tuple[str, ...]:
    """The decision words these rules can ever allow, so ``pending`` skips the others."""
    key = (r.buy, r.shoot_bets, r.insurance, r.even_money)
    words = _DECISION_WORDS.get(key)
    if words is None:
        off = set()
        if r.buy in ("double", "none"):
            off.add("buy")
        if r.buy != "double":
            off.add("double")
        if not r.shoot_bets:
            off.add("shoot")
        if not r.insurance:
            off.add("insurance")
        if not r.even_money:
            off.add("even-money")
        words = _DECISION_WORDS[key] = tuple(w for w in WORDS if w not in off)
    return words
