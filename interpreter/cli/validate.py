"""``machikoro validate``: check card, rules, variant, strategy and rule-case files
(:mod:`machikoro.checks.validate`) and print every problem as text, JSON or GitHub
annotations."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..checks.validate import check_files
from ..data.bundled import data_dir
from .arguments import add_variant

HELP = "check card, rules, variant and case files"


def add_arguments(validate: argparse.ArgumentParser) -> None:
    """The validate command's options."""
    validate.add_argument("paths", nargs="*", metavar="PATH",
                          help="files or rule-set folders (default: the bundled set and "
                               "variants)")
    validate.add_argument("--format", choices=("text", "json", "github"), default="text",
                          help="output format (default text)")
    add_variant(validate, "the rule set a lone card file or a rule case is checked "
                               "in (default: the base set)")
    validate.add_argument("--strict", action="store_true",
                          help="exit 1 on warnings too")


def run(args) -> int:
    """Exit 0 when the files are clean (warnings allowed unless --strict), else 1."""
    paths = list(args.paths)
    if not paths:
        paths = [data_dir("cards")] + sorted(data_dir("variants").rglob("*.yaml"))
    problems = check_files(paths, args.variant)
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    code = 1 if errors or (args.strict and warnings) else 0
    try:
        if args.format == "json":
            print(json.dumps({"problems": [p.as_dict() for p in problems],
                              "errors": len(errors), "warnings": len(warnings)}, indent=2))
        elif args.format == "github":
            # workflow commands: https://docs.github.com/actions/reference/workflow-commands
            def prop(text: str) -> str:
                return _escape(text).replace(":", "%3A").replace(",", "%2C")
            for p in problems:
                msg = f"{p.field}: {p.message}" if p.field else p.message
                print(f"::{p.severity} file={prop(p.file)},line={p.line},col={p.column},"
                      f"title={prop('machikoro ' + p.code)}::{_escape(msg)}")
        else:
            for p in problems:
                print(p.render())
            what = f"{len(errors)} error(s), {len(warnings)} warning(s)"
            checked = ", ".join(str(p) for p in paths) if len(paths) <= 3 else \
                f"{len(paths)} paths"
            print(f"{what} in {checked}" if problems else f"OK: {checked}: no problems")
        sys.stdout.flush()
    except BrokenPipeError:  # `validate | head`: the exit code still tells
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return code


def _escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
