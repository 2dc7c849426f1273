"""``machikoro cards``: print the card table of a rule set."""

from __future__ import annotations

import argparse
import json
import sys

from ..logs.event_text import card_table
from .arguments import add_cache, add_variant, ruleset_of, variant_of

HELP = "print the card table of a rule set"


def add_arguments(cards: argparse.ArgumentParser) -> None:
    """The cards command's options."""
    add_variant(cards, "variant file, bundled variant name or rule-set folder")
    cards.add_argument("--json", action="store_true", help="print JSON")
    add_cache(cards)


def run(args) -> int:
    """Print the table (or JSON); warnings of the rule set go to stderr."""
    rules = ruleset_of(variant_of(args.variant), args.no_cache)
    if args.json:
        print(json.dumps([{
            "id": c.id, "kind": c.kind, "name": c.name, "name_ja": c.name_ja,
            "colour": c.colour, "icon": c.icon, "cost": c.cost,
            "activation": list(c.activation), "supply": c.supply, "limit": c.limit,
            "effect": c.effect} for c in rules.cards], ensure_ascii=False, indent=2))
    else:
        print(card_table(rules))
    for warning in rules.warnings:
        print(warning.render(), file=sys.stderr)
    return 0
