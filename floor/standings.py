"""The floor's leaderboard: every player's standing, replayed by the rules engine.

The floor stores actions, not conclusions (like the table's journal), so the
standings are the rules engine's own: a game's ``game`` row is its setup
(:class:`controller.core.GameSetup`), each ``action`` row is applied with
:func:`controller.rules.apply` as it is stored -- the same replay as
``pontoon-table history``.  Nothing here decides a payout.

A player's standing on the floor is the sum of their balances over the games
counted (every game, or one round's), in table units; a person is known by the
name the table seated them with.  The organiser groups games into rounds with
a mapping ``{round: {table: [game, ...]}}`` (floor config or the page's API).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.core import GameSetup
from controller.rules import GameState, IllegalAction, action_from_dict, apply
from controller.rules.state import HOUSE

from .messages import JournalEntry

#: {round name: {table id: [game numbers]}}
Rounds = Mapping[str, Mapping[str, Iterable[int]]]


@dataclass
class GameReplay:
    """One table's game, as far as the floor has stored it."""

    table: str
    game: int
    state: GameState | None = None
    refused: str = ""  # the engine refused a row: the game stops counting here
    rows: int = 0

    def balances(self) -> dict[str, int]:
        """People's balances in half units (the house bank left out)."""
        if self.state is None:
            return {}
        return {p: h for p, h in self.state.balances.items() if p != HOUSE}


def units_json(half: int) -> int | float:
    """Half units as a JSON number of table units (``3``, ``2.5``)."""
    return half // 2 if half % 2 == 0 else half / 2


@dataclass
class Standings:
    """Every game on the floor, replayed incrementally as rows are stored."""

    games: dict[tuple[str, int], GameReplay] = field(default_factory=dict)
    #: moves when any game's balances (or its players) change: the leaderboard's cache key
    version: int = 0
    _balances: dict[tuple[str, int], dict[str, int]] = field(default_factory=dict)
    _boards: dict[tuple[int, str], list[dict[str, Any]]] = field(default_factory=dict)

    def add(self, entry: JournalEntry) -> str | None:
        """Apply one stored row; returns an alarm's words when the engine refuses it."""
        key = (entry.table, entry.game)
        replay = self.games.get(key)
        if replay is None:
            replay = self.games[key] = GameReplay(entry.table, entry.game)
        replay.rows += 1
        if replay.refused or entry.kind == "table":
            return None
        try:
            body = json.loads(entry.body)
            if entry.kind == "game":
                replay.state = GameSetup.from_json(body).start()
            elif entry.kind == "action":
                if replay.state is None:
                    raise IllegalAction("an action came before the game's setup row")
                apply(replay.state, action_from_dict(body))
        except (IllegalAction, ValueError, KeyError, TypeError) as error:
            replay.refused = (
                f"table {entry.table}, game {entry.game}: the rules engine refused row "
                f"{entry.seq} ({error}); its standings stop there"
            )
            return replay.refused
        now = replay.balances()  # a few seats: cheap next to the engine's apply
        if self._balances.get(key) != now:
            self._balances[key] = now
            self.version += 1
        return None

    def game(self, table: str, game: int) -> GameReplay | None:
        return self.games.get((table, game))

    def leaderboard(self, only: Mapping[str, Iterable[int]] | None = None) -> list[dict[str, Any]]:
        """Players best first, with their units and where they played.

        ``only``: the games of one round (``{table: [games]}``); None: all.
        Equal units share a rank (1, 1, 3); names break the tie in the order.
        """
        cache = (self.version, repr(sorted((t, sorted(gs)) for t, gs in (only or {}).items())))
        if only is None:
            cache = (self.version, "*")
        if cache in self._boards:
            return self._boards[cache]
        board = self._leaderboard(only)
        if len(self._boards) > 64:
            self._boards.clear()
        self._boards[cache] = board
        return board

    def _leaderboard(self, only: Mapping[str, Iterable[int]] | None) -> list[dict[str, Any]]:
        chosen = None if only is None else {(t, int(g)) for t, gs in only.items() for g in gs}
        totals: dict[str, int] = {}
        where: dict[str, set[str]] = {}
        played: dict[str, int] = {}
        for (table, number), replay in sorted(self.games.items()):
            if chosen is not None and (table, number) not in chosen:
                continue
            for person, half in replay.balances().items():
                totals[person] = totals.get(person, 0) + half
                where.setdefault(person, set()).add(table)
                played[person] = played.get(person, 0) + 1
        order = sorted(totals, key=lambda p: (-totals[p], p))
        board: list[dict[str, Any]] = []
        for i, person in enumerate(order):
            rank = board[-1]["rank"] if board and totals[order[i - 1]] == totals[person] else i + 1
            board.append(
                {
                    "rank": rank,
                    "player": person,
                    "units": units_json(totals[person]),
                    "games": played[person],
                    "tables": sorted(where[person]),
                }
            )
        return board


def check_rounds(value: Any) -> dict[str, dict[str, list[int]]]:
    """A rounds mapping from the organiser, checked; ValueError in plain words."""
    if not isinstance(value, dict):
        raise ValueError("rounds must be an object: {round: {table: [game numbers]}}")
    rounds: dict[str, dict[str, list[int]]] = {}
    for name, tables in value.items():
        if not isinstance(name, str) or not name.strip() or len(name) > 60:
            raise ValueError("a round needs a name of 1 to 60 characters")
        if not isinstance(tables, dict):
            raise ValueError(f"round {name!r}: give {{table: [game numbers]}}")
        rounds[name] = {}
        for table, games in tables.items():
            if not isinstance(games, list) or not all(
                isinstance(g, int) and not isinstance(g, bool) and g > 0 for g in games
            ):
                raise ValueError(f"round {name!r}, table {table!r}: games are whole numbers from 1")
            rounds[name][str(table)] = sorted(set(games))
    return rounds
