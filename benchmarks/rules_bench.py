"""Player-hands per second of the pure rules engine, random legal play, one core.

Run: ``.venv/bin/python benchmarks/rules_bench.py [--seconds 3] [PRESET ...]``.

Each preset plays whole games (five people) with a seeded random player that is
honest about the engine's work: at every step it asks ``legal_actions`` what is
allowed, picks one family at random, and an amount uniformly within the range
offered; every card is the top of the engine's own pack model.  Only the table
management families (void a deal, stack cards, sell the bank, add to a kitty)
are left out, because they are not play; between deals the dealer starts the
next one.  A "player-hand" is one hand of one player played to its end in a
deal that settled (split hands count one each).  Results are not recorded in
the state (``keep_results = False``) since a live table keeps only the journal.
The figure to watch is ``house`` (issue 2 aims at 100,000 per second per core).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from fractions import Fraction

from controller.rules import (
    PRESETS,
    DealCard,
    Decide,
    GameOver,
    KittyNeed,
    LegalAction,
    PutKitty,
    SellBank,
    StackTop,
    StartDeal,
    VoidDeal,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending,
)

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]
#: families a random *player* never picks: table management, not play
NOT_PLAY = (VoidDeal, StackTop, SellBank)
START = StartDeal()


def _amount(rng: random.Random, la: LegalAction) -> int | Fraction:
    """Uniform within the offered range, in the offered steps (whole or halves)."""
    low, high = la.minimum, la.maximum
    assert low is not None and high is not None
    if low == high:
        return low
    if la.halves:
        h = rng.randint(int(low * 2), int(high * 2))
        return h // 2 if h % 2 == 0 else Fraction(h, 2)
    return rng.randint(int(low), int(high))


def _action(rng: random.Random, la: LegalAction) -> object:
    kind = la.kind
    if kind is Decide:
        if la.minimum is None:
            return Decide(la.player, la.word)  # type: ignore[arg-type]
        return Decide(la.player, la.word, _amount(rng, la))  # type: ignore[arg-type]
    if la.word is not None:
        return kind(la.word)
    if la.player is not None:
        return kind(la.player, _amount(rng, la))
    if la.minimum is not None:
        return kind(_amount(rng, la))
    return kind()


def play(preset: str, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Play games for ``seconds`` of this process's CPU time; (player-hands,
    actions applied, CPU seconds).  CPU time rather than wall time because the
    machine is shared: the figure is per core actually given to us."""
    rules = load_ruleset(preset)
    rng = random.Random(seed)
    rnd = rng.random
    hands = actions = 0
    clock = time.process_time
    t0 = clock()
    end = t0 + seconds
    while clock() < end:
        banker = None if rules.house_dealer else PLAYERS[-1]
        state = new_game(rules, PLAYERS, banker=banker, seed=rng.randint(0, 10**9))
        state.keep_results = False
        pack = state.pack
        for _ in range(50):  # deals per game, fewer when the game ends sooner
            if type(pending(state)) is GameOver:
                break
            if type(pending(state)) is KittyNeed:
                la = next(la for la in legal_actions(state) if la.kind is PutKitty)
                apply(state, PutKitty(_amount(rng, la)))
                actions += 1
            counted = state.counted
            apply(state, START)
            actions += 1
            while state.phase == "deal":
                play = [la for la in legal_actions(state) if la.kind not in NOT_PLAY]
                la = play[int(rnd() * len(play))]  # uniform, cheaper than rng.choice
                if la.kind is DealCard:
                    action: object = DealCard(pack.peek())
                else:
                    action = _action(rng, la)
                apply(state, action)  # type: ignore[arg-type]
                actions += 1
            if state.counted > counted:
                d = state.deal
                assert d is not None
                hands += sum(len(hs) for hs in d.hands)
    return hands, actions, clock() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per preset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("presets", nargs="*", default=list(PRESETS))
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"python {platform.python_version()} ({sys.implementation.name}), one core "
        f"(single thread) of {os.cpu_count()}, load average {load:.2f}, "
        f"{len(PLAYERS)} people, random legal play"
    )
    print(f"{'preset':<12} {'player-hands':>12} {'actions':>9} {'cpu s':>8} {'hands/s':>10}")
    for preset in args.presets:
        hands, actions, secs = play(preset, args.seconds, args.seed)
        print(f"{preset:<12} {hands:>12} {actions:>9} {secs:>8.2f} {hands / secs:>10,.0f}")


if __name__ == "__main__":
    main()
