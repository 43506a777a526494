"""What the table can tell the engine (actions) and what it waits for (needs).

Actions are the journal's vocabulary: small frozen records, JSON-friendly via
``action_to_dict`` / ``action_from_dict``.  Needs are what ``pending`` returns so
the live table, the simulator and ``replay`` all ask the same question.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from .cards import Card

#: money as the table speaks it: whole units, or halves (insurance, 3:2 payouts)
Amount = int | Fraction

#: every word of a player's decision (``Decide.word``), in the order offered
WORDS = ("stick", "twist", "buy", "double", "split", "shoot", "insurance", "even-money")


class IllegalAction(ValueError):
    """An action the rules forbid now; ``str()`` is a sentence a dealer understands.

    ``reason`` is the bare why ("cannot buy after twisting"); ``player``,
    ``hand`` and ``decision`` say who and what, for the one-line error of
    ``replay`` and the seat panel text.
    """

    def __init__(
        self,
        reason: str,
        *,
        player: str | None = None,
        hand: int | None = None,
        decision: str | None = None,
    ) -> None:
        self.reason = reason
        self.player = player
        self.hand = hand
        self.decision = decision
        super().__init__(f"{player} {reason}" if player else reason[:1].upper() + reason[1:])


# ---------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class StartDeal:
    """The dealer starts the next deal."""


@dataclass(frozen=True, slots=True)
class StackTop:
    """Cards arranged on top of the shoe before a deal (scenarios, training)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealCard:
    """This card left the shoe for whoever ``pending`` named."""

    card: Card


@dataclass(frozen=True, slots=True)
class PlaceStake:
    player: str
    amount: Amount


@dataclass(frozen=True, slots=True)
class PlaceShoot:
    """A shoot bet before the second card; ``amount`` 0 means no bet."""

    player: str
    amount: Amount


@dataclass(frozen=True, slots=True)
class Decide:
    """A player's decision on the hand being played.

    ``word`` is one of stick, twist, buy, double, split, shoot, insurance,
    even-money; ``amount`` is given for ``buy N`` (rising buys), ``shoot N`` and
    ``insurance N``.
    """

    player: str
    word: str
    amount: Amount | None = None


@dataclass(frozen=True, slots=True)
class BankDecide:
    """The player-banker's ``draw`` or ``stay``."""

    word: str


@dataclass(frozen=True, slots=True)
class PutKitty:
    """The banker puts up a new kitty or adds to it, between deals."""

    amount: Amount


@dataclass(frozen=True, slots=True)
class SellBank:
    to: str
    price: Amount


@dataclass(frozen=True, slots=True)
class VoidDeal:
    """The deal is void: everything of it undone, cards shuffled, played again."""

    reason: str = "voided by the dealer"


Action = (
    StartDeal
    | StackTop
    | DealCard
    | PlaceStake
    | PlaceShoot
    | Decide
    | BankDecide
    | PutKitty
    | SellBank
    | VoidDeal
)

ACTION_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        StartDeal,
        StackTop,
        DealCard,
        PlaceStake,
        PlaceShoot,
        Decide,
        BankDecide,
        PutKitty,
        SellBank,
        VoidDeal,
    )
}


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def action_to_dict(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(action).__name__}
    for f in fields(action):
        out[f.name] = _jsonable(getattr(action, f.name))
    return out


