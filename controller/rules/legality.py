"""Which decision a hand may take now, and for how much (RULES.md §2-§6).

One rule per word, in a table: each answers with the amount range in half
units, ``None`` when the word takes no amount, or the sentence that says why
the word is refused.  ``pending`` asks every word the rules allow; ``apply``
asks the one it was given, so a refusal and a lit button never disagree.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import WORDS
from .cards import VALUES, is_ace, same_rank
from .hands import Hand
from .state import Deal, State

#: what a word's rule answers: (lowest, highest) in half units, None (no
#: amount), or the reason the word is refused
Answer = tuple[int, int] | str | None


def shoot_room(s: State, d: Deal) -> int:
    """What the kitty still covers (half units) beyond the open shoot bets."""
    open_bets = 0
    for hs in d.hands:
        for h in hs:
            if not h.bust:
                open_bets += h.shoot
    return s.kitty - open_bets


def dealer_shows_ace(d: Deal) -> bool:
    b = d.bank
    return bool(b.cards) and b.up[0] and is_ace(b.cards[0])


def even_money_offered(s: State, d: Deal) -> bool:
    """Whether the hand in play, a pontoon, may still take even money.

    Even money is offered instead of insurance (RULES.md §6): the seat's first
    hand, which carries the seat's insurance, cannot take it once insured.
    """
    return (
        s.rules.even_money
        and dealer_shows_ace(d)
        and not (d.hand_i == 0 and d.insurance[d.seat_i])
    )


def _can_insure(d: Deal, h: Hand) -> bool:
    si = d.seat_i
    return (
        d.hand_i == 0
        and len(d.hands[si]) == 1
        and h.words == 0
        and len(h.cards) == 2
        and d.insurance[si] == 0
    )


# ---------------------------------------------------------------------------- one rule per word
def _stick(s: State, d: Deal, h: Hand) -> Answer:
    minimum = s.rules.stick_minimum
    if h.must_draw:
        return "must take the fourth card after a shoot bet"
    if h.total < minimum and not h.pontoon:
        return f"cannot stick under {minimum} (the hand makes {h.total})"
    return None


# twist, buy and double first ask whether the hand may draw at all: not at 21
# (a pontoon included) nor past five cards


def _twist(s: State, d: Deal, h: Hand) -> Answer:
    if h.total >= 21:
        return "cannot twist at 21"
    if len(h.cards) >= 5:
        return "cannot twist a sixth card"
    return None


def _buy(s: State, d: Deal, h: Hand) -> Answer:
    r = s.rules
    if h.total >= 21:
        return "cannot buy at 21"
    if len(h.cards) >= 5:
        return "cannot buy a sixth card"
    if r.buy == "double":
        return "cannot buy at this table (the word is double)"
    if r.buy == "none":
        return "cannot buy at this table (only twist)"
    if h.twisted and not r.twist_then_buy:
        return "cannot buy after twisting"
    n = len(h.cards)
    if n > r.buy_max_cards:
        return f"cannot buy card {n + 1}, only twist"
    if r.buy == "equal":
        return (h.original, h.original)
    return (h.original, h.last_buy if h.last_buy else 2 * h.original)


def _double(s: State, d: Deal, h: Hand) -> Answer:
    r = s.rules
    if h.total >= 21:
        return "cannot double at 21"
    if len(h.cards) >= 5:
        return "cannot double a sixth card"
    if r.buy != "double":
        return "cannot double at this table (the word is buy)"
    if h.doubled:
        return "cannot double twice on one hand"
    if h.twisted and not r.twist_then_buy:
        return "cannot double after twisting"
    n = len(h.cards)
    if n > r.buy_max_cards:
        return f"cannot double holding {n} cards"
    return (h.original, h.original)


def _split(s: State, d: Deal, h: Hand) -> Answer:
    r = s.rules
    if len(h.cards) != 2:
        return "can split only a hand's first two cards"
    a, b = h.cards[0], h.cards[1]
    if r.split_by == "rank" and not same_rank(a, b):
        return "can split only two cards of the same rank"
    if r.split_by == "value" and VALUES[a] != VALUES[b]:
        return "can split only two cards of the same value"
    aces = is_ace(a)
    if r.split_aces_only and not aces:
        return "can split only aces at this table"
    if aces and r.split_aces_once and d.split_aces[d.seat_i]:
        return "can split aces only once"
    limit = r.max_hands_per_seat
    if limit is not None and len(d.hands[d.seat_i]) >= limit:
        return f"cannot split into more than {limit} hands"
    return None


def _shoot(s: State, d: Deal, h: Hand) -> Answer:
    if not s.rules.shoot_bets:
        return "cannot shoot: no shoot bets at this table"
    first_on_split = h.split_new and h.words == 0 and not h.shoot_start
    before_fourth = len(h.cards) == 3 and not h.shoot4 and h.total < 21
    if not (before_fourth or first_on_split):
        return "can shoot only before a fourth card, or first on a new split hand"
    room = shoot_room(s, d)
    if room < 2:
        return "cannot shoot: the kitty has no room left"
    return (2, room)


def _insurance(s: State, d: Deal, h: Hand) -> Answer:
    r = s.rules
    if not r.insurance:
        return "cannot insure: no insurance at this table"
    if not dealer_shows_ace(d):
        return "can insure only when the dealer's card is an ace"
    if not _can_insure(d, h):
        return "can insure only once, before taking any card"
    if h.pontoon and r.even_money:
        return "cannot insure a pontoon: it may take even money instead"
    half = h.original // 2
    return (half, half)


def _even_money(s: State, d: Deal, h: Hand) -> Answer:
    if not s.rules.even_money:
        return "cannot take even money at this table"
    if not h.pontoon:
        return "can take even money only with a pontoon"
    if not dealer_shows_ace(d):
        return "can take even money only when the dealer's card is an ace"
    if d.hand_i == 0 and d.insurance[d.seat_i]:
        return "cannot take even money on an insured hand"
    return None


Rule = Callable[[State, Deal, Hand], Answer]

RULES: dict[str, Rule] = {
    "stick": _stick,
    "twist": _twist,
    "buy": _buy,
    "double": _double,
    "split": _split,
    "shoot": _shoot,
    "insurance": _insurance,
    "even-money": _even_money,
}
assert tuple(RULES) == WORDS


_PAIRS: dict[tuple[str, ...], tuple[tuple[str, Rule], ...]] = {}


def rules_of(words: tuple[str, ...]) -> tuple[tuple[str, Rule], ...]:
    """``(word, rule)`` for each of ``words``, made once per set of words."""
    pairs = _PAIRS.get(words)
    if pairs is None:
        pairs = _PAIRS[words] = tuple((w, RULES[w]) for w in words)
    return pairs


def word_range(s: State, d: Deal, h: Hand, word: str) -> Answer:
    """The amount range (half units) for ``word`` on hand ``h``, None when the
    word takes no amount, or the reason it is refused."""
    rule = RULES.get(word) if type(word) is str else None
    if rule is None:
        return f"cannot {word!r}: the decisions are {', '.join(WORDS)}"
    return rule(s, d, h)
