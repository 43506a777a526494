"""A finished deal as the SCENARIO.md output lists it (``GameState.results``)."""

from __future__ import annotations

from typing import Any

from .cards import NAMES
from .money import out
from .state import HOUSE, Deal, State


def record(
    s: State, d: Deal, nets: dict[str, int], shuffle: bool, next_banker: str, void: bool
) -> None:
    """Append the deal's entry; a live table keeps the journal instead
    (``keep_results`` False), so nothing is built there."""
    if not s.keep_results:
        return
    shoot = s.rules.shoot_bets
    entry: dict[str, Any] = {
        "number": d.number,
        "counted": not void,
        "void": void,
        "banker": d.banker,
    }
    if d.sale:
        entry["sale"] = d.sale
    entry["bank"] = {"cards": [NAMES[c] for c in d.bank.cards], "total": d.bank.total}
    hands = []
    for si, hs in enumerate(d.hands):
        for hi, h in enumerate(hs):
            row: dict[str, Any] = {
                "player": d.seats[si],
                "hand": hi + 1,
                "cards": [NAMES[c] for c in h.cards],
                "stake": out(h.stake),
            }
            if shoot:
                row["shoot"] = out(h.shoot)
            row["total"] = h.total
            row["net"] = out(h.net)
            hands.append(row)
    entry["hands"] = hands
    order = [p for p in s.players if p in nets]
    if HOUSE in nets:
        order.append(HOUSE)
    entry["net"] = {p: out(nets[p]) for p in order}
    if shoot:
        entry["kitty"] = out(s.kitty)
    entry["shuffle"] = shuffle
    entry["next_banker"] = next_banker
    s.results.append(entry)