def action_from_dict(data: dict[str, Any]) -> Action:
    cls = ACTION_TYPES.get(str(data.get("type")))
    if cls is None:
        raise ValueError(f"unknown action type {data.get('type')!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        v = data[f.name]
        if f.name == "card":
            v = Card.parse(v)
        elif f.name == "cards":
            v = tuple(Card.parse(c) for c in v)
        elif f.name in ("amount", "price") and isinstance(v, str):
            v = Fraction(v)
        kwargs[f.name] = v
    return cls(**kwargs)  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------- needs
@dataclass(frozen=True, slots=True)
class CardNeed:
    """A card is due: to ``recipient`` (a player, or the banker/dealer when
    ``to_bank``), their hand ``hand`` (1-based; 0 for the bank), face up or down.
    ``purpose`` is "deal" or "cut"."""

    recipient: str
    hand: int
    face_up: bool
    to_bank: bool = False
    purpose: str = "deal"


@dataclass(frozen=True, slots=True)
class StakeNeed:
    """Initial stakes are due; ``player`` is next in order, ``waiting`` all who
    have not staked (any of them may stake now)."""

    player: str
    minimum: Amount
    maximum: Amount
    waiting: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ShootNeed:
    """``player`` may place a shoot bet before the second card (0 = none)."""

    player: str
    maximum: Amount


@dataclass(frozen=True, slots=True)
class DecisionNeed:
    """``player``'s hand ``hand`` is in play; ``words`` are the legal decisions."""

    player: str
    hand: int
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BankNeed:
    banker: str
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KittyNeed:
    """The banker must put up a kitty (or, when allowed, sell the bank) first."""

    banker: str
    minimum: Amount
    maximum: Amount
    can_sell: bool


@dataclass(frozen=True, slots=True)
class BetweenDeals:
    banker: str
    next_deal: int
    can_sell: bool
    can_add_kitty: bool


@dataclass(frozen=True, slots=True)
class GameOver:
    winners: tuple[str, ...]


Need = (
    CardNeed | StakeNeed | ShootNeed | DecisionNeed | BankNeed | KittyNeed | BetweenDeals | GameOver
)


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One family of actions ``apply`` accepts now.

    ``kind`` is the action class; ``player``/``word`` pin those fields when set;
    an amount must lie in ``minimum..maximum`` (``maximum`` None: no upper
    limit) and be whole unless ``halves``; ``cards`` lists the cards that may be
    dealt; ``names`` the players a bank may be sold to.
    """

    kind: type[Any]
    player: str | None = None
    word: str | None = None
    minimum: Amount | None = None
    maximum: Amount | None = None
    halves: bool = False
    #: a ``frozenset`` or, from the engine, a :class:`~.cards.CardSet` (equal to it)
    cards: AbstractSet[Card] | None = None
    names: tuple[str, ...] | None = None

    def accepts(self, action: Action) -> bool:
        """Whether ``action`` belongs to this family (the engine's own check)."""
        if type(action) is not self.kind:
            return False
        if self.player is not None and getattr(action, "player", None) != self.player:
            return False
        if self.word is not None and getattr(action, "word", None) != self.word:
            return False
        if self.cards is not None and getattr(action, "card", None) not in self.cards:
            return False
        if self.names is not None and getattr(action, "to", None) not in self.names:
            return False
        if self.minimum is None:
            # a word that takes no amount must not be given one
            return getattr(action, "amount", None) is None
        else:
            amount = getattr(action, "amount", getattr(action, "price", None))
            if amount is None:
                # a fixed-amount word (plain "buy") may omit it
                return self.minimum == self.maximum
            if isinstance(amount, bool) or not isinstance(amount, int | Fraction):
                return False
            step = Fraction(1, 2) if self.halves else 1
            if Fraction(amount) % step != 0:
                return False
            if amount < self.minimum or (self.maximum is not None and amount > self.maximum):
                return False
        return True


_FAMILY_FIELDS = ("kind", "player", "word", "minimum", "maximum", "halves", "cards", "names")
_SET = tuple(LegalAction.__dict__[f].__set__ for f in _FAMILY_FIELDS)


def make_family(
    kind: type[Any],
    player: str | None = None,
    word: str | None = None,
    minimum: Amount | None = None,
    maximum: Amount | None = None,
    halves: bool = False,
    cards: AbstractSet[Card] | None = None,
    names: tuple[str, ...] | None = None,
) -> LegalAction:
    """``LegalAction(...)`` for the engine's hot path.

    The frozen dataclass ``__init__`` goes through ``object.__setattr__`` per
    field and cost more than the rest of a card step; writing the slots
    directly makes the very same (equal, frozen) object three times faster.
    """
    la: LegalAction = object.__new__(LegalAction)
    k, p, w, lo, hi, hv, cs, ns = _SET
    k(la, kind)
    p(la, player)
    w(la, word)
    lo(la, minimum)
    hi(la, maximum)
    hv(la, halves)
    cs(la, cards)
    ns(la, names)
    return la
