"""``machikoro scenario``: run rule-case files (:mod:`machikoro.checks.rule_cases`)."""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

from ..checks.rule_cases import run_case
from ..logs.event_text import turn_header, write_event
from ..rules.loader import use_disk_cache
from .arguments import UsageError, add_cache, add_variant, path_text, variant_of

HELP = "run rule-case files"


def add_arguments(scenario: argparse.ArgumentParser) -> None:
    """The scenario command's options."""
    scenario.add_argument("paths", nargs="+", metavar="PATH", type=path_text,
                          help="rule-case YAML files")
    add_variant(scenario, "the rule set of cases that name none (default: base)")
    scenario.add_argument("--json", action="store_true", help="one JSON object per case")
    scenario.add_argument("--explain", action="store_true",
                          help="print every case's turns explained (each event's card, "
                               "clause at file:line:col and amounts), not only a failing "
                               "case's; with --json, each case's events with their causes")
    add_cache(scenario)


def run(args) -> int:
    """Run every case; exit 1 when any fails. The cases' rule sets come from the cache of
    compiled rule sets on disk (unless ``--no-cache``), for this command only."""
    use_disk_cache(not args.no_cache)
    try:
        return _run_cases(args)
    finally:
        use_disk_cache(False)  # what else this process loads is read from the files


def _explain(game) -> None:
    """The case's turns as played, each event with its cause (``play --explain``'s text),
    indented under the case's result."""
    out = sys.stdout
    out.write("    the turns played, explained:\n")
    for event in game.events:
        if event["type"] == "turn":
            out.write("    " + turn_header(event, game.names) + "\n")
        else:
            buffer = io.StringIO()
            write_event(event, game, buffer)
            for text in buffer.getvalue().splitlines():
                out.write("    " + text + "\n")


def _run_cases(args) -> int:
    failed = 0
    for path in args.paths:
        if Path(path).is_dir():
            files = sorted(Path(path).glob("*.yaml"))
            if not files:
                raise UsageError(f"{path}: no rule-case files (*.yaml) in this folder")
        else:
            files = [Path(path)]
        for file in files:
            result = run_case(file, variant_of(args.variant))
            failed += not result.passed
            explained = result.game is not None and (args.explain or not result.passed)
            if args.json:
                line = {"file": result.file, "name": result.name, "passed": result.passed,
                        "details": list(result.details)}
                if explained and args.explain:
                    line["events"] = result.game.events
                print(json.dumps(line))
            else:
                print(result)
                if explained:
                    _explain(result.game)
    if not args.json:
        print("all cases pass" if not failed else f"{failed} case(s) failed")
    return 1 if failed else 0
