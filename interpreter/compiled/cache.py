"""Where the compiled engine keeps its compiled code, and the message of its first compile.

Numba keeps the machine code of each function in an on-disk cache, checked against the
source file and Numba's version. The compiled engine's code is one generic interpreter of
the tables (:mod:`.tables`), so it is compiled once per machine and package version, for
every rule set. It is kept in the rule-set cache's folder (:func:`machikoro.data.cache.
cache_dir`, under ``compiled/``), with that folder's safety rule: the cache holds pickles,
so a folder that is not this user's alone is not used (one line on standard error says
why, :func:`~machikoro.data.cache.trusted`), and Numba's default place, beside the
package, is used instead. ``$NUMBA_CACHE_DIR``, when set, wins.
"""

from __future__ import annotations

import os
import sys
import time


def folder() -> str | None:
    """The compiled code's folder, made ``0700`` when missing; None where Numba's own
    choice stands (``$NUMBA_CACHE_DIR`` set, or a folder that cannot be made or is not
    trusted)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    from ..data.cache import cache_dir, trusted

    path = os.path.join(cache_dir(), "compiled")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return path if trusted(path) else None


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
    entry in its on-disk cache (True too where Numba's cache cannot be read this way)."""
    if dispatcher.signatures:
        return True
    try:  # (Numba's cache keeps one index file per function)
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:  # (another Numba's cache): say nothing
        return True


class FirstCompile:
    """Around a call of ``dispatcher``: when it is not compiled yet, one line on
    standard error says what is happening before, and how long it took after."""

    def __init__(self, dispatcher, where: str | None):
        self.quiet = compiled_yet(dispatcher)
        self.where = where or "Numba's cache beside the package"

    def __enter__(self):
        if not self.quiet:
            self.start = time.monotonic()
            sys.stderr.write("machikoro: compiling the compiled engine for this machine "
                             "(once; about two minutes)...\n")
            sys.stderr.flush()
        return self

    def __exit__(self, *exc) -> None:
        if not self.quiet and exc[0] is None:
            sys.stderr.write(f"machikoro: compiled in {time.monotonic() - self.start:.0f} s; "
                             f"kept in {self.where}\n")
