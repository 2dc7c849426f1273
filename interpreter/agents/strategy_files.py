"""Strategy files: finding them (a path, or a bundled name), loading and compiling them
against a rule set, and checking them for ``machikoro validate``.

Every problem in a file is a located :class:`~machikoro.errors.Problem`: schema errors,
unknown card ids (with a "did you mean", naming the rule set), condition and ranking errors
at the exact column inside the YAML string (the effect language's compiler, with the
strategy words of :mod:`.strategy_values`), phases that do not connect, and version 2
fields in a file that says ``version: 1``.
"""

from __future__ import annotations

import copy
import difflib
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..data import schemas
from ..data.bundled import data_dir, resolve_variant
from ..data.documents import Document, json_path
from ..data.yaml_reader import read_yaml
from ..errors import DataError, Problem
from ..language.compiler import compile_choice, compile_condition, compile_ranking
from ..language.parser import EffectError
from ..records import replace
from ..rules.file_kinds import display
from ..rules.loader import cached_ruleset
from ..rules.ruleset import RuleSet
from . import strategy_values
from .decision_rules import NEVER, SHAPES, ChoiceRule
from .strategy import ALWAYS, Condition, DiceRule, Entry, Phase, Strategy

KIND = "strategy"

VERSION_2_FIELDS = ("phases", "prefer", "reroll", "choose")
"""Top-level fields a version 1 file may not use (entries: ``cards``, ``prefer``,
``save``; ``dice`` as a number)."""

PHASE_FIELDS = ("build", "prefer", "dice", "reroll", "choose", "otherwise")
"""The fields a phase has of its own, defaulting to the file's top-level ones."""

VICTORY_WORD = "landmarks"
"""In a build entry's ``cards``, the word for the landmarks the rule set's victory needs
(its ``victory.landmarks``, in that order), resolved when the strategy is compiled for a
rule set: ``cards: [landmarks]`` plays under the base set, the Harbor, a stack of
variants... (the effect language's ``landmarks`` also counts the victory landmarks)."""

FALLBACK_RANKING = "most expensive"
"""How a strategy that names too few victory landmarks ranks the missing ones it builds
once nothing of its build list applies (see :meth:`_StrategyCompiler.victory_fallback`)."""


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


def check_strategy_file(doc: Document, context=None) -> list[Problem]:
    """Every problem (errors and warnings) of a strategy document, for ``machikoro
    validate``: schema problems, then card ids and conditions checked against the rule set
    named by its ``variant`` field, else ``context`` (the resolved ``--variant``: a path,
    ``base`` or None, or a list of them stacked), else the bundled base set."""
    return compile_strategy(doc, None, context)[1]


def _variant_rules(doc: Document, context=None) -> tuple[RuleSet | None, list[Problem]]:
    """The rule set a document's ``variant`` names (a path beside the file or a bundled
    name), else ``context``, else the base set; or None and the problem saying why it does
    not load."""
    spec = doc.data.get("variant") if isinstance(doc.data, dict) else None
    try:
        if isinstance(spec, str):
            return cached_ruleset(resolve_variant(spec, Path(doc.file).parent)), []
        return cached_ruleset(context if context is not None else "base"), []
    except DataError as exc:
        at = ("variant",) if isinstance(spec, str) else ()
        return None, [doc.problem(at, f"the variant does not load: {exc.problems[0]}",
                                  "variant")]


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


