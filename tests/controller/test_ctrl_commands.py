"""history and run: the organiser's export and the real table's start-up checks."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from ctrl_drive import drive, expected, new_core

from controller.cli import main
from controller.journal import Journal

SCENARIO = Path(__file__).parent.parent / "scenarios" / "house-split-transfer.json"


def journal_of_a_game(tmp_path: Path) -> Path:
    path = tmp_path / "table.sqlite"
    core = new_core(SCENARIO, Journal(path))
    drive(core, SCENARIO)
    core.journal.close()
    return path


def test_history_json_has_every_deal_hand_and_payment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = journal_of_a_game(tmp_path)
    assert main(["history", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    want = expected(SCENARIO)
    assert data["deals"] == want["deals"]
    assert data["balances"] == want["balances"]
    assert data["setup"]["players"] == ["Ann", "Bob", "Cat", "Dan"]
    cards = [a for a in data["actions"] if a["action"]["type"] == "DealCard"]
    assert cards and all(a["source"] == "camera" for a in cards)


def test_history_csv_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = journal_of_a_game(tmp_path)
    out = tmp_path / "game.csv"
    assert main(["history", str(path), "--format", "csv", "--out", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    hands = [r for r in rows if r["record"] == "hand"]
    payments = [r for r in rows if r["record"] == "payment"]
    want = expected(SCENARIO)
    assert len(hands) == sum(len(d["hands"]) for d in want["deals"])
    assert {r["person"]: int(r["net"]) for r in payments if r["deal"] == "1"} == want["deals"][0][
        "net"
    ]
    assert {r["person"]: int(r["net"]) for r in rows if r["record"] == "balance"} == want[
        "balances"
    ]


def test_history_refuses_a_missing_or_damaged_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", str(tmp_path / "none.sqlite")]) == 1
    assert "no journal" in capsys.readouterr().err
    path = journal_of_a_game(tmp_path)
    db = sqlite3.connect(path)
    db.execute("UPDATE rows SET body='{}' WHERE seq=9")
    db.commit()
    db.close()
    assert main(["history", str(path)]) == 1
    assert "last consistent point is row 8" in capsys.readouterr().err


CONFIG = """
[table]
name = "Table 7"
journal = "t7.sqlite"
[rules]
preset = "house"
banker = "Bob"
[[seats]]
name = "Ann"
[[seats]]
name = "Bob"
[devices]
shoe = "/dev/null"
panels = "/dev/null"
[display]
token = "a-long-secret"
"""


def test_run_checks_the_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "table.toml"
    good.write_text(CONFIG)
    assert main(["run", "--config", str(good), "--check"]) == 0
    assert "table.toml: OK (2 seats, house rules)" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text(CONFIG.replace('name = "Bob"', 'name = "Bob"\npanel_address = 20'))
    assert main(["run", "--config", str(bad)]) == 2
    assert "bad.toml: seats[2].panel_address must be 1-14 (got 20)" in capsys.readouterr().err


def test_run_refuses_a_damaged_journal_naming_the_last_good_point(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(CONFIG)
    journal = Journal(tmp_path / "t7.sqlite")
    journal.start_game({"rules": "house", "options": {}, "players": ["Ann", "Bob"],
                        "banker": "Bob", "seed": 0, "table": "Table 7"})
    journal.append({"type": "StartDeal"})
    journal.append({"type": "DealCard", "card": "AS"})
    journal.close()
    db = sqlite3.connect(tmp_path / "t7.sqlite")
    db.execute("""UPDATE rows SET body='{"type":"DealCard","card":"KS"}' WHERE seq=3""")
    db.commit()
    db.close()
    assert main(["run", "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert "row 3 does not match its checksum" in err
    assert "row 2 (game 1, action 1)" in err and "--recover" in err
