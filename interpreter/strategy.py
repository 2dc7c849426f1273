"""Strategies as data: build priorities with conditions, played by :class:`StrategyAgent`.

A strategy file (``kind: strategy``, ``schema/strategy.schema.json``) lists what to build,
most wanted first, each entry with an optional ``when`` written in the effect language's
condition syntax (``owner has 2 or more ranch and owner has train_station``) and an
optional ``max`` (copies to own at most); an optional ``dice`` list says how many dice to
roll; ``otherwise`` says what to do when no entry applies (``save``, ``greedy``,
``random``). Bundled strategies live in ``variants/strategies/`` and are named by their
file stem (``--agents cheese-factory``).

Conditions are compiled once, when the file loads, against the rule set the strategy
plays (:func:`vocabulary`), with :func:`~machikoro.effects.compile_condition`; a game only
calls their ``test(game, seat)``. Every problem in a file is a located
:class:`~machikoro.errors.Problem`: schema errors, unknown card ids (with a "did you
mean") and condition errors at the exact column inside the YAML string.
"""

from __future__ import annotations

import difflib
import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import schemas
from .agents import GreedyAgent
from .effects import EffectError, Vocabulary, compile_condition
from .errors import DataError, Problem
from .game import Decision, Game
from .loading import Document, json_path, read_yaml
from .resources import data_dir, resolve_variant
from .ruleset import load_ruleset

KIND = "strategy"
FALLBACKS = ("save", "greedy", "random")


def vocabulary(rules) -> Vocabulary:
    """The names a condition may use in ``rules`` (a :class:`~machikoro.ruleset.RuleSet`):
    card ids, icons, colours (every colour of the rules file, even one no card has), the
    landmarks, the victory landmarks and the establishments, as card indices."""
    icons: dict[str, list[int]] = {}
    colours: dict[str, list[int]] = {name: [] for name in rules.colours}
    for i, card in enumerate(rules.cards):
        if card.icon:
            icons.setdefault(card.icon, []).append(i)
        if card.colour:
            colours.setdefault(card.colour, []).append(i)
    return Vocabulary(dict(rules.index), {k: tuple(v) for k, v in icons.items()},
                      {k: tuple(v) for k, v in colours.items()}, tuple(rules.landmarks),
                      tuple(rules.victory), tuple(rules.establishments))


@dataclass(frozen=True)
class Condition:
    """A compiled ``when``: all of ``tests`` must hold; ``text`` is its source."""

    tests: tuple
    text: str = ""

    def test(self, game: Game, seat: int) -> bool:
        """True when every test holds for ``seat`` (the strategy's player) now."""
        for t in self.tests:
            if not t.test(game, seat):
                return False
        return True


ALWAYS = Condition((), "")


@dataclass(frozen=True)
class Priority:
    """One ``build`` entry: build ``card`` (index ``index``) when ``when`` holds and the
    player owns fewer than ``max`` copies (None: no cap)."""

    card: str
    index: int
    when: Condition = ALWAYS
    max: int | None = None


@dataclass(frozen=True)
class DiceRule:
    """One ``dice`` entry: roll ``roll`` dice when ``when`` holds."""

    roll: int
    when: Condition = ALWAYS


@dataclass(frozen=True)
class Strategy:
    """A loaded strategy, compiled against one rule set (``rules``).

    ``key`` is the file stem (the name used with ``--agents``); ``dice`` is None when the
    file has no ``dice`` field (the greedy choice); ``warnings`` lists non-fatal problems.
    """

    key: str
    name: str
    description: str
    build: tuple
    dice: tuple | None
    otherwise: str
    rules: Any = field(compare=False, repr=False)
    file: str = ""
    warnings: tuple = field(default=(), compare=False, repr=False)

    def agent(self, seed: int | None = None) -> StrategyAgent:
        """A new agent playing this strategy (``seed`` seeds its fallback choices)."""
        return StrategyAgent(self, seed)

    def __str__(self) -> str:
        return f"{self.key}: {self.name}"


