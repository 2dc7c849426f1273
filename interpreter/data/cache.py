"""A cache on disk of values computed from files (the compiled rule sets), in the user's
cache folder.

An entry is one file, ``NAME.pickle``, holding the value and what it was made from: the
SHA-256 of every file read to make it (a file is hashed again only when its size or
modification time changed), the YAML files of every folder it came from (a
file added to such a folder makes the entry stale too), and a fingerprint of the package
code that made it (:func:`code_fingerprint`: the language, the rules, the data layer, the
grammar and the schemas). :func:`load` returns the value only when all of them still
match; a missing, stale, unreadable or corrupted entry is simply not found (and is
replaced by the next :func:`store`). :func:`store` writes atomically (a temporary file,
then a rename) and gives up silently when the folder cannot be written: the cache is only
ever a shortcut. The folder keeps at most :data:`MAX_ENTRIES` entries.

The folder is ``$MACHIKORO_CACHE_DIR`` when set, else the user cache folder of
:mod:`platformdirs` (``~/.cache/machikoro`` on Linux). Entries are pickles: like Python's
own ``__pycache__``, the folder must be writable by its user alone.

Paths are handled with :mod:`os.path`, not :mod:`pathlib`: a warm ``machikoro play`` with
``$MACHIKORO_CACHE_DIR`` set never imports pathlib (with urllib.parse and ipaddress, about
4 ms). The functions take ``str`` or path-like paths and return ``str`` paths. For the same
reason :func:`load` reads with the C unpickler (``_pickle.load``, what ``pickle.load`` is),
and only :func:`store` imports :mod:`pickle`.
"""

from __future__ import annotations

import os
import sys
import zlib

from .bundled import PACKAGE, data_folder

try:  # the C unpickler alone: pickle.py (its pure-Python pickler) is ~1 ms of start-up
    from _pickle import load as _unpickle
except ImportError:  # a Python without the accelerator
    from pickle import load as _unpickle

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any

    StrPath = str | os.PathLike[str]


MAX_ENTRIES = 100
"""The most entries the folder keeps (about 10-40 KB each): one per rule set (variants as
given) a user plays; beyond it the least recently written go (:func:`prune`)."""

FORMAT = 1
"""The layout of an entry; an entry of another layout is stale."""

_CODE = ("language", "rules", "data")  # the subpackages whose objects an entry holds


def cache_dir() -> str:
    """The cache folder: ``$MACHIKORO_CACHE_DIR``, else the user cache folder (platformdirs'
    ``user_cache_dir``, which imports pathlib, tempfile and shutil itself)."""
    override = os.environ.get("MACHIKORO_CACHE_DIR")
    if override:
        return override
    import platformdirs

    return platformdirs.user_cache_dir("machikoro", appauthor=False)


def code_fingerprint() -> tuple:
    """What the code that makes and reads an entry looks like: the Python version and the
    size and modification time of each file of the language, rules and data layers, the
    error classes, the records, the grammar and the bundled schemas (a changed file: a new
    fingerprint, so entries made by older code are stale)."""
    # os.scandir, not Path.glob: this runs at every start of `play` (start-up)
    stamps = _stamps(PACKAGE, ("errors.py", "records.py"))
    for name in _CODE:
        stamps += _stamps(os.path.join(PACKAGE, name), ".py")
    stamps += _stamps(os.path.join(PACKAGE, "language"), ".lark")
    schema = data_folder("schema")
    if schema is not None:
        stamps += _stamps(schema, ".json")
    return (sys.version_info[:2], tuple(stamps))


def _stamps(folder: str, ends: str | tuple[str, ...]) -> list[tuple[str, int, int]]:
    """``(name, size, modification time in ns)`` of each file of ``folder`` whose name
    ends with ``ends``, by name; a file or folder that cannot be read is left out."""
    found = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(ends):
                    try:
                        stat = entry.stat()
                    except OSError:
                        continue
                    found.append((entry.name, stat.st_size, stat.st_mtime_ns))
    except OSError:
        pass
    return sorted(found)


def digest(path: StrPath) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    import hashlib

    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def _stamp(path: StrPath) -> tuple[int, int]:
    """A file's size and modification time (nanoseconds)."""
    stat = os.stat(path)
    return (stat.st_size, stat.st_mtime_ns)


def _unchanged(path: StrPath, stamp: tuple, sha: str) -> bool:
    """True when the file's content still has the SHA-256 ``sha``; hashed again only when
    its size or modification time is not ``stamp`` any more."""
    return _stamp(path) == tuple(stamp) or digest(path) == sha


def yaml_files(folder: StrPath) -> list[str]:
    """The names of the YAML files in ``folder``, sorted (raises OSError when it cannot be
    listed)."""
    with os.scandir(folder) as entries:
        return sorted(e.name for e in entries
                      if os.path.splitext(e.name)[1] in (".yaml", ".yml") and e.is_file())


def entry_path(key: tuple, directory: StrPath | None = None) -> str:
    """Where the entry for ``key`` (a tuple of strings) lives."""
    # a short name; the entry holds its whole key, so two keys sharing one are told apart
    text = repr((FORMAT, key)).encode("utf-8")
    name = f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"
    return os.path.join(directory or cache_dir(), f"{name}.pickle")


def load(key: tuple, directory: StrPath | None = None) -> Any | None:
    """The value stored under ``key`` when every file and folder it was made from is as
    it was and the code is the same; else None (never raises)."""
    try:
        with open(entry_path(key, directory), "rb") as handle:
            entry = _unpickle(handle)
        if entry["format"] != FORMAT or entry["key"] != key or \
                entry["code"] != code_fingerprint():
            return None
        for path, stamp, sha in entry["files"]:
            if not _unchanged(path, stamp, sha):
                return None
        for folder, names in entry["folders"]:
            if yaml_files(folder) != names:
                return None
        return entry["value"]
    except Exception:  # noqa: BLE001 - missing, unreadable, corrupted (a broken pickle
        # may raise anything), made by other code: not found
        return None


def store(key: tuple, value: Any, files: list[StrPath], folders: list[StrPath],
          directory: StrPath | None = None) -> bool:
    """Keep ``value`` under ``key``, made from ``files`` and the YAML files of ``folders``;
    True when written (False, silently, when the cache folder cannot be written)."""
    path = entry_path(key, directory)
    try:
        entry = {"format": FORMAT, "key": key, "code": code_fingerprint(),
                 "files": [(str(f), _stamp(f), digest(f)) for f in files],
                 "folders": [(str(f), yaml_files(f)) for f in folders], "value": value}
        import pickle
        import tempfile

        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                pickle.dump(entry, out, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
        prune(folder)
        return True
    except Exception:  # noqa: BLE001 - a read-only or full disk: only a shortcut lost
        return False


def prune(directory: StrPath, keep: int | None = None) -> None:
    """Delete all but the ``keep`` (default :data:`MAX_ENTRIES`) most recently written
    entries of ``directory``, so that a designer trying many variant files does not fill
    the disk; never raises."""
    keep = MAX_ENTRIES if keep is None else keep
    try:
        with os.scandir(directory) as listing:
            entries = sorted(((e.stat().st_mtime, e.path) for e in listing
                              if e.name.endswith(".pickle")), reverse=True)
        for _, old in entries[keep:]:
            try:
                os.unlink(old)
            except FileNotFoundError:  # removed meanwhile
                pass
    except OSError:  # an entry removed meanwhile, a folder that cannot be listed
        pass