def compile_strategy(doc: Document, rules: RuleSet | None, context=None
                     ) -> tuple[Strategy | None, list[Problem]]:
    """Check ``doc`` and compile it against ``rules`` (None: the rule set its ``variant``
    names, else ``context`` as :func:`check_strategy_file` takes it, else the base set).
    Returns the strategy (None when it has errors) and every problem found, in line
    order."""
    header = _header_problems(doc)
    if header:
        return None, header
    found = schemas.findings(doc.data, KIND)
    problems = schemas.problems_of(doc, found)
    if not found.complete:
        return None, problems
    if rules is None:
        rules, trouble = _variant_rules(doc, context)
        if rules is None:
            return None, problems + trouble
    compiler = _StrategyCompiler(doc, rules, found, problems)
    version = compiler.version()
    phases = compiler.phases()
    if any(p.severity == "error" for p in problems):
        problems.sort(key=lambda p: (p.line, p.column))
        return None, problems
    phases, missing = compiler.victory_fallback(phases)
    problems.sort(key=lambda p: (p.line, p.column))
    data = doc.data
    strategy = Strategy(
        key=Path(doc.file).stem, name=data["name"], description=data.get("description", ""),
        phases=phases, rules=rules, file=doc.file, source=data.get("source", ""),
        version=version, warnings=tuple(problems),
        missing_landmarks=tuple(rules.ids[i] for i in missing))
    return strategy, problems


def _pruned(data: dict, bad: list) -> dict:
    """A copy of ``data`` without the values the schema reported (``bad`` paths): a
    mapping loses the key, a list keeps None in the item's place (positions stay those of
    the file), so that compiling reads only well-formed values."""
    out = copy.deepcopy(data)
    for path in sorted(bad, key=len, reverse=True):
        parent = out
        for part in path[:-1]:
            try:
                parent = parent[part]
            except (KeyError, IndexError, TypeError):
                parent = None
                break
        if isinstance(parent, dict):
            parent.pop(path[-1], None) if path else None
        elif isinstance(parent, list) and isinstance(path[-1], int) \
                and path[-1] < len(parent):
            parent[path[-1]] = None
    return out if isinstance(out, dict) else {}


