"""``machikoro list``: the bundled variants and strategies, by the name the other commands
take (``--variant house/radio-tower-18``, ``--agents cheese-factory``)."""

from __future__ import annotations

import argparse
import json

from ..data.listing import bundled_entries
from ..errors import one_line

HELP = "list the bundled variants and strategies"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The list command's options."""
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    """Print the bundled variants and strategies; exit 0."""
    found = bundled_entries()
    if args.json:
        print(json.dumps(found, indent=2, ensure_ascii=False))
        return 0
    heads = {"variants": "Bundled variants (--variant NAME):",
             "strategies": "Bundled strategies (--agents NAME):"}
    for part, entries in found.items():
        print(heads[part])
        width = max((len(e["name"]) for e in entries), default=0)
        for e in entries:
            text = one_line(e["description"] or e["title"])
            print(f"  {e['name']:<{width}}  {text}")
        if part == "variants":
            print()
    return 0
