"""Where the cursor stands in a YAML file, read from the lines alone (a file being typed
is seldom valid YAML): the keys above it, whether it types a key, a value or a list item,
and the text of an ``effect`` before it."""

from __future__ import annotations

import re

from ..data import schemas
from ..records import Record

MAX_LINES_UP = 2_000
"""How many lines above the cursor are read to find its keys."""



def effect_limit() -> int:
    """The longest effect the validator accepts, in characters: the card schema's
    ``maxLength`` of ``effect``. Completion and hover leave a longer effect alone (the
    schema's diagnostic says what is wrong), never parsing it."""
    return schemas.schema_of("card")["properties"]["effect"]["maxLength"]


_KEY = re.compile(r"^(\s*)(?:-\s+)?([\w-]+)\s*:(?:\s|$)")
_WORD = re.compile(r"[a-z0-9_]*$")


class Cursor(Record):
    """The cursor's place: ``path`` the keys above it (outermost first; ``"-"`` for a
    list item), ``at`` one of ``key``, ``value``, ``item`` (in a list, or in a flow
    ``[...]``), ``flow-key`` (in a flow ``{...}``); ``prefix`` the part of a word typed
    before it."""

    path: tuple
    at: str
    prefix: str


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def parents(lines, number: int, indent: int) -> list[str]:
    """The keys of the lines above line ``number`` (0-based) that hold a line indented
    ``indent``, outermost first (``"-"`` for a list item)."""
    keys: list[str] = []
    for k in range(number - 1, max(-1, number - 1 - MAX_LINES_UP), -1):
        text = lines[k]
        stripped = text.lstrip(" ")
        at = len(text) - len(stripped)
        if not stripped.strip() or stripped.startswith("#") or at >= indent:
            continue
        found = _KEY.match(text)
        item = stripped.startswith("-")
        if item and found and at + 2 < indent:  # "- key:" whose value holds the cursor
            keys.append(found.group(2))
        if item:
            keys.append("-")
        elif found:
            keys.append(found.group(2))
        indent = at
        if at == 0 and not item:
            break
    return keys[::-1]


def cursor_at(lines, number: int, column: int) -> Cursor:
    """The :class:`Cursor` at 0-based line ``number``, column ``column`` (characters)."""
    text = lines[number][:column] if number < len(lines) else ""
    prefix = _WORD.search(text).group(0)
    head = text[:len(text) - len(prefix)]
    path = parents(lines, number, _indent(text) if text.strip() else len(text))
    own = _KEY.match(text)
    if own and own.end() <= len(head):
        if text.lstrip().startswith("-"):  # "- key: ..." : a key of a list item
            path.append("-")
        path.append(own.group(2))
        rest = head[own.end():]
        if rest.count("{") > rest.count("}") and re.search(r"[{,]\s*$", rest):
            return Cursor(tuple(path), "flow-key", prefix)
        if rest.count("[") > rest.count("]"):
            return Cursor(tuple(path + ["-"]), "item", prefix)
        return Cursor(tuple(path), "value", prefix)
    if re.match(r"^\s*-\s+$", head):
        return Cursor(tuple(path + ["-"]), "item", prefix)
    return Cursor(tuple(path), "key", prefix)


def effect_before(lines, number: int, column: int, field: str = "effect") -> str | None:
    """The text of the ``field`` value (an effect) from its start to the cursor, its lines
    joined by spaces, or None when the cursor is not in such a value. Plain, quoted and
    block (``|``, ``>``) values, on one line or several."""
    text = lines[number][:column] if number < len(lines) else ""
    pattern = re.compile(rf"^(\s*)(?:-\s+)?{re.escape(field)}\s*:\s?(.*)$")
    own = pattern.match(text)
    if own:
        value = own.group(2)
        return "" if value.strip() in ("|", ">", "|-", ">-") else value.lstrip("'\"")
    indent = _indent(text) if text.strip() else len(text)
    parts = [text.strip()]
    for k in range(number - 1, max(-1, number - 1 - MAX_LINES_UP), -1):
        above = lines[k]
        if not above.strip():
            continue
        if _indent(above) >= indent:
            parts.append(above.strip())
            continue
        found = pattern.match(above)
        if not found:
            return None
        head = found.group(2).strip()
        if head not in ("|", ">", "|-", ">-", "|+", ">+"):
            parts.append(head.lstrip("'\""))
        return " ".join(reversed(parts))
    return None
