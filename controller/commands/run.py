"""``pontoon-table run --config table.toml``: run a real table.

Opens the journal first (a damaged journal stops the table with the last
consistent point named; ``--recover`` continues from there), resumes the game
it holds (same deal, same point, same balances) or starts one, then opens the
shoe and the panel bus, the camera, and serves the dealer display.  Nothing in
``hardware_sim`` is imported here.

A journal holding an unfinished game of *another* setup (other seats, rules
or seed) is refused rather than silently put aside: it is almost always the
wrong file.  ``--new-game`` starts a new game in it deliberately.

Crash recovery reaches the shoe too.  The shoe keeps its recent events and
resends, after a reconnection, every event after the cursor the host gives
it; so the controller journals where it stands in the shoe's event stream
and gives that cursor back on start (:func:`shoe_resume`).  A card pulled
while the controller was down, or pulled and not yet journalled when it died,
is then delivered after the restart, and a card already journalled is never
delivered twice.  The core journals each card's ``event_no`` in the action's
meta; the shoe's ``boot_id`` (event numbers restart with every power-up) is
journalled here as a ``shoe_boot`` table event, written before the first
card of that boot reaches the core (:class:`JournalledShoe`).

Panel buttons are deliberately *not* resumed: a press made while the table
was down got no answer on its panel, so the player will press again when the
lamps come back; replaying it later could make a decision nobody sees made.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from collections.abc import Iterator
from typing import Any

from controller.config import ConfigError, TableConfig, load_config
from controller.core import GameSetup, TableCore
from controller.diagnostics import install_state_dump
from controller.journal import Journal, JournalBroken, JournalError
from controller.rules import IllegalAction
from controller.shoe_feed import JournalledShoe, shoe_resume
from controller.table import Table

log = logging.getLogger(__name__)

#: seconds to wait for the camera's first frame before warning the dealer
CAMERA_WAIT = 5.0


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
    parser.add_argument(
        "--qr", action=argparse.BooleanOptionalAction, default=None,
        help="print the dealer address's QR code (default: when stdout is a terminal)",
    )


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


def other_setup(journal: Journal, setup: GameSetup) -> str | None:
    """Why the journal's unfinished game is not this configuration's, or None."""
    if not journal.game:
        return None
    stored = GameSetup.from_json(journal.setup())
    if stored.same_game(setup):
        return None
    mine, theirs = setup.to_json(), stored.to_json()
    differences = [
        f"{key} {_plain(theirs.get(key))} (this file: {_plain(mine.get(key))})"
        for key in ("players", "rules", "banker", "seed", "options")
        if theirs.get(key) != mine.get(key)
    ]
    return (
        f"journal {journal.path} holds a game of another table setup: "
        + "; ".join(differences)
        + ". Use this table's own journal, or --new-game to start a new game in it."
    )


def _plain(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "none" if value is None else str(value)


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
    # The state machine library narrates every transition at INFO; the table's
    # own log says what matters to the person at the terminal.
    logging.getLogger("transitions").setLevel(logging.WARNING)
    journal: Journal | None = None
    try:
        journal = open_journal(config, args.recover)
        refusal = None if args.new_game else other_setup(journal, setup_from(config))
        if refusal is not None:
            print(f"pontoon-table run: {refusal}", file=sys.stderr)
            journal.close()
            return 1
        core = TableCore(
            setup_from(config),
            journal,
            seats={s.name: s.panel_address for s in config.seats},
            new_game_if_over=True,
        )
        if args.new_game and core.state.results:
            core.new_game()
    except (JournalError, IllegalAction) as exc:
        if journal is not None:
            journal.close()
        print(f"pontoon-table run: {exc}", file=sys.stderr)
        return 1
    try:
        recognizer = _recognizer(config)
    except ValueError as exc:
        journal.close()
        print(f"pontoon-table run: {config.source}: camera.profile: {exc}", file=sys.stderr)
        return 2
    camera = _camera(config)
    try:
        asyncio.run(_serve(config, core, camera, recognizer, qr=args.qr))
    except KeyboardInterrupt:
        pass
    finally:
        release = getattr(camera, "release", None)
        if release is not None:
            release()
        journal.close()
    return 0


def _recognizer(config: TableConfig) -> Any:
    """The deck's profile is checked before any device is touched; a bad one is a
    ValueError with vision's plain message."""
    from vision.profile import ProfileError
    from vision.recognizer import Recognizer

    try:
        if config.camera.mount == "in_shoe":
            from vision.in_shoe import InShoeReader

            return InShoeReader(config.camera.profile)
        return Recognizer(config.camera.profile)
    except ProfileError as exc:
        raise ValueError(str(exc)) from None


