"""Checking the names a rule set's files use, and the vocabulary effects may use.

A card's colour must be a colour of the rules file; the rules file's starting town and
victory landmarks must be card ids of the right kind; an icon held by one card only that is
a near miss of another icon is flagged (icons are open-ended, so a misspelt one would make
a new icon); card ids, icons and colours never share a name; a name that a variant's
``remove`` left unknown is blamed on that ``remove``. Every problem names the file, line
and column of the name, with a "did you mean".
"""

from __future__ import annotations

import difflib
import re

from ..errors import Problem
from ..language.vocabulary import Vocabulary
from .file_kinds import article
from .raw import CardEntry, RawRuleSet
from .ruleset import Colour


def entry_problem(problems: list[Problem], entry: CardEntry, name: str, message: str,
                  code: str, severity: str = "error") -> None:
    """Report a problem at field ``name`` of a card (in its file, or the variant that set
    it)."""
    doc, path = entry.where(name)
    problems.append(doc.problem(path, message, code, severity=severity))


def check_card_colours(entries: list[CardEntry], colours: dict[str, Colour] | None,
                       problems: list[Problem]) -> None:
    """Every card's ``colour`` is a colour of the rules file."""
    if colours is None:
        return
    for entry in entries:
        colour = entry.data.get("colour")
        if isinstance(colour, str) and colour not in colours:
            hint = difflib.get_close_matches(colour, list(colours), n=1)
            more = f" - did you mean '{hint[0]}'?" if hint else \
                f" (the rules file defines {', '.join(colours)})"
            entry_problem(problems, entry, "colour", f"unknown colour '{colour}'{more}",
                          "unknown-name")


class RuleIds:
    """Resolves card ids named in the rules file (or a variant's ``rules``) to card indices,
    reporting unknown ids and ids of the wrong kind where they are written."""

    def __init__(self, raw: RawRuleSet, entries: list[CardEntry], index: dict[str, int]):
        self.raw, self.entries, self.index = raw, entries, index

    def kind(self, card_id: str) -> str | None:
        return self.entries[self.index[card_id]].data.get("kind")

    def resolve(self, path: tuple, values: list[tuple], want: str) -> list[int]:
        """The indices of ``values`` (``(key or position, id)`` pairs under ``path``) that
        are ``want`` cards (``establishment``/``landmark``); the others are reported."""
        out = []
        for pos, name in values:
            if name in self.raw.unread:
                continue
            doc, full = self.raw.rules_where(path + (pos,))
            at_key = isinstance(pos, str)
            if name not in self.index:
                hint = difflib.get_close_matches(
                    name, [i for i in self.index if self.kind(i) == want], n=1)
                more = f" - did you mean '{hint[0]}'?" if hint else ""
                self.raw.problems.append(doc.problem(full, f"unknown {want} '{name}'{more}",
                                                     "unknown-name", key=at_key))
                continue
            kind = self.kind(name)
            if kind is not None and kind != want:
                self.raw.problems.append(doc.problem(
                    full, f"'{name}' is {article(kind)}, not {article(want)}", "wrong-kind",
                    key=at_key))
                continue
            out.append(self.index[name])
        return out

    def start_town(self, setup: dict) -> list[int]:
        """Copies of each card (by index) in every player's starting town."""
        town = [0] * len(self.entries)
        for name, copies in setup["establishments"].items():
            found = self.resolve(("setup", "establishments"), [(name, name)], "establishment")
            if found:
                town[found[0]] = copies
        for i in self.resolve(("setup", "landmarks"), list(enumerate(setup["landmarks"])),
                              "landmark"):
            town[i] = 1
        return town

    def victory(self, landmarks: list) -> tuple[int, ...]:
        """The indices of the victory landmarks listed in ``victory.landmarks``."""
        return tuple(self.resolve(("victory", "landmarks"), list(enumerate(landmarks)),
                                  "landmark"))

    def at_once(self, landmarks: list) -> tuple[int, ...]:
        """The indices of the landmarks listed in ``victory.at_once`` (each must be a
        landmark of the rule set: else a located problem)."""
        return tuple(self.resolve(("victory", "at_once"), list(enumerate(landmarks)),
                                  "landmark"))


