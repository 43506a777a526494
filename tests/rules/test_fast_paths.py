"""The engine's fast paths against a straightforward reference.

``pending`` and ``legal_actions`` are cached per state version and built from
shared, pre-made objects; the pack keeps card counts and a presence mask as
cards come and go; the shuffle is an inlined copy of CPython's.  Each of those
is checked here against the plain way of working the same thing out (the
engine's code before it was made fast), at every step of random legal play.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules import (
    CARDS,
    PRESETS,
    BankDecide,
    BankNeed,
    BetweenDeals,
    CardNeed,
    DealCard,
    Decide,
    DecisionNeed,
    GameOver,
    GameState,
    KittyNeed,
    LegalAction,
    Need,
    Pack,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    SellBank,
    ShootNeed,
    StackTop,
    StakeNeed,
    StartDeal,
    VoidDeal,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending,
)
from controller.rules.cards import CardSet
from controller.rules.legality import shoot_room, word_range
from controller.rules.money import units
from controller.rules.pack import shuffle_like_random
from controller.rules.ruleset import decision_words

from .randomplay import is_over, random_action

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


# ------------------------------------------------------------------ the reference
def reference_need(s: GameState) -> Need:
    """What the table waits for, worked out from scratch with no cache."""
    r = s.rules
    if s.phase == "over":
        return GameOver(tuple(s.winners()))
    if s.phase == "cut":
        assert s.cut is not None
        return CardNeed(s.cut["contenders"][len(s.cut["cards"])], 0, True, purpose="cut")
    if s.phase == "between":
        assert s.banker is not None
        can_sell = r.bank_sale and len(s.players) > 1
        if s.kitty_needed:
            return KittyNeed(s.banker, r.min_stake, r.max_stake, can_sell)
        return BetweenDeals(s.banker, s.entries + 1, can_sell, r.shoot_bets)
    d = s.deal
    assert d is not None
    if d.queue:
        si, hi, up = d.queue[0]
        if si < 0:
            return CardNeed(d.banker, 0, up, to_bank=True)
        return CardNeed(d.seats[si], hi + 1, up)
    if d.step == "stakes":
        waiting = tuple(p for p, done in zip(d.seats, d.staked, strict=True) if not done)
        return StakeNeed(waiting[0], r.min_stake, r.max_stake, waiting)
    if d.step == "shoots":
        return ShootNeed(d.seats[d.shoot_i], units(shoot_room(s, d)))
    if d.step == "play":
        h = d.hands[d.seat_i][d.hand_i]
        words = tuple(w for w in decision_words(r) if not isinstance(word_range(s, d, h, w), str))
        return DecisionNeed(d.seats[d.seat_i], d.hand_i + 1, words)
    assert d.step == "bank"
    return BankNeed(d.banker, ("draw", "stay") if len(d.bank.cards) < 5 else ("stay",))


def reference_legal(s: GameState) -> list[LegalAction]:
    """Every legal family built with the public constructor, the pack scanned."""
    r = s.rules
    need = reference_need(s)
    out: list[LegalAction] = []
    if isinstance(need, CardNeed):
        out.append(LegalAction(DealCard, cards=frozenset(CARDS[c] for c in set(s.pack.cards()))))
    elif isinstance(need, StakeNeed):
        for p in need.waiting:
            out.append(LegalAction(PlaceStake, player=p, minimum=r.min_stake, maximum=r.max_stake))
    elif isinstance(need, ShootNeed):
        out.append(LegalAction(PlaceShoot, player=need.player, minimum=0, maximum=need.maximum))
    elif isinstance(need, DecisionNeed):
        d = s.deal
        assert d is not None
        h = d.hands[d.seat_i][d.hand_i]
        for w in need.words:
            rng = word_range(s, d, h, w)
            assert not isinstance(rng, str)
            if rng is None:
                out.append(LegalAction(Decide, player=need.player, word=w))
            else:
                lo, hi = units(rng[0]), units(rng[1])
                out.append(
                    LegalAction(Decide, player=need.player, word=w, minimum=lo, maximum=hi,
                                halves=w == "insurance")
                )
    elif isinstance(need, BankNeed):
        out.extend(LegalAction(BankDecide, word=w) for w in need.words)
    elif isinstance(need, KittyNeed | BetweenDeals):
        if isinstance(need, KittyNeed):
            out.append(LegalAction(PutKitty, minimum=need.minimum, maximum=need.maximum))
        else:
            out += [LegalAction(StartDeal), LegalAction(StackTop)]
            if need.can_add_kitty:
                out.append(LegalAction(PutKitty, minimum=1, maximum=None))
        if need.can_sell:
            others = tuple(p for p in s.players if p != s.banker)
            out.append(LegalAction(SellBank, minimum=0, maximum=None, names=others))
    if s.phase == "deal":
        out.append(LegalAction(VoidDeal))
    if s.phase == "cut" and s.cut is not None and not s.cut["cards"]:
        # cards are stacked only before the cut's first card (apply refuses it after)
        out.append(LegalAction(StackTop))
    return out


def check_pack_books(pack: Pack) -> None:
    """The pack's running counts and mask agree with its cards."""
    have = Counter(int(c) for c in pack.cards())
    assert [pack.count(c) for c in range(52)] == [have[c] for c in range(52)]
    assert pack.present() == frozenset(CARDS[c] for c in have)
    assert all((c in pack) == (have[c] > 0) for c in CARDS)


