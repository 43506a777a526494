"""``python -m hardware_sim``: the same as ``pontoon-table sim-hw``."""

from __future__ import annotations

import argparse

from hardware_sim import cli


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hardware_sim",
        description="run the emulated shoe and panels on serial ports",
    )
    cli.add_arguments(parser)
    return cli.run(parser.parse_args())


if __name__ == "__main__":
    raise SystemExit(main())
