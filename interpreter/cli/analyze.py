"""``machikoro analyze``: exact numbers for each card, from the dice distribution
(:mod:`machikoro.lab.card_analysis`)."""

from __future__ import annotations

import argparse
import json
import sys

from ..lab.analysis_text import jsonable, render
from ..lab.card_analysis import analyze
from .arguments import add_cache, add_variant, ruleset_of, variant_of, whole_number

HELP = "exact numbers for each card, from the dice distribution"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The analyze command's options."""
    add_variant(parser, "variant file or rule-set folder")
    parser.add_argument("--players", type=whole_number(), default=2,
                        help="players in the reference position (default 2)")
    parser.add_argument("--coins", type=whole_number(0, 10**6), default=None,
                        help="coins every player holds in the reference position (default: "
                             "the rule set's starting coins)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_cache(parser)


def run(args) -> int:
    """Run ``machikoro analyze``; returns the exit code (2 for a player count the rule set
    does not allow; a data error propagates as :class:`~machikoro.errors.DataError`). The
    rule set comes from the cache of compiled rule sets on disk, unless ``--no-cache``."""
    rules = ruleset_of(variant_of(args.variant), args.no_cache)
    if not rules.min_players <= args.players <= rules.max_players:
        print(f"machikoro analyze: --players: {rules.name} is for {rules.min_players}-"
              f"{rules.max_players} players, not {args.players}", file=sys.stderr)
        return 2
    report = analyze(rules, args.players, args.coins)
    if args.json:
        print(json.dumps(jsonable(report), indent=2, ensure_ascii=False))
    else:
        print(render(report))
    return 0
