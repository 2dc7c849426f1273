"""Reading JSON text the tools wrote back in (a game log's lines, a tournament's results
file) within the limits every input gets: nesting no deeper than :data:`MAX_DEPTH` levels
(the YAML reader's limit) and whole numbers no longer than Python converts (4,300 digits);
so a hostile or damaged line ends in a :class:`JSONTextError` with a one-line message, not
a ``RecursionError`` or ``ValueError`` from deep inside :mod:`json`.
"""

from __future__ import annotations

import json
from typing import Any

from .yaml_reader import MAX_DEPTH


class JSONTextError(ValueError):
    """A JSON text that is not JSON or passes a limit; ``message`` says which in one line
    (``not JSON: Expecting value (column 3)``, ``nested deeper than 64 levels``,
    ``a number is too long (5,000 digits)``), ``column`` is 1-based (1 when unknown)."""

    def __init__(self, message: str, column: int = 1):
        super().__init__(message)
        self.message, self.column = message, column


def load_json(text: str) -> Any:
    """The value of the JSON ``text`` (one document: a line of a JSON-lines file).

    Raises :class:`JSONTextError` for text that is not JSON, nests deeper than
    :data:`MAX_DEPTH` arrays and objects, or holds a whole number of more digits than
    Python converts."""
    try:
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
    _check_depth(value)
    return value


def _longest_number(text: str) -> int:
    """The length of the longest run of digits in ``text``."""
    longest = run = 0
    for char in text:
        run = run + 1 if char.isdigit() else 0
        longest = max(longest, run)
    return longest


def _check_depth(value: Any) -> None:
    """Raise :class:`JSONTextError` when ``value`` nests deeper than :data:`MAX_DEPTH`
    lists and dicts (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else \
            item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > MAX_DEPTH:
                    raise JSONTextError(f"nested deeper than {MAX_DEPTH} levels")
                stack.append((child, depth + 1))
