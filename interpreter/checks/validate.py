"""``machikoro validate``'s checks: which kind of file is this, then the right checker.

A folder is checked as a rule set (when it holds a rules or card file) and each variant,
strategy and rule case in it on its own; a rules file as its folder's rule set; a variant
as the rule set it makes; a card file within its folder's rule set (or, when its folder has
none, as an addition to the rule set given with ``--variant``, default the base set); a
rule-case file against its schema and its rule set; a strategy against the rule set it
names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ..agents.strategy_files import check_strategy_file
from ..data.bundled import resolve_variant
from ..data.documents import Document
from ..errors import Problem
from ..rules.build import build
from ..rules.file_kinds import display, kind_of, read
from ..rules.loader import in_order, load_into, load_raw
from ..rules.raw import add_card, card_findings
from ..rules.variants import MAX_PROBLEMS_PER_FILE, folder_variant
from .rule_cases import check_case_file

FolderProblems = Callable[[Path], list[Problem]]


def check_files(paths: list[str | Path], variant: str | Path | None = None) -> list[Problem]:
    """Every problem (errors and warnings) in the given files or folders, checked as the
    module's text says; ``variant`` is the rule set of a lone card or a rule case that names
    none. A problem found twice (two files of one folder) is listed once, in file, line and
    column order, and at most :data:`MAX_PROBLEMS_PER_FILE` per file."""
    if isinstance(variant, (list, tuple)):
        context = [resolve_variant(v) for v in variant]
        context = context[0] if len(context) == 1 else context
    else:
        context = resolve_variant(variant)
    problems: list[Problem] = []
    folders: dict[Path, list[Problem]] = {}

    def folder_problems(folder: Path) -> list[Problem]:
        key = folder.resolve()
        if key not in folders:
            folders[key] = []
            load_into(folder, folders[key])
        return folders[key]

    for given in paths:
        path = Path(given)
        if path.is_dir():
            problems += _check_folder(path, folder_problems)
            continue
        doc = read(path, problems, str(given))
        kind = kind_of(doc, problems) if doc is not None else None
        if kind is None:
            continue
        if kind == "variant":
            load_into(path, problems)
        elif kind == "rules":
            problems += folder_problems(path.parent)
        elif kind in ("case", "strategy"):
            problems += _check_other(doc, kind, context)
        else:
            problems += _check_card(path, doc, folder_problems, context)
    return _at_most_per_file(in_order(_unique(problems)))


def _unique(problems: list[Problem]) -> list[Problem]:
    seen: set = set()
    unique = []
    for p in problems:
        key = (p.file, p.line, p.column, p.field, p.message)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


def _at_most_per_file(problems: list[Problem]) -> list[Problem]:
    """The first :data:`MAX_PROBLEMS_PER_FILE` problems of each file (a generated or hostile
    file can hold hundreds), and a note of how many more there are."""
    shown: list[Problem] = []
    count: dict[str, int] = {}
    for p in problems:
        count[p.file] = count.get(p.file, 0) + 1
        if count[p.file] <= MAX_PROBLEMS_PER_FILE:
            shown.append(p)
    for name, n in count.items():
        if n > MAX_PROBLEMS_PER_FILE:
            at = max(i for i, p in enumerate(shown) if p.file == name)
            shown.insert(at + 1, Problem(name, shown[at].line, 1, "", f"... and "
                                         f"{n - MAX_PROBLEMS_PER_FILE} more problems in this "
                                         "file", "too-many"))
    return shown


def _check_other(doc: Document, kind: str, context=None) -> list[Problem]:
    """The problems of a file checked on its own: a rule case (against its own variant,
    else ``context``) or a strategy."""
    if kind == "case":
        return check_case_file(doc, context)
    return check_strategy_file(doc)


def _check_folder(folder: Path, folder_problems: FolderProblems,
                  depth: int = 0) -> list[Problem]:
    files = sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    if not files:  # a folder of folders (variants/house, variants/strategies): each of them
        return _check_subfolders(folder, folder_problems, depth)
    problems: list[Problem] = []
    ruleset = False
    for path in files:
        quiet: list[Problem] = []  # reported by the rule-set check of the folder
        doc = read(path, quiet)
        kind = kind_of(doc, quiet) if doc is not None else None
        if kind == "variant":
            load_into(path, problems)
        elif kind in ("case", "strategy"):
            problems += _check_other(doc, kind)
        else:
            ruleset = True
    if ruleset:
        problems = folder_problems(folder) + problems
    return problems


def _check_subfolders(folder: Path, folder_problems: FolderProblems,
                      depth: int) -> list[Problem]:
    subfolders = sorted(p for p in folder.iterdir() if p.is_dir()
                        and not p.name.startswith(".")) if depth < 4 else []
    found = [_check_folder(sub, folder_problems, depth + 1) for sub in subfolders]
    found = [f for f in found if not (len(f) == 1 and f[0].code == "no-yaml")]
    if not found:
        return [Problem(display(folder), 1, 1, "", "no YAML files in this folder", "no-yaml")]
    return [p for f in found for p in f]


_KIND_LINE = re.compile(r"^kind:\s*[\"']?(\w+)[\"']?\s*(#.*)?$", re.MULTILINE)


def _declared_kind(path: Path) -> str | None:
    """The ``kind:`` a small YAML file declares on a line of its own (a quick look)."""
    try:
        if path.stat().st_size >= 1 << 16:
            return None
        match = _KIND_LINE.search(path.read_text("utf-8", "replace"))
    except OSError:
        return None
    return match.group(1) if match else None


def _check_card(path: Path, doc: Document, folder_problems: FolderProblems,
                context=None) -> list[Problem]:
    """A card file's problems: within its folder's rule set when the folder has a rules
    file (or is a variant: ``include_folder: true``), else as a lone card added to (or
    replacing its id in) the ``context`` rule set."""
    folder = path.parent
    kinds = [_declared_kind(p) for p in folder.iterdir()
             if p.is_file() and p.suffix in (".yaml", ".yml")]
    if "rules" in kinds or folder_variant(folder) is not None:  # a rule set, or a variant
        problems = folder_problems(folder)
        own = [p for p in problems if Path(p.file).resolve() == path.resolve()]
        return own if own or not problems else problems
    problems: list[Problem] = []
    missing = [c for c in (context if isinstance(context, list) else [context])
               if c is not None and str(c) != "base" and not Path(c).exists()]
    if missing:
        return [Problem(str(missing[0]), 1, 1, "", "--variant: no such file or folder",
                        "file")]
    raw = load_raw(context, problems)
    if raw is None or any(p.severity == "error" for p in problems):
        return problems  # the context rule set itself is broken
    problems.clear()
    if isinstance(doc.data, dict) and isinstance(doc.data.get("id"), str):
        raw.cards.pop(doc.data["id"], None)  # a lone card replaces the card of its id
    found = card_findings(doc, problems)
    add_card(doc, (), doc.data, found, raw.cards, raw.unread, problems)
    build(raw)  # raw.problems is `problems`
    return [p for p in problems if p.file == doc.file]
