"""Simulated people for a :class:`~dealer_display.manual.ManualTable`.

Used by the redaction test, the benchmark and the demo mode: every step picks
one of the decisions the engine lists as legal right now (so the game explores
splits, buys, busts, bank transfers and void deals), and deals the card the
engine's pack would give, as the simulated shoe does.
"""

from __future__ import annotations

import random
from typing import Any

from controller.publish import CommandResult

from .manual import ManualTable
from .views import dealer_view


async def step(table: ManualTable, rng: random.Random, *, void_chance: float = 0.0) -> bool:
    """Make one move; False once the game is over."""
    snap = table.snapshot()
    if snap.get("game_over"):
        return False
    if snap.get("paused"):
        await table.command("resume")
        return True
    kind = (snap.get("pending") or {}).get("kind")
    in_deal = kind != "between_deals" and snap["deal"]["number"]
    if void_chance and in_deal and rng.random() < void_chance:
        result = await table.command("void_deal")
        if result.ok:
            return True
    if kind == "card":
        await _ok(table, "confirm_card", {"code": str(table.next_card())})
        return True
    if kind == "between_deals":
        await _ok(table, "next_deal")
        return True
    legal: list[dict[str, Any]] = dealer_view(snap)["decisions"]
    if not legal:
        raise AssertionError(f"nothing legal while waiting for {kind}")
    choice = rng.choice(legal)
    word = choice["decision"]
    if word in ("draw", "stay"):
        await _ok(table, "bank_draw" if word == "draw" else "bank_stay")
        return True
    amount = None
    if "min" in choice and choice["min"] != choice["max"]:
        low = int(-(-choice["min"] // 1))
        high = int(choice["max"]) if choice["max"] is not None else low + 3
        amount = rng.randint(low, max(low, high))
    await _ok(table, "decide", {"seat": choice["seat"], "decision": word, "amount": amount})
    return True


async def _ok(table: ManualTable, name: str, args: dict[str, Any] | None = None) -> CommandResult:
    result = await table.command(name, args)
    if not result.ok:
        raise AssertionError(f"a legal move was refused: {name} {args}: {result.message}")
    return result
