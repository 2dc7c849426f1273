"""A cache on disk of values computed from files (the compiled rule sets), in the user's
cache folder.

An entry is one file, ``NAME.pickle``: a header line, the SHA-512 of the rest, and a pickle
of the value with what it was made from. That is the files read to make it, each with its
size, modification time and SHA-512 (a file is hashed again only when its size or
modification time changed), the folders whose listing was read, each with the names of its
YAML files and the size and modification time of those that were not read (a file added to
such a folder, or changed, makes the entry stale), and a fingerprint of the package code
that made it (:func:`code_fingerprint`: the language, the rules, the data layer, the
grammar and the schemas). What a computation read is recorded while it runs
(:mod:`.sources`): the cache itself never reads, let alone parses, a file the computation
did not read.

:func:`load` checks the entry's SHA-512 before unpickling it, then returns the value only
when everything it was made from still matches; a missing, stale, unreadable or corrupted
entry is simply not found (and is replaced by the next :func:`store`). :func:`store` writes
atomically (a temporary file, then a rename) and gives up silently when the folder cannot
be written: the cache is only ever a shortcut. The folder keeps at most :data:`MAX_ENTRIES`
entries.

The folder is ``$MACHIKORO_CACHE_DIR`` when set, else the user cache folder of
:mod:`platformdirs` (``~/.cache/machikoro`` on Linux). Entries are pickles, so, as for
ssh's keys, the folder and each entry must belong to the user and be writable by nobody
else (on systems with POSIX users): a folder or entry that is not is never read nor
written, and one line on standard error says why and how to fix it, once per process
(:func:`trusted`). The folder is made ``0700``, an entry ``0600``.

Paths are handled with :mod:`os.path`, not :mod:`pathlib`: a warm ``machikoro play`` with
``$MACHIKORO_CACHE_DIR`` set never imports pathlib (with urllib.parse and ipaddress, about
4 ms). The functions take ``str`` or path-like paths and return ``str`` paths. For the same
reason :func:`load` reads with the C unpickler (``_pickle.loads``, what ``pickle.loads``
is), only :func:`store` imports :mod:`pickle`, and the digests are SHA-512 from the module
:mod:`random` has imported already (hashlib would cost about 3 ms).
"""

from __future__ import annotations

import os
import sys
import time
import zlib

from .bundled import PACKAGE, data_folder

try:  # the C unpickler alone: pickle.py (its pure-Python pickler) is ~1 ms of start-up
    from _pickle import loads as _unpickle
except ImportError:  # a Python without the accelerator
    from pickle import loads as _unpickle

try:  # the SHA-512 that `random` imports (3.12 and later; then 3.11), as random finds it
    from _sha2 import sha512 as _sha512
except ImportError:
    try:
        from _sha512 import sha512 as _sha512
    except ImportError:  # a Python built without them
        from hashlib import sha512 as _sha512

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any

    StrPath = str | os.PathLike[str]


MAX_ENTRIES = 100
"""The most entries the folder keeps (about 10-40 KB each): one per rule set (variants as
given) a user plays; beyond it the least recently written go (:func:`prune`)."""

MAX_ENTRY_BYTES = 64 * 1024 * 1024
"""The largest entry read (a bigger file in the folder is not one of ours)."""

FORMAT = 2
"""The layout of an entry; an entry of another layout is stale."""

MAGIC = b"machikoro cache 2\n"
"""The first bytes of an entry; the SHA-512 of the pickle that follows comes next."""

RACY_NS = 2_000_000_000
"""A file modified less than this long (ns) before its stamp was taken may change again
without changing its stamp (file systems keep modification times to a clock tick, FAT to
2 s): its stamp is not trusted, and it is hashed at every check (as git's "racily clean")."""

_CODE = ("language", os.path.join("language", "units"), "rules", "data")
"""The subpackages whose objects an entry holds (the concept units too)."""
_WARNED: list[str] = []  # the warning about the folder, once printed


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
        stamps += [(os.path.join(name, found), size, time)
                   for found, size, time in _stamps(os.path.join(PACKAGE, name), ".py")]
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


# ------------------------------------------------------------ what an entry was made from

