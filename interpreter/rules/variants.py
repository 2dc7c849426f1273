"""Applying a variant file (``kind: variant``): the rule set it ``extends`` (``base``, a
rule-set folder or another variant), then its ``rules`` fields (mappings merge), ``remove``,
``change`` (fields of a card) and ``cards`` (whole cards, added or replacing by id).

Every problem of the file is reported, an unknown card id as well as a bad field; parts that
failed the schema are skipped, so the rest is still checked. The card a ``change`` makes is
checked against the card schema like a card in a file, at the change.
"""

from __future__ import annotations

import copy
import difflib
import os
import re
from pathlib import Path

from ..data import schemas
from ..data.buffers import is_held, read_text
from ..data.bundled import data_dir
from ..data.documents import Document, json_path
from ..data.sources import yaml_paths
from ..errors import Problem
from .file_kinds import article, card_kinds, kind_of, read
from .folders import read_folder
from .raw import CardEntry, RawRuleSet, add_card, bad_paths, card_findings, salvage

MAX_VARIANT_DEPTH = 16
MAX_PROBLEMS_PER_FILE = 100


class _Broken:
    """Which parts of a variant failed the schema (paths of the bad fields)."""

    def __init__(self, found: list):
        self.bad = bad_paths(found)

    def touches(self, prefix: tuple) -> bool:
        """The value at ``prefix``, or a part of it, is bad."""
        n = len(prefix)
        return any(p[:n] == prefix or prefix[:len(p)] == p for p in self.bad)

    def whole(self, prefix: tuple) -> bool:
        """The value at ``prefix`` (or an ancestor) is bad."""
        return any(prefix[:len(p)] == p for p in self.bad)


def merge(base: dict, patch: dict) -> dict:
    """``base`` with ``patch`` laid over it: mappings merge key by key (but a starting town,
    ``establishments``, is replaced whole), anything else is replaced."""
    out = dict(base)
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key not in (
                "establishments",):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def unknown_card(doc: Document, path: tuple, name: str, known, key: bool = False) -> Problem:
    """An "unknown card id" problem at ``path``, with a "did you mean" among ``known``."""
    hint = difflib.get_close_matches(str(name), list(known), n=1)
    more = f" - did you mean '{hint[0]}'?" if hint else ""
    return doc.problem(path, f"unknown card id '{name}'{more}", "unknown-name", key=key)


def apply_variant(path: Path, problems: list[Problem], chain: tuple = (),
                  via: Document | None = None, onto: RawRuleSet | None = None
                  ) -> RawRuleSet | None:
    """The raw rule set a variant file makes, every problem of the file reported; ``chain``
    is the files extending it, for loops, and ``via`` the variant whose ``extends`` names
    it. A rules file stands for its folder's rule set. With ``onto`` (stacked variants),
    the variant changes that rule set instead of the one it extends, which must then be
    ``base``. Card files beside the variant file (in a folder without a rules file) are
    cards of the variant, added or replacing by id."""
    doc = read(path, problems)
    if doc is None:
        return None
    kind = kind_of(doc, problems)
    if kind is None:
        return None
    if kind == "rules":
        return read_folder(path.parent, problems)
    if kind != "variant":
        problems.append(_not_a_variant(doc, kind, via))
        return None
    found = schemas.findings(doc.data, "variant")
    problems.extend(schemas.problems_of(doc, found))
    if not found.complete:
        return None
    broken = _Broken(found)
    parent = doc.data.get("extends")
    if not isinstance(parent, str) or broken.touches(("extends",)):
        return None
    if onto is not None and parent != "base":
        problems.append(doc.problem(("extends",), f"a stacked variant changes the rule set "
                                    f"before it, so it must extend 'base', not '{parent}' "
                                    "(stack that one first instead)", "variant"))
        return None
    raw = onto if onto is not None else _parent(path, doc, parent, problems, chain)
    if raw is None:
        return None
    name = doc.data.get("name")
    if isinstance(name, str):
        raw.name = f"{raw.name or raw.rules.get('name', raw.source)} + {name}" \
            if onto is not None else name
    raw.source = doc.file
    if doc.data.get("include_folder") is True:
        _folder_cards(path, doc, raw, problems)
    _patch_rules(raw, doc, broken)
    _remove_cards(raw, doc, broken, problems)
    _change_cards(raw, doc, broken, problems)
    _add_cards(raw, doc, found, broken, problems)
    return raw


