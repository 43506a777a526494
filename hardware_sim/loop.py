"""A private asyncio loop in a background thread, where the simulated hardware lives.

The emulated devices must not share the controller's event loop: the
controller cannot tell them from real hardware only if they run beside it,
the way firmware runs on its own microcontroller. One thread serves every
device of a table (ports are multiplexed by the loop's selector), so a 2-core
machine keeps one core for the controller.

``BackgroundLoop(loop=asyncio.get_running_loop())`` instead adopts the
caller's loop (no thread): the devices then run beside the controller on
one thread, which saves the thread hand-offs and the GIL contention of two
busy threads (a benchmark choice; see ``SimRig(inline=True)``).  Blocking
helpers (:meth:`BackgroundLoop.run`) cannot be used from that loop itself.

Example::

    with BackgroundLoop("sim") as bg:
        value = bg.call(lambda: 41 + 1)           # run a function on the loop, wait
        result = bg.run(some_coroutine())         # run a coroutine on the loop, wait
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")


class BackgroundLoop:
    def __init__(
        self, name: str = "hardware-sim", *, loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        self.inline = loop is not None
        self.loop = loop if loop is not None else asyncio.new_event_loop()
        self._thread = (
            threading.current_thread()
            if self.inline
            else threading.Thread(target=self._main, name=name, daemon=True)
        )
        self._started = threading.Event()

    def _main(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.call_soon(self._started.set)
        self.loop.run_forever()
        # Let cancelled tasks finish their clean-up before the loop closes.
        pending = asyncio.all_tasks(self.loop)
        for task in pending:
            task.cancel()
        if pending:
            self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self.loop.close()

    def start(self) -> BackgroundLoop:
        if self.inline:
            return self
        self._thread.start()
        self._started.wait()
        return self

    @property
    def in_loop_thread(self) -> bool:
        return threading.current_thread() is self._thread

    def call(self, fn: Callable[[], T], timeout: float | None = 10.0) -> T:
        """Run ``fn`` on the loop thread and return its result (directly if already there)."""
        if self.in_loop_thread:
            return fn()
        fut: Future[T] = Future()

        def _run() -> None:
            try:
                fut.set_result(fn())
            except BaseException as exc:
                fut.set_exception(exc)

        self.loop.call_soon_threadsafe(_run)
        return fut.result(timeout)

    def submit(self, coro: Coroutine[Any, Any, T]) -> Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = 10.0) -> T:
        if self.in_loop_thread:
            coro.close()
            raise RuntimeError("cannot block on the loop's own thread; await it instead")
        return self.submit(coro).result(timeout)

    def stop(self) -> None:
        if self.inline:
            return
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(5.0)

    def __enter__(self) -> BackgroundLoop:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
