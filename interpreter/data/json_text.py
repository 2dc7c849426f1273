"""Reading JSON text the tools wrote back in (a game log's lines, a tournament's results
file) within the limits every input gets: nesting no deeper than :data:`MAX_DEPTH` levels
(the YAML reader's limit) and whole numbers no longer than Python converts (4,300 digits);
so a hostile or damaged line ends in a :class:`JSONTextError` with a one-line message, not
a ``RecursionError`` or ``ValueError`` from deep inside :mod:`json`.

:func:`load_json` with ``strict`` also refuses what JSON (RFC 8259) has no value for and
:mod:`json` accepts anyway: ``NaN``, ``Infinity``, ``-Infinity`` and numbers too large for a
float (``1e999``, read as infinity), a key written twice in one object (:mod:`json` keeps
the last silently) and a string holding a lone surrogate (``"\\ud800"``, which no UTF-8
output can write), each at its column. :func:`column_of` finds where a value (or a key) of
a line stands, for messages; :func:`difference` compares two values exactly as JSON values.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .yaml_reader import MAX_DEPTH

MAX_DIGITS = 4300
"""The most digits of a whole number (Python's int-string conversion limit)."""


class JSONTextError(ValueError):
    """A JSON text that is not JSON or passes a limit; ``message`` says which in one line
    (``not JSON: Expecting value (column 3)``, ``nested deeper than 64 levels``,
    ``a number is too long (5,000 digits)``), ``column`` is 1-based (1 when unknown) and
    ``path`` the JSON path (a tuple of keys and indices) of the value refused, when known."""

    def __init__(self, message: str, column: int = 1, path: tuple = ()):
        super().__init__(message)
        self.message, self.column, self.path = message, column, path


class _Refused:
    """What a strict parse puts in place of a value JSON has no value for; ``why`` says
    what it was."""

    __slots__ = ("why",)

    def __init__(self, why: str):
        self.why = why


class _Pairs(dict):
    """An object whose key ``twice`` was written more than once (a strict parse)."""

    twice: str = ""


def _constant(text: str) -> _Refused:
    return _Refused(f"{text} is not a JSON number")


def _float(text: str) -> float | _Refused:
    value = float(text)
    if math.isinf(value):
        short = text if len(text) <= 20 else text[:17] + "..."
        return _Refused(f"the number {short} is too large (beyond a float's range)")
    return value


def _int(text: str) -> int | _Refused:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        return _Refused(f"a number is too long ({digits:,} digits)")
    return int(text)


def _pairs(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) == len(pairs):
        return out
    seen: set = set()
    twice = next(k for k, _ in pairs if k in seen or seen.add(k))
    marked = _Pairs(out)
    marked.twice = twice
    return marked


_SURROGATE = re.compile("[\ud800-\udfff]")


def load_json(text: str, strict: bool = False) -> Any:
    """The value of the JSON ``text`` (one document: a line of a JSON-lines file).

    Raises :class:`JSONTextError` for text that is not JSON, nests deeper than
    :data:`MAX_DEPTH` arrays and objects, or holds a whole number of more digits than
    Python converts; with ``strict``, also for ``NaN``/``Infinity``, a number beyond a
    float's range, a key written twice in one object and a lone surrogate in a string
    (see the module text), with the column and path of the value."""
    try:
        if strict:
            value = json.loads(text, parse_constant=_constant, parse_float=_float,
                               parse_int=_int, object_pairs_hook=_pairs)
        else:
            value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JSONTextError(f"not JSON: {exc.msg} (column {exc.colno})", exc.colno) from None
    except RecursionError:
        raise JSONTextError(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # the int-string conversion limit
        if "digits" not in str(exc):
            raise JSONTextError(f"not JSON: {exc}") from None
        raise JSONTextError(f"a number is too long ({_longest_number(text):,} digits)") \
            from None
    _check(value, text, strict)
    return value


def _longest_number(text: str) -> int:
    """The length of the longest run of digits in ``text``."""
    longest = run = 0
    for char in text:
        run = run + 1 if char.isdigit() else 0
        longest = max(longest, run)
    return longest


def _check(value: Any, text: str, strict: bool) -> None:
    """Raise :class:`JSONTextError` when ``value`` nests deeper than :data:`MAX_DEPTH`
    lists and dicts, or (``strict``) holds what :func:`load_json` refuses. A quick walk
    (without recursion) looks; only when it finds something does :func:`_find` walk again
    to say where."""
    if strict and (_ESCAPED_SURROGATE.search(text) or _SURROGATE.search(text)):
        _find(value, text)  # a surrogate pair is fine: only then is every string looked at
        return
    if not isinstance(value, (dict, list)):
        if type(value) is _Refused:
            _find(value, text)
        return
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if type(item) is _Pairs:
            _find(value, text)
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, (dict, list)):
                if depth + 1 > MAX_DEPTH:
                    if not strict:
                        raise JSONTextError(f"nested deeper than {MAX_DEPTH} levels")
                    _find(value, text)
                stack.append((child, depth + 1))
            elif type(child) is _Refused:
                _find(value, text)


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _find(value: Any, text: str) -> None:
    """Raise the :class:`JSONTextError` of the first thing :func:`_check` refuses in
    ``value``, with its path and column (walked depth first, without recursion)."""
    stack: list = [(value, (), 1)]
    while stack:
        item, path, depth = stack.pop()
        _refuse(item, path, text)
        if isinstance(item, dict):
            children = list(item.items())
        elif isinstance(item, list):
            children = list(enumerate(item))
        else:
            continue
        for key, child in reversed(children):
            if isinstance(child, (dict, list)) and depth + 1 > MAX_DEPTH:
                raise JSONTextError(f"nested deeper than {MAX_DEPTH} levels",
                                    column_of(text, path + (key,)), path + (key,))
            stack.append((child, path + (key,), depth + 1))


def _refuse(item: Any, path: tuple, text: str) -> None:
    """Raise :class:`JSONTextError` for what a strict parse refuses at ``path``."""
    if isinstance(item, _Refused):
        raise JSONTextError(item.why, column_of(text, path), path)
    if isinstance(item, str) and _SURROGATE.search(item):
        raise JSONTextError(_lone_surrogate(item), column_of(text, path), path)
    if isinstance(item, dict):
        if isinstance(item, _Pairs):
            name = item.twice if len(item.twice) <= 40 else item.twice[:37] + "..."
            raise JSONTextError(f"the key {json.dumps(name)} is written twice",
                                column_of(text, path + (item.twice,), key=True, last=True),
                                path + (item.twice,))
        for key in item:
            if _SURROGATE.search(key):
                raise JSONTextError(_lone_surrogate(key),
                                    column_of(text, path + (key,), key=True), path + (key,))


def _lone_surrogate(text: str) -> str:
    char = _SURROGATE.search(text).group()
    return f"a string holds a lone surrogate (\\u{ord(char):04x}): not Unicode text"


_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def column_of(text: str, path: tuple, key: bool = False, last: bool = False) -> int:
    """The 1-based column (in characters) of the value at ``path`` in the JSON ``text``
    (of its key, with ``key``; the last of a key written twice, with ``last``), or of the
    nearest enclosing value that is there: a missing key or index gives the column of its
    object or array. ``text`` must be JSON that :func:`load_json` read."""
    at = _SPACE.match(text).end()
    try:
        for depth, part in enumerate(path):
            found = _child(text, at, part, key and depth == len(path) - 1, last)
            if found is None:
                break
            at = found
    except (ValueError, IndexError):  # cannot happen on JSON read before; never fail here
        pass
    return at + 1


def _child(text: str, at: int, part, key: bool, last: bool) -> int | None:
    """The index of ``part`` (an index or key) of the array or object at ``at``."""
    opening = text[at]
    if opening == "[" and isinstance(part, int):
        at = _SPACE.match(text, at + 1).end()
        for _ in range(part):
            if text[at] == "]":
                return None
            at = _skip(text, at)
        return None if text[at] == "]" else at
    if opening != "{" or not isinstance(part, str):
        return None
    at = _SPACE.match(text, at + 1).end()
    found = None
    while text[at] == '"':
        name, after = json.decoder.scanstring(text, at + 1)
        value = _SPACE.match(text, _SPACE.match(text, after).end() + 1).end()  # past ':'
        if name == part:
            found = at if key else value
            if not last:
                return found
        at = _skip(text, value)
    return found


def _skip(text: str, at: int) -> int:
    """The index after the value at ``at`` and the comma that follows it, if any."""
    _, end = _DECODER.raw_decode(text, at)
    end = _SPACE.match(text, end).end()
    if text[end:end + 1] == ",":
        end = _SPACE.match(text, end + 1).end()
    return end


def difference(logged: Any, other: Any, path: tuple = ()) -> tuple | None:
    """The path of the first place where two JSON values differ, or None when they are the
    same JSON value: the same type as JSON has them (a boolean is no number, an integer no
    float: ``0``, ``false``, ``0.0`` and ``null`` all differ), floats equal to the bit
    (``-0.0`` is not ``0.0``), arrays item by item, objects key by key (in any order). A
    key only one side has is named by its path; arrays of another length differ at the
    first index one of them lacks."""
    if type(logged) is not type(other):
        return path
    if isinstance(logged, dict):
        for name in logged:
            if name not in other:
                return path + (name,)
        for name in other:
            if name not in logged:
                return path + (name,)
        for name, value in logged.items():
            found = difference(value, other[name], path + (name,))
            if found is not None:
                return found
        return None
    if isinstance(logged, list):
        for index, (a, b) in enumerate(zip(logged, other)):
            found = difference(a, b, path + (index,))
            if found is not None:
                return found
        return None if len(logged) == len(other) else path + (min(len(logged), len(other)),)
    if isinstance(logged, float):
        same = logged == other and math.copysign(1.0, logged) == math.copysign(1.0, other)
        return None if same or (math.isnan(logged) and math.isnan(other)) else path
    return None if logged == other else path
