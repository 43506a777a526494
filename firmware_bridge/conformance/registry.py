"""The list of checks: each one small function tied to one clause of the spec.

A check module decorates its functions with :func:`check`; the suite runs them
in registration order.  A check passes by returning, fails by raising
:class:`~firmware_bridge.conformance.probe.Fail` with a one-line reason, and
raises :class:`~firmware_bridge.conformance.probe.Skip` when the device lacks
what it needs (a capability, events in its log).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.conformance.probe import Probe

SHOE = "shoe"
BUS = "bus"
BOTH = frozenset({SHOE, BUS})

CheckFn = Callable[[Probe], None]


@dataclass(frozen=True, slots=True)
class Check:
    clause: str
    """the section of docs/protocol.md it checks, e.g. ``5.1``"""
    name: str
    """a stable short name, e.g. ``seq.duplicate``"""
    title: str
    """what a pass means, in one line"""
    fn: CheckFn
    devices: frozenset[str]
    slow: bool = False
    """waits out the 2 s fail-safe silence"""


CHECKS: list[Check] = []


def check(
    clause: str,
    name: str,
    title: str,
    *,
    devices: frozenset[str] = BOTH,
    slow: bool = False,
) -> Callable[[CheckFn], CheckFn]:
    def register(fn: CheckFn) -> CheckFn:
        if any(c.name == name for c in CHECKS):
            raise ValueError(f"two checks named {name!r}")
        CHECKS.append(Check(clause, name, title, fn, frozenset(devices), slow))
        return fn

    return register


def clause_key(clause: str) -> tuple[int, ...]:
    return tuple(int(part) for part in clause.split("."))


def checks_for(device: str) -> list[Check]:
    """The checks for a device, in the spec's order (registration order within
    a section)."""
    return sorted((c for c in CHECKS if device in c.devices), key=lambda c: clause_key(c.clause))