class _StrategyCompiler:
    """Compiles the parts of one schema-checked strategy document against a rule set,
    skipping the parts the schema reported (their problems are already in ``problems``)."""

    def __init__(self, doc: Document, rules: RuleSet, found: list, problems: list[Problem]):
        self.bad = [p for f in found for p in f.fields]
        self.doc, self.rules, self.problems = doc, rules, problems
        self.data = _pruned(doc.data, self.bad)

    def usable(self, path: tuple) -> bool:
        """False when the schema reported the value at ``path`` or a mapping holding it."""
        return not any(path[:len(b)] == b for b in self.bad)

    def whole(self, path: tuple) -> bool:
        """True when the schema reported nothing at, above or inside ``path``."""
        return self.usable(path) and not any(b[:len(path)] == path for b in self.bad)

    def error(self, path: tuple, message: str, code: str, **kw) -> None:
        """Report a problem at ``path``."""
        self.problems.append(self.doc.problem(path, message, code, **kw))

    # ------------------------------------------------------------------ texts

    def _text(self, path: tuple, compile_text, extensions: dict | None):
        """Compile the text at ``path`` with ``compile_text``; None when absent, broken or
        wrong (the problem located at its column inside the YAML string)."""
        text = _get(self.data, path)
        if not isinstance(text, str) or not self.usable(path):
            return None
        # a block scalar (when: >) may keep line breaks; the language reads them as spaces
        flat = text.replace("\n", " ")
        try:
            return compile_text(flat, self.rules.vocabulary, extensions)
        except EffectError as exc:
            doc = self.doc
            line, column = doc.locate(path, exc.column - 1)
            message = exc.message
            if exc.code == "unknown-name":
                message += f" (rule set: {self.rules.name})"
            self.problems.append(Problem(doc.file, line, column, json_path(path), message,
                                         exc.code, "error", doc.source(line), exc.span))
            return None

    def condition(self, path: tuple, extensions: dict | None = None) -> Condition | None:
        """The compiled condition at ``path`` (None when absent or broken; ``true`` and
        ``false`` where the schema allows them: always, never)."""
        value = _get(self.data, path)
        if isinstance(value, bool):
            return ALWAYS if value else NEVER
        tests = self._text(path, compile_condition, extensions)
        if tests is None:
            return None
        return Condition(tests, _get(self.data, path).replace("\n", " ").strip())

    def ranking(self, path: tuple, extensions: dict, target: str = "card"):
        """The compiled ranking at ``path`` (None when absent or broken); one that reads
        the wrong kind of option (players where cards are ranked) is an error."""
        ranking = self._text(path, compile_ranking, extensions)
        if ranking is not None and ranking.target not in ("any", target):
            self.error(path, f"'{ranking.text}' ranks {ranking.target}s, but this ranks "
                       f"{target}s", "strategy-ranking")
            return None
        return ranking

    # ------------------------------------------------------------------ build lists

    def card_index(self, path: tuple, card: str) -> int | None:
        """The index of ``card`` in the rule set, or None with an "unknown card id"
        problem naming the rule set."""
        rules = self.rules
        if card in rules.index:
            return rules.index[card]
        hint = difflib.get_close_matches(card, rules.ids, n=1)
        more = f" - did you mean '{hint[0]}'?" if hint else ""
        self.error(path, f"unknown card id '{card}' in {rules.name}{more}", "unknown-name",
                   key=isinstance(path[-1], str) and path[-1] == card, span=len(card))
        return None

    def entry_cards(self, path: tuple) -> tuple | None:
        """An entry's ``(id, index, cap)`` triples (None when it has a problem)."""
        entry, rules = _get(self.data, path), self.rules
        if not self.whole(path):
            return None
        if ("card" in entry) == ("cards" in entry):
            self.error(path, "an entry names one card ('card: ID') or a group ('cards: "
                       "[ID, ...]' or 'cards: {ID: copies}'), not both or neither",
                       "strategy-entry")
            return None
        if "card" in entry:
            if entry["card"] == VICTORY_WORD:
                self.error(path + ("card",), f"'{VICTORY_WORD}' stands for every landmark "
                           f"victory needs, a group: write 'cards: [{VICTORY_WORD}]'",
                           "strategy-entry")
                return None
            group = {entry["card"]: entry.get("max")}
            where = {entry["card"]: path + ("card",)}
        else:
            cards = entry["cards"]
            group = dict(cards) if isinstance(cards, dict) else dict.fromkeys(cards)
            where = {c: path + ("cards", c) if isinstance(cards, dict) else
                     path + ("cards", k) for k, c in enumerate(cards)}
            group, where = _with_victory_landmarks(rules, group, where)
            if "max" in entry:
                self.error(path + ("max",), "'max' caps a single 'card'; give a group's "
                           "caps as 'cards: {ID: copies}'", "strategy-entry")
        out = []
        warned = set()  # the word 'landmarks' stands for several cards: one warning
        for card, cap in group.items():
            index = self.card_index(where[card], card)
            if index is None:
                continue
            at = where[card] if "cards" in entry else path + ("max",)
            if cap is not None and cap > rules.limit[index] and at not in warned:
                warned.add(at)
                self.error(at, f"a player may own at most {rules.limit[index]} {card}, so "
                           f"{cap} never stops buying", "strategy-max", severity="warning")
            out.append((card, index, cap if cap is not None else rules.limit[index]))
        return tuple(out)

    def build_entries(self, path: tuple, extensions: dict) -> tuple:
        """The build list at ``path``: entries with their conditions and own rankings."""
        entries = _get(self.data, path) if self.usable(path) else None
        cards = [self.entry_cards(path + (i,)) for i in range(len(entries or ()))]
        build = []
        for i, entry in enumerate(entries or ()):
            when = self.condition(path + (i, "when"), extensions)  # even in a broken entry
            own = self.ranking(path + (i, "prefer"), extensions)
            if cards[i] is None or not cards[i]:
                continue
            build.append(Entry(cards[i], when or ALWAYS, own, bool(entry.get("save", False))))
        return tuple(build)

    def build_cards(self, path: tuple) -> tuple:
        """``(index, cap)`` of every card of the build list at ``path`` (for ``build list
        done``), without reporting problems (:meth:`build_entries` does)."""
        entries = _get(self.data, path)
        out = []
        rules = self.rules
        for entry in entries if isinstance(entries, list) else ():
            if not isinstance(entry, dict):
                continue
            card = entry.get("card")
            group = entry.get("cards", {card: entry.get("max")} if isinstance(card, str)
                              else {})
            pairs = group.items() if isinstance(group, dict) else \
                ((c, None) for c in group) if isinstance(group, list) else ()
            for name, cap in pairs:
                for card in victory_ids(rules) if name == VICTORY_WORD else (name,):
                    if isinstance(card, str) and card in rules.index:
                        i = rules.index[card]
                        out.append((i, cap if isinstance(cap, int) else rules.limit[i]))
        return tuple(out)

    # ------------------------------------------------------------------ decisions

    def dice_rules(self, path: tuple, extensions: dict) -> tuple | None:
        """The dice rules at ``path`` (None without them); a count no card offers is a
        warning."""
        value = _get(self.data, path)
        if value is None or not self.usable(path):
            return None
        rules = self.rules
        counts = {rules.dice_count} | {n for _, options in rules.dice_options for n in options}
        items = [{"roll": value}] if isinstance(value, int) else value
        dice = []
        for i, rule in enumerate(items):
            where = path if isinstance(value, int) else path + (i,)
            when = self.condition(where + ("when",), extensions) \
                if not isinstance(value, int) else None
            if not isinstance(value, int) and not self.whole(where):
                continue
            if rule["roll"] not in counts:
                allowed = ", ".join(str(n) for n in sorted(counts))
                self.error(where if isinstance(value, int) else where + ("roll",),
                           f"no card in this rule set lets a player roll {rule['roll']} "
                           f"dice (possible: {allowed})", "strategy-dice",
                           severity="warning")
            dice.append(DiceRule(rule["roll"], when or ALWAYS))
        return tuple(dice)

    def choice(self, path: tuple, extensions: dict) -> ChoiceRule | None:
        """One ``choose`` rule (None when broken)."""
        value = _get(self.data, path)
        if isinstance(value, bool):
            return ChoiceRule(always=value, text=str(value).lower())
        if isinstance(value, str):
            compiled = self._text(path, compile_choice, extensions)
            if compiled is None:
                return None
            if isinstance(compiled, tuple):
                return ChoiceRule(when=Condition(compiled, value.strip()), text=value.strip())
            return ChoiceRule(ranking=compiled, text=value.strip())
        when = self.condition(path + ("when",), extensions)
        prefer = self._text(path + ("prefer",), compile_ranking, extensions)
        fields = []
        for name in value:
            if name not in ("prefer", "when"):
                ranked = self._text(path + (name,), compile_ranking, extensions)
                if ranked is not None:
                    fields.append((name, ranked))
        return ChoiceRule(ranking=prefer, when=when, fields=tuple(fields), text=str(value))

    def choose_rules(self, path: tuple, extensions: dict) -> dict:
        """The ``choose`` rules at ``path``: ``{decision name or shape: ChoiceRule}``; a
        key that is neither a shape nor a card of the rule set is a warning."""
        value = _get(self.data, path)
        if not isinstance(value, dict) or not self.usable(path):
            return {}
        rules = {}
        for key in value:
            if key not in SHAPES and key not in self.rules.index and key not in (
                    "dice", "reroll", "build"):
                hint = difflib.get_close_matches(key, list(SHAPES) + list(self.rules.ids), n=1)
                more = f" - did you mean '{hint[0]}'?" if hint else ""
                self.error(path + (key,), f"'{key}' is neither a shape ({', '.join(SHAPES)}) "
                           f"nor a card of {self.rules.name}{more}", "strategy-choose",
                           key=True, severity="warning")
            elif key in ("dice", "reroll", "build"):
                self.error(path + (key,), f"the '{key}' decision has its own field: write "
                           f"'{key}:' beside 'choose'", "strategy-choose", key=True)
                continue
            rule = self.choice(path + (key,), extensions)
            if rule is not None:
                rules[key] = rule
        return rules

    # ------------------------------------------------------------------ phases

    def phase(self, base: tuple, name: str, default: Phase | None) -> Phase:
        """The phase whose fields are at ``base`` (``()``: the top level), each missing
        field taken from ``default`` (the top level's phase)."""
        has = self.data if not base else _get(self.data, base)
        here = {f for f in PHASE_FIELDS if f in has}
        own_build = "build" in here or default is None
        build_path = base + ("build",) if own_build else ("build",)
        extensions = strategy_values.extensions(self.build_cards(build_path))

        def field(name: str, make):
            if name in here:
                return make(base + (name,))
            return getattr(default, name) if default is not None else None

        choose = dict(default.choose) if default is not None else {}
        choose.update(self.choose_rules(base + ("choose",), extensions))
        return Phase(
            name=name,
            build=self.build_entries(build_path, extensions) if own_build else default.build,
            prefer=field("prefer", lambda p: self.ranking(p, extensions)),
            otherwise=has.get("otherwise", default.otherwise if default else "save"),
            dice=field("dice", lambda p: self.dice_rules(p, extensions)),
            reroll=field("reroll", lambda p: self.condition(p, extensions)),
            choose=choose,
            until=self.condition(base + ("until",), extensions) if base else None)

    def phases(self) -> tuple:
        """Every phase, in order, ``next`` resolved (a strategy without ``phases`` has one,
        ``main``); phases that do not connect are errors."""
        top = self.phase((), "main", None)
        listed = self.data.get("phases") if self.usable(("phases",)) else None
        if not listed:
            if "build" not in self.data and not self.bad:
                self.error((), "a strategy needs a 'build' list or 'phases'", "strategy-phases")
            return (top,)
        names = [p.get("name") if isinstance(p, dict) else None for p in listed]
        phases = []
        for k, item in enumerate(listed):
            if not isinstance(item, dict):
                continue  # the schema has said what is wrong with it
            phase = self.phase(("phases", k), str(item.get("name")), top)
            phases.append(_connect(self, phase, item, k, names))
        return tuple(phases)

    # ------------------------------------------------------------------ victory

    def victory_fallback(self, phases: tuple) -> tuple[tuple, tuple]:
        """``phases`` and the indices of the victory landmarks the strategy never builds.

        A strategy written to win its own rule set (its ``variant``, default the base set:
        its build lists name every landmark that victory needs), played in a rule set
        whose victory needs landmarks it never names, and none of whose phases falls back
        to ``greedy`` or ``random`` (which build landmarks), could never win there: a
        warning (``strategy-victory``) at its last build list names the missing ones, and
        every phase gets a last entry that builds them, the most expensive affordable
        first, when nothing of the phase's build list applies, so its games still end. In
        its own rule set, and for a plan that never builds all of that victory (an
        income-only plan, a probe), the strategy is played exactly as written."""
        rules = self.rules
        if any(p.otherwise != "save" for p in phases):
            return phases, ()
        named = {rules.ids[i] for phase in phases for entry in phase.build
                 for _, i, _ in entry.cards}
        missing = _missing_landmarks(rules, named)
        if not missing:
            return phases, ()
        home, _ = _variant_rules(self.doc)
        if home is None or _missing_landmarks(home, named):
            return phases, ()  # not written to win elsewhere: played as written
        names = _and(rules.cards[i].name for i in missing)
        where = self._last_build()
        them = "them, the dearest it can afford first," if len(missing) > 1 else "it"
        self.error(where, f"never builds {names}, which victory needs in {rules.name}: "
                   f"it builds {them} when nothing in its build list applies; write "
                   f"'cards: [{VICTORY_WORD}]' to name the landmarks victory needs in any "
                   "rule set", "strategy-victory", key=bool(where), severity="warning")
        entry = Entry(tuple((rules.ids[i], i, rules.limit[i]) for i in missing), ALWAYS,
                      compile_ranking(FALLBACK_RANKING, rules.vocabulary,
                                      strategy_values.extensions()))
        return tuple(replace(p, build=p.build + (entry,)) for p in phases), missing

    def _last_build(self) -> tuple:
        """The path of the file's last build list (the landmarks usually come last)."""
        listed = self.data.get("phases") if self.usable(("phases",)) else None
        for k in reversed(range(len(listed or ()))):
            if isinstance(listed[k], dict) and "build" in listed[k]:
                return ("phases", k, "build")
        return ("build",) if "build" in self.data else ()

    def version(self) -> int:
        """The language version the file is in: its ``version``, else 2 when it uses a
        version 2 field, else 1. Version 2 fields in a version 1 file are errors."""
        data = self.data
        used = [(f,) for f in VERSION_2_FIELDS if f in data]
        if isinstance(data.get("dice"), int):
            used.append(("dice",))
        for i, entry in enumerate(data.get("build") or ()):
            if isinstance(entry, dict):
                used += [("build", i, f) for f in ("cards", "prefer", "save") if f in entry]
        if data.get("version") == 1:
            for path in used:
                self.error(path, f"'{path[-1]}' is strategy language version 2, but this "
                           "file says 'version: 1': write 'version: 2'",
                           "strategy-version", key=True)
            return 1
        return data.get("version", 2 if used else 1)


