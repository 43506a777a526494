"""Money in integer half units (``2`` = one unit).

3:2 payouts and half-stake insurance stay exact without ``Fraction``
arithmetic on the hot path; amounts are converted at the edges only: in
(``to_half``), back to table units (``units``), into a message (``say``) and
into JSON (``out``).
"""

from __future__ import annotations

from fractions import Fraction

from .actions import Amount, IllegalAction


def to_half(amount: Amount | None, what: str, player: str | None = None, whole: bool = True) -> int:
    """An amount in half units; refuses non-numbers and (when ``whole``) halves."""
    if amount is None or isinstance(amount, bool) or not isinstance(amount, int | Fraction):
        raise IllegalAction(f"must give a number for the {what}", player=player)
    h = amount * 2
    if isinstance(h, Fraction):
        if h.denominator != 1:
            raise IllegalAction(f"cannot use {amount} for the {what}", player=player)
        h = int(h)
    if whole and h % 2:
        raise IllegalAction(f"must give whole units for the {what}", player=player)
    return h


def units(h: int) -> int | Fraction:
    """Half units back to table units (``int`` when whole)."""
    if 0 <= h < _UNITS_KNOWN:
        return _UNITS[h]
    return h // 2 if h % 2 == 0 else Fraction(h, 2)


#: ``units`` of the usual amounts, made once (``Fraction()`` is slow to build)
_UNITS_KNOWN = 4096
_UNITS: tuple[int | Fraction, ...] = tuple(
    h // 2 if h % 2 == 0 else Fraction(h, 2) for h in range(_UNITS_KNOWN)
)


def say(h: int) -> str:
    """Half units as a dealer reads them in a message: ``2.5``, never ``5/2``."""
    return str(h // 2) if h % 2 == 0 else f"{'-' if h < 0 else ''}{abs(h) // 2}.5"


def out(h: int) -> int | float:
    """Half units for JSON output: ``7.5`` is exact in binary floating point."""
    return h // 2 if h % 2 == 0 else h / 2
