"""Soak: many bot-played deals through the whole simulated table under faults.

Run (the CI's short version is ``tests/prove/test_prove_soak.py``)::

    .venv/bin/python benchmarks/soak.py --deals 2000 --faults heavy

How it proves "nothing lost, nothing doubled, nothing wrong": for every preset
in turn a bot plays a game with the rules engine alone, choosing at random
among the legal decisions; its decisions are written down as a scenario file
(SCENARIO.md).  That scenario is then played through the full stack (emulated
shoe and panels over ptys with injected faults, the simulated camera and the
recogniser, the drivers, the table core and its journal: ``play_scenario``),
and every deal's result is compared with ``replay`` of the same scenario.  A
lost card-out or button press stalls or changes the game; a doubled one deals
or decides twice: both show up as a diverging deal or a run that never ends.
On top, the physical cards pulled from the shoe must equal the cards in the
results (one engine card per physical card), and no public snapshot may show a
face-down card.

Every scenario runs in this one process, so resident memory and open file
descriptors are sampled after each and their slope over the run is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import logging
import os
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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
    GameState,
    KittyNeed,
    LegalAction,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    ShootNeed,
    StakeNeed,
    StartDeal,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending,
)
from controller.scenario import load_scenario, run_scenario

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]


#: where a failed game's last trace lines are written (one file per failed game)
TRACE_DIR = Path("soak-failures")
#: the loggers whose debug lines tell a game's story: people, panels, table, links
TRACED = ("controller", "hardware_sim", "firmware_bridge", "soak")
trace_log = logging.getLogger("soak")


class FlightRecorder(logging.Handler):
    """The last lines of one game, kept in memory and written out only if it fails.

    A stalled game under heavy faults is a story of presses, refusals, reboots
    and pauses spread over seconds; one failure line cannot tell it.  Records
    are kept unformatted (cheap), so a passing game costs a deque append per line.
    """

    def __init__(self, keep: int = 4000) -> None:
        super().__init__(logging.DEBUG)
        self.records: collections.deque[logging.LogRecord] = collections.deque(maxlen=keep)
        self.started = time.monotonic()
        self.setFormatter(logging.Formatter("%(relativeCreated)10.0f %(threadName)-10.10s "
                                            "%(name)-28.28s %(message)s"))
        self._saved: list[tuple[logging.Logger, int, bool]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def __enter__(self) -> FlightRecorder:
        for name in TRACED:
            logger = logging.getLogger(name)
            self._saved.append((logger, logger.level, logger.propagate))
            logger.setLevel(logging.DEBUG)
            logger.propagate = False  # the story goes to the recorder, not the console
            logger.addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        for logger, level, propagate in self._saved:
            logger.removeHandler(self)
            logger.setLevel(level)
            logger.propagate = propagate
        self._saved.clear()

    def write(self, path: Path, header: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = [header, ""] + [self.format(r) for r in self.records]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# --- a bot's game, written down as a scenario ---------------------------------------------


def _amount(rng: random.Random, la: LegalAction, cap: int = 6) -> int | Fraction:
    assert la.minimum is not None
    low = Fraction(la.minimum)
    high = Fraction(la.maximum) if la.maximum is not None else low + cap
    high = min(high, low + cap)  # a bot stakes modestly: panels count up one press at a time
    step = Fraction(1, 2) if la.halves else Fraction(1)
    value = low + step * rng.randint(0, max(int((high - low) / step), 0))
    return int(value) if value.denominator == 1 else value


def _num(value: int | Fraction) -> int | str:
    return value if isinstance(value, int) else str(value)


def _family(state: GameState, kind: type, **pinned: Any) -> list[LegalAction]:
    return [
        la for la in legal_actions(state)
        if la.kind is kind and all(getattr(la, k) == v for k, v in pinned.items())
    ]


def bot_scenario(preset: str, seed: int, deals: int, players: int = 3) -> dict[str, Any]:
    """A random but legal game of ``deals`` deals, as a scenario dictionary."""
    rng = random.Random(f"{preset}-{seed}")
    rules = load_ruleset(preset)
    names = PLAYERS[:players]
    banker = None if rules.house_dealer else names[-1]
    state = new_game(rules, names, banker=banker, seed=seed)
    specs: list[dict[str, Any]] = []
    spec: dict[str, Any] = {}
    opened = False
    while True:
        need = pending(state)
        action: Any
        if isinstance(need, GameOver):
            break
        if isinstance(need, BetweenDeals):
            if not opened:
                if len(specs) >= deals:
                    break
                spec = {"stakes": {}, "actions": {}}
                specs.append(spec)
            opened = False
            action = StartDeal()
        elif isinstance(need, KittyNeed):
            if len(specs) >= deals:
                break
            spec = {"stakes": {}, "actions": {}}
            specs.append(spec)
            opened = True  # the kitty goes with the deal it starts
            (la,) = _family(state, PutKitty)
            action = PutKitty(_amount(rng, la))
            spec["kitty"] = _num(action.amount)
        elif isinstance(need, CardNeed):
            action = DealCard(state.pack.peek())
        elif isinstance(need, StakeNeed):
            (la,) = _family(state, PlaceStake, player=need.player)
            action = PlaceStake(need.player, _amount(rng, la))
            spec["stakes"][need.player] = _num(action.amount)
        elif isinstance(need, ShootNeed):
            options = _family(state, PlaceShoot, player=need.player)
            amount: int | Fraction = 0
            if options and rng.random() < 0.3:
                amount = _amount(rng, options[0], cap=2)
            action = PlaceShoot(need.player, amount)
            spec.setdefault("shoots", {})[need.player] = _num(amount)
        elif isinstance(need, DecisionNeed):
            la = rng.choice(_family(state, Decide, player=need.player))
            amount_or_none = _amount(rng, la, cap=3) if la.minimum is not None else None
            assert la.word is not None
            action = Decide(need.player, la.word, amount_or_none)
            word = la.word if amount_or_none is None else f"{la.word} {_num(amount_or_none)}"
            if not (word == "stick" and "even-money" in need.words):
                # a pontoon facing the dealer's ace that plays on takes no word
                # in a scenario (SCENARIO.md); the engine's `stick` there is it
                spec["actions"].setdefault(need.player, []).append(word)
        elif isinstance(need, BankNeed):
            word = rng.choice(list(need.words))
            action = BankDecide(word)
            spec.setdefault("bank", []).append(word)
        else:  # pragma: no cover - every need is listed above
            raise AssertionError(need)
        apply(state, action)
    doc: dict[str, Any] = {"rules": preset, "seed": seed, "players": names, "deals": specs}
    if banker is not None:
        doc["banker"] = banker
    return doc


# --- measuring a run ---------------------------------------------------------------------


def rss_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of y over x (0 with fewer than 2 points)."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0


def result_cards(result: dict[str, Any]) -> int:
    total = 0
    for deal in result["deals"]:
        total += len(deal.get("bank", {}).get("cards", []))
        total += sum(len(h.get("cards", [])) for h in deal.get("hands", []))
    return total


@dataclass
class Watch:
    """Follows one run through ``play_scenario``'s hook: pauses, leaks, the rig."""

    rig: Any = None
    table: Any = None
    hold_started: float | None = None
    hold_reasons: set[str] = field(default_factory=set)
    worst_pause: float = 0.0
    worst_reasons: tuple[str, ...] = ()
    pauses: Counter[str] = field(default_factory=Counter)
    snapshots_checked: int = 0
    hidden_cards_seen: int = 0
    leaks: list[str] = field(default_factory=list)
    _generation: int = -1
    _seen_state: tuple[Any, ...] = ()

    async def __call__(self, run: Any) -> None:
        self.rig, self.table = run.rig, run.table
        now = time.monotonic()
        machine = run.core.machine
        if trace_log.isEnabledFor(logging.DEBUG):
            core = run.core
            state = (core.phase(), str(core.need()), tuple(sorted(machine.holds)),
                     bool(core.in_flight), core.journal.head, core.gate_locked())
            if state != self._seen_state:
                self._seen_state = state
                trace_log.debug("table: phase %s, need %s, holds %s, in flight %s, "
                                "journal head %d, gate %s", state[0], state[1],
                                list(state[2]) or "none", state[3], state[4],
                                "locked" if state[5] else "open")
        if machine.running:
            if self.hold_started is not None:
                pause = now - self.hold_started
                if pause > self.worst_pause:
                    self.worst_pause, self.worst_reasons = pause, tuple(sorted(self.hold_reasons))
                self.hold_started = None
                self.hold_reasons = set()
        else:
            if self.hold_started is None:
                self.hold_started = now
                for reason in machine.holds:
                    self.pauses[reason] += 1
            self.hold_reasons |= set(machine.holds)
        if run.table.generation != self._generation:
            self._generation = run.table.generation
            self._check_public_view(run.table.snapshot())

    def _check_public_view(self, snapshot: dict[str, Any]) -> None:
        from dealer_display.views import public_view

        up, down = faces(snapshot)
        shown = card_codes(public_view(snapshot))
        self.snapshots_checked += 1
        self.hidden_cards_seen += sum(down.values())
        if shown - up:
            self.leaks.append(f"public view shows {dict(shown - up)} (face down: {dict(down)})")


