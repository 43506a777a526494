"""Money: what pays at once (bust, three of a kind) and the deal's settlement.

Every amount is in half units (``money``); a deal's nets sum to zero, the
banker's (or house's) net being minus the players' (the kitty counts as the
banker's money).
"""

from __future__ import annotations

from fractions import Fraction

from .cards import same_rank
from .hands import Hand
from .results import record
from .state import Deal, Phase, State, Step


# ---------------------------------------------------------------------------- paid at once
def bust(s: State, d: Deal, h: Hand, si: int) -> None:
    """A hand went over 21: shown, and a player's stake (and shoot bet) lost
    at once, its cards under the pack (RULES.md §2.5, §4)."""
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


def three_of_a_kind(s: State, h: Hand) -> None:
    """``ponton``: three cards of one rank not over 21 are paid at once (§6)."""
    pays = s.rules.three_of_a_kind_pays
    c = h.cards
    if pays and len(c) == 3 and same_rank(c[0], c[1]) and same_rank(c[1], c[2]) and h.hard <= 21:
        h.paid = True
        h.show()
        h.net = int(h.stake * pays)


# ---------------------------------------------------------------------------- the end of a deal
def outcome(s: State, d: Deal, h: Hand) -> Fraction | int:
    """Net multiple of the stake for a live hand against the finished bank."""
    return judge(s, d, h)[0]


def judge(s: State, d: Deal, h: Hand) -> tuple[Fraction | int, str]:
    """The multiple of the stake for a live hand, and the rule that decided it
    (the ``why`` of :class:`~controller.rules.outcomes.HandOutcome`)."""
    r = s.rules
    b = d.bank
    pay = r.pay_pontoon if h.pontoon else r.pay_five_card if h.five else 1
    # ``b.pontoon`` rather than ``d.bank_pontoon``: a player banker's pontoon
    # ends the deal at once, but a house dealer's shows only at its turn, and
    # the option means the same for both (every live hand pays twice)
    if b.pontoon and r.bank_pontoon_pays == "double":
        return -2, "bank_pontoon"
    if b.bust:
        return pay, "bank_bust"
    if h.five and r.five_card_always_wins:
        return pay, "five_card_always"
    if b.five and r.banker_five_card == "pontoons_only":
        return (pay, "beats_bank_five_card") if h.pontoon else (-2, "bank_five_card")
    pk = 100 if h.pontoon else 50 if h.five else h.total
    bk = 100 if b.pontoon else 50 if b.five else b.total
    if pk > bk:
        return pay, "higher"
    if pk == bk:
        return (0, "push") if r.ties == "push" else (-1, "tie")
    return -1, "lower"


def settle(s: State) -> None:
    """Pay every live hand, shoot bet and insurance; move the bank; return the cards."""
    d = s.deal
    assert d is not None
    r = s.rules
    d.step = Step.DONE
    bank_pontoon = d.bank.pontoon
    nets: dict[str, int] = {p: 0 for p in d.seats}
    for si, hands in enumerate(d.hands):
        p = d.seats[si]
        for h in hands:
            if not (h.bust or h.paid):
                h.show()  # a hand is laid open to be compared with the bank's
                m = outcome(s, d, h)
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
    record(s, d, nets, shuffle, next_banker, void=False)
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
    s.phase = Phase.BETWEEN
    if r.counted_deals is not None and s.counted >= r.counted_deals:
        s.phase = Phase.OVER


def void(s: State) -> None:
    """Undo the deal: nothing was paid yet (balances move only at settlement),
    the kitty goes back, every card is shuffled in; the deal is played again."""
    d = s.deal
    assert d is not None
    d.step = Step.DONE
    d.queue.clear()
    s.kitty = d.start_kitty
    nets = {p: 0 for p in d.seats}
    nets[d.banker] = 0
    for hs in d.hands:
        for h in hs:
            h.net = 0
    record(s, d, nets, True, d.banker, void=True)
    _return_cards(s, d, True)
    s.entries += 1
    s.phase = Phase.BETWEEN


def _return_cards(s: State, d: Deal, shuffle: bool) -> None:
    """The deal's cards still out (bust cards went under already) back to the pack."""
    if d.returned:
        gone = set(d.returned)
        rest = [c for i, c in enumerate(d.dealt) if i not in gone]
    else:
        rest = d.dealt
    if shuffle:
        s.pack.shuffle(rest)
    else:
        s.pack.to_bottom(rest)
