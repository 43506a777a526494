"""A second, deliberately simple Pontoon engine, used only by the tests.

Why it exists: the expected results of the scenario tests must not come from
the code under test. This module replays a scenario file (SCENARIO.md) and
produces the same result JSON, or refuses it with a one-line reason, and it
was written from ``/work/shared/spec/RULES.md`` and ``SCENARIO.md`` alone. It
never imports, and was written without reading, anything under
``controller/`` (the engine it checks); the only other source is the list of
option names and value words in ``docs/rules.md``, which is the public
scenario interface. Keep it that way: a shared bug would make both agree.

It is plain on purpose: straight-line code, strings for cards, ``Fraction``
for money, no speed work. Where the rule book leaves a point open this file
says which reading it takes, so a disagreement can be judged by hand.

Cards it cannot know: the shuffle algorithm is each implementation's own
(SCENARIO.md), so the reference keeps the pack as a known top, an unordered
middle (everything shuffled) and a known bottom (cards put back in order).
Needing a card from the unordered middle raises ``NotStacked``: scenarios
that must give the same result everywhere stack every card they draw.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from .cards import (
    ALL_CARDS,
    CUT_ORDER,
    best_total,
    is_bust,
    is_five_card_trick,
    is_pontoon,
    is_soft,
    parse_card,
    rank,
    ranking,
    value,
)
from .rulebook import Refused, load


class NotStacked(Exception):
    """The scenario draws a card it did not stack; only the engine's own shuffle knows it."""


class PackEmpty(Exception):
    """A card was due and the pack had none left: the deal is void (RULES.md §2.8)."""


class Pack:
    """Known cards on top, shuffled (unordered) cards in the middle, known cards below."""

    def __init__(self, packs: int) -> None:
        self.top: list[str] = []
        self.middle: list[str] = []
        for _ in range(packs):
            self.middle.extend(ALL_CARDS)
        self.bottom: list[str] = []

    def shuffle(self) -> None:
        self.middle = self.top + self.middle + self.bottom
        self.top = []
        self.bottom = []

    def take(self, card: str) -> bool:
        """Take one copy out of the pack, the copy nearest the top."""
        for part in (self.top, self.middle, self.bottom):
            if card in part:
                part.remove(card)
                return True
        return False

    def draw(self) -> str:
        if self.top:
            return self.top.pop(0)
        if self.middle:
            raise NotStacked("a card comes from the shuffled pack; the scenario did not stack it")
        if self.bottom:
            return self.bottom.pop(0)
        raise PackEmpty()


class Hand:
    def __init__(self, player: str, stake: Fraction) -> None:
        self.player = player
        self.cards: list[str] = []
        self.seqs: list[int] = []  # position of each card in the deal's dealing order
        self.stake = stake
        self.original = stake
        self.last_buy: Fraction | None = None
        self.twisted = False
        self.doubled = False
        self.from_split = False
        self.split_aces = False
        self.words = 0
        self.shoot = Fraction(0)
        self.shoot_pending = False  # a shoot bet was placed before the fourth card
        self.fourth_shoot = False
        self.insurance = Fraction(0)
        self.even_money = False
        self.bust = False
        self.paid = False  # settled at once: even money, three of a kind
        self.finished = False
        self.net = Fraction(0)


class Seat:
    def __init__(self, player: str, stake: Fraction) -> None:
        self.player = player
        self.hands = [Hand(player, stake)]


def money(amount: Fraction) -> int | float:
    """Whole units print as integers, half units as 7.5."""
    if amount.denominator == 1:
        return int(amount)
    return float(amount)


def parse_amount(text: str) -> Fraction | None:
    try:
        amount = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None
    return amount


def json_number(raw: object) -> Fraction | None:
    """A JSON number (never a string or a boolean) as a Fraction."""
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        return None
    return Fraction(raw)


