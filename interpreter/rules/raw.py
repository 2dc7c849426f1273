"""A rule set while it loads: the merged rules and the cards, with where each value came
from, and every problem found so far.

Fields that failed the schema are left out (their problems are already reported), so the
checks that follow see only good values, and one bad field does not hide an unknown id or an
effect typo elsewhere.
"""

from __future__ import annotations

import re
import stat
from pathlib import Path
from typing import Any

from ..data import schemas
from ..data.documents import Document
from ..data.yaml_reader import MAX_BYTES
from ..errors import Problem
from ..records import Record, field
from .file_kinds import card_kinds


class CardEntry(Record, frozen=False):
    """A card's fields while loading, with where each field came from (a card file, or the
    variant that changed it)."""

    data: dict
    origin: dict  # field -> (Document, path tuple)
    base: tuple  # (Document, path) of the card as a whole
    partial: bool = False  # some fields were left out: the card must not be built

    def where(self, name: str) -> tuple[Document, tuple]:
        """The document and path that gave field ``name``."""
        return self.origin.get(name, (self.base[0], self.base[1] + (name,)))


class RawRuleSet(Record, frozen=False):
    """A rule set before building: the merged rules, the cards, every problem so far.

    ``unread`` holds the ids and icons (or file stems) of cards that could not be read, so
    that a reference to them is not reported as unknown too; ``has_rules`` is False when
    the folder has no rules file; ``removed`` the ids and icons of the cards a variant
    removed, with where, so that a name they leave unknown is blamed on the removal.
    """

    rules: dict
    rules_layers: list  # [(Document, prefix)]
    cards: dict  # id -> CardEntry, in order
    source: str
    problems: list
    unread: set = field(default_factory=set)
    has_rules: bool = True
    name: str | None = None  # a variant's name, which names the rule set it makes
    removed: dict = field(default_factory=dict)  # id or icon -> (Document, path) of its remove

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


def card_findings(doc: Document, problems: list[Problem]) -> schemas.Findings:
    """The schema findings of a card file, reported to ``problems`` (but not a wrong kind,
    which :func:`~machikoro.rules.file_kinds.kind_of` has reported already)."""
    found = schemas.findings(doc.data, "card")
    told = "kind" in doc.data and doc.data["kind"] not in card_kinds()
    problems.extend(schemas.problems_of(doc, [f for f in found
                                              if not (told and f.path[:1] == ("kind",))]))
    return found


def salvage(path: Path) -> set[str]:
    """The names a card file that cannot be read probably defines (its file name, and its
    ``id`` and ``icon`` lines read as text), so that uses of them elsewhere are not also
    reported as unknown."""
    names = {path.stem}
    try:
        status = path.stat()
        if stat.S_ISREG(status.st_mode) and status.st_size <= MAX_BYTES:  # never a pipe
            text = path.read_bytes().decode("utf-8", "replace")
            names.update(m.group(1) for m in re.finditer(
                r"^(?:id|icon)\s*:\s*\[?\s*[\"']?([a-z][a-z0-9_]*)", text, re.MULTILINE))
    except OSError:
        pass
    return names


def bad_paths(found: list, prefix: tuple = ()) -> list[tuple]:
    """The paths (relative to ``prefix``) of the fields that failed the schema."""
    n = len(prefix)
    return [p[n:] for f in found for p in f.fields if p[:n] == prefix]


def add_card(doc: Document, path: tuple, data: Any, found: list,
             raw_cards: dict, unread: set, problems: list[Problem]) -> None:
    """Add the card at ``path`` of ``doc`` to ``raw_cards`` (id -> :class:`CardEntry`),
    leaving out the fields that failed the schema (``found``, findings relative to the
    document)."""
    bad = bad_paths(found, path)
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
    raw_cards[card_id] = CardEntry({k: v for k, v in data.items() if k not in top}, {},
                                   (doc, path), partial=bool(top) or not found.complete)
