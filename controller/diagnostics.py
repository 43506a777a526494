"""What a running table is doing, on demand: ``kill -USR1 <pid>``.

A table that seems stuck (a prompt that never lights, a display that stopped
moving) is easiest to understand from inside: which phase the table is in,
what it holds for, which cards are in flight, what it last sent each panel,
and where every asyncio task and thread is waiting.  ``run``, ``sim`` and
``sim --scenario`` install this on SIGUSR1; the report goes to stderr (and so
to the service's log) and the table carries on.  It was written after a hang
that could only be explained by attaching ``gdb`` to the process
(docs/reliability.md, "Bugs found and fixed on the way").
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import io
import signal
import sys
import threading
from typing import TYPE_CHECKING, TextIO

from controller.snapshot import build_snapshot

if TYPE_CHECKING:
    from controller.table import Table


def state_report(table: Table) -> str:
    """The table's state and every asyncio task's stack, as text."""
    core = table.core
    out = io.StringIO()
    holds = sorted(core.machine.holds)
    out.write(f"pontoon-table state: phase {core.phase()}, running {core.machine.running}, "
              f"holds {holds}, in flight {list(core.in_flight)}, "
              f"gate locked {core.gate_locked()}, journal head {core.journal.head}\n")
    out.write(f"  next: {build_snapshot(core)['next']}\n")
    for name, counts in sorted(table.link_counts().items()):
        link = core.links.get(name, {})
        state = "up" if link.get("up") else "down"
        figures = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in counts.items())
        out.write(f"  link {name} ({state}, {link.get('drops', 0)} drops, "
                  f"{link.get('reboots', 0)} reboots): {figures}\n")
    for name, (wanted, sent) in sorted(table.pushed().items()):
        state = "sent" if sent == wanted else "NOT SENT"
        out.write(f"  {name}: wanted {wanted!r} ({state}; last sent {sent!r})\n")
    for task in sorted(asyncio.all_tasks(), key=lambda t: t.get_name()):
        state = "cancelling" if task.cancelling() else "pending"
        out.write(f"task {task.get_name()} ({state}):\n")
        for where in _awaiting(task.get_coro()):
            out.write(f"    {where}\n")
    return out.getvalue()


def _awaiting(coro: object) -> list[str]:
    """Where a task waits, outermost first: the chain of coroutines each awaiting
    the next (``Task.print_stack`` shows only the outermost one)."""
    chain: list[str] = []
    while coro is not None and len(chain) < 20:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            break
        code = frame.f_code
        chain.append(f"{code.co_filename}:{frame.f_lineno} in {code.co_qualname}")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return chain


def install_state_dump(table: Table, stream: TextIO | None = None) -> bool:
    """Write :func:`state_report` and every thread's stack to ``stream`` (stderr)
    on SIGUSR1.  Only from the main thread's running loop (where signals are
    delivered); False when it could not be installed (Windows, another thread)."""
    if not hasattr(signal, "SIGUSR1") or threading.current_thread() is not threading.main_thread():
        return False
    loop = asyncio.get_running_loop()

    def dump() -> None:
        target = stream or sys.stderr
        target.write(state_report(table))
        target.flush()
        with contextlib.suppress(Exception):  # needs a real file descriptor
            faulthandler.dump_traceback(file=target, all_threads=True)

    loop.add_signal_handler(signal.SIGUSR1, dump)
    return True
