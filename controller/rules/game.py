"""The game: state, what it waits for, what is legal, and what follows.

Money is kept in integer half units (``2`` = one unit) so 3:2 payouts and
half-stake insurance stay exact without ``Fraction`` arithmetic on the hot path.
The state is a mutable object with ``__slots__`` updated in place: the
benchmark plays hundreds of thousands of hands a second and a deepcopy per
action would cost more than the rules themselves.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .actions import (
    Action,
    Amount,
    BankDecide,
    BankNeed,
    BetweenDeals,
    CardNeed,
    DealCard,
    Decide,
    DecisionNeed,
    GameOver,
    IllegalAction,
    KittyNeed,
    LegalAction,
    Need,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    SellBank,
    ShootNeed,
    StackTop,
    StakeNeed,
    StartDeal,
    VoidDeal,
    make_family,
)
from .cards import CARDS, NAMES, VALUES, Card, CardSet
from .pack import Pack, PackError
from .ruleset import Ruleset, ruleset_from_dict, ruleset_to_dict

WORDS = ("stick", "twist", "buy", "double", "split", "shoot", "insurance", "even-money")
HOUSE = "house"


def _half(amount: Amount | None, what: str, player: str | None = None, whole: bool = True) -> int:
    """An amount in half units; refuses non-numbers and (when ``whole``) halves."""
    if amount is None or isinstance(amount, bool) or not isinstance(amount, int | Fraction):
        raise IllegalAction(f"must give a number for the {what}", player=player)
    h = amount * 2
    if isinstance(h, Fraction):
        if h.denominator != 1:
            raise IllegalAction(f"cannot use {amount} for the {what}", player=player)
        h = int(h)
    if whole and h % 2:
        raise IllegalAction(f"the {what} must be whole units", player=player)
    return h


def units(h: int) -> int | Fraction:
    """Half units back to table units (``int`` when whole)."""
    if 0 <= h < _UNITS_KNOWN:
        return _UNITS[h]
    return h // 2 if h % 2 == 0 else Fraction(h, 2)


#: ``units`` of the usual amounts, made once (``Fraction()`` is slow to build)
_UNITS_KNOWN = 4096
_UNITS: tuple[int | Fraction, ...] = tuple(
    h // 2 if h % 2 == 0 else Fraction(h, 2) for h in range(_UNITS_KNOWN)
)


def _say(h: int) -> str:
    """Half units as a dealer reads them in a message: ``2.5``, never ``5/2``."""
    return str(h // 2) if h % 2 == 0 else f"{'-' if h < 0 else ''}{abs(h) // 2}.5"


def _out(h: int) -> int | float:
    """Half units for JSON output: ``7.5`` is exact in binary floating point."""
    return h // 2 if h % 2 == 0 else h / 2


# ---------------------------------------------------------------------------- hands
class Hand:
    """One hand: its cards (codes), which are face up, its stake and its story."""

    __slots__ = (
        "ace",
        "bust",
        "cards",
        "declared",
        "done",
        "doubled",
        "hard",
        "last_buy",
        "must_draw",
        "net",
        "original",
        "paid",
        "seqs",
        "shoot",
        "shoot4",
        "shoot_start",
        "split_ace",
        "split_new",
        "stake",
        "twisted",
        "up",
        "words",
    )

    def __init__(self, stake: int = 0) -> None:
        self.cards: list[int] = []
        self.up: list[bool] = []
        self.seqs: list[int] = []
        self.hard = 0
        self.ace = False
        self.stake = stake
        self.original = stake
        self.last_buy = 0
        self.twisted = False
        self.doubled = False
        self.split_new = False
        self.split_ace = False
        self.shoot = 0
        self.shoot4 = False
        self.shoot_start = False
        self.must_draw = False
        self.words = 0
        self.done = False
        self.bust = False
        self.paid = False
        self.declared = False
        self.net = 0

    def add(self, card: int, up: bool, seq: int) -> None:
        self.cards.append(card)
        self.up.append(up)
        self.seqs.append(seq)
        self.hard += VALUES[card]
        if card < 4:
            self.ace = True

    def recount(self) -> None:
        self.hard = sum(VALUES[c] for c in self.cards)
        self.ace = any(c < 4 for c in self.cards)

    @property
    def total(self) -> int:
        hard = self.hard
        return hard + 10 if self.ace and hard <= 11 else hard

    @property
    def soft(self) -> bool:
        return self.ace and self.hard <= 11

    @property
    def pontoon(self) -> bool:
        c = self.cards
        if len(c) != 2:
            return False
        a, b = c[0] >> 2, c[1] >> 2
        return (a == 0 and b >= 9) or (b == 0 and a >= 9)

    @property
    def five(self) -> bool:
        return len(self.cards) == 5 and self.hard <= 21

    def show(self) -> None:
        self.up = [True] * len(self.cards)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {k: getattr(self, k) for k in self.__slots__}
        d["cards"] = [NAMES[c] for c in self.cards]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Hand:
        h = cls()
        for k in cls.__slots__:
            setattr(h, k, d[k])
        h.cards = [int(Card.parse(c)) for c in d["cards"]]
        h.up = list(d["up"])
        h.seqs = list(d["seqs"])
        return h


class Deal:
    """One deal in progress (or the last one, finished)."""

    __slots__ = (
        "bank",
        "bank_pontoon",
        "bank_started",
        "banker",
        "dealt",
        "hand_i",
        "hands",
        "insurance",
        "number",
        "queue",
        "returned",
        "sale",
        "seat_i",
        "seats",
        "shoot_i",
        "split_aces",
        "staked",
        "start_kitty",
        "step",
    )

    def __init__(self, number: int, banker: str, seats: list[str], kitty: int) -> None:
        self.number = number
        self.banker = banker
        self.seats = seats
        self.hands: list[list[Hand]] = [[Hand()] for _ in seats]
        self.bank = Hand()
        self.step = "first"
        #: cards due, in order: (seat index or -1 for the bank, hand index, face up)
        self.queue: list[tuple[int, int, bool]] = []
        self.seat_i = 0
        self.hand_i = 0
        self.shoot_i = 0
        self.staked = [False] * len(seats)
        self.insurance = [0] * len(seats)
        self.split_aces = [False] * len(seats)
        self.dealt: list[int] = []
        self.returned: list[int] = []
        self.start_kitty = kitty
        self.bank_pontoon = False
        self.bank_started = False
        self.sale: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {k: getattr(self, k) for k in self.__slots__}
        d["hands"] = [[h.to_dict() for h in hs] for hs in self.hands]
        d["bank"] = self.bank.to_dict()
        d["queue"] = [list(q) for q in self.queue]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Deal:
        deal = cls.__new__(cls)
        for k in cls.__slots__:
            setattr(deal, k, d[k])
        deal.hands = [[Hand.from_dict(h) for h in hs] for hs in d["hands"]]
        deal.bank = Hand.from_dict(d["bank"])
        deal.queue = [(int(a), int(b), bool(c)) for a, b, c in d["queue"]]
        return deal


# ---------------------------------------------------------------------------- views
@dataclass(frozen=True, slots=True)
class CardView:
    card: Card
    face_up: bool


@dataclass(frozen=True, slots=True)
class HandView:
    """What the display shows of one hand; redact ``cards`` where not ``face_up``."""

    player: str
    hand: int
    cards: tuple[CardView, ...]
    total: int
    soft: bool
    stake: Amount
    shoot: Amount
    net: Amount
    done: bool
    bust: bool
    pontoon: bool
    five_card_trick: bool
    in_turn: bool


# ---------------------------------------------------------------------------- state
class GameState:
    """The whole game.  Read it through ``pending``, ``legal_actions`` and the
    view methods; change it only with ``apply``."""

    __slots__ = (
        "_legal",
        "_need",
        "_ranges",
        "_words",
        "balances",
        "banker",
        "counted",
        "cut",
        "deal",
        "entries",
        "keep_results",
        "kitty",
        "kitty_needed",
        "pack",
        "phase",
        "players",
        "results",
        "rules",
        "sale",
        "seed",
    )

    def __init__(self, rules: Ruleset, players: list[str], seed: int) -> None:
        self.rules = rules
        self.players = list(players)
        self.seed = seed
        self.pack = Pack(rules.packs_for(len(players) + (1 if rules.house_dealer else 0)), seed)
        self.phase = "between"
        self.banker: str | None = HOUSE if rules.house_dealer else None
        self.balances: dict[str, int] = {p: 0 for p in players}
        if rules.house_dealer:
            self.balances[HOUSE] = 0
        self.kitty = 0
        self.kitty_needed = rules.shoot_bets
        self.deal: Deal | None = None
        self.entries = 0
        self.counted = 0
        self.results: list[dict[str, Any]] = []
        self.keep_results = True
        self.sale: dict[str, Any] | None = None
        self.cut: dict[str, Any] | None = None
        self._clear()
        self._words = _rule_words(rules)

    def _clear(self) -> None:
        """Forget what was worked out for the previous version of the state.

        ``pending`` and ``legal_actions`` are asked several times per action
        (the table, the panels, the display); the answers are kept until the
        next successful ``apply`` so each is worked out once.
        """
        #: the need, the families of legal actions, and for a decision the
        #: legal words with their amount ranges (half units, None: no amount)
        self._need: Need | None = None
        self._legal: tuple[LegalAction, ...] | None = None
        self._ranges: dict[str, tuple[int, int] | None] | None = None

    # -- convenience views ---------------------------------------------------------
    @property
    def need(self) -> Need:
        return pending(self)

    def balance(self, person: str) -> Amount:
        return units(self.balances[person])

    def balances_units(self) -> dict[str, Amount]:
        return {p: units(h) for p, h in self.balances.items()}

    @property
    def kitty_units(self) -> Amount:
        return units(self.kitty)

    @property
    def deal_number(self) -> int:
        """Entries so far, the deal in progress included."""
        return self.entries + (1 if self.phase == "deal" else 0)

    @property
    def game_over(self) -> bool:
        return self.phase == "over"

    def standings(self) -> list[tuple[str, Amount]]:
        """People by balance, best first (seating order among equals)."""
        order = {p: i for i, p in enumerate(self.players)}
        people = [p for p in self.balances if p != HOUSE]
        people.sort(key=lambda p: (-self.balances[p], order[p]))
        return [(p, units(self.balances[p])) for p in people]

    def winners(self) -> list[str]:
        people = [p for p in self.players]
        if not people:
            return []
        best = max(self.balances[p] for p in people)
        return [p for p in people if self.balances[p] == best]

    def turn(self) -> tuple[str, int] | None:
        """Whose hand is being played (player, hand number), or None."""
        need = pending(self)
        if isinstance(need, DecisionNeed):
            return need.player, need.hand
        if isinstance(need, BankNeed):
            return need.banker, 0
        return None

    def hand_views(self) -> list[HandView]:
        d = self.deal
        if d is None:
            return []
        turn = self.turn()
        out = []
        for si, hands in enumerate(d.hands):
            for hi, h in enumerate(hands):
                out.append(
                    HandView(
                        player=d.seats[si],
                        hand=hi + 1,
                        cards=tuple(
                            CardView(CARDS[c], u) for c, u in zip(h.cards, h.up, strict=True)
                        ),
                        total=h.total,
                        soft=h.soft,
                        stake=units(h.stake),
                        shoot=units(h.shoot),
                        net=units(h.net),
                        done=h.done,
                        bust=h.bust,
                        pontoon=h.pontoon,
                        five_card_trick=h.five,
                        in_turn=turn == (d.seats[si], hi + 1),
                    )
                )
        return out

    def bank_view(self) -> HandView | None:
        d = self.deal
        if d is None:
            return None
        b = d.bank
        return HandView(
            player=d.banker,
            hand=0,
            cards=tuple(CardView(CARDS[c], u) for c, u in zip(b.cards, b.up, strict=True)),
            total=b.total,
            soft=b.soft,
            stake=0,
            shoot=0,
            net=0,
            done=b.done,
            bust=b.bust,
            pontoon=b.pontoon,
            five_card_trick=b.five,
            in_turn=isinstance(pending(self), BankNeed),
        )

    def last_result(self) -> dict[str, Any] | None:
        return self.results[-1] if self.results else None

    def next_banker(self) -> str | None:
        return self.banker

    # -- copies and JSON -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": ruleset_to_dict(self.rules),
            "players": self.players,
            "seed": self.seed,
            "pack": self.pack.to_dict(),
            "phase": self.phase,
            "banker": self.banker,
            "balances": self.balances,
            "kitty": self.kitty,
            "kitty_needed": self.kitty_needed,
            "deal": self.deal.to_dict() if self.deal else None,
            "entries": self.entries,
            "counted": self.counted,
            "results": self.results,
            "keep_results": self.keep_results,
            "sale": self.sale,
            "cut": self.cut,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        s = cls.__new__(cls)
        s.rules = ruleset_from_dict(d["rules"])
        s.players = list(d["players"])
        s.seed = int(d["seed"])
        s.pack = Pack.from_dict(d["pack"])
        s.phase = d["phase"]
        s.banker = d["banker"]
        s.balances = dict(d["balances"])
        s.kitty = d["kitty"]
        s.kitty_needed = d["kitty_needed"]
        s.deal = Deal.from_dict(d["deal"]) if d["deal"] else None
        s.entries = d["entries"]
        s.counted = d["counted"]
        s.results = list(d["results"])
        s.keep_results = d["keep_results"]
        s.sale = d["sale"]
        s.cut = d["cut"]
        s._clear()
        s._words = _rule_words(s.rules)
        return s

    @classmethod
    def from_json(cls, text: str) -> GameState:
        return cls.from_dict(json.loads(text))

    def copy(self) -> GameState:
        return GameState.from_dict(json.loads(self.to_json()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


def new_game(
    ruleset: Ruleset,
    players: list[str],
    *,
    banker: str | None = None,
    seed: int = 0,
) -> GameState:
    """A fresh game; with no ``banker`` (player-banked rules) it starts with the cut."""
    check_players(ruleset, players)
    s = GameState(ruleset, players, seed)
    s.pack.shuffle()
    if ruleset.house_dealer:
        if banker not in (None, HOUSE):
            raise IllegalAction(f"the {ruleset.preset} dealer is the house, not {banker}")
    elif banker is None:
        s.phase = "cut"
        s.cut = {"contenders": list(players), "cards": [], "out": []}
    else:
        if banker not in players:
            raise IllegalAction(f"the banker {banker} is not at the table")
        s.banker = banker
    return s


def check_players(ruleset: Ruleset, players: list[str]) -> None:
    """Refuse a table these rules cannot seat, with one sentence (``IllegalAction``)."""
    if len(players) < 1 or len(set(players)) != len(players):
        raise IllegalAction("players must be distinct names, at least one")
    if any(not isinstance(p, str) or not p or p == HOUSE for p in players):
        raise IllegalAction(f"player names must be non-empty and not {HOUSE!r}")
    if not ruleset.house_dealer and len(players) < 2:
        raise IllegalAction("a player-banked game needs at least two people")
    limit = ruleset.max_people
    if limit is not None and len(players) > limit:
        who = "people, the banker included" if not ruleset.house_dealer else "players"
        raise IllegalAction(
            f"the {ruleset.preset} rules seat at most {limit} {who}, not {len(players)}"
        )


# ---------------------------------------------------------------------------- pending
def pending(state: GameState) -> Need:
    """What the table waits for now."""
    need = state._need
    if need is None:
        need = state._need = _compute_need(state)
    return need


def _seat_of(d: Deal, si: int) -> str:
    return d.banker if si < 0 else d.seats[si]


#: Needs and families are immutable values that recur all game long (the same
#: seat, hand and word again and again); building a frozen dataclass costs
#: more than a dictionary look-up, so they are made once and shared.
_MADE: dict[tuple[Any, ...], Any] = {}
_MADE_MOST = 20_000


def _keep(key: tuple[Any, ...], value: Any) -> Any:
    if len(_MADE) >= _MADE_MOST:  # names come and go on a long-running table
        _MADE.clear()
    _MADE[key] = value
    return value


def _card_need(recipient: str, hand: int, up: bool, to_bank: bool, purpose: str) -> CardNeed:
    key = (CardNeed, recipient, hand, up, to_bank, purpose)
    need: CardNeed | None = _MADE.get(key)
    if need is None:
        need = _keep(key, CardNeed(recipient, hand, up, to_bank, purpose))
    return need


def _compute_need(s: GameState) -> Need:
    phase = s.phase
    if phase == "deal":
        d = s.deal
        assert d is not None
        if d.queue:
            si, hi, up = d.queue[0]
            if si < 0:
                return _card_need(d.banker, 0, up, True, "deal")
            return _card_need(d.seats[si], hi + 1, up, False, "deal")
        step = d.step
        if step == "play":
            words = tuple(_decision_ranges(s))
            key: tuple[Any, ...] = (DecisionNeed, d.seats[d.seat_i], d.hand_i + 1, words)
            need: Need | None = _MADE.get(key)
            if need is None:
                need = _keep(key, DecisionNeed(key[1], key[2], words))
            return need
        r = s.rules
        if step == "stakes":
            waiting = tuple(p for p, done in zip(d.seats, d.staked, strict=False) if not done)
            key = (StakeNeed, waiting, r.min_stake, r.max_stake)
            need = _MADE.get(key)
            if need is None:
                need = _keep(key, StakeNeed(waiting[0], r.min_stake, r.max_stake, waiting))
            return need
        if step == "shoots":
            return ShootNeed(d.seats[d.shoot_i], units(_shoot_room(s, d)))
        if step == "bank":
            words = ("draw", "stay") if len(d.bank.cards) < 5 else ("stay",)
            key = (BankNeed, d.banker, words)
            need = _MADE.get(key)
            if need is None:
                need = _keep(key, BankNeed(d.banker, words))
            return need
        raise AssertionError(f"no need in step {d.step}")  # pragma: no cover
    r = s.rules
    if phase == "over":
        return GameOver(tuple(s.winners()))
    if phase == "cut":
        assert s.cut is not None
        who = s.cut["contenders"][len(s.cut["cards"])]
        return _card_need(who, 0, True, False, "cut")
    assert phase == "between" and s.banker is not None
    can_sell = r.bank_sale and len(s.players) > 1
    if s.kitty_needed:
        return KittyNeed(s.banker, r.min_stake, r.max_stake, can_sell)
    return BetweenDeals(s.banker, s.entries + 1, can_sell, r.shoot_bets)


def _decision_ranges(s: GameState) -> dict[str, tuple[int, int] | None]:
    """The legal words of the hand in play with their amount ranges (half
    units; None: the word takes no amount), worked out once per state version
    and shared by ``pending``, ``legal_actions`` and ``apply``."""
    ranges = s._ranges
    if ranges is None:
        d = s.deal
        assert d is not None
        h = d.hands[d.seat_i][d.hand_i]
        ranges = {}
        for w in s._words:
            rng = _word_range(s, d, h, w)
            if type(rng) is not str:
                ranges[w] = rng  # type: ignore[assignment]
        s._ranges = ranges
    return ranges


# ---------------------------------------------------------------------------- legality
_RULE_WORDS: dict[tuple[str, bool, bool, bool], tuple[str, ...]] = {}


def _rule_words(r: Ruleset) -> tuple[str, ...]:
    """The words this ruleset can ever allow, so ``pending`` skips the others."""
    key = (r.buy, r.shoot_bets, r.insurance, r.even_money)
    words = _RULE_WORDS.get(key)
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
        words = _RULE_WORDS[key] = tuple(w for w in WORDS if w not in off)
    return words


def _shoot_room(s: GameState, d: Deal) -> int:
    open_bets = 0
    for hs in d.hands:
        for h in hs:
            if not h.bust:
                open_bets += h.shoot
    return s.kitty - open_bets


def _dealer_shows_ace(d: Deal) -> bool:
    b = d.bank
    return bool(b.cards) and b.up[0] and b.cards[0] < 4


def _even_money_offered(s: GameState, d: Deal) -> bool:
    """Whether the hand in play, a pontoon, may still take even money.

    Even money is offered instead of insurance (RULES.md §6): the seat's first
    hand, which carries the seat's insurance, cannot take it once insured.
    """
    return (
        s.rules.even_money
        and _dealer_shows_ace(d)
        and not (d.hand_i == 0 and d.insurance[d.seat_i])
    )


def _can_insure(s: GameState, d: Deal, h: Hand) -> bool:
    si = d.seat_i
    return (
        d.hand_i == 0
        and len(d.hands[si]) == 1
        and h.words == 0
        and len(h.cards) == 2
        and d.insurance[si] == 0
    )


def _word_range(s: GameState, d: Deal, h: Hand, word: str) -> tuple[int, int] | str | None:
    """The amount range (half units) for ``word`` on hand ``h``, None when the
    word takes no amount, or the reason it is refused."""
    r = s.rules
    n = len(h.cards)
    t = h.total
    if word == "stick":
        if h.must_draw:
            return "must take the fourth card after a shoot bet"
        if t < r.stick_minimum and not h.pontoon:
            return f"cannot stick under {r.stick_minimum} (the hand makes {t})"
        return None
    if word in ("twist", "buy", "double"):
        if t >= 21 and word != "twist":
            return f"cannot {word} at 21"
        if t >= 21:
            return "cannot twist at 21"
        if n >= 5:
            return f"cannot {word} a sixth card"
        if h.pontoon:
            return f"cannot {word} on a pontoon"
        if word == "twist":
            return None
        if word == "buy":
            if r.buy == "double":
                return "cannot buy at this table (the word is double)"
            if r.buy == "none":
                return "cannot buy at this table (only twist)"
            if h.twisted and not r.twist_then_buy:
                return "cannot buy after twisting"
            if n > r.buy_max_cards:
                return f"cannot buy card {n + 1}, only twist"
            if r.buy == "equal":
                return (h.original, h.original)
            return (h.original, h.last_buy if h.last_buy else 2 * h.original)
        if r.buy != "double":
            return "cannot double at this table (the word is buy)"
        if h.doubled:
            return "cannot double twice on one hand"
        if h.twisted and not r.twist_then_buy:
            return "cannot double after twisting"
        if n > r.buy_max_cards:
            return f"cannot double holding {n} cards"
        return (h.original, h.original)
    if word == "split":
        if n != 2:
            return "can split only a hand's first two cards"
        a, b = h.cards[0], h.cards[1]
        if r.split_by == "rank" and a >> 2 != b >> 2:
            return "can split only two cards of the same rank"
        if r.split_by == "value" and VALUES[a] != VALUES[b]:
            return "can split only two cards of the same value"
        aces = a < 4
        if r.split_aces_only and not aces:
            return "can split only aces at this table"
        if aces and r.split_aces_once and d.split_aces[d.seat_i]:
            return "can split aces only once"
        seat_hands = len(d.hands[d.seat_i])
        limit = r.max_hands_per_seat
        if limit is not None and seat_hands >= limit:
            return f"cannot split into more than {limit} hands"
        return None
    if word == "shoot":
        if not r.shoot_bets:
            return "cannot shoot: no shoot bets at this table"
        first_on_split = h.split_new and h.words == 0 and not h.shoot_start
        if not ((n == 3 and not h.shoot4 and t < 21) or first_on_split):
            return "can shoot only before a fourth card, or first on a new split hand"
        room = _shoot_room(s, d)
        if room < 2:
            return "cannot shoot: the kitty has no room left"
        return (2, room)
    if word == "insurance":
        if not r.insurance:
            return "cannot insure: no insurance at this table"
        if not _dealer_shows_ace(d):
            return "can insure only when the dealer's card is an ace"
        if not _can_insure(s, d, h):
            return "can insure only once, before taking any card"
        if h.pontoon and r.even_money:
            return "cannot insure a pontoon: it may take even money instead"
        half = h.original // 2
        return (half, half)
    if word == "even-money":
        if not r.even_money:
            return "cannot take even money at this table"
        if not h.pontoon:
            return "can take even money only with a pontoon"
        if not _dealer_shows_ace(d):
            return "can take even money only when the dealer's card is an ace"
        if d.hand_i == 0 and d.insurance[d.seat_i]:
            return "cannot take even money on an insured hand"
        return None
    return f"cannot {word!r}: the decisions are {', '.join(WORDS)}"


def legal_actions(state: GameState) -> list[LegalAction]:
    """Exactly the actions ``apply`` accepts now, with amount ranges."""
    legal = state._legal
    if legal is None:
        legal = state._legal = _compute_legal(state)
    return list(legal)


_VOID = LegalAction(VoidDeal)
_STACK = LegalAction(StackTop)
_START = LegalAction(StartDeal)
_DEAL_FAMILIES: dict[int, LegalAction] = {}


def _family(
    kind: type[Any],
    player: str | None = None,
    word: str | None = None,
    minimum: Amount | None = None,
    maximum: Amount | None = None,
    halves: bool = False,
) -> LegalAction:
    key = (LegalAction, kind, player, word, minimum, maximum, halves)
    la: LegalAction | None = _MADE.get(key)
    if la is None:
        la = _keep(key, make_family(kind, player, word, minimum, maximum, halves))
    return la


def _deal_family(mask: int) -> LegalAction:
    """Deal any card still in the pack; one family per set of cards present
    (with six decks that set hardly ever changes)."""
    la = _DEAL_FAMILIES.get(mask)
    if la is None:
        if len(_DEAL_FAMILIES) >= 256:
            _DEAL_FAMILIES.clear()
        la = _DEAL_FAMILIES[mask] = make_family(DealCard, cards=CardSet(mask))
    return la


def _compute_legal(s: GameState) -> tuple[LegalAction, ...]:
    r = s.rules
    d = s.deal
    if d is not None and d.queue and s.phase == "deal":  # a card is due: the usual case
        la = _DEAL_FAMILIES.get(s.pack._mask) or _deal_family(s.pack._mask)
        return (la, _VOID)
    need = pending(s)
    t = type(need)
    out: list[LegalAction]
    if t is CardNeed:
        out = [_deal_family(s.pack._mask)]
    elif t is DecisionNeed:
        player = need.player  # type: ignore[union-attr]
        ranges = _decision_ranges(s)
        key: tuple[Any, ...] = (Decide, player, *ranges.items())
        legal: tuple[LegalAction, ...] | None = _MADE.get(key)
        if legal is None:
            out = []
            for w, rng in ranges.items():
                if rng is None:
                    out.append(_family(Decide, player, w))
                else:
                    halves = w == "insurance"
                    out.append(_family(Decide, player, w, units(rng[0]), units(rng[1]), halves))
            legal = _keep(key, (*out, _VOID))
        return legal
    elif t is StakeNeed:
        lo, hi = r.min_stake, r.max_stake
        key = (PlaceStake, need.waiting, lo, hi)  # type: ignore[union-attr]
        legal = _MADE.get(key)
        if legal is None:
            out = [_family(PlaceStake, p, None, lo, hi) for p in need.waiting]  # type: ignore[union-attr]
            legal = _keep(key, (*out, _VOID))
        return legal
    elif t is ShootNeed:
        out = [_family(PlaceShoot, need.player, None, 0, need.maximum)]  # type: ignore[union-attr]
    elif t is BankNeed:
        out = [_family(BankDecide, None, w) for w in need.words]  # type: ignore[union-attr]
    else:
        out = []
        if isinstance(need, KittyNeed | BetweenDeals):
            if isinstance(need, KittyNeed):
                out.append(LegalAction(PutKitty, minimum=need.minimum, maximum=need.maximum))
            else:
                out.append(_START)
                out.append(_STACK)
                if need.can_add_kitty:
                    out.append(LegalAction(PutKitty, minimum=1, maximum=None))
            if need.can_sell:
                others = tuple(p for p in s.players if p != s.banker)
                out.append(LegalAction(SellBank, minimum=0, maximum=None, names=others))
    if s.phase == "deal":
        out.append(_VOID)
    elif s.phase == "cut":
        out.append(_STACK)
    return tuple(out)


# ---------------------------------------------------------------------------- apply
def apply(state: GameState, action: Action) -> GameState:
    """Apply ``action`` in place and return the state; ``IllegalAction`` changes nothing."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"{action!r} is not an action")
    handler(state, action)
    state._need = None
    state._legal = None
    state._ranges = None
    return state


