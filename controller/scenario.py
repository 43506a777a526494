"""Scenario files (SCENARIO.md): loading with clear errors, and the script.

The script answers the engine's needs from the file (a stake, a player's next
word, the bank's next word, a kitty, a sale...) and leaves cards alone, so
``replay`` draws them from the pack while the simulator deals them through its
emulated shoe and uses the same script to choose which buttons to press.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from controller.rules import (
    Action,
    Amount,
    BankDecide,
    BankNeed,
    BetweenDeals,
    Card,
    CardNeed,
    DealCard,
    Decide,
    DecisionNeed,
    GameOver,
    GameState,
    IllegalAction,
    KittyNeed,
    Need,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    Ruleset,
    RulesetError,
    SellBank,
    ShootNeed,
    StackTop,
    StakeNeed,
    StartDeal,
    apply,
    check_players,
    load_ruleset,
    new_game,
    pending,
)

__all__ = [
    "DealSpec",
    "Scenario",
    "ScenarioError",
    "ScenarioScript",
    "error_line",
    "json_amount",
    "load_scenario",
    "parse_amount",
    "parse_word",
    "run_scenario",
]


class ScenarioError(ValueError):
    """A malformed scenario, or one the rules refuse; ``str()`` is one line."""


@dataclass
class DealSpec:
    top: list[Card] = field(default_factory=list)
    stakes: dict[str, Any] = field(default_factory=dict)
    actions: dict[str, list[str]] = field(default_factory=dict)
    bank: list[str] = field(default_factory=list)
    kitty: Any = None
    shoots: dict[str, Any] = field(default_factory=dict)
    sell_bank: dict[str, Any] | None = None


@dataclass
class Scenario:
    preset: str
    rules: Ruleset
    seed: int
    players: list[str]
    banker: str | None
    cut: list[Card] | None
    deals: list[DealSpec]


_EXPONENT = re.compile(r"[eE]([+-]?\d+)")


def parse_amount(text: Any) -> Amount:
    """``3`` / ``"3"`` / ``2.5`` / ``"2.5"`` -> exact amount; ValueError otherwise."""
    if isinstance(text, bool):
        raise ValueError(f"not an amount: {text!r}")
    if isinstance(text, int):
        return text
    if isinstance(text, float):
        text = repr(text)
    if not isinstance(text, str):
        raise ValueError(f"not an amount: {text!r}")
    # Fraction("1e999999999") would compute a billion-digit number: an amount
    # with an absurd exponent is refused before it can stall the table.
    exponent = _EXPONENT.search(text)
    if exponent and len(exponent.group(1).lstrip("+-0")) > 2:
        raise ValueError(f"not an amount: {text!r}")
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"not an amount: {text!r}") from None
    return int(value) if value.denominator == 1 else value


def json_amount(value: Any) -> Amount:
    """An amount field of a scenario: a JSON number, never text (SCENARIO.md)."""
    if isinstance(value, str):
        raise ValueError(f"not an amount: {value!r} is text, and amounts are JSON numbers")
    return parse_amount(value)


def parse_word(text: str) -> tuple[str, Amount | None]:
    """``"buy 3"`` -> ("buy", 3); ``"stick"`` -> ("stick", None)."""
    parts = text.split()
    if not parts or len(parts) > 2:
        raise ValueError(f"cannot read decision {text!r}")
    word = parts[0].lower()
    if word == "even" and len(parts) == 2 and parts[1].lower() == "money":
        return "even-money", None
    amount = parse_amount(parts[1]) if len(parts) == 2 else None
    return word, amount


def _fail(where: str, what: str) -> ScenarioError:
    return ScenarioError(f"{where}: {what}" if where else what)


def _cards(value: Any, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise _fail(where, "must be a list of cards")
    try:
        return [Card.parse(c) for c in value]
    except ValueError as e:
        raise _fail(where, str(e)) from None


def _names_map(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, "must be an object keyed by player name")
    return dict(value)


def load_scenario(source: str | Path | Mapping[str, Any]) -> Scenario:
    """Read and validate a scenario file (or an already parsed dict)."""
    if isinstance(source, Mapping):
        data: Any = dict(source)
    else:
        path = Path(source)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as e:
            raise ScenarioError(f"cannot read {path}: {e.strerror}") from None
        except json.JSONDecodeError as e:
            raise ScenarioError(f"{path} is not valid JSON: {e}") from None
        except UnicodeDecodeError as e:
            raise ScenarioError(f"{path} is not UTF-8 text (byte {e.start})") from None
        except RecursionError:
            raise ScenarioError(f"{path} is nested too deeply to be a scenario") from None
        except ValueError as e:  # e.g. an integer of more than 4300 digits
            raise ScenarioError(f"{path} is not a usable scenario: {e}") from None
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    known = {"rules", "options", "seed", "players", "banker", "cut", "deals", "name", "comment",
             "description"}
    for key in data:
        if key not in known:
            raise ScenarioError(f"unknown scenario key {key!r}")
    preset = data.get("rules", "house")
    if not isinstance(preset, str):
        raise ScenarioError(f"rules must be a preset name, not {preset!r}")
    options = data.get("options")
    if options is not None and not isinstance(options, dict):
        # ``0`` or ``""`` must not pass for "no options": a typo is refused, not ignored
        raise ScenarioError("options must be an object of option names and values")
    try:
        rules = load_ruleset(preset, options or {})
    except RulesetError as e:
        raise ScenarioError(str(e)) from None
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ScenarioError("seed must be a whole number")
    players = data.get("players")
    if (
        not isinstance(players, list)
        or not players
        or not all(isinstance(p, str) and p for p in players)
    ):
        raise ScenarioError("players must be a non-empty list of names")
    if len(set(players)) != len(players):
        raise ScenarioError("players must have distinct names")
    if "house" in players:
        raise ScenarioError("'house' is the casino dealer, not a player name")
    banker = data.get("banker")
    if rules.house_dealer:
        if banker not in (None, "house"):
            raise ScenarioError(f"the {preset} dealer is the house: leave 'banker' out")
        banker = None
    elif banker is not None and banker not in players:
        raise ScenarioError(f"banker {banker!r} is not one of the players")
    if not rules.house_dealer and len(players) < 2:
        raise ScenarioError("a player-banked game needs at least two people")
    try:
        check_players(rules, players)
    except IllegalAction as e:
        raise ScenarioError(str(e)) from None
    cut = None
    if "cut" in data:
        if banker is not None or rules.house_dealer:
            raise ScenarioError("'cut' is only used when no banker is given")
        cut = _cards(data["cut"], "cut")
    deals_raw = data.get("deals")
    if not isinstance(deals_raw, list):
        raise ScenarioError("deals must be a list")
    deals = [_load_deal(raw, i + 1, rules, players) for i, raw in enumerate(deals_raw)]
    return Scenario(preset, rules, seed, list(players), banker, cut, deals)


def _load_deal(raw: Any, n: int, rules: Ruleset, players: list[str]) -> DealSpec:
    where = f"deal {n}"
    if not isinstance(raw, dict):
        raise _fail(where, "must be an object")
    allowed = {"top", "stakes", "actions", "bank"}
    if rules.shoot_bets:
        allowed |= {"kitty", "shoots"}
    if rules.bank_sale:
        allowed.add("sell_bank")
    for key in raw:
        if key not in allowed:
            raise _fail(where, f"unknown key {key!r} for the {rules.preset} rules")
    spec = DealSpec()
    if "top" in raw:
        spec.top = _cards(raw["top"], f"{where}, top")
    spec.stakes = _names_map(raw.get("stakes", {}), f"{where}, stakes")
    spec.actions = _names_map(raw.get("actions", {}), f"{where}, actions")
    spec.shoots = _names_map(raw.get("shoots", {}), f"{where}, shoots")
    for part, mapping in (("stakes", spec.stakes), ("actions", spec.actions),
                          ("shoots", spec.shoots)):
        for name in mapping:
            if name not in players:
                raise _fail(where, f"{part} names {name!r}, who is not at the table")
    for name, words in spec.actions.items():
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise _fail(f"{where}, {name}", "actions must be a list of words")
    bank = raw.get("bank", [])
    if not isinstance(bank, list) or not all(isinstance(w, str) for w in bank):
        raise _fail(where, "bank must be a list of words (draw, stay)")
    if bank and rules.house_dealer:
        raise _fail(where, f"the {rules.preset} dealer follows the drawing rule: no 'bank'")
    spec.bank = list(bank)
    spec.kitty = raw.get("kitty")
    sale = raw.get("sell_bank")
    if sale is not None:
        if not isinstance(sale, dict) or set(sale) != {"to", "price"}:
            raise _fail(where, 'sell_bank must be {"to": NAME, "price": N}')
        if sale["to"] not in players:
            raise _fail(where, f"sell_bank names {sale['to']!r}, who is not at the table")
    spec.sell_bank = sale
    return spec


class ScenarioScript:
    """Answers each need from the scenario; ``None`` for a card (the caller deals)."""

    def __init__(self, scenario: Scenario) -> None:
        self.sc = scenario
        self.next_deal = 0
        self.spec: DealSpec | None = None
        self.deal_no = 0
        self._words: dict[str, int] = {}
        self._bank = 0
        self._pre: list[str] = []
        #: who/what the last answer was about, for error lines
        self.context: tuple[str | None, int | None, str | None] = (None, None, None)

    # -- between deals ------------------------------------------------------------
    def _between(self, state: GameState, need: Need) -> Action | None:
        if self.next_deal >= len(self.sc.deals):
            return None
        spec = self.sc.deals[self.next_deal]
        n = state.entries + 1
        where = f"deal {n}"
        if isinstance(need, GameOver):
            limit = state.rules.counted_deals
            raise ScenarioError(f"{where}: the game is over after {limit} counted deals")
        if "sale" not in self._pre and spec.sell_bank is not None:
            self._pre.append("sale")
            raw = spec.sell_bank["price"]
            try:
                price = json_amount(raw)
            except ValueError as e:
                raise _fail(f"{where}, {state.banker} (banker), sell_bank price {raw!r}",
                            str(e)) from None
            self.context = (state.banker, None, f"sell bank to {spec.sell_bank['to']}")
            return SellBank(str(spec.sell_bank["to"]), price)
        if "kitty" not in self._pre and spec.kitty is not None:
            self._pre.append("kitty")
            try:
                amount = json_amount(spec.kitty)
            except ValueError as e:
                raise _fail(f"{where}, {state.banker} (banker), kitty {spec.kitty!r}",
                            str(e)) from None
            self.context = (state.banker, None, f"kitty {amount}")
            return PutKitty(amount)
        if isinstance(need, KittyNeed):
            raise ScenarioError(f"{where}: the banker {need.banker} must put up a kitty ('kitty')")
        if "top" not in self._pre and spec.top:
            self._pre.append("top")
            self.context = (None, None, "top")
            return StackTop(tuple(spec.top))
        banker = state.banker
        for name in state.players:
            if name == banker and not state.rules.house_dealer:
                if name in spec.stakes:
                    raise ScenarioError(f"{where}, {name}: the banker does not stake")
            elif name not in spec.stakes:
                raise ScenarioError(f"{where}, {name}: no stake given (every player stakes)")
        self.spec = spec
        self.deal_no = n
        self.next_deal += 1
        self._words = {}
        self._bank = 0
        self._pre = []
        self.context = (None, None, None)
        return StartDeal()

    # -- the answer ---------------------------------------------------------------
    def answer(self, state: GameState, need: Need) -> Action | None:
        if isinstance(need, BetweenDeals | KittyNeed | GameOver):
            return self._between(state, need)
        if isinstance(need, CardNeed):
            return None
        spec = self.spec
        assert spec is not None
        where = f"deal {self.deal_no}"
        if isinstance(need, StakeNeed):
            raw = spec.stakes[need.player]
            self.context = (need.player, 1, f"stake {raw}")
            try:
                return PlaceStake(need.player, json_amount(raw))
            except ValueError as e:
                raise _fail(f"{where}, {need.player}, hand 1, stake {raw!r}", str(e)) from None
        if isinstance(need, ShootNeed):
            raw = spec.shoots.get(need.player, 0)
            self.context = (need.player, 1, f"shoot {raw}")
            try:
                return PlaceShoot(need.player, json_amount(raw))
            except ValueError as e:
                raise _fail(f"{where}, {need.player}, hand 1, shoot {raw!r}", str(e)) from None
        if isinstance(need, DecisionNeed):
            return self._decision(state, need, spec, where)
        if isinstance(need, BankNeed):
            i = self._bank
            if i >= len(spec.bank):
                self.context = (need.banker, None, None)
                raise ScenarioError(
                    f"{where}, {need.banker} (banker): no bank decision left "
                    f"(draw or stay at {_bank_total(state)})"
                )
            self._bank += 1
            word = spec.bank[i]
            self.context = (need.banker, None, word)
            return BankDecide(word.strip().lower())
        raise AssertionError(need)  # pragma: no cover

    def _decision(
        self, state: GameState, need: DecisionNeed, spec: DealSpec, where: str
    ) -> Action:
        words = spec.actions.get(need.player, [])
        i = self._words.get(need.player, 0)
        nxt = words[i] if i < len(words) else None
        # A pontoon facing the dealer's ace ends by itself unless it takes even
        # money, its only word (SCENARIO.md): any other word, ``stick`` included,
        # is left for the player's next hand, or left over.  The engine offers
        # ``even-money`` only to such a pontoon, and ``stick`` there plays it on.
        if "even-money" in need.words and (nxt is None or not _is_even_money(nxt)):
            self.context = (need.player, need.hand, None)
            return Decide(need.player, "stick")
        if nxt is None:
            self.context = (need.player, need.hand, None)
            raise ScenarioError(
                f"{where}, {need.player}, hand {need.hand}: no decision left "
                f"(the hand makes {_hand_total(state)}; legal: {', '.join(need.words)})"
            )
        self._words[need.player] = i + 1
        self.context = (need.player, need.hand, nxt)
        try:
            word, amount = parse_word(nxt)
        except ValueError as e:
            raise ScenarioError(
                f"{where}, {need.player}, hand {need.hand}, decision {nxt!r}: {e}"
            ) from None
        return Decide(need.player, word, amount)

    def finish_deal(self, state: GameState, void: bool) -> None:
        """Refuse words left over once the deal is over (a void deal consumes its own)."""
        spec = self.spec
        if spec is None or void:
            return
        where = f"deal {self.deal_no}"
        last = state.results[-1] if state.results else None
        for name in self.sc.players:
            words = spec.actions.get(name, [])
            used = self._words.get(name, 0)
            if used < len(words):
                hand = 1
                if last:
                    hand = max((h["hand"] for h in last["hands"] if h["player"] == name),
                               default=1)
                raise ScenarioError(
                    f"{where}, {name}, hand {hand}, decision {words[used]!r}: "
                    f"left over after {name}'s hands ended"
                )
        if self._bank < len(spec.bank):
            banker = last["banker"] if last else "banker"
            raise ScenarioError(
                f"{where}, {banker} (banker), decision {spec.bank[self._bank]!r}: "
                "left over after the bank's hand ended"
            )
        if state.rules.shoot_bets:
            for name, amount in spec.shoots.items():
                if name == (last or {}).get("banker"):
                    raise ScenarioError(f"{where}, {name}: the banker places no shoot bet")
                del amount


def _current_hand(state: GameState) -> Any:
    d = state.deal
    assert d is not None
    return d.hands[d.seat_i][d.hand_i]


def _hand_total(state: GameState) -> int:
    return int(_current_hand(state).total)


def _bank_total(state: GameState) -> int:
    d = state.deal
    assert d is not None
    return int(d.bank.total)


def _is_even_money(word: str) -> bool:
    try:
        return parse_word(word)[0] == "even-money"
    except ValueError:
        return False


def run_scenario(scenario: Scenario) -> dict[str, Any]:
    """Play a scenario with the engine alone; the JSON object of SCENARIO.md.

    Raises ``ScenarioError`` with the one-line message ``replay`` prints.
    """
    try:
        state = new_game(scenario.rules, scenario.players, banker=scenario.banker,
                         seed=scenario.seed)
    except IllegalAction as e:
        raise ScenarioError(str(e)) from None
    script = ScenarioScript(scenario)
    if scenario.cut:
        try:
            apply(state, StackTop(tuple(scenario.cut)))
        except IllegalAction as e:
            raise ScenarioError(f"cut: {e.reason}") from None
    while True:
        need = pending(state)
        action = script.answer(state, need)
        if action is None:
            if not isinstance(need, CardNeed):
                break
            if len(state.pack) == 0:  # pragma: no cover - the engine voids first
                raise ScenarioError(f"deal {script.deal_no}: the pack is empty")
            action = DealCard(state.pack.peek())
        before = len(state.results)
        try:
            apply(state, action)
        except IllegalAction as e:
            raise ScenarioError(error_line(script, state, action, e)) from None
        if len(state.results) > before:
            script.finish_deal(state, void=bool(state.results[-1]["void"]))
    return result_json(state)


def error_line(script: ScenarioScript, state: GameState, action: Action, e: IllegalAction) -> str:
    """The one-line refusal SCENARIO.md asks for (deal, player, hand, decision,
    reason), shared by ``replay`` and ``sim --scenario`` so both word a bad
    scenario identically."""
    player, hand, decision = script.context
    if isinstance(action, StackTop):
        n = state.entries + 1 if script.next_deal < len(script.sc.deals) else state.entries
        return f"deal {n}, top: {e.reason}" if state.phase != "cut" else f"cut: {e.reason}"
    parts = [f"deal {script.deal_no if state.phase == 'deal' else state.entries + 1}"]
    who = e.player or player
    if who:
        parts.append(who)
    if e.hand or hand:
        parts.append(f"hand {e.hand or hand}")
    if decision:
        parts.append(f"decision {decision!r}")
    return ", ".join(parts) + f": {e.reason}"


def result_json(state: GameState) -> dict[str, Any]:
    """The SCENARIO.md output object for the deals played so far."""
    balances: dict[str, Any] = {}
    for p in state.players:
        balances[p] = _num(state.balances[p])
    if "house" in state.balances:
        balances["house"] = _num(state.balances["house"])
    return {
        "rules": state.rules.preset,
        "deals": state.results,
        "balances": balances,
        "winners": state.winners(),
    }


def _num(h: int) -> int | float:
    return h // 2 if h % 2 == 0 else h / 2