class StrategyAgent:
    """Plays a :class:`Strategy`.

    - ``build``: the first priority whose card is among the options, whose ``max`` is not
      reached and whose ``when`` holds for the agent's seat; else the ``otherwise``
      fallback (``save``: nothing; ``greedy``: :class:`~machikoro.agents.GreedyAgent`;
      ``random``: any option, uniformly).
    - ``dice``: the first dice rule whose count is allowed and whose ``when`` holds, else
      the fewest dice; without dice rules, the greedy choice.
    - every other decision (reroll, a chosen player, a swap): the greedy choice.
    """

    def __init__(self, strategy: Strategy, seed: int | None = None):
        self.strategy = strategy
        self.name = strategy.key
        self._greedy = GreedyAgent(seed=seed)
        self._random = random.Random(seed).random

    def choose(self, game: Game, decision: Decision) -> Any:
        if decision.card is None:
            if decision.name == "build":
                return self._build(game, decision)
            if decision.name == "dice" and self.strategy.dice is not None:
                return self._dice(game, decision)
        return self._greedy.choose(game, decision)

    def _build(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        seat = decision.player
        town = game.owned[seat]
        for entry in self.strategy.build:
            if entry.card not in options:
                continue
            if entry.max is not None and town[entry.index] >= entry.max:
                continue
            if entry.when.test(game, seat):
                return entry.card
        fallback = self.strategy.otherwise
        if fallback == "greedy":
            return self._greedy.choose(game, decision)
        if fallback == "random":
            return options[int(self._random() * len(options))]
        return None if None in options else options[0]

    def _dice(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        seat = decision.player
        for rule in self.strategy.dice:
            if rule.roll in options and rule.when.test(game, seat):
                return rule.roll
        return min(options)


# --------------------------------------------------------------------------- finding files


def bundled_strategies() -> list[str]:
    """The names (file stems) of the bundled strategies in ``variants/strategies/``."""
    try:
        folder = data_dir("variants") / "strategies"
    except FileNotFoundError:
        return []
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml") if p.is_file())


def find_strategy(name: str | Path) -> Path | None:
    """The strategy file ``name`` stands for: an existing file path as given, else a
    bundled strategy by name (``cheese-factory``, with or without ``.yaml``); None when
    there is neither."""
    path = Path(name)
    if path.is_file():
        return path
    try:
        folder = data_dir("variants") / "strategies"
    except FileNotFoundError:
        return None
    stem = str(name)
    if "/" in stem or "\\" in stem or stem.startswith("."):
        return None
    for candidate in (folder / stem, folder / f"{stem}.yaml"):
        if candidate.is_file() and candidate.suffix in (".yaml", ".yml"):
            return candidate
    return None


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


# --------------------------------------------------------------------------- loading


def load_strategy(path: str | Path, rules) -> Strategy:
    """Load a strategy file and compile it against ``rules`` (the
    :class:`~machikoro.ruleset.RuleSet` it will play).

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
def _load_cached(key: tuple, path: str, rules) -> Strategy:
    doc = read_yaml(path, _display(Path(path)))
    strategy, problems = _compile(doc, rules)
    errors = [p for p in problems if p.severity == "error"]
    if errors or strategy is None:
        raise DataError(errors or [doc.problem((), "not a usable strategy", KIND)])
    return strategy


def check_strategy_file(doc: Document) -> list[Problem]:
    """Every problem (errors and warnings) of a strategy document, for ``machikoro
    validate``: schema problems, then card ids and conditions checked against the rule set
    named by its ``variant`` field (default: the bundled base set)."""
    return _compile(doc, None)[1]


def _variant_rules(doc: Document) -> tuple[Any, list[Problem]]:
    """The rule set a document's ``variant`` names (the base set by default), or None and
    the problem saying why it does not load."""
    spec = doc.data.get("variant", "base") if isinstance(doc.data, dict) else "base"
    if not isinstance(spec, str) or spec == "base":
        target: Any = None
    else:
        beside = Path(doc.file).parent / spec
        target = beside if beside.is_file() else resolve_variant(spec)
    try:
        stamp = Path(target).stat().st_mtime_ns if target and Path(target).exists() else 0
        return _ruleset(str(target) if target is not None else None, stamp), []
    except DataError as exc:
        return None, [doc.problem(("variant",), f"the variant does not load: "
                                  f"{exc.problems[0]}", "variant")]


@lru_cache(maxsize=8)
def _ruleset(target: str | None, stamp: int):
    """The rule set ``target`` names, loaded once per modification time ``stamp``."""
    return load_ruleset(target)


def _compile(doc: Document, rules) -> tuple[Strategy | None, list[Problem]]:
    """Check ``doc`` and compile it against ``rules`` (None: the rule set its ``variant``
    names). Returns the strategy (None when it has errors) and every problem found."""
    data = doc.data
    if not isinstance(data, dict):
        return None, [doc.problem((), "expected a mapping of fields ('kind: strategy' and so "
                                  f"on), got {schemas._describe(data)}", "kind")]
    if data.get("kind") != KIND:
        got = f"'kind: {data['kind']}'" if "kind" in data else "no 'kind' field"
        return None, [doc.problem(("kind",) if "kind" in data else (), f"not a strategy file "
                                  f"({got}): a strategy starts with 'kind: strategy'", "kind")]
    found = schemas.findings(data, KIND)
    problems = schemas.problems_of(doc, found)
    if not found.complete:
        return None, problems
    bad = [p for f in found for p in f.fields]

    def usable(path: tuple) -> bool:
        """False when the schema reported the value at ``path`` or a mapping holding it."""
        return not any(path[:len(b)] == b for b in bad)

    def whole(path: tuple) -> bool:
        """True when the schema reported nothing at, above or inside ``path``."""
        return usable(path) and not any(b[:len(path)] == path for b in bad)

    if rules is None:
        rules, trouble = _variant_rules(doc)
        if rules is None:
            return None, problems + trouble
    vocab = vocabulary(rules)

    def condition(path: tuple) -> Condition:
        text = _get(data, path)
        if text is None or not usable(path):
            return ALWAYS
        # a block scalar (when: >) may keep line breaks; the language reads them as spaces
        flat = text.replace("\n", " ")
        try:
            return Condition(compile_condition(flat, vocab), flat.strip())
        except EffectError as exc:
            line, column = doc.locate(path, exc.column - 1)
            problems.append(Problem(doc.file, line, column, json_path(path), exc.message,
                                    exc.code, "error", doc.source(line), exc.span))
            return ALWAYS

    build: list[Priority] = []
    entries = data.get("build") if usable(("build",)) else None
    for i, entry in enumerate(entries or ()):
        if not whole(("build", i)):
            condition(("build", i, "when"))  # its condition may hold a problem of its own
            continue
        card = entry["card"]
        when = condition(("build", i, "when"))
        if card not in rules.index:
            hint = difflib.get_close_matches(card, rules.ids, n=1)
            more = f" - did you mean '{hint[0]}'?" if hint else ""
            problems.append(doc.problem(("build", i, "card"), f"unknown card id '{card}'"
                                        f"{more}", "unknown-name", span=len(card)))
            continue
        index = rules.index[card]
        cap = entry.get("max")
        if cap is not None and cap > rules.limit[index]:
            problems.append(doc.problem(("build", i, "max"), f"a player may own at most "
                                        f"{rules.limit[index]} {card}, so max {cap} never "
                                        "stops buying", "strategy-max", severity="warning"))
        build.append(Priority(card, index, when, cap))

    dice: list[DiceRule] | None = None
    if "dice" in data and usable(("dice",)):
        dice = []
        counts = {rules.dice_count} | {n for _, options in rules.dice_options for n in options}
        for i, rule in enumerate(data["dice"]):
            if not whole(("dice", i)):
                condition(("dice", i, "when"))
                continue
            when = condition(("dice", i, "when"))
            if rule["roll"] not in counts:
                allowed = ", ".join(str(n) for n in sorted(counts))
                problems.append(doc.problem(("dice", i, "roll"), f"no card in this rule set "
                                            f"lets a player roll {rule['roll']} dice "
                                            f"(possible: {allowed})", "strategy-dice",
                                            severity="warning"))
            dice.append(DiceRule(rule["roll"], when))

    problems.sort(key=lambda p: (p.line, p.column))
    if any(p.severity == "error" for p in problems):
        return None, problems
    otherwise = data.get("otherwise", "save")
    strategy = Strategy(
        key=Path(doc.file).stem, name=data["name"], description=data.get("description", ""),
        build=tuple(build), dice=tuple(dice) if dice is not None else None,
        otherwise=otherwise if otherwise in FALLBACKS else "save", rules=rules, file=doc.file,
        warnings=tuple(problems))
    return strategy, problems


def _get(data: Any, path: tuple) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


__all__ = ["Condition", "DiceRule", "Priority", "Strategy", "StrategyAgent",
           "bundled_strategies", "check_strategy_file", "find_strategy", "load_strategy",
           "vocabulary"]
