"""Run the checks against one device (or one bus) and report, check by check.

:func:`run_checks` opens the URL, says HELLO once to see who is there, then
runs every selected check in registration order, each from a fresh session,
and hands each outcome to ``report`` as soon as it is known (a maker watching
a slow board sees progress).  Nothing here prints; the CLI does.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import serial

# importing the check modules registers their checks (run in the spec's order)
from firmware_bridge.conformance import (  # noqa: F401
    checks_commands,
    checks_device,
    checks_events,
    checks_framing,
    checks_link,
    checks_session,
)
from firmware_bridge.conformance.probe import Fail, Probe, Skip
from firmware_bridge.conformance.registry import BUS, CHECKS, SHOE, Check, checks_for
from firmware_bridge.wire import (
    ADDRESS_DEALER,
    ADDRESS_DIRECT,
    Hello,
    HelloReply,
    MsgType,
    WireError,
)

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"


@dataclass(frozen=True, slots=True)
class Outcome:
    check: Check
    status: str
    reason: str = ""


class SuiteError(Exception):
    """The suite cannot start (unknown check name, no address, port will not open)."""


def bus_addresses(seats: int, dealer: bool) -> tuple[int, ...]:
    if not 0 <= seats <= 14:
        raise SuiteError(f"--seats must be 0-14 (seat panel addresses 1-14), not {seats}")
    addresses = tuple(range(1, seats + 1)) + ((ADDRESS_DEALER,) if dealer else ())
    if not addresses:
        raise SuiteError("no panel to check: give --seats N and/or leave the dealer panel in")
    return addresses


def select(device: str, only: Iterable[str] = (), *, slow: bool = True) -> list[Check]:
    """The checks for a device kind, optionally only those named (or whose
    clause is named: ``5.1`` selects every check of section 5.1)."""
    if device not in (SHOE, BUS):
        raise SuiteError(f"device must be {SHOE!r} or {BUS!r}, not {device!r}")
    chosen = checks_for(device)
    wanted = set(only)
    if wanted:
        known = {c.name for c in CHECKS} | {c.clause for c in CHECKS}
        unknown = sorted(wanted - known)
        if unknown:
            raise SuiteError(f"no check named {', '.join(unknown)} (see docs/conformance.md)")
        chosen = [c for c in chosen if c.name in wanted or c.clause in wanted]
    if not slow:
        chosen = [c for c in chosen if not c.slow]
    return chosen


def run_checks(
    url: str,
    device: str,
    *,
    addresses: tuple[int, ...] | None = None,
    target: int | None = None,
    only: Iterable[str] = (),
    slack: float = 0.03,
    slow: bool = True,
    baudrate: int = 115200,
    report: Callable[[Outcome], None] | None = None,
    identified: Callable[[HelloReply | None], None] | None = None,
) -> list[Outcome]:
    """Run the selected checks; every outcome is also passed to ``report``.

    ``addresses`` are the ones configured (the shoe's 0, or the panels on the
    bus); ``target`` is the one the device checks talk to (default the first).
    """
    chosen = select(device, only, slow=slow)
    if addresses is None:
        addresses = (ADDRESS_DIRECT,) if device == SHOE else bus_addresses(1, True)
    if target is None:
        target = addresses[0]
    elif target not in addresses:
        raise SuiteError(f"address {target} is not among the configured ones {list(addresses)}")
    try:
        probe = Probe.open(url, baudrate=baudrate, address=target, bus=device == BUS,
                           slack=slack, addresses=addresses)
    except (serial.SerialException, OSError, ValueError) as exc:
        raise SuiteError(f"cannot open {url}: {exc}") from None
    outcomes: list[Outcome] = []

    def note(outcome: Outcome) -> None:
        outcomes.append(outcome)
        if report is not None:
            report(outcome)

    with contextlib.closing(probe):
        hello, answered = _identify(probe)
        if identified is not None:
            identified(hello)
        for chk in chosen:
            if not answered:
                note(Outcome(chk, FAIL, f"nothing answers HELLO at address {target}"))
                continue
            note(_run_one(probe, chk, target))
    return outcomes


def _identify(probe: Probe) -> tuple[HelloReply | None, bool]:
    """Who is there: the HELLO_REPLY, and whether anything answered at all (a
    device whose HELLO_REPLY is wrong still gets every check run, so the
    report says what is wrong with it)."""
    probe.drain(0.05)
    try:
        return probe.hello(tries=5), True
    except Fail:
        pass
    probe.send(MsgType.HELLO, Hello(nonce=probe.new_nonce()).encode(), seq=0, ack=0, flags=0)
    return None, bool(probe.collect(0.25))


def _run_one(probe: Probe, chk: Check, address: int) -> Outcome:
    probe.address = address
    probe.auto_ack = True
    try:
        probe.drain(0.02)
        chk.fn(probe)
    except Fail as exc:
        return Outcome(chk, FAIL, str(exc))
    except Skip as exc:
        return Outcome(chk, SKIP, str(exc))
    except (WireError, IndexError) as exc:  # the device's frame did not parse
        return Outcome(chk, FAIL, f"a reply from the device did not parse: {exc}")
    except (serial.SerialException, OSError) as exc:
        return Outcome(chk, FAIL, f"the port failed: {exc}")
    return Outcome(chk, PASS)


def format_outcome(outcome: Outcome) -> str:
    c = outcome.check
    line = f"§{c.clause:<4} {c.name:<24} {outcome.status}"
    if outcome.status == FAIL:
        line += f"  {outcome.reason}"
    elif outcome.status == SKIP:
        line += f"  ({outcome.reason})"
    return line


def format_identity(hello: HelloReply | None) -> str:
    if hello is None:
        return "device: no valid HELLO_REPLY"
    fw = ".".join(str(n) for n in hello.firmware)
    kind = {1: "shoe", 2: f"seat panel {hello.seat}", 3: "dealer panel"}.get(
        hello.kind, f"kind {hello.kind}")
    return (
        f"device: {kind}, protocol {hello.major}.{hello.minor}, firmware {fw},"
        f" hardware rev {hello.hardware_rev}, id {hello.unique_id.hex()},"
        f" boot {hello.boot_id:#010x}, {hello.last_event_no} event(s) this boot"
    )


def summary(outcomes: list[Outcome]) -> str:
    count = {s: sum(o.status == s for o in outcomes) for s in (PASS, FAIL, SKIP)}
    verdict = "CONFORMS" if outcomes and not count[FAIL] else "DOES NOT CONFORM"
    return (
        f"{len(outcomes)} checks: {count[PASS]} passed, {count[FAIL]} failed,"
        f" {count[SKIP]} skipped: {verdict}"
    )
