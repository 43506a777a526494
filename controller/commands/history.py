"""``pontoon-table history JOURNAL``: export a game for the organiser.

The results are rebuilt from the journal by the rules engine (the journal
stores actions, not conclusions), so an export always agrees with what the
table did.  JSON holds every deal, every hand and every payment plus the
journalled actions with their times and sources; CSV has one row per hand and
one per payment (a person's net for a deal, a bank sale), for a spreadsheet.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controller.core import GameSetup
from controller.journal import Journal, JournalError, Row
from controller.rules import IllegalAction, action_from_dict, apply
from controller.scenario import result_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("journal", help="the table's SQLite journal")
    parser.add_argument("--game", type=int, default=None, help="game number (default: the last)")
    parser.add_argument("--format", choices=("json", "csv"), default="json")
    parser.add_argument("--out", default="-", help="output file (default: standard output)")


def export(journal: Journal, game: int | None = None) -> dict[str, Any]:
    """The game's setup, results (deals, hands, nets, balances) and journalled actions."""
    games = journal.games()
    if not games:
        raise JournalError(f"journal {journal.path} holds no game")
    number = games[-1] if game is None else game
    if number not in games:
        raise JournalError(f"journal {journal.path} has no game {number} (games: {games})")
    return export_rows(number, journal.rows(number))


def export_rows(number: int, rows: Iterable[Row]) -> dict[str, Any]:
    """The export of one game from its rows (a journal's, or the event floor's copy).

    The ``game`` row gives the setup; ``action`` rows are replayed by the rules
    engine in order; ``table`` rows are not engine actions and are skipped.
    """
    listed = list(rows)
    setups = [row.body for row in listed if row.kind == "game"]
    if not setups:
        raise JournalError(f"game {number} has no setup row")
    setup = GameSetup.from_json(setups[0])
    state = setup.start()
    actions = []
    for row in listed:
        if row.kind != "action":
            continue
        apply(state, action_from_dict(row.body))
        at = datetime.fromtimestamp(row.at, UTC).isoformat(timespec="milliseconds")
        actions.append({"seq": row.seq, "at": at, "action": row.body, **row.meta})
    return {
        "game": number,
        "table": setup.table,
        "setup": setup.to_json(),
        "finished": state.game_over,
        **result_json(state),
        "actions": actions,
    }


def to_csv(data: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["record", "deal", "counted", "banker", "person", "hand", "cards", "stake", "total", "net"]
    )
    for deal in data["deals"]:
        number, counted, banker = deal["number"], deal["counted"], deal["banker"]
        bank = deal["bank"]
        writer.writerow(
            ["bank", number, counted, banker, banker, 0, " ".join(bank["cards"]), "",
             bank["total"], ""]
        )
        for hand in deal["hands"]:
            writer.writerow(
                ["hand", number, counted, banker, hand["player"], hand["hand"],
                 " ".join(hand["cards"]), hand["stake"], hand["total"], hand["net"]]
            )
        for person, net in deal["net"].items():
            writer.writerow(["payment", number, counted, banker, person, "", "", "", "", net])
        sale = deal.get("sale")
        if sale:
            writer.writerow(["sale", number, counted, sale["from"], sale["to"], "", "", "", "",
                             sale["price"]])
    for person, balance in data["balances"].items():
        writer.writerow(["balance", "", "", "", person, "", "", "", "", balance])
    return out.getvalue()


def run(args: argparse.Namespace) -> int:
    if not Path(args.journal).is_file():
        print(f"pontoon-table history: no journal at {args.journal}", file=sys.stderr)
        return 1
    try:
        with Journal(args.journal, check=True) as journal:
            data = export(journal, args.game)
    except (JournalError, IllegalAction) as exc:
        print(f"pontoon-table history: {exc}", file=sys.stderr)
        return 1
    text = json.dumps(data, indent=2) + "\n" if args.format == "json" else to_csv(data)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    return 0
