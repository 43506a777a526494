"""The ``pontoon-table`` command line.

Each sub-command lives in the package that owns it and is imported only when it
is used, so ``pontoon-table replay`` never pays for OpenCV or FastAPI.  A command
module provides ``add_arguments(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from collections.abc import Sequence
from typing import Protocol, cast

#: name -> (module, one-line summary shown in ``pontoon-table --help``)
COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("controller.commands.replay", "play a scenario file with the rules engine alone"),
    "rules": ("controller.commands.rules", "print the options of a rules preset"),
    "vision": ("vision.cli", "calibrate a deck profile or read card images"),
    "sim": ("hardware_sim.table.cli", "run the whole table in simulation"),
    "sim-hw": ("hardware_sim.cli", "run the emulated shoe and panels on serial ports"),
    "run": ("controller.commands.run", "run a real table from its configuration file"),
    "history": ("controller.commands.history", "export a game from the journal"),
    "conformance": (
        "controller.commands.conformance",
        "check a shoe or panel bus against the protocol",
    ),
    "doctor": ("controller.commands.doctor", "check a table's devices, camera, display, "
               "journal and clock before doors open"),
    "backup": ("controller.commands.backup", "copy a journal safely, even while the table runs"),
    "setup": ("controller.commands.setup", "install the systemd units and udev rules"),
    "bundle": ("controller.commands.bundle", "build an offline install folder for a table's box"),
    "floor": ("controller.commands.floor", "the event floor: serve its page, init-broker, sim"),
}


#: exit status of a command ended by SIGTERM that did not catch the interrupt
#: itself (128 + the signal's number, as a shell reports it)
TERMINATED = 128 + signal.SIGTERM
#: ... and by Ctrl-C
INTERRUPTED = 128 + signal.SIGINT


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C's KeyboardInterrupt would be."""


def _terminate(_signal: int, _frame: object) -> None:
    raise _Terminated


class CommandModule(Protocol):
    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def _usage() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: pontoon-table COMMAND [options]", "", "commands:"]
    lines += [f"  {name:<{width}}  {summary}" for name, (_, summary) in COMMANDS.items()]
    lines += ["", "pontoon-table COMMAND --help describes one command."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in {"-h", "--help", "help"}:
        print(_usage())
        return 0
    name, rest = args[0], args[1:]
    if hasattr(signal, "SIGUSR1"):
        # A table answers SIGUSR1 with its state (controller.diagnostics) once it
        # runs; until then the signal must not end the process, its default.
        signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    if name not in COMMANDS:
        print(f"pontoon-table: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    # SIGTERM (``kill``, a supervisor's stop) ends a command as Ctrl-C does, so
    # every ``finally`` runs: Python's default would end the process where it
    # stands, and a simulated table would leave its serial ports' folder
    # behind (uvicorn even stops gracefully on SIGTERM, then raises it again).
    # A command that needs its own answer (``sim-hw``, ``floor``) sets it.
    signal.signal(signal.SIGTERM, _terminate)
    module_name, summary = COMMANDS[name]
    module = cast(CommandModule, importlib.import_module(module_name))
    parser = argparse.ArgumentParser(prog=f"pontoon-table {name}", description=summary)
    module.add_arguments(parser)
    try:
        return module.run(parser.parse_args(rest))
    except _Terminated:
        return TERMINATED
    except KeyboardInterrupt:
        return INTERRUPTED


if __name__ == "__main__":
    raise SystemExit(main())
