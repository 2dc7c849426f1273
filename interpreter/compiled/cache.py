"""Where the compiled engine keeps its compiled code, and the message of its first compile.

Numba keeps the machine code of each function in an on-disk cache, checked against the
source file and Numba's version. The compiled engine's code is one generic interpreter of
the tables (:mod:`.tables`), so it is compiled once per machine and package version, for
every rule set. It is kept in the rule-set cache's folder (:func:`machikoro.data.cache.
cache_dir`, under ``compiled/``), with that folder's safety rule: the cache holds pickles,
so a folder that is not this user's alone is not used (one line on standard error says
why, :func:`~machikoro.data.cache.trusted`), and Numba's default place, beside the
package, is used instead. ``$NUMBA_CACHE_DIR``, when set, wins.

Numba checks a cached function against its own source file only, not against the files of
the functions it calls (the concept units' compiled forms, :data:`SOURCES`): the code is
kept in a subfolder named by a fingerprint of all of them (:func:`fingerprint`), so a
change to any makes a new compile; the three newest subfolders are kept.
"""

from __future__ import annotations

import copy
import os
import sys
import time
from contextlib import ExitStack, contextmanager

SOURCES = ("compiled/kernels.py", "compiled/lookahead.py", "compiled/greedy.py",
           "compiled/expert.py", "language/actions.py", "language/units")
"""The package's files the compiled code is made from whose functions other files call
(a folder: its ``.py`` files). A file whose functions no other file calls
(``compiled/strategy.py``) is left out: Numba checks its code against it, and a change
there compiles that file again, not the whole engine."""
KEEP = 3
"""How many fingerprints' compiled code a cache folder keeps."""
OPT_LEVEL = "1"
"""The LLVM optimisation level the compiled engine's code is compiled at (Numba's
``NUMBA_OPT``, whose default is 3), set for its first compiles alone (:func:`opt_level`).
Measured on this code (docs/vector.md): at level 1 random games of the base set play
about 1.5 times as fast as at level 3, greedy's games within a few percent, and the
first compile takes about four fifths of the time."""


def fingerprint() -> str:
    """16 hexadecimal digits of the SHA-256 of :data:`OPT_LEVEL` and :data:`SOURCES`'
    contents."""
    import hashlib

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    digest = hashlib.sha256(f"opt {OPT_LEVEL}\n".encode())  # (code of another level)
    for source in SOURCES:
        path = os.path.join(root, source)
        files = sorted(os.path.join(path, name) for name in os.listdir(path)
                       if name.endswith(".py")) if os.path.isdir(path) else [path]
        for name in files:
            digest.update(os.path.relpath(name, root).encode())
            with open(name, "rb") as source_file:
                digest.update(source_file.read())
    return digest.hexdigest()[:16]


def _prune(parent: str, keep: str) -> None:
    """Remove all but the :data:`KEEP` newest fingerprint folders of ``parent`` (never
    ``keep``, never anything not named as a fingerprint)."""
    import shutil

    try:
        names = [name for name in os.listdir(parent) if len(name) == 16 and
                 all(c in "0123456789abcdef" for c in name) and name != keep]
        names.sort(key=lambda name: os.stat(os.path.join(parent, name)).st_mtime)
        for name in names[:max(0, len(names) - (KEEP - 1))]:
            shutil.rmtree(os.path.join(parent, name), ignore_errors=True)
    except OSError:
        return


