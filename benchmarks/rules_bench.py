"""Player-hands per second of the pure rules engine, random legal play, one core.

Run: ``.venv/bin/python benchmarks/rules_bench.py [--seconds 3]``.  Each preset
plays whole games with a seeded random player that answers every need with a
legal choice (the words ``pending`` offers); a "player-hand" is one settled
hand of one player (split hands count one each).  Results are not recorded in
the state (``keep_results = False``) since a live table keeps only the journal.
"""

from __future__ import annotations

import argparse
import random
import time

from controller.rules import (
    PRESETS,
    BankDecide,
    BankNeed,
    BetweenDeals,
    CardNeed,
    DealCard,
    Decide,
    DecisionNeed,
    GameOver,
    KittyNeed,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    ShootNeed,
    StakeNeed,
    StartDeal,
    apply,
    load_ruleset,
    new_game,
    pending,
)
from controller.rules.game import _word_range

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]
START = StartDeal()
STAY = BankDecide("stay")
DRAW = BankDecide("draw")


def play(preset: str, seconds: float, seed: int = 1) -> tuple[int, float]:
    rules = load_ruleset(preset)
    rng = random.Random(seed)
    choice = rng.choice
    randint = rng.randint
    hands = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while time.perf_counter() < end:
        banker = None if rules.house_dealer else PLAYERS[-1]
        state = new_game(rules, PLAYERS, banker=banker, seed=randint(0, 10**9))
        state.keep_results = False
        for _ in range(50):  # deals per game, fewer when the game ends sooner
            while True:
                need = pending(state)
                t = type(need)
                if t is CardNeed:
                    action: object = DealCard(state.pack.peek())
                elif t is DecisionNeed:
                    word = choice(need.words)  # type: ignore[union-attr]
                    d = state.deal
                    assert d is not None
                    rng_ = _word_range(state, d, d.hands[d.seat_i][d.hand_i], word)
                    if isinstance(rng_, tuple):
                        action = Decide(need.player, word, randint(rng_[0], rng_[1]) // 2 or 1)  # type: ignore[union-attr]
                        if word in ("insurance", "double"):
                            action = Decide(need.player, word)  # type: ignore[union-attr]
                    else:
                        action = Decide(need.player, word)  # type: ignore[union-attr]
                elif t is StakeNeed:
                    action = PlaceStake(need.player, randint(need.minimum, need.maximum))  # type: ignore[union-attr,arg-type]
                elif t is BankNeed:
                    action = DRAW if "draw" in need.words and state.deal.bank.total < 17 else STAY  # type: ignore[union-attr]
                elif t is ShootNeed:
                    action = PlaceShoot(need.player, randint(0, int(need.maximum) // 2))  # type: ignore[union-attr]
                elif t is KittyNeed:
                    action = PutKitty(need.maximum)  # type: ignore[union-attr]
                elif t is BetweenDeals:
                    break
                else:
                    assert t is GameOver
                    break
                apply(state, action)  # type: ignore[arg-type]
            if type(pending(state)) is GameOver:
                break
            d = state.deal
            if d is not None:
                hands += sum(len(hs) for hs in d.hands)
            apply(state, START)
    return hands, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="per preset")
    parser.add_argument("presets", nargs="*", default=list(PRESETS))
    args = parser.parse_args()
    print(f"{'preset':<12} {'player-hands':>12} {'seconds':>8} {'hands/s':>10}")
    for preset in args.presets:
        hands, secs = play(preset, args.seconds)
        print(f"{preset:<12} {hands:>12} {secs:>8.2f} {hands / secs:>10,.0f}")


if __name__ == "__main__":
    main()
