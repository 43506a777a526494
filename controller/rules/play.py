"""``apply``: one handler per action, each refusing before it changes anything.

A handler checks the action against what the table waits for, changes the
state, and lets ``flow.advance`` run the deal on to its next need.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .actions import (
    Action,
    BankDecide,
    BankNeed,
    BetweenDeals,
    DealCard,
    Decide,
    IllegalAction,
    KittyNeed,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    SellBank,
    ShootNeed,
    StackTop,
    StakeNeed,
    StartDeal,
    VoidDeal,
)
from .cards import CARDS, Card
from .decide import decide
from .flow import advance, queue_round
from .legality import shoot_room
from .money import out, say, to_half
from .pack import PackError
from .pending import not_now, pending
from .settle import bust, void
from .state import Deal, Phase, State, Step

S = TypeVar("S", bound=State)

# read at every card: a module global is read faster than an enum member
_DEAL, _CUT = Phase.DEAL, Phase.CUT


def apply(state: S, action: Action) -> S:
    """Apply ``action`` in place and return the state; ``IllegalAction`` changes nothing."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"{action!r} is not an action")
    handler(state, action)
    state._need = None
    state._legal = None
    state._ranges = None
    return state


# ---------------------------------------------------------------------------- between deals
def _start_deal(s: State, a: StartDeal) -> None:
    need = pending(s)
    if isinstance(need, KittyNeed):
        raise IllegalAction(f"{need.banker} must put up a kitty before the deal")
    if not isinstance(need, BetweenDeals):
        raise not_now(s, "start a deal")
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
        d.step = Step.STAKES
    else:
        queue_round(s, d, first=True)
    s.deal = d
    s.phase = Phase.DEAL
    advance(s)


def _stack_top(s: State, a: StackTop) -> None:
    cut_started = s.phase is Phase.CUT and s.cut and s.cut["cards"]
    if s.phase not in (Phase.BETWEEN, Phase.CUT) or cut_started:
        raise not_now(s, "stack cards on the pack")
    try:
        s.pack.stack_top(int(Card.parse(c)) for c in a.cards)
    except (PackError, ValueError) as e:
        raise IllegalAction(str(e)) from None


def _put_kitty(s: State, a: PutKitty) -> None:
    need = pending(s)
    r = s.rules
    if not r.shoot_bets:
        raise IllegalAction("there is no kitty at this table")
    if not isinstance(need, KittyNeed | BetweenDeals):
        raise not_now(s, "put up a kitty", s.banker)
    amount = to_half(a.amount, "kitty", s.banker)
    if isinstance(need, KittyNeed):
        if not r.min_stake * 2 <= amount <= r.max_stake * 2:
            raise IllegalAction(
                f"cannot put up {say(amount)}: a kitty is {r.min_stake} to {r.max_stake}",
                player=s.banker,
            )
        s.kitty_needed = False
    elif amount < 2:
        raise IllegalAction("must add at least 1 to the kitty", player=s.banker)
    s.kitty += amount


def _sell_bank(s: State, a: SellBank) -> None:
    need = pending(s)
    r = s.rules
    if not r.bank_sale:
        raise IllegalAction("the bank cannot be sold at this table")
    if not isinstance(need, KittyNeed | BetweenDeals):
        raise not_now(s, "sell the bank", s.banker)
    seller = s.banker
    assert seller is not None
    if a.to not in s.players:
        raise IllegalAction(f"cannot sell the bank to {a.to}: not at the table", player=seller)
    if a.to == seller:
        raise IllegalAction("cannot sell the bank to themselves", player=seller)
    price = to_half(a.price, "price", seller)
    if price < 0:
        raise IllegalAction("cannot sell the bank for a negative price", player=seller)
    s.balances[a.to] -= price
    s.balances[seller] += price
    s.banker = a.to
    if r.shoot_bets:
        # the old banker leaves with the kitty; the buyer puts up a new one
        s.kitty = 0
        s.kitty_needed = True
    s.sale = {"from": seller, "to": a.to, "price": out(price)}