def _not_now(s: GameState, what: str, player: str | None = None) -> IllegalAction:
    need = pending(s)
    if isinstance(need, CardNeed):
        waiting = f"a card for {need.recipient}" if need.purpose == "deal" else "a cut card"
    elif isinstance(need, StakeNeed):
        waiting = f"{need.player}'s stake"
    elif isinstance(need, ShootNeed):
        waiting = f"{need.player}'s shoot bet"
    elif isinstance(need, DecisionNeed):
        waiting = f"{need.player}'s decision on hand {need.hand}"
    elif isinstance(need, BankNeed):
        waiting = f"the banker {need.banker}"
    elif isinstance(need, KittyNeed):
        waiting = f"the kitty from {need.banker}"
    elif isinstance(need, BetweenDeals):
        waiting = "the next deal"
    else:
        waiting = "nothing: the game is over"
    return IllegalAction(f"cannot {what} now: the table waits for {waiting}", player=player)


def _start_deal(s: GameState, a: StartDeal) -> None:
    need = pending(s)
    if isinstance(need, KittyNeed):
        raise IllegalAction(f"{need.banker} must put up a kitty before the deal")
    if not isinstance(need, BetweenDeals):
        raise _not_now(s, "start a deal")
    r = s.rules
    banker = s.banker
    assert banker is not None
    if r.house_dealer:
        seats = list(s.players)
    else:
        i = s.players.index(banker)
        seats = s.players[i + 1 :] + s.players[:i]
    d = Deal(s.entries + 1, banker, seats, s.kitty)
    d.sale, s.sale = s.sale, None
    if r.house_dealer:
        d.step = "stakes"
    else:
        _queue_round(s, d, first=True)
    s.deal = d
    s.phase = "deal"
    _advance(s)


