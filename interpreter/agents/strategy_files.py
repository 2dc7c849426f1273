"""Strategy files: finding them (a path, or a bundled name), loading and compiling them
against a rule set, and checking them for ``machikoro validate``.

Every problem in a file is a located :class:`~machikoro.errors.Problem`: schema errors,
unknown card ids (with a "did you mean") and condition errors at the exact column inside
the YAML string, with :func:`~machikoro.language.compiler.compile_condition`.
"""

from __future__ import annotations

import difflib
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..data import schemas
from ..data.bundled import data_dir, resolve_variant
from ..data.documents import Document, json_path
from ..data.yaml_reader import read_yaml
from ..errors import DataError, Problem
from ..language.compiler import compile_condition
from ..language.parser import EffectError
from ..rules.file_kinds import display
from ..rules.loader import cached_ruleset
from ..rules.ruleset import RuleSet
from .strategy import ALWAYS, FALLBACKS, Condition, DiceRule, Priority, Strategy

KIND = "strategy"


def strategies_folder() -> Path | None:
    """The folder of the bundled strategies (``variants/strategies/``), if any."""
    try:
        folder = data_dir("variants") / "strategies"
    except FileNotFoundError:
        return None
    return folder if folder.is_dir() else None


def bundled_strategies() -> list[str]:
    """The names (file stems) of the bundled strategies in ``variants/strategies/``."""
    folder = strategies_folder()
    if folder is None:
        return []
    return sorted(p.stem for p in folder.glob("*.yaml") if p.is_file())


def find_strategy(name: str | Path) -> Path | None:
    """The strategy file ``name`` stands for: an existing file path as given, else a
    bundled strategy by name (``cheese-factory``, with or without ``.yaml``); None when
    there is neither."""
    path = Path(name)
    if path.is_file():
        return path
    folder = strategies_folder()
    stem = str(name)
    if folder is None or "/" in stem or "\\" in stem or stem.startswith("."):
        return None
    for candidate in (folder / stem, folder / f"{stem}.yaml"):
        if candidate.is_file() and candidate.suffix in (".yaml", ".yml"):
            return candidate
    return None


# --------------------------------------------------------------------------- loading


