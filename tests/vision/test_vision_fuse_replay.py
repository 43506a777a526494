"""``benchmarks/vision_fuse.py --replay`` fuses cached readings as the table
does, and ``--compare`` tells two fusions' answers apart card by card: the
judge of a fusion rule (docs/vision.md, forty-ninth pass) runs on them.
The cached cards are hand-made; what the fusion makes of them is worked out
in each docstring from ``FUSE_MARGIN`` (20 nats) and the table's loop
(ready after three frames with an index and a lead of 20)."""

from __future__ import annotations

import importlib
import json
import pickle
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from vision.cards import CARD_CODES
from vision.evidence import FUSE_MARGIN

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    if str(ROOT / "benchmarks") not in sys.path:
        sys.path.insert(0, str(ROOT / "benchmarks"))
    return importlib.import_module("vision_fuse")


def _frame(card: str | None, lead: str, by: float, *, old_format: bool = False) -> dict:
    """A cached frame: ``lead`` first by ``by`` nats over every other card."""
    ev = np.full(len(CARD_CODES), -by)
    ev[CARD_CODES.index(lead)] = 0.0
    frame = {"card": card, "reason": "" if card else "rank ambiguous",
             "accepted": (card,) if card else (), "evidence": ev, "ruled_out": (),
             "corners": []}
    if not old_format:
        frame |= {"guess": None if card else lead, "withheld": (), "withheld_why": ""}
    return frame


def _cache(tmp_path: Path) -> Path:
    """Three cards: 5H read on every frame, 10 nats a frame (lead 30 after
    three frames: named 5H, three frames used); 9C leaning to 6C by 1 nat a
    frame over twelve frames (12 < 20: unsure); 2S leaning to 3S by 5 nats a
    frame, cached before guesses were kept (ready at the fourth frame, 20:
    named 3S, wrong)."""
    records = [
        {"design": "tango", "seed": 46, "preset": "hard", "mode": "generic", "code": "5H",
         "frames": [_frame("5H", "5H", 10.0) for _ in range(12)]},
        {"design": "tango", "seed": 46, "preset": "hard", "mode": "profile", "code": "9C",
         "frames": [_frame(None, "6C", 1.0) for _ in range(12)]},
        {"design": "plastic", "seed": 46, "preset": "hard", "mode": "generic", "code": "2S",
         "frames": [_frame(None, "3S", 5.0, old_format=True) for _ in range(12)]},
    ]
    path = tmp_path / "cache.pkl"
    path.write_bytes(pickle.dumps(records))
    return path


def test_the_margin_these_cards_are_worked_out_from() -> None:
    assert FUSE_MARGIN == 20.0


def test_replay_names_what_the_tables_loop_would(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    assert _bench().main(["--replay", str(_cache(tmp_path)), "--outcomes", str(out)]) == 0
    answers = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(a["code"], a["card"], a["used"]) for a in answers] == [
        ("5H", "5H", 3), ("9C", None, 12), ("2S", "3S", 4)]
    text = capsys.readouterr().out
    assert "all generic: right 1  wrong 1  unsure 0" in text
    assert "all profile: right 0  wrong 0  unsure 1" in text


def test_compare_lists_the_cards_whose_answer_changed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same outcomes with 2S left unsure instead of named 3S: one card
    changed, generic wrong 1 -> 0 and unsure 0 -> 1."""
    old = tmp_path / "old.jsonl"
    bench = _bench()
    bench.main(["--replay", str(_cache(tmp_path)), "--outcomes", str(old)])
    lines = [json.loads(line) for line in old.read_text().splitlines()]
    lines[2]["card"] = None
    new = tmp_path / "new.jsonl"
    new.write_text("".join(json.dumps(a) + "\n" for a in lines))
    capsys.readouterr()
    assert bench.main(["--compare", str(old), str(new)]) == 0
    text = capsys.readouterr().out
    assert "changed: plastic generic seed 46 2S: 3S -> None" in text
    assert "generic: right 1 -> 1  wrong 1 -> 0  unsure 0 -> 1" in text
    assert text.count("changed:") == 1


def test_compare_refuses_outcomes_of_other_cards(tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    bench = _bench()
    bench.main(["--replay", str(_cache(tmp_path)), "--outcomes", str(old)])
    new = tmp_path / "new.jsonl"
    new.write_text(old.read_text().splitlines()[0] + "\n")
    assert bench.main(["--compare", str(old), str(new)]) == 2
