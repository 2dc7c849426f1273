"""Loading a rule set: YAML files -> schema checks -> compiled, immutable :class:`RuleSet`.

A rule set is a folder holding one rules file (``kind: rules``) and one file per card, like
the bundled ``cards/`` folder, optionally changed by a variant file (``kind: variant``) that
names what it ``extends`` and adds, replaces, changes or removes cards and rules fields.
Every problem found is collected and raised together as one
:class:`~machikoro.errors.DataError`; a rule set that loads is fully checked, and nothing
downstream re-checks it.
"""

from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import schemas
from .effects import (
    TRIGGERS,
    Boost,
    Clause,
    DiceChoice,
    EffectError,
    Vocabulary,
    compile_effect,
)
from .errors import DataError, Problem
from .loading import Document, read_yaml
from .resources import data_dir

ACTIVATED_BY = {"anyone": 0, "owner": 1, "others": 2}
MAX_VARIANT_DEPTH = 16


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
    """A card's fields while loading, with where each field came from."""

    data: dict
    origin: dict  # field -> (Document, path tuple)
    base: tuple  # (Document, path) of the card as a whole

    def where(self, name: str) -> tuple[Document, tuple]:
        return self.origin.get(name, (self.base[0], self.base[1] + (name,)))


@dataclass
class _Raw:
    rules: dict
    rules_layers: list  # [(Document, prefix)]
    cards: dict  # id -> _Entry, in order
    source: str
    problems: list

    def rules_where(self, path: tuple) -> tuple[Document, tuple]:
        for doc, prefix in reversed(self.rules_layers):
            for k in range(len(path), 0, -1):
                if prefix + path[:k] in doc.marks:
                    return doc, prefix + path
        doc, prefix = self.rules_layers[0]
        return doc, prefix + path


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _read_folder(folder: Path, problems: list[Problem]) -> _Raw | None:
    rules = None
    cards: dict[str, _Entry] = {}
    files = sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml"))
    if not files:
        problems.append(Problem(_display(folder), 0, 0, "", "no YAML files in this folder",
                                "file"))
        return None
    for path in files:
        try:
            doc = read_yaml(path, _display(path))
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
        if kind == "rules":
            found = schemas.check(doc, "rules")
            problems.extend(found)
            if rules is not None:
                problems.append(doc.problem(("kind",), "a second rules file in this rule set "
                                            f"(the first is {rules[0].file})", "duplicate"))
            elif not found:
                rules = (doc, ())
            continue
        found = schemas.check(doc, "card")
        problems.extend(found)
        if found:
            continue
        card_id = doc.data["id"]
        if card_id in cards:
            problems.append(doc.problem(("id",), f"card id '{card_id}' is also defined in "
                                        f"{cards[card_id].base[0].file}", "duplicate"))
            continue
        cards[card_id] = _Entry(dict(doc.data), {}, (doc, ()))
    if rules is None:
        if not any(p.severity == "error" and p.code != "file" for p in problems):
            problems.append(Problem(_display(folder), 0, 0, "",
                                    "no rules file (a YAML file with 'kind: rules')", "file"))
        return None
    return _Raw(copy.deepcopy(rules[0].data), [rules], cards, _display(folder), problems)


def _merge(base: dict, patch: dict) -> dict:
    out = dict(base)
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key not in (
                "establishments",):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _apply_variant(path: Path, problems: list[Problem], depth: int = 0,
                   seen: tuple = ()) -> _Raw | None:
    try:
        doc = read_yaml(path, _display(path))
    except DataError as exc:
        problems.extend(exc.problems)
        return None
    found = schemas.check(doc, "variant")
    if found:
        problems.extend(found)
        return None
    data = doc.data
    parent = data["extends"]
    if parent == "base":
        raw = _read_folder(data_dir("cards"), problems)
    else:
        parent_path = (path.parent / parent)
        if depth >= MAX_VARIANT_DEPTH or parent_path.resolve() in seen:
            problems.append(doc.problem(("extends",), "variants extend each other in a loop "
                                        "or too deeply", "variant"))
            return None
        if not parent_path.is_file():
            problems.append(doc.problem(("extends",), f"no such variant file: {parent} "
                                        "(use 'base' or a path relative to this file)",
                                        "variant"))
            return None
        raw = _apply_variant(parent_path, problems, depth + 1, seen + (path.resolve(),))
    if raw is None:
        return None
    raw.source = doc.file
    if "rules" in data:
        raw.rules = _merge(raw.rules, data["rules"])
        raw.rules_layers.append((doc, ("rules",)))
    for i, name in enumerate(data.get("remove", [])):
        if name not in raw.cards:
            problems.append(_unknown(doc, ("remove", i), name, raw.cards))
        else:
            del raw.cards[name]
    for name, fields in data.get("change", {}).items():
        entry = raw.cards.get(name)
        if entry is None:
            problems.append(_unknown(doc, ("change", name), name, raw.cards, key=True))
            continue
        entry.data = {**entry.data, **fields}
        for key in fields:
            entry.origin[key] = (doc, ("change", name, key))
    for i, card in enumerate(data.get("cards", [])):
        raw.cards[card["id"]] = _Entry(dict(card), {}, (doc, ("cards", i)))
    return raw