def load_strategy(path: str | Path, rules: RuleSet) -> Strategy:
    """Load a strategy file and compile it against ``rules`` (the rule set it will play).

    Raises :class:`~machikoro.errors.DataError` listing every error: an unreadable file,
    schema problems, unknown card ids (with a "did you mean"), condition errors located at
    their column inside the YAML string. A file loaded before (same path, same size and
    modification time) with the same rule set is not read again.
    """
    p = Path(path)
    try:
        stat = p.stat()
        key = (str(p.resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = (str(p), 0, 0)
    return _load_cached(key, str(path), rules)


@lru_cache(maxsize=64)
def _load_cached(key: tuple, path: str, rules: RuleSet) -> Strategy:
    doc = read_yaml(path, display(Path(path)))
    strategy, problems = compile_strategy(doc, rules)
    errors = [p for p in problems if p.severity == "error"]
    if errors or strategy is None:
        raise DataError(errors or [doc.problem((), "not a usable strategy", KIND)])
    return strategy


def check_strategy_file(doc: Document) -> list[Problem]:
    """Every problem (errors and warnings) of a strategy document, for ``machikoro
    validate``: schema problems, then card ids and conditions checked against the rule set
    named by its ``variant`` field (default: the bundled base set)."""
    return compile_strategy(doc, None)[1]


def _variant_rules(doc: Document) -> tuple[RuleSet | None, list[Problem]]:
    """The rule set a document's ``variant`` names (the base set by default; a path beside
    the file or a bundled name), or None and the problem saying why it does not load."""
    spec = doc.data.get("variant", "base") if isinstance(doc.data, dict) else "base"
    if not isinstance(spec, str):
        spec = "base"
    try:
        return cached_ruleset(resolve_variant(spec, Path(doc.file).parent)), []
    except DataError as exc:
        return None, [doc.problem(("variant",), f"the variant does not load: "
                                  f"{exc.problems[0]}", "variant")]


def _header_problems(doc: Document) -> list[Problem]:
    """A document that is not a mapping with ``kind: strategy``: why."""
    data = doc.data
    if not isinstance(data, dict):
        return [doc.problem((), "expected a mapping of fields ('kind: strategy' and so "
                            f"on), got {schemas.describe(data)}", "kind")]
    if data.get("kind") != KIND:
        got = f"'kind: {data['kind']}'" if "kind" in data else "no 'kind' field"
        return [doc.problem(("kind",) if "kind" in data else (), f"not a strategy file "
                            f"({got}): a strategy starts with 'kind: strategy'", "kind")]
    return []


def compile_strategy(doc: Document, rules: RuleSet | None) -> tuple[Strategy | None,
                                                                     list[Problem]]:
    """Check ``doc`` and compile it against ``rules`` (None: the rule set its ``variant``
    names). Returns the strategy (None when it has errors) and every problem found, in line
    order."""
    header = _header_problems(doc)
    if header:
        return None, header
    found = schemas.findings(doc.data, KIND)
    problems = schemas.problems_of(doc, found)
    if not found.complete:
        return None, problems
    if rules is None:
        rules, trouble = _variant_rules(doc)
        if rules is None:
            return None, problems + trouble
    compiler = _StrategyCompiler(doc, rules, found, problems)
    build = compiler.build_entries()
    dice = compiler.dice_rules()
    problems.sort(key=lambda p: (p.line, p.column))
    if any(p.severity == "error" for p in problems):
        return None, problems
    data = doc.data
    otherwise = data.get("otherwise", "save")
    strategy = Strategy(
        key=Path(doc.file).stem, name=data["name"], description=data.get("description", ""),
        build=tuple(build), dice=tuple(dice) if dice is not None else None,
        otherwise=otherwise if otherwise in FALLBACKS else "save", rules=rules, file=doc.file,
        warnings=tuple(problems))
    return strategy, problems


class _StrategyCompiler:
    """Compiles the parts of one schema-checked strategy document against a rule set,
    skipping the parts the schema reported (their problems are already in ``problems``)."""

    def __init__(self, doc: Document, rules: RuleSet, found: list, problems: list[Problem]):
        self.doc, self.data, self.rules, self.problems = doc, doc.data, rules, problems
        self.bad = [p for f in found for p in f.fields]

    def usable(self, path: tuple) -> bool:
        """False when the schema reported the value at ``path`` or a mapping holding it."""
        return not any(path[:len(b)] == b for b in self.bad)

    def whole(self, path: tuple) -> bool:
        """True when the schema reported nothing at, above or inside ``path``."""
        return self.usable(path) and not any(b[:len(path)] == path for b in self.bad)

    def condition(self, path: tuple) -> Condition:
        """The compiled condition at ``path`` (always true when absent or broken)."""
        text = _get(self.data, path)
        if text is None or not self.usable(path):
            return ALWAYS
        # a block scalar (when: >) may keep line breaks; the language reads them as spaces
        flat = text.replace("\n", " ")
        try:
            return Condition(compile_condition(flat, self.rules.vocabulary), flat.strip())
        except EffectError as exc:
            doc = self.doc
            line, column = doc.locate(path, exc.column - 1)
            self.problems.append(Problem(doc.file, line, column, json_path(path), exc.message,
                                         exc.code, "error", doc.source(line), exc.span))
            return ALWAYS

    def build_entries(self) -> list[Priority]:
        """The ``build`` list: known card ids, each with its condition and cap."""
        rules, doc = self.rules, self.doc
        build: list[Priority] = []
        entries = self.data.get("build") if self.usable(("build",)) else None
        for i, entry in enumerate(entries or ()):
            when = self.condition(("build", i, "when"))  # checked even in a broken entry
            if not self.whole(("build", i)):
                continue
            card = entry["card"]
            if card not in rules.index:
                hint = difflib.get_close_matches(card, rules.ids, n=1)
                more = f" - did you mean '{hint[0]}'?" if hint else ""
                self.problems.append(doc.problem(("build", i, "card"), f"unknown card id "
                                                 f"'{card}'{more}", "unknown-name",
                                                 span=len(card)))
                continue
            index = rules.index[card]
            cap = entry.get("max")
            if cap is not None and cap > rules.limit[index]:
                self.problems.append(doc.problem(
                    ("build", i, "max"), f"a player may own at most {rules.limit[index]} "
                    f"{card}, so max {cap} never stops buying", "strategy-max",
                    severity="warning"))
            build.append(Priority(card, index, when, cap))
        return build

    def dice_rules(self) -> list[DiceRule] | None:
        """The ``dice`` list (None without one); a count no card offers is a warning."""
        if "dice" not in self.data or not self.usable(("dice",)):
            return None
        rules = self.rules
        dice = []
        counts = {rules.dice_count} | {n for _, options in rules.dice_options for n in options}
        for i, rule in enumerate(self.data["dice"]):
            when = self.condition(("dice", i, "when"))
            if not self.whole(("dice", i)):
                continue
            if rule["roll"] not in counts:
                allowed = ", ".join(str(n) for n in sorted(counts))
                self.problems.append(self.doc.problem(
                    ("dice", i, "roll"), f"no card in this rule set lets a player roll "
                    f"{rule['roll']} dice (possible: {allowed})", "strategy-dice",
                    severity="warning"))
            dice.append(DiceRule(rule["roll"], when))
        return dice


def _get(data: Any, path: tuple) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data