def _queue_round(s: GameState, d: Deal, first: bool) -> None:
    d.queue.extend((si, 0, False) for si in range(len(d.seats)))
    if first or s.rules.dealer_initial_cards == 2:
        d.queue.append((-1, 0, s.rules.dealer_initial_cards == 1))


def _stack_top(s: GameState, a: StackTop) -> None:
    if s.phase not in ("between", "cut") or (s.phase == "cut" and s.cut and s.cut["cards"]):
        raise _not_now(s, "stack cards on the pack")
    try:
        s.pack.stack_top(int(Card.parse(c)) for c in a.cards)
    except (PackError, ValueError) as e:
        raise IllegalAction(str(e)) from None


def _deal_card(s: GameState, a: DealCard) -> None:
    d = s.deal
    if s.phase == "deal":
        assert d is not None
        if not d.queue:
            raise _not_now(s, f"deal {a.card}")
    elif s.phase != "cut":
        raise _not_now(s, f"deal {a.card}")
    try:
        given = a.card
        card = int(given if type(given) is Card else Card.parse(given))
        s.pack.take(card)
    except ValueError as e:  # PackError too
        raise IllegalAction(f"cannot deal {a.card}: {e}") from None
    if d is None or s.phase == "cut":
        _cut_card(s, card)
        return
    si, hi, up = d.queue.pop(0)
    h = d.bank if si < 0 else d.hands[si][hi]
    seq = len(d.dealt)
    d.dealt.append(card)
    h.add(card, up, seq)
    if h.hard > 21:
        _bust(s, d, h, si)
    if d.queue and s.pack._cards:
        return  # the next card is due: nothing else can happen (see _advance)
    _advance(s)