def digest_bytes(data: bytes) -> str:
    """The SHA-512 of ``data``, in hex."""
    return _sha512(data).hexdigest()


def digest(path: StrPath) -> str:
    """The SHA-512 of a file's bytes, in hex (raises OSError)."""
    with open(path, "rb") as handle:
        return digest_bytes(handle.read())


def stamp_of(status: os.stat_result, now_ns: int | None = None) -> tuple[int, int] | None:
    """A file's size and modification time (ns) from its ``os.stat`` result taken at
    ``now_ns`` (default: now); None when the file was modified too recently for the stamp
    to tell a later change (:data:`RACY_NS`)."""
    now_ns = time.time_ns() if now_ns is None else now_ns
    if status.st_mtime_ns > now_ns - RACY_NS:
        return None
    return (status.st_size, status.st_mtime_ns)


def _unchanged(path: StrPath, stamp: tuple | None, size: int, sha: str) -> bool:
    """True when the file (of ``size`` bytes when read) still has the SHA-512 ``sha``;
    hashed again only when its stamp is not ``stamp`` any more (or was not trusted) and
    its size is still ``size``."""
    status = os.stat(path)
    if stamp is not None and (status.st_size, status.st_mtime_ns) == tuple(stamp):
        return True
    return status.st_size == size and digest(path) == sha


def yaml_listing(folder: StrPath, stats: bool = True
                 ) -> list[tuple[str, os.stat_result | None]]:
    """The YAML entries of ``folder`` (names ending ``.yaml`` or ``.yml`` that are not
    folders), sorted by name, each with its ``os.stat`` result (None when it cannot be
    read, a broken link, or when not asked for: ``stats=False``). Raises OSError when the
    folder cannot be listed."""
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if os.path.splitext(entry.name)[1] not in (".yaml", ".yml"):
                continue
            try:
                if entry.is_dir():
                    continue
                status = entry.stat() if stats else None
            except OSError:
                status = None
            found.append((entry.name, status))
    return sorted(found, key=lambda item: item[0])


def file_record(path: StrPath) -> tuple[str, tuple | None, int, str]:
    """What an entry keeps of a file read to make it, ``(absolute path, stamp, size,
    SHA-512)``, from the file as it is now (the readers record the bytes they read
    instead: :func:`machikoro.data.sources.note_file`)."""
    before = os.stat(path)
    with open(path, "rb") as handle:
        data = handle.read()
    return (os.path.abspath(path), stamp_of(before), len(data), digest_bytes(data))


def listing_record(folder: StrPath, listing: list | None = None) -> tuple[str, tuple]:
    """What an entry keeps of a folder whose listing was read, ``(absolute path, ((name,
    stamp), ...))``, from ``listing`` (:func:`yaml_listing`; default: the folder as it is
    now, raises OSError). The stamps of a listing are the files' size and modification
    time as they are, however recent: the files of a listing that were not read (a notes
    file beside a variant) matter little or not at all, and are never read to make sure."""
    listing = yaml_listing(folder) if listing is None else listing
    return (os.path.abspath(folder), tuple(
        (name, None if status is None else (status.st_size, status.st_mtime_ns))
        for name, status in listing))


def _fresh(entry: dict) -> bool:
    """Every file and folder listing ``entry`` was made from is as it was."""
    read = set()
    for path, stamp, size, sha in entry["files"]:
        if not _unchanged(path, stamp, size, sha):
            return False
        read.add(path)
    for folder, listing in entry["folders"]:
        if [name for name, _ in yaml_listing(folder, stats=False)] != \
                [name for name, _ in listing]:
            return False
        for name, stamp in listing:
            path = os.path.join(folder, name)
            if path in read:
                continue  # its content was checked above
            status = os.stat(path)  # a file gone meanwhile: OSError, not found
            if stamp is None or (status.st_size, status.st_mtime_ns) != tuple(stamp):
                return False
    return True


# ----------------------------------------------------------------------- the folder itself

