"""``pontoon-table floor sim``: a broker, N simulated tables and the floor, on one machine."""

from __future__ import annotations

import argparse
import sys


def run_event(args: argparse.Namespace) -> int:
    print("pontoon-table floor sim: not wired to the floor service yet", file=sys.stderr)
    return 1