def _cut_card(s: GameState, card: int) -> None:
    cut = s.cut
    assert cut is not None
    cut["cards"].append(card)
    cut["out"].append(card)
    contenders: list[str] = cut["contenders"]
    if len(cut["cards"]) < len(contenders):
        return
    ranks = [CARDS[c].cut_rank for c in cut["cards"]]
    best = max(ranks)
    tied = [p for p, rk in zip(contenders, ranks, strict=False) if rk == best]
    if len(tied) == 1:
        s.banker = tied[0]
        s.pack.shuffle(cut["out"])
        s.cut = None
        s.phase = "between"
    else:
        cut["contenders"] = tied
        cut["cards"] = []
        if len(s.pack) == 0:
            s.pack.shuffle(cut["out"])
            cut["out"] = []


def _bust(s: GameState, d: Deal, h: Hand, si: int) -> None:
    h.bust = True
    h.done = True
    h.show()
    if si >= 0:
        h.net = -h.stake
        if h.shoot:
            s.kitty += h.shoot
            h.net -= h.shoot
        d.returned.extend(h.seqs)
        s.pack.to_bottom(h.cards)


def _place_stake(s: GameState, a: PlaceStake) -> None:
    need = pending(s)
    r = s.rules
    if not isinstance(need, StakeNeed):
        raise _not_now(s, "stake", a.player)
    d = s.deal
    assert d is not None
    if a.player not in d.seats:
        if a.player == d.banker:
            raise IllegalAction("is the banker and does not stake", player=a.player)
        raise IllegalAction("is not at the table", player=a.player)
    si = d.seats.index(a.player)
    if d.staked[si]:
        raise IllegalAction("has already staked", player=a.player)
    amount = _half(a.amount, "stake", a.player)
    if not r.min_stake * 2 <= amount <= r.max_stake * 2:
        raise IllegalAction(
            f"cannot stake {_say(amount)}: stakes are {r.min_stake} to {r.max_stake}",
            player=a.player,
        )
    h = d.hands[si][0]
    h.stake = h.original = amount
    d.staked[si] = True
    _advance(s)


