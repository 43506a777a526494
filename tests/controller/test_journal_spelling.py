"""The journal's stored text of a row, as docs/floor.md promises it.

docs/floor.md ("A journal row") says ``body`` and ``meta`` are "the journal's
stored canonical JSON *text*, exactly as the hash covers it", published as
stored, and shows a row: the action ``{"action": "Decide", "player": "Ann",
"word": "twist"}`` is stored as ``{"action":"Decide","player":"Ann","word":"twist"}``
(keys in sorted order, no spaces) with the meta ``{"source":"panel"}``.  The
floor publisher reads the file with its own SQLite connection, so the text in
the file is the interface; these tests read it with plain ``sqlite3``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from controller.journal import Journal


def _stored(path: Path) -> list[tuple[int, str, str, str]]:
    db = sqlite3.connect(path)
    try:
        return [
            (int(seq), str(kind), str(body), str(meta))
            for seq, kind, body, meta in db.execute(
                "SELECT seq, kind, body, meta FROM rows ORDER BY seq"
            )
        ]
    finally:
        db.close()


def test_an_action_is_stored_in_the_spelling_docs_floor_shows(tmp_path: Path) -> None:
    """The keys are given out of order and with spaces nowhere to be seen in the
    result: docs/floor.md's example row, written out by hand."""
    path = tmp_path / "j.sqlite"
    with Journal(path, durable=False) as j:
        j.start_game({"seed": 7, "banker": "Bob", "rules": "house"})
        j.append({"word": "twist", "player": "Ann", "action": "Decide"}, {"source": "panel"})
    assert _stored(path) == [
        (1, "game", '{"banker":"Bob","rules":"house","seed":7}', "{}"),
        (2, "action", '{"action":"Decide","player":"Ann","word":"twist"}', '{"source":"panel"}'),
    ]


def test_nested_values_are_spelled_the_same_way(tmp_path: Path) -> None:
    """Canonical all the way down: a list keeps its order, an inner object is
    sorted too, and neither gets a space after ``,`` or ``:``."""
    path = tmp_path / "j.sqlite"
    with Journal(path, durable=False) as j:
        j.start_game({"players": ["Cat", "Ann"], "options": {"b": 1, "a": [2, 3]}})
        j.note({"event": "payouts_confirmed", "lines": [{"z": 0, "y": 1}]})
    assert _stored(path) == [
        (1, "game", '{"options":{"a":[2,3],"b":1},"players":["Cat","Ann"]}', "{}"),
        (2, "table", '{"event":"payouts_confirmed","lines":[{"y":1,"z":0}]}', "{}"),
    ]
