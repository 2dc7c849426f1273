"""The folders a ``machikoro mcp`` server may read: the ones the user allowed (``--allow``,
default the current folder), and the package's own data.

A path a tool is given is resolved against the first allowed folder when relative, its
symbolic links resolved, and refused unless it lies in an allowed folder
(:meth:`Folders.path`): the refusal names the path and the allowed folders. A rule-set
argument is ``base``, a file or folder in the allowed folders, or a bundled variant's name
(:meth:`Folders.rule_set`). Files that a file names (a variant's ``extends``, a log's rule
set, a position's variant) are held to the same folders by :func:`guard_reads`, which the
worker process installs: an audit hook that refuses to open or list anything outside them,
the package, Python's own folders and the cache of compiled rule sets.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

from ..data.bundled import PACKAGE, data_folder, unknown_variant
from .limits import ToolProblem

DATA_FOLDERS = ("cards", "variants", "schema", "weights")
"""The bundled data folders (read by name: ``base``, a bundled variant or strategy)."""


class Folders:
    """The allowed folders (absolute, symbolic links resolved, in the order given; the
    first is where a relative path starts)."""

    def __init__(self, folders: list[str]):
        if not folders:
            raise ToolProblem("no folder allowed")
        self.folders = [os.path.realpath(f) for f in folders]

    def text(self) -> str:
        """The allowed folders for a message: ``/a, /b``."""
        return ", ".join(self.folders)

    def inside(self, path: str) -> bool:
        """Whether the absolute, resolved ``path`` is an allowed folder or lies in one."""
        return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep)
                   for f in self.folders)

    def path(self, given: str, what: str, must_exist: bool = True) -> Path:
        """The absolute path of argument ``what`` = ``given`` (relative: from the first
        allowed folder; links resolved). Raises :class:`ToolProblem` for an empty text, a
        path outside the allowed folders, or (``must_exist``) one that does not exist."""
        if not isinstance(given, str) or not given.strip() or "\0" in given:
            raise ToolProblem(f"{what}: expected a path, got {given!r}")
        joined = os.path.join(self.folders[0], os.path.expanduser(given))
        real = os.path.realpath(joined)
        if not self.inside(real):
            raise ToolProblem(f"{what}: '{given}' ({real}) is outside the folders this server "
                              f"may read: {self.text()} (start it with --allow FOLDER to "
                              "allow another)")
        if must_exist and not os.path.exists(real):
            raise ToolProblem(f"{what}: no such file or folder: '{given}' (looked for {real})")
        return Path(real)

    def rule_set(self, given: str, what: str = "rule_set") -> str | None:
        """A rule-set argument as the loader takes it: None for ``base``; else the absolute
        path of a file or folder in the allowed folders, or of a bundled variant by name
        (``house/radio-tower-18``). Raises :class:`ToolProblem` for a path outside the
        allowed folders or a name that is neither (with a "did you mean")."""
        if not isinstance(given, str) or not given.strip():
            raise ToolProblem(f"{what}: expected 'base', a bundled variant's name or a path, "
                              f"got {given!r}")
        if given.strip() == "base":
            return None
        real = os.path.realpath(os.path.join(self.folders[0], os.path.expanduser(given)))
        if os.path.exists(real) and self.inside(real):
            return real
        bundled = _bundled_variant(given)
        if bundled is not None:
            return bundled
        if not self.inside(real):
            self.path(given, what)  # refused: that is the message
        raise ToolProblem(f"{what}: '{given}': {_unknown(given)} (a path is looked "
                          f"for from {self.folders[0]})")

    def stack(self, given: str, what: str = "rule_set") -> str | tuple | None:
        """:meth:`rule_set` of one argument, or of ``A+B`` (variants stacked in order, as the
        lab's commands take them): a tuple of their paths (``base`` as ``"base"``)."""
        if not isinstance(given, str) or "+" not in given:
            return self.rule_set(given, what)
        parts = [self.rule_set(part.strip(), what) for part in given.split("+")]
        return tuple("base" if p is None else p for p in parts)


def _bundled_variant(name: str) -> str | None:
    """The path of the bundled variant ``name`` (a file without ``.yaml``, or a folder),
    or None."""
    folder = data_folder("variants")
    if folder is None or os.path.isabs(name) or ".." in Path(name).parts:
        return None
    for candidate in (os.path.join(folder, name), os.path.join(folder, name + ".yaml")):
        if os.path.exists(candidate) and not name.endswith(os.sep):
            return os.path.realpath(candidate)
    return None


def readable_roots(folders: Folders, cache: str | None) -> list[str]:
    """Every folder the worker process may read: the allowed ones, the package and its
    data, Python's installation and import path, the ``cache`` of compiled rule sets, and
    the system's device and process files."""
    roots = list(folders.folders)
    roots.append(os.path.realpath(PACKAGE))
    roots += [os.path.realpath(f) for f in map(data_folder, DATA_FOLDERS) if f]
    roots += [os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix,
                                            sys.base_exec_prefix)]
    roots += [os.path.realpath(p) for p in sys.path if p]
    if cache:
        roots.append(os.path.realpath(cache))
    roots += ["/dev", "/proc", "/sys"]
    return sorted(set(roots))


def guard_reads(folders: Folders, cache: str | None) -> None:
    """From now on, in this process, opening or listing a path outside
    :func:`readable_roots` raises PermissionError naming the allowed folders (an audit
    hook: it cannot be removed, so only the worker process installs it)."""
    roots = [r.rstrip(os.sep) + os.sep for r in readable_roots(folders, cache)]
    events = {"open", "os.listdir", "os.scandir"}

    def hook(event: str, args: tuple) -> None:
        """Refuse an open or a listing of a path outside the roots."""
        if event not in events or not args:
            return
        target = args[0]
        if isinstance(target, int) or target is None:
            return  # a file descriptor: already open
        try:
            real = os.path.realpath(os.fsdecode(target))
        except (TypeError, ValueError):
            return
        if not any((real + os.sep).startswith(root) for root in roots):
            raise PermissionError(errno.EACCES, "outside the folders this server may read "
                                                f"({folders.text()})", real)

    sys.addaudithook(hook)


def _unknown(given: str) -> str:
    """Why a rule-set argument names nothing, with a "did you mean" among the bundled
    variants."""
    return unknown_variant(given).replace("machikoro list shows", "list_rule_sets lists")