def _place_shoot(s: GameState, a: PlaceShoot) -> None:
    need = pending(s)
    if not isinstance(need, ShootNeed) or need.player != a.player:
        raise _not_now(s, "place a shoot bet", a.player)
    d = s.deal
    assert d is not None
    amount = _half(a.amount, "shoot bet", a.player)
    room = _shoot_room(s, d)
    if amount < 0 or amount > room:
        raise IllegalAction(
            f"cannot shoot {_say(amount)}: the kitty allows 0 to {_say(room)}", player=a.player
        )
    d.hands[d.shoot_i][0].shoot = amount
    d.shoot_i += 1
    _advance(s)


def _decide(s: GameState, a: Decide) -> None:
    need = s._need or pending(s)
    word = a.word
    if type(need) is not DecisionNeed or need.player != a.player:
        decision = _decision_text(a)
        err = _not_now(s, decision, a.player)
        raise IllegalAction(err.reason, player=a.player, decision=decision)
    d = s.deal
    assert d is not None
    si, hi = d.seat_i, d.hand_i
    h = d.hands[si][hi]
    ranges = _decision_ranges(s)
    if type(word) is str and word in ranges:
        rng = ranges[word]
    else:
        reason = _word_range(s, d, h, word)
        assert isinstance(reason, str), (word, reason)
        raise IllegalAction(reason, player=a.player, hand=hi + 1, decision=_decision_text(a))
    amount = 0
    given = a.amount
    if rng is None:
        if given is not None:
            raise IllegalAction(
                f"cannot give an amount with {word}", player=a.player, hand=hi + 1,
                decision=_decision_text(a),
            )
    else:
        lo, high = rng
        if given is None:
            if lo != high:
                raise IllegalAction(
                    f"must say how much to {word} ({_say(lo)} to {_say(high)})",
                    player=a.player, hand=hi + 1, decision=_decision_text(a),
                )
            amount = lo
        else:
            if type(given) is int:
                amount = given * 2
            else:
                try:
                    amount = _half(given, word, a.player, whole=word != "insurance")
                except IllegalAction as e:
                    raise IllegalAction(
                        e.reason, player=a.player, hand=hi + 1, decision=_decision_text(a)
                    ) from None
            if not lo <= amount <= high:
                span = f"exactly {_say(lo)}" if lo == high else f"{_say(lo)} to {_say(high)}"
                raise IllegalAction(
                    f"cannot {word} {_say(amount)}: the amount must be {span}",
                    player=a.player, hand=hi + 1, decision=_decision_text(a),
                )
    h.words += 1
    if word == "stick":
        h.done = True
        _three_of_a_kind(s, h)
    elif word == "twist":
        h.twisted = True
        h.must_draw = False
        d.queue.append((si, hi, True))
    elif word == "buy" or word == "double":
        h.stake += amount
        h.last_buy = amount
        if word == "double":
            h.doubled = True
        h.must_draw = False
        d.queue.append((si, hi, False))
    elif word == "split":
        _split(s, d, si, hi, h)
    elif word == "shoot":
        h.shoot += amount
        if len(h.cards) == 3:
            h.shoot4 = True
            h.must_draw = True
        else:
            h.shoot_start = True
    elif word == "insurance":
        d.insurance[si] = amount
    elif word == "even-money":
        h.paid = True
        h.done = True
        h.declared = True
        h.show()
        h.net = h.stake
    _advance(s)


