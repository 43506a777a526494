"""A player's decision on the hand in play: its check, then what it does.

The check answers from the same word rules ``pending`` lit the buttons with
(``legality``); what each accepted word does is one entry of ``_EFFECTS``.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Decide, DecisionNeed, IllegalAction
from .cards import is_ace
from .flow import advance
from .hands import Hand
from .legality import word_range
from .money import say, to_half
from .pending import decision_ranges, not_now, pending
from .settle import three_of_a_kind
from .state import Deal, State


def decide(s: State, a: Decide) -> None:
    need = s._need or pending(s)
    word = a.word
    if type(need) is not DecisionNeed or need.player != a.player:
        decision = decision_text(a)
        err = not_now(s, decision, a.player)
        raise IllegalAction(err.reason, player=a.player, decision=decision)
    d = s.deal
    assert d is not None
    si, hi = d.seat_i, d.hand_i
    h = d.hands[si][hi]
    ranges = decision_ranges(s)
    if type(word) is str and word in ranges:
        rng = ranges[word]
    else:
        reason = word_range(s, d, h, word)
        assert isinstance(reason, str), (word, reason)
        raise IllegalAction(reason, player=a.player, hand=hi + 1, decision=decision_text(a))
    amount = 0
    given = a.amount
    if rng is None:
        if given is not None:
            raise IllegalAction(
                f"cannot give an amount with {word}", player=a.player, hand=hi + 1,
                decision=decision_text(a),
            )
    else:
        lo, high = rng
        if given is None:
            if lo != high:
                raise IllegalAction(
                    f"must say how much to {word} ({say(lo)} to {say(high)})",
                    player=a.player, hand=hi + 1, decision=decision_text(a),
                )
            amount = lo
        else:
            if type(given) is int:
                amount = given * 2
            else:
                try:
                    amount = to_half(given, word, a.player, whole=word != "insurance")
                except IllegalAction as e:
                    raise IllegalAction(
                        e.reason, player=a.player, hand=hi + 1, decision=decision_text(a)
                    ) from None
            if not lo <= amount <= high:
                span = f"exactly {say(lo)}" if lo == high else f"{say(lo)} to {say(high)}"
                raise IllegalAction(
                    f"cannot {_VERB.get(word, word)} {say(amount)}: the amount must be {span}",
                    player=a.player, hand=hi + 1, decision=decision_text(a),
                )
    h.words += 1
    _EFFECTS[word](s, d, si, hi, h, amount)
    advance(s)


#: a decision word as a verb, where the word is not one ("cannot insure for 2")
_VERB = {"insurance": "insure for"}


def decision_text(a: Decide) -> str:
    """The decision as the journal and the error line quote it."""
    return a.word if a.amount is None else f"{a.word} {a.amount}"


# ---------------------------------------------------------------------------- what a word does
def _stick(s: State, d: Deal, si: int, hi: int, h: Hand, amount: int) -> None:
    h.done = True
    three_of_a_kind(s, h)


def _twist(s: State, d: Deal, si: int, hi: int, h: Hand, amount: int) -> None:
    h.twisted = True
    h.must_draw = False
    d.queue.append((si, hi, True))


def _buy(s: State, d: Deal, si: int, hi: int, h: Hand, amount: int) -> None:
    """``buy`` and the casino's ``double``: more stake, a face-down card."""
    h.stake += amount
    h.last_buy = amount
    h.must_draw = False
    d.queue.append((si, hi, False))


def _double(s: State, d: Deal, si: int, hi: int, h: Hand, amount: int) -> None:
    h.doubled = True
    _buy(s, d, si, hi, h, amount)


def _split(s: State, d: Deal, si: int, hi: int, h: Hand, amount: int) -> None:
    """The second card starts a new hand right after this one; each gets a card."""
    card = h.cards.pop()
    h.up.pop()
    seq = h.seqs.pop()
    h.recount()
    h.up = [True]
    new = Hand(h.original)
    new.add(card, True, seq)
    new.split_new = True
    if is_ace(card):
        h.split_ace = new.split_ace = True
        d.split_aces[si] = True
    d.hands[si].insert(hi + 1, new)
    d.queue.append((si, hi, False))
    d.queue.append((si, hi + 1, False))


def _shoot(s: State, d: Deal, si: int, hi: int, h: Hand, amount: int) -> None:
    h.shoot += amount
    if len(h.cards) == 3:
        h.shoot4 = True  # before the fourth card, which must now come
        h.must_draw = True
    else:
        h.shoot_start = True  # a new split hand's own first shoot bet


def _insurance(s: State, d: Deal, si: int, hi: int, h: Hand, amount: int) -> None:
    d.insurance[si] = amount


def _even_money(s: State, d: Deal, si: int, hi: int, h: Hand, amount: int) -> None:
    h.paid = True
    h.done = True
    h.declared = True
    h.show()
    h.net = h.stake


_EFFECTS: dict[str, Callable[[State, Deal, int, int, Hand, int], None]] = {
    "stick": _stick,
    "twist": _twist,
    "buy": _buy,
    "double": _double,
    "split": _split,
    "shoot": _shoot,
    "insurance": _insurance,
    "even-money": _even_money,
}
