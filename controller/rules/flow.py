"""The flow of a deal: every step that needs no outside input (RULES.md §2).

After each action ``advance`` runs the deal forward to the next thing it waits
for: cards to queue, hands that end by themselves, the dealer's drawing rule,
settlement.  Every card the deal needs is queued on ``Deal.queue`` in the
order the physical dealer deals it (SCENARIO.md, draw order).

``# pragma: no mutate`` marks the few lines whose every mutation is
equivalent (a value written and never read, a return after the deal is
settled); docs/mutation/rules-play.md says why for each.
"""

from __future__ import annotations

from .hands import Hand
from .legality import even_money_offered
from .settle import settle, three_of_a_kind, void
from .state import Deal, State, Step

# The steps as module globals: ``advance`` runs at every action, and a global
# is read several times faster than an enum member (``Step.PLAY``).
_FIRST, _STAKES, _SHOOTS, _SECOND = Step.FIRST, Step.STAKES, Step.SHOOTS, Step.SECOND
_PLAY, _BANK = Step.PLAY, Step.BANK


def queue_round(s: State, d: Deal, first: bool) -> None:
    """One card to each seat in order, then the bank's (none on ``ponton``'s second)."""
    d.queue.extend((si, 0, False) for si in range(len(d.seats)))
    if first or s.rules.dealer_initial_cards == 2:
        d.queue.append((-1, 0, s.rules.dealer_initial_cards == 1))


def advance(s: State) -> None:
    """Run every step that needs no outside input, up to the next need."""
    d = s.deal
    assert d is not None
    r = s.rules
    while True:
        if d.queue:
            if len(s.pack) == 0:
                void(s)
            return
        step = d.step
        if step is _PLAY:
            if d.seat_i >= len(d.seats):
                d.step = _BANK
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
        if step is _FIRST:
            if r.house_dealer:
                d.step = _SECOND
                queue_round(s, d, first=False)
            else:
                d.step = _STAKES
            continue
        if step is _STAKES:
            if not all(d.staked):
                return
            if r.house_dealer:
                d.step = _FIRST
                queue_round(s, d, first=True)
            elif r.shoot_bets:
                d.step = _SHOOTS
            else:
                d.step = _SECOND
                queue_round(s, d, first=False)
            continue
        if step is _SHOOTS:
            if d.shoot_i < len(d.seats):
                return
            d.step = _SECOND
            queue_round(s, d, first=False)
            continue
        if step is _SECOND:
            d.step = _PLAY
            if not r.house_dealer and d.bank.pontoon:
                d.bank_pontoon = True
                d.bank.show()
                settle(s)
                return
            continue
        if step is _BANK:
            if _bank_turn(s, d):
                continue
            return
        return  # Step.DONE


def _bank_turn(s: State, d: Deal) -> bool:
    """The bank's step; True when a card was queued and the flow goes on."""
    r = s.rules
    b = d.bank
    if not d.bank_started:
        d.bank_started = True  # pragma: no mutate
        live = any(not (h.bust or h.paid) for hs in d.hands for h in hs)
        if not live:
            if any(d.insurance) and len(b.cards) < 2:
                # only an insurance bet is open: the dealer's second card
                # settles it, and no more (RULES.md §1); the rest of the
                # shoe belongs to the next deal
                b.show()
                b.done = True
                d.queue.append((-1, 0, True))
                return True
            settle(s)
            return False  # pragma: no mutate
        b.show()
    five_stop = r.dealer_stops_at_five or not r.house_dealer
    if b.done or b.bust or (len(b.cards) >= 5 and five_stop):
        b.done = True
        settle(s)
        return False  # pragma: no mutate
    if r.house_dealer:
        t = b.total
        if t < 17 or (t == 17 and b.soft and r.dealer_draws == "hit_soft_17"):
            d.queue.append((-1, 0, True))
            return True
        b.done = True
        settle(s)
    return False


def _auto_stop(s: State, d: Deal, h: Hand) -> bool:
    """Stop a hand that ends by itself; True when it did."""
    n = len(h.cards)
    if n >= 5:
        h.done = True
        return True
    if h.split_ace and s.rules.split_aces_one_card and n >= 2:
        if h.pontoon and even_money_offered(s, d):
            return False  # a split pontoon may take even money too (RULES.md §1, §6)
        h.done = True
        if h.pontoon:
            h.declared = True  # pragma: no mutate
            h.show()
        return True
    if h.total == 21:
        if n == 2:
            if even_money_offered(s, d):
                return False  # the pontoon may take even money, its only word
            h.declared = True  # pragma: no mutate
            h.show()
        h.done = True
        three_of_a_kind(s, h)
        return True
    return False