class Game:
    def __init__(self, scenario: dict[str, Any]) -> None:
        known = {"rules", "options", "seed", "players", "banker", "cut", "deals"}
        for key in scenario:
            if key not in known:
                raise Refused(f"unknown key {key!r} in the scenario")
        self.rules = load(scenario.get("rules"), scenario.get("options"))
        self.house_dealer = self.rules["dealer"] == "house"
        players = scenario.get("players")
        if not isinstance(players, list) or not players:
            raise Refused("players must be a list of names")
        for name in players:
            if not isinstance(name, str) or not name:
                raise Refused(f"player {name!r} is not a name")
        if len(set(players)) != len(players):
            raise Refused("players: a name is given twice")
        if self.house_dealer and "house" in players:
            raise Refused("players: 'house' is the dealer, not a player name")
        self.players: list[str] = list(players)
        if not self.house_dealer and len(self.players) < 2:
            raise Refused("a player-banked game needs at least 2 people")
        if self.rules["preset"] in ("traditional", "shoot") and len(self.players) > 8:
            # RULES.md §3: 2 to 8 people, banker included; more is refused.
            raise Refused(f"{len(self.players)} people: traditional and shoot take 2 to 8")
        packs = self.rules["packs"]
        if packs == "auto":
            packs = 2 if len(self.players) >= self.rules["two_packs_at"] else 1
        self.pack = Pack(packs)
        self.balances: dict[str, Fraction] = {name: Fraction(0) for name in self.players}
        if self.house_dealer:
            self.balances["house"] = Fraction(0)
        self.banker = "house"
        if self.house_dealer:
            if scenario.get("banker") is not None:
                raise Refused("banker: the house deals in these rules; no player banks")
            if scenario.get("cut") is not None:
                raise Refused("cut: the house deals in these rules; there is no cut")
        elif scenario.get("banker") is not None:
            if scenario["banker"] not in self.players:
                raise Refused(f"banker {scenario['banker']!r} is not one of the players")
            if scenario.get("cut") is not None:
                raise Refused("cut is only for a game with no banker")
            self.banker = scenario["banker"]
        else:
            self.banker = self.cut(scenario.get("cut"))
        self.pack.shuffle()  # before the first deal, after the cut
        self.kitty: Fraction | None = None
        self.counted = 0
        deals = scenario.get("deals")
        if not isinstance(deals, list):
            raise Refused("deals must be a list")
        self.deals: list[dict[str, Any]] = deals
        self.entries: list[dict[str, Any]] = []

    # ----- the cut (SCENARIO.md Draw order 1) -----

    def cut(self, cards: object) -> str:
        if cards is None:
            cards = []
        if not isinstance(cards, list):
            raise Refused("cut must be a list of cards")
        drawn_cards = []
        for text in cards:
            card = parse_card(text)
            if card is None:
                raise Refused(f"cut: unknown card {text!r}")
            drawn_cards.append(card)
        for card in drawn_cards:
            if not self.pack.take(card):
                raise Refused(f"cut: card {card} is stacked more times than the packs hold")
        self.pack.top = drawn_cards
        contenders = list(self.players)
        while True:
            drawn = {name: self.pack.draw() for name in contenders}
            self.pack.bottom.extend(drawn.values())  # cut cards go back; the pack is shuffled after
            best = max(CUT_ORDER.index(rank(card)) for card in drawn.values())
            contenders = [n for n in contenders if CUT_ORDER.index(rank(drawn[n])) == best]
            if len(contenders) == 1:
                break
        if self.pack.top:
            raise Refused(f"cut: {len(self.pack.top)} cut card(s) left over")
        return contenders[0]

    # ----- the game -----

    def run(self) -> dict[str, Any]:
        for index, deal in enumerate(self.deals):
            self.play_deal(index + 1, deal)
        best = max(self.balances[name] for name in self.players) if self.players else 0
        return {
            "rules": self.rules["preset"],
            "deals": self.entries,
            "balances": {name: money(amount) for name, amount in self.balances.items()},
            "winners": [name for name in self.players if self.balances[name] == best],
        }

    def seat_order(self) -> list[str]:
        """Players clockwise from the banker's left; from the first seat for the house."""
        if self.house_dealer:
            return list(self.players)
        at = self.players.index(self.banker)
        return self.players[at + 1 :] + self.players[:at]

    def play_deal(self, number: int, deal: object) -> None:
        self.number = number
        if not isinstance(deal, dict):
            raise Refused(f"deal {number}: a deal must be an object")
        known = {"top", "stakes", "actions", "bank", "kitty", "shoots", "sell_bank"}
        for key in deal:
            if key not in known:
                raise Refused(f"deal {number}: unknown key {key!r}")
        limit = self.rules["counted_deals"]
        if limit is not None and self.counted >= limit:
            raise Refused(f"deal {number}: the game is over after {limit} counted deals")

        sale = None
        if "sell_bank" in deal:
            sale = self.sell_bank(deal["sell_bank"])
        if self.rules["shoot_bets"]:
            self.put_kitty(deal.get("kitty"))
        elif "kitty" in deal or "shoots" in deal:
            raise Refused(f"deal {number}: kitty and shoots are only for shoot bets")
        if "bank" in deal and self.rules["dealer_draws"] != "choice":
            raise Refused(f"deal {number}: bank decisions are not given; the dealer's rule draws")

        self.stack_top(deal.get("top"))
        self.order = self.seat_order()
        self.stakes = self.read_stakes(deal.get("stakes"))
        self.actions = self.read_actions(deal.get("actions"))
        bank_words = deal.get("bank", [])
        if not isinstance(bank_words, list):
            raise Refused(f"deal {number}: bank must be a list of decisions")
        self.bank_words: list[object] = list(bank_words)

        self.seats = [Seat(name, self.stakes[name]) for name in self.order]
        self.bank: list[str] = []
        self.bank_seqs: list[int] = []
        self.dealt: list[str] = []
        self.returned: list[bool] = []
        self.kitty_at_start = self.kitty
        try:
            entry = self.play(deal)
        except PackEmpty:
            entry = self.void_entry()
        if sale is not None:
            entry["sale"] = sale
        self.entries.append(entry)

    # ----- before the cards -----

    def sell_bank(self, sale: object) -> dict[str, Any]:
        n = self.number
        if not self.rules["bank_sale"]:
            raise Refused(f"deal {n}: sell_bank is not allowed in these rules (no bank sale)")
        if not isinstance(sale, dict) or set(sale) != {"to", "price"}:
            raise Refused(f"deal {n}: sell_bank must be {{'to': NAME, 'price': N}}")
        buyer = sale["to"]
        if buyer not in self.players or buyer == self.banker:
            raise Refused(f"deal {n}: sell_bank to {buyer!r}: not another player")
        price = json_number(sale["price"])
        if price is None or price.denominator != 1 or price < 0:
            raise Refused(f"deal {n}: sell_bank price {sale['price']!r} is not a whole amount")
        seller = self.banker
        self.balances[buyer] -= price
        self.balances[seller] += price
        self.banker = buyer
        self.kitty = None  # the old banker takes the kitty; the buyer puts up a new one
        return {"from": seller, "to": buyer, "price": money(price)}

    def put_kitty(self, raw: object) -> None:
        n = self.number
        low, high = self.rules["min_stake"], self.rules["max_stake"]
        new = self.kitty is None or self.kitty == 0
        if raw is None:
            if new:
                raise Refused(f"deal {n}, {self.banker}: the banker must put up a kitty")
            return
        amount = json_number(raw)
        if amount is None or amount.denominator != 1:
            raise Refused(f"deal {n}, {self.banker}: kitty {raw!r} is not a whole amount")
        if new:
            if amount < low or amount > high:
                raise Refused(
                    f"deal {n}, {self.banker}: a new kitty of {raw} is out of range "
                    f"({low} to {high})"
                )
            self.kitty = amount
        else:
            if amount < 1:
                raise Refused(f"deal {n}, {self.banker}: kitty {raw} adds nothing")
            assert self.kitty is not None
            self.kitty += amount

    def stack_top(self, top: object) -> None:
        n = self.number
        if top is None:
            return
        if not isinstance(top, list):
            raise Refused(f"deal {n}: top must be a list of cards")
        cards = []
        for text in top:
            card = parse_card(text)
            if card is None:
                raise Refused(f"deal {n}: unknown card {text!r} in top")
            cards.append(card)
        for card in cards:
            if not self.pack.take(card):
                raise Refused(f"deal {n}: card {card} is stacked more times than the packs hold")
        self.pack.top = cards + self.pack.top

    def read_stakes(self, stakes: object) -> dict[str, Fraction]:
        n = self.number
        if not isinstance(stakes, dict):
            raise Refused(f"deal {n}: stakes must be an object of player: amount")
        for name in stakes:
            if name == self.banker:
                raise Refused(f"deal {n}, {name}: the banker does not stake")
            if name not in self.players:
                raise Refused(f"deal {n}, {name}: stake for someone not at the table")
        low, high = self.rules["min_stake"], self.rules["max_stake"]
        result = {}
        for name in self.order:
            if name not in stakes:
                raise Refused(f"deal {n}, {name}: no stake given; every player stakes")
            raw = stakes[name]
            amount = json_number(raw)
            if amount is None:
                raise Refused(f"deal {n}, {name}: stake {raw!r} is not a number")
            if amount.denominator != 1 or amount < low or amount > high:
                raise Refused(
                    f"deal {n}, {name}: stake {raw} is out of range ({low} to {high}, whole units)"
                )
            result[name] = amount
        return result

    def read_actions(self, actions: object) -> dict[str, list[object]]:
        n = self.number
        if actions is None:
            actions = {}
        if not isinstance(actions, dict):
            raise Refused(f"deal {n}: actions must be an object of player: decisions")
        result: dict[str, list[object]] = {}
        for name, words in actions.items():
            if name == self.banker:
                raise Refused(f"deal {n}, {name}: the banker's decisions go in bank")
            if name not in self.players:
                raise Refused(f"deal {n}, {name}: decisions for someone not at the table")
            if not isinstance(words, list):
                raise Refused(f"deal {n}, {name}: decisions must be a list")
            result[name] = list(words)
        return result

    # ----- dealing -----

    def deal_card(self) -> tuple[str, int]:
        card = self.pack.draw()
        self.dealt.append(card)
        self.returned.append(False)
        return card, len(self.dealt) - 1

    def give(self, hand: Hand) -> None:
        card, seq = self.deal_card()
        hand.cards.append(card)
        hand.seqs.append(seq)
        if is_bust(hand.cards):
            self.bust(hand)

    def give_bank(self) -> None:
        card, seq = self.deal_card()
        self.bank.append(card)
        self.bank_seqs.append(seq)

    def bust(self, hand: Hand) -> None:
        """A bust hand loses its stake (and shoot bet) at once; its cards go to the bottom."""
        hand.bust = True
        hand.finished = True
        hand.net = -hand.stake - hand.shoot
        if hand.shoot:
            assert self.kitty is not None
            self.kitty += hand.shoot
        for seq in hand.seqs:
            self.returned[seq] = True
        self.pack.bottom.extend(hand.cards)

    def play(self, deal: dict[str, Any]) -> dict[str, Any]:
        rules = self.rules
        # First card to each player, then the banker; stakes were read already
        # (the house takes stakes first, a player banker after the first card:
        # the money is the same either way).
        for seat in self.seats:
            self.give(seat.hands[0])
        self.give_bank()
        if rules["shoot_bets"]:
            self.place_first_shoots(deal.get("shoots"))
        elif deal.get("shoots") is not None:
            raise Refused(f"deal {self.number}: shoots are only for shoot bets")
        for seat in self.seats:
            self.give(seat.hands[0])
        if rules["dealer_initial_cards"] == 2:
            self.give_bank()

        if not self.house_dealer and is_pontoon(self.bank):
            return self.bank_pontoon_at_once()

        for seat in self.seats:
            self.play_seat(seat)
        self.bank_turn()
        return self.settle()

    def place_first_shoots(self, shoots: object) -> None:
        n = self.number
        if shoots is None:
            shoots = {}
        if not isinstance(shoots, dict):
            raise Refused(f"deal {n}: shoots must be an object of player: amount")
        for name in shoots:
            if name not in self.order:
                raise Refused(f"deal {n}, {name}: a shoot bet for someone not playing")
        assert self.kitty is not None
        for seat in self.seats:
            raw = shoots.get(seat.player, 0)
            amount = json_number(raw)
            if amount is None or amount.denominator != 1 or amount < 0:
                raise Refused(f"deal {n}, {seat.player}: shoot {raw!r} is not a whole amount")
            if amount == 0:
                continue
            if self.open_shoots() + amount > self.kitty:
                raise Refused(
                    f"deal {n}, {seat.player}: 'shoot {raw}' would put the open shoot bets "
                    f"over the kitty ({money(self.kitty)})"
                )
            seat.hands[0].shoot = amount

    def open_shoots(self) -> Fraction:
        total = Fraction(0)
        for seat in self.seats:
            for hand in seat.hands:
                if not hand.bust:
                    total += hand.shoot
        return total

    # ----- a player's turn -----

    def where(self, seat: Seat, hand: Hand) -> str:
        return f"deal {self.number}, {seat.player}, hand {seat.hands.index(hand) + 1}"

    def play_seat(self, seat: Seat) -> None:
        words = self.actions.get(seat.player, [])
        index = 0
        while index < len(seat.hands):
            self.play_hand(seat, seat.hands[index], words)
            index += 1
        if words:
            hand = seat.hands[-1]
            raise Refused(
                f"{self.where(seat, hand)}: {words[0]!r} is left over after the hand ended"
            )

    def hand_stops(self, hand: Hand) -> bool:
        """RULES.md §1: a hand stops by itself at 21, at five cards not bust, on bust."""
        if hand.bust or hand.paid:
            return True
        if best_total(hand.cards) == 21 or len(hand.cards) == 5:
            return True
        return hand.split_aces and self.rules["split_aces_one_card"] and len(hand.cards) == 2

    def dealer_shows_ace(self) -> bool:
        return bool(self.bank) and rank(self.bank[0]) == "A"

    def play_hand(self, seat: Seat, hand: Hand, words: list[object]) -> None:
        while True:
            if self.hand_stops(hand):
                # ponton: a pontoon facing the dealer's ace may take even money
                # (or insurance, offered instead) as its one word.
                if (
                    words
                    and not hand.bust
                    and is_pontoon(hand.cards)
                    and self.dealer_shows_ace()
                    and isinstance(words[0], str)
                    and words[0].split()[:1] in (["even-money"], ["insurance"])
                ):
                    self.decide(seat, hand, words.pop(0))
                self.finish(hand)
                return
            if not words:
                raise Refused(
                    f"{self.where(seat, hand)}: no decision left, the hand is at "
                    f"{best_total(hand.cards)} and has not ended"
                )
            word = words.pop(0)
            if self.decide(seat, hand, word):
                self.finish(hand)
                return

    def finish(self, hand: Hand) -> None:
        """The hand has stopped: ponton's three of a kind is paid at once here."""
        hand.finished = True
        rate = self.rules["three_of_a_kind_pays"]
        if (
            rate > 0
            and not hand.bust
            and not hand.paid
            and len(hand.cards) == 3
            and len({rank(c) for c in hand.cards}) == 1
        ):
            hand.paid = True
            hand.net = rate * hand.stake

    def decide(self, seat: Seat, hand: Hand, word: object) -> bool:
        """Apply one decision; True when the hand ends by it (a stick)."""
        where = self.where(seat, hand)
        rules = self.rules
        if not isinstance(word, str) or not word.split():
            raise Refused(f"{where}: {word!r} is not a decision")
        parts = word.split()
        verb = parts[0]
        amount: Fraction | None = None
        if len(parts) == 2:
            amount = parse_amount(parts[1])
            if amount is None:
                raise Refused(f"{where}, {word!r}: {parts[1]!r} is not an amount")
        if len(parts) > 2:
            raise Refused(f"{where}, {word!r}: not a decision")
        say = f"{where}, '{word}'"
        first_word = hand.words == 0
        hand.words += 1
        total = best_total(hand.cards)

        if hand.shoot_pending and verb not in ("twist", "buy", "double"):
            raise Refused(f"{say}: after a shoot bet before the fourth card, twist or buy")

        if verb == "stick":
            if amount is not None:
                raise Refused(f"{say}: stick takes no amount")
            if total < rules["stick_minimum"]:
                raise Refused(
                    f"{say}: cannot stick at {total}; the minimum is {rules['stick_minimum']}"
                )
            return True

        if verb == "twist":
            if amount is not None:
                raise Refused(f"{say}: twist takes no amount")
            hand.shoot_pending = False
            hand.twisted = True
            self.give(hand)
            return False

        if verb == "buy":
            if rules["buy"] == "double":
                raise Refused(f"{say}: buy is not a word here; the casino's word is double")
            if rules["buy"] == "none":
                raise Refused(f"{say}: buying is not allowed in these rules")
            if hand.twisted and not rules["twist_then_buy"]:
                raise Refused(f"{say}: cannot buy after a twist")
            if len(hand.cards) > rules["buy_max_cards"]:
                raise Refused(
                    f"{say}: card {len(hand.cards) + 1} cannot be bought "
                    f"(buying stops at {rules['buy_max_cards']} cards held)"
                )
            if rules["buy"] == "equal":
                low = high = hand.original
            elif hand.last_buy is None:
                low, high = hand.original, 2 * hand.original
            else:
                low, high = hand.original, hand.last_buy
            if amount is None:
                if low != high:
                    raise Refused(f"{say}: give the amount, {money(low)} to {money(high)}")
                amount = low
            if amount.denominator != 1 or amount < low or amount > high:
                if low == high:
                    raise Refused(f"{say}: the buy must add exactly {money(low)}")
                raise Refused(f"{say}: the buy must add {money(low)} to {money(high)}")
            hand.shoot_pending = False
            hand.stake += amount
            hand.last_buy = amount
            self.give(hand)
            return False

        if verb == "double":
            if rules["buy"] != "double":
                raise Refused(f"{say}: double is the casino's word; here it is buy")
            if amount is not None and amount != hand.original:
                # like a plain buy where one amount is left: `double N` only for that N
                raise Refused(f"{say}: double adds the original bet, {money(hand.original)}")
            if hand.doubled:
                raise Refused(f"{say}: a hand may double once, not twice")
            if hand.twisted and not rules["twist_then_buy"]:
                raise Refused(f"{say}: cannot double after a twist")
            if len(hand.cards) > rules["buy_max_cards"]:
                raise Refused(
                    f"{say}: card {len(hand.cards) + 1} cannot be doubled for "
                    f"(doubling stops at {rules['buy_max_cards']} cards held)"
                )
            hand.shoot_pending = False
            hand.doubled = True
            hand.stake += hand.original
            self.give(hand)
            return False

        if verb == "split":
            if amount is not None:
                raise Refused(f"{say}: split takes no amount")
            self.split(seat, hand, say)
            return False

        if verb == "shoot":
            self.shoot(seat, hand, amount, first_word, say)
            return False

        if verb == "insurance":
            if not rules["insurance"]:
                raise Refused(f"{say}: insurance is not offered in these rules")
            if not self.dealer_shows_ace():
                raise Refused(f"{say}: insurance only when the dealer's card is an ace")
            if seat.hands.index(hand) != 0 or len(seat.hands) != 1 or not first_word:
                raise Refused(f"{say}: insurance comes before any other decision or card")
            if hand.even_money:
                raise Refused(f"{say}: a hand that took even money cannot take insurance")
            if amount is None or amount != hand.original / 2:
                raise Refused(
                    f"{say}: insurance is exactly half the stake, {money(hand.original / 2)}"
                )
            hand.insurance = amount
            return False

        if verb == "even-money":
            if amount is not None:
                raise Refused(f"{say}: even-money takes no amount")
            if not rules["even_money"]:
                raise Refused(f"{say}: even money is not offered in these rules")
            if not is_pontoon(hand.cards) or not self.dealer_shows_ace():
                raise Refused(f"{say}: even money is for a pontoon facing the dealer's ace")
            if hand.insurance:
                raise Refused(f"{say}: a hand that took insurance cannot take even money")
            hand.even_money = True
            hand.paid = True
            hand.net = hand.stake
            return False

        raise Refused(f"{say}: not a decision these rules know")

    def split(self, seat: Seat, hand: Hand, say: str) -> None:
        rules = self.rules
        if len(hand.cards) != 2:
            raise Refused(f"{say}: only a hand's first two cards may be split")
        first, second = hand.cards
        if rules["split_by"] == "rank" and rank(first) != rank(second):
            raise Refused(f"{say}: only two cards of the same rank may be split")
        if rules["split_by"] == "value" and value(first) != value(second):
            raise Refused(f"{say}: only two cards of the same value may be split")
        aces = rank(first) == "A" and rank(second) == "A"
        if rules["split_aces_only"] and not aces:
            raise Refused(f"{say}: only aces may be split in these rules")
        if aces and hand.split_aces and rules["split_aces_once"]:
            raise Refused(f"{say}: aces may be split only once")
        limit = rules["max_hands_per_seat"]
        if limit is not None and len(seat.hands) >= limit:
            raise Refused(f"{say}: a seat may hold at most {limit} hands")
        new = Hand(seat.player, hand.original)
        new.from_split = True
        new.cards = [second]
        new.seqs = [hand.seqs[1]]
        hand.cards = [first]
        hand.seqs = [hand.seqs[0]]
        if aces:
            hand.split_aces = True
            new.split_aces = True
        seat.hands.insert(seat.hands.index(hand) + 1, new)
        self.give(hand)
        self.give(new)

    def shoot(
        self, seat: Seat, hand: Hand, amount: Fraction | None, first_word: bool, say: str
    ) -> None:
        if not self.rules["shoot_bets"]:
            raise Refused(f"{say}: shoot bets are not part of these rules")
        if amount is None or amount.denominator != 1 or amount < 1:
            raise Refused(f"{say}: a shoot bet needs a whole amount")
        split_start = hand.from_split and first_word
        before_fourth = len(hand.cards) == 3 and not hand.fourth_shoot
        if not split_start and not before_fourth:
            raise Refused(
                f"{say}: a shoot bet is only allowed before a fourth card "
                "(or as a split hand's first decision)"
            )
        assert self.kitty is not None
        if self.open_shoots() + amount > self.kitty:
            raise Refused(
                f"{say}: the open shoot bets would go over the kitty ({money(self.kitty)})"
            )
        hand.shoot += amount
        if before_fourth and not split_start:
            hand.fourth_shoot = True
            hand.shoot_pending = True

    # ----- the banker's or dealer's turn -----

    def bank_turn(self) -> None:
        rules = self.rules
        live = [h for s in self.seats for h in s.hands if not h.bust and not h.paid]
        insured = any(h.insurance for s in self.seats for h in s.hands)
        stop_at_five = rules["dealer_stops_at_five"]
        if rules["dealer_draws"] == "choice":
            words = self.bank_words
            say = f"deal {self.number}, banker {self.banker}"
            if live:
                while not is_bust(self.bank) and not (stop_at_five and len(self.bank) == 5):
                    if not words:
                        raise Refused(f"{say}: no decision left for the bank")
                    word = words.pop(0)
                    if word == "stay":
                        break
                    if word != "draw":
                        raise Refused(f"{say}, {word!r}: the bank says draw or stay")
                    self.give_bank()
            if words:
                raise Refused(f"{say}: {words[0]!r} is left over after the bank's turn")
            return
        if not live:
            # RULES.md §1: the dealer does not play; an open insurance bet
            # makes it draw its second card only, to settle the insurance.
            if insured and len(self.bank) < 2:
                self.give_bank()
            return
        while not is_bust(self.bank) and not (stop_at_five and len(self.bank) == 5):
            total = best_total(self.bank)
            if rules["dealer_draws"] == "to_16" and total > 16:
                break
            if rules["dealer_draws"] == "hit_soft_17" and (
                total > 17 or (total == 17 and not is_soft(self.bank))
            ):
                break
            self.give_bank()

    # ----- settling -----

    def outcome(self, hand: Hand) -> Fraction:
        """Net for a hand that stood against the bank's final hand."""
        rules = self.rules
        stake = hand.stake
        cards = hand.cards
        pay_pontoon: Fraction = rules["pay_pontoon"]
        pay_five_card: Fraction = rules["pay_five_card"]
        if is_five_card_trick(cards) and rules["five_card_always_wins"]:
            return pay_five_card * stake
        if is_pontoon(self.bank) and rules["bank_pontoon_pays"] == "double":
            return -2 * stake
        if is_five_card_trick(self.bank) and rules["banker_five_card"] == "pontoons_only":
            if is_pontoon(cards):
                return pay_pontoon * stake
            return -2 * stake
        mine, theirs = ranking(cards), ranking(self.bank)
        if mine > theirs:
            if is_pontoon(cards):
                return pay_pontoon * stake
            if is_five_card_trick(cards):
                return pay_five_card * stake
            return stake
        if mine == theirs and rules["ties"] == "push":
            return Fraction(0)
        return -stake

    def settle_shoot(self, hand: Hand) -> None:
        """Shoot bets: 1:1 from the kitty if the hand beat the bank, else into the kitty."""
        if not hand.shoot:
            return
        assert self.kitty is not None
        if hand.net > 0:
            self.kitty -= hand.shoot
            hand.net += hand.shoot
        else:
            self.kitty += hand.shoot
            hand.net -= hand.shoot

    def settle_insurance(self) -> None:
        for seat in self.seats:
            hand = seat.hands[0]
            if hand.insurance:
                if is_pontoon(self.bank):
                    hand.net += 2 * hand.insurance
                else:
                    hand.net -= hand.insurance

    def bank_pontoon_at_once(self) -> dict[str, Any]:
        """A player-banker's pontoon is shown at once; nobody acts (RULES.md §2.4)."""
        for seat in self.seats:
            hand = seat.hands[0]
            words = self.actions.get(seat.player, [])
            if words:
                raise Refused(
                    f"{self.where(seat, hand)}: {words[0]!r} is left over; "
                    "the banker's pontoon ended the deal"
                )
            if self.rules["bank_pontoon_pays"] == "double":
                hand.net = -2 * hand.stake
            else:
                hand.net = self.outcome(hand)
            if hand.shoot:
                assert self.kitty is not None
                self.kitty += hand.shoot
                hand.net -= hand.shoot
            hand.finished = True
        if self.bank_words:
            raise Refused(
                f"deal {self.number}, banker {self.banker}: {self.bank_words[0]!r} is left "
                "over; the banker's pontoon ended the deal"
            )
        return self.close(pontoon_seen=True, transfer=False)

    def settle(self) -> dict[str, Any]:
        for seat in self.seats:
            for hand in seat.hands:
                if hand.bust or hand.paid:
                    continue
                hand.net = self.outcome(hand)
                self.settle_shoot(hand)
        self.settle_insurance()
        pontoon_seen = is_pontoon(self.bank) or any(
            is_pontoon(h.cards) for s in self.seats for h in s.hands
        )
        return self.close(pontoon_seen=pontoon_seen, transfer=True)

    def close(self, pontoon_seen: bool, transfer: bool) -> dict[str, Any]:
        """Book the deal, move the bank if a pontoon moves it, put the cards away."""
        net = {name: Fraction(0) for name in self.balances}
        for seat in self.seats:
            for hand in seat.hands:
                net[seat.player] += hand.net
        net[self.banker] = -sum(
            (amount for name, amount in net.items() if name != self.banker), Fraction(0)
        )
        for name, amount in net.items():
            self.balances[name] += amount
        self.counted += 1

        banker = self.banker
        next_banker = banker
        if (
            transfer
            and not self.house_dealer
            and self.rules["bank_transfer"]
            and not is_pontoon(self.bank)
        ):
            for seat in self.seats:
                if len(seat.hands) == 1 and is_pontoon(seat.hands[0].cards):
                    next_banker = seat.player
                    break

        shuffle = self.rules["reshuffle"] == "every_round" or (
            self.rules["reshuffle"] == "after_pontoon" and pontoon_seen
        )
        # Used cards go to the bottom in the order dealt (bust ones went already);
        # after a pontoon everything is shuffled.
        for seq, card in enumerate(self.dealt):
            if not self.returned[seq]:
                self.pack.bottom.append(card)
        if shuffle:
            self.pack.shuffle()
        entry = self.entry(net, counted=True, shuffle=shuffle, next_banker=next_banker)
        if next_banker != banker:
            self.banker = next_banker
            self.kitty = None  # the old banker takes the kitty
        return entry

    def void_entry(self) -> dict[str, Any]:
        """The pack ran out: nothing of this deal counts; shuffle and play it again."""
        for seat in self.seats:
            for hand in seat.hands:
                hand.net = Fraction(0)
        self.kitty = self.kitty_at_start
        for seq, card in enumerate(self.dealt):
            if not self.returned[seq]:
                self.pack.bottom.append(card)
        self.pack.shuffle()
        net = {name: Fraction(0) for name in self.balances}
        return self.entry(net, counted=False, shuffle=True, next_banker=self.banker)

    def entry(
        self, net: dict[str, Fraction], counted: bool, shuffle: bool, next_banker: str
    ) -> dict[str, Any]:
        hands = []
        for seat in self.seats:
            for number, hand in enumerate(seat.hands, start=1):
                item: dict[str, Any] = {
                    "player": seat.player,
                    "hand": number,
                    "cards": list(hand.cards),
                    "stake": money(hand.stake),
                }
                if self.rules["shoot_bets"]:
                    item["shoot"] = money(hand.shoot)
                item["total"] = best_total(hand.cards)
                item["net"] = money(hand.net)
                hands.append(item)
        entry: dict[str, Any] = {
            "number": self.number,
            "counted": counted,
            "void": not counted,
            "banker": self.banker,
            "bank": {"cards": list(self.bank), "total": best_total(self.bank)},
            "hands": hands,
            "net": {name: money(amount) for name, amount in net.items()},
            "shuffle": shuffle,
            "next_banker": next_banker,
        }
        if self.rules["shoot_bets"]:
            assert self.kitty is not None
            entry["kitty"] = money(self.kitty)
        return entry


def replay(scenario: object) -> dict[str, Any]:
    """The SCENARIO.md result of a scenario (already parsed), or ``Refused``."""
    if not isinstance(scenario, dict):
        raise Refused("a scenario must be a JSON object")
    return Game(scenario).run()


def replay_file(path: Path) -> dict[str, Any]:
    try:
        scenario = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise Refused(f"{path.name} is not valid JSON: {error}") from None
    return replay(scenario)
