"""``machikoro list``: the bundled variants and strategies, by the name the other commands
take (``--variant house/radio-tower-18``, ``--agents cheese-factory``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..data.bundled import STRATEGY_FOLDER, bundled_files
from ..data.yaml_reader import read_yaml
from ..errors import DataError, one_line

HELP = "list the bundled variants and strategies"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The list command's options."""
    parser.add_argument("--json", action="store_true", help="print JSON")


def bundled() -> dict[str, list[dict]]:
    """``{"variants": [...], "strategies": [...]}``, each entry ``{name, title,
    description}``: ``name`` as ``--variant`` takes it (``house/radio-tower-18``), or as
    ``--agents`` takes a strategy (``cheese-factory``). A file that cannot be read is
    listed with its problem as description (``machikoro validate`` says more)."""
    out: dict[str, list[dict]] = {"variants": [], "strategies": []}
    for name, file in bundled_files().items():
        try:
            data = read_yaml(file).data
        except DataError as exc:
            data = {"description": f"(cannot be read: {exc.problems[0].message})"}
        data = data if isinstance(data, dict) else {}
        strategy = name.startswith(STRATEGY_FOLDER + "/")
        out["strategies" if strategy else "variants"].append({
            "name": Path(name).name if strategy else name,
            "title": str(data.get("name", "")),
            "description": str(data.get("description", "")),
        })
    return out


def run(args) -> int:
    """Print the bundled variants and strategies; exit 0."""
    found = bundled()
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
