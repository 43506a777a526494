"""The game's data: phases and steps, the deal in progress, the whole state.

The state is a mutable object with ``__slots__`` updated in place: the
benchmark plays hundreds of thousands of hands a second and a deepcopy per
action would cost more than the rules themselves.  Everything here is data and
its JSON form; what the rules make of it lives in the modules above
(``legality``, ``pending``, ``flow``, ``play``, ``settle``), and
``game.GameState`` adds the views the table reads.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any, Self

from .actions import Amount, LegalAction, Need
from .hands import Hand
from .money import units
from .pack import Pack
from .ruleset import Ruleset, decision_words, ruleset_from_dict, ruleset_to_dict

#: the house dealer's name in balances and results (``casino``, ``ponton``)
HOUSE = "house"


class Phase(StrEnum):
    """Where the game is (``GameState.phase``; a plain string in JSON)."""

    CUT = "cut"  # the cut for the first banker
    BETWEEN = "between"  # between deals: start one, sell the bank, a kitty
    DEAL = "deal"  # a deal in progress
    OVER = "over"  # the counted deals are played


class Step(StrEnum):
    """Where a deal is (``Deal.step``; a plain string in JSON)."""

    FIRST = "first"  # the first card round
    STAKES = "stakes"  # initial stakes
    SHOOTS = "shoots"  # shoot bets before the second card
    SECOND = "second"  # the second card round
    PLAY = "play"  # the players' hands in turn
    BANK = "bank"  # the banker's or dealer's hand
    DONE = "done"  # settled or void


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
        self.step = Step.FIRST
        #: cards due, in order: (seat index or -1 for the bank, hand index, face up)
        self.queue: list[tuple[int, int, bool]] = []
        self.seat_i = 0
        self.hand_i = 0
        self.shoot_i = 0
        self.staked = [False] * len(seats)
        #: each seat's insurance (half units); it belongs to the seat's first hand
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
        deal.step = Step(d["step"])
        deal.hands = [[Hand.from_dict(h) for h in hs] for hs in d["hands"]]
        deal.bank = Hand.from_dict(d["bank"])
        deal.queue = [(int(a), int(b), bool(c)) for a, b, c in d["queue"]]
        return deal


class State:
    """The whole game's data.  Read it through ``pending``, ``legal_actions``
    and the views of ``GameState``; change it only with ``apply``."""

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
        self.phase = Phase.BETWEEN
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
        self._words = decision_words(rules)

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

    # -- money and standings ------------------------------------------------------
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
        return self.entries + (1 if self.phase is Phase.DEAL else 0)

    @property
    def game_over(self) -> bool:
        return self.phase is Phase.OVER

    def standings(self) -> list[tuple[str, Amount]]:
        """People by balance, best first (seating order among equals)."""
        order = {p: i for i, p in enumerate(self.players)}
        people = [p for p in self.balances if p != HOUSE]
        people.sort(key=lambda p: (-self.balances[p], order[p]))
        return [(p, units(self.balances[p])) for p in people]

    def winners(self) -> list[str]:
        people = list(self.players)
        if not people:
            return []
        best = max(self.balances[p] for p in people)
        return [p for p in people if self.balances[p] == best]

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
    def from_dict(cls, d: dict[str, Any]) -> Self:
        """A state of this class from ``to_dict``'s output."""
        s = cls.__new__(cls)
        s.rules = ruleset_from_dict(d["rules"])
        s.players = list(d["players"])
        s.seed = int(d["seed"])
        s.pack = Pack.from_dict(d["pack"])
        s.phase = Phase(d["phase"])
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
        s._words = decision_words(s.rules)
        return s

    @classmethod
    def from_json(cls, text: str) -> Self:
        return cls.from_dict(json.loads(text))

    def copy(self) -> Self:
        """An independent copy, of the same class."""
        return type(self).from_dict(json.loads(self.to_json()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]