def _unknown(doc: Document, path: tuple, name: str, known, key: bool = False) -> Problem:
    hint = difflib.get_close_matches(str(name), list(known), n=1)
    more = f" - did you mean '{hint[0]}'?" if hint else ""
    return doc.problem(path, f"unknown card id '{name}'{more}", "unknown-name", key=key)


# --------------------------------------------------------------------------- building


def _effect_problem(entry: _Entry, exc: EffectError) -> Problem:
    doc, path = entry.where("effect")
    start = doc.value_column(path)
    if start is None:
        line, column = doc.where(path)
        return Problem(doc.file, line, column, "effect", exc.message, exc.code)
    line, column = start
    source = doc.lines[line - 1] if 0 < line <= len(doc.lines) else ""
    return Problem(doc.file, line, column + exc.column - 1, "effect", exc.message, exc.code,
                   "error", source, exc.span)


def _build(raw: _Raw) -> RuleSet:
    problems = raw.problems
    rules = raw.rules
    # the merged rules must still satisfy the schema
    merged_doc = Document(raw.source, rules)
    for error in schemas.validator("rules").iter_errors(rules):
        message, path, at_key = schemas._message(error)
        doc, full = raw.rules_where(path)
        problems.append(doc.problem(full, message, "schema", key=at_key))
    del merged_doc
    if any(p.severity == "error" for p in problems):
        raise DataError(problems)

    entries = list(raw.cards.values())
    # the market's order: establishments by their lowest activation number, then cost;
    # then landmarks by cost (ties: by id, so the order never depends on file names)
    entries.sort(key=lambda e: (e.data["kind"] == "landmark",
                                min(e.data.get("activation") or [0]), e.data["cost"],
                                e.data["id"]))
    ids = tuple(e.data["id"] for e in entries)
    index = {card_id: i for i, card_id in enumerate(ids)}
    colours = {name: Colour(name, c["activated_by"], c["income_from"], c["order"])
               for name, c in rules["colours"].items()}

    def problem_at(entry: _Entry, name: str, message: str, code: str,
                   severity: str = "error") -> None:
        doc, path = entry.where(name)
        problems.append(doc.problem(path, message, code, severity=severity))

    for entry in entries:
        d = entry.data
        if d["kind"] == "establishment" and d["colour"] not in colours:
            hint = difflib.get_close_matches(d["colour"], list(colours), n=1)
            more = f" - did you mean '{hint[0]}'?" if hint else \
                f" (the rules file defines {', '.join(colours)})"
            problem_at(entry, "colour", f"unknown colour '{d['colour']}'{more}",
                       "unknown-name")
        if d["kind"] == "landmark" and "colour" in d and d["colour"] not in colours:
            problem_at(entry, "colour", f"unknown colour '{d['colour']}'", "unknown-name")

    establishments = tuple(i for i, e in enumerate(entries) if e.data["kind"] == "establishment")
    landmarks = tuple(i for i, e in enumerate(entries) if e.data["kind"] == "landmark")

    def rule_ids(path: tuple, values, want: str) -> list[int]:
        out = []
        for pos, name in values:
            sub = path + (pos,)
            if name not in index or entries[index[name]].data["kind"] != want:
                doc, full = raw.rules_where(sub)
                hint = difflib.get_close_matches(
                    name, [i for i in ids if entries[index[i]].data["kind"] == want], n=1)
                more = f" - did you mean '{hint[0]}'?" if hint else ""
                problems.append(doc.problem(full, f"unknown {want} '{name}'{more}",
                                            "unknown-name", key=isinstance(pos, str)))
            else:
                out.append(index[name])
        return out

    setup = rules["setup"]
    start_town = [0] * len(ids)
    for name in setup["establishments"]:
        found = rule_ids(("setup", "establishments"), [(name, name)], "establishment")
        if found:
            start_town[found[0]] = setup["establishments"][name]
    for i in rule_ids(("setup", "landmarks"), list(enumerate(setup["landmarks"])), "landmark"):
        start_town[i] = 1
    victory_spec = rules["victory"]["landmarks"]
    if victory_spec == "all":
        victory = landmarks
    else:
        victory = tuple(rule_ids(("victory", "landmarks"), list(enumerate(victory_spec)),
                                 "landmark"))
    if not victory and not problems:
        doc, full = raw.rules_where(("victory",))
        problems.append(doc.problem(full, "the rule set has no landmark to win with",
                                    "victory"))
    if rules["players"]["min"] > rules["players"]["max"]:
        doc, full = raw.rules_where(("players",))
        problems.append(doc.problem(full, "players.min is larger than players.max", "players"))

    icons: dict[str, list[int]] = {}
    by_colour: dict[str, list[int]] = {}
    for i, entry in enumerate(entries):
        if entry.data.get("icon"):
            icons.setdefault(entry.data["icon"], []).append(i)
        if entry.data.get("colour"):
            by_colour.setdefault(entry.data["colour"], []).append(i)
    for name in colours:
        by_colour.setdefault(name, [])
    vocab = Vocabulary(index, {k: tuple(v) for k, v in icons.items()},
                       {k: tuple(v) for k, v in by_colour.items()}, landmarks, victory,
                       establishments)

    max_total = rules["dice"]["faces"] * max(rules["dice"]["count"], 2)
    cards: list[Card] = []
    for entry in entries:
        d = entry.data
        try:
            clauses = compile_effect(d["effect"], vocab)
        except EffectError as exc:
            problems.append(_effect_problem(entry, exc))
            clauses = ()
        colour = colours.get(d.get("colour"))
        for clause in clauses:
            if d["kind"] == "landmark" and clause.trigger is None and not clause.static:
                problem_at(entry, "effect", f"'{clause.text}' would run when the card "
                           "activates, but a landmark never activates: give it a trigger "
                           "(before roll, after roll, before build, at end of turn)",
                           "effect-placement")
            source = getattr(clause.action, "source", "")
            if (colour and clause.trigger is None and source
                    and source != colour.income_from):
                problem_at(entry, "effect", f"'{clause.text}' is paid by the "
                           f"{source}, but {colour.name} income comes from the "
                           f"{colour.income_from} (rules file, colours.{colour.name}."
                           "income_from)", "colour-income", severity="warning")
        for number in d.get("activation", ()):
            if number > max_total:
                problem_at(entry, "activation", f"{number} can never be rolled with "
                           f"{rules['dice']['faces']}-sided dice", "unreachable",
                           severity="warning")
        doc, _ = entry.base
        cards.append(Card(
            id=d["id"], kind=d["kind"], name=d["name"], name_ja=d.get("name_ja", d["name"]),
            colour=d.get("colour"), icon=d.get("icon"), cost=d["cost"],
            activation=tuple(d.get("activation", ())), supply=d.get("supply", 0),
            limit=d.get("limit", 1 if d["kind"] == "landmark" else None),
            effect=d["effect"], clauses=clauses, file=doc.file,
        ))
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise DataError(errors)

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
        name=rules.get("name", raw.source), cards=tuple(cards), colours=colours,
        min_players=rules["players"]["min"], max_players=rules["players"]["max"],
        start_coins=setup["coins"], start_town=tuple(start_town),
        dice_faces=rules["dice"]["faces"], dice_count=rules["dice"]["count"],
        payment_order=rules["payment_order"], builds_per_turn=rules["turn"]["builds"],
        victory=victory, options=options, source=raw.source, ids=ids, index=index,
        establishments=establishments, landmarks=landmarks, by_roll=by_roll, hooks=hooks,
        dice_options=dice_options, boosts=tuple(tuple(b) for b in boosts),
        cost=tuple(c.cost for c in cards), supply=tuple(c.supply for c in cards),
        limit=tuple(c.limit if c.limit is not None else 1 << 30 for c in cards),
        warnings=tuple(p for p in problems if p.severity == "warning"),
    )