def _folder_cards(path: Path, doc: Document, raw: RawRuleSet, problems: list[Problem]) -> None:
    """Add the card files beside a variant file with ``include_folder: true`` to its rule
    set (the folder is the variant: this file and card files, no rules file)."""
    files = [p for p in yaml_paths(path.parent)  # noted: the cache watches this listing
             if (is_held(p) or p.is_file()) and p.resolve() != path.resolve()]
    found = []
    for file in files:
        own: list[Problem] = []
        card_doc = read(file, own)
        kind = kind_of(card_doc, own) if card_doc is not None else None
        if kind == "rules":
            return  # a rule-set folder: its cards belong to its rules file, not this variant
        found.append((file, card_doc, kind, own))
    others = [f[0] for f in found if f[2] == "variant"]
    if others:
        problems.append(doc.problem(("include_folder",), "this variant is its folder, so the "
                                    f"folder holds one variant file: {others[0].name} is a "
                                    "second one (move it to another folder)", "variant"))
        return
    defined: dict[str, str] = {}  # card id -> the file of this folder that defines it
    for file, card_doc, kind, own in found:
        if kind is None:
            problems.extend(own)
            raw.unread.update(salvage(file))
            continue
        if kind not in card_kinds() and kind != "card":
            continue  # strategies and rule cases may sit beside the cards
        problems.extend(own)
        card_id = card_doc.data.get("id") if isinstance(card_doc.data, dict) else None
        if isinstance(card_id, str):
            if card_id in defined:
                problems.append(card_doc.problem(("id",), f"card id '{card_id}' is also "
                                                 f"defined in {defined[card_id]}", "duplicate"))
                continue
            defined[card_id] = card_doc.file
            raw.cards.pop(card_id, None)  # a base card is replaced whole
        add_card(card_doc, (), card_doc.data, card_findings(card_doc, problems), raw.cards,
                 raw.unread, problems)


def load_folder(folder: Path, problems: list[Problem]) -> RawRuleSet | None:
    """The raw rule set of a folder: a rule set (a rules file and card files), or a
    variant (a variant file with ``include_folder: true`` and card files)."""
    variant = folder_variant(folder)
    if variant is not None:
        return apply_variant(variant, problems)
    return read_folder(folder, problems)


_INCLUDES = re.compile(r"^include_folder:\s*true\s*(#.*)?$", re.MULTILINE)


def folder_variant(folder: Path) -> Path | None:
    """The variant file that makes ``folder`` a variant (``include_folder: true``, and no
    rules file in the folder), or None (a quick look at the files' text)."""
    files = [p for p in yaml_paths(folder) if is_held(p) or p.is_file()]  # noted, as above
    if any(_is_rules_file(p) for p in files):
        return None
    for path in files:
        if _is_variant_file(path):
            try:
                if _INCLUDES.search(read_text(path)):
                    return path
            except OSError:
                continue
    return None


_KIND_LINE = re.compile(r"^kind:\s*[\"']?(\w+)[\"']?\s*(#.*)?$", re.MULTILINE)


def _declared_kind(path: Path) -> str | None:
    """The ``kind:`` a YAML file declares on a line of its own (read as text: a quick
    look, the file is read properly later)."""
    try:
        if path.stat().st_size > 1 << 16:
            return None
        match = _KIND_LINE.search(read_text(path))
    except OSError:
        return None
    return match.group(1) if match else None


def _is_variant_file(path: Path) -> bool:
    return _declared_kind(path) == "variant"


def _is_rules_file(path: Path) -> bool:
    return path.suffix in (".yaml", ".yml") and _declared_kind(path) == "rules"


def _not_a_variant(doc: Document, kind: str, via: Document | None) -> Problem:
    if via is not None:
        return via.problem(("extends",), f"'{via.data['extends']}' is {article(kind)} file, "
                           "not a variant: extend 'base', a variant file or a rule-set folder",
                           "variant")
    return doc.problem(("kind",) if "kind" in doc.data else (),
                       f"this is {article(kind)} file, not a variant or a rule set: give a "
                       "variant file or a rule-set folder", "kind")


