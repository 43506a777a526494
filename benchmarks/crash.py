"""Crash and power-cut test: SIGKILL the table mid-game, damage its journal on disk.

Run (the CI's short version is ``tests/prove/test_prove_crash.py``)::

    .venv/bin/python benchmarks/crash.py --kills 300 --faults light --jobs 2

Three parts, each against bot-played games of every preset (the scenarios of
``benchmarks/soak.py``) played by ``pontoon-table sim --scenario --journal``:

1. **Kills.**  The controller process is SIGKILLed again and again, half the
   time at a random moment after it made progress, half the time the instant
   its journal's write-ahead log grows (inside a journal write and its fsync).
   Each restart on the same journal must resume, and the game's final ledger
   must equal ``replay`` of the same decisions.
2. **Power cuts.**  While a game runs, the journal files are copied at random
   moments, unsynchronised (what a disk may hold when the power goes).  A
   table started on such a copy must either finish with the right ledger or
   refuse to start with a clear message; with ``--recover`` it must then
   finish with the right ledger.
3. **Damage.**  A finished journal is truncated, has a byte flipped, a row
   edited or its last row deleted.  The table must refuse to start (exit 1,
   one message naming the last consistent point) or, where SQLite's own
   structure hides the damage, produce exactly the right ledger: never a
   silently different game.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from soak import bot_scenario  # noqa: E402

from controller.rules import PRESETS  # noqa: E402
from controller.scenario import load_scenario, run_scenario  # noqa: E402

RUN_TIMEOUT = 240.0


@dataclass
class CrashReport:
    games: int = 0
    kills: int = 0
    kills_in_write: int = 0
    restarts: int = 0
    finished_equal: int = 0
    finished_different: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    power_cuts: Counter[str] = field(default_factory=Counter)
    damage: Counter[str] = field(default_factory=Counter)
    refusal_examples: list[str] = field(default_factory=list)
    resume_seconds: list[float] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return (
            not self.finished_different
            and not self.errors
            and not self.power_cuts["wrong"]
            and not self.damage["wrong"]
            and not self.damage["unclear"]
        )

    def as_dict(self) -> dict[str, Any]:
        resume = sorted(self.resume_seconds)
        return {
            "ok": self.ok,
            "games": self.games,
            "kills": self.kills,
            "kills_during_journal_write": self.kills_in_write,
            "restarts": self.restarts,
            "games_finished_equal_to_replay": self.finished_equal,
            "games_finished_different": len(self.finished_different),
            "errors": self.errors[:10],
            "power_cuts": dict(self.power_cuts),
            "damaged_journals": dict(self.damage),
            "refusal_examples": self.refusal_examples[:4],
            "restart_to_progress_s": {
                "median": round(resume[len(resume) // 2], 2) if resume else None,
                "max": round(resume[-1], 2) if resume else None,
            },
            "seconds": round(self.seconds, 1),
        }


#: where a game that failed (not killed) leaves its whole stderr
FAILURES = Path("crash-failures")


def _command(scenario: Path, journal: Path, faults: str, recover: bool = False) -> list[str]:
    cmd = [sys.executable, "-m", "controller.cli", "sim", "--scenario", str(scenario), "--json",
           "--compact", "--journal", str(journal), "--faults", faults]
    return [*cmd, "--recover"] if recover else cmd


def _start(cmd: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )


def _rows(journal: Path) -> int:
    if not journal.exists():
        return 0
    try:
        db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=0.2)
        try:
            return int(db.execute("SELECT COUNT(*) FROM rows").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return -1


def _kill(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()


def _finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        _kill(proc)
        return -1, "", "timed out"
    return proc.returncode, out, err


def kill_game(
    scenario: Path, expected: dict[str, Any], faults: str, kills: int, rng: random.Random,
    report: CrashReport, workdir: Path,
) -> None:
    """Kill one game ``kills`` times, then let it finish; compare with replay."""
    journal = workdir / f"{scenario.stem}.sqlite"
    wal = Path(str(journal) + "-wal")
    done = 0
    label = scenario.stem
    for _attempt in range(kills * 3 + 5):
        proc = _start(_command(scenario, journal, faults))
        started = time.monotonic()
        before = _rows(journal)
        deadline = started + 60
        while proc.poll() is None and _rows(journal) <= before and time.monotonic() < deadline:
            time.sleep(0.01)
        if proc.poll() is None and _rows(journal) > before:
            report.resume_seconds.append(time.monotonic() - started)
        if done >= kills or proc.poll() is not None:
            code, out, err = _finish(proc)
            if code != 0:
                report.errors.append(f"{label}: exit {code}: {_keep(label, err)}")
                return
            result = json.loads(out)
            if result == expected:
                report.finished_equal += 1
            else:
                report.finished_different.append(f"{label}: {result['balances']} != "
                                                 f"{expected['balances']}")
            return
        if done % 2 == 0:  # the instant the write-ahead log grows: inside a journal write
            size = _size(wal)
            until = time.monotonic() + 5
            while proc.poll() is None and _size(wal) == size and time.monotonic() < until:
                time.sleep(0.0005)
            report.kills_in_write += _size(wal) != size
        else:
            time.sleep(rng.uniform(0.0, 0.4))
        if proc.poll() is None:
            _kill(proc)
            done += 1
            report.kills += 1
            report.restarts += 1
        else:
            _kill(proc)
    report.errors.append(f"{label}: never finished after {done} kills")


def _keep(label: str, err: str) -> str:
    """A failed run's error line in full (it names the action and what the panel
    showed), with its whole stderr kept in ``FAILURES`` for the story before it."""
    FAILURES.mkdir(exist_ok=True)
    kept = FAILURES / f"{label}-{time.time():.3f}.stderr"
    kept.write_text(err)
    last = err.strip().splitlines()[-1] if err.strip() else ""
    return f"{last[:600]} (stderr: {kept})"


def _copy_unsynced(journal: Path, to: Path) -> None:
    """The journal files as a disk might hold them at a power cut (not atomic)."""
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(journal) + suffix)
        if src.exists():
            with contextlib.suppress(OSError):  # it may vanish at a checkpoint
                shutil.copyfile(src, Path(str(to) + suffix))


def power_cut_game(
    scenario: Path, expected: dict[str, Any], faults: str, cuts: int, rng: random.Random,
    report: CrashReport, workdir: Path,
) -> None:
    journal = workdir / f"{scenario.stem}-live.sqlite"
    proc = _start(_command(scenario, journal, faults))
    copies: list[Path] = []
    try:
        for i in range(cuts):
            time.sleep(rng.uniform(0.2, 1.5))
            if proc.poll() is not None:
                break
            copy = workdir / f"{scenario.stem}-cut{i}.sqlite"
            _copy_unsynced(journal, copy)
            copies.append(copy)
    finally:
        _finish(proc)
    for copy in copies:
        code, out, err = _finish(_start(_command(scenario, copy, faults)))
        if code == 0 and json.loads(out) == expected:
            report.power_cuts["resumed_equal"] += 1
            continue
        if code == 0:
            report.power_cuts["wrong"] += 1
            report.errors.append(f"{copy.name}: ran on with a different game")
            continue
        if code != 1 or len(err.strip().splitlines()) != 1:
            report.power_cuts["wrong"] += 1
            report.errors.append(f"{copy.name}: exit {code}: {_keep(copy.stem, err)}")
            continue
        report.power_cuts["refused_clearly"] += 1
        report.refusal_examples.append(err.strip())
        code, out, err = _finish(_start(_command(scenario, copy, faults, recover=True)))
        if code == 0 and json.loads(out) == expected:
            report.power_cuts["recovered_equal"] += 1
        else:
            report.power_cuts["wrong"] += 1
            report.errors.append(f"{copy.name} --recover: exit {code}: "
                                 f"{_keep(copy.stem + '-recover', err)}")


DAMAGES = ("truncate", "flip_byte", "edit_row", "delete_last_row", "garbage_file")


def damage_journal(path: Path, how: str, rng: random.Random) -> None:
    if how in ("edit_row", "delete_last_row"):
        db = sqlite3.connect(path)
        try:
            last = int(db.execute("SELECT MAX(seq) FROM rows").fetchone()[0])
            if how == "edit_row":
                seq = rng.randint(2, last)
                db.execute("UPDATE rows SET body=replace(body, '\"', '\"') || ' ' WHERE seq=?",
                           (seq,))
            else:
                db.execute("DELETE FROM rows WHERE seq=?", (last,))
            db.commit()
        finally:
            db.close()
        return
    data = bytearray(path.read_bytes())
    if how == "truncate":
        cut = rng.randint(len(data) // 4, len(data) - 1)
        path.write_bytes(bytes(data[: cut - cut % 512]))
    elif how == "flip_byte":
        i = rng.randrange(100, len(data))
        data[i] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))
    else:
        path.write_bytes(bytes(rng.randrange(256) for _ in range(4096)))


def damage_game(
    scenario: Path, expected: dict[str, Any], rng: random.Random, report: CrashReport,
    workdir: Path, kinds: tuple[str, ...] = DAMAGES,
) -> None:
    """Finish a game, checkpoint its journal into one file, damage it, restart."""
    good = workdir / f"{scenario.stem}-good.sqlite"
    code, out, err = _finish(_start(_command(scenario, good, "none")))
    if code != 0 or json.loads(out) != expected:
        report.errors.append(f"{scenario.stem}: the undamaged run failed: {_keep(good.stem, err)}")
        return
    db = sqlite3.connect(good)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    for how in kinds:
        bad = workdir / f"{scenario.stem}-{how}.sqlite"
        shutil.copyfile(good, bad)
        damage_journal(bad, how, rng)
        code, out, err = _finish(_start(_command(scenario, bad, "none")))
        lines = err.strip().splitlines()
        if code == 0:
            outcome = "harmless" if json.loads(out) == expected else "wrong"
        elif code == 1 and len(lines) == 1 and "journal" in lines[0]:
            outcome = "refused_clearly"
            report.refusal_examples.append(lines[0])
        else:
            outcome = "unclear"
            report.errors.append(f"{how}: exit {code}: {_keep(bad.stem, err)}")
        report.damage[outcome] += 1
        report.damage[f"{how}:{outcome}"] += 1


def crash(
    kills: int, faults: str = "light", presets: tuple[str, ...] = tuple(PRESETS),
    kills_per_game: int = 10, deals_per_game: int = 6, power_cuts: int = 3, damage: bool = True,
    seed: int = 1, progress: bool = False,
) -> CrashReport:
    report = CrashReport()
    started = time.monotonic()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="crash-") as tmp:
        workdir = Path(tmp)
        game = 0
        while report.kills < kills or (game < len(presets) and damage):
            preset = presets[game % len(presets)]
            doc = bot_scenario(preset, seed * 1000 + game, deals_per_game)
            scenario = workdir / f"crash-{preset}-{game}.json"
            scenario.write_text(json.dumps(doc))
            expected = run_scenario(load_scenario(scenario))
            game += 1
            report.games += 1
            if report.kills < kills:
                n = min(kills_per_game, kills - report.kills)
                kill_game(scenario, expected, faults, n, rng, report, workdir)
            if power_cuts:
                power_cut_game(scenario, expected, faults, power_cuts, rng, report, workdir)
            if damage and game <= len(presets):
                damage_game(scenario, expected, rng, report, workdir)
            if progress:
                print(f"{report.games:3d} games  {report.kills:4d} kills  "
                      f"{time.monotonic() - started:6.0f} s  equal {report.finished_equal}  "
                      f"errors {len(report.errors)}", file=sys.stderr, flush=True)
            if len(report.errors) > 5:
                break
    report.seconds = time.monotonic() - started
    return report


def _worker(args: tuple[int, str, tuple[str, ...], int, int, int, bool, int]) -> CrashReport:
    kills, faults, presets, per_game, deals, cuts, damage, seed = args
    return crash(kills, faults, presets, per_game, deals, cuts, damage, seed)


def merge(reports: list[CrashReport]) -> CrashReport:
    total = CrashReport()
    for r in reports:
        for name in ("games", "kills", "kills_in_write", "restarts", "finished_equal"):
            setattr(total, name, getattr(total, name) + getattr(r, name))
        for name in ("finished_different", "errors", "refusal_examples", "resume_seconds"):
            getattr(total, name).extend(getattr(r, name))
        total.power_cuts.update(r.power_cuts)
        total.damage.update(r.damage)
        total.seconds = max(total.seconds, r.seconds)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--faults", default="light")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--kills-per-game", type=int, default=10)
    parser.add_argument("--deals-per-game", type=int, default=6)
    parser.add_argument("--power-cuts", type=int, default=3, help="journal copies per game")
    parser.add_argument("--no-damage", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    presets = tuple(args.presets.split(","))
    if args.jobs <= 1:
        report = crash(args.kills, args.faults, presets, args.kills_per_game,
                       args.deals_per_game, args.power_cuts, not args.no_damage, args.seed,
                       progress=True)
    else:
        from concurrent.futures import ProcessPoolExecutor

        share = [args.kills // args.jobs + (1 if i < args.kills % args.jobs else 0)
                 for i in range(args.jobs)]
        work = [(n, args.faults, presets, args.kills_per_game, args.deals_per_game,
                 args.power_cuts, not args.no_damage and i == 0, args.seed * 100 + i)
                for i, n in enumerate(share)]
        with ProcessPoolExecutor(args.jobs) as pool:
            report = merge(list(pool.map(_worker, work)))
    print(json.dumps(report.as_dict(), indent=2))
    for line in (report.finished_different + report.errors)[:20]:
        print("PROBLEM:", line[:500], file=sys.stderr)
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
