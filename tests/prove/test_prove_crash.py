"""The short crash test: SIGKILLs mid-game and mid-journal-write, a power cut, damaged files.

The long run is ``benchmarks/crash.py --kills 300 --jobs 2`` (figures in
docs/reliability.md).
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from prove_util import load_path

from controller.journal import Journal, JournalBroken

crash = load_path("benchmarks/crash.py")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_killed_and_power_cut_games_finish_as_replay_and_damage_is_refused() -> None:
    report = crash.crash(kills=4, faults="light", presets=("house",), kills_per_game=4,
                         deals_per_game=3, power_cuts=1, damage=True, seed=5)
    figures = report.as_dict()
    assert report.ok, (report.errors, report.finished_different, figures)
    assert report.kills == 4 and report.finished_equal == 1
    assert report.kills_in_write >= 1, "at least one kill must land on a journal write"
    assert report.damage["wrong"] == 0 and report.damage["unclear"] == 0
    # deliberate edits are always found (flip_byte may land in unused space: harmless)
    for how in ("edit_row", "delete_last_row", "garbage_file"):
        assert report.damage[f"{how}:refused_clearly"] == 1, figures
    assert any("last consistent point" in line for line in report.refusal_examples)


def test_a_damaged_sqlite_page_is_refused_in_words_not_a_traceback(tmp_path: Path) -> None:
    """Found by the crash test: a flipped byte in a data page raised sqlite3.DatabaseError."""
    path = tmp_path / "j.sqlite"
    with Journal(path, durable=False) as journal:
        journal.start_game({"preset": "house", "players": ["Ann", "Ben"], "seed": 1})
        for i in range(200):
            journal.append({"type": "PlaceStake", "player": "Ann", "amount": i % 5 + 1})
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    data = bytearray(path.read_bytes())
    rng = random.Random(2)
    refused = 0
    for attempt in range(30):
        damaged = bytearray(data)
        for _ in range(8):
            damaged[rng.randrange(4096, len(damaged))] ^= 0xFF
        copy = tmp_path / f"damaged-{attempt}.sqlite"  # a refused open may leave a lock
        copy.write_bytes(bytes(damaged))
        try:
            Journal(copy).close()
        except JournalBroken as exc:
            assert "journal" in str(exc) and "\n" not in str(exc)
            refused += 1
    assert refused >= 20