def _parent(path: Path, doc: Document, parent: str, problems: list[Problem],
            chain: tuple) -> RawRuleSet | None:
    """The raw rule set named by ``extends: parent``; a loop or a chain too long is an
    error."""
    if parent == "base":
        return read_folder(data_dir("cards"), problems)
    here = (path.resolve(), doc.file)
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
        return load_folder(parent_path, problems)
    if not parent_path.is_file():
        problems.append(doc.problem(("extends",), f"no such variant file: {parent} "
                                    "(use 'base' or a path relative to this file)",
                                    "variant"))
        return None
    return apply_variant(parent_path, problems, steps, doc)


def _patch_rules(raw: RawRuleSet, doc: Document, broken: _Broken) -> None:
    patch = doc.data.get("rules")
    if isinstance(patch, dict) and not broken.whole(("rules",)):
        raw.rules = merge(raw.rules, {k: v for k, v in patch.items()
                                      if not broken.touches(("rules", k))})
        raw.rules_layers.append((doc, ("rules",)))


def _remove_cards(raw: RawRuleSet, doc: Document, broken: _Broken,
                  problems: list[Problem]) -> None:
    removed = doc.data.get("remove")
    if not isinstance(removed, list) or broken.whole(("remove",)):
        return
    for i, name in enumerate(removed):
        if len(problems) > MAX_PROBLEMS_PER_FILE * 2:
            break
        if broken.touches(("remove", i)) or name in raw.unread:
            continue
        if name not in raw.cards:
            problems.append(unknown_card(doc, ("remove", i), name, raw.cards))
            continue
        icon = raw.cards.pop(name).data.get("icon")
        raw.removed[name] = (doc, ("remove", i))
        if isinstance(icon, str):
            raw.removed.setdefault(icon, (doc, ("remove", i)))


def _change_cards(raw: RawRuleSet, doc: Document, broken: _Broken,
                  problems: list[Problem]) -> None:
    changes = doc.data.get("change")
    if not isinstance(changes, dict) or broken.whole(("change",)):
        return
    for name, fields in changes.items():
        if len(problems) > MAX_PROBLEMS_PER_FILE * 2:
            break  # a hostile file: enough said
        if not re.fullmatch(schemas.ID_PATTERN, name) or name in raw.unread:
            continue
        entry = raw.cards.get(name)
        if entry is None:
            problems.append(unknown_card(doc, ("change", name), name, raw.cards, key=True))
            continue
        if not isinstance(fields, dict) or broken.whole(("change", name)):
            continue
        good = {k: v for k, v in fields.items() if not broken.touches(("change", name, k))}
        entry.data = {**entry.data, **good}
        for key in good:
            entry.origin[key] = (doc, ("change", name, key))
        if not entry.partial:
            _check_changed(entry, doc, name, set(good), problems)


def _check_changed(entry: CardEntry, doc: Document, name: str, changed: set,
                   problems: list[Problem]) -> None:
    """The card a ``change`` makes is checked like a card in a file (the card schema: a
    landmark with an activation, an establishment without a colour...). A problem is located
    at the changed field that has it, else at the change entry; the fields it makes unusable
    are left out and the card is not built."""
    found = schemas.findings(entry.data, "card")
    for finding in found:
        if finding.path and finding.path[0] in changed:
            problems.append(doc.problem(("change", name) + finding.path, finding.message,
                                        "schema", key=finding.at_key))
        else:
            where = json_path(finding.path)
            problems.append(doc.problem(("change", name), f"after this change, {name}"
                                        f"{'.' + where if where else ''}: {finding.message}",
                                        "schema", key=True))
    bad = {p[0] for p in bad_paths(found) if p}
    if found:
        entry.data = {k: v for k, v in entry.data.items() if k not in bad}
        entry.partial = True


def _add_cards(raw: RawRuleSet, doc: Document, found: list, broken: _Broken,
               problems: list[Problem]) -> None:
    added = doc.data.get("cards")
    if not isinstance(added, list) or broken.whole(("cards",)):
        return
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
        add_card(doc, ("cards", i), card, found, raw.cards, raw.unread, problems)
