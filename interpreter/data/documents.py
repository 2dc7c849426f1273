"""A loaded YAML file and where each of its values stands in the text.

:class:`Document` keeps the data of one file with the 1-based line and column of every value
and key, so that any later check can report ``FILE:LINE:COL`` with the source line and a
caret; :meth:`Document.locate` finds a character inside a string value, whatever its YAML
style. :func:`json_path` writes a path as ``colours.red.order`` or ``activation[0]``.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from ..errors import Problem
from ..records import Record, field

PathKey = tuple  # a JSON path as a tuple of str keys and int indices

# YAML's line breaks (str.splitlines also splits on form feeds and other characters that
# YAML keeps inside a line, which would put the shown source line out of step with marks)
BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")


def json_path(path: PathKey) -> str:
    """``("colours", "red", "order")`` -> ``colours.red.order``; ``("a", 0)`` -> ``a[0]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            part = str(part) if len(str(part)) <= 40 else str(part)[:37] + "..."
            out += f".{part}" if out else part
    return out


class Document(Record, frozen=False):
    """A loaded YAML file: its data and where each value and key stands in the text.

    ``marks`` maps a JSON path (tuple) to the 1-based ``(line, column)`` of the value;
    ``key_marks`` the same for mapping keys; ``lines`` are the file's text lines;
    ``styles`` the YAML scalar style of string values (``""``, ``"'"``, ``'"'``, ``"|"``, ``">"``);
    ``spans`` the ``(start, end)`` character offsets of string values in ``text``.
    """

    file: str
    data: Any
    marks: dict = field(default_factory=dict)
    key_marks: dict = field(default_factory=dict)
    styles: dict = field(default_factory=dict)
    lines: list = field(default_factory=list)
    spans: dict = field(default_factory=dict)
    text: str = ""
    _starts: list = field(default_factory=list, repr=False)

    def where(self, path: PathKey, key: bool = False) -> tuple[int, int]:
        """The position of ``path`` (or of its key), else of its nearest located ancestor."""
        path = tuple(path)
        if key and path in self.key_marks:
            return self.key_marks[path]
        while path:
            if path in self.marks:
                return self.marks[path]
            path = path[:-1]
        return self.marks.get((), (1, 1))

    def source(self, line: int) -> str:
        """The text of 1-based line ``line`` ('' when out of range)."""
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def problem(self, path: PathKey, message: str, code: str, *, key: bool = False,
                severity: str = "error", offset: int = 0, span: int = 1) -> Problem:
        """A :class:`Problem` located at ``path``; ``offset`` moves the column along a string."""
        line, column = self.where(path, key=key)
        column += offset
        return Problem(self.file, line, column, json_path(path), message, code, severity,
                       self.source(line), span)

    def locate(self, path: PathKey, offset: int) -> tuple[int, int]:
        """The file ``(line, column)`` of character ``offset`` (0-based) of the string value at
        ``path``, whatever its style (plain, quoted, block ``|`` or folded ``>``, one line or
        several, CRLF or LF). Falls back to the value's own position.

        YAML only changes whitespace (indentation, line folding) and escapes between the
        file and the value, so the n-th non-blank character of the value is the n-th
        non-blank character of its source text, escapes read as one character.
        """
        path = tuple(path)
        span = self.spans.get(path)
        value = self.data
        try:
            for part in path:
                value = value[part]
        except (KeyError, IndexError, TypeError):
            value = None
        if span is None or not isinstance(value, str):
            return self.where(path)
        start, end = span
        raw = self.text[start:end]
        style = self.styles.get(path, "")
        skip = 0
        if style in ("|", ">"):  # the header line (indicator, chomping, comment)
            skip = raw.find("\n") + 1 if "\n" in raw else len(raw)
        elif style in ("'", '"'):
            skip = 1
        offset = max(0, min(offset, len(value)))
        wanted = sum(1 for ch in value[:offset] if not ch.isspace())
        visible = _visible(raw, skip, style)
        if not visible:
            return self.where(path)
        if value[offset:].strip() and wanted < len(visible):
            return self._position(start + visible[wanted])
        line, column = self._position(start + visible[-1])
        return line, column + 1  # just after the last non-blank character

    def _position(self, index: int) -> tuple[int, int]:
        """The 1-based (line, column) of character ``index`` of ``text``."""
        if not self._starts:
            self._starts = [0] + [m.end() for m in BREAK.finditer(self.text)]
        line = bisect.bisect_right(self._starts, index)
        return line, index - self._starts[line - 1] + 1


_WHITE_ESCAPES = set(" \t\tnrN_LP")
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def _visible(raw: str, skip: int, style: str) -> list[int]:
    """The index in ``raw`` (a scalar's source text) of each non-blank character of its
    value, in order; an escape (``\\x41``, ``''``) counts once, at its first character."""
    out: list[int] = []
    i, n = skip, len(raw)
    while i < n:
        c = raw[i]
        if style == '"' and c == "\\" and i + 1 < n:
            nxt = raw[i + 1]
            if nxt in "\r\n":  # an escaped line break joins the lines
                i += 2
                continue
            width = _HEX_ESCAPES.get(nxt, 0)
            try:
                blank = chr(int(raw[i + 2:i + 2 + width], 16)).isspace() if width else \
                    nxt in _WHITE_ESCAPES
            except ValueError:
                blank = False
            if not blank:
                out.append(i)
            i += 2 + width
            continue
        if (style == '"' and c == '"') or (style == "'" and c == "'" and raw[i + 1:i + 2] != "'"):
            break  # the closing quote
        if not c.isspace():
            out.append(i)
        i += 2 if style == "'" and c == "'" else 1
    return out
