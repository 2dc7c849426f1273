"""``machikoro validate``'s checks: which kind of file is this, then the right checker.

A folder is checked as a rule set (when it holds a rules or card file) and each variant,
strategy and rule case in it on its own; a rules file as its folder's rule set; a variant
as the rule set it makes; a card file within its folder's rule set (or, when its folder has
none, as an addition to the rule set given with ``--variant``, default the base set); a
rule-case file against its schema and its rule set; a strategy against the rule set it
names, else the one given with ``--variant``. A folder of folders (``variants/``) is searched a few levels deep (:class:`_Walk`);
only regular files are read, and a file or folder that cannot be read is a problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ..agents.strategy_files import check_strategy_file
from ..data.buffers import held_in, is_held, read_text
from ..data.bundled import resolve_variant, unknown_variant
from ..data.documents import Document
from ..errors import Problem
from ..rules.build import build
from ..rules.file_kinds import display, foreign, kind_of, read
from ..rules.loader import in_order, load_into, load_raw
from ..rules.raw import add_card, card_findings
from ..rules.variants import MAX_PROBLEMS_PER_FILE, folder_variant
from .rule_cases import check_case_file

FolderProblems = Callable[[Path], list[Problem]]


def check_files(paths: list[str | Path], variant: str | Path | None = None,
                skipped: list[str] | None = None) -> list[Problem]:
    """Every problem (errors and warnings) in the given files or folders, checked as the
    module's text says; ``variant`` is the rule set of a lone card or a rule case that names
    none. A problem found twice (two files of one folder) is listed once, in file, line and
    column order, and at most :data:`MAX_PROBLEMS_PER_FILE` per file.

    When ``skipped`` is a list, a given file that is not a machikoro file at all (another
    tool's YAML, see :func:`~machikoro.rules.file_kinds.foreign`) is appended to it instead
    of being reported: a pre-commit hook in a repository holding other YAML files."""
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
            problems += _Walk(path, folder_problems, context).problems()
            continue
        found: list[Problem] = []
        doc = read(path, found, str(given))
        if skipped is not None and foreign(path, doc):
            skipped.append(str(given))
            continue
        kind = kind_of(doc, found) if doc is not None else None
        problems += found
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
    """The problems of a file checked on its own: a rule case or a strategy, against its
    own variant, else ``context`` (``--variant``), else the base set."""
    if kind == "case":
        return check_case_file(doc, context)
    return check_strategy_file(doc, context)


def _listing(folder: Path) -> tuple[list[Path], list[Problem]]:
    """The entries of ``folder`` with the files an editor holds there unsaved
    (:func:`~machikoro.data.buffers.held_in`), or none and the problem saying why it
    cannot be listed."""
    unsaved = held_in(folder)
    try:
        return sorted(set(folder.iterdir()) | set(unsaved)), []
    except OSError as exc:
        if unsaved:
            return unsaved, []
        return [], [Problem(display(folder), 1, 1, "", "cannot list this folder: "
                            f"{exc.strerror or exc}", "file")]


MAX_DEPTH = 4
"""How many levels of sub-folders a folder of folders is searched."""

MAX_FOLDERS = 500
"""How many folders one folder argument may make validate visit (``validate /``)."""


class _Walk:
    """Checking one folder argument: the folder as a rule set when it holds YAML files,
    else each sub-folder (a folder of folders, like ``variants/``), at most
    :data:`MAX_DEPTH` levels and :data:`MAX_FOLDERS` folders deep. Below the folder given,
    a folder whose YAML files are all another tool's is not a machikoro folder: skipped."""

    def __init__(self, top: Path, folder_problems: FolderProblems, context=None):
        self.top, self.folder_problems, self.visited = top, folder_problems, 0
        self.context = context  # the --variant of the cases and strategies that name none
        self.other_yaml = False  # YAML files of another tool were seen and skipped

    def problems(self) -> list[Problem]:
        found = self.folder(self.top, 0)
        if self.visited > MAX_FOLDERS:
            return (found or []) + [Problem(
                display(self.top), 1, 1, "", f"stopped after {MAX_FOLDERS} folders: give "
                "the rule-set folders or files to check", "limits")]
        if found is None:
            what = "machikoro YAML files" if self.other_yaml else "YAML files"
            below = f" or {MAX_DEPTH} levels below it" if self.visited > 1 else ""
            return [Problem(display(self.top), 1, 1, "", f"no {what} in this folder{below}",
                            "no-yaml")]
        return found

    def folder(self, folder: Path, depth: int) -> list[Problem] | None:
        """The problems of ``folder``; None when it holds no machikoro file."""
        self.visited += 1
        entries, trouble = _listing(folder)
        if trouble:
            return trouble
        files = [p for p in entries if p.suffix in (".yaml", ".yml") and _is_file(p)]
        if not files:  # a folder of folders (variants/house, variants/strategies)
            return self.subfolders(entries, depth)
        problems: list[Problem] = []
        ruleset = ours = False
        for path in files:
            quiet: list[Problem] = []  # reported by the rule-set check of the folder
            doc = read(path, quiet)
            if depth and foreign(path, doc):
                self.other_yaml = True
                continue
            ours = True
            kind = kind_of(doc, quiet) if doc is not None else None
            if kind == "variant":
                load_into(path, problems)
            elif kind in ("case", "strategy"):
                problems += _check_other(doc, kind, self.context)
            else:
                ruleset = True
        if ruleset:
            problems = self.folder_problems(folder) + problems
        return problems if ours else None

    def subfolders(self, entries: list[Path], depth: int) -> list[Problem] | None:
        found: list[Problem] | None = None
        for sub in entries if depth < MAX_DEPTH else ():
            if self.visited > MAX_FOLDERS:
                break
            if _is_folder(sub) and not sub.name.startswith("."):
                more = self.folder(sub, depth + 1)
                if more is not None:
                    found = (found or []) + more
        return found


_RULES_FILE = re.compile(r"^kind:\s*[\"']?rules[\"']?\s*(#.*)?$", re.MULTILINE)


def _check_card(path: Path, doc: Document, folder_problems: FolderProblems,
                context=None) -> list[Problem]:
    """A card file's problems: within its folder's rule set when the folder has a rules
    file (or is a variant: ``include_folder: true``), every problem of that rule set, the
    other files' too (the card is not playable while its rule set is broken, and a fix of
    its own problems must not look like the end of the work); else as a lone card added to
    (or replacing its id in) the ``context`` rule set."""
    folder = path.parent
    if _is_rule_set_folder(folder):
        return folder_problems(folder)
    problems: list[Problem] = []
    missing = [c for c in (context if isinstance(context, list) else [context])
               if c is not None and str(c) != "base" and not Path(c).exists()]
    if missing:
        return [Problem(str(missing[0]), 1, 1, "", f"--variant: {unknown_variant(missing[0])}",
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


def _is_rule_set_folder(folder: Path) -> bool:
    """True when a card file in ``folder`` is checked within the folder's rule set: the
    folder has a rules file (or a file that may be one) or is a variant."""
    entries, _ = _listing(folder)
    return any(_may_be_rules(p) for p in entries) or folder_variant(folder) is not None


def rule_set_of(path: Path, doc: Document | None, context=None):
    """The rule set :func:`check_files` checks the file at ``path`` (read as ``doc``, None
    when it does not read) in, as :func:`~machikoro.rules.loader.load_into` takes it: the
    variant file itself, the folder of a rules file or of a card in a rule-set folder, the
    ``variant`` a rule case or a strategy names (resolved beside the file), else
    ``context`` (the resolved ``--variant``; None: the base set). The language server
    completes and explains a file in this rule set."""
    kind = kind_of(doc, []) if doc is not None else None
    if kind == "variant":
        return path
    if kind == "rules":
        return path.parent
    if kind in ("case", "strategy"):
        named = doc.data.get("variant")
        if isinstance(named, str) and named not in ("", "base"):
            return resolve_variant(named, path.parent)
        if isinstance(named, list) and named and all(isinstance(v, str) for v in named):
            return [resolve_variant(v, path.parent) for v in named]
        return context
    if kind is not None and _is_rule_set_folder(path.parent):
        return path.parent
    return context


def _is_file(path: Path) -> bool:
    if is_held(path):  # open in an editor, saved or not
        return True
    try:
        return path.is_file()
    except OSError:  # a path that cannot be looked at is reported when it is read
        return True


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink()  # no loops through links
    except OSError:
        return False


def _may_be_rules(path: Path) -> bool:
    """True when ``path`` is a YAML file with a ``kind: rules`` line, or one that cannot be
    read (it may be the rules file: the folder's check then reports it)."""
    if path.suffix not in (".yaml", ".yml") or not _is_file(path):
        return False
    try:
        if not is_held(path) and path.stat().st_size >= 1 << 16:
            return False
        text = read_text(path)
        return len(text) < 1 << 16 and bool(_RULES_FILE.search(text))
    except OSError:
        return True
