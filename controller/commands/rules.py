"""``pontoon-table rules [PRESET]``: show what a preset's options are."""

from __future__ import annotations

import argparse
import json
import sys

from controller.rules import PRESETS, RulesetError, load_ruleset


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("preset", nargs="?", default="house", help=", ".join(PRESETS))
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override an option (VALUE in JSON: 16, true, \"value\"); may repeat",
    )
    parser.add_argument("--json", action="store_true", help="print the options as JSON")


def run(args: argparse.Namespace) -> int:
    overrides = {}
    for item in args.set:
        name, sep, raw = item.partition("=")
        if not sep:
            print(f"pontoon-table rules: --set wants NAME=VALUE, not {item!r}", file=sys.stderr)
            return 2
        try:
            overrides[name.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            overrides[name.strip()] = raw
    try:
        rules = load_ruleset(args.preset, overrides)
    except RulesetError as e:
        print(f"pontoon-table rules: {e}", file=sys.stderr)
        return 2
    options = rules.options()
    if args.json:
        print(json.dumps({"preset": rules.preset, "options": options}, indent=2))
        return 0
    width = max(len(k) for k in options)
    print(f"rules preset: {rules.preset}")
    for name, value in options.items():
        shown = json.dumps(value) if not isinstance(value, str) else value
        if value is None:
            shown = "none"
        print(f"  {name:<{width}}  {shown}")
    return 0
