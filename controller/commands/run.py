"""``pontoon-table run --config table.toml``: run a real table.

Opens the journal first (a damaged journal stops the table with the last
consistent point named; ``--recover`` continues from there), resumes the game
it holds (same deal, same point, same balances) or starts one, then opens the
shoe and the panel bus, the camera, and serves the dealer display.  Nothing in
``hardware_sim`` is imported here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from typing import Any

from controller.config import ConfigError, TableConfig, load_config
from controller.core import GameSetup, TableCore
from controller.journal import Journal, JournalBroken, JournalError
from controller.rules import IllegalAction
from controller.table import Table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the table's TOML file")
    parser.add_argument(
        "--recover", action="store_true",
        help="continue a damaged journal from its last consistent point",
    )
    parser.add_argument(
        "--new-game", action="store_true",
        help="start a new game even if the journal holds an unfinished one",
    )
    parser.add_argument("--check", action="store_true", help="validate the file and exit")


def setup_from(config: TableConfig) -> GameSetup:
    return GameSetup(
        preset=config.rules.preset,
        players=tuple(config.players),
        banker=config.rules.banker,
        seed=config.rules.seed,
        options=dict(config.rules.options),
        table=config.name,
    )


def open_journal(config: TableConfig, recover: bool) -> Journal:
    try:
        return Journal(config.journal)
    except JournalBroken as exc:
        if not recover:
            raise
        journal = Journal(config.journal, check=False)
        moved = journal.recover(exc.last_good, reason=str(exc))
        print(f"journal recovered: {moved} damaged row(s) set aside", file=sys.stderr)
        return journal


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"pontoon-table run: {exc}", file=sys.stderr)
        return 2
    if args.check:
        print(f"{config.source}: OK ({len(config.seats)} seats, {config.rules.preset} rules)")
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        journal = open_journal(config, args.recover)
        core = TableCore(
            setup_from(config),
            journal,
            seats={s.name: s.panel_address for s in config.seats},
            new_game_if_over=True,
        )
        if args.new_game and core.state.results:
            core.new_game()
    except (JournalError, IllegalAction) as exc:
        print(f"pontoon-table run: {exc}", file=sys.stderr)
        return 1
    try:
        asyncio.run(_serve(config, core))
    except KeyboardInterrupt:
        pass
    finally:
        journal.close()
    return 0


def _camera(config: TableConfig) -> Any:
    from vision.sources import VideoCaptureSource

    return VideoCaptureSource(config.camera.source)


async def _serve(config: TableConfig, core: TableCore) -> None:
    from dealer_display.app import create_app, serve
    from firmware_bridge.drivers import PanelBus, Shoe
    from vision.recognizer import Recognizer

    recognizer = Recognizer(config.camera.profile)
    camera = _camera(config)
    addresses = [seat.panel_address for seat in config.seats]
    async with Shoe.open(config.devices.shoe, baudrate=config.devices.baudrate) as shoe, \
            PanelBus.open(config.devices.panels, seats=addresses,
                          baudrate=config.devices.baudrate) as bus:
        table = Table(core, shoe=shoe, bus=bus, camera=camera, recognizer=recognizer,
                      frames=config.camera.frames)
        async with table:
            app = create_app(table, token=config.display.token, title=config.name)
            host, port = config.display.host, config.display.port
            print(f"{config.name}: dealer display on http://{host}:{port}/dealer", flush=True)
            with contextlib.suppress(asyncio.CancelledError):
                await serve(app, host=host, port=port)