def faces(snapshot: dict[str, Any]) -> tuple[Counter[str], Counter[str]]:
    up: Counter[str] = Counter()
    down: Counter[str] = Counter()
    hands = [h for s in snapshot.get("seats", []) for h in s.get("hands", [])]
    if snapshot.get("bank"):
        hands.append(snapshot["bank"])
    for hand in hands:
        for card in hand.get("cards", []):
            if card.get("code"):
                code = str(card["code"]).upper().replace("10", "T")
                (up if card.get("face_up") else down)[code] += 1
    return up, down


def card_codes(payload: Any) -> Counter[str]:
    from dealer_display.cards_svg import ALL_CARDS

    codes = frozenset(ALL_CARDS)
    found: Counter[str] = Counter()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            code = value.upper().replace("10", "T")
            if code in codes:
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


@dataclass
class SoakReport:
    deals: int = 0
    scenarios: int = 0
    diverging_deals: int = 0
    diverging: list[str] = field(default_factory=list)
    card_mismatches: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    faults: Counter[str] = field(default_factory=Counter)
    reboots: Counter[str] = field(default_factory=Counter)
    pauses: Counter[str] = field(default_factory=Counter)
    link: Counter[str] = field(default_factory=Counter)
    worst_pause: float = 0.0
    worst_pause_reasons: tuple[str, ...] = ()
    snapshots_checked: int = 0
    hidden_cards_seen: int = 0
    leaks: list[str] = field(default_factory=list)
    samples: list[tuple[int, int, int]] = field(default_factory=list)  # deals, rss kB, fds
    seconds: float = 0.0
    by_preset: Counter[str] = field(default_factory=Counter)

    @property
    def ok(self) -> bool:
        return not (self.diverging or self.card_mismatches or self.failures or self.leaks)

    def flatness(self) -> dict[str, float]:
        """Slopes over the second half of the run (the first half warms caches up)."""
        half = self.samples[len(self.samples) // 2 :]
        return {
            "rss_kb_per_100_deals": 100 * slope([(d, r) for d, r, _ in half]),
            "fds_per_100_deals": 100 * slope([(d, f) for d, _, f in half]),
            "rss_kb_first": self.samples[0][1] if self.samples else 0,
            # where the second half starts: "flat" reads as half == last
            "rss_kb_half": half[0][1] if half else 0,
            "rss_kb_last": self.samples[-1][1] if self.samples else 0,
            "fds_first": self.samples[0][2] if self.samples else 0,
            "fds_last": self.samples[-1][2] if self.samples else 0,
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "deals": self.deals,
            "scenarios": self.scenarios,
            "deals_by_preset": dict(self.by_preset),
            "diverging_deals": self.diverging_deals,
            "card_mismatches": len(self.card_mismatches),
            "failures": self.failures[:10],
            "faults_injected": dict(self.faults),
            "device_reboots": dict(self.reboots),
            "table_pauses_by_reason": dict(self.pauses),
            "link": dict(self.link),
            "worst_pause_s": round(self.worst_pause, 3),
            "worst_pause_reasons": list(self.worst_pause_reasons),
            "public_snapshots_checked": self.snapshots_checked,
            "face_down_cards_seen": self.hidden_cards_seen,
            "public_leaks": len(self.leaks),
            "memory": {k: round(v, 2) for k, v in self.flatness().items()},
            "seconds": round(self.seconds, 1),
            "deals_per_minute": round(60 * self.deals / self.seconds, 1) if self.seconds else 0,
        }


def _link_counters(table: Any) -> dict[str, int]:
    """Link figures from the drivers (what the host saw of the faults)."""
    out: Counter[str] = Counter()
    for device in _devices(table):
        counters = getattr(device, "counters", None)
        if counters is None:
            continue
        for key in ("crc_errors", "bad_frames", "retransmissions", "duplicates", "link_downs",
                    "duplicate_events", "events_lost", "events_delivered"):
            out[key] += int(getattr(counters, key, 0) or 0)
    return dict(out)


def _devices(table: Any) -> list[Any]:
    found = []
    for name in ("shoe", "bus"):
        device = getattr(table, name, None) or getattr(table, "_" + name, None)
        if device is None:
            continue
        found.append(device)
        sessions = getattr(device, "sessions", None) or getattr(device, "_sessions", None)
        if isinstance(sessions, dict):
            found += list(sessions.values())
        session = getattr(device, "session", None) or getattr(device, "_session", None)
        if session is not None:
            found.append(session)
    return found


async def _play(path: Path, faults: str, watch: Watch) -> dict[str, Any]:
    from hardware_sim.table.scenario_run import play_scenario

    return await play_scenario(path, faults=faults, hook=watch)


def soak_one(doc: dict[str, Any], faults: str, report: SoakReport, workdir: Path,
             trace_dir: Path | None = TRACE_DIR) -> None:
    path = workdir / f"soak-{doc['rules']}-{doc['seed']}.json"
    path.write_text(json.dumps(doc))
    expected = run_scenario(load_scenario(path))
    watch = Watch()
    label = f"{doc['rules']} seed {doc['seed']}"
    recorder = FlightRecorder()
    try:
        with recorder:
            got = asyncio.run(_play(path, faults, watch))
    except Exception as exc:  # the soak counts every failure and goes on
        line = f"{label}: {type(exc).__name__}: {exc}"
        if trace_dir is not None:
            trace = trace_dir / f"{doc['rules']}-{doc['seed']}.log"
            recorder.write(trace, line + "\n\nscenario: " + json.dumps(doc))
            line += f" (trace: {trace})"
        report.failures.append(line)
        return
    finally:
        path.unlink()
    report.scenarios += 1
    n = len(expected["deals"])
    report.deals += n
    report.by_preset[doc["rules"]] += n
    for i, (want, have) in enumerate(zip(expected["deals"], got["deals"], strict=False)):
        if want != have:
            report.diverging_deals += 1
            report.diverging.append(f"{label}, deal {i + 1}: {have} != {want}")
    if len(got["deals"]) != n or got["balances"] != expected["balances"]:
        report.diverging.append(f"{label}: {len(got['deals'])} deals / balances {got['balances']}")
        report.diverging_deals += abs(len(got["deals"]) - n)
    if watch.rig is not None:
        shoe = watch.rig.world.shoe
        if shoe.cards_out != result_cards(got):
            report.card_mismatches.append(
                f"{label}: {shoe.cards_out} cards left the shoe, {result_cards(got)} were dealt"
            )
        report.faults.update({k: v for k, v in watch.rig.counters.as_dict().items() if v})
        report.reboots["shoe"] += watch.rig.shoe.reboots
        report.reboots["panels"] += sum(p.reboots for p in watch.rig.panels.panels.values())
    if watch.table is not None:
        report.link.update(_link_counters(watch.table))
    report.pauses.update(watch.pauses)
    if watch.worst_pause > report.worst_pause:
        report.worst_pause, report.worst_pause_reasons = watch.worst_pause, watch.worst_reasons
    report.snapshots_checked += watch.snapshots_checked
    report.hidden_cards_seen += watch.hidden_cards_seen
    report.leaks += watch.leaks


def soak(
    deals: int,
    faults: str = "heavy",
    presets: tuple[str, ...] = tuple(PRESETS),
    deals_per_game: int = 8,
    seed: int = 1,
    progress: bool = False,
) -> SoakReport:
    report = SoakReport()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        game = 0
        while report.deals < deals:
            preset = presets[game % len(presets)]
            doc = bot_scenario(preset, seed * 10_000 + game, min(deals_per_game,
                                                                 deals - report.deals))
            game += 1
            if not doc["deals"]:
                continue
            before = report.deals
            soak_one(doc, faults, report, Path(tmp))
            if report.deals == before and report.failures:
                report.deals += 0  # a failed game adds no deals; stop after too many
                if len(report.failures) > 5:
                    break
            report.samples.append((report.deals, rss_kb(), open_fds()))
            if progress:
                print(
                    f"{report.deals:5d} deals  {time.monotonic() - started:7.1f} s  "
                    f"rss {report.samples[-1][1] / 1024:.1f} MB  fds {report.samples[-1][2]}  "
                    f"diverging {report.diverging_deals}  failures {len(report.failures)}",
                    file=sys.stderr, flush=True,
                )
    report.seconds = time.monotonic() - started
    return report


def merge(reports: list[SoakReport]) -> SoakReport:
    """One report from several workers (memory samples: the worst worker's slope counts)."""
    total = SoakReport()
    for r in reports:
        total.deals += r.deals
        total.scenarios += r.scenarios
        total.diverging_deals += r.diverging_deals
        for name in ("diverging", "card_mismatches", "failures", "leaks"):
            getattr(total, name).extend(getattr(r, name))
        for name in ("faults", "reboots", "pauses", "link", "by_preset"):
            getattr(total, name).update(getattr(r, name))
        if r.worst_pause > total.worst_pause:
            total.worst_pause, total.worst_pause_reasons = r.worst_pause, r.worst_pause_reasons
        total.snapshots_checked += r.snapshots_checked
        total.hidden_cards_seen += r.hidden_cards_seen
        total.seconds = max(total.seconds, r.seconds)
    worst = max(reports, key=lambda r: r.flatness()["rss_kb_per_100_deals"])
    total.samples = worst.samples
    return total


def _worker(args: tuple[int, str, tuple[str, ...], int, int, bool]) -> SoakReport:
    return soak(*args)


def soak_parallel(
    deals: int, faults: str, presets: tuple[str, ...], deals_per_game: int, seed: int,
    jobs: int, progress: bool,
) -> SoakReport:
    """``jobs`` independent tables in their own processes (the sim mostly waits)."""
    if jobs <= 1:
        return soak(deals, faults, presets, deals_per_game, seed, progress)
    from concurrent.futures import ProcessPoolExecutor

    share = [deals // jobs + (1 if i < deals % jobs else 0) for i in range(jobs)]
    work = [(n, faults, presets, deals_per_game, seed * 100 + i, progress and i == 0)
            for i, n in enumerate(share)]
    with ProcessPoolExecutor(jobs) as pool:
        return merge(list(pool.map(_worker, work)))


def replay_game(game: str, faults: str, deals_per_game: int, repeat: int) -> int:
    """The same bot game (same decisions, same shuffles) again; faults and timing
    differ from run to run, so a rare stall may take many repeats to show again."""
    preset, _, seed = game.partition(":")
    doc = bot_scenario(preset, int(seed), deals_per_game)
    report = SoakReport()
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        for i in range(repeat):
            before = len(report.failures)
            soak_one(doc, faults, report, Path(tmp))
            outcome = report.failures[-1] if len(report.failures) > before else "ok"
            print(f"{i + 1}/{repeat}: {outcome}", file=sys.stderr, flush=True)
    print(json.dumps(report.as_dict(), indent=2))
    return 0 if report.ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--faults", default="heavy")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--deals-per-game", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="tables played side by side")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--game", metavar="PRESET:SEED",
                        help="play one game of an earlier run again (e.g. a failed one)")
    parser.add_argument("--repeat", type=int, default=1, help="with --game: how many times")
    args = parser.parse_args(argv)
    if args.game:
        return replay_game(args.game, args.faults, args.deals_per_game, args.repeat)
    report = soak_parallel(
        args.deals, args.faults, tuple(args.presets.split(",")), args.deals_per_game, args.seed,
        args.jobs, progress=not args.quiet,
    )
    print(json.dumps(report.as_dict(), indent=2))
    for line in (report.diverging + report.card_mismatches + report.failures + report.leaks)[:20]:
        print("PROBLEM:", line[:400], file=sys.stderr)
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
