"""The leaderboard's cache never serves a stale board.

Reference: a fresh :class:`Standings` fed the same rows (nothing cached) after
every row of a real journal; and the rules' words for ranks (equal units
share a rank, names order the tie), worked out by hand below.
"""

from __future__ import annotations

from pathlib import Path

from floor_rows import chain, entries_of

from floor.messages import JournalEntry
from floor.sim_table import BotTable
from floor.standings import Standings, check_rounds


def bot_game(folder: Path) -> list[JournalEntry]:
    """A whole house game of three deals, played by floor.sim_table's bots."""
    bot = BotTable(folder / "bot.sqlite", seed=5, deals=3)
    while bot.step():
        pass
    bot.close()
    return entries_of(folder / "bot.sqlite", "table-1")


def test_after_every_row_the_board_is_what_a_fresh_replay_gives(tmp_path: Path) -> None:
    rows = bot_game(tmp_path)
    live = Standings()
    boards = set()
    for n, row in enumerate(rows, start=1):
        assert live.add(row) is None
        fresh = Standings()
        for earlier in rows[:n]:
            fresh.add(earlier)
        assert live.leaderboard() == fresh.leaderboard(), f"after row {n}"
        assert live.leaderboard({"table-1": [1]}) == fresh.leaderboard({"table-1": [1]})
        assert live.leaderboard({"table-9": [1]}) == []
        boards.add(repr(live.leaderboard()))
    assert len(boards) >= 3  # the units moved at settlements: the cache was put to work


def test_equal_units_share_a_rank_and_names_order_the_tie() -> None:
    standings = Standings()
    setup = '{"banker":"Cat","options":{},"players":["Cat","Bob","Ann"],"rules":"house","seed":1}'
    row = chain("table-2", [("game", {})])[0]
    standings.add(row.__class__(**{**row.__dict__, "body": setup}))
    board = standings.leaderboard()
    assert [(p["rank"], p["player"], p["units"]) for p in board] == [
        (1, "Ann", 0),
        (1, "Bob", 0),
        (1, "Cat", 0),
    ]


def test_rounds_are_checked_in_words() -> None:
    assert check_rounds({"R1": {"table-1": [2, 1, 2]}}) == {"R1": {"table-1": [1, 2]}}
    for bad, words in [
        ([], "must be an object"),
        ({"": {}}, "a name of 1 to 60"),
        ({"R": []}, "give {table"),
        ({"R": {"t": [True]}}, "whole numbers"),
        ({"R": {"t": [0]}}, "whole numbers"),
    ]:
        try:
            check_rounds(bad)
        except ValueError as error:
            assert words in str(error)
        else:
            raise AssertionError(f"{bad!r} was taken")
