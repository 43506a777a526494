"""A journal written by this release's first version opens in this one.

How ``tests/data/journal-v67a8ac4-house-buy-example.sqlite`` was made: the
first commit with ``controller/journal.py`` (19c4081, ``git log --reverse --
controller/journal.py``) has a journal but no command that plays a game (its
CLI names ``sim``, ``run`` and ``history`` modules it does not contain yet),
so the file comes from the next commit, 67a8ac4, the first whose own CLI
plays one; its journal format is the same (schema 1, the same hash chain).
It was extracted with ``git archive 67a8ac4 | tar -x -C DIR`` and run there::

    PYTHONPATH=DIR python -m controller.cli sim \\
        --scenario tests/scenarios/house-buy-example.json --json --journal first.sqlite

The expected results are the scenario's hand-derived expected file
(``tests/scenarios/house-buy-example.expected.json``), not this code's output.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

from controller.journal import Journal

DATA = Path(__file__).parent.parent / "data" / "journal-v67a8ac4-house-buy-example.sqlite"
EXPECTED = Path(__file__).parent.parent / "scenarios" / "house-buy-example.expected.json"


def test_the_first_versions_journal_opens_verifies_and_exports(tmp_path: Path) -> None:
    original = hashlib.sha256(DATA.read_bytes()).hexdigest()
    journal = tmp_path / "old.sqlite"
    shutil.copy(DATA, journal)  # opening sets WAL mode: never on the kept file itself
    with Journal(journal) as opened:  # check=True: the whole chain is walked
        assert opened.games() == [1]
        assert opened.head == 12
        opened.verify()
    out = subprocess.run(
        [sys.executable, "-m", "controller.cli", "history", str(journal)],
        capture_output=True, text=True, timeout=120, check=True,
    )
    exported = json.loads(out.stdout)
    expected = json.loads(EXPECTED.read_text())
    assert {key: exported[key] for key in expected} == expected
    assert exported["setup"]["players"] == ["Ann", "Ben"]
    assert hashlib.sha256(DATA.read_bytes()).hexdigest() == original
