"""Reading YAML files safely into :class:`~machikoro.data.documents.Document` objects.

Only PyYAML's safe loader composes the file (nothing in a file is ever executed). The node
tree is then turned into plain Python data by this module, which counts every node it visits,
so hostile input ends in a :class:`~machikoro.errors.DataError` rather than a hang: files over
:data:`MAX_BYTES`, more than :data:`MAX_NODES` nodes after alias expansion (an alias bomb),
nesting deeper than :data:`MAX_DEPTH` (checked while composing, before Python's recursion
limit is near), lists longer than :data:`MAX_ITEMS`, integers too long to convert,
non-UTF-8 bytes.

Explicit YAML tags are refused, each at its place (``FILE:LINE:COL``): ``!!python/object``,
``!foo`` or ``!!str`` on a mapping, a list or a scalar. Machikoro files hold plain data, and
a tag either asks for something the safe loader will not build (a Python object), means
nothing here (a local ``!foo``, which PyYAML's safe loader would silently drop on a mapping
or a list) or restates what the plain value already says (``!!int 3``). Plain values keep
their implicit meaning (``3`` a number, ``true`` a boolean, ``<<: *anchor`` a merge);
text that looks like a number is quoted (``'3'``), not tagged.
"""

from __future__ import annotations

import re
import stat
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.reader import Reader, ReaderError
from yaml.resolver import Resolver

from ..errors import DataError, Problem
from .buffers import held_bytes
from .documents import BREAK, Document, PathKey, json_path
from .sources import note_file

MAX_BYTES = 256 * 1024
MAX_NODES = 100_000
MAX_DEPTH = 64
MAX_ITEMS = 2_000

def _fail(file: str, message: str, code: str, line: int = 1, column: int = 1,
          lines: list | None = None) -> DataError:
    source = lines[line - 1] if lines and 0 < line <= len(lines) else ""
    return DataError([Problem(file, line, column, "", message, code, "error", source)])


def read_yaml(path: str | Path, display: str | None = None) -> Document:
    """Read one YAML file into a :class:`Document`.

    ``display`` is the file name used in messages (default: ``path`` as given).
    Raises :class:`~machikoro.errors.DataError` (code ``file``, ``encoding``, ``yaml`` or
    ``limits``) for a missing, unreadable, oversized, non-UTF-8, malformed or hostile file.
    The bytes read are noted for a recording of what was read (:mod:`.sources`). A file
    held open in an editor (:mod:`.buffers`) is read from its buffer, and not noted.
    """
    name = display or str(path)
    p = Path(path)
    held = held_bytes(p)  # the editor's unsaved text (the language server), else the disk
    if held is not None:
        if len(held) > MAX_BYTES:
            raise _fail(name, f"file is {len(held):,} bytes; the limit is {MAX_BYTES:,}",
                        "limits")
        return parse_yaml(held, name)
    try:
        if p.is_dir():
            raise _fail(name, "is a folder, not a YAML file", "file")
        status = p.stat()
        if not stat.S_ISREG(status.st_mode):  # a named pipe or a device could block for ever
            raise _fail(name, "not a regular file (a named pipe, socket or device): give a "
                        "YAML file", "file")
        size = status.st_size
        if size > MAX_BYTES:
            raise _fail(name, f"file is {size:,} bytes; the limit is {MAX_BYTES:,}", "limits")
        with p.open("rb") as handle:  # read at most the limit: the size may change (a pipe)
            raw = handle.read(MAX_BYTES + 1)
        note_file(p, status, raw)
    except FileNotFoundError:
        raise _fail(name, "no such file", "file") from None
    except OSError as exc:
        raise _fail(name, f"cannot read: {exc.strerror or exc}", "file") from None
    return parse_yaml(raw, name)


try:  # libyaml's parser (C) when PyYAML has it: twice as fast on a big hostile file
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - PyYAML without libyaml
    from yaml.parser import Parser
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser):  # type: ignore[no-redef]
        def __init__(self, stream: str):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)