def load_ruleset(variant: str | Path | None = None) -> RuleSet:
    """Load, check and compile a rule set.

    ``variant`` is None or ``"base"`` for the bundled base set, the path of a variant file
    (``kind: variant``), or the path of a folder holding a rules file and card files.
    Raises :class:`~machikoro.errors.DataError` listing every problem found.
    """
    problems: list[Problem] = []
    if variant is None or str(variant) == "base":
        raw = _read_folder(data_dir("cards"), problems)
    else:
        path = Path(variant)
        if path.is_dir():
            raw = _read_folder(path, problems)
        elif not path.exists():
            raise DataError([Problem(str(variant), 0, 0, "", "no such file", "file")])
        else:
            raw = _apply_variant(path, problems)
    if raw is None:
        raise DataError(problems or [Problem(str(variant), 0, 0, "", "cannot load", "file")])
    return _build(raw)


def check_files(paths: list[str | Path]) -> list[Problem]:
    """Every problem (errors and warnings) in the given files or folders, as for
    ``machikoro validate``: a folder or a rules file is checked as a whole rule set, a
    variant as the rule set it makes, a card file within its folder's rule set (or the
    base set when its folder has none), a rule-case file against its schema and rule set.
    """
    from .scenario import check_case_file

    problems: list[Problem] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            problems += _problems_of(lambda: load_ruleset(path))
            continue
        try:
            doc = read_yaml(path, str(given))
        except DataError as exc:
            problems += exc.problems
            continue
        data = doc.data
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind == "variant":
            problems += _problems_of(lambda: load_ruleset(path))
        elif kind == "rules":
            problems += _problems_of(lambda: load_ruleset(path.parent))
        elif isinstance(data, dict) and ("turns" in data or "expect" in data):
            problems += check_case_file(doc)
        elif kind in ("establishment", "landmark") or (isinstance(data, dict) and "id" in data):
            problems += _check_card(path, doc)
        else:
            what = f"'kind: {kind}'" if kind else "no 'kind' field"
            problems.append(doc.problem(("kind",) if kind else (), f"{what}: expected kind "
                                        "establishment, landmark, rules or variant, or a "
                                        "rule case (players, turns, expect)", "kind",
                                        key=False))
    return problems


