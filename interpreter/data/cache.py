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
"""

from __future__ import annotations

import os
import pickle
import sys
import zlib
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any

_PACKAGE = Path(__file__).resolve().parent.parent  # the machikoro package

MAX_ENTRIES = 100
"""The most entries the folder keeps (about 10-40 KB each): one per rule set (variants as
given) a user plays; beyond it the least recently written go (:func:`prune`)."""

FORMAT = 1
"""The layout of an entry; an entry of another layout is stale."""

_CODE = ("language", "rules", "data")  # the subpackages whose objects an entry holds


def cache_dir() -> Path:
    """The cache folder: ``$MACHIKORO_CACHE_DIR``, else the user cache folder."""
    override = os.environ.get("MACHIKORO_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("machikoro", appauthor=False))


def code_fingerprint() -> tuple:
    """What the code that makes and reads an entry looks like: the Python version and the
    size and modification time of each file of the language, rules and data layers, the
    error classes, the records, the grammar and the bundled schemas (a changed file: a new
    fingerprint, so entries made by older code are stale)."""
    # os.scandir, not Path.glob: this runs at every start of `play` (start-up)
    package = str(_PACKAGE)
    stamps = _stamps(package, ("errors.py", "records.py"))
    for name in _CODE:
        stamps += _stamps(os.path.join(package, name), ".py")
    stamps += _stamps(os.path.join(package, "language"), ".lark")
    for schema in (os.path.join(package, "_data", "schema"),
                   os.path.join(os.path.dirname(package), "schema")):
        if os.path.isdir(schema):
            stamps += _stamps(schema, ".json")
            break
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


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stamp(path: Path) -> tuple[int, int]:
    """A file's size and modification time (nanoseconds)."""
    stat = path.stat()
    return (stat.st_size, stat.st_mtime_ns)


def _unchanged(path: Path, stamp: tuple, sha: str) -> bool:
    """True when the file's content still has the SHA-256 ``sha``; hashed again only when
    its size or modification time is not ``stamp`` any more."""
    return _stamp(path) == tuple(stamp) or digest(path) == sha


def yaml_files(folder: Path) -> list[str]:
    """The names of the YAML files in ``folder``, sorted."""
    return sorted(p.name for p in folder.iterdir()
                  if p.suffix in (".yaml", ".yml") and p.is_file())


def entry_path(key: tuple, directory: Path | None = None) -> Path:
    """Where the entry for ``key`` (a tuple of strings) lives."""
    # a short name; the entry holds its whole key, so two keys sharing one are told apart
    text = repr((FORMAT, key)).encode("utf-8")
    name = f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"
    return (directory or cache_dir()) / f"{name}.pickle"


def load(key: tuple, directory: Path | None = None) -> Any | None:
    """The value stored under ``key`` when every file and folder it was made from is as
    it was and the code is the same; else None (never raises)."""
    try:
        with entry_path(key, directory).open("rb") as handle:
            entry = pickle.load(handle)
        if entry["format"] != FORMAT or entry["key"] != key or \
                entry["code"] != code_fingerprint():
            return None
        for path, stamp, sha in entry["files"]:
            if not _unchanged(Path(path), stamp, sha):
                return None
        for folder, names in entry["folders"]:
            if yaml_files(Path(folder)) != names:
                return None
        return entry["value"]
    except Exception:  # noqa: BLE001 - missing, unreadable, corrupted (a broken pickle
        # may raise anything), made by other code: not found
        return None


def store(key: tuple, value: Any, files: list[Path], folders: list[Path],
          directory: Path | None = None) -> bool:
    """Keep ``value`` under ``key``, made from ``files`` and the YAML files of ``folders``;
    True when written (False, silently, when the cache folder cannot be written)."""
    path = entry_path(key, directory)
    try:
        entry = {"format": FORMAT, "key": key, "code": code_fingerprint(),
                 "files": [(str(f), _stamp(f), digest(f)) for f in files],
                 "folders": [(str(f), yaml_files(f)) for f in folders], "value": value}
        import tempfile

        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                pickle.dump(entry, out, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
        prune(path.parent)
        return True
    except Exception:  # noqa: BLE001 - a read-only or full disk: only a shortcut lost
        return False


def prune(directory: Path, keep: int | None = None) -> None:
    """Delete all but the ``keep`` (default :data:`MAX_ENTRIES`) most recently written
    entries of ``directory``, so that a designer trying many variant files does not fill
    the disk; never raises."""
    keep = MAX_ENTRIES if keep is None else keep
    try:
        entries = sorted(directory.glob("*.pickle"), key=lambda p: p.stat().st_mtime,
                         reverse=True)
        for old in entries[keep:]:
            old.unlink(missing_ok=True)
    except OSError:  # an entry removed meanwhile, a folder that cannot be listed
        pass