class _Loader(Composer, _Parser, SafeConstructor, Resolver):
    """A safe loader (events from the parser, nodes from PyYAML's Python composer, values from
    its safe constructor) that refuses nesting deeper than :data:`MAX_DEPTH` while composing:
    the composer recurses once per level, so a deep file would otherwise exhaust the stack.
    It also notes every node written with an explicit tag (``tagged``), which the parser
    alone can tell from a resolved one."""

    depth = 0

    def __init__(self, stream: str):
        _Parser.__init__(self, stream)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self.tagged: dict = {}  # every node written with an explicit tag: node -> the tag

    def compose_node(self, parent, index):
        self.depth += 1
        try:
            event = self.peek_event()
            if self.depth > MAX_DEPTH + 1:
                raise _TooDeep(event.start_mark)
            node = super().compose_node(parent, index)
            tag = getattr(event, "tag", None)  # None for an alias and an untagged node
            if tag is not None:  # written in the file (a resolved tag is never seen here)
                self.tagged[node] = tag
            return node
        finally:
            self.depth -= 1


class _TooDeep(Exception):
    def __init__(self, mark):
        super().__init__("too deep")
        self.mark = mark


_CONTEXT_WORDS = {
    "flow sequence": "the list [...]",
    "flow mapping": "the mapping {...}",
    "block mapping": "the mapping",
    "block collection": "the list",
    "quoted scalar": "the quoted text",
    "block scalar": "the block text",
    "plain scalar": "the text",
    "simple key": "the key",
    "directive": "the directive",
    "anchor": "the anchor",
    "alias": "the alias",
    "tag": "the tag",
}


def _yaml_message(exc: yaml.MarkedYAMLError, tab: bool = False) -> str:
    """PyYAML's wording, in terms of lists, mappings and text, naming where a bracket or
    quote was opened when the error is found later (often at the end of the file)."""
    what = (exc.problem or "malformed YAML").replace("'<stream end>'", "the end of the file")
    what = what.replace("<stream end>", "the end of the file").replace(
        "end of stream", "end of the file")
    if tab or "'\\t'" in what or "tab character" in what:
        return what + " (indent YAML with spaces, never tabs)"
    if what.startswith("mapping values are not allowed"):
        what += " (check the indentation, or put text holding ': ' in quotes)"
    context, mark, problem_mark = exc.context or "", exc.context_mark, exc.problem_mark
    if "single document" in context:
        return "a file holds one YAML document, but this one has a second '---'"
    match = re.match(r"while (?:parsing|scanning|constructing) (?:an? )?(.+)", context)
    thing = _CONTEXT_WORDS.get(match.group(1)) if match else None
    if thing and mark is not None and (problem_mark is None or mark.line != problem_mark.line):
        what += f" (in {thing} starting at line {mark.line + 1}, column {mark.column + 1})"
    elif thing:
        what += f" (in {thing})"
    elif context and not match:
        what = f"{context}: {what}"
    return what


