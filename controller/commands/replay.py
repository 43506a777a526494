"""``pontoon-table replay FILE``: play a scenario with the rules engine alone."""

from __future__ import annotations

import argparse
import json
import sys

from controller.scenario import ScenarioError, load_scenario, run_scenario


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="scenario JSON file (see SCENARIO.md)")
    parser.add_argument("--compact", action="store_true", help="print JSON on one line")


def run(args: argparse.Namespace) -> int:
    try:
        result = run_scenario(load_scenario(args.file))
    except ScenarioError as e:
        print(str(e).replace("\n", " "), file=sys.stderr)
        return 2
    print(json.dumps(result, indent=None if args.compact else 2))
    return 0