def _problems_of(load) -> list[Problem]:
    try:
        ruleset = load()
    except DataError as exc:
        return exc.problems
    return list(ruleset.warnings)


def _check_card(path: Path, doc: Document) -> list[Problem]:
    found = schemas.check(doc, "card")
    if found:
        return found
    folder = path.parent
    has_rules = any(
        p.suffix in (".yaml", ".yml") and "kind: rules" in p.read_text("utf-8", "replace")
        for p in folder.iterdir() if p.is_file() and p.stat().st_size < 1 << 16)
    if has_rules:
        problems = _problems_of(lambda: load_ruleset(folder))
        mine = [p for p in problems if Path(p.file).resolve() == path.resolve()]
        return mine if mine or not problems else problems
    # a lone card: check it as an addition to (or replacement in) the base set
    problems: list[Problem] = []
    raw = _read_folder(data_dir("cards"), problems)
    assert raw is not None, problems
    raw.cards[doc.data["id"]] = _Entry(dict(doc.data), {}, (doc, ()))
    try:
        ruleset = _build(raw)
    except DataError as exc:
        return exc.problems
    return [w for w in ruleset.warnings if w.file == doc.file]


def describe_rules(ruleset: RuleSet) -> dict[str, Any]:
    """A JSON-ready summary of a rule set's rules (for ``machikoro cards --json``)."""
    return {
        "name": ruleset.name,
        "players": [ruleset.min_players, ruleset.max_players],
        "start_coins": ruleset.start_coins,
        "dice": {"faces": ruleset.dice_faces, "count": ruleset.dice_count},
        "victory": [ruleset.ids[i] for i in ruleset.victory],
    }


__all__ = ["Card", "Clause", "Colour", "RuleSet", "check_files", "load_ruleset"]
