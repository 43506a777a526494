"""``pontoon-table backup --config table.toml --to DIR``: copy a journal safely.

Works while the table runs (SQLite's online backup API, see
:mod:`controller.backup`); the copy is verified before it is kept.  Prints
the copy's path and what it holds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.backup import BackupError, backup_journal
from controller.config import ConfigError, load_config
from controller.journal import Journal, JournalError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", help="the table's TOML file (its [table] journal)")
    source.add_argument("--journal", help="the journal file itself")
    parser.add_argument("--to", required=True, help="the folder to copy it into")


def run(args: argparse.Namespace) -> int:
    if args.config is not None:
        try:
            journal = load_config(args.config).journal
        except ConfigError as exc:
            print(f"pontoon-table backup: {exc}", file=sys.stderr)
            return 2
    else:
        journal = Path(args.journal)
    try:
        copy = backup_journal(journal, args.to)
        with Journal(copy) as kept:
            games, head = len(kept.games()), kept.head
    except (BackupError, JournalError) as exc:
        print(f"pontoon-table backup: {exc}", file=sys.stderr)
        return 1
    print(f"{copy}: {games} game(s), {head} row(s), chain verified")
    return 0
