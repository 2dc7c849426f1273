"""Loading a rule set: YAML files -> schema checks -> compiled, immutable :class:`RuleSet`.

A rule set is a folder holding one rules file (``kind: rules``) and one file per card, like
the bundled ``cards/`` folder, optionally changed by a variant file (``kind: variant``) that
names what it ``extends`` and adds, replaces, changes or removes cards and rules fields.
Every problem found is collected and raised together as one
:class:`~machikoro.errors.DataError`: a field that fails the schema is left out and the
checks go on with the rest, so one bad field does not hide an unknown id or an effect typo
elsewhere. A rule set that loads is fully checked, and nothing downstream re-checks it.
"""

from __future__ import annotations

import copy
import difflib
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import schemas
from .effects import (
    TRIGGER_WORDS,
    TRIGGERS,
    Boost,
    Clause,
    DiceChoice,
    EffectError,
    Vocabulary,
    compile_effect,
)
from .errors import DataError, Problem
from .loading import MAX_BYTES, Document, json_path, read_yaml
from .resources import data_dir

ACTIVATED_BY = {"anyone": 0, "owner": 1, "others": 2}
MAX_VARIANT_DEPTH = 16
MAX_PROBLEMS_PER_FILE = 100


@dataclass(frozen=True)
class Colour:
    """What a colour means (rules file ``colours``): whose roll activates it
    (``anyone``/``owner``/``others``), who pays its income, and its resolution order."""

    name: str
    activated_by: str
    income_from: str
    order: int


@dataclass(frozen=True)
class Card:
    """One establishment or landmark, as loaded and compiled.

    ``cost`` in coins; ``activation`` the roll totals that activate it (empty for a
    landmark); ``supply`` the market pile at the start; ``limit`` the most copies per
    player (None: no limit); ``clauses`` the compiled effect.
    """

    id: str
    kind: str
    name: str
    name_ja: str
    colour: str | None
    icon: str | None
    cost: int
    activation: tuple
    supply: int
    limit: int | None
    effect: str
    clauses: tuple = field(compare=False, repr=False)
    file: str = field(default="", compare=False)

    @property
    def is_landmark(self) -> bool:
        """True for a landmark (built once, never in the market)."""
        return self.kind == "landmark"


@dataclass(frozen=True, eq=False)
class RuleSet:
    """An immutable, compiled rule set: the cards, the rules and the tables the turn engine
    reads. Built by :func:`load_ruleset`; shared by every game played with it.

    Card-indexed tuples (``ids``, ``cost``, ``supply``, ``limit``, ``boosts``) use the
    card's position in ``cards``. ``by_roll[total]`` lists, in resolution order, the groups
    of ``(card, activated_by, clauses)`` that a roll total activates; ``hooks[trigger]``
    the ``(card, clause)`` pairs run at that point of their owner's turn.
    """

    name: str
    cards: tuple
    colours: dict
    min_players: int
    max_players: int
    start_coins: int
    start_town: tuple
    dice_faces: int
    dice_count: int
    payment_order: str
    builds_per_turn: int
    victory: tuple
    options: dict
    source: str
    ids: tuple = ()
    index: dict = field(default_factory=dict)
    establishments: tuple = ()
    landmarks: tuple = ()
    by_roll: dict = field(default_factory=dict)
    hooks: dict = field(default_factory=dict)
    dice_options: tuple = ()
    boosts: tuple = ()
    cost: tuple = ()
    supply: tuple = ()
    limit: tuple = ()
    by_cost: tuple = ()
    warnings: tuple = ()

    def card(self, card_id: str) -> Card:
        """The card with id ``card_id``; raises KeyError with a "did you mean" if unknown."""
        try:
            return self.cards[self.index[card_id]]
        except KeyError:
            hint = difflib.get_close_matches(card_id, self.ids, n=1)
            more = f" (did you mean '{hint[0]}'?)" if hint else ""
            raise KeyError(f"unknown card id '{card_id}'{more}") from None


# --------------------------------------------------------------------------- raw layers


@dataclass
class _Entry:
    """A card's fields while loading, with where each field came from. Fields that failed
    the schema are left out (their problems are already reported), so the checks that
    follow see only good values."""

    data: dict
    origin: dict  # field -> (Document, path tuple)
    base: tuple  # (Document, path) of the card as a whole
    partial: bool = False  # some fields were left out: the card must not be built

    def where(self, name: str) -> tuple[Document, tuple]:
        return self.origin.get(name, (self.base[0], self.base[1] + (name,)))