def _camera(config: TableConfig) -> Any:
    """The configured camera; a live one keeps only its newest frame.

    A camera that is not there yet does not stop the table: it is retried in
    the background and, meanwhile, every card is confirmed by the dealer.
    """
    from vision.sources import ImageError, open_camera

    source = config.camera.source
    try:
        camera = open_camera(source)
    except ImageError as exc:
        log.error("camera: %s; every card will need the dealer's confirmation", exc)
        return None
    wait = getattr(camera, "wait_connected", None)
    if wait is not None and not wait(CAMERA_WAIT):
        problem = getattr(camera, "problem", None) or "no picture"
        log.error("camera %r: %s; cards need the dealer's confirmation until it sends pictures",
                  source, problem)
    return camera


def _passes(config: TableConfig, camera: Any) -> Any:
    """The in-shoe camera's passes kept for pairing with CARD_OUTs
    (``vision.pass_capture``); None for the overhead camera, or no camera."""
    if config.camera.mount != "in_shoe" or camera is None:
        return None
    from vision.pass_capture import PassCapture

    try:
        return PassCapture(camera)
    except ValueError as exc:
        log.error("camera: %s; every card will need the dealer's confirmation", exc)
        return None


async def _serve(
    config: TableConfig, core: TableCore, camera: Any, recognizer: Any, qr: bool | None = None
) -> None:
    from dealer_display.address import print_dealer_address, print_pairing_hint
    from dealer_display.app import create_app, serve
    from firmware_bridge.drivers import PanelBus, Shoe

    addresses = [seat.panel_address for seat in config.seats]
    resume = shoe_resume(core.journal)
    if resume is not None:
        log.info("shoe: resuming after event %d of boot %d", resume.event_no, resume.boot_id)
    async with Shoe.open(config.devices.shoe, baudrate=config.devices.baudrate,
                         resume=resume) as shoe, \
            PanelBus.open(config.devices.panels, seats=addresses,
                          baudrate=config.devices.baudrate) as bus:
        journalled = JournalledShoe(shoe, core, resume)
        table = Table(core, shoe=journalled, bus=bus, camera=camera, recognizer=recognizer,
                      frames=config.camera.frames, passes=_passes(config, camera))
        async with table:
            install_state_dump(table)
            if config.backup.dir is not None:
                from controller.backup import AutoBackup

                backups = AutoBackup(config.journal, config.backup.dir)
                table.add_listener(backups.on_snapshot)
                log.info("backups: a copy of the journal goes to %s after each game",
                         config.backup.dir)
            app = create_app(table, token=config.display.token, title=config.name)
            host, port = config.display.host, config.display.port
            print(f"{config.name}: serving on http://{host}:{port}/", flush=True)
            print_dealer_address(f"http://{host}:{port}/", config.display.token, qr=qr)
            print_pairing_hint(f"http://{host}:{port}/")
            with _floor_publisher(config, table), contextlib.suppress(asyncio.CancelledError):
                await serve(app, host=host, port=port)


@contextlib.contextmanager
def _floor_publisher(config: TableConfig, table: Table) -> Iterator[None]:
    """With ``[floor]`` configured: publish the journal and status to the event's broker.

    The publisher has its own threads and its own read-only journal connection;
    the table only hands it each snapshot (never waits on the broker).
    """
    if config.floor is None:
        yield
        return
    from floor.publisher import FloorPublisher

    publisher = FloorPublisher(config.floor, config.journal)
    remove = table.add_listener(publisher.on_snapshot)
    if table.publisher.latest:  # the table's state now; later ones come to the listener
        publisher.on_snapshot(table.publisher.latest)
    publisher.start()
    log.info("floor: publishing as %s to %s", config.floor.table_id, config.floor.broker)
    try:
        yield
    finally:
        remove()
        publisher.stop()
