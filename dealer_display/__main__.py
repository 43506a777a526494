"""``python -m dealer_display``: the display over a manual (hand-run) table.

For practice and demonstrations without hardware: the dealer enters every card
and decision on the dealer page, or ``--autoplay`` lets simulated people play.
The live table is served by ``pontoon-table run`` / ``sim`` instead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random

from controller.tokens import new_token

from . import autoplay
from .address import print_dealer_address
from .app import create_app, serve
from .manual import ManualTable


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dealer_display", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: localhost)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--rules", default="house")
    parser.add_argument("--players", default="Ann,Bob,Cat,Dan", help="comma-separated, clockwise")
    parser.add_argument("--banker", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--token", default=None, help="dealer's token (default: a random one)")
    parser.add_argument(
        "--journal", default=":memory:", metavar="PATH",
        help="journal file: the game survives a restart (default: in memory)",
    )
    parser.add_argument(
        "--autoplay", type=float, default=0.0, metavar="SECONDS",
        help="simulated people make one move every SECONDS",
    )
    parser.add_argument(
        "--qr", action=argparse.BooleanOptionalAction, default=None,
        help="print the dealer address's QR code (default: when stdout is a terminal)",
    )
    args = parser.parse_args(argv)
    token = args.token or new_token(128)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    table = ManualTable(
        rules=args.rules, players=players, banker=args.banker, seed=args.seed,
        name="Manual table", journal=args.journal,
    )
    app = create_app(table, token=token)
    base = f"http://{args.host}:{args.port}"
    address = print_dealer_address(base + "/", token, qr=args.qr)
    print(f"table:    {base}/table", flush=True)
    print(f"training: {address.replace('/dealer#', '/training#', 1)}", flush=True)

    async def run() -> None:
        task = None
        if args.autoplay > 0:
            task = asyncio.create_task(_autoplay(table, args.autoplay, args.seed))
        try:
            await serve(app, host=args.host, port=args.port)
        finally:
            if task:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())
    return 0


async def _autoplay(table: ManualTable, every: float, seed: int) -> None:
    rng = random.Random(seed)
    while True:
        await asyncio.sleep(every)
        if not await autoplay.step(table, rng):
            await asyncio.sleep(every * 10)
            await table.command("new_game")


if __name__ == "__main__":
    raise SystemExit(main())
