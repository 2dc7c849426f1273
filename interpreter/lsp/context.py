"""What the server knows of a document: its kind, the rule set it is checked in (the last
one that loaded without errors, so that completion and hover keep working while the file
is half typed) and the files that make that rule set."""

from __future__ import annotations

import re
from pathlib import Path

from ..checks.validate import rule_set_of
from ..data.buffers import held
from ..data.sources import recording
from ..errors import Problem
from ..rules.file_kinds import card_kinds, read
from ..rules.loader import load_into
from ..rules.ruleset import RuleSet

_KIND = re.compile(r"^kind:\s*[\"']?([\w-]+)", re.MULTILINE)
_ID = re.compile(r"^id:\s*[\"']?([a-z][a-z0-9_]*)", re.MULTILINE)
_CASE = re.compile(r"^(?:players|turns|expect)\s*:", re.MULTILINE)


def kind_of_text(text: str) -> str | None:
    """A file's kind from its text alone (it may not parse while typed): ``card`` for a
    card kind or an ``id`` with no kind, else its ``kind``, ``case`` for a rule case, or
    None."""
    found = _KIND.search(text)
    if found:
        return "card" if found.group(1) in card_kinds() else found.group(1)
    if _ID.search(text):
        return "card"
    return "case" if _CASE.search(text) else None


def card_id_of_text(text: str) -> str | None:
    """The top-level ``id`` of a card file's text, or None."""
    found = _ID.search(text)
    return found.group(1) if found else None


class RuleSets:
    """The rule set of each document, remembered by what it is loaded from: the last that
    loaded without errors, with the absolute paths of its files and its ``analyze``
    report (made when first asked for)."""

    def __init__(self) -> None:
        self.known: dict[str, tuple[RuleSet, list[Path]]] = {}
        self.reports: dict[str | int, tuple[RuleSet, dict | None]] = {}

    def of(self, path: Path, texts: dict[str, str]) -> tuple[RuleSet | None, list[Path]]:
        """The rule set the file at ``path`` is checked in (the same as ``validate``'s,
        :func:`~machikoro.checks.validate.rule_set_of`) with ``texts`` read in place of
        files, and its files; the last good one while it has errors; (None, []) when it
        never loaded."""
        with held(texts) as buffers, recording() as sources:
            doc = read(path, [])
            spec = rule_set_of(path, doc)
            key = repr(spec)
            problems: list[Problem] = []
            ruleset = load_into(spec, problems)
        if ruleset is not None and not any(p.severity == "error" for p in problems):
            files = list(dict.fromkeys([Path(record[0]) for record in sources.files]
                                       + [Path(name) for name in buffers.read]))
            self.known[key] = (ruleset, files)
        if key not in self.known and spec is not None:  # never loaded: the base set
            return self.of_base()
        return self.known.get(key, (None, []))

    def of_base(self) -> tuple[RuleSet | None, list[Path]]:
        """The bundled base set and its files."""
        if repr(None) not in self.known:
            with recording() as sources:
                ruleset = load_into(None, [])
            if ruleset is not None:
                self.known[repr(None)] = (ruleset, [Path(r[0]) for r in sources.files])
        return self.known.get(repr(None), (None, []))

    def report(self, ruleset: RuleSet) -> dict | None:
        """``analyze``'s report of ``ruleset`` at its fewest players, or None when it
        cannot be made (dice with too many outcomes). Kept per rule set digest (what the
        rules say, :func:`~machikoro.rules.build.rules_digest`): a document's rule set is
        loaded again for each request, and a report made per load cost each hover about a
        tenth of a second. A rule set that differs only in wording shares the
        report; its readers (the hover's expected coins) read numbers and card ids, never
        names. A rule set without a digest is kept for that object alone."""
        key = ruleset.digest or id(ruleset)
        kept = self.reports.get(key)
        if kept is None or (not ruleset.digest and kept[0] is not ruleset):
            from ..lab.card_analysis import analyze

            try:
                report = analyze(ruleset, max(2, ruleset.min_players))
            except (ValueError, ArithmeticError):
                report = None
            if len(self.reports) >= 8:
                self.reports.clear()
            self.reports[key] = (ruleset, report)
        return self.reports[key][1]