def trusted(path: StrPath, status: os.stat_result | None = None,
            what: str = "folder") -> bool:
    """True when ``path``, the cache folder (or, with ``what="entry"``, an entry, whose
    ``os.stat`` is ``status``), belongs to this user and no one else can write it, so that
    its pickles are this user's own; False too when the folder does not exist. Where it is
    not, the first time in this process, one line on standard error says why and how to
    fix it. Always True where the system has no POSIX users (Windows)."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return True
    if status is None:
        try:
            status = os.stat(path)
        except OSError:  # not there (yet): nothing to read
            return False
    shown = os.fspath(path)
    if status.st_uid != getuid():
        why = f"belongs to another user (uid {status.st_uid})"
        fix = (f"rm {_quoted(shown)}" if what == "entry" else
               "remove it, or set MACHIKORO_CACHE_DIR to a folder of your own")
    elif status.st_mode & 0o022:
        why, fix = "can be written by other users", f"chmod go-w {_quoted(shown)}"
    else:
        return True
    if not _WARNED:
        _WARNED.append(shown)
        unused = "the cache is not used" if what == "folder" else "it is not read"
        sys.stderr.write(f"machikoro: warning: the rule-set cache {what} {shown} {why}, so "
                         f"{unused} (to fix: {fix})\n")
    return False


def _quoted(path: str) -> str:
    """``path`` as a shell word (quotes only where needed: shlex is not imported)."""
    if path and all(c.isalnum() or c in "/._-+~@%:," for c in path):
        return path
    return "'" + path.replace("'", "'\"'\"'") + "'"


# ------------------------------------------------------------------------- the entries

def entry_path(key: tuple, directory: StrPath | None = None) -> str:
    """Where the entry for ``key`` (a tuple of strings) lives."""
    # a short name; the entry holds its whole key, so two keys sharing one are told apart
    text = repr((FORMAT, key)).encode("utf-8")
    name = f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"
    return os.path.join(directory or cache_dir(), f"{name}.pickle")


def _read_entry(path: str) -> dict | None:
    """The entry at ``path`` when it is ours (:func:`trusted`) and its SHA-512 matches its
    bytes, else None; raises OSError when it cannot be read."""
    with open(path, "rb") as handle:
        if not trusted(path, os.fstat(handle.fileno()), "entry"):
            return None
        data = handle.read(MAX_ENTRY_BYTES + 1)
    head, sha = len(MAGIC), len(MAGIC) + 64
    if len(data) > MAX_ENTRY_BYTES or data[:head] != MAGIC or \
            _sha512(data[sha:]).digest() != data[head:sha]:
        return None
    entry = _unpickle(data[sha:])
    return entry if isinstance(entry, dict) else None


def load(key: tuple, directory: StrPath | None = None) -> Any | None:
    """The value stored under ``key`` when the entry is intact (its SHA-512), every file
    and folder it was made from is as it was and the code is the same; else None (never
    raises). Nothing is read from a folder that is not :func:`trusted`."""
    try:
        path = entry_path(key, directory)
        if not trusted(os.path.dirname(path)):
            return None
        entry = _read_entry(path)
        if entry is None or entry["format"] != FORMAT or entry["key"] != key or \
                entry["code"] != code_fingerprint() or not _fresh(entry):
            return None
        return entry["value"]
    except Exception:  # noqa: BLE001 - missing, unreadable, made by other code: not found
        return None


def store(key: tuple, value: Any, files: list = (), folders: list = (),
          directory: StrPath | None = None) -> bool:
    """Keep ``value`` under ``key``, made from ``files`` (paths, hashed now, or records
    ``(path, stamp, size, sha)`` of the bytes read, as :mod:`.sources` makes them) and the
    listings of ``folders`` (paths, listed now, or records ``(path, ((name, stamp),
    ...))``); True when written (False, silently, when the cache folder cannot be written,
    and with a warning when it is not :func:`trusted`)."""
    path = entry_path(key, directory)
    try:
        entry = {"format": FORMAT, "key": key, "code": code_fingerprint(),
                 "files": [f if isinstance(f, tuple) else file_record(f) for f in files],
                 "folders": [f if isinstance(f, tuple) else listing_record(f)
                             for f in folders], "value": value}
        import pickle
        import tempfile

        folder = os.path.dirname(path)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not trusted(folder):
            return False
        payload = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")  # mode 0600
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(MAGIC + _sha512(payload).digest() + payload)
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
