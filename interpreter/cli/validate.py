"""``machikoro validate``: check card, rules, variant, strategy and rule-case files
(:mod:`machikoro.checks.validate`) and print every problem as text, JSON or GitHub
annotations."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..checks.validate import check_files
from ..data.bundled import data_dir, resolve_variant, unknown_variant
from ..errors import Problem, one_line
from ..rules.file_kinds import display
from ..rules.loader import load_into
from .arguments import add_variant, path_text

HELP = "check card, rules, variant, case and strategy files"


def add_arguments(validate: argparse.ArgumentParser) -> None:
    """The validate command's options."""
    validate.add_argument("paths", nargs="*", metavar="PATH", type=path_text,
                          help="files or rule-set folders (default: the --variant, else "
                               "the bundled set and variants)")
    validate.add_argument("--format", choices=("text", "json", "github"), default="text",
                          help="output format (default text)")
    add_variant(validate, "the rule set a lone card file or a rule case is checked "
                          "in (default: the base set); alone, the variant to check")
    validate.add_argument("--strict", action="store_true",
                          help="exit 1 on warnings too")
    validate.add_argument("--skip-other", action="store_true",
                          help="skip given YAML files that are not machikoro files "
                               "(mkdocs.yml, CI workflows): for a pre-commit hook in a "
                               "repository holding other YAML")


def _targets(args) -> tuple[list, list[Problem]]:
    """What to check: the paths given; else the ``--variant`` (a file, a folder or a
    bundled name; a missing one is a problem; several are checked each and stacked);
    else the bundled set and variants."""
    if args.paths:
        return list(args.paths), []
    if args.variant is None:
        return [data_dir("cards")] + sorted(data_dir("variants").rglob("*.yaml")), []
    resolved = [resolve_variant(v) for v in args.variant]
    for given, found in zip(args.variant, resolved):
        if found is not None and str(found) != "base" and not Path(found).exists():
            return [], [Problem(given, 1, 1, "", f"--variant: {unknown_variant(given)}",
                                "file")]
    paths = [data_dir("cards") if found is None or str(found) == "base"
             else display(Path(found)) for found in resolved]
    stacked: list[Problem] = []
    if len(resolved) > 1:  # the variants on top of each other, as play would load them
        load_into(resolved, stacked)
    return paths, stacked


def run(args) -> int:
    """Exit 0 when the files are clean (warnings allowed unless --strict), else 1."""
    paths, problems = _targets(args)
    skipped: list[str] | None = [] if args.skip_other else None
    if paths:
        problems = problems + check_files(paths, args.variant, skipped)
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    code = 1 if errors or (args.strict and warnings) else 0
    try:
        if args.format == "json":
            result = {"problems": [p.as_dict() for p in problems], "errors": len(errors),
                      "warnings": len(warnings)}
            if skipped is not None:
                result["skipped"] = skipped
            print(json.dumps(result, indent=2))
        elif args.format == "github":
            _github(problems)
        else:
            for p in problems:
                print(p.render())
            print(_summary(problems, errors, warnings, paths or list(args.variant), skipped))
        sys.stdout.flush()
    except BrokenPipeError:  # `validate | head`: the exit code still tells
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return code


def _names(items: list) -> str:
    return ", ".join(str(p) for p in items) if len(items) <= 3 else f"{len(items)} paths"


def _summary(problems: list[Problem], errors: list, warnings: list, paths: list,
             skipped: list[str] | None) -> str:
    """The last line: the counts and the files holding the problems (naming the paths
    checked too when a problem is in another file, e.g. a card's folder's rules file)."""
    skip = f"; skipped {len(skipped)} other YAML file(s)" if skipped else ""
    paths = [p for p in paths if str(p) not in (skipped or ())]  # checked, not skipped
    checked = one_line(_names(paths))
    if not problems:
        return f"OK: {checked}: no problems{skip}" if paths else f"OK: no machikoro file{skip}"
    files = list(dict.fromkeys(p.file for p in problems))
    where = one_line(_names(files) if len(files) <= 3 else f"{len(files)} files")
    given = {str(p) for p in paths}
    also = "" if set(files) <= given else f" (checking {checked})"
    return f"{len(errors)} error(s), {len(warnings)} warning(s) in {where}{also}{skip}"


def _github(problems: list[Problem]) -> None:
    # workflow commands: https://docs.github.com/actions/reference/workflow-commands
    def prop(text: str) -> str:
        return _escape(text).replace(":", "%3A").replace(",", "%2C")

    for p in problems:
        msg = f"{p.field}: {p.message}" if p.field else p.message
        print(f"::{p.severity} file={prop(p.file)},line={p.line},col={p.column},"
              f"title={prop('machikoro ' + p.code)}::{_escape(msg)}")


def _escape(text: str) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return one_line(text)  # any other line break (U+2028, U+0085) as an escape
