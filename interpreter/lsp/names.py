"""Card ids as names: where a card is defined (go to definition), every place a rule set's
files name it (rename), and whether a new name is taken (by a card, an icon or a colour).

A card id is found as a whole word (``[a-z0-9_]``) in the text of the YAML files that make
the rule set (as the loader read them), outside comments and outside the free-text fields
(:data:`TEXT_FIELDS`): an ``id``, an effect's or a filter's word, a key of ``change`` or
``establishments``, an item of a list."""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..data.buffers import read_text
from ..data.schemas import ID_PATTERN
from ..rules.ruleset import RuleSet

TEXT_FIELDS = ("name", "name_ja", "description", "source", "notes")
"""The schemas' free-text fields, where a card id's letters are only words."""

_TEXT_LINE = re.compile(rf"^\s*(?:-\s+)?(?:{'|'.join(TEXT_FIELDS)})\s*:")


def _comment_start(line: str) -> int:
    """Where a ``#`` comment starts on ``line`` (outside quotes), or its length."""
    quote = None
    for k, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (k == 0 or line[k - 1] in " \t"):
            return k
    return len(line)


def occurrences(text: str, name: str) -> list[tuple[int, int]]:
    """``(line, column)`` (0-based, characters) of every whole-word ``name`` in ``text``
    outside comments and free-text fields."""
    word = re.compile(rf"(?<![a-z0-9_]){re.escape(name)}(?![a-z0-9_])")
    found = []
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text)):
        if _TEXT_LINE.match(line):
            continue
        end = _comment_start(line)
        found += [(number, m.start()) for m in word.finditer(line, 0, end)]
    return found


def definition(ruleset: RuleSet, name: str) -> tuple[Path, int, int] | None:
    """The file and 0-based ``(line, column)`` of the ``id:`` that defines card ``name``,
    or None when the rule set has no such card."""
    if name not in ruleset.index:
        return None
    card = ruleset.cards[ruleset.index[name]]
    path = Path(os.path.abspath(card.file))
    try:
        text = read_text(path)
    except OSError:
        return None
    pattern = re.compile(rf"^(\s*(?:-\s+)?id:\s*[\"']?){re.escape(name)}\b", re.MULTILINE)
    match = pattern.search(text)
    if match is None:
        return path, 0, 0
    line = text.count("\n", 0, match.start())
    return path, line, match.end(1) - (text.rfind("\n", 0, match.start()) + 1)


def taken(ruleset: RuleSet, name: str) -> str | None:
    """What of ``ruleset`` goes by ``name`` already: ``card``, ``icon`` or ``colour``
    (effects name the three alike, so the validator refuses a card id that is an icon or a
    colour), or None when the name is free. The names come from the rule set's data."""
    vocabulary = ruleset.vocabulary
    icons = vocabulary.icons if vocabulary is not None else {}
    colours = vocabulary.colours if vocabulary is not None else ruleset.colours
    for what, names in (("card", ruleset.index), ("icon", icons), ("colour", colours)):
        if name in names:
            return what
    return None


def rename_edits(files: list[Path], name: str, new: str) -> dict[Path, list[tuple[int, int]]]:
    """Every place to change to rename card id ``name`` to ``new`` in ``files``: ``{file:
    [(line, column), ...]}`` (the old name's length from there). Raises ValueError when
    ``new`` is not a card id (:data:`~machikoro.data.schemas.ID_PATTERN`)."""
    if not re.fullmatch(ID_PATTERN.strip("^$"), new):
        raise ValueError(f"'{new}' is not a card id: lower-case letters, digits and _, "
                         "starting with a letter")
    out: dict[Path, list[tuple[int, int]]] = {}
    for path in dict.fromkeys(files):
        if path.suffix not in (".yaml", ".yml"):
            continue
        try:
            found = occurrences(read_text(path), name)
        except OSError:
            continue
        if found:
            out[path] = found
    return out