def _decision_text(a: Decide) -> str:
    """The decision as the journal and the error line quote it."""
    return a.word if a.amount is None else f"{a.word} {a.amount}"


def _split(s: GameState, d: Deal, si: int, hi: int, h: Hand) -> None:
    card = h.cards.pop()
    h.up.pop()
    seq = h.seqs.pop()
    h.recount()
    h.up = [True]
    new = Hand(h.original)
    new.add(card, True, seq)
    new.split_new = True
    if card < 4:
        h.split_ace = new.split_ace = True
        d.split_aces[si] = True
    d.hands[si].insert(hi + 1, new)
    d.queue.append((si, hi, False))
    d.queue.append((si, hi + 1, False))


def _three_of_a_kind(s: GameState, h: Hand) -> None:
    pays = s.rules.three_of_a_kind_pays
    c = h.cards
    if pays and len(c) == 3 and c[0] >> 2 == c[1] >> 2 == c[2] >> 2 and h.hard <= 21:
        h.paid = True
        h.show()
        h.net = int(h.stake * pays)


def _bank_decide(s: GameState, a: BankDecide) -> None:
    need = pending(s)
    if not isinstance(need, BankNeed):
        raise _not_now(s, a.word, s.banker)
    d = s.deal
    assert d is not None
    if a.word not in need.words:
        if a.word == "draw":
            raise IllegalAction(
                "cannot draw: the bank has five cards", player=d.banker, decision=a.word
            )
        raise IllegalAction(
            f"cannot {a.word!r}: the banker says draw or stay", player=d.banker, decision=a.word
        )
    if a.word == "draw":
        d.queue.append((-1, 0, True))
    else:
        d.bank.done = True
    _advance(s)


