"""Shared helpers for the reliability and security proofs (issue 8).

Imported as a plain module (pytest puts this directory on sys.path).
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from dealer_display.cards_svg import ALL_CARDS

ROOT = Path(__file__).resolve().parents[2]


def load_path(relative: str) -> ModuleType:
    """Import a script that is not in a package (fuzz/ and benchmarks/ files)."""
    path = ROOT / relative
    name = "prove_" + path.stem
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _faces(snapshot: dict[str, Any], up: bool) -> Counter[str]:
    found: Counter[str] = Counter()
    hands = [h for s in snapshot.get("seats", []) for h in s.get("hands", [])]
    if snapshot.get("bank"):
        hands.append(snapshot["bank"])
    for hand in hands:
        for card in hand.get("cards", []):
            if bool(card.get("face_up")) == up and card.get("code"):
                found[str(card["code"]).upper().replace("10", "T")] += 1
    return found


def face_up(snapshot: dict[str, Any]) -> Counter[str]:
    return _faces(snapshot, True)


def face_down(snapshot: dict[str, Any]) -> Counter[str]:
    return _faces(snapshot, False)


CODES = frozenset(ALL_CARDS)


def card_codes(payload: Any) -> Counter[str]:
    """Every card code anywhere in a JSON value, keys included."""
    found: Counter[str] = Counter()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            code = value.upper().replace("10", "T")
            if code in CODES:
                found[code] += 1
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(k)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(payload)
    return found
