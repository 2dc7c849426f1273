"""Diagnostics: ``machikoro validate``'s problems for a file, as the editor has it.

The file is checked by :func:`machikoro.checks.validate.check_files`, the code behind
``validate``, with the texts of the open documents read in place of the files on disk
(:mod:`machikoro.data.buffers`), saved or not; each problem becomes one diagnostic of the
file it names (a card's check reports its rule set's other files too), with the same code,
severity, message, line and column, its range over the ``span`` characters the problem
covers.
"""

from __future__ import annotations

import os
from pathlib import Path

from lsprotocol import types

from ..checks.validate import check_files
from ..data.buffers import held
from ..errors import Problem
from ..rules.file_kinds import display

SOURCE = "machikoro"
"""The ``source`` of every diagnostic (editors show it beside the message)."""


def check_document(path: Path, texts: dict[str, str]) -> dict[Path, list[Problem]]:
    """``validate``'s problems for the file at ``path`` (absolute), by the file they are
    in (absolute paths; a problem of no real file, a folder's "no rules file", is the
    checked file's), with ``texts`` (``{absolute path: text}``, the open documents) read
    in place of the files. The file is given as ``validate`` would be given it from the
    server's working folder, so that the messages name files alike."""
    with held(texts):
        problems = check_files([display(path)])
    found: dict[Path, list[Problem]] = {path: []}
    for problem in problems:
        found.setdefault(problem_path(problem, path, texts), []).append(problem)
    return found


def problem_path(problem: Problem, checked: Path, texts: dict[str, str] | None = None
                 ) -> Path:
    """The absolute path of the file ``problem`` is in (a file on disk, or one of the open
    documents ``texts``, saved or not); ``checked`` when it names no file (a folder, a
    ``--variant`` argument)."""
    where = Path(os.path.abspath(problem.file)) if problem.file else checked
    if where == checked or str(where) in (texts or {}) or where.is_file():
        return where
    return checked


def message(problem: Problem) -> str:
    """The diagnostic's message: ``FIELD: message`` as ``validate`` prints it."""
    return f"{problem.field}: {problem.message}" if problem.field else problem.message


def units(text: str, column: int, encoding: str) -> int:
    """Column ``column`` (0-based, in characters) of the line ``text`` in the client's
    position units: UTF-16 code units (the protocol's default), UTF-8 bytes or characters
    (``encoding`` as the client and server agreed, lsprotocol's ``PositionEncodingKind``
    value)."""
    head = text[:column]
    if encoding == types.PositionEncodingKind.Utf16:
        return column + sum(1 for c in head if ord(c) > 0xFFFF)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(head.encode("utf-8", "surrogatepass"))
    return column


def diagnostic(problem: Problem, line_text: str | None, encoding: str) -> types.Diagnostic:
    """One problem as a diagnostic; ``line_text`` is the problem's line as the editor has
    it (None: the problem's own copy of its source line)."""
    text = problem.source_line if line_text is None else line_text
    line, start = problem.line - 1, problem.column - 1
    end = start + max(1, problem.span)
    severity = (types.DiagnosticSeverity.Warning if problem.severity == "warning"
                else types.DiagnosticSeverity.Error)
    return types.Diagnostic(
        range=types.Range(start=types.Position(line, units(text, start, encoding)),
                          end=types.Position(line, units(text, end, encoding))),
        message=message(problem), severity=severity, code=problem.code, source=SOURCE,
        data={"field": problem.field})