def _put_kitty(s: GameState, a: PutKitty) -> None:
    need = pending(s)
    r = s.rules
    if not r.shoot_bets:
        raise IllegalAction("there is no kitty at this table")
    if not isinstance(need, KittyNeed | BetweenDeals):
        raise _not_now(s, "put up a kitty", s.banker)
    amount = _half(a.amount, "kitty", s.banker)
    if isinstance(need, KittyNeed):
        if not r.min_stake * 2 <= amount <= r.max_stake * 2:
            raise IllegalAction(
                f"cannot put up {_say(amount)}: a kitty is {r.min_stake} to {r.max_stake}",
                player=s.banker,
            )
        s.kitty_needed = False
    elif amount < 2:
        raise IllegalAction("must add at least 1 to the kitty", player=s.banker)
    s.kitty += amount


def _sell_bank(s: GameState, a: SellBank) -> None:
    need = pending(s)
    r = s.rules
    if not r.bank_sale:
        raise IllegalAction("the bank cannot be sold at this table")
    if not isinstance(need, KittyNeed | BetweenDeals):
        raise _not_now(s, "sell the bank", s.banker)
    seller = s.banker
    assert seller is not None
    if a.to not in s.players:
        raise IllegalAction(f"cannot sell the bank to {a.to}: not at the table", player=seller)
    if a.to == seller:
        raise IllegalAction("cannot sell the bank to themselves", player=seller)
    price = _half(a.price, "price", seller)
    if price < 0:
        raise IllegalAction("cannot sell the bank for a negative price", player=seller)
    s.balances[a.to] -= price
    s.balances[seller] += price
    s.banker = a.to
    if r.shoot_bets:
        # the old banker leaves with the kitty; the buyer puts up a new one
        s.kitty = 0
        s.kitty_needed = True
    s.sale = {"from": seller, "to": a.to, "price": _out(price)}


def _void_deal(s: GameState, a: VoidDeal) -> None:
    if s.phase != "deal":
        raise _not_now(s, "void a deal")
    _void(s)


_HANDLERS: dict[type[Any], Any] = {
    StartDeal: _start_deal,
    StackTop: _stack_top,
    DealCard: _deal_card,
    PlaceStake: _place_stake,
    PlaceShoot: _place_shoot,
    Decide: _decide,
    BankDecide: _bank_decide,
    PutKitty: _put_kitty,
    SellBank: _sell_bank,
    VoidDeal: _void_deal,
}


# ---------------------------------------------------------------------------- flow
def _advance(s: GameState) -> None:
    """Run every step that needs no outside input, up to the next need."""
    d = s.deal
    assert d is not None
    r = s.rules
    while True:
        if d.queue:
            if len(s.pack) == 0:
                _void(s)
            return
        step = d.step
        if step == "play":
            if d.seat_i >= len(d.seats):
                d.step = "bank"
                continue
            hands = d.hands[d.seat_i]
            if d.hand_i >= len(hands):
                d.seat_i += 1
                d.hand_i = 0
                continue
            h = hands[d.hand_i]
            if h.done or _auto_stop(s, d, h):
                d.hand_i += 1
                continue
            return
        if step == "first":
            if r.house_dealer:
                d.step = "second"
                _queue_round(s, d, first=False)
            else:
                d.step = "stakes"
            continue
        if step == "stakes":
            if not all(d.staked):
                return
            if r.house_dealer:
                d.step = "first"
                _queue_round(s, d, first=True)
            elif r.shoot_bets:
                d.step = "shoots"
            else:
                d.step = "second"
                _queue_round(s, d, first=False)
            continue
        if step == "shoots":
            if d.shoot_i < len(d.seats):
                return
            d.step = "second"
            _queue_round(s, d, first=False)
            continue
        if step == "second":
            d.step = "play"
            if not r.house_dealer and d.bank.pontoon:
                d.bank_pontoon = True
                d.bank.show()
                _settle(s)
                return
            continue
        if step == "bank":
            b = d.bank
            if not d.bank_started:
                d.bank_started = True
                live = any(not (h.bust or h.paid) for hs in d.hands for h in hs)
                if not live:
                    if any(d.insurance) and len(b.cards) < 2:
                        # only an insurance bet is open: the dealer's second card
                        # settles it, and no more (RULES.md §1); the rest of the
                        # shoe belongs to the next deal
                        b.show()
                        b.done = True
                        d.queue.append((-1, 0, True))
                        continue
                    _settle(s)
                    return
                b.show()
            five_stop = r.dealer_stops_at_five or not r.house_dealer
            if b.done or b.bust or (len(b.cards) >= 5 and five_stop):
                b.done = True
                _settle(s)
                return
            if r.house_dealer:
                t = b.total
                if t < 17 or (t == 17 and b.soft and r.dealer_draws == "hit_soft_17"):
                    d.queue.append((-1, 0, True))
                    continue
                b.done = True
                _settle(s)
            return
        return  # "done"


