"""Reading YAML files safely, keeping where every value came from.

Only PyYAML's safe loader composes the file (nothing in a file is ever executed). The node
tree is then turned into plain Python data by this module, which counts every node it visits,
so hostile input ends in a :class:`~machikoro.errors.DataError` rather than a hang: files over
:data:`MAX_BYTES`, more than :data:`MAX_NODES` nodes after alias expansion (an alias bomb),
nesting deeper than :data:`MAX_DEPTH`, integers too long to convert, non-UTF-8 bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import DataError, Problem

MAX_BYTES = 256 * 1024
MAX_NODES = 100_000
MAX_DEPTH = 64

PathKey = tuple  # a JSON path as a tuple of str keys and int indices


def json_path(path: PathKey) -> str:
    """``("colours", "red", "order")`` -> ``colours.red.order``; ``("a", 0)`` -> ``a[0]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


@dataclass
class Document:
    """A loaded YAML file: its data and where each value and key stands in the text.

    ``marks`` maps a JSON path (tuple) to the 1-based ``(line, column)`` of the value;
    ``key_marks`` the same for mapping keys; ``lines`` are the file's text lines;
    ``styles`` the YAML scalar style of string values (``""``, ``"'"``, ``'"'``, ``"|"``, ``">"``).
    """

    file: str
    data: Any
    marks: dict = field(default_factory=dict)
    key_marks: dict = field(default_factory=dict)
    styles: dict = field(default_factory=dict)
    lines: list = field(default_factory=list)

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

    def problem(self, path: PathKey, message: str, code: str, *, key: bool = False,
                severity: str = "error", offset: int = 0, span: int = 1) -> Problem:
        """A :class:`Problem` located at ``path``; ``offset`` moves the column along a string."""
        line, column = self.where(path, key=key)
        column += offset
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return Problem(self.file, line, column, json_path(path), message, code, severity,
                       source, span)

    def value_column(self, path: PathKey) -> tuple[int, int] | None:
        """For a one-line string value: (line, column of its first character), else None."""
        style = self.styles.get(tuple(path))
        if style not in ("", "'", '"'):
            return None
        line, column = self.where(path)
        return line, column + (1 if style else 0)


def _fail(file: str, message: str, code: str, line: int = 0, column: int = 0,
          lines: list | None = None) -> DataError:
    source = lines[line - 1] if lines and 0 < line <= len(lines) else ""
    return DataError([Problem(file, line, column, "", message, code, "error", source)])


def read_yaml(path: str | Path, display: str | None = None) -> Document:
    """Read one YAML file into a :class:`Document`.

    ``display`` is the file name used in messages (default: ``path`` as given).
    Raises :class:`~machikoro.errors.DataError` (code ``file``, ``encoding``, ``yaml`` or
    ``limits``) for a missing, unreadable, oversized, non-UTF-8, malformed or hostile file.
    """
    name = display or str(path)
    p = Path(path)
    try:
        size = p.stat().st_size
        if p.is_dir():
            raise _fail(name, "is a folder, not a YAML file", "file")
        if size > MAX_BYTES:
            raise _fail(name, f"file is {size:,} bytes; the limit is {MAX_BYTES:,}", "limits")
        raw = p.read_bytes()
    except FileNotFoundError:
        raise _fail(name, "no such file", "file") from None
    except OSError as exc:
        raise _fail(name, f"cannot read: {exc.strerror or exc}", "file") from None
    return parse_yaml(raw, name)


def parse_yaml(raw: bytes | str, name: str) -> Document:
    """Parse YAML text (bytes must be UTF-8) into a :class:`Document`; see :func:`read_yaml`."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_BYTES:
            raise _fail(name, f"file is {len(raw):,} bytes; the limit is {MAX_BYTES:,}", "limits")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            before = raw[: exc.start]
            line = before.count(b"\n") + 1
            column = exc.start - (before.rfind(b"\n") + 1) + 1
            raise _fail(name, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded",
                        "encoding", line, column) from None
    else:
        text = raw
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.splitlines()
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = exc.problem or "malformed YAML"
        if exc.context:
            what = f"{exc.context}: {what}"
        raise _fail(name, f"YAML syntax: {what}", "yaml", line, column, lines) from None
    except yaml.YAMLError as exc:
        raise _fail(name, f"YAML syntax: {exc}", "yaml") from None
    except RecursionError:
        raise _fail(name, f"nesting is too deep (the limit is {MAX_DEPTH} levels)",
                    "limits") from None
    finally:
        loader.dispose()
    doc = Document(name, None, lines=lines)
    if node is None:
        raise _fail(name, "the file is empty", "yaml")
    builder = _Builder(doc, loader)
    doc.data = builder.build(node, (), 0)
    return doc


class _Builder:
    """Turns a composed node tree into plain data, recording positions, within limits."""

    def __init__(self, doc: Document, loader: yaml.SafeLoader):
        self.doc = doc
        self.loader = loader
        self.count = 0

    def _limit(self, node, message: str) -> DataError:
        return _fail(self.doc.file, message, "limits", node.start_mark.line + 1,
                     node.start_mark.column + 1, self.doc.lines)

    def build(self, node, path: PathKey, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise self._limit(node, f"more than {MAX_NODES:,} values after expanding aliases "
                                    "(an alias bomb?)")
        if depth > MAX_DEPTH:
            raise self._limit(node, f"nesting is too deep (the limit is {MAX_DEPTH} levels)")
        self.doc.marks.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, yaml.ScalarNode):
            try:
                value = self.loader.construct_object(node, deep=True)
            except (ValueError, OverflowError) as exc:
                raise self._limit(node, f"cannot read this value: {exc}") from None
            except yaml.constructor.ConstructorError as exc:
                raise self._limit(node, f"cannot read this value: {exc.problem}") from None
            if isinstance(value, str):
                self.doc.styles[path] = node.style or ""
            return value
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            out: dict = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    merged = self.build(value_node, path, depth + 1)
                    for part in merged if isinstance(merged, list) else [merged]:
                        if isinstance(part, dict):
                            for k, v in part.items():
                                out.setdefault(k, v)
                    continue
                key = self.build(key_node, path + ("<key>",), depth + 1)
                if not isinstance(key, (str, int, bool, float)) or key is None:
                    raise self._limit(key_node, "a mapping key must be a plain scalar")
                if isinstance(key, (int, float, bool)):
                    key = str(key).lower() if isinstance(key, bool) else str(key)
                if key in out:
                    raise _fail(self.doc.file, f"duplicate key {key!r}", "yaml",
                                key_node.start_mark.line + 1, key_node.start_mark.column + 1,
                                self.doc.lines)
                sub = path + (key,)
                self.doc.key_marks[sub] = (key_node.start_mark.line + 1,
                                           key_node.start_mark.column + 1)
                out[key] = self.build(value_node, sub, depth + 1)
            return out
        raise self._limit(node, "unsupported YAML node")
