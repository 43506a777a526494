"""``run_floor``: the subscriber and the page in one event loop, until cancelled.

The composition root of ``pontoon-table floor serve`` (and of the floor the
simulator starts): one :class:`floor.ingest.Floor` fed by
:class:`floor.service.FloorService`, shown by :func:`floor.app.create_floor_app`.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from .app import create_floor_app, serve
from .service import FloorService, FloorSettings


async def run_floor(
    settings: FloorSettings,
    *,
    token: str,
    host: str = "127.0.0.1",
    port: int = 8100,
    rounds: dict[str, Any] | None = None,
) -> None:
    """Subscribe, store and serve the floor page at ``http://host:port/floor``."""
    service = FloorService(settings)
    app = create_floor_app(service.floor, token=token, rounds=rounds)
    service.on_change.append(app.state.changed)
    subscriber = asyncio.create_task(service.run(), name="floor-subscriber")
    try:
        await serve(app, host=host, port=port)
    finally:
        subscriber.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await subscriber
        service.floor.store.close()