def _auto_stop(s: GameState, d: Deal, h: Hand) -> bool:
    """Stop a hand that ends by itself; True when it did."""
    n = len(h.cards)
    if n >= 5:
        h.done = True
        return True
    if h.split_ace and s.rules.split_aces_one_card and n >= 2:
        if h.pontoon and _even_money_offered(s, d):
            return False  # a split pontoon may take even money too (RULES.md §1, §6)
        h.done = True
        if h.pontoon:
            h.declared = True
            h.show()
        return True
    if h.total == 21:
        if n == 2:
            if _even_money_offered(s, d):
                return False  # the pontoon may take even money, its only word
            h.declared = True
            h.show()
        h.done = True
        _three_of_a_kind(s, h)
        return True
    return False


def _outcome(s: GameState, d: Deal, h: Hand) -> Fraction | int:
    """Net multiple of the stake for a live hand against the finished bank."""
    r = s.rules
    b = d.bank
    pay = r.pay_pontoon if h.pontoon else r.pay_five_card if h.five else 1
    # ``b.pontoon`` rather than ``d.bank_pontoon``: a player banker's pontoon
    # ends the deal at once, but a house dealer's shows only at its turn, and
    # the option means the same for both (every live hand pays twice)
    if b.pontoon and r.bank_pontoon_pays == "double":
        return -2
    if b.bust:
        return pay
    if h.five and r.five_card_always_wins:
        return pay
    if b.five and r.banker_five_card == "pontoons_only":
        return pay if h.pontoon else -2
    pk = 100 if h.pontoon else 50 if h.five else h.total
    bk = 100 if b.pontoon else 50 if b.five else b.total
    if pk > bk:
        return pay
    if pk == bk and r.ties == "push":
        return 0
    return -1


def _settle(s: GameState) -> None:
    d = s.deal
    assert d is not None
    r = s.rules
    d.step = "done"
    bank_pontoon = d.bank.pontoon
    nets: dict[str, int] = {p: 0 for p in d.seats}
    for si, hands in enumerate(d.hands):
        p = d.seats[si]
        for h in hands:
            if not (h.bust or h.paid):
                m = _outcome(s, d, h)
                h.net = int(h.stake * m)
                if h.shoot:
                    if m > 0:
                        h.net += h.shoot
                        s.kitty -= h.shoot
                    else:
                        h.net -= h.shoot
                        s.kitty += h.shoot
            nets[p] += h.net
        ins = d.insurance[si]
        if ins:
            got = 2 * ins if bank_pontoon else -ins
            hands[0].net += got
            nets[p] += got
    total = sum(nets.values())
    nets[d.banker] = -total
    for p, v in nets.items():
        s.balances[p] += v
    any_pontoon = bank_pontoon or any(h.pontoon for hs in d.hands for h in hs)
    shuffle = r.reshuffle == "every_round" or any_pontoon
    next_banker = d.banker
    if r.bank_transfer and not d.bank_pontoon:
        for si, hands in enumerate(d.hands):
            if len(hands) == 1 and hands[0].pontoon:
                next_banker = d.seats[si]
                break
    _record(s, d, nets, shuffle, next_banker, void=False)
    _return_cards(s, d, shuffle)
    s.entries += 1
    s.counted += 1
    if next_banker != d.banker:
        s.banker = next_banker
        if r.shoot_bets:
            s.kitty = 0
            s.kitty_needed = True
    if r.shoot_bets and s.kitty <= 0:
        s.kitty_needed = True
    s.phase = "between"
    if r.counted_deals is not None and s.counted >= r.counted_deals:
        s.phase = "over"


def _return_cards(s: GameState, d: Deal, shuffle: bool) -> None:
    if d.returned:
        gone = set(d.returned)
        rest = [c for i, c in enumerate(d.dealt) if i not in gone]
    else:
        rest = d.dealt
    if shuffle:
        s.pack.shuffle(rest)
    else:
        s.pack.to_bottom(rest)


def _void(s: GameState) -> None:
    d = s.deal
    assert d is not None
    d.step = "done"
    d.queue.clear()
    s.kitty = d.start_kitty
    nets = {p: 0 for p in d.seats}
    nets[d.banker] = 0
    for hs in d.hands:
        for h in hs:
            h.net = 0
    _record(s, d, nets, True, d.banker, void=True)
    _return_cards(s, d, True)
    s.entries += 1
    s.phase = "between"


def _record(
    s: GameState, d: Deal, nets: dict[str, int], shuffle: bool, next_banker: str, void: bool
) -> None:
    if not s.keep_results:
        return
    shoot = s.rules.shoot_bets
    entry: dict[str, Any] = {
        "number": d.number,
        "counted": not void,
        "void": void,
        "banker": d.banker,
    }
    if d.sale:
        entry["sale"] = d.sale
    entry["bank"] = {"cards": [NAMES[c] for c in d.bank.cards], "total": d.bank.total}
    hands = []
    for si, hs in enumerate(d.hands):
        for hi, h in enumerate(hs):
            row: dict[str, Any] = {
                "player": d.seats[si],
                "hand": hi + 1,
                "cards": [NAMES[c] for c in h.cards],
                "stake": _out(h.stake),
            }
            if shoot:
                row["shoot"] = _out(h.shoot)
            row["total"] = h.total
            row["net"] = _out(h.net)
            hands.append(row)
    entry["hands"] = hands
    order = [p for p in s.players if p in nets]
    if HOUSE in nets:
        order.append(HOUSE)
    entry["net"] = {p: _out(nets[p]) for p in order}
    if shoot:
        entry["kitty"] = _out(s.kitty)
    entry["shuffle"] = shuffle
    entry["next_banker"] = next_banker
    s.results.append(entry)
