"""Reading a rule-set folder: one rules file (``kind: rules``) and one file per card."""

from __future__ import annotations

import copy
from pathlib import Path

from ..data.sources import yaml_paths
from ..errors import Problem
from .file_kinds import card_kinds, display, kind_of, read
from .raw import CardEntry, RawRuleSet, add_card, card_findings, salvage


def read_folder(folder: Path, problems: list[Problem]) -> RawRuleSet | None:
    """The raw rule set of ``folder``, every problem of its files appended to ``problems``;
    None when the folder holds no YAML file. Variants, strategies and rule cases in the
    folder are not part of the rule set and are skipped."""
    rules = None
    cards: dict[str, CardEntry] = {}
    unread: set[str] = set()
    try:
        files = yaml_paths(folder)  # noted: the cache on disk watches this listing
    except OSError as exc:
        problems.append(Problem(display(folder), 1, 1, "", "cannot list this folder: "
                                f"{exc.strerror or exc}", "file"))
        return None
    if not files:
        problems.append(Problem(display(folder), 1, 1, "", "no YAML files in this folder",
                                "no-yaml"))
        return None
    for path in files:
        doc = read(path, problems)
        kind = kind_of(doc, problems) if doc is not None else None
        if kind is None:
            unread.update(salvage(path))
            continue
        if kind == "rules":
            if rules is not None:
                problems.append(doc.problem(("kind",), "a second rules file in this rule set "
                                            f"(the first is {rules.file})", "duplicate"))
            else:
                rules = doc
        elif kind in card_kinds() or kind == "card":
            found = card_findings(doc, problems)
            add_card(doc, (), doc.data, found, cards, unread, problems)
    if rules is None:
        if not unread:  # else an unreadable file may be the rules file
            problems.append(Problem(display(folder), 1, 1, "", "no rules file in this folder "
                                    "(a YAML file with 'kind: rules')", "file"))
        return RawRuleSet({}, [], cards, display(folder), problems, unread, has_rules=False)
    return RawRuleSet(copy.deepcopy(rules.data), [(rules, ())], cards, display(folder),
                      problems, unread)