def _connect(compiler: _StrategyCompiler, phase: Phase, item: dict, k: int,
             names: list) -> Phase:
    """``phase`` with ``next`` resolved to an index; a repeated name, an unknown ``next``
    or an ``until`` with nowhere to go is an error."""
    path = ("phases", k)
    if names.index(item.get("name")) != k:
        compiler.error(path + ("name",), f"a phase named '{item.get('name')}' comes "
                       "earlier: phase names must differ", "strategy-phases")
    target = item.get("next")
    if target is not None and target not in names:
        hint = difflib.get_close_matches(str(target), [str(n) for n in names], n=1)
        more = f" - did you mean '{hint[0]}'?" if hint else ""
        compiler.error(path + ("next",), f"no phase named '{target}'{more}",
                       "strategy-phases")
        return phase
    if "until" in item:
        goes = names.index(target) if target is not None else k + 1
        if goes >= len(names):
            compiler.error(path + ("until",), "the last phase has no phase after it: give "
                           "'next: NAME' or drop 'until'", "strategy-phases")
            return phase
        return Phase(**{**phase.__dict__, "next": goes})
    if target is not None:
        compiler.error(path + ("next",), "'next' needs an 'until' condition saying when",
                       "strategy-phases")
    return phase


def _and(words) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _missing_landmarks(rules: RuleSet, named: set) -> tuple[int, ...]:
    """The indices of ``rules``' victory landmarks a strategy naming the card ids ``named``
    never builds, when those it builds and those of the starting town are fewer than its
    victory needs; else ``()``."""
    have = [v for v in rules.victory if rules.ids[v] in named or rules.start_town[v]]
    if len(have) >= rules.victory_count:
        return ()
    return tuple(v for v in rules.victory if v not in have)


def victory_ids(rules: RuleSet) -> tuple[str, ...]:
    """The ids of the landmarks ``rules``' victory needs (its ``victory.landmarks``, in
    that order): what :data:`VICTORY_WORD` stands for in a build list."""
    return tuple(rules.ids[i] for i in rules.victory)


def _with_victory_landmarks(rules: RuleSet, group: dict, where: dict) -> tuple[dict, dict]:
    """``group`` (``{name: cap}``) and ``where`` (``{name: path}``) with the word
    :data:`VICTORY_WORD` replaced, at its place, by the rule set's victory landmarks, each
    with the word's cap and path; a card named twice keeps its first place and cap."""
    if VICTORY_WORD not in group:
        return group, where
    cards: dict = {}
    paths: dict = {}
    for name, cap in group.items():
        for card in victory_ids(rules) if name == VICTORY_WORD else (name,):
            if card not in cards:
                cards[card], paths[card] = cap, where[name]
    return cards, paths


def _get(data: Any, path: tuple) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data