def vocabulary(entries: list[CardEntry], names: dict[str, int],
               colours: dict[str, Colour] | None, victory: tuple[int, ...],
               problems: list[Problem], markers: dict | None = None) -> Vocabulary:
    """The names effects may use: ``names`` (card id -> index, with the unreadable cards'
    names), icons and colours (every colour of the rules file, even one no card has), and
    the ``victory`` landmarks that ``has N landmarks`` counts; a lone icon that is a near
    miss of a shared one gets a warning. ``markers`` are the rules file's markers
    (name -> ``(index, behaviour)``)."""
    icons: dict[str, list[int]] = {}
    by_colour: dict[str, list[int]] = {}
    for i, entry in enumerate(entries):
        if isinstance(entry.data.get("icon"), str):
            icons.setdefault(entry.data["icon"], []).append(i)
        if isinstance(entry.data.get("colour"), str):
            by_colour.setdefault(entry.data["colour"], []).append(i)
    for name in colours or ():
        by_colour.setdefault(name, [])
    check_name_clashes(entries, icons, colours or {}, problems)
    for name, holders in icons.items():
        others = [icon for icon, cards in icons.items() if icon != name and len(cards) > 1]
        hint = difflib.get_close_matches(name, others, n=1, cutoff=0.75)
        if len(holders) == 1 and hint:
            entry_problem(problems, entries[holders[0]], "icon", f"icon '{name}' is on no "
                          f"other card - did you mean '{hint[0]}'?", "unknown-name",
                          severity="warning")
    kinds = [e.data.get("kind") for e in entries]
    by_kind: dict[str, tuple] = {}
    for i, kind in enumerate(kinds):
        if isinstance(kind, str):
            by_kind[kind] = by_kind.get(kind, ()) + (i,)
    landmarks = by_kind.get("landmark", ())
    establishments = by_kind.get("establishment", ())
    activations = tuple(tuple(e.data.get("activation") or ()) for e in entries)
    return Vocabulary(names, {k: tuple(v) for k, v in icons.items()},
                      {k: tuple(v) for k, v in by_colour.items()}, landmarks, victory,
                      establishments, by_kind, activations, dict(markers or {}))


def check_name_clashes(entries: list[CardEntry], icons: dict[str, list[int]],
                       colours: dict, problems: list[Problem]) -> None:
    """Card ids, icons and colours must not share a name: an effect names all three alike
    (``gain 1 per NAME``), so a card whose id is an icon would silently change what other
    cards count. A clash is reported at the card's ``id`` (a card named like an icon or a
    colour) or ``icon`` (an icon named like a colour)."""
    def holders(indices: list[int]) -> str:
        ids = [entries[i].data["id"] for i in indices[:3]]
        return ", ".join(ids) + (", ..." if len(indices) > 3 else "")

    for entry in entries:
        card_id = entry.data["id"]
        if card_id in icons:
            entry_problem(problems, entry, "id", f"card id '{card_id}' is also the icon of "
                          f"{holders(icons[card_id])}: ids, icons and colours need different "
                          "names, since effects name them alike", "duplicate")
        if card_id in colours:
            entry_problem(problems, entry, "id", f"card id '{card_id}' is also a colour of "
                          "the rules file: ids, icons and colours need different names, "
                          "since effects name them alike", "duplicate")
        icon = entry.data.get("icon")
        if isinstance(icon, str) and icon in colours:
            entry_problem(problems, entry, "icon", f"icon '{icon}' is also a colour of the "
                          "rules file: ids, icons and colours need different names, since "
                          "effects name them alike", "duplicate")


_NAME_AT = re.compile(r"[\"']?([a-z][a-z0-9_]*)")


def blame_removed(raw: RawRuleSet) -> None:
    """An unknown name that a variant's ``remove`` made unknown (the rules file's starting
    town, another card's ``per cow``) is reported at that ``remove`` entry, naming the place
    that still needs it, rather than blamed on the file that uses it."""
    if not raw.removed:
        return
    for k, p in enumerate(raw.problems):
        if p.code != "unknown-name" or p.severity != "error":
            continue
        match = _NAME_AT.match(p.source_line[p.column - 1:])
        name = match.group(1) if match else None
        if name not in raw.removed:
            continue
        doc, path = raw.removed[name]
        card = doc.data["remove"][path[-1]]
        what = f"'{card}'" if name == card else f"'{card}' (its icon '{name}')"
        field = f" ({p.field})" if p.field else ""
        raw.problems[k] = doc.problem(path, f"{what} is removed here, but "
                                      f"{p.file}:{p.line}:{p.column}{field} still names it",
                                      "removed")