@dataclass
class _Raw:
    """A rule set before building: the merged rules, the cards, every problem so far.

    ``unread`` holds the ids and icons (or file stems) of cards that could not be read, so
    that a reference to them is not reported as unknown too; ``has_rules`` is False when
    the folder has no rules file.
    """

    rules: dict
    rules_layers: list  # [(Document, prefix)]
    cards: dict  # id -> _Entry, in order
    source: str
    problems: list
    unread: set = field(default_factory=set)
    has_rules: bool = True
    name: str | None = None  # a variant's name, which names the rule set it makes

    def rules_where(self, path: tuple) -> tuple[Document, tuple]:
        """The layer (rules file or variant) that gave the value at ``path`` of the merged
        rules: the one locating the longest part of the path, the latest on a tie."""
        best, best_len = self.rules_layers[0], -1
        for doc, prefix in self.rules_layers:
            for k in range(len(path), -1, -1):
                if prefix + path[:k] in doc.marks:
                    if k >= best_len and (k > 0 or best_len < 0):
                        best, best_len = (doc, prefix), k
                    break
        doc, prefix = best
        return doc, prefix + path


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _article(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


@lru_cache(maxsize=1)
def _card_kinds() -> tuple[str, ...]:
    return tuple(schemas.schema_of("card")["properties"]["kind"]["enum"])


@lru_cache(maxsize=1)
def _file_kinds() -> tuple[str, ...]:
    """Every ``kind:`` a file may have: the card kinds, then each schema's own kind."""
    kinds = list(_card_kinds())
    for name in schemas.KINDS:
        const = schemas.schema_of(name).get("properties", {}).get("kind", {}).get("const")
        if const and const not in kinds:
            kinds.append(const)
    return tuple(kinds)


def _is_case(data: dict) -> bool:
    return "kind" not in data and any(k in data for k in schemas.schema_of("case")["required"])


def _read(path: Path, problems: list[Problem], display: str | None = None) -> Document | None:
    try:
        return read_yaml(path, display or _display(path))
    except DataError as exc:
        problems.extend(exc.problems)
        return None


def _kind(doc: Document, problems: list[Problem]) -> str | None:
    """What a file holds: a card kind, ``rules``, ``variant``, ``strategy``, ``case``, or
    ``card`` for a file that looks like a card (it has an ``id``) but has no kind or an
    unknown one (reported here). None, with a problem reported, for anything else."""
    data = doc.data
    kinds = _file_kinds()
    if not isinstance(data, dict):
        problems.append(doc.problem((), "expected a mapping of fields ('kind: ...' and "
                                    f"so on), got {schemas._describe(data)}", "kind"))
        return None
    kind = data.get("kind")
    if "kind" not in data:
        if _is_case(data):
            return "case"
        if "id" in data:
            return "card"
        problems.append(doc.problem((), "no 'kind' field: expected 'kind:' followed by "
                                    f"{', '.join(kinds[:-1])} or {kinds[-1]}", "kind"))
        return None
    if kind not in kinds:
        hint = difflib.get_close_matches(str(kind), kinds, n=1)
        more = f" - did you mean '{hint[0]}'?" if hint else ""
        problems.append(doc.problem(("kind",), f"unknown kind {schemas._describe(kind)}{more} "
                                    f"(expected {', '.join(kinds[:-1])} or {kinds[-1]})",
                                    "kind"))
        return "card" if "id" in data else None
    return kind


def _card_findings(doc: Document, problems: list[Problem]) -> schemas.Findings:
    """The schema findings of a card file, reported to ``problems`` (but not a wrong kind,
    which :func:`_kind` has reported already)."""
    found = schemas.findings(doc.data, "card")
    told = "kind" in doc.data and doc.data["kind"] not in _card_kinds()
    problems.extend(schemas.problems_of(doc, [f for f in found
                                              if not (told and f.path[:1] == ("kind",))]))
    return found


def _salvage(path: Path) -> set[str]:
    """The names a card file that cannot be read probably defines (its file name, and its
    ``id`` and ``icon`` lines read as text), so that uses of them elsewhere are not also
    reported as unknown."""
    names = {path.stem}
    try:
        if path.stat().st_size <= MAX_BYTES:
            text = path.read_bytes().decode("utf-8", "replace")
            names.update(m.group(1) for m in re.finditer(
                r"^(?:id|icon)\s*:\s*\[?\s*[\"']?([a-z][a-z0-9_]*)", text, re.MULTILINE))
    except OSError:
        pass
    return names


def _bad_paths(found: list, prefix: tuple = ()) -> list[tuple]:
    """The paths (relative to ``prefix``) of the fields that failed the schema."""
    n = len(prefix)
    return [p[n:] for f in found for p in f.fields if p[:n] == prefix]


def _card_entry(doc: Document, path: tuple, data: Any, found: list,
                raw_cards: dict, unread: set, problems: list[Problem]) -> None:
    """Add the card at ``path`` of ``doc`` to ``raw_cards`` (id -> _Entry), leaving out the
    fields that failed the schema (``found``, findings relative to the document)."""
    bad = _bad_paths(found, path)
    card_id = data.get("id") if isinstance(data, dict) else None
    if not found.complete or not isinstance(data, dict) or () in bad \
            or any(p[:1] == ("id",) for p in bad) or not isinstance(card_id, str):
        unread.add(card_id if isinstance(card_id, str) else Path(doc.file).stem)
        if isinstance(data, dict) and isinstance(data.get("icon"), str):
            unread.add(data["icon"])
        return
    top = {p[0] for p in bad}
    if card_id in raw_cards and raw_cards[card_id].base[0] is not doc and not path:
        problems.append(doc.problem(path + ("id",), f"card id '{card_id}' is also defined in "
                                    f"{raw_cards[card_id].base[0].file}", "duplicate"))
        return
    raw_cards[card_id] = _Entry({k: v for k, v in data.items() if k not in top}, {},
                                (doc, path), partial=bool(top) or not found.complete)


def _read_folder(folder: Path, problems: list[Problem]) -> _Raw | None:
    rules = None
    cards: dict[str, _Entry] = {}
    unread: set[str] = set()
    files = sorted(p for p in folder.iterdir()
                   if p.suffix in (".yaml", ".yml") and not p.is_dir())
    if not files:
        problems.append(Problem(_display(folder), 1, 1, "", "no YAML files in this folder",
                                "no-yaml"))
        return None
    for path in files:
        doc = _read(path, problems)
        kind = _kind(doc, problems) if doc is not None else None
        if kind is None:
            unread.update(_salvage(path))
            continue
        if kind == "rules":
            if rules is not None:
                problems.append(doc.problem(("kind",), "a second rules file in this rule set "
                                            f"(the first is {rules.file})", "duplicate"))
            else:
                rules = doc
        elif kind in _card_kinds() or kind == "card":
            found = _card_findings(doc, problems)
            _card_entry(doc, (), doc.data, found, cards, unread, problems)
        # variants, strategies and rule cases in the folder are not part of the rule set
    if rules is None:
        if not unread:  # else an unreadable file may be the rules file
            problems.append(Problem(_display(folder), 1, 1, "", "no rules file in this folder "
                                    "(a YAML file with 'kind: rules')", "file"))
        return _Raw({}, [], cards, _display(folder), problems, unread, has_rules=False)
    return _Raw(copy.deepcopy(rules.data), [(rules, ())], cards, _display(folder), problems,
                unread)


def _merge(base: dict, patch: dict) -> dict:
    out = dict(base)
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key not in (
                "establishments",):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _apply_variant(path: Path, problems: list[Problem], chain: tuple = (),
                   via: Document | None = None) -> _Raw | None:
    """The rule set a variant file makes, every problem of the file reported (an unknown
    card id as well as a bad field); ``chain`` is the files extending it, for loops, and
    ``via`` the variant whose ``extends`` names it."""
    doc = _read(path, problems)
    if doc is None:
        return None
    kind = _kind(doc, problems)
    if kind is None:
        return None
    if kind == "rules":  # a rules file stands for its folder's rule set
        return _read_folder(path.parent, problems)
    if kind != "variant":
        if via is not None:
            problems.append(via.problem(("extends",), f"'{via.data['extends']}' is "
                                        f"{_article(kind)} file, not a variant: extend "
                                        "'base', a variant file or a rule-set folder",
                                        "variant"))
        else:
            problems.append(doc.problem(("kind",) if "kind" in doc.data else (),
                                        f"this is {_article(kind)} file, not a variant or a "
                                        "rule set: give a variant file or a rule-set folder",
                                        "kind"))
        return None
    data = doc.data
    found = schemas.findings(data, "variant")
    problems.extend(schemas.problems_of(doc, found))
    if not found.complete:
        return None
    bad = _bad_paths(found)

    def broken(prefix: tuple) -> bool:  # the value at prefix, or a part of it, is bad
        n = len(prefix)
        return any(p[:n] == prefix or prefix[:len(p)] == p for p in bad)

    def whole_broken(prefix: tuple) -> bool:  # the value at prefix (or an ancestor) is bad
        return any(prefix[:len(p)] == p for p in bad)

    parent = data.get("extends")
    if not isinstance(parent, str) or broken(("extends",)):
        return None
    here = (path.resolve(), doc.file)
    if parent == "base":
        raw = _read_folder(data_dir("cards"), problems)
    else:
        parent_path = path.parent / parent
        steps = chain + (here,)
        if parent_path.exists() and parent_path.resolve() in [r for r, _ in steps]:
            top = steps[0][0].parent  # names relative to the first variant's folder
            names = [os.path.relpath(r, top) for r, _ in steps]
            names.append(os.path.relpath(parent_path.resolve(), top))
            problems.append(doc.problem(("extends",), "variants extend each other in a "
                                        f"loop: {' -> '.join(names)}", "variant"))
            return None
        if len(chain) >= MAX_VARIANT_DEPTH:
            problems.append(doc.problem(("extends",), f"more than {MAX_VARIANT_DEPTH} "
                                        "variants extend each other", "variant"))
            return None
        if parent_path.is_dir():
            raw = _read_folder(parent_path, problems)
        elif not parent_path.is_file():
            problems.append(doc.problem(("extends",), f"no such variant file: {parent} "
                                        "(use 'base' or a path relative to this file)",
                                        "variant"))
            return None
        else:
            raw = _apply_variant(parent_path, problems, chain + (here,), doc)
    if raw is None:
        return None
    raw.source = doc.file
    if isinstance(data.get("name"), str):
        raw.name = data["name"]
    patch = data.get("rules")
    if isinstance(patch, dict) and not whole_broken(("rules",)):
        raw.rules = _merge(raw.rules, {k: v for k, v in patch.items()
                                       if not broken(("rules", k))})
        raw.rules_layers.append((doc, ("rules",)))
    removed = data.get("remove")
    if isinstance(removed, list) and not whole_broken(("remove",)):
        for i, name in enumerate(removed):
            if len(problems) > MAX_PROBLEMS_PER_FILE * 2:
                break
            if broken(("remove", i)) or name in raw.unread:
                continue
            if name not in raw.cards:
                problems.append(_unknown(doc, ("remove", i), name, raw.cards))
            else:
                del raw.cards[name]
    changes = data.get("change")
    if isinstance(changes, dict) and not whole_broken(("change",)):
        for name, fields in changes.items():
            if len(problems) > MAX_PROBLEMS_PER_FILE * 2:
                break  # a hostile file: enough said
            if not re.fullmatch(schemas.ID_PATTERN, name) or name in raw.unread:
                continue
            entry = raw.cards.get(name)
            if entry is None:
                problems.append(_unknown(doc, ("change", name), name, raw.cards, key=True))
                continue
            if not isinstance(fields, dict) or whole_broken(("change", name)):
                continue
            good = {k: v for k, v in fields.items() if not broken(("change", name, k))}
            entry.data = {**entry.data, **good}
            for key in good:
                entry.origin[key] = (doc, ("change", name, key))
    added = data.get("cards")
    if isinstance(added, list) and not whole_broken(("cards",)):
        first: dict[str, int] = {}
        for i, card in enumerate(added):
            if isinstance(card, dict) and isinstance(card.get("id"), str):
                if card["id"] in first:
                    problems.append(doc.problem(("cards", i, "id"), f"card id '{card['id']}' "
                                                f"is also added at cards[{first[card['id']]}]",
                                                "duplicate"))
                    continue
                first[card["id"]] = i
                raw.cards.pop(card["id"], None)  # replaced whole
            _card_entry(doc, ("cards", i), card, found, raw.cards, raw.unread, problems)
    return raw


def _unknown(doc: Document, path: tuple, name: str, known, key: bool = False) -> Problem:
    hint = difflib.get_close_matches(str(name), list(known), n=1)
    more = f" - did you mean '{hint[0]}'?" if hint else ""
    return doc.problem(path, f"unknown card id '{name}'{more}", "unknown-name", key=key)


# --------------------------------------------------------------------------- building


def _effect_problem(entry: _Entry, exc: EffectError) -> Problem:
    doc, path = entry.where("effect")
    line, column = doc.locate(path, exc.column - 1)
    return Problem(doc.file, line, column, json_path(path), exc.message, exc.code, "error",
                   doc.source(line), exc.span)


def _build(raw: _Raw) -> RuleSet | None:
    """Check the raw rule set as a whole and compile it; None when there are errors (all of
    them are then in ``raw.problems``, with the warnings)."""
    problems = raw.problems
    rules = raw.rules
    bad: set = set()  # top-level rules sections that failed the schema
    if raw.has_rules:
        found = schemas.findings(rules, "rules")
        for finding in found[:schemas.MAX_PROBLEMS]:
            doc, full = raw.rules_where(finding.path)
            problems.append(doc.problem(full, finding.message, "schema", key=finding.at_key))
            bad.update(p[0] if p else "" for p in finding.fields)
        if not found.complete or len(found) > schemas.MAX_PROBLEMS:
            bad.add("")

    def ok(section: str) -> bool:
        return raw.has_rules and section in rules and section not in bad and "" not in bad

    entries = list(raw.cards.values())
    # the market's order: establishments by their lowest activation number, then cost;
    # then landmarks by cost (ties: by id, so the order never depends on file names)
    entries.sort(key=lambda e: (e.data.get("kind") == "landmark",
                                min(e.data.get("activation") or [0]), e.data.get("cost", 0),
                                e.data["id"]))
    ids = tuple(e.data["id"] for e in entries)
    index = {card_id: i for i, card_id in enumerate(ids)}
    # cards that could not be read still count as known names, so nothing else is blamed
    names = dict(index)
    names.update({name: len(ids) + k for k, name in enumerate(sorted(raw.unread))
                  if name not in index})
    colours = {name: Colour(name, c["activated_by"], c["income_from"], c["order"])
               for name, c in rules["colours"].items()} if ok("colours") else None

    def problem_at(entry: _Entry, name: str, message: str, code: str,
                   severity: str = "error") -> None:
        doc, path = entry.where(name)
        problems.append(doc.problem(path, message, code, severity=severity))

    def clause_problem(entry: _Entry, clause: Clause, message: str, code: str,
                       severity: str = "error") -> None:
        doc, path = entry.where("effect")
        offset = max(0, entry.data["effect"].replace("\n", " ").find(clause.text))
        line, column = doc.locate(path, offset)
        problems.append(Problem(doc.file, line, column, json_path(path), message, code,
                                severity, doc.source(line), len(clause.text)))

    for entry in entries:
        d = entry.data
        if colours is not None and isinstance(d.get("colour"), str) \
                and d["colour"] not in colours:
            hint = difflib.get_close_matches(d["colour"], list(colours), n=1)
            more = f" - did you mean '{hint[0]}'?" if hint else \
                f" (the rules file defines {', '.join(colours)})"
            problem_at(entry, "colour", f"unknown colour '{d['colour']}'{more}",
                       "unknown-name")

    establishments = tuple(i for i, e in enumerate(entries)
                           if e.data.get("kind") == "establishment")
    landmarks = tuple(i for i, e in enumerate(entries) if e.data.get("kind") == "landmark")

    def rule_ids(path: tuple, values, want: str) -> list[int]:
        out = []
        for pos, name in values:
            sub = path + (pos,)
            doc, full = raw.rules_where(sub)
            at_key = isinstance(pos, str)
            if name in raw.unread:
                continue
            if name not in index:
                hint = difflib.get_close_matches(
                    name, [i for i in ids if entries[index[i]].data.get("kind") == want], n=1)
                more = f" - did you mean '{hint[0]}'?" if hint else ""
                problems.append(doc.problem(full, f"unknown {want} '{name}'{more}",
                                            "unknown-name", key=at_key))
                continue
            kind = entries[index[name]].data.get("kind")
            if kind is not None and kind != want:
                problems.append(doc.problem(full, f"'{name}' is {_article(kind)}, not "
                                            f"{_article(want)}", "wrong-kind", key=at_key))
                continue
            out.append(index[name])
        return out

    start_town = [0] * len(ids)
    if ok("setup"):
        setup = rules["setup"]
        for name, copies in setup["establishments"].items():
            found = rule_ids(("setup", "establishments"), [(name, name)], "establishment")
            if found:
                start_town[found[0]] = copies
        for i in rule_ids(("setup", "landmarks"), list(enumerate(setup["landmarks"])),
                          "landmark"):
            start_town[i] = 1
    victory = landmarks
    if ok("victory") and rules["victory"]["landmarks"] != "all":
        victory = tuple(rule_ids(("victory", "landmarks"),
                                 list(enumerate(rules["victory"]["landmarks"])), "landmark"))
    if ok("victory") and not victory and not any(p.severity == "error" for p in problems):
        doc, full = raw.rules_where(("victory",))
        problems.append(doc.problem(full, "the rule set has no landmark to win with",
                                    "victory"))
    if ok("players") and rules["players"]["min"] > rules["players"]["max"]:
        doc, full = raw.rules_where(("players", "min"))
        problems.append(doc.problem(full, f"players.min ({rules['players']['min']}) is "
                                    f"larger than players.max ({rules['players']['max']})",
                                    "players"))

    icons: dict[str, list[int]] = {}
    by_colour: dict[str, list[int]] = {}
    for i, entry in enumerate(entries):
        if isinstance(entry.data.get("icon"), str):
            icons.setdefault(entry.data["icon"], []).append(i)
        if isinstance(entry.data.get("colour"), str):
            by_colour.setdefault(entry.data["colour"], []).append(i)
    for name in colours or ():
        by_colour.setdefault(name, [])
    for name, holders in icons.items():
        # icons are open-ended, so a misspelt one makes a new icon: flag a lone near miss
        others = [icon for icon, cards in icons.items() if icon != name and len(cards) > 1]
        hint = difflib.get_close_matches(name, others, n=1, cutoff=0.75)
        if len(holders) == 1 and hint:
            problem_at(entries[holders[0]], "icon", f"icon '{name}' is on no other card - "
                       f"did you mean '{hint[0]}'?", "unknown-name", severity="warning")
    vocab = Vocabulary(names, {k: tuple(v) for k, v in icons.items()},
                       {k: tuple(v) for k, v in by_colour.items()}, landmarks, victory,
                       establishments)

    max_total = None
    if ok("dice"):
        max_total = rules["dice"]["faces"] * max(rules["dice"]["count"], 2)
    compiled: list[tuple] = []
    for entry in entries:
        d = entry.data
        clauses: tuple = ()
        if isinstance(d.get("effect"), str):
            try:
                # a block scalar (effect: |) keeps its line breaks; the language reads them
                # as spaces, and one-line text keeps error columns offsets into the text
                clauses = compile_effect(d["effect"].replace("\n", " "), vocab)
            except EffectError as exc:
                problems.append(_effect_problem(entry, exc))
        compiled.append(clauses)
        colour = colours.get(d.get("colour")) if colours else None
        for clause in clauses:
            if d.get("kind") == "landmark" and clause.trigger is None and not clause.static:
                clause_problem(entry, clause, f"'{clause.text}' would run when the card "
                               "activates, but a landmark never activates: give it a trigger "
                               f"({', '.join(TRIGGER_WORDS.values())})", "effect-placement")
            source = getattr(clause.action, "source", "")
            if clause.trigger is not None and source == "roller":
                clause_problem(entry, clause, f"'{TRIGGER_WORDS[clause.trigger]}' runs in the "
                               "owner's own turn, when the roller is the owner: take from "
                               "each other player or a chosen player instead",
                               "effect-placement")
            if (colour and clause.trigger is None and source
                    and source != colour.income_from):
                clause_problem(entry, clause, f"'{clause.text}' is paid by the {source}, but "
                               f"{colour.name} income comes from the {colour.income_from} "
                               f"(rules file, colours.{colour.name}.income_from)",
                               "colour-income", severity="warning")
        for number in d.get("activation", ()) if max_total else ():
            if number > max_total:
                problem_at(entry, "activation", f"{number} can never be rolled with "
                           f"{rules['dice']['faces']}-sided dice", "unreachable",
                           severity="warning")
    if any(p.severity == "error" for p in problems) or any(e.partial for e in entries):
        return None

    cards: list[Card] = []
    for entry, clauses in zip(entries, compiled):
        d = entry.data
        doc, _ = entry.base
        cards.append(Card(
            id=d["id"], kind=d["kind"], name=d["name"], name_ja=d.get("name_ja", d["name"]),
            colour=d.get("colour"), icon=d.get("icon"), cost=d["cost"],
            activation=tuple(d.get("activation", ())), supply=d.get("supply", 0),
            limit=d.get("limit", 1 if d["kind"] == "landmark" else None),
            effect=d["effect"], clauses=clauses, file=doc.file,
        ))
    setup = rules["setup"]


    # ---- tables for the turn engine
    by_roll: dict[int, tuple] = {}
    totals = sorted({n for c in cards for n in c.activation})
    orders = sorted({c.order for c in colours.values()})
    for total in totals:
        groups = []
        for order in orders:
            group = []
            for i, card in enumerate(cards):
                if total in card.activation and colours[card.colour].order == order:
                    activation = tuple(cl for cl in card.clauses
                                       if cl.trigger is None and not cl.static)
                    if activation:
                        group.append((i, ACTIVATED_BY[colours[card.colour].activated_by],
                                      activation))
            if group:
                groups.append(tuple(group))
        by_roll[total] = tuple(groups)
    hooks = {t: tuple((i, cl) for i, c in enumerate(cards) for cl in c.clauses
                      if cl.trigger == t) for t in TRIGGERS}
    dice_options = tuple((i, cl.action.counts) for i, c in enumerate(cards)
                         for cl in c.clauses if isinstance(cl.action, DiceChoice))
    boosts: list[list] = [[] for _ in cards]
    for i, card in enumerate(cards):
        for cl in card.clauses:
            if isinstance(cl.action, Boost):
                for target in cl.action.cards:
                    boosts[target].append((i, cl.action.n))
    options = {"landmark_active_on_build_turn": True, "reroll_same_dice": True}
    options.update(rules.get("options", {}))
    return RuleSet(
        name=raw.name or rules.get("name", raw.source), cards=tuple(cards), colours=colours,
        min_players=rules["players"]["min"], max_players=rules["players"]["max"],
        start_coins=setup["coins"], start_town=tuple(start_town),
        dice_faces=rules["dice"]["faces"], dice_count=rules["dice"]["count"],
        payment_order=rules["payment_order"], builds_per_turn=rules["turn"]["builds"],
        victory=victory, options=options, source=raw.source, ids=ids, index=index,
        establishments=establishments, landmarks=landmarks, by_roll=by_roll, hooks=hooks,
        dice_options=dice_options, boosts=tuple(tuple(b) for b in boosts),
        cost=tuple(c.cost for c in cards), supply=tuple(c.supply for c in cards),
        limit=tuple(c.limit if c.limit is not None else 1 << 30 for c in cards),
        by_cost=tuple(sorted((c.cost, i, c.id, c.limit if c.limit is not None else 1 << 30,
                              not c.is_landmark) for i, c in enumerate(cards))),
        warnings=tuple(p for p in problems if p.severity == "warning"),
    )


def _load(variant: str | Path | None, problems: list[Problem]) -> RuleSet | None:
    """The rule set ``variant`` names (see :func:`load_ruleset`), or None; every problem
    found, errors and warnings, is appended to ``problems``."""
    if variant is None or str(variant) == "base":
        raw = _read_folder(data_dir("cards"), problems)
    else:
        path = Path(variant)
        if path.is_dir():
            raw = _read_folder(path, problems)
        elif not path.exists():
            problems.append(Problem(str(variant), 1, 1, "", "no such file or folder", "file"))
            raw = None
        else:
            raw = _apply_variant(path, problems)
    return _build(raw) if raw is not None else None


def load_ruleset(variant: str | Path | None = None) -> RuleSet:
    """Load, check and compile a rule set.

    ``variant`` is None or ``"base"`` for the bundled base set, the path of a variant file
    (``kind: variant``), the path of a folder holding a rules file and card files, or the
    name of a bundled variant such as ``"house/radio-tower-18"``.
    Raises :class:`~machikoro.errors.DataError` listing every error found (warnings are in
    the returned rule set's ``warnings``).
    """
    from .resources import resolve_variant

    problems: list[Problem] = []
    ruleset = _load(resolve_variant(variant), problems)
    errors = _in_order([p for p in problems if p.severity == "error"])
    if ruleset is None or errors:
        raise DataError(errors or [Problem(str(variant), 1, 1, "", "cannot load", "file")])
    return ruleset


def check_files(paths: list[str | Path], variant: str | Path | None = None) -> list[Problem]:
    """Every problem (errors and warnings) in the given files or folders, as for
    ``machikoro validate``: a folder is checked as a rule set (when it holds a rules or card
    file) and each variant and rule case in it on its own; a rules file as its folder's rule
    set; a variant as the rule set it makes; a card file within its folder's rule set (or,
    when its folder has none, as an addition to the rule set ``variant``, default the base
    set); a rule-case file against its schema and its rule set (``variant`` when it names
    none). A problem found twice (two files of one folder) is listed once.
    """
    from .resources import resolve_variant

    context = resolve_variant(variant)
    problems: list[Problem] = []
    folders: dict[Path, list[Problem]] = {}

    def folder_problems(folder: Path) -> list[Problem]:
        key = folder.resolve()
        if key not in folders:
            folders[key] = []
            _load(folder, folders[key])
        return folders[key]

    for given in paths:
        path = Path(given)
        if path.is_dir():
            problems += _check_folder(path, folder_problems)
            continue
        doc = _read(path, problems, str(given))
        kind = _kind(doc, problems) if doc is not None else None
        if kind is None:
            continue
        if kind == "variant":
            _load(path, problems)
        elif kind == "rules":
            problems += folder_problems(path.parent)
        elif kind in ("case", "strategy"):
            problems += _check_other(doc, kind, context)
        else:
            problems += _check_card(path, doc, folder_problems, context)
    seen: set = set()
    unique = []
    for p in problems:
        key = (p.file, p.line, p.column, p.field, p.message)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    # a file with hundreds of problems (a generated or hostile one) shows the first
    # MAX_PROBLEMS_PER_FILE
    unique = _in_order(unique)
    shown: list[Problem] = []
    count: dict[str, int] = {}
    for p in unique:
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


def _in_order(problems: list[Problem]) -> list[Problem]:
    """``problems`` by file name, then line and column: a stable order for output whatever
    the order of the checks."""
    return sorted(problems, key=lambda p: (p.file, p.line, p.column))


def _check_other(doc: Document, kind: str, context=None) -> list[Problem]:
    """The problems of a file checked on its own: a rule case (against its own variant,
    else ``context``) or a strategy."""
    if kind == "case":
        return _check_case(doc, context)
    from .strategy import check_strategy_file  # strategies load rule sets through here

    return check_strategy_file(doc)


def _check_case(doc: Document, context=None) -> list[Problem]:
    from .scenario import check_case_file  # the scenario runner imports this module

    return check_case_file(doc, context)


def _check_folder(folder: Path, folder_problems, depth: int = 0) -> list[Problem]:
    files = sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    if not files:  # a folder of folders (variants/house, variants/strategies): each of them
        subfolders = sorted(p for p in folder.iterdir() if p.is_dir()
                            and not p.name.startswith(".")) if depth < 4 else []
        found = [_check_folder(sub, folder_problems, depth + 1) for sub in subfolders]
        found = [f for f in found if not (len(f) == 1 and f[0].code == "no-yaml")]
        if not found:
            return [Problem(_display(folder), 1, 1, "", "no YAML files in this folder",
                            "no-yaml")]
        return [p for f in found for p in f]
    problems: list[Problem] = []
    ruleset = False
    for path in files:
        quiet: list[Problem] = []  # reported by the rule-set check of the folder
        doc = _read(path, quiet)
        kind = _kind(doc, quiet) if doc is not None else None
        if kind == "variant":
            _load(path, problems)
        elif kind in ("case", "strategy"):
            problems += _check_other(doc, kind)
        else:
            ruleset = True
    if ruleset:
        problems = folder_problems(folder) + problems
    return problems


def _check_card(path: Path, doc: Document, folder_problems, context=None) -> list[Problem]:
    folder = path.parent
    rules_file = re.compile(r"^kind:\s*[\"']?rules[\"']?\s*(#.*)?$", re.MULTILINE)
    has_rules = any(
        p.suffix in (".yaml", ".yml") and rules_file.search(p.read_text("utf-8", "replace"))
        for p in folder.iterdir() if p.is_file() and p.stat().st_size < 1 << 16)
    if has_rules:
        problems = folder_problems(folder)
        own = [p for p in problems if Path(p.file).resolve() == path.resolve()]
        return own if own or not problems else problems
    # a lone card: an addition to (or replacement in) the base set, or the context rule set
    problems: list[Problem] = []
    if context is None or str(context) == "base":
        raw = _read_folder(data_dir("cards"), problems)
    elif Path(context).is_dir():
        raw = _read_folder(Path(context), problems)
    elif Path(context).is_file():
        raw = _apply_variant(Path(context), problems)
    else:
        return [Problem(str(context), 1, 1, "", "--variant: no such file or folder", "file")]
    if raw is None or any(p.severity == "error" for p in problems):
        return problems  # the context rule set itself is broken
    problems.clear()
    if isinstance(doc.data, dict) and isinstance(doc.data.get("id"), str):
        raw.cards.pop(doc.data["id"], None)  # a lone card replaces the card of its id
    found = _card_findings(doc, problems)
    _card_entry(doc, (), doc.data, found, raw.cards, raw.unread, problems)
    _build(raw)  # raw.problems is `problems`
    return [p for p in problems if p.file == doc.file]


__all__ = ["Card", "Clause", "Colour", "RuleSet", "check_files", "load_ruleset"]