# ------------------------------------------------------------------ the checks
@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), people=st.integers(2, 6))
def test_pending_and_legal_actions_agree_with_the_reference_at_every_step(
    preset: str, seed: int, people: int
) -> None:
    rules = load_ruleset(preset)
    rng = random.Random(seed)
    players = NAMES[:people]
    banker = None if rules.house_dealer or seed % 2 else players[-1]
    state = new_game(rules, players, banker=banker, seed=seed)
    for _ in range(150):
        expected_need = reference_need(state)
        expected_legal = reference_legal(state)
        assert pending(state) == expected_need
        legal = legal_actions(state)
        assert legal == expected_legal
        assert [hash(la) for la in legal] == [hash(la) for la in expected_legal]
        legal.clear()  # the caller's list is its own: the engine's answer is unchanged
        assert legal_actions(state) == expected_legal
        assert pending(state) == expected_need  # asking twice gives the same answer
        check_pack_books(state.pack)
        if is_over(state):
            break
        apply(state, random_action(rng, state))


@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), cut=st.integers(1, 120))
def test_a_state_restored_from_json_mid_game_plays_on_identically(
    preset: str, seed: int, cut: int
) -> None:
    rules = load_ruleset(preset)
    players = NAMES[:4]
    state = new_game(rules, players, banker=None if rules.house_dealer else "Dan", seed=seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if is_over(state):
            break
        apply(state, random_action(rng, state))
    pending(state), legal_actions(state)  # a warm cache must not leak into the copy
    restored = GameState.from_json(state.to_json())
    check_pack_books(restored.pack)
    rng_a, rng_b = random.Random(seed + 1), random.Random(seed + 1)
    for _ in range(150):
        assert pending(restored) == pending(state)
        assert legal_actions(restored) == legal_actions(state)
        if is_over(state):
            break
        apply(state, random_action(rng_a, state))
        apply(restored, random_action(rng_b, restored))
        assert restored.to_json() == state.to_json()
    assert restored.results == state.results


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**64), size=st.integers(0, 420))
def test_the_inlined_shuffle_is_exactly_pythons(seed: int, size: int) -> None:
    ours, theirs = list(range(size)), list(range(size))
    shuffle_like_random(random.Random(f"pontoon-table:{seed}"), ours)
    random.Random(f"pontoon-table:{seed}").shuffle(theirs)
    assert ours == theirs


@given(codes=st.sets(st.integers(0, 51)), probe=st.integers(-3, 60))
def test_a_card_set_is_the_frozenset_of_its_cards(codes: set[int], probe: int) -> None:
    cards = CardSet.of(codes)
    plain = frozenset(CARDS[c] for c in codes)
    assert cards == plain and plain == cards and hash(cards) == hash(plain)
    assert len(cards) == len(plain) and sorted(cards) == sorted(plain)
    assert (probe in cards) == (probe in plain)
    assert (CARDS[probe % 52] in cards) == (CARDS[probe % 52] in plain)
    assert ("AS" in cards) is False and (float(probe) in cards) == (float(probe) in plain)
    assert cards | {CARDS[0]} == plain | {CARDS[0]}
    assert LegalAction(DealCard, cards=cards) == LegalAction(DealCard, cards=plain)
    assert LegalAction(DealCard, cards=cards).accepts(DealCard(CARDS[probe % 52])) == (
        CARDS[probe % 52] in plain
    )


def test_cards_dealt_from_anywhere_keep_the_pack_books() -> None:
    pack = Pack(packs=2, seed=5)
    pack.shuffle()
    rng = random.Random(5)
    taken: list[int] = []
    for _ in range(60):
        card = rng.choice(pack.cards())
        pack.take(card)
        taken.append(card)
        check_pack_books(pack)
    pack.stack_top(pack.cards()[-3:])
    pack.to_bottom(taken[:30])
    check_pack_books(pack)
    pack.shuffle(taken[30:])
    check_pack_books(pack)
    assert len(pack) == 104 and pack.present() == frozenset(CARDS)
    copy = pack.copy()
    copy.take(int(copy.peek()))
    check_pack_books(copy)
    check_pack_books(pack)
    assert len(pack) == 104
