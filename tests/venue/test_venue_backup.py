"""Journal backups: made while a simulated table plays, equal to the journal.

``pontoon-table run`` plays a game against ``sim-hw`` (bots at both seats, the
simulated dealer) with ``[backup] dir`` set; meanwhile ``pontoon-table backup``
copies the live journal several times.  Every copy must hold exactly the
journal's rows up to the copy's last row (read from the journal itself with a
read-only connection), and its hash chain must verify.  At the game's end the
table writes its own copy, which holds the finished game.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from venue_simhw import SimHw

from controller.backup import AutoBackup, BackupError, backup_journal
from controller.cli import main
from controller.commands.history import export
from controller.journal import Journal

Rows = list[tuple[Any, ...]]


def rows_of(path: Path, upto: int | None = None) -> Rows:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        query = "SELECT seq, game, kind, body, meta, at, hash FROM rows"
        if upto is None:
            return db.execute(query + " ORDER BY seq").fetchall()
        return db.execute(query + " WHERE seq <= ? ORDER BY seq", (upto,)).fetchall()
    finally:
        db.close()


def _rows_so_far(path: Path) -> int:
    """Rows in a journal ``run`` may not have created yet (file or table still missing)."""
    if not path.exists():
        return 0
    try:
        return len(rows_of(path))
    except sqlite3.OperationalError:  # the file is there, its tables not yet
        return 0


def wait_for(what: str, ready: Any, timeout: float, proc: subprocess.Popen[str]) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = ready()
        if value:
            return value
        assert proc.poll() is None, f"the table exited while waiting for {what}"
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.slow
def test_backups_during_a_game_equal_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = SimHw(tmp_path, "--bots", "Ann=stick17,Ben=stick16")
    config = sim.config
    config.write_text(config.read_text() + '\n[backup]\ndir = "auto"\n')
    journal = tmp_path / "table.journal.sqlite"
    err = (tmp_path / "run.err").open("w")
    table = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--no-qr"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=err, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        copies: list[Path] = []
        for least in (5, 15, 25):  # three copies at three points of the game
            wait_for(f"{least} journal rows",
                     lambda n=least: _rows_so_far(journal) >= n, 120, table)
            assert main(["backup", "--config", str(config), "--to", str(tmp_path / "manual")]) == 0
            printed = capsys.readouterr().out
            copies.append(Path(printed.split(":")[0]))
            assert "chain verified" in printed
        auto = wait_for("the backup at the game's end",
                        lambda: sorted((tmp_path / "auto").glob("*.sqlite")), 400, table)
    finally:
        table.send_signal(signal.SIGINT)
        try:
            table.wait(20)
        except subprocess.TimeoutExpired:
            table.kill()
            table.wait(5)
        err.close()
        sim.stop()
    for copy in [*copies, auto[0]]:
        backed = rows_of(copy)
        assert backed, copy
        assert backed == rows_of(journal, upto=backed[-1][0]), copy
        with Journal(copy) as kept:  # opening verifies the chain
            assert kept.head == backed[-1][0]
    assert len(rows_of(copies[-1])) >= 25
    with Journal(auto[0]) as kept:
        assert export(kept, 1)["finished"] is True


def test_the_table_backs_up_once_when_the_game_ends(tmp_path: Path) -> None:
    """A game that is over in the first snapshot (a resumed table) is not a game's end;
    the turn from playing to over is, once."""
    journal = tmp_path / "t.sqlite"
    with Journal(journal) as j:
        j.start_game({"players": ["Ann", "Ben"]})
    made: list[Path] = []

    async def play() -> None:
        backups = AutoBackup(journal, tmp_path / "copies", done=made.append)
        for over in (True, False, False, True, True):
            backups.on_snapshot({"game_over": over})
            await asyncio.gather(*backups.tasks)

    asyncio.run(play())
    assert len(made) == 1
    assert rows_of(made[0]) == rows_of(journal)


def test_a_damaged_journal_is_not_kept_as_a_backup(tmp_path: Path) -> None:
    journal = tmp_path / "t.sqlite"
    with Journal(journal) as j:
        j.start_game({"players": ["Ann", "Ben"]})
        j.note({"event": "one"})
    with sqlite3.connect(journal) as db:
        db.execute("UPDATE rows SET body = '{}' WHERE seq = 2")
    with pytest.raises(BackupError, match="does not verify, backup not kept"):
        backup_journal(journal, tmp_path / "copies")
    assert list((tmp_path / "copies").iterdir()) == []


def test_backup_says_when_there_is_no_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["backup", "--journal", str(tmp_path / "none.sqlite"), "--to", str(tmp_path)])
    assert code == 1
    assert capsys.readouterr().err == (
        f"pontoon-table backup: no journal at {tmp_path / 'none.sqlite'}\n")


def test_the_backup_folder_is_read_beside_the_config(tmp_path: Path) -> None:
    from controller.config import ConfigError, load_config

    seats = '[[seats]]\nname = "Ann"\n[[seats]]\nname = "Ben"\n'
    display = '[display]\ntoken = "a-long-secret"\n'
    config = tmp_path / "table.toml"
    config.write_text(seats + display + '[backup]\ndir = "copies"\n')
    assert load_config(config).backup.dir == tmp_path / "copies"
    config.write_text(seats + display)
    assert load_config(config).backup.dir is None
    config.write_text(seats + display + '[backup]\nfolder = "copies"\n')
    with pytest.raises(ConfigError, match=r"table.toml: backup.folder is not a known key"):
        load_config(config)