# ---------------------------------------------------------------------------- cards
def _deal_card(s: State, a: DealCard) -> None:
    d = s.deal
    if s.phase is _DEAL:
        assert d is not None
        if not d.queue:
            raise not_now(s, f"deal {a.card}")
    elif s.phase is not _CUT:
        raise not_now(s, f"deal {a.card}")
    try:
        given = a.card
        card = int(given if type(given) is Card else Card.parse(given))
        s.pack.take(card)
    except ValueError as e:  # PackError too
        raise IllegalAction(f"cannot deal {a.card}: {e}") from None
    if d is None or s.phase is _CUT:
        _cut_card(s, card)
        return
    si, hi, up = d.queue.pop(0)
    h = d.bank if si < 0 else d.hands[si][hi]
    seq = len(d.dealt)
    d.dealt.append(card)
    h.add(card, up, seq)
    if h.hard > 21:
        bust(s, d, h, si)
    if d.queue and s.pack._cards:
        return  # the next card is due: nothing else can happen (see flow.advance)
    advance(s)


def _cut_card(s: State, card: int) -> None:
    """One cut card; the highest banks, ties cut again (RULES.md §1, §2)."""
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
        s.phase = Phase.BETWEEN
    else:
        cut["contenders"] = tied
        cut["cards"] = []
        if len(s.pack) == 0:
            s.pack.shuffle(cut["out"])
            cut["out"] = []


# ---------------------------------------------------------------------------- bets and the bank
def _place_stake(s: State, a: PlaceStake) -> None:
    need = pending(s)
    r = s.rules
    if not isinstance(need, StakeNeed):
        raise not_now(s, "stake", a.player)
    d = s.deal
    assert d is not None
    if a.player not in d.seats:
        if a.player == d.banker:
            raise IllegalAction("is the banker and does not stake", player=a.player)
        raise IllegalAction("is not at the table", player=a.player)
    si = d.seats.index(a.player)
    if d.staked[si]:
        raise IllegalAction("has already staked", player=a.player)
    amount = to_half(a.amount, "stake", a.player)
    if not r.min_stake * 2 <= amount <= r.max_stake * 2:
        raise IllegalAction(
            f"cannot stake {say(amount)}: stakes are {r.min_stake} to {r.max_stake}",
            player=a.player,
        )
    h = d.hands[si][0]
    h.stake = h.original = amount
    d.staked[si] = True
    advance(s)


def _place_shoot(s: State, a: PlaceShoot) -> None:
    need = pending(s)
    if not isinstance(need, ShootNeed) or need.player != a.player:
        raise not_now(s, "place a shoot bet", a.player)
    d = s.deal
    assert d is not None
    amount = to_half(a.amount, "shoot bet", a.player)
    room = shoot_room(s, d)
    if amount < 0 or amount > room:
        raise IllegalAction(
            f"cannot shoot {say(amount)}: the kitty allows 0 to {say(room)}", player=a.player
        )
    d.hands[d.shoot_i][0].shoot = amount
    d.shoot_i += 1
    advance(s)


def _bank_decide(s: State, a: BankDecide) -> None:
    need = pending(s)
    if not isinstance(need, BankNeed):
        raise not_now(s, a.word, s.banker)
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
    advance(s)


def _void_deal(s: State, a: VoidDeal) -> None:
    if s.phase is not Phase.DEAL:
        raise not_now(s, "void a deal")
    void(s)


_HANDLERS: dict[type[Any], Callable[[State, Any], None]] = {
    StartDeal: _start_deal,
    StackTop: _stack_top,
    DealCard: _deal_card,
    PlaceStake: _place_stake,
    PlaceShoot: _place_shoot,
    Decide: decide,
    BankDecide: _bank_decide,
    PutKitty: _put_kitty,
    SellBank: _sell_bank,
    VoidDeal: _void_deal,
}