def folder() -> str | None:
    """The compiled code's folder, made ``0700`` when missing; None where Numba's own
    choice stands (``$NUMBA_CACHE_DIR`` set, or a folder that cannot be made or is not
    trusted)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    from ..data.cache import cache_dir, trusted

    parent = os.path.join(cache_dir(), "compiled")
    name = fingerprint()
    path = os.path.join(parent, name)
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError:
        return None
    if not (trusted(parent) and trusted(path)):
        return None
    _prune(parent, name)
    return path


def use_folder() -> str | None:
    """Point Numba's cache at :func:`folder` (before the engine's functions are defined:
    Numba reads it when a function asks for caching); the folder, or None."""
    import numba

    path = folder()
    if path is not None:
        numba.config.CACHE_DIR = path
    return path


def compiled_yet(dispatcher) -> bool:
    """True when ``dispatcher`` (a Numba function) is compiled in this process or has an
    entry in its on-disk cache (True too where Numba's cache cannot be read this way).
    Its code is looked for without listing its signatures: Numba's ordered dict of them
    hashes each signature's types when listed, about 0.4 ms for the engine's records."""
    if getattr(dispatcher, "overloads", None) or dispatcher.signatures:
        return True
    try:  # (Numba's cache keeps one index file per function)
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:  # (another Numba's cache): say nothing
        return True


@contextmanager
def opt_level(level: str = OPT_LEVEL):
    """Numba's optimisation level set to ``level`` for the compiles made inside (Numba
    reads ``numba.core.config.OPT`` at each compile), then put back: the engine's code is
    compiled at :data:`OPT_LEVEL`, and other Numba code of the process keeps its own.
    Where this Numba keeps its level otherwise, nothing is changed."""
    try:
        from numba.core import config

        before = config.OPT
        config.OPT = config._process_opt_level(level)
    except (ImportError, AttributeError, ValueError):  # (another Numba)
        yield
        return
    try:
        yield
    finally:
        config.OPT = before


class _OneMemoPerInlining:
    """Stands for the ``copy`` module in Numba's inliner (``numba.core.inline_closurecall``):
    its ``deepcopy`` shares one memo among the calls made inside one inlining
    (:attr:`memo`, set by :func:`inlining_copies_once`); every other name is ``copy``'s."""

    def __init__(self):
        self.memo: dict | None = None

    def deepcopy(self, value, memo=None):
        return copy.deepcopy(value, self.memo if memo is None and self.memo is not None
                             else memo)

    def __getattr__(self, name: str):
        return getattr(copy, name)


@contextmanager
def inlining_copies_once():
    """Inside, Numba's inliner (``inline="always"``) copies a function's variables once
    per call site it inlines the function at, not once per block of it, then as before.

    Numba's ``InlineWorker.inline_ir`` copies the callee's code block by block, each
    block by a ``copy.deepcopy`` of its own; each copy reaches the function's scope, which
    names every variable of the function, so each block copies them all again: the cost
    grows with blocks times variables (Numba issue 8989, open in Numba 0.68). The
    engine's functions, inlined into one another, are big, and this was about a fifth
    of the first compile (measured at stop 59, docs/vector.md). One memo per inlining
    copies the scope once, and every block refers to that one copy, as the callee's own
    blocks refer to its one scope. Where this Numba's inliner is not as described (no
    ``inline_ir``, no ``copy`` in its module), nothing is changed."""
    try:
        from numba.core import inline_closurecall as inliner

        worker, original = inliner.InlineWorker, inliner.InlineWorker.inline_ir
        if inliner.copy is not copy:
            raise AttributeError("copy")
    except (ImportError, AttributeError):
        yield
        return
    copies = _OneMemoPerInlining()

    def inline_ir(self, *args, **kwargs):
        outer, copies.memo = copies.memo, {}
        try:
            return original(self, *args, **kwargs)
        finally:
            copies.memo = outer

    inliner.copy, worker.inline_ir = copies, inline_ir
    try:
        yield
    finally:
        inliner.copy, worker.inline_ir = copy, original


class FirstCompile:
    """Around a call of ``dispatcher``: when it is not compiled yet, one line on
    standard error says what is happening before (``what`` is compiled, for about
    ``minutes``), and how long it took after."""

    def __init__(self, dispatcher, where: str | None, what: str = "the compiled engine",
                 minutes: str = "three"):
        self.quiet = compiled_yet(dispatcher)
        self.where = where or "Numba's cache beside the package"
        self.what, self.minutes = what, minutes

    def __enter__(self):
        self._level = ExitStack()  # (Numba set for this compile, put back after)
        self._level.enter_context(opt_level())
        self._level.enter_context(inlining_copies_once())
        if not self.quiet:
            self.start = time.monotonic()
            unit = "minute" if self.minutes == "one" else "minutes"
            sys.stderr.write(f"machikoro: compiling {self.what} for this machine "
                             f"(once; about {self.minutes} {unit})...\n")
            sys.stderr.flush()
        return self

    def __exit__(self, *exc) -> None:
        level = getattr(self, "_level", None)  # (an __enter__ replaced: none was set)
        if level is not None:
            level.__exit__(*exc)
        if not self.quiet and exc[0] is None:
            sys.stderr.write(f"machikoro: compiled in {time.monotonic() - self.start:.0f} s; "
                             f"kept in {self.where}\n")
