"""Property tests: random legal play under every preset.

The random player's choices come from ``st.randoms(use_true_random=False)``,
so Hypothesis draws them itself: a failing game shrinks to a short one, and
the example database (``.hypothesis/``, Hypothesis's default; print_blob in
CI) keeps it and replays it first on the next run.  The money itself is
pinned in ``test_money.py``.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import (
    PRESETS,
    BankDecide,
    Decide,
    GameState,
    IllegalAction,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    SellBank,
    StartDeal,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending,
)

from .randomplay import check_cards, is_over, random_action

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def play(
    preset: str,
    seed: int,
    people: int,
    deals: int,
    banker: bool = True,
    rng: random.Random | None = None,
) -> GameState:
    rules = load_ruleset(preset)
    rng = rng or random.Random(seed)
    players = NAMES[:people]
    state = new_game(
        rules,
        players,
        banker=players[-1] if banker and not rules.house_dealer else None,
        seed=seed,
    )
    steps = 0
    while not is_over(state) and state.entries < deals and steps < 5000:
        before = len(state.results)
        apply(state, random_action(rng, state))
        check_cards(state)
        steps += 1
        if len(state.results) > before:
            entry = state.results[-1]
            assert sum(Fraction(v) for v in entry["net"].values()) == 0
            if not entry["void"]:
                hands = sum(Fraction(h["net"]) for h in entry["hands"])
                assert hands == -Fraction(entry["net"][entry["banker"]])
    # every deal's nets and the sale prices move money person to person
    assert sum(state.balances.values()) == 0
    if state.rules.shoot_bets:
        assert state.kitty >= 0
    return state


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), seed=st.integers(0, 10**6), people=st.integers(2, 8))
def test_random_legal_play_never_raises_and_keeps_the_books(
    preset: str, rng: random.Random, seed: int, people: int
) -> None:
    play(preset, seed, people, deals=6, banker=seed % 3 != 0, rng=rng)


@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), seed=st.integers(0, 10**6))
def test_json_round_trip_and_replaying_actions_is_deterministic(
    preset: str, rng: random.Random, seed: int
) -> None:
    rules = load_ruleset(preset)
    players = NAMES[:4]
    start = new_game(rules, players, banker=None if rules.house_dealer else "Dan", seed=seed)
    a = GameState.from_json(start.to_json())
    b = GameState.from_json(start.to_json())
    for _ in range(120):
        if is_over(a):
            break
        action = random_action(rng, a)
        apply(a, action)
        apply(b, action)
        c = GameState.from_json(a.to_json())
        assert c == a == b
        assert pending(c) == pending(a)


def _candidates(state: GameState, rng: random.Random) -> list[object]:
    """Actions of every kind, legal or not, to compare apply with legal_actions."""
    amounts: list[Any] = [0, 1, 2, 3, 5, 6, 10, Fraction(5, 2), -1, 200]
    out: list[object] = [StartDeal(), BankDecide("draw"), BankDecide("stay"), BankDecide("x")]
    for p in state.players:
        out.append(PlaceStake(p, rng.choice(amounts)))
        out.append(PlaceShoot(p, rng.choice(amounts)))
        out.append(SellBank(p, rng.choice(amounts)))
        for w in ("stick", "twist", "split", "double", "even-money", "buy", "jump"):
            out.append(Decide(p, w))
        for w in ("buy", "shoot", "insurance", "double", "stick"):
            out.append(Decide(p, w, rng.choice(amounts)))
    out.append(PutKitty(rng.choice(amounts)))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), seed=st.integers(0, 10**6))
def test_legal_actions_are_exactly_what_apply_accepts(
    preset: str, rng: random.Random, seed: int
) -> None:
    rules = load_ruleset(preset)
    state = new_game(rules, NAMES[:3], banker=None if rules.house_dealer else "Cat", seed=seed)
    for _ in range(45):
        if is_over(state):
            break
        legal = legal_actions(state)
        text = state.to_json()
        for cand in _candidates(state, rng):
            expected = any(la.accepts(cand) for la in legal)  # type: ignore[arg-type]
            try:
                apply(state, cand)  # type: ignore[arg-type]
                accepted = True
            except IllegalAction as e:
                assert str(e)  # a sentence, never empty
                accepted = False
            assert accepted == expected, (cand, pending(state), legal)
            if accepted:
                state = GameState.from_json(text)
            else:
                assert state.to_json() == text  # a refusal changes nothing
        apply(state, random_action(rng, state))