def parse_yaml(raw: bytes | str, name: str) -> Document:
    """Parse YAML text (bytes must be UTF-8) into a :class:`Document`; see :func:`read_yaml`."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_BYTES:
            raise _fail(name, f"file is over {MAX_BYTES:,} bytes, the limit", "limits")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            before = raw[: exc.start]
            line = before.count(b"\n") + 1
            column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
            lines = raw.decode("utf-8", "replace").split("\n")
            raise _fail(name, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded "
                        "(save the file as UTF-8)", "encoding", line, column,
                        [s.rstrip("\r") for s in lines]) from None
    else:
        text = raw
    text = text.removeprefix("\ufeff")
    lines = BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    loader = None
    try:
        loader = _Loader(text)
        node = loader.get_single_node()
    except _TooDeep as exc:
        raise _fail(name, f"nesting is too deep (the limit is {MAX_DEPTH} levels)", "limits",
                    exc.mark.line + 1, exc.mark.column + 1, lines) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        tab = mark is not None and text[mark.index:mark.index + 1] == "\t"
        if line > len(lines) and lines:  # at the end of the file: show its last line
            line, column = len(lines), len(lines[-1]) + 1
        if "maximum nesting depth" in str(exc.problem):  # libyaml's own limit (1,000)
            raise _fail(name, f"nesting is too deep (the limit is {MAX_DEPTH} levels)",
                        "limits", line, column, lines) from None
        raise _fail(name, f"YAML syntax: {_yaml_message(exc, tab)}", "yaml", line, column,
                    lines) from None
    except ReaderError as exc:
        before = text[: exc.position]
        line = len(BREAK.findall(before)) + 1
        column = len(BREAK.split(before)[-1]) + 1
        char = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1])
        raise _fail(name, f"the character U+{char:04X} is not allowed in a YAML file",
                    "encoding", line, column, lines) from None
    except yaml.YAMLError as exc:
        raise _fail(name, f"YAML syntax: {' '.join(str(exc).split())}", "yaml") from None
    except UnicodeError:
        raise _fail(name, "not UTF-8 text", "encoding") from None
    except RecursionError:
        raise _fail(name, f"nesting is too deep (the limit is {MAX_DEPTH} levels)",
                    "limits") from None
    finally:
        if loader is not None:
            loader.dispose()
    doc = Document(name, None, lines=lines, text=text)
    if node is None:
        raise _fail(name, "the file is empty (expected a mapping of fields, e.g. 'kind: ...')",
                    "yaml")
    builder = _Builder(doc, loader)
    doc.data = builder.build(node, (), 0)
    if builder.duplicates or builder.tags:
        found = builder.tags + builder.duplicates
        raise DataError(sorted(found, key=lambda p: (p.line, p.column)))
    return doc


class _Builder:
    """Turns a composed node tree into plain data, recording positions, within limits."""

    def __init__(self, doc: Document, loader: _Loader):
        self.doc = doc
        self.loader = loader
        self.count = 0
        self.duplicates: list[Problem] = []  # every duplicate key, reported together
        self.tags: list[Problem] = []  # every explicit tag, reported together

    def _limit(self, node, message: str, code: str = "limits") -> DataError:
        return _fail(self.doc.file, message, code, node.start_mark.line + 1,
                     node.start_mark.column + 1, self.doc.lines)

    def build(self, node, path: PathKey, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise self._limit(node, f"more than {MAX_NODES:,} values after expanding aliases "
                                    "(an alias bomb?)")
        if depth > MAX_DEPTH:
            raise self._limit(node, f"nesting is too deep (the limit is {MAX_DEPTH} levels)")
        self.doc.marks.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if node in self.loader.tagged:
            self._tagged(node, path)
            if isinstance(node, yaml.ScalarNode):  # its text, for any later check to go on
                self.doc.styles[path] = node.style or ""
                self.doc.spans[path] = (node.start_mark.index, node.end_mark.index)
                return node.value
        if isinstance(node, yaml.ScalarNode):
            value = self._scalar(node, path)
            if isinstance(value, str):
                self.doc.styles[path] = node.style or ""
                self.doc.spans[path] = (node.start_mark.index, node.end_mark.index)
            elif not isinstance(value, (int, float, bool)) and value is not None:
                # timestamps, binary: a card file has no use for them; keep the source text
                value = node.value
                self.doc.styles[path] = node.style or ""
                self.doc.spans[path] = (node.start_mark.index, node.end_mark.index)
            return value
        if isinstance(node, yaml.SequenceNode):
            if len(node.value) > MAX_ITEMS:
                raise self._limit(node, f"a list of {len(node.value):,} items; the limit is "
                                        f"{MAX_ITEMS:,}")
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path, depth)
        raise self._limit(node, "unsupported YAML node", "yaml")

    def _scalar(self, node, path: PathKey) -> Any:
        """The value of a scalar node; a tag that does not fit its text (``!!bool Cafe``,
        ``!!timestamp x``) is a located error, not an exception from PyYAML."""
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            raise self._limit(node, f"cannot read this value: {exc.problem}",
                              "yaml") from None
        except RecursionError:
            raise
        except Exception as exc:  # noqa: BLE001 - PyYAML's constructors raise anything
            if isinstance(exc, (ValueError, OverflowError)) and "digits" in str(exc):
                raise self._limit(node, f"number is too long ({len(node.value):,} "
                                        "characters)") from None
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            text = node.value if len(node.value) <= 40 else node.value[:37] + "..."
            line, column = node.start_mark.line + 1, node.start_mark.column + 1
            raise DataError([Problem(
                self.doc.file, line, column, json_path(path), f"cannot read {text!r} as "
                f"{tag}: remove the tag '{tag}' or fix the value", "yaml", "error",
                self.doc.source(line))]) from None

    def _mapping(self, node, path: PathKey, depth: int) -> dict:
        """A mapping node as a dict. Merge keys (``<<: *anchor``) follow YAML's rule: the
        mapping's own keys override merged ones, an earlier merge overrides a later one.
        Every key written twice in the mapping itself is recorded in ``duplicates``."""
        if len(node.value) > MAX_ITEMS:
            raise self._limit(node, f"a mapping of {len(node.value):,} keys; the limit is "
                                    f"{MAX_ITEMS:,}")
        out: dict = {}
        merged_keys: set = set()  # keys that came from a merge, which an own key overrides
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                merged = self.build(value_node, path, depth + 1)
                for part in merged if isinstance(merged, list) else [merged]:
                    for k, v in part.items() if isinstance(part, dict) else ():
                        if k not in out:
                            out[k] = v
                            merged_keys.add(k)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                raise self._limit(key_node, "a mapping key must be a plain name, not a "
                                            "list or mapping", "yaml")
            key = self._key(key_node, path, depth)
            sub = path + (key,)
            if key in out and key not in merged_keys:
                self._duplicate(key, key_node)
                continue
            if key in merged_keys:
                merged_keys.discard(key)
                self._forget(sub)
            self.doc.key_marks[sub] = (key_node.start_mark.line + 1,
                                       key_node.start_mark.column + 1)
            out[key] = self.build(value_node, sub, depth + 1)
        return out

    def _key(self, key_node, path: PathKey, depth: int) -> str:
        key = self.build(key_node, path + ("<key>",), depth + 1)
        if key is None:
            return "null"
        if isinstance(key, bool):
            return str(key).lower()
        return key if isinstance(key, str) else str(key)

    def _tagged(self, node, path: PathKey) -> None:
        """Record the explicit tag of ``node`` (at ``path``) as a problem: see the module."""
        line, column = node.start_mark.line + 1, node.start_mark.column + 1
        if any((p.line, p.column) == (line, column) for p in self.tags):
            return  # the same node reached again through an alias
        tag = self.loader.tagged[node].replace("tag:yaml.org,2002:", "!!")
        tag = tag if len(tag) <= 40 else tag[:37] + "..."
        what = {yaml.SequenceNode: "a list", yaml.MappingNode: "a mapping"}.get(type(node))
        if path[-1:] == ("<key>",):
            path, what = path[:-1], "a key"
        hint = "" if what else "; quote text that must stay text"
        self.tags.append(Problem(
            self.doc.file, line, column, json_path(path), f"YAML tag '{tag}' is not allowed "
            f"on {what or 'a value'}: remove it (machikoro files hold plain data{hint})",
            "yaml", "error", self.doc.source(line)))

    def _duplicate(self, key: str, key_node) -> None:
        line, column = key_node.start_mark.line + 1, key_node.start_mark.column + 1
        if any((p.line, p.column) == (line, column) for p in self.duplicates):
            return  # the same mapping reached again through an alias
        self.duplicates.append(Problem(self.doc.file, line, column, "",
                                       f"duplicate key '{key}'", "yaml", "error",
                                       self.doc.source(line)))

    def _forget(self, sub: PathKey) -> None:
        """Drop the positions recorded under ``sub`` (a merged value being overridden)."""
        n = len(sub)
        for table in (self.doc.marks, self.doc.key_marks, self.doc.styles, self.doc.spans):
            for key in [k for k in table if k[:n] == sub]:
                del table[key]
