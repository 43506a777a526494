"""What the table waits for (``pending``) and what it accepts (``legal_actions``).

Both are asked several times per action (the table, the panels, the display),
so each answer is kept on the state until the next successful ``apply``.
Needs and families are immutable values that recur all game long (the same
seat, hand and word again and again); building a frozen dataclass costs more
than a dictionary look-up, so they are made once and shared between states.
"""

from __future__ import annotations

from typing import Any

from .actions import (
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
from .cards import CardSet
from .legality import rules_of, shoot_room
from .money import units
from .state import Phase, State, Step

# Phases and steps as module globals: read at every ``pending``, and a global
# is read several times faster than an enum member (``Phase.DEAL``).
_DEAL, _CUT, _OVER, _BETWEEN = Phase.DEAL, Phase.CUT, Phase.OVER, Phase.BETWEEN
_PLAY, _STAKES, _SHOOTS, _BANK = Step.PLAY, Step.STAKES, Step.SHOOTS, Step.BANK

_MADE: dict[tuple[Any, ...], Any] = {}
_MADE_MOST = 20_000


def _keep(key: tuple[Any, ...], value: Any) -> Any:
    if len(_MADE) >= _MADE_MOST:  # names come and go on a long-running table
        _MADE.clear()
    _MADE[key] = value
    return value


# ---------------------------------------------------------------------------- pending
def pending(state: State) -> Need:
    """What the table waits for now."""
    need = state._need
    if need is None:
        need = state._need = _compute_need(state)
    return need


def _card_need(recipient: str, hand: int, up: bool, to_bank: bool, purpose: str) -> CardNeed:
    key = (CardNeed, recipient, hand, up, to_bank, purpose)
    need: CardNeed | None = _MADE.get(key)
    if need is None:
        need = _keep(key, CardNeed(recipient, hand, up, to_bank, purpose))
    return need


def _compute_need(s: State) -> Need:
    phase = s.phase
    if phase is _DEAL:
        d = s.deal
        assert d is not None
        if d.queue:
            si, hi, up = d.queue[0]
            if si < 0:
                return _card_need(d.banker, 0, up, True, "deal")
            return _card_need(d.seats[si], hi + 1, up, False, "deal")
        step = d.step
        if step is _PLAY:
            words = tuple(decision_ranges(s))
            key: tuple[Any, ...] = (DecisionNeed, d.seats[d.seat_i], d.hand_i + 1, words)
            need: Need | None = _MADE.get(key)
            if need is None:
                need = _keep(key, DecisionNeed(key[1], key[2], words))
            return need
        r = s.rules
        if step is _STAKES:
            waiting = tuple(p for p, done in zip(d.seats, d.staked, strict=False) if not done)
            key = (StakeNeed, waiting, r.min_stake, r.max_stake)
            need = _MADE.get(key)
            if need is None:
                need = _keep(key, StakeNeed(waiting[0], r.min_stake, r.max_stake, waiting))
            return need
        if step is _SHOOTS:
            return ShootNeed(d.seats[d.shoot_i], units(shoot_room(s, d)))
        if step is _BANK:
            words = ("draw", "stay") if len(d.bank.cards) < 5 else ("stay",)
            key = (BankNeed, d.banker, words)
            need = _MADE.get(key)
            if need is None:
                need = _keep(key, BankNeed(d.banker, words))
            return need
        raise AssertionError(f"no need in step {d.step}")  # pragma: no cover
    r = s.rules
    if phase is _OVER:
        return GameOver(tuple(s.winners()))
    if phase is _CUT:
        assert s.cut is not None
        who = s.cut["contenders"][len(s.cut["cards"])]
        return _card_need(who, 0, True, False, "cut")
    assert phase is _BETWEEN and s.banker is not None
    can_sell = r.bank_sale and len(s.players) > 1
    if s.kitty_needed:
        return KittyNeed(s.banker, r.min_stake, r.max_stake, can_sell)
    return BetweenDeals(s.banker, s.entries + 1, can_sell, r.shoot_bets)


def decision_ranges(s: State) -> dict[str, tuple[int, int] | None]:
    """The legal words of the hand in play with their amount ranges (half
    units; None: the word takes no amount), worked out once per state version
    and shared by ``pending``, ``legal_actions`` and ``apply``."""
    ranges = s._ranges
    if ranges is None:
        d = s.deal
        assert d is not None
        h = d.hands[d.seat_i][d.hand_i]
        ranges = {}
        for w, rule in rules_of(s._words):
            rng = rule(s, d, h)
            if type(rng) is not str:
                ranges[w] = rng  # type: ignore[assignment]
        s._ranges = ranges
    return ranges


def not_now(s: State, what: str, player: str | None = None) -> IllegalAction:
    """The refusal of an action that does not answer what the table waits for."""
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


# ---------------------------------------------------------------------------- legal actions
def legal_actions(state: State) -> list[LegalAction]:
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


def _compute_legal(s: State) -> tuple[LegalAction, ...]:
    r = s.rules
    d = s.deal
    if d is not None and d.queue and s.phase is _DEAL:  # a card is due: the usual case
        la = _DEAL_FAMILIES.get(s.pack._mask) or _deal_family(s.pack._mask)
        return (la, _VOID)
    need = pending(s)
    t = type(need)
    out: list[LegalAction]
    if t is CardNeed:
        out = [_deal_family(s.pack._mask)]
    elif t is DecisionNeed:
        player = need.player  # type: ignore[union-attr]
        ranges = decision_ranges(s)
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
    if s.phase is _DEAL:
        out.append(_VOID)
    elif s.phase is _CUT:
        assert s.cut is not None
        if not s.cut["cards"]:  # cards are stacked only before the cut begins (play)
            out.append(_STACK)
    return tuple(out)
